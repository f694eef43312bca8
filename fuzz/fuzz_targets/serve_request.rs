//! The server's reading of a request (`serve::read_request`: the path, the method, the body as
//! the endpoint's JSON request, a replay's record; `serve::Access::check`: the `Host` and
//! `Origin` headers), and `formats::record::Record::parse_sent`, the reading of a record sent to the
//! server: no input panics; a record read from a request never names a start position file, in
//! any spelling the header reader accepts; no message echoes a file of the server (a sentinel
//! file `fuzz-secret` is written in the working directory, where a relative `position:` path
//! would find it). The engine is not run (that is `serve::api::answer`, covered by the other
//! targets through the same functions).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use m3go_engine::formats::record::Record;
use m3go_engine::formats::record::{game_lines, header_line};
use m3go::serve::{api, read_request, Access, Options, Routed};

const SENTINEL: &str = "SENTINEL-of-the-server-7d3a";

const PATHS: [&str; 13] = [
    "/",
    "/index.html",
    "/main.js",
    "/style.css",
    "/api/options",
    "/api/analyze",
    "/api/render",
    "/api/explain",
    "/api/readings",
    "/api/play",
    "/api/replay",
    "/api/export",
    "/api/",
];

#[derive(Arbitrary, Debug)]
struct Input {
    post: bool,
    /// One of [`PATHS`], or `path` when past them.
    endpoint: u8,
    path: String,
    host: Option<String>,
    origin: Option<String>,
    body: Vec<u8>,
    /// Sent as a replay's `record` (JSON-quoted), and read by `parse_sent` as is.
    record: String,
}

/// Whether a message could only come from reading the sentinel file.
fn echoes_the_file(message: &str) -> bool {
    message.contains(SENTINEL)
}

/// Whether a game file's header names a start position file in any spelling.
fn names_a_file(text: &str) -> bool {
    !Record::looks_like_sgf(text)
        && game_lines(text)
            .filter_map(header_line)
            .any(|(k, _)| k.eq_ignore_ascii_case("position"))
}

fuzz_target!(|input: Input| {
    static SECRET: std::sync::Once = std::sync::Once::new();
    SECRET.call_once(|| {
        std::fs::write("fuzz-secret", format!("{SENTINEL}\n")).expect("write the sentinel file")
    });
    let method = if input.post { "POST" } else { "GET" };
    let access = Access::new("127.0.0.1", 8080, &Options::default());
    let checked = access.check(method, input.host.as_deref(), None, input.origin.as_deref());
    if input.host.as_deref() == Some("127.0.0.1:8080") && input.origin.is_none() {
        assert!(checked.is_ok(), "the server's own Host refused");
    }
    if checked.is_ok()
        && !input.host.as_deref().is_some_and(|h| {
            ["localhost:8080", "127.0.0.1:8080", "[::1]:8080"]
                .iter()
                .any(|k| k.eq_ignore_ascii_case(h.trim()))
        })
    {
        panic!("a foreign Host answered: {:?}", input.host);
    }
    let path = PATHS
        .get(usize::from(input.endpoint))
        .copied()
        .unwrap_or(&input.path);
    let bodies = [
        input.body.clone(),
        serde_json::json!({ "record": input.record })
            .to_string()
            .into_bytes(),
    ];
    for body in &bodies {
        match read_request(method, path, Some(body)) {
            Ok(Routed::Api(api::Request::Replay(_, record))) => {
                assert!(record.start_path.is_none(), "a request named a file");
            }
            Ok(_) => {}
            Err(reply) => {
                let text = String::from_utf8_lossy(&reply.body);
                assert!(!echoes_the_file(&text), "the reply echoes a file: {text}");
                assert!(
                    (400..500).contains(&reply.status),
                    "{}: {text}",
                    reply.status
                );
            }
        }
    }
    match Record::parse_sent(&input.record, "record") {
        Ok(r) => {
            assert!(r.start_path.is_none(), "a sent record named a file");
            assert!(
                !names_a_file(&input.record),
                "a `position:` header was read: {:?}",
                input.record
            );
        }
        Err(e) => {
            let m = e.to_string();
            assert!(!echoes_the_file(&m), "the message echoes a file: {m}");
            assert!(m.starts_with("record"), "a message without its place: {m}");
        }
    }
});
