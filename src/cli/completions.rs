//! `m3go completions SHELL` and `m3go manpage`: the shell completions and the roff man page,
//! both written from the clap definition the parser uses (clap_complete, clap_mangen), so they
//! list exactly the subcommands, flags and values `m3go` accepts.

use crate::cli::Cli;
use clap::CommandFactory;
use m3go_engine::InputError;

/// Print the completion script of a shell.
///
/// Install it as the shell expects, e.g. `m3go completions bash >
/// ~/.local/share/bash-completion/completions/m3go`, `m3go completions zsh >
/// ~/.zfunc/_m3go`, `m3go completions fish > ~/.config/fish/completions/m3go.fish`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

pub fn run(args: CompletionsArgs) -> Result<(), InputError> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "m3go", &mut out);
    out!("{}", String::from_utf8_lossy(&out));
    Ok(())
}

/// Print the man page (roff).
///
/// `m3go manpage > m3go.1 && man ./m3go.1`, or into a folder of MANPATH as `man1/m3go.1`. The
/// page of the whole command: every subcommand with its arguments (`m3go SUB --help` has
/// the same text).
#[derive(Debug, clap::Args)]
pub struct ManpageArgs {}

pub fn manpage(_: ManpageArgs) -> Result<(), InputError> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    let io = |e: std::io::Error| InputError::new(format!("cannot write the man page: {e}"));
    clap_mangen::Man::new(cmd.clone())
        .render(&mut out)
        .map_err(io)?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        out.extend_from_slice(
            format!(".SH \"M3GO {}\"\n", sub.get_name().to_uppercase()).as_bytes(),
        );
        let man = clap_mangen::Man::new(sub.clone());
        man.render_description_section(&mut out).map_err(io)?;
        man.render_synopsis_section(&mut out).map_err(io)?;
        man.render_options_section(&mut out).map_err(io)?;
    }
    out!("{}", String::from_utf8_lossy(&out));
    Ok(())
}
