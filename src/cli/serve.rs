//! `m3go serve`: the adjudication page (`crate::serve`).

use m3go_engine::InputError;

/// The adjudication page: a local web board over the engine.
///
/// Serves one page (embedded in the binary; nothing is fetched from the network) and a JSON API
/// on http://127.0.0.1:PORT/: set up a position by clicking, the direct, holographic and upper
/// boards, the clause trace of any point, string or move, moves with their cascade, records
/// stepped move by move or replayed mechanically, the readings, and exports. Runs until
/// interrupted.
///
/// Every request fully received is answered: past 64 open connections, one more waits up to
/// 2 s for room, then gets 503 with `Retry-After`. Request bodies and records are at most 1 MiB
/// (a link's record is unpacked to that bound too); an empty record is refused.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; only this machine can reach the default.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Also answer requests whose `Host` is NAME (`board.example.org`, `10.0.0.5:8080`): for a
    /// deliberate bind to another address. Repeatable. By default only the server's own
    /// address (localhost, 127.0.0.1, [::1] with the port, and --host) is answered, and a POST
    /// from a page of another origin is refused: the defence against DNS rebinding.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Answer any `Host` and `Origin` (no DNS-rebinding defence): only behind a proxy that
    /// checks them itself.
    #[arg(long)]
    pub any_host: bool,
}

pub fn run(args: ServeArgs) -> Result<(), InputError> {
    let options = crate::serve::Options {
        allow_hosts: args.allow_host.clone(),
        any_host: args.any_host,
        ..crate::serve::Options::default()
    };
    let server = crate::serve::Server::bind_with(&args.host, args.port, &options)?;
    let url = server.url();
    outln!("m3go serve: {url} (Ctrl-C to stop)");
    crate::cli::common::flush_out();
    if args.open && open::that_detached(&url).is_err() {
        errln!(
            "m3go serve: no browser opened the page ({}: each failed or is not installed); \
             open {url} by hand",
            launchers(&url)
        );
    }
    server.run();
    Ok(())
}

/// The system's openers `--open` tries (`xdg-open, gio, …` on Linux), named once each: what a
/// failure names instead of the `open` crate's error, which quotes a launcher's exit in Rust's
/// debug form (`ExitStatus(unix_wait_status(768))`).
fn launchers(url: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    for c in open::commands(url) {
        let name = c.get_program().to_string_lossy().into_owned();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}
