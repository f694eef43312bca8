//! GTP in `m3go match` and `m3go player --protocol gtp` (issue 42): a seeded match with one
//! player speaking GTP and the other the play protocol gives byte-identical SGFs to the same
//! match with both on the play protocol (the records hold the players' names from `--player`,
//! not their protocols); a GTP player whose answers do not read forfeits with its reason.

use crate::common::{m3go, BIN};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-gtp-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// Runs a match writing to `dir/games` and `dir/results.jsonl`; returns the results lines.
fn run_match(dir: &Path, args: &[&str]) -> Vec<Value> {
    let out = dir.join("games").to_string_lossy().into_owned();
    let results = dir.join("results.jsonl").to_string_lossy().into_owned();
    let mut all: Vec<&str> = vec!["match"];
    all.extend(args);
    all.extend(["-o", &out, "--results", &results]);
    let (code, _, err) = m3go(&all);
    assert_eq!(code, Some(0), "m3go {all:?}: {err}");
    std::fs::read_to_string(&results)
        .expect("the results")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        // the header line (the match's selection) first, then the games
        .filter(|v: &Value| v["format"] != "m3go-match-results/1")
        .collect()
}

/// The SGF files of `dir/games`, by name.
fn sgfs(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir.join("games"))
        .expect("the games")
        .map(|e| {
            let p = e.expect("an entry").path();
            (
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                std::fs::read_to_string(&p).expect("an SGF"),
            )
        })
        .collect();
    out.sort();
    out
}

