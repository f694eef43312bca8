//! The JSON API of `m3go serve`, over HTTP on 127.0.0.1: good requests answer what the CLI
//! answers (the analysis, the trace, the readings, a move's report, a replay, the exports), and
//! bad ones get a JSON error with the CLI's message and a 4xx status, after which the server
//! still serves.

use m3go::serve::Server;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// One server for the whole file, on a free port.
fn base() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        let s = Server::bind("127.0.0.1", 0).expect("bind a free port");
        let url = format!("http://{}", s.addr());
        // the worker threads keep serving until the test process ends
        drop(s.spawn());
        url
    })
}

/// POSTs `body` (raw) to `/api/NAME`; returns the status and the JSON answer.
pub(crate) fn post_raw(name: &str, body: &str) -> (u16, Value) {
    let r = ureq::post(&format!("{}/api/{name}", base()))
        .set("Content-Type", "application/json")
        .send_string(body);
    answer(r)
}

pub(crate) fn post(name: &str, body: Value) -> (u16, Value) {
    post_raw(name, &body.to_string())
}

pub(crate) fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
    let resp = match r {
        Ok(resp) => resp,
        Err(ureq::Error::Status(_, resp)) => resp,
        Err(e) => panic!("transport error: {e}"),
    };
    let status = resp.status();
    assert!(
        resp.content_type().starts_with("application/json"),
        "{}",
        resp.content_type()
    );
    let v: Value = resp.into_json().expect("a JSON answer");
    (status, v)
}

fn file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What `m3go ARGS` prints on standard output and standard error.
fn cli(args: &[&str]) -> (String, String) {
    let (_, out, err) = crate::common::m3go(args);
    (out, err)
}

#[test]
fn serve_page_and_assets_are_served_from_the_binary() {
    for (path, kind, needle) in [
        (
            "/",
            "text/html",
            "<script type=\"module\" src=\"/main.js\">",
        ),
        ("/main.js", "text/javascript", "import "),
        ("/api.js", "text/javascript", "/api/"),
        ("/style.css", "text/css", "#board"),
    ] {
        let r = ureq::get(&format!("{}{path}", base())).call().expect(path);
        assert_eq!(r.status(), 200);
        assert!(r.content_type().starts_with(kind), "{path}");
        let body = r.into_string().expect("text");
        assert!(body.contains(needle), "{path}");
        // nothing is fetched from the network
        assert!(!body.contains("https://"), "{path}");
    }
    let (status, v) = answer(ureq::get(&format!("{}/nothing-here", base())).call());
    assert_eq!(status, 404);
    assert!(v["error"]
        .as_str()
        .is_some_and(|e| e.contains("/nothing-here")));
}

/// The page's CJK subset font is served as the file of src/serve/page/font (subset.sh), with
/// its licence beside it.
#[test]
fn serve_cjk_subset_font_is_served() {
    let r = ureq::get(&format!("{}/m3go-cjk.woff2", base()))
        .call()
        .expect("the font");
    assert_eq!(r.status(), 200);
    assert_eq!(r.content_type(), "font/woff2");
    let mut body = Vec::new();
    std::io::Read::read_to_end(&mut r.into_reader(), &mut body).expect("the font's bytes");
    let font = std::fs::read(format!(
        "{}/src/serve/page/font/m3go-cjk.woff2",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the font file");
    assert!(body.starts_with(b"wOF2"));
    assert_eq!(body, font);
    assert!(file("src/serve/page/font/OFL.txt").contains("SIL OPEN FONT LICENSE Version 1.1"));
    // every CJK glyph of the page's own labels is in the subset's list
    let glyphs = file("src/serve/page/font/glyphs.txt");
    let page = file("src/serve/page/index.html");
    for ch in page
        .chars()
        .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
    {
        assert!(
            glyphs.contains(ch),
            "index.html: {ch} is not in the subset (run src/serve/page/font/subset.sh)"
        );
    }
}

#[test]
fn serve_analyze_is_the_cli_analysis() {
    let pos = file("spec/positions/example.yaml");
    let (status, v) = post(
        "analyze",
        json!({ "position": pos, "layer": "holographic" }),
    );
    assert_eq!(status, 200, "{v}");
    let (out, _) = cli(&["analyze", "spec/positions/example.yaml", "--format", "json"]);
    let from_cli: Value = serde_json::from_str(&out).expect("CLI JSON");
    assert_eq!(v["analysis"], from_cli);
    let (text, _) = cli(&["analyze", "spec/positions/example.yaml"]);
    assert_eq!(v["text"], text.as_str());
    let svg = v["svg"].as_str().expect("svg");
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("data-point=\"OO\""));
    assert_eq!(svg.matches("class=\"point\"").count(), 19 * 19);
    // the position written back reads again to the same analysis
    let (status, again) = post("analyze", json!({ "position": v["position"] }));
    assert_eq!(status, 200);
    assert_eq!(again["analysis"], v["analysis"]);
    // the figure's edge labels follow the request's label system; `data-point` stays Chinese
    for (labels, edge, other) in [("chinese", ">九<", ">9<"), ("latin", ">9<", ">九<")] {
        let (status, r) = post(
            "render",
            json!({ "position": pos, "layer": "holographic", "labels": labels }),
        );
        assert_eq!(status, 200, "{r}");
        let svg = r["svg"].as_str().expect("svg");
        assert!(svg.contains(edge), "{labels}: no edge label {edge}");
        assert!(!svg.contains(other), "{labels}: edge label {other}");
        assert!(svg.contains("data-point=\"六九\""), "{labels}");
        let (status, a) = post("analyze", json!({ "position": pos, "labels": labels }));
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["svg"].as_str(), Some(svg));
    }
    let (status, e) = post("render", json!({ "position": pos, "labels": "greek" }));
    assert_eq!(status, 400, "{e}");
    // every layer renders
    for layer in ["direct", "holographic", "upper"] {
        let (status, r) = post("render", json!({ "position": pos, "layer": layer }));
        assert_eq!(status, 200, "{r}");
        assert!(r["svg"]
            .as_str()
            .is_some_and(|s| s.contains(&format!("{layer} layer"))));
    }
}

