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
fn post_raw(name: &str, body: &str) -> (u16, Value) {
    let r = ureq::post(&format!("{}/api/{name}", base()))
        .set("Content-Type", "application/json")
        .send_string(body);
    answer(r)
}

fn post(name: &str, body: Value) -> (u16, Value) {
    post_raw(name, &body.to_string())
}

fn answer(r: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
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
        ("/", "text/html", "<script src=\"/app.js\">"),
        ("/app.js", "text/javascript", "/api/"),
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
fn serve_readme_api_table_lists_every_endpoint() {
    let readme = file("README.md");
    for e in m3go::serve::api::ENDPOINTS {
        let row = format!(
            "| `/api/{}` | {} | {} | {} |",
            e.name, e.method, e.request, e.answer
        );
        assert!(readme.contains(&row), "README.md lacks the API row\n{row}");
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
