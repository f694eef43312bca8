//! `m3go protocol`: m3go as the implementation under test, answering `m3go-conform/1` requests.

use crate::conform::case as conform;
use crate::game::setup::InputError;
use serde_json::Value;
use std::io::{BufRead, Write};

/// Answer conformance requests (m3go-conform/1, JSON lines) on stdin.
///
/// Reads one JSON request per line and writes one JSON answer per line to stdout, flushing
/// after each: m3go as the implementation under test (`m3go conform --impl 'm3go protocol'`).
/// A request that does not parse is answered with `{"id":null,"error":…}`.
#[derive(Debug, clap::Args)]
pub struct ProtocolArgs {}

pub fn run(_args: ProtocolArgs) -> Result<(), InputError> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| InputError::new(e.to_string()).file("stdin"))?;
        if line.trim().is_empty() {
            continue;
        }
        let ans = match serde_json::from_str::<conform::Request>(&line) {
            Ok(req) => conform::answer(&req),
            Err(e) => serde_json::json!({"id": Value::Null, "error": format!("request: {e}")}),
        };
        writeln!(out, "{ans}").map_err(|e| InputError::new(e.to_string()).file("stdout"))?;
        out.flush()
            .map_err(|e| InputError::new(e.to_string()).file("stdout"))?;
    }
    Ok(())
}