#[test]
fn serve_explain_and_readings_are_the_cli_ones() {
    let pos = file("spec/positions/readings.yaml");
    let (status, v) = post("explain", json!({ "position": pos, "target": "花10.CD" }));
    assert_eq!(status, 200, "{v}");
    let (out, _) = cli(&["explain", "spec/positions/readings.yaml", "花10.CD"]);
    assert_eq!(v["trace"], out.as_str());
    let c = &v["clauses"][0];
    assert_eq!(c["id"], "M20-FORBID-CAPTURE");
    assert!(c["quote"].as_str().is_some_and(|q| q.contains("提吃点")));
    assert!(c["reading"].as_str().is_some_and(|r| !r.is_empty()));

    let (status, v) = post("readings", json!({ "position": pos, "target": "花10.CD" }));
    assert_eq!(status, 200, "{v}");
    let (out, _) = cli(&[
        "explain",
        "spec/positions/readings.yaml",
        "花10.CD",
        "--readings",
        "--format",
        "json",
    ]);
    let from_cli: Value = serde_json::from_str(&out).expect("CLI JSON");
    assert_eq!(v["readings"], from_cli["readings"]["readings"]);
    assert_eq!(v["format"], "m3go-readings/1");
    assert!(v["register"]["D29"]
        .as_str()
        .is_some_and(|t| t.contains("tiger")));
}

#[test]
fn serve_play_undo_and_export() {
    let pos = file("spec/positions/readings.yaml");
    let (status, v) = post(
        "play",
        json!({ "position": pos, "moves": ["花10.二一", "黑11.pass"] }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["reports"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["reports"][0]["notation"], "花10.二一");
    let next = v["position"].as_str().expect("position").to_string();
    assert!(next.contains("move: 12"), "{next}");
    assert!(v["analysis"].is_null(), "no analysis unless asked: {v}");
    // one request a move: with `analysis: true` the answer carries analyze's answer for the
    // next position, the same as asking analyze for it
    let (status, one) = post(
        "play",
        json!({ "position": pos, "moves": ["花10.二一", "黑11.pass"], "analysis": true,
                "layer": "upper", "labels": "latin" }),
    );
    assert_eq!(status, 200, "{one}");
    let (status, two) = post(
        "analyze",
        json!({ "position": next, "layer": "upper", "labels": "latin" }),
    );
    assert_eq!(status, 200, "{two}");
    assert_eq!(one["analysis"], two, "play's analysis is analyze's answer");
    for (format, needle) in [("yaml", "diagram:"), ("svg", "<svg")] {
        let (status, e) = post("export", json!({ "format": format, "position": next }));
        assert_eq!(status, 200, "{format}: {e}");
        assert!(
            e["text"].as_str().is_some_and(|t| t.contains(needle)),
            "{format}: {e}"
        );
    }
    // a game from the empty board, as SGF and as a game file
    let empty = "size: 9\nmove: 1\ndiagram: |\n".to_string() + &"  . . . . . . . . .\n".repeat(9);
    for (format, needle) in [("sgf", ";B[ee]"), ("game", "黑1.OO")] {
        let (status, e) = post(
            "export",
            json!({ "format": format, "start": empty, "moves": ["OO", "白2.一一"] }),
        );
        assert_eq!(status, 200, "{format}: {e}");
        assert!(
            e["text"].as_str().is_some_and(|t| t.contains(needle)),
            "{format}: {e}"
        );
    }
    // a game file cannot start from a set-up position: the CLI's message, a 400
    let (status, e) = post(
        "export",
        json!({ "format": "game", "start": pos, "moves": ["花10.二一"] }),
    );
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("write it as SGF")),
        "{e}"
    );
    let (status, e) = post(
        "export",
        json!({ "format": "sgf", "start": pos, "moves": ["花10.二一"] }),
    );
    assert_eq!(status, 200, "{e}");
}

