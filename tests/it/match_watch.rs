//! `m3go match … --serve`: the live view of a match, without a browser. The long polling of
//! `/api/watch` followed to the match's end (games seen playing move by move, then finished
//! with the boards, results and forfeits of the records and `--results`, the table the command
//! prints), an answer that waits when nothing changed, the records served, and the errors (a bad
//! address, a bad query, a server that watches no match).

use crate::serve_api::{answer, serve_child, KillOnDrop};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_m3go");

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-watch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// A player that plays on the opponent's last stone (an occupied point: illegal) on every move
/// (tests/players/occupied.py).
fn illegal_player() -> String {
    format!(
        "bad=python3 {}/tests/players/occupied.py",
        crate::common::ROOT
    )
}

/// Starts `m3go match ARGS -o DIR/games --results DIR/results.jsonl`; returns the child, the
/// address its live view is served at (from stderr, drained on a thread) and its stdout.
fn start_match(
    dir: &Path,
    args: &[&str],
) -> (KillOnDrop, String, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(BIN)
        .args(args)
        .arg("-o")
        .arg(dir.join("games"))
        .arg("--results")
        .arg(dir.join("results.jsonl"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start m3go match");
    let stderr = child.stderr.take().expect("stderr");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let child = KillOnDrop(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                let _ = tx.send(url.to_string());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the live view's URL on stderr");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/watch")
        .to_string();
    (child, addr, stdout)
}

fn get(url: &str, timeout: Duration) -> ureq::Request {
    ureq::get(url).timeout(timeout)
}

/// The final position's diagram of a record, as `m3go replay --format json` gives it.
fn replayed_board(sgf: &str) -> String {
    let out = Command::new(BIN)
        .args(["replay", sgf, "--format", "json"])
        .output()
        .expect("m3go replay");
    let v: Value = serde_json::from_slice(&out.stdout).expect("the replay's JSON");
    v["position"]["diagram"]
        .as_str()
        .expect("a diagram")
        .to_string()
}

/// Three players in a round robin (6 games on 5×5), one of them forfeiting every game by an
/// illegal move. The watcher follows the long polling from version 0 to the match's end: it
/// sees games playing with their boards growing move by move, and at the end every game is
/// finished with the board its SGF replays to, the result and ending of its `--results` line,
/// the forfeit with its clause; the table is the one the command prints. Then an answer with
/// nothing new waits (long polling, not a busy answer), a version from another run is answered
/// at once with everything, the records are served as written, and bad queries are refused.
#[test]
fn match_serve_long_polls_every_game_to_the_end() {
    let dir = scratch("poll");
    let a = format!("a={BIN} player --strategy mcts --playouts 30 --seed 1");
    let b = format!("b={BIN} player --strategy random --seed 2");
    let bad = illegal_player();
    let (_child, addr, mut stdout) = start_match(
        &dir,
        &[
            "match", "--player", &a, "--player", &b, "--player", &bad, "--games", "2", "--size",
            "5", "--serve",
        ],
    );
    let base = format!("http://{addr}");
    let until = Instant::now() + Duration::from_secs(240);
    let (mut version, mut answers) = (0u64, 0usize);
    let mut games: BTreeMap<u64, Value> = BTreeMap::new();
    // the move counts each game was seen playing at
    let mut playing: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    let last = loop {
        assert!(Instant::now() < until, "the match did not end in time");
        let r = get(
            &format!("{base}/api/watch?since={version}"),
            Duration::from_secs(30),
        )
        .call();
        let (status, v) = answer(r);
        assert_eq!(status, 200, "{v}");
        answers += 1;
        assert_eq!(v["format"], "m3go-watch/1");
        assert_eq!(v["count"], 6, "{v}");
        for g in v["games"].as_array().expect("games") {
            let n = g["game"].as_u64().expect("a number");
            if g["state"] == "playing" {
                assert!(g["board"].is_string(), "{g}");
                playing
                    .entry(n)
                    .or_default()
                    .insert(g["moves"].as_u64().expect("moves"));
            }
            games.insert(n, g.clone());
        }
        let next = v["version"].as_u64().expect("a version");
        assert!(next > version || v["over"].is_string(), "{v}");
        version = next;
        if v["over"].is_string() && v["more"] == false {
            break v;
        }
    };
    // move by move: some game seen playing at two move counts or more
    assert!(
        playing.values().any(|m| m.len() >= 2),
        "no game seen playing at two moves: {playing:?} ({answers} answers)"
    );
    // the end against the records and --results
    let results = std::fs::read_to_string(dir.join("results.jsonl")).expect("--results");
    let lines: Vec<Value> = results
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(games.len(), 6);
    for l in &lines {
        let g = &games[&l["game"].as_u64().expect("game")];
        assert_eq!(g["state"], "finished", "{g}");
        assert_eq!(g["result"], l["result"], "{g}");
        assert_eq!(g["ending"], l["ending"], "{g}");
        assert_eq!(g["moves"], l["moves"], "{g}");
        let sgf = l["sgf"].as_str().expect("the SGF");
        assert_eq!(
            g["board"].as_str(),
            Some(replayed_board(sgf).as_str()),
            "{sgf}"
        );
        match l["forfeit"].as_object() {
            Some(f) => {
                let text = g["forfeit"].as_str().expect("the forfeit shown");
                let clause = f["clause"].as_str().expect("an illegal move's clause");
                assert!(text.contains(clause), "{text}");
                assert!(text.starts_with("bad forfeits at move"), "{text}");
            }
            None => assert!(g["forfeit"].is_null(), "{g}"),
        }
        // the record as the match wrote it
        let r = get(
            &format!("{base}/api/watch-record?game={}", l["game"]),
            Duration::from_secs(10),
        )
        .call()
        .expect("the record");
        assert!(r.content_type().contains("sgf"));
        let text = r.into_string().expect("the SGF text");
        assert_eq!(text, std::fs::read_to_string(sgf).expect("the SGF"));
    }
    assert_eq!(
        lines.iter().filter(|l| l["forfeit"].is_object()).count(),
        4,
        "{results}"
    );
    // the table the command prints, line for line
    let mut printed = Vec::new();
    let mut line = String::new();
    while printed.len() < 3 && stdout.read_line(&mut line).expect("stdout") > 0 {
        if line.contains(" vs ") {
            printed.push(Value::from(line.trim_end()));
        }
        line.clear();
    }
    assert_eq!(last["table"], Value::from(printed));
    // nothing new: the answer waits (the client gives up first)
    let started = Instant::now();
    let waited = get(
        &format!("{base}/api/watch?since={version}"),
        Duration::from_millis(1500),
    )
    .call();
    assert!(waited.is_err(), "answered at once with nothing new");
    assert!(started.elapsed() >= Duration::from_millis(1400));
    // a version from another run of the server: everything, at once
    let (status, v) = answer(
        get(
            &format!("{base}/api/watch?since={}", version + 1000),
            Duration::from_secs(5),
        )
        .call(),
    );
    assert_eq!(status, 200);
    assert_eq!(v["games"].as_array().map(Vec::len), Some(6));
    // bad queries
    for (path, status, needle) in [
        ("/api/watch?since=soon", 400, "since=soon"),
        ("/api/watch", 400, "since="),
        ("/api/watch-record?game=99", 404, "game 99"),
        ("/api/watch-record?game=x", 400, "game=x"),
    ] {
        let (s, v) = answer(get(&format!("{base}{path}"), Duration::from_secs(5)).call());
        assert_eq!(s, status, "{path}: {v}");
        let e = v["error"].as_str().expect("an error");
        assert!(e.contains(needle), "{path}: {e}");
    }
    let page = get(&format!("{base}/watch"), Duration::from_secs(5))
        .call()
        .expect("the page");
    assert!(page.into_string().expect("html").contains("/watch.js"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad `--serve` address, or one that cannot be bound, is one clear error before any game;
/// `m3go serve` watches no match and says so.
#[test]
fn match_serve_refuses_a_bad_address_and_serve_alone_watches_nothing() {
    let dir = scratch("bad");
    let a = format!("a={BIN} player --seed 1");
    let b = format!("b={BIN} player --seed 2");
    for (addr, needle) in [
        ("--serve=not an address", "expected HOST:PORT"),
        ("--serve=localhost:99999", "expected HOST:PORT"),
        ("--serve=192.0.2.1:8080", "cannot listen"),
    ] {
        let out = Command::new(BIN)
            .args(["match", "--player", &a, "--player", &b, "--size", "5", addr])
            .arg("-o")
            .arg(dir.join("games"))
            .output()
            .expect("m3go match");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{addr}: {err}");
        assert!(err.contains("--serve"), "{addr}: {err}");
        assert!(err.contains(needle), "{addr}: {err}");
        assert!(
            !dir.join("games/game-001.sgf").exists(),
            "{addr}: a game was played"
        );
        assert_eq!(
            err.lines().filter(|l| l.contains("error")).count(),
            1,
            "{err}"
        );
    }
    let (child, addr) = serve_child(&[]);
    let _child = KillOnDrop(child);
    let (status, v) = answer(
        get(
            &format!("http://{addr}/api/watch?since=0"),
            Duration::from_secs(5),
        )
        .call(),
    );
    assert_eq!(status, 404);
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("--serve")),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The resident memory of process `pid` in KiB (`/proc/PID/status`, VmRSS).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Watchers that never read: eight connections each send `GET /api/watch?since=0` (answered at
/// once with every game) back to back for three seconds and read nothing. Another watcher is
/// still answered at once, and the match's process grows by less than 32 MiB: nothing is kept
/// per watcher beyond one answer and the socket's buffers.
#[test]
fn match_serve_watchers_that_never_read_hold_no_memory() {
    use std::io::Write;
    let dir = scratch("unread");
    let a = format!("a={BIN} player --seed 1");
    let b = format!("b={BIN} player --seed 2");
    let (child, addr, _stdout) = start_match(
        &dir,
        &[
            "match", "--player", &a, "--player", &b, "--games", "2", "--size", "5", "--serve",
        ],
    );
    let base = format!("http://{addr}");
    // the match's end: the standing no longer changes
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < until, "the match did not end in time");
        let (_, v) = answer(
            get(
                &format!("{base}/api/watch?since=0"),
                Duration::from_secs(30),
            )
            .call(),
        );
        if v["over"].is_string() {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let pid = child.0.id();
    let before = rss_kib(pid);
    let request = format!("GET /api/watch?since=0 HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(64);
    let floods: Vec<_> = (0..8)
        .map(|_| {
            let (addr, request) = (addr.clone(), request.clone());
            std::thread::spawn(move || {
                let mut s = std::net::TcpStream::connect(&addr).expect("connect");
                s.set_write_timeout(Some(Duration::from_millis(200)))
                    .expect("timeout");
                let end = Instant::now() + Duration::from_secs(3);
                let mut sent = 0usize;
                while Instant::now() < end {
                    match s.write(request.as_bytes()) {
                        Ok(n) => sent += n,
                        Err(_) => std::thread::sleep(Duration::from_millis(50)),
                    }
                }
                (s, sent)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    let (status, v) =
        answer(get(&format!("{base}/api/watch?since=0"), Duration::from_secs(5)).call());
    assert_eq!(status, 200, "{v}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let held: Vec<(std::net::TcpStream, usize)> = floods
        .into_iter()
        .map(|t| t.join().expect("a flood"))
        .collect();
    assert!(held.iter().all(|(_, sent)| *sent > 0));
    let after = rss_kib(pid);
    eprintln!("watchers that never read: the process's RSS {before} KiB before, {after} KiB after");
    assert!(
        after < before + 32 * 1024,
        "the process grew from {before} KiB to {after} KiB with watchers that never read"
    );
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}
