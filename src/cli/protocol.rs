//! `m3go protocol`: m3go as the implementation under test, answering `m3go-conform/1` requests.

use crate::conform::case as conform;
use crate::game::setup::InputError;
use std::io::{BufRead, Write};

/// Answer conformance requests (m3go-conform/1, JSON lines) on stdin.
///
/// Reads one JSON request per line and writes one JSON answer per line to stdout, flushing
/// after each: m3go as the implementation under test (`m3go conform --impl 'm3go protocol'`).
/// A request that does not parse is answered with an error object (`{"id":…,"error":{"code",
/// "field","message"}}`); a `capabilities` request with the versions and rule sets supported.
#[derive(Debug, clap::Args)]
pub struct ProtocolArgs {
    /// Declare and answer only these presets (comma-separated), answering `unsupported` to
    /// the others: a restricted implementation, for trying a runner's capability handling.
    #[arg(long, value_name = "PRESET,…", value_delimiter = ',')]
    pub presets: Option<Vec<String>>,
}

pub fn run(args: ProtocolArgs) -> Result<(), InputError> {
    let caps = match &args.presets {
        None => conform::Capabilities::m3go(),
        Some(p) => {
            for name in p {
                crate::rules::Rules::preset(name)
                    .map_err(|e| InputError::new(e.to_string()).key("--presets"))?;
            }
            conform::Capabilities::only_presets(p)
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| InputError::new(e.to_string()).file("stdin"))?;
        if line.trim().is_empty() {
            continue;
        }
        let ans = conform::answer_line(&line, &caps);
        writeln!(out, "{ans}").map_err(|e| InputError::new(e.to_string()).file("stdout"))?;
        out.flush()
            .map_err(|e| InputError::new(e.to_string()).file("stdout"))?;
    }
    Ok(())
}
