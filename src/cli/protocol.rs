//! `m3go protocol`: m3go as the implementation under test, answering `m3go-conform/1` requests.

use crate::conform::case as conform;
use crate::error::{read_line_bounded, ReadError, MAX_INPUT_BYTES};
use crate::game::setup::InputError;
use serde_json::Value;

/// Answer conformance requests (m3go-conform/1, JSON lines) on stdin.
///
/// Reads one JSON request per line and writes one JSON answer per line to stdout, flushing
/// after each: m3go as the implementation under test (`m3go conform --impl 'm3go protocol'`).
/// A request that does not parse, is not UTF-8 or is longer than 4 MiB is answered with
/// `{"id":null,"error":…}` and the session goes on with the next line. A closed stdout ends
/// the session quietly.
#[derive(Debug, clap::Args)]
pub struct ProtocolArgs {}

/// The answer to one request line, whatever its bytes (at most [`MAX_INPUT_BYTES`] of them are
/// read per line by [`run`]): the analysis, or an error answer naming the problem.
pub fn answer_line(line: &[u8]) -> Value {
    let fail = |msg: String| serde_json::json!({"id": Value::Null, "error": msg});
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => return fail(format!("request: not UTF-8 text: {e}")),
    };
    match serde_json::from_str::<conform::Request>(text) {
        Ok(req) => conform::answer(&req),
        Err(e) => fail(format!("request: {e}")),
    }
}

pub fn run(_args: ProtocolArgs) -> Result<(), InputError> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    while let Some(line) = read_line_bounded(&mut input, MAX_INPUT_BYTES) {
        let ans = match line {
            Ok(l) if l.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(l) => answer_line(&l),
            Err(ReadError::TooLarge { limit }) => serde_json::json!({
                "id": Value::Null,
                "error": format!("request: the line is longer than {limit} bytes: expected at most {limit} bytes"),
            }),
            Err(ReadError::Io(e)) => {
                return Err(InputError::new(format!("cannot read: {e}")).file("stdin"))
            }
        };
        outln!("{ans}");
        crate::cli::common::flush_out();
    }
    Ok(())
}