#[test]
fn serve_replay_steps_a_record() {
    let sgf = file("spec/records/kejie-alphago-2017-g1.sgf");
    let (status, v) = post(
        "replay",
        json!({ "record": sgf, "mechanical": true, "to": 10 }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["last"], 10);
    assert!(v["moves"].as_u64().is_some_and(|n| n > 288));
    assert!(v["position"]
        .as_str()
        .is_some_and(|p| p.contains("move: 11")));
    let (out, _) = cli(&[
        "replay",
        "spec/records/kejie-alphago-2017-g1.sgf",
        "--mechanical",
        "--to",
        "10",
    ]);
    assert_eq!(v["log"], out.as_str());
}

#[test]
fn serve_bad_requests_get_the_cli_message_and_a_4xx() {
    // a bad position: the message the CLI prints for the same file, with the place `position`
    let bad = "size: 3\ndiagram: |\n  . X .\n  . . .\n  . . Z\n";
    let dir = std::env::temp_dir().join(format!("m3go-serve-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("position");
    std::fs::write(&path, bad).expect("write");
    let (_, err) = cli(&["analyze", path.to_str().expect("utf-8 path")]);
    let (status, v) = post("analyze", json!({ "position": bad }));
    assert_eq!(status, 400);
    let msg = v["error"].as_str().expect("error");
    let cli_msg = err.trim_start_matches("error: ").trim_end();
    let cli_msg = cli_msg.replacen(path.to_str().expect("utf-8"), "position", 1);
    assert_eq!(msg, cli_msg);
    let _ = std::fs::remove_dir_all(&dir);

    let pos = file("spec/positions/readings.yaml");
    for (name, body, status, needle) in [
        ("analyze", "not json".to_string(), 400, "request body"),
        (
            "analyze",
            json!({ "positoin": pos }).to_string(),
            400,
            "unknown field",
        ),
        (
            "analyze",
            json!({ "position": pos, "layer": "sideways" }).to_string(),
            400,
            "layer",
        ),
        (
            "explain",
            json!({ "position": pos, "target": "ZZ" }).to_string(),
            400,
            "ZZ",
        ),
        (
            "explain",
            json!({ "position": pos }).to_string(),
            400,
            "target",
        ),
        (
            "readings",
            json!({ "position": pos, "target": "黑10.ZZ" }).to_string(),
            400,
            "ZZ",
        ),
        (
            "play",
            json!({ "position": pos, "moves": ["花10.CD"] }).to_string(),
            400,
            "move 1",
        ),
        (
            "replay",
            json!({ "record": "(;SZ[9];B[zz])" }).to_string(),
            400,
            "record",
        ),
        (
            "export",
            json!({ "format": "pdf", "position": pos }).to_string(),
            400,
            "pdf",
        ),
        (
            "export",
            json!({ "format": "sgf" }).to_string(),
            400,
            "start",
        ),
        ("nothing", "{}".to_string(), 404, "/api/nothing"),
    ] {
        let (got, v) = post_raw(name, &body);
        assert_eq!(got, status, "{name} {body}: {v}");
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{name}: {v}"));
        assert!(e.contains(needle), "{name} {body}: {e}");
    }
    // the wrong method
    let (status, _) = answer(ureq::get(&format!("{}/api/analyze", base())).call());
    assert_eq!(status, 405);
    // a body over the limit
    let big = "x".repeat(m3go::serve::MAX_BODY + 10);
    let (status, v) = post_raw("analyze", &big);
    assert_eq!(status, 413, "{v}");
    // and it still serves
    let (status, v) = post("analyze", json!({ "position": pos }));
    assert_eq!(status, 200, "{v}");
}

#[test]
fn serve_guide_api_table_lists_every_endpoint() {
    let readme = file("docs/src/referee-serve.md");
    for e in m3go::serve::api::ENDPOINTS {
        let row = format!(
            "| `/api/{}` | {} | {} | {} |",
            e.name, e.method, e.request, e.answer
        );
        assert!(
            readme.contains(&row),
            "docs/src/referee-serve.md lacks the API row\n{row}"
        );
    }
    let rows = readme.lines().filter(|l| l.starts_with("| `/api/")).count();
    assert_eq!(rows, m3go::serve::api::ENDPOINTS.len());
}

/// Clients that send their headers and then stall their bodies hold no worker: with more of them
/// than the server has workers, an options request is still answered (ureq times out after 20 s
/// instead of hanging the test).
#[test]
fn stalled_bodies_do_not_stop_the_server() {
    use std::io::Write;
    let addr = base().trim_start_matches("http://").to_string();
    let mut stalled = Vec::new();
    for _ in 0..8 {
        let mut c = std::net::TcpStream::connect(&addr).expect("connect");
        c.write_all(
            b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
        )
        .expect("send headers");
        stalled.push(c);
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let r = ureq::get(&format!("{}/api/options", base()))
        .timeout(std::time::Duration::from_secs(20))
        .call();
    let (status, v) = answer(r);
    assert_eq!(status, 200, "{v}");
    drop(stalled);
}

/// Sends raw bytes on a fresh connection and reads what comes back until the server closes it
/// or `wait` passes; returns the text read (lossy).
pub(crate) fn raw_exchange(addr: &str, bytes: &[u8], wait: std::time::Duration) -> String {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr).expect("connect");
    c.set_read_timeout(Some(wait)).expect("timeout");
    c.write_all(bytes).expect("send");
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let until = std::time::Instant::now() + wait;
    while std::time::Instant::now() < until {
        match c.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// The status code of a raw HTTP answer (`HTTP/1.1 403 Forbidden` → 403), 0 for none.
pub(crate) fn raw_status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Issue 20 (the worst finding): a game-file header written with white space before its colon,
/// or in another case, named a file the server then read, and the file's text came back in the
/// message. Every spelling is now refused by the one header reader, and no file is read.
#[test]
fn serve_replay_reads_no_file_whatever_the_spelling_of_position() {
    let dir = std::env::temp_dir().join(format!("m3go-serve-secret-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let secret = dir.join("secret.yaml");
    std::fs::write(&secret, "SECRET-6c1f of the server\n").expect("write");
    let path = secret.to_str().expect("utf-8 path");
    for header in [
        format!("position: {path}"),
        format!("position : {path}"),
        format!("position\t: {path}"),
        format!("position\u{3000}: {path}"),
        format!("  position  :{path}"),
        format!("rules: m3go-2020\nposition : {path}"),
    ] {
        let text = format!("{header}\n黑1.OO\n");
        let (status, v) = post("replay", json!({ "record": text }));
        assert_eq!(status, 400, "{header:?}: {v}");
        let e = v["error"].as_str().expect("error");
        assert!(!e.contains("SECRET"), "{header:?} echoes the file: {e}");
        assert!(
            e.contains("may not name a start position file"),
            "{header:?}: {e}"
        );
    }
    // another case is an unknown key, never a read
    for header in [format!("Position: {path}"), format!("POSITION : {path}")] {
        let (status, v) = post("replay", json!({ "record": format!("{header}\n黑1.OO\n") }));
        assert_eq!(status, 400, "{header:?}: {v}");
        let e = v["error"].as_str().expect("error");
        assert!(!e.contains("SECRET"), "{header:?} echoes the file: {e}");
        assert!(e.contains("unknown header key"), "{header:?}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// DNS rebinding: a request whose `Host` is not the server's own address, or a POST from a page
/// of another origin, gets 403; the server's own names are answered.
#[test]
fn serve_refuses_foreign_host_and_origin_with_403() {
    let addr = base().trim_start_matches("http://").to_string();
    let port = addr.rsplit(':').next().expect("port").to_string();
    let wait = std::time::Duration::from_secs(10);
    let get = |host: &str| {
        raw_exchange(
            &addr,
            format!("GET /api/options HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
            wait,
        )
    };
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(raw_status(&get(&host)), 200, "{host}");
    }
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{port}.evil.example"),
        "127.0.0.1:1".to_string(),
        String::new(),
    ] {
        let a = get(&host);
        assert_eq!(raw_status(&a), 403, "{host}: {a}");
        assert!(a.contains("Host"), "{host}: {a}");
    }
    // no Host at all
    let a = raw_exchange(&addr, b"GET /api/options HTTP/1.0\r\n\r\n", wait);
    assert_eq!(raw_status(&a), 403, "{a}");
    let post_from = |origin: &str| {
        let body = r#"{"position":"size: 3\ndiagram: |\n  . . .\n  . . .\n  . . .\n"}"#;
        raw_exchange(
            &addr,
            format!(
                "POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
            wait,
        )
    };
    assert_eq!(
        raw_status(&post_from(&format!("http://127.0.0.1:{port}"))),
        200
    );
    assert_eq!(
        raw_status(&post_from(&format!("http://localhost:{port}"))),
        200
    );
    for origin in [
        "http://evil.example",
        "null",
        "https://127.0.0.1",
        &format!("http://127.0.0.1:{port}.evil.example"),
    ] {
        let a = post_from(origin);
        assert_eq!(raw_status(&a), 403, "{origin}: {a}");
        assert!(a.contains("Origin"), "{origin}: {a}");
    }
}

/// Starts `m3go serve --port 0 ARGS` as a child; returns it and its address (`127.0.0.1:PORT`).
pub(crate) fn serve_child(args: &[&str]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_m3go"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start m3go serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the URL line");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, addr)
}

/// Asks the server at `addr` for its options `times` times, each answered with 200 within 10 s.
fn options_answered(addr: &str, times: usize) {
    for _ in 0..times {
        let r = ureq::get(&format!("http://{addr}/api/options"))
            .timeout(std::time::Duration::from_secs(10))
            .call();
        let (status, v) = answer(r);
        assert_eq!(status, 200, "{v}");
    }
}

/// Kills the child server when the test ends, however it ends.
pub(crate) struct KillOnDrop(pub(crate) std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Issue 20: 70 clients that sent their headers and stalled their bodies locked everyone out
/// (no read timeout; then 503 for all). A server in a process of its own gets 100 such clients
/// and 20 more stalled inside their headers; other clients are answered all the while. Bounded:
/// 120 connections on loopback, every request with a timeout.
#[test]
fn serve_answers_others_while_100_clients_stall() {
    use std::io::Write;
    let (child, addr) = serve_child(&[]);
    let mut child = KillOnDrop(child);
    let mut stalled = Vec::new();
    for k in 0..120 {
        let mut c = std::net::TcpStream::connect(&addr).expect("connect");
        let head = if k < 100 {
            format!("POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{")
        } else {
            "GET /api/options HTTP/1.1\r\nHo".to_string()
        };
        c.write_all(head.as_bytes()).expect("send");
        stalled.push(c);
    }
    // past `Limits::stalled` (1 s): the stalled connections may be closed to make room
    std::thread::sleep(std::time::Duration::from_millis(2500));
    options_answered(&addr, 10);
    assert!(
        child.0.try_wait().expect("wait").is_none(),
        "the server exited"
    );
    drop(stalled);
}

/// Issue 20: a huge `Content-Length`, even on a GET, aborted the server after its 413 (the HTTP
/// layer allocated a buffer of the declared size). A server in a process of its own (an abort
/// is its exit) gets 40 such declarations while other clients are answered, and is still
/// running at the end. Bounded: 40 connections on loopback, every read with a timeout.
#[test]
fn serve_survives_huge_content_length_declarations() {
    let (child, addr) = serve_child(&[]);
    let mut child = KillOnDrop(child);
    let oversized = {
        let addr = addr.clone();
        std::thread::spawn(move || {
            let mut statuses = Vec::new();
            for k in 0..40 {
                let method = if k % 2 == 0 {
                    "GET /api/options"
                } else {
                    "POST /api/analyze"
                };
                let a = raw_exchange(
                    &addr,
                    format!("{method} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 1000000000000000\r\n\r\n")
                        .as_bytes(),
                    std::time::Duration::from_secs(10),
                );
                statuses.push(raw_status(&a));
            }
            statuses
        })
    };
    options_answered(&addr, 10);
    let statuses = oversized.join().expect("the oversized client");
    assert!(statuses.iter().all(|&s| s == 413), "{statuses:?}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(
        child.0.try_wait().expect("wait").is_none(),
        "the server exited"
    );
    options_answered(&addr, 1);
}

/// Issue 20's smaller server classes: a malformed chunked body is a 400 that says so (not "too
/// large"); a POST to an unknown path is a 404 (a known page with the wrong method a 405); an
/// HTTP/2 preface gets its connection closed at once rather than left hanging.
#[test]
fn serve_malformed_chunks_unknown_paths_and_http2_preface_get_their_own_answer() {
    let addr = base().trim_start_matches("http://").to_string();
    let wait = std::time::Duration::from_secs(10);
    let a = raw_exchange(
        &addr,
        format!("POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n").as_bytes(),
        wait,
    );
    assert_eq!(raw_status(&a), 400, "{a}");
    assert!(
        a.contains("cannot be read") && !a.contains("too large"),
        "{a}"
    );
    for (method, path, status) in [
        ("POST", "/nothing", 404),
        ("PUT", "/nothing", 404),
        ("POST", "/api/nothing", 404),
        ("POST", "/", 405),
        ("POST", "/main.js", 405),
        ("GET", "/api/play", 405),
    ] {
        let a = raw_exchange(
            &addr,
            format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}").as_bytes(),
            wait,
        );
        assert_eq!(raw_status(&a), status, "{method} {path}: {a}");
    }
    let started = std::time::Instant::now();
    let a = raw_exchange(&addr, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", wait);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the HTTP/2 preface hung its connection for {:?}: {a}",
        started.elapsed()
    );
    // closed (hyper speaks HTTP/1.1 only and drops the connection), or refused with a status
    assert!(a.is_empty() || raw_status(&a) >= 400, "{a}");
}

/// Issue 20: the server ignored the move-number limit (`/api/play` at move 1000000 answered a
/// position `/api/analyze` refuses; `/api/export` wrote a game file `/api/replay` refuses) and
/// the count of a record: it plays through the CLI's bounded loop now.
#[test]
fn serve_play_and_export_keep_the_move_number_and_count_limits() {
    let at = |n: u32| format!("size: 3\nmove: {n}\ndiagram: |\n  . . .\n  . . .\n  . . .\n");
    // the last move m3go plays is 999999: its position (move 1000000) reads back
    let (status, v) = post("play", json!({ "position": at(999_999), "moves": ["OO"] }));
    assert_eq!(status, 200, "{v}");
    let next = v["position"].as_str().expect("position").to_string();
    let (status, v) = post("analyze", json!({ "position": next }));
    assert_eq!(status, 200, "{v}");
    for name in ["play", "export"] {
        let body = if name == "play" {
            json!({ "position": at(1_000_000), "moves": ["OO"] })
        } else {
            json!({ "format": "game", "start": at(1_000_000), "moves": ["OO"] })
        };
        let (status, v) = post(name, body);
        assert_eq!(status, 400, "{name}: {v}");
        let e = v["error"].as_str().expect("error");
        assert!(e.contains("past the last move m3go plays"), "{name}: {e}");
        // more moves than a record of the board may hold
        let moves = vec!["pass"; 91];
        let (status, v) = post(
            name,
            json!({ "position": at(1), "start": at(1), "format": "sgf", "moves": moves })
                .as_object()
                .map(|o| {
                    let keep: &[&str] = if name == "play" {
                        &["position", "moves"]
                    } else {
                        &["start", "format", "moves"]
                    };
                    Value::Object(
                        o.iter()
                            .filter(|(k, _)| keep.contains(&k.as_str()))
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                    )
                })
                .expect("object"),
        );
        assert_eq!(status, 400, "{name}: {v}");
        let e = v["error"].as_str().expect("error");
        assert!(
            e.contains("91 moves given: expected at most 90"),
            "{name}: {e}"
        );
    }
}

/// The limits of a connection, with short times: a client stalled in its headers is closed, one
/// stalled in its body gets 408, one that does not read its answers is closed when a write makes
/// no progress, and with more stalled connections than the cap another client is still
/// answered (the oldest stalled one is closed to make room). Bounded: about 40 connections on
/// loopback and a few seconds.
#[test]
fn serve_connection_timeouts_and_cap() {
    use std::io::{Read, Write};
    use std::time::Duration;
    let options = m3go::serve::Options {
        limits: m3go::serve::Limits {
            header: Duration::from_secs(1),
            body: Duration::from_secs(1),
            write: Duration::from_secs(1),
            connections: 8,
            stalled: Duration::from_millis(200),
            ..m3go::serve::Limits::default()
        },
        ..m3go::serve::Options::default()
    };
    let s = Server::bind_with("127.0.0.1", 0, &options).expect("bind");
    let addr = s.addr().to_string();
    drop(s.spawn());
    // stalled in the headers: closed with no answer
    let started = std::time::Instant::now();
    let a = raw_exchange(&addr, b"GET / HTTP/1.1\r\nHo", Duration::from_secs(8));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(!a.contains(" 200 "), "{a}");
    // stalled in the body: 408
    let a = raw_exchange(
        &addr,
        format!("POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{")
            .as_bytes(),
        Duration::from_secs(8),
    );
    assert_eq!(raw_status(&a), 408, "{a}");
    // not reading its answers: closed once a write stalls
    let mut c = std::net::TcpStream::connect(&addr).expect("connect");
    c.set_write_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    // the largest module of the page, asked for 6000 times (some 45 MB of answers)
    let answer = file("src/serve/page/board.js").len();
    let request = format!("GET /board.js HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    for _ in 0..6000 {
        if c.write_all(request.as_bytes()).is_err() {
            break;
        }
    }
    std::thread::sleep(Duration::from_secs(3));
    c.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let (mut total, mut buf) = (0usize, vec![0u8; 1 << 16]);
    let ended = loop {
        match c.read(&mut buf) {
            Ok(0) => break "closed",
            Ok(n) => total += n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                break "still open"
            }
            Err(_) => break "closed",
        }
    };
    assert_eq!(ended, "closed", "after {total} bytes");
    assert!(
        total < 6000 * answer / 2,
        "{total} bytes: every answer was written"
    );
    // more stalled connections than the cap: others are still answered
    let mut stalled = Vec::new();
    for _ in 0..30 {
        let mut c = std::net::TcpStream::connect(&addr).expect("connect");
        c.write_all(
            format!("POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{")
                .as_bytes(),
        )
        .expect("send");
        stalled.push(c);
    }
    // past `Limits::stalled`: the stalled connections may be closed to make room
    std::thread::sleep(Duration::from_millis(1000));
    options_answered(&addr, 5);
    drop(stalled);
}

/// `record` replays a record once and keeps every position; `record-move` answers the kept
/// position after move `to`, the same position file `replay` gives when it replays to `to`
/// (history trimmed alike), strictly and mechanically, under the rules sent.
#[test]
fn serve_record_keeps_every_position_of_the_replay() {
    let record = file("spec/records/kejie-alphago-2017-g1.sgf");
    for (mechanical, rules) in [(true, Some("dullstone")), (true, None), (false, None)] {
        let mut req = json!({ "record": record, "mechanical": mechanical });
        if let Some(r) = rules {
            req["rules"] = json!(r);
        }
        let (status, loaded) = post("record", req.clone());
        if !mechanical && status != 200 {
            // the strict replay of a go record under its own rules may refuse a move: the
            // same refusal as `replay`'s
            let (s2, v2) = post("replay", req);
            assert_eq!((status, &loaded["error"]), (s2, &v2["error"]));
            continue;
        }
        assert_eq!(status, 200, "{loaded}");
        assert_eq!(loaded["moves"].as_array().map(Vec::len), Some(289));
        assert_eq!(loaded["variations"], 0);
        let id = loaded["id"].clone();
        for to in [0, 1, 57, 288, 289] {
            let (s, kept) = post("record-move", json!({ "id": id, "to": to }));
            assert_eq!(s, 200, "{kept}");
            let mut again = req.clone();
            again["to"] = json!(to);
            let (s, replayed) = post("replay", again);
            assert_eq!(s, 200, "{replayed}");
            assert_eq!(kept["position"], replayed["position"], "move {to}");
            assert_eq!(kept["at"], to);
            assert!(kept["analysis"]["strings"].is_array());
            let (_, quick) = post(
                "record-move",
                json!({ "id": id, "to": to, "analysis": false }),
            );
            assert!(quick.get("analysis").is_none() && quick["svg"] == kept["svg"]);
        }
    }
    let (status, v) = post(
        "record-move",
        json!({ "id": "0123456789abcdef0123456789abcdef", "to": 3 }),
    );
    assert_eq!(status, 404, "{v}");
    assert!(
        v["error"].as_str().unwrap_or("").contains("load it again"),
        "{v}"
    );
    // the variations beside the main line are counted, not replayed
    let (_, v) = post(
        "record",
        json!({ "record": "(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg];B[cc]))" }),
    );
    assert_eq!(v["variations"], 1, "{v}");
}

/// Issue 42 item 6 (issue 40's record context): `record` answers the record's game information
/// and each move's comment, and the register's clauses they cite. A match record (a forfeit by
/// suicide, written by `m3go match`) carries its players, result and game comment, and the
/// forfeit with its clause on the last move played; a hand-written SGF its root comment, its
/// date and its comments as written (markup included: the page inserts them as text).
#[test]
fn serve_record_answers_the_game_information_and_the_comments() {
    let matched = file("spec/records/match-forfeit-suicide-5x5.sgf");
    let (status, v) = post("record", json!({ "record": matched }));
    assert_eq!(status, 200, "{v}");
    // replayed mechanically, a record of m3go's rules keeps its result: it is no Go result
    let (status, mech) = post("record", json!({ "record": matched, "mechanical": true }));
    assert_eq!(status, 200, "{mech}");
    assert_eq!(mech["info"], v["info"]);
    let info = |v: &Value, key: &str| -> Option<Value> {
        v["info"]
            .as_array()?
            .iter()
            .find(|e| e["key"] == key)
            .cloned()
    };
    for (key, property, value) in [
        ("black", "PB", "alice"),
        ("white", "PW", "bob"),
        ("result", "RE", "B+F"),
        ("event", "EV", "m3go match"),
        ("round", "RO", "1"),
        ("game-name", "GN", "s0-g1"),
    ] {
        let e = info(&v, key).unwrap_or_else(|| panic!("no `{key}` in {}", v["info"]));
        assert_eq!(
            (e["property"].as_str(), e["value"].as_str(), &e["go_only"]),
            (Some(property), Some(value), &json!(false)),
            "{e}"
        );
    }
    let gc = info(&v, "game-comment").expect("the game comment");
    let gc = gc["value"].as_str().unwrap_or("");
    assert!(
        gc.starts_with("m3go: bob (white) forfeits at move 4: illegal (suicide, GO-SUICIDE)"),
        "{gc}"
    );
    let comments: Vec<Option<&str>> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["comment"].as_str())
        .collect();
    assert_eq!(comments.len(), 3, "{}", v["moves"]);
    assert_eq!(comments[0], Some("scripted A二"));
    assert_eq!(comments[1], Some("scripted 二B"));
    // the last move played: its player's comment, then the forfeit the referee wrote
    assert_eq!(comments[2], Some(format!("scripted B一\n{gc}").as_str()));
    let clause = m3go::conform::register::clause("GO-SUICIDE").expect("GO-SUICIDE");
    let cited: Vec<&Value> = v["clauses"].as_array().expect("clauses").iter().collect();
    assert_eq!(cited.len(), 1, "{}", v["clauses"]);
    assert_eq!(
        (&cited[0]["id"], &cited[0]["quote"], &cited[0]["reading"]),
        (
            &json!("GO-SUICIDE"),
            &json!(clause.quote),
            &json!(clause.reading)
        )
    );

    let sgf = "(;GM[1]SZ[9]PB[Black \\] one]PW[White]DT[2026-12-05]RE[W+R]GC[a game comment]\
               C[before the game];B[ee]C[first <b>move</b>];W[cc];B[gg]C[third])";
    for mechanical in [false, true] {
        let (status, v) = post("record", json!({ "record": sgf, "mechanical": mechanical }));
        assert_eq!(status, 200, "{v}");
        let value = |key: &str| info(&v, key).map(|e| e["value"].clone());
        assert_eq!(value("black"), Some(json!("Black ] one")));
        assert_eq!(value("date"), Some(json!("2026-12-05")));
        assert_eq!(value("game-comment"), Some(json!("a game comment")));
        assert_eq!(value("comment"), Some(json!("before the game")));
        // the Go record's result does not hold for a mechanical replay's three-colour game
        let result = info(&v, "result").expect("the result");
        assert_eq!(result["go_only"], json!(mechanical), "{result}");
        assert_eq!(
            info(&v, "black").map(|e| e["go_only"].clone()),
            Some(json!(false))
        );
        let comments: Vec<&Value> = v["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| &m["comment"])
            .collect();
        assert_eq!(
            comments,
            [&json!("first <b>move</b>"), &Value::Null, &json!("third")]
        );
        assert_eq!(v["clauses"], json!([]));
    }
}

/// With `labels: latin` the server's texts name their points in the latin system because they
/// are written that way: the play reports' `shown` form (its notation, steps and points), the
/// trace and the readings; the clause ids stay letter for letter, and `reports` stay Chinese.
#[test]
fn serve_latin_answers_are_written_in_latin_labels() {
    let pos = file("spec/positions/readings.yaml");
    let (status, v) = post(
        "play",
        json!({ "position": pos, "moves": ["花10.二一"], "labels": "latin" }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["reports"][0]["notation"], "花10.二一");
    assert_eq!(v["shown"][0]["notation"], "V10.21");
    assert_eq!(v["shown"][0]["action"], "21");
    let steps: Vec<&str> = v["shown"][0]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(steps.contains(&"placed flower at 21"), "{steps:?}");
    assert!(
        steps.iter().any(|s| s.starts_with("GO-CASCADE: ")),
        "{steps:?}"
    );
    let zh: Vec<Value> = v["reports"][0]["steps"].as_array().expect("steps").clone();
    assert_eq!(zh.len(), steps.len());

    let (status, v) = post(
        "explain",
        json!({ "position": pos, "target": "花10.CD", "labels": "latin" }),
    );
    assert_eq!(status, 200, "{v}");
    let (out, _) = cli(&[
        "explain",
        "spec/positions/readings.yaml",
        "花10.CD",
        "--labels",
        "latin",
    ]);
    assert_eq!(v["trace"], out.as_str());
    assert!(
        out.contains("V10.cd") && out.contains("M20-FORBID-CAPTURE"),
        "{out}"
    );

    let (status, v) = post(
        "readings",
        json!({ "position": pos, "target": "花10.CD", "labels": "latin" }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["target"], "V10.cd");
    let moves: Vec<&Value> = v["readings"]
        .as_array()
        .expect("readings")
        .iter()
        .flat_map(|r| r["changes"].as_array().into_iter().flatten())
        .filter(|c| c["kind"] == "move")
        .collect();
    assert!(
        moves.iter().any(|c| c["reading"]
            .as_str()
            .is_some_and(|t| t.contains("V10.cd, captures da"))),
        "{moves:?}"
    );
}

/// POSTs `body` to `/api/NAME` as the page of client `token` (`X-M3go-Client`).
fn post_as(token: &str, name: &str, body: Value) -> (u16, Value) {
    answer(
        ureq::post(&format!("{}/api/{name}", base()))
            .set("Content-Type", "application/json")
            .set("X-M3go-Client", token)
            .send_string(&body.to_string()),
    )
}

/// Issue 36, finding 7: kept records were numbered 1, 2, 3… (any client read another's game by
/// counting) in one pool of four (four loads by anyone forgot everyone's). Now an id is 128
/// random bits, and a client that loads more than its quota forgets only its own oldest record:
/// another client's record, loaded before all of them, is still there.
#[test]
fn serve_kept_records_are_private_to_their_client() {
    let record = "(;GM[1]SZ[9];B[ee];W[cc];B[gg])";
    let (status, a) = post_as("client-a-36", "record", json!({ "record": record }));
    assert_eq!(status, 200, "{a}");
    let a_id = a["id"].as_str().expect("the id is a string").to_string();
    assert!(
        a_id.len() == 32 && a_id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{a_id}: expected 32 hex digits (128 bits)"
    );
    let mut b_ids = Vec::new();
    for _ in 0..m3go::serve::api::MAX_KEPT_PER_CLIENT + 2 {
        let (status, b) = post_as("client-b-36", "record", json!({ "record": record }));
        assert_eq!(status, 200, "{b}");
        b_ids.push(b["id"].as_str().expect("id").to_string());
    }
    // every id differs, and none follows another by counting
    let mut all = b_ids.clone();
    all.push(a_id.clone());
    all.sort();
    all.dedup();
    assert_eq!(
        all.len(),
        m3go::serve::api::MAX_KEPT_PER_CLIENT + 3,
        "{all:?}"
    );
    // client A's record outlived client B's loads; B's two oldest went, its newest stay
    let (status, v) = post("record-move", json!({ "id": a_id, "to": 2 }));
    assert_eq!(status, 200, "{v}");
    for (k, id) in b_ids.iter().enumerate() {
        let (status, v) = post("record-move", json!({ "id": id, "to": 1 }));
        let expected = if k < 2 { 404 } else { 200 };
        assert_eq!(status, expected, "client B's record {k}: {v}");
    }
}

/// Issue 36, finding 9: `/api/record` of an SGF collection replayed the first game and dropped
/// the others without a word (the CLI says it); the answer names them now.
#[test]
fn serve_record_says_what_it_dropped_of_a_collection() {
    let (status, v) = post(
        "record",
        json!({ "record": "(;GM[1]SZ[9];B[ee];W[cc])(;GM[1]SZ[9];B[gg])(;GM[1]SZ[9];B[aa])" }),
    );
    assert_eq!(status, 200, "{v}");
    let dropped: Vec<&str> = v["dropped"]
        .as_array()
        .expect("dropped")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        dropped
            .iter()
            .any(|d| d.contains("games 2 to 3 of the collection")),
        "{v}"
    );
    // a single game drops nothing of the kind
    let (_, v) = post("record", json!({ "record": "(;GM[1]SZ[9];B[ee])" }));
    assert_eq!(v["dropped"], json!([]), "{v}");
}

/// Issue 36, finding 9: hyper answers a request it cannot parse itself, with an empty body (a
/// 200 kB path, `Content-Length: -1`, two `Content-Length`s, 20,000 headers, garbage bytes);
/// the server's JSON error is written in its place, with hyper's status. Two `Host` headers
/// were accepted: a 400 now (RFC 9112).
#[test]
fn serve_unparsable_requests_and_two_hosts_get_a_json_error() {
    let addr = base().trim_start_matches("http://").to_string();
    let wait = std::time::Duration::from_secs(10);
    let many_headers: String = (0..20_000).map(|k| format!("X-H{k}: v\r\n")).collect();
    let cases: Vec<(&str, Vec<u8>, &[u16])> = vec![
        (
            "a 200 kB path",
            format!("GET /{} HTTP/1.1\r\nHost: {addr}\r\n\r\n", "a".repeat(200_000)).into_bytes(),
            &[414, 431],
        ),
        (
            "Content-Length: -1",
            format!("POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Length: -1\r\n\r\n")
                .into_bytes(),
            &[400],
        ),
        (
            "two Content-Lengths",
            format!(
                "POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{{}}"
            )
            .into_bytes(),
            &[400],
        ),
        (
            "20,000 headers",
            format!("GET / HTTP/1.1\r\nHost: {addr}\r\n{many_headers}\r\n").into_bytes(),
            &[431],
        ),
        ("garbage", b"\x01\x02garbage\xff\xfe\r\n\r\n".to_vec(), &[400]),
        (
            "two Host headers",
            format!("GET /api/options HTTP/1.1\r\nHost: {addr}\r\nHost: {addr}\r\n\r\n")
                .into_bytes(),
            &[400],
        ),
    ];
    for (what, bytes, statuses) in cases {
        let a = raw_exchange(&addr, &bytes, wait);
        let status = raw_status(&a);
        assert!(statuses.contains(&status), "{what}: {a:.300}");
        let (head, body) = a.split_once("\r\n\r\n").unwrap_or((&a, ""));
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{what}: {head}"
        );
        let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {a}"));
        let e = v["error"].as_str().unwrap_or("");
        assert!(
            e.starts_with("the request") || e.contains("Host"),
            "{what}: {e}"
        );
    }
    // the server still serves
    let (status, _) = answer(ureq::get(&format!("{}/api/options", base())).call());
    assert_eq!(status, 200);
}

/// Issue 36, finding 6: a 900 kB request to `/api/analyze` got a 13.4 MB error (a message that
/// echoed its input). The error the server sends is bounded whatever the request: under 64 kB
/// for a `labels` value of 150,000 control characters (echoed in the message, six bytes each
/// in JSON) and for a position listing one `dead:` point 128,000 times.
#[test]
fn serve_error_bodies_are_bounded() {
    let dead: String = "  - OO\n".repeat(128_000);
    let position = format!(
        "size: 9\ndiagram: |\n{}dead:\n{dead}",
        "  . . . . . . . . .\n".repeat(9)
    );
    let small = "size: 3\ndiagram: |\n  . . .\n  . . .\n  . . .\n";
    for request in [
        json!({ "position": small, "labels": "\u{1}".repeat(150_000) }),
        json!({ "position": position }),
    ] {
        let text = request.to_string();
        assert!(text.len() > 890_000 && text.len() < m3go::serve::MAX_BODY);
        let r = ureq::post(&format!("{}/api/analyze", base()))
            .set("Content-Type", "application/json")
            .send_string(&text);
        let resp = match r {
            Ok(resp) => resp,
            Err(ureq::Error::Status(_, resp)) => resp,
            Err(e) => panic!("transport error: {e}"),
        };
        assert_eq!(resp.status(), 400);
        let body = resp.into_string().expect("text");
        assert!(body.len() < 64 * 1024, "{} bytes of error", body.len());
        let v: Value = serde_json::from_str(&body).expect("JSON");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
}

/// A position travels as a JSON object too (spec/schema/position.schema.json): the answer's
/// `setup` sent back as `position` judges the same; marking a string dead through the object
/// changes the count, the figure (drawn dead) and the score's clause trace, whose regions add
/// up to the count. A wrong field of the object is refused naming it.
#[test]
fn serve_positions_as_json_objects_and_the_score_trace() {
    let pos = file("docs/example-9x9.yaml");
    let (status, v) = post("analyze", json!({ "position": pos }));
    assert_eq!(status, 200, "{v}");
    let setup = v["setup"].clone();
    assert!(setup.is_object(), "{setup}");
    let (status, again) = post("analyze", json!({ "position": setup }));
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["analysis"], v["analysis"]);
    assert_eq!(again["svg"], v["svg"]);
    let mut dead = setup.clone();
    dead["dead"] = json!(["三四"]);
    let (status, d) = post("analyze", json!({ "position": dead }));
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["setup"]["dead"], json!(["三四"]));
    assert_ne!(d["analysis"]["score"], v["analysis"]["score"]);
    assert_ne!(d["svg"], v["svg"], "the figure draws the dead marks");
    assert!(d["svg"].as_str().is_some_and(|s| s.contains("dead-cross")));
    let t = &d["score_trace"];
    assert_eq!(t["format"], "m3go-score-trace/2");
    let regions = t["regions"].as_array().expect("regions");
    let sum = |k: &str| {
        regions
            .iter()
            .map(|r| r[k].as_i64().unwrap_or(0))
            .sum::<i64>()
    };
    assert_eq!(
        sum("black"),
        d["analysis"]["score"]["black"].as_i64().unwrap_or(-1)
    );
    assert_eq!(
        sum("white"),
        d["analysis"]["score"]["white"].as_i64().unwrap_or(-1)
    );
    assert!(regions
        .iter()
        .any(|r| r["reason"] == "dead" && r["also"] == json!(["M20-SCORE-DEAD"])));
    assert_eq!(t["komi"]["clause"], "M20-SCORE-KOMI");
    // a played move answers its position as an object too, and takes one
    let (status, p) = post("play", json!({ "position": setup, "moves": ["pass"] }));
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["setup"]["trailing_passes"], 1);
    // a bad object is refused with its field named
    let mut bad = setup.clone();
    bad["colour"] = json!(1);
    let (status, e) = post("analyze", json!({ "position": bad }));
    assert_eq!(status, 400);
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("position") && m.contains("colour")),
        "{e}"
    );
    let (status, e) = post("analyze", json!({ "position": 7 }));
    assert_eq!(status, 400);
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("JSON object")),
        "{e}"
    );
}

/// A position whose key is not a field name (`{{{`: a mapping as the key) is said as such, with
/// the file's name the page sends and the line, not serde's bare "expected field identifier";
/// the options name m3go's version (a saved ruling writes it).
#[test]
fn a_key_that_is_no_field_name_is_said_with_the_file() {
    let (status, v) = post("analyze", json!({ "position": "{{{", "file": "bad.yaml" }));
    assert_eq!(status, 400, "{v}");
    let msg = v["error"].as_str().expect("a message");
    assert!(
        msg.starts_with("position file bad.yaml: ")
            && msg.contains("a key is a mapping")
            && msg.contains("expected a field name")
            && msg.contains("line 1")
            && !msg.contains("field identifier"),
        "{msg}"
    );
    let (_, v) = post("analyze", json!({ "position": "- a\n- b\n" }));
    let msg = v["error"].as_str().expect("a message");
    assert!(msg.starts_with("position: "), "{msg}");
    let r = ureq::get(&format!("{}/api/options", base())).call();
    let (status, v) = answer(r);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
}

/// Issue 49, finding 8: an empty text was replayed and loaded as a record of no moves. Now a
/// record with nothing in it but white space is refused with a 400 saying so, by every endpoint
/// that reads a record; a record with a move is still read.
#[test]
fn serve_refuses_an_empty_record() {
    for name in ["replay", "record"] {
        for text in ["", " \n\t\r\n"] {
            let body = json!({ "record": text, "mechanical": true }).to_string();
            let r = m3go::serve::route("POST", &format!("/api/{name}"), Some(body.as_bytes()));
            let v: Value = serde_json::from_slice(&r.body).expect("a JSON answer");
            assert_eq!(r.status, 400, "{name} {text:?}: {v}");
            let e = v["error"].as_str().expect("an error");
            assert!(
                e.starts_with("record: empty") && e.contains("expected"),
                "{name} {text:?}: {e}"
            );
        }
    }
    let body = json!({ "record": "(;GM[1]SZ[9];B[ee])", "mechanical": true }).to_string();
    let r = m3go::serve::route("POST", "/api/replay", Some(body.as_bytes()));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

/// Issue 49, finding 7: a connection past the cap when none can be closed for it (the one open
/// connection stalled for less than `Limits::stalled`) waits for room, then gets a whole 503
/// with `Retry-After` and a JSON error, even though it sent a body of 300 KB the server never
/// reads (closing a socket with its request unread resets it, and the answer is lost); once the
/// stalled connection leaves, the next client is answered. Bounded: three connections, every
/// read and write within 30 s.
#[test]
fn serve_refuses_a_connection_past_the_cap_with_503_not_a_reset() {
    use std::io::{Read, Write};
    use std::time::Duration;
    let options = m3go::serve::Options {
        limits: m3go::serve::Limits {
            header: Duration::from_secs(30),
            connections: 1,
            stalled: Duration::from_secs(60),
            ..m3go::serve::Limits::default()
        },
        ..m3go::serve::Options::default()
    };
    let s = Server::bind_with("127.0.0.1", 0, &options).expect("bind");
    let addr = s.addr().to_string();
    drop(s.spawn());
    let mut stalled = std::net::TcpStream::connect(&addr).expect("connect");
    stalled.write_all(b"GET / HTTP/1.1\r\nHo").expect("send");
    std::thread::sleep(Duration::from_millis(200));

    let body = format!(
        "{{\"position\": \"{}\"}}",
        " ".repeat(300_000 - "{\"position\": \"\"}".len())
    );
    let mut c = std::net::TcpStream::connect(&addr).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    c.set_write_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let request = format!(
        "POST /api/analyze HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    c.write_all(request.as_bytes()).expect("send");
    let mut got = Vec::new();
    c.read_to_end(&mut got)
        .expect("the whole answer, not a reset");
    let a = String::from_utf8_lossy(&got);
    assert_eq!(raw_status(&a), 503, "{a}");
    let lower = a.to_ascii_lowercase();
    assert!(lower.contains("\r\nretry-after: 2\r\n"), "{a}");
    let (_, json) = a.split_once("\r\n\r\n").expect("a head and a body");
    let v: Value = serde_json::from_str(json).expect("a JSON body");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("too many connections")),
        "{v}"
    );

    drop(stalled);
    options_answered(&addr, 3);
}

/// `dead_proposal`: null while the game goes on; in a finished game the strings the engine's
/// analysis judges dead (Score::proposed_dead), each string's points in Chinese labels, the same
/// whatever the position's own dead marks.
#[test]
fn serve_analyze_proposes_the_dead_stones_of_a_finished_game() {
    let board = "rules: {preset: m3go-2020, schedule: alternate}\nsize: 5\nmove: 34\n%PASSES%diagram: |\n  . X . X .\n  X X X X X\n  X . O X .\n  X X X X X\n  . X . X .\n";
    let going = board.replace("%PASSES%", "");
    let (status, v) = post("analyze", json!({ "position": going }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["analysis"]["game_over"], json!(false));
    assert_eq!(v["dead_proposal"], Value::Null);
    let over = board.replace("%PASSES%", "trailing_passes: 2\n");
    let (status, v) = post("analyze", json!({ "position": over }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["analysis"]["game_over"], json!(true), "{v}");
    assert_eq!(v["dead_proposal"], json!([["OO"]]));
    let marked = board.replace("%PASSES%", "trailing_passes: 2\ndead: [A二]\n");
    let (_, v) = post("analyze", json!({ "position": marked }));
    assert_eq!(v["dead_proposal"], json!([["OO"]]), "{v}");
}
