//! The smaller findings of issue 49, one test each: a player name holding a line break, a
//! clock with no time, a clock forfeit worded to the nanosecond, an id beyond 64 bits echoed
//! rounded by `m3go player`, and a plain GTP engine given an opening it cannot be told.

use crate::common::{m3go, m3go_stdin, BIN};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-small-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A `--player` name with a line break, a tab or another control character is refused when
/// the command line is read (it split the results table's line, and the SGF's, JUnit's and
/// the results' fields), with the name shown escaped on one line.
#[test]
fn small_findings_a_player_name_with_a_control_character_is_refused() {
    let dir = scratch("names");
    let out = path(&dir.join("games"));
    for name in ["a\nb", "a\tb", "x\u{1b}[31m"] {
        let bad = format!("{name}=false");
        let (code, stdout, err) = m3go(&[
            "match", "--player", &bad, "--player", "b=false", "--size", "5", "--games", "1", "-o",
            &out,
        ]);
        assert_eq!(code, Some(2), "{name:?}: {stdout}{err}");
        assert!(
            err.contains("control character") && err.contains(&name.escape_debug().to_string()),
            "{name:?}: {err}"
        );
        assert!(!Path::new(&out).join("game-001.sgf").exists(), "{name:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--time` with a base under a millisecond is refused when read: every game would be lost on
/// the first move ("took 0 ms with 0 ms left").
#[test]
fn small_findings_a_clock_with_no_time_is_refused() {
    let dir = scratch("clock");
    let out = path(&dir.join("games"));
    for clock in ["0+0", "0+5", "0.0001+1"] {
        let (code, stdout, err) = m3go(&[
            "match", "--player", "a=false", "--player", "b=false", "--size", "5", "--games", "1",
            "--time", clock, "-o", &out,
        ]);
        assert_eq!(code, Some(2), "{clock}: {stdout}{err}");
        assert!(
            err.contains("--time") && err.contains("a clock with no time"),
            "{clock}: {err}"
        );
        assert!(!Path::new(&out).join("game-001.sgf").exists(), "{clock}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A clock forfeit gives the time the player had in milliseconds (`no answer within 0.962 s`),
/// not to the nanosecond: the player answers its first move after a pause, so its clock is no
/// round number, then hangs.
#[test]
fn small_findings_a_clock_forfeit_is_worded_in_milliseconds() {
    let dir = scratch("forfeit");
    let script = dir.join("slow.py");
    std::fs::write(
        &script,
        r#"import json, sys, time
asked = 0
for line in sys.stdin:
    req = json.loads(line)
    if req.get("action") == "capabilities":
        ans = {"id": req["id"], "protocols": ["m3go-player/1"],
               "implementation": {"name": "slow", "version": "0"},
               "capabilities": {"presets": ["m3go-2020"]}}
    else:
        asked += 1
        if asked > 1:
            while True:
                time.sleep(1)
        time.sleep(0.0371)
        ans = {"id": req["id"], "move": "pass"}
    print(json.dumps(ans), flush=True)
"#,
    )
    .expect("the script");
    let slow = format!("slow=python3 {}", path(&script));
    let random = format!("random={BIN} player --strategy random --seed 3");
    let results = path(&dir.join("results.jsonl"));
    let (code, stdout, err) = m3go(&[
        "match",
        "--player",
        &slow,
        "--player",
        &random,
        "--size",
        "5",
        "--games",
        "1",
        "--time",
        "3+0",
        "-o",
        &path(&dir.join("games")),
        "--results",
        &results,
    ]);
    assert_eq!(code, Some(0), "{stdout}{err}");
    let text = std::fs::read_to_string(&results).expect("the results");
    // the header line (the match's selection), then the one game's line
    let line: Value =
        serde_json::from_str(text.lines().nth(1).unwrap_or_default()).expect("a results line");
    assert_eq!(line["forfeit"]["kind"], "timeout", "{line}");
    let message = line["forfeit"]["message"].as_str().expect("a message");
    let seconds = message
        .strip_prefix("no answer within ")
        .and_then(|m| m.split(' ').next())
        .unwrap_or_else(|| panic!("{message}"));
    let decimals = seconds.split_once('.').map_or(0, |(_, d)| d.len());
    assert!(
        decimals <= 3 && seconds.parse::<f64>().is_ok_and(|s| s > 0.0 && s < 3.0),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `m3go player` echoes an id beyond 64 bits as the request wrote it (it was echoed as the
/// nearest double, `1.1805916207174113e21`), as `m3go protocol` does.
#[test]
fn small_findings_the_player_echoes_an_id_beyond_64_bits_as_written() {
    let big = "1180591620717411303424";
    let requests = format!(
        "{{\"protocol\":\"m3go-player/1\",\"id\":{big},\"action\":\"capabilities\"}}\n\
         {{\"protocol\":\"m3go-player/1\",\"id\":{big}1,\"action\":\"genmove\",\"game\":\"g\",\
         \"position\":{{\"size\":3,\"diagram\":\". . .\\n. . .\\n. . .\\n\"}},\"moves\":[],\
         \"to_play\":{{\"number\":1,\"player\":\"black\",\"kind\":\"own\",\"symbol\":\"黑\"}},\
         \"time_ms\":1000}}\n\
         {{\"protocol\":\"m3go-player/1\",\"id\":{big}2,\"action\":\"dance\"}}\n"
    );
    let (code, out, err) = m3go_stdin(&["player"], &requests);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (line, id) in lines
        .iter()
        .zip([big.to_string(), format!("{big}1"), format!("{big}2")])
    {
        assert!(line.contains(&format!("\"id\":{id},")), "{id}: {line}");
        let v: Value = serde_json::from_str(line).expect("JSON");
        assert!(v.is_object(), "{line}");
    }
    assert!(lines[1].contains("\"move\""), "{}", lines[1]);
    assert!(lines[2].contains("\"error\""), "{}", lines[2]);
}

/// A plain GTP engine (no `m3go-position`) cannot be told a set-up start position: the match
/// is refused at that game with an error naming the opening and the player (it played another
/// game than the record said). An opening of moves from the empty board is still played.
#[test]
fn small_findings_a_plain_gtp_engine_is_refused_a_set_up_opening() {
    let dir = scratch("gtp");
    let script = dir.join("plain.py");
    std::fs::write(&script, crate::common::PLAIN_GTP).expect("the script");
    let plain = format!("plain=gtp:python3 {}", path(&script));
    let random = format!("random={BIN} player --strategy random --seed 4");
    let set_up = dir.join("stones.yaml");
    std::fs::write(
        &set_up,
        "rules: m3go-2020\nsize: 5\ndiagram: |\n  . . . . .\n  . X . . .\n  . . . . .\n  . . . O .\n  . . . . .\n",
    )
    .expect("written");
    let moves = dir.join("moves.txt");
    std::fs::write(&moves, "rules: m3go-2020\nsize: 5\n黑1.BO 白2.OA\n").expect("written");
    let run = |opening: &Path, out: &str| {
        m3go(&[
            "match",
            "--player",
            &plain,
            "--player",
            &random,
            "--size",
            "5",
            "--games",
            "2",
            "--move-time",
            "30",
            "-o",
            out,
            "--openings",
            &path(opening),
        ])
    };
    let out = path(&dir.join("refused"));
    let (code, stdout, err) = run(&set_up, &out);
    assert_eq!(code, Some(2), "{stdout}{err}");
    assert!(
        err.contains("stones.yaml")
            && err.contains("`plain`")
            && err.contains("m3go-position")
            && err.contains("set-up position"),
        "{err}"
    );
    assert!(!Path::new(&out).join("game-001.sgf").exists(), "{stdout}");
    let out = path(&dir.join("played"));
    let (code, stdout, err) = run(&moves, &out);
    assert_eq!(code, Some(0), "{stdout}{err}");
    assert!(Path::new(&out).join("game-002.sgf").exists(), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