/// The same seeded match, one player on GTP, gives the same SGFs byte for byte, under the
/// ten-move cycle (flowers 华 花 as `black-flower` / `white-flower`) and the 2016 schedule.
#[test]
fn a_gtp_player_plays_the_same_games_as_on_json() {
    for rules in ["m3go-2020", "m3go-2016"] {
        let json_dir = scratch(&format!("json-{rules}"));
        let gtp_dir = scratch(&format!("gtp-{rules}"));
        let common = [
            "--games", "2", "--size", "5", "--seed", "4", "--rules", rules,
        ];
        let b = format!("b={BIN} player --strategy random --seed 2");
        let a_json = format!("a={BIN} player --strategy mcts --playouts 20 --seed 1");
        let a_gtp =
            format!("a=gtp:{BIN} player --protocol gtp --strategy mcts --playouts 20 --seed 1");
        let mut args: Vec<&str> = vec!["--player", &a_json, "--player", &b];
        args.extend(common);
        let j = run_match(&json_dir, &args);
        let mut args: Vec<&str> = vec!["--player", &a_gtp, "--player", &b];
        args.extend(common);
        let g = run_match(&gtp_dir, &args);
        assert_eq!(j.len(), 2);
        for l in j.iter().chain(&g) {
            assert_ne!(l["ending"], "forfeit", "{rules}: {l}");
        }
        let (sj, sg) = (sgfs(&json_dir), sgfs(&gtp_dir));
        assert_eq!(sj.len(), 2);
        assert_eq!(sj, sg, "{rules}: the SGFs differ");
        if rules == "m3go-2020" {
            // the games reach the flower turns (moves 9 and 10)
            assert!(
                j.iter().all(|l| l["moves"].as_u64().unwrap_or(0) > 10),
                "{j:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&json_dir);
        let _ = std::fs::remove_dir_all(&gtp_dir);
    }
}

/// A GTP player in Python: it answers the setup commands, then on `genmove` misbehaves as
/// `mode` says.
fn bad_gtp_player(dir: &Path, mode: &str) -> String {
    let script = dir.join(format!("bad-gtp-{mode}.py"));
    std::fs::write(
        &script,
        r#"import sys
mode = sys.argv[1]
commands = ["protocol_version", "name", "version", "list_commands", "boardsize",
            "clear_board", "komi", "play", "genmove", "quit"]
if mode == "no-genmove":
    commands.remove("genmove")
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "protocol_version":
        ans = "= 2"
    elif cmd == "list_commands":
        ans = "= " + "\n".join(commands)
    elif cmd == "genmove":
        if mode == "error":
            ans = "? unknown command"
        elif mode == "garbage":
            ans = "this is not GTP"
        elif mode == "no-equals":
            ans = "C3"
        elif mode == "off-board":
            ans = "= Z99"
        else:
            ans = "= pass"
    else:
        ans = "="
    sys.stdout.write(ans + "\n\n")
    sys.stdout.flush()
"#,
    )
    .expect("the script");
    format!("bad=gtp:python3 {} {mode}", script.to_string_lossy())
}

/// Each malformed GTP answer forfeits the bad player's games with its reason; the match goes
/// on and ends.
#[test]
fn malformed_gtp_answers_forfeit_with_the_reason() {
    let dir = scratch("bad");
    let good = format!("good=gtp:{BIN} player --protocol gtp --seed 5");
    for (mode, kind, says) in [
        ("error", "protocol", "`? unknown command`"),
        (
            "garbage",
            "unreadable",
            "a GTP answer begins with `=` or `?`",
        ),
        ("no-equals", "unreadable", "`C3`"),
        (
            "off-board",
            "protocol",
            "`Z99` is not a vertex of a 5x5 board",
        ),
        ("no-genmove", "protocol", "does not list `genmove`"),
    ] {
        let sub = dir.join(mode);
        std::fs::create_dir_all(&sub).expect("a folder");
        let bad = bad_gtp_player(&sub, mode);
        let lines = run_match(
            &sub,
            &[
                "--player",
                &bad,
                "--player",
                &good,
                "--games",
                "2",
                "--size",
                "5",
                "--move-time",
                "5",
            ],
        );
        assert_eq!(lines.len(), 2, "{mode}");
        for l in &lines {
            assert_eq!(l["ending"], "forfeit", "{mode}: {l}");
            assert_eq!(l["winner"], "good", "{mode}: {l}");
            assert_eq!(l["forfeit"]["kind"], kind, "{mode}: {l}");
            let m = l["forfeit"]["message"].as_str().unwrap_or_default();
            assert!(m.contains(says), "{mode}: {m}");
            let sgf =
                std::fs::read_to_string(l["sgf"].as_str().unwrap_or_default()).expect("the SGF");
            assert!(sgf.contains(&format!("\\: {kind}")), "{mode}: {sgf}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The player's GTP: the required commands, the extension's colours and commands, an id echoed.
#[test]
fn the_player_speaks_gtp() {
    let input = "1 protocol_version\nlist_commands\nboardsize 5\nkomi 7.5\n\
                 m3go-capabilities\nplay black C3\nplay white-flower C4\ngenmove white\nquit\n";
    let out = crate::common::m3go_ok(&["player", "--protocol", "gtp"], Some(input));
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 9, "{out}");
    assert_eq!(answers[0], "=1 2");
    for c in [
        "genmove",
        "m3go-capabilities",
        "m3go-position",
        "m3go-game",
        "undo",
    ] {
        assert!(
            answers[1].lines().any(|l| l.trim_start_matches("= ") == c),
            "{c}: {out}"
        );
    }
    let caps: Value =
        serde_json::from_str(answers[4].trim_start_matches("= ")).expect("JSON capabilities");
    assert!(
        caps["presets"].as_array().is_some_and(|p| !p.is_empty()),
        "{caps}"
    );
    assert_eq!(answers[5], "=");
    // move 2 is white's own stone, not its flower
    assert!(answers[6].starts_with("? illegal move"), "{}", answers[6]);
    assert!(answers[7].starts_with("= "), "{}", answers[7]);
}

/// Replays `sgf` with `m3go replay` and counts its final position with `m3go analyze`: the
/// margin in quarter points.
pub(crate) fn replayed_margin(dir: &Path, sgf: &str) -> i64 {
    let stem = Path::new(sgf)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let f = dir
        .join(format!("{stem}.yaml"))
        .to_string_lossy()
        .into_owned();
    let (code, _, err) = m3go(&["replay", sgf, "--quiet", "-o", &f, "--force"]);
    assert_eq!(code, Some(0), "replay {sgf}: {err}");
    let (code, out, err) = m3go(&["analyze", &f, "--format", "json"]);
    assert_eq!(code, Some(0), "analyze {f}: {err}");
    let v: Value = serde_json::from_str(&out).expect("the analysis");
    v["score"]["margin_quarters"]
        .as_i64()
        .unwrap_or_else(|| panic!("{sgf}: no score in {}", v["score"]))
}

/// A careless player on the play protocol: it plays the point of the last stone placed (always
/// occupied, refused), or passes before any stone.
fn careless_player(dir: &Path) -> String {
    let script = dir.join("careless.py");
    std::fs::write(
        &script,
        r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("action") == "capabilities":
        ans = {"id": req["id"], "protocols": ["m3go-player/1"],
               "implementation": {"name": "careless", "version": "0"},
               "capabilities": {"presets": ["m3go-2020"]}}
    else:
        placed = [m.split("=")[0] for m in req["moves"]]
        placed = [m for m in placed if not m.endswith("pass")]
        ans = {"id": req["id"], "move": placed[-1].split(".")[1] if placed else "pass"}
    print(json.dumps(ans, ensure_ascii=False), flush=True)
"#,
    )
    .expect("the script");
    format!("careless=python3 {}", script.to_string_lossy())
}

/// Under `--illegal pass` the careless player's refused moves become passes that do not count
/// towards the end (M20-REPLAY-PASS); the GTP baseline is told so (`m3go-replaced`), so that its
/// own end stays the referee's: whole games, no forfeit (before, the baseline took a replaced
/// pass after its own pass for the game's end and answered the next `play` with `?`), each
/// record replaying to its result.
#[test]
fn a_careless_player_meets_the_gtp_baseline_without_a_forfeit() {
    let dir = scratch("careless");
    let careless = careless_player(&dir);
    let base = format!("base=gtp:{BIN} player --protocol gtp --seed 3");
    let lines = run_match(
        &dir,
        &[
            "--player",
            &careless,
            "--player",
            &base,
            "--games",
            "4",
            "--size",
            "5",
            "--illegal",
            "pass",
        ],
    );
    assert_eq!(lines.len(), 4);
    for l in &lines {
        assert_ne!(l["ending"], "forfeit", "{l}");
        assert!(l["forfeit"].is_null(), "{l}");
        assert!(l["replaced"].as_u64().unwrap_or(0) > 0, "{l}");
        let sgf = l["sgf"].as_str().unwrap_or_default();
        assert_eq!(
            Some(replayed_margin(&dir, sgf)),
            l["margin_quarters"].as_i64(),
            "{l}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `m3go-replaced COLOUR VERTEX`: a pass that does not count towards the end, so that after
/// white's pass and black's replaced move the game goes on; a plain pass there ends it.
#[test]
fn a_replaced_pass_does_not_end_the_players_game() {
    let input = "list_commands\nboardsize 5\nplay black C3\nplay white pass\n\
                 m3go-replaced black C3\ngenmove white\nundo\nundo\nplay black pass\n\
                 genmove white\nm3go-replaced black\nquit\n";
    let out = crate::common::m3go_ok(&["player", "--protocol", "gtp"], Some(input));
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 12, "{out}");
    assert!(
        answers[0].lines().any(|l| l == "m3go-replaced"),
        "{}",
        answers[0]
    );
    assert_eq!(answers[4], "=", "{out}");
    assert!(answers[5].starts_with("= "), "{out}");
    assert_eq!(answers[8], "=", "{out}");
    assert!(answers[9].contains("the game is over"), "{out}");
    assert_eq!(
        answers[10], "? m3go-replaced: expected a colour and a vertex",
        "{out}"
    );
}

/// Flystone without flystones: plain Go (ordinary alternation, no flower stone), which a plain
/// GTP engine plays.
const PLAIN_GO: &str = "{preset: flystone, flystones: 0}";

/// A plain GTP engine (no `m3go-capabilities`) is taken to play m3go-2020 only, and forfeits a
/// game of other rules before its first move; declared on the command line
/// (`NAME=gtp[RULES]:COMMAND`), it plays them.
#[test]
fn a_plain_gtp_engine_plays_the_rules_declared_for_it() {
    let dir = scratch("declared");
    let plain = bad_gtp_player(&dir, "plain");
    let declared = plain.replacen("=gtp:", &format!("=gtp[{PLAIN_GO}]:"), 1);
    let good = format!("good={BIN} player --seed 5");
    let common = ["--games", "2", "--size", "5", "--rules", PLAIN_GO];
    for sub in ["undeclared", "declared"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a folder");
    }
    let mut args = vec!["--player", &plain, "--player", &good];
    args.extend(common);
    for l in run_match(&dir.join("undeclared"), &args) {
        assert_eq!(l["ending"], "forfeit", "{l}");
        let m = l["forfeit"]["message"].as_str().unwrap_or_default();
        assert!(m.contains("preset `flystone` is not declared"), "{m}");
    }
    let mut args = vec!["--player", &declared, "--player", &good];
    args.extend(common);
    let lines = run_match(&dir.join("declared"), &args);
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_ne!(l["ending"], "forfeit", "{l}");
    }
    // declared plain Go, it is not taken to play Flystone with flystones: the match is refused
    let (code, _, err) = m3go(&[
        "match", "--player", &declared, "--player", &good, "--rules", "flystone", "-o", "x",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is declared to play other rules"), "{err}");
    // a declaration that does not read is refused before the match
    let bad = plain.replacen("=gtp:", "=gtp[flystone; {preset: go}]:", 1);
    let (code, _, err) = m3go(&["match", "--player", &bad, "--player", &good, "-o", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the rules declared"), "{err}");
    let unclosed = plain.replacen("=gtp:", "=gtp[flystone:", 1);
    let (code, _, err) = m3go(&["match", "--player", &unclosed, "--player", &good, "-o", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("NAME=gtp[RULES;…]:COMMAND"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU Go (Debian's `gnugo`), declared to play plain Go, plays m3go's baseline under the
/// referee: whole games without a forfeit, every record replaying to its result. Installs
/// nothing: without `gnugo` it is skipped with a notice on stderr (not captured), unless
/// `M3GO_REQUIRE_GNUGO=1` (set by .ci/run, which installs it) makes that a failure.
#[test]
fn gnu_go_plays_the_baseline_under_the_referee() {
    use std::io::Write;
    let required = std::env::var("M3GO_REQUIRE_GNUGO").is_ok_and(|v| v == "1");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join("gnugo"))
        .find(|p| p.is_file());
    let Some(gnugo) = found else {
        assert!(
            !required,
            "M3GO_REQUIRE_GNUGO=1 but gnugo is not installed (apt-get install gnugo)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "gtp::gnu_go_plays_the_baseline_under_the_referee skipped: gnugo is not installed \
             (apt-get install gnugo; M3GO_REQUIRE_GNUGO=1 makes this a failure)"
        );
        return;
    };
    let dir = scratch("gnugo");
    let gnugo = format!(
        "gnugo=gtp[{PLAIN_GO}]:{} --mode gtp --level 1",
        gnugo.to_string_lossy()
    );
    let base = format!("base={BIN} player --strategy greedy --seed 7");
    let lines = run_match(
        &dir,
        &[
            "--player", &gnugo, "--player", &base, "--games", "2", "--size", "5", "--rules",
            PLAIN_GO,
        ],
    );
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_ne!(l["ending"], "forfeit", "{l}");
        let sgf = l["sgf"].as_str().unwrap_or_default();
        let margin = replayed_margin(&dir, sgf);
        if l["ending"] == "resign" {
            // GNU Go resigns a lost game: the record replays, and says so
            let text = std::fs::read_to_string(sgf).expect("the SGF");
            let result = l["result"].as_str().unwrap_or_default();
            assert!(text.contains(&format!("RE[{result}]")), "{text}");
        } else {
            assert_eq!(Some(margin), l["margin_quarters"].as_i64(), "{l}");
        }
    }
    // GNU Go plays Go: it wins at least one of the two games against the greedy baseline
    assert!(lines.iter().any(|l| l["winner"] == "gnugo"), "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
