//! `m3go match` and `m3go player` (issue 42): a seeded match between the baseline players, every
//! SGF replayed to its result, and players that misbehave — exit, hang (ignoring SIGTERM), print
//! garbage, answer an illegal move, another stone kind or a wrong id — each forfeiting its games
//! with the right reason while the match goes on.

use crate::common::{m3go, BIN};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-match-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// Runs `m3go match` with `args` plus `-o DIR --results DIR/results.jsonl`; expects exit 0;
/// returns the results lines (each checked against match-game.schema.json) and stdout.
fn run_match(dir: &Path, args: &[&str]) -> (Vec<Value>, String) {
    let out = dir.join("games");
    let results = dir.join("results.jsonl");
    let mut all: Vec<&str> = args.to_vec();
    let (o, r) = (
        out.to_string_lossy().into_owned(),
        results.to_string_lossy().into_owned(),
    );
    all.extend(["-o", &o, "--results", &r]);
    let (code, stdout, stderr) = m3go(&all);
    assert_eq!(code, Some(0), "m3go {all:?}: {stderr}");
    let text = std::fs::read_to_string(&results).expect("the results file");
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(!lines.is_empty(), "no header in {text}");
    let header = lines.remove(0);
    crate::schema::assert_valid("match-results.schema.json", "a results header", &header);
    assert_eq!(header["games"].as_u64(), Some(lines.len() as u64), "{text}");
    for l in &lines {
        crate::schema::assert_valid("match-game.schema.json", "a results line", l);
    }
    (lines, stdout)
}

/// Replays `sgf` with `m3go replay`, then counts the final position with `m3go analyze`:
/// the count's margin in quarter points.
fn replayed_margin(dir: &Path, sgf: &str) -> i64 {
    let fin = dir.join(format!(
        "{}.yaml",
        Path::new(sgf)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let f = fin.to_string_lossy().into_owned();
    let (code, _, err) = m3go(&["replay", sgf, "--quiet", "-o", &f, "--force"]);
    assert_eq!(code, Some(0), "replay {sgf}: {err}");
    let (code, out, err) = m3go(&["analyze", &f, "--format", "json"]);
    assert_eq!(code, Some(0), "analyze {f}: {err}");
    let v: Value = serde_json::from_str(&out).expect("the analysis");
    v["score"]["margin_quarters"]
        .as_i64()
        .unwrap_or_else(|| panic!("{sgf}: no score in {}", v["score"]))
}

fn player(args: &str) -> String {
    format!("{BIN} player {args}")
}

/// A short seeded match: mcts wins most of its games against random, every game is counted,
/// and every SGF replays to the position whose count is the game's result.
#[test]
fn mcts_beats_random_and_every_record_replays_to_its_result() {
    let dir = scratch("mcts");
    let a = format!("a={}", player("--strategy mcts --playouts 40 --seed 1"));
    let b = format!("b={}", player("--strategy random --seed 2"));
    let (lines, stdout) = run_match(
        &dir,
        &[
            "match",
            "--player",
            &a,
            "--player",
            &b,
            "--games",
            "4",
            "--size",
            "5",
            "--seed",
            "1",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(lines.len(), 4);
    let wins = lines.iter().filter(|l| l["winner"] == "a").count();
    assert!(wins >= 3, "mcts won {wins} of 4: {lines:?}");
    assert!(stdout.contains("a vs b: 4 games"), "{stdout}");
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l["game"], k + 1);
        // the seats are swapped each game
        assert_eq!(l["black"], if k % 2 == 0 { "a" } else { "b" });
        assert_eq!(l["ending"], "score", "{l}");
        let sgf = l["sgf"].as_str().expect("the SGF's path");
        let text = std::fs::read_to_string(sgf).expect("the SGF");
        let re = l["result"].as_str().expect("a result");
        assert!(text.contains(&format!("RE[{re}]")), "{sgf}: {text}");
        assert!(text.contains("PB[") && text.contains("PW["), "{text}");
        assert_eq!(
            Some(replayed_margin(&dir, sgf)),
            l["margin_quarters"].as_i64(),
            "{sgf} replays to another count"
        );
    }
    // reproducible: the same match gives the same games
    let dir2 = scratch("mcts-again");
    let (again, _) = run_match(
        &dir2,
        &[
            "match", "--player", &a, "--player", &b, "--games", "4", "--size", "5", "--seed", "1",
        ],
    );
    for (x, y) in lines.iter().zip(&again) {
        assert_eq!(x["result"], y["result"]);
        assert_eq!(x["moves"], y["moves"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// A player in Python that answers the capabilities request, then misbehaves on move requests
/// as `mode` says.
fn bad_player(dir: &Path, mode: &str) -> String {
    let script = dir.join(format!("bad-{mode}.py"));
    std::fs::write(
        &script,
        r#"import json, signal, sys, time
mode = sys.argv[1]
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    req = json.loads(line)
    if req.get("action") == "capabilities":
        ans = {"id": req["id"], "protocols": ["m3go-player/1"],
               "implementation": {"name": "bad", "version": "0"},
               "capabilities": {"presets": ["m3go-2020"]}}
    else:
        n = req["to_play"]["number"]
        if mode == "exit":
            sys.exit(3)
        if mode == "hang":
            while True:
                time.sleep(1)
        if mode == "garbage":
            print("this is not JSON", flush=True)
            continue
        if mode == "wrong-id":
            ans = {"id": "someone else", "move": "pass"}
        elif mode == "illegal":
            # the opponent's last stone's point: occupied
            moves = [m for m in req["moves"] if not m.endswith("pass")]
            ans = {"id": req["id"], "move": moves[-1].split(".")[1] if moves else "pass"}
        elif mode == "wrong-kind":
            flower = "华" if req["to_play"]["player"] == "black" else "花"
            sym = flower if req["to_play"]["kind"] == "own" else ("黑" if flower == "华" else "白")
            ans = {"id": req["id"], "move": f"{sym}{n}.pass"}
    print(json.dumps(ans, ensure_ascii=False), flush=True)
"#,
    )
    .expect("the script");
    format!("bad=python3 {} {mode}", script.to_string_lossy())
}

/// Each kind of misbehaviour forfeits both games of the misbehaving player (as black and as
/// white), with its reason; the match goes on to its second game and ends normally.
#[test]
fn misbehaving_players_forfeit_with_the_reason_and_the_match_goes_on() {
    let dir = scratch("forfeits");
    let good = format!("good={}", player("--strategy random --seed 5"));
    for (mode, kind) in [
        ("exit", "crash"),
        ("hang", "timeout"),
        ("garbage", "unreadable"),
        ("wrong-id", "protocol"),
        ("illegal", "illegal"),
        ("wrong-kind", "wrong-kind"),
    ] {
        let sub = dir.join(mode);
        std::fs::create_dir_all(&sub).expect("a folder");
        let bad = bad_player(&sub, mode);
        let started = std::time::Instant::now();
        let (lines, stdout) = run_match(
            &sub,
            &[
                "match",
                "--player",
                &bad,
                "--player",
                &good,
                "--games",
                "2",
                "--size",
                "5",
                "--move-time",
                "1",
            ],
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{mode}: the match took {:?}",
            started.elapsed()
        );
        assert_eq!(lines.len(), 2, "{mode}: {lines:?}");
        for l in &lines {
            assert_eq!(l["ending"], "forfeit", "{mode}: {l}");
            assert_eq!(l["winner"], "good", "{mode}: {l}");
            assert_eq!(l["forfeit"]["player"], "bad", "{mode}: {l}");
            assert_eq!(l["forfeit"]["kind"], kind, "{mode}: {l}");
            let result = l["result"].as_str().expect("a result");
            assert!(result.ends_with("+F"), "{mode}: {result}");
            let sgf = std::fs::read_to_string(l["sgf"].as_str().expect("a path")).expect("the SGF");
            assert!(
                sgf.contains(&format!(
                    "forfeits at move {}\\: {kind}",
                    l["forfeit"]["move_number"]
                )),
                "{mode}: {sgf}"
            );
            // the record replays (to the move before the forfeit)
            let (code, _, err) =
                m3go(&["replay", l["sgf"].as_str().unwrap_or_default(), "--quiet"]);
            assert_eq!(code, Some(0), "{mode}: {err}");
        }
        if mode == "illegal" {
            for l in &lines {
                assert!(l["forfeit"]["clause"].is_string(), "{l}");
                assert!(l["forfeit"]["code"].is_string(), "{l}");
            }
        }
        assert!(stdout.contains("forfeits at move"), "{mode}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--illegal pass`: the illegal move becomes a pass (the record's replaced move) and the game
/// is played to its end; the record replays to its count.
#[test]
fn illegal_moves_become_passes_on_request() {
    let dir = scratch("illegal-pass");
    let bad = bad_player(&dir, "illegal");
    let good = format!("good={}", player("--strategy greedy --seed 5"));
    let (lines, _) = run_match(
        &dir,
        &[
            "match",
            "--player",
            &bad,
            "--player",
            &good,
            "--games",
            "1",
            "--size",
            "5",
            "--illegal",
            "pass",
        ],
    );
    let l = &lines[0];
    assert_ne!(l["ending"], "forfeit", "{l}");
    assert!(l["replaced"].as_u64().unwrap_or(0) > 0, "{l}");
    let sgf = l["sgf"].as_str().expect("a path");
    let text = std::fs::read_to_string(sgf).expect("the SGF");
    assert!(text.contains("RF["), "{text}");
    assert_eq!(
        Some(replayed_margin(&dir, sgf)),
        l["margin_quarters"].as_i64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The baseline player's answers follow the schemas, and it keeps a game between requests.
#[test]
fn the_player_answers_by_the_schemas() {
    let requests = [
        r#"{"protocol":"m3go-player/1","id":"capabilities","action":"capabilities","protocols":["m3go-player/1"]}"#,
        r#"{"protocol":"m3go-player/1","id":1,"action":"genmove","game":"g","position":{"rules":"m3go-2020","size":5,"diagram":". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . ."},"moves":[],"to_play":{"number":1,"player":"black","kind":"own","symbol":"黑"},"time_ms":1000}"#,
    ];
    for r in &requests {
        let v: Value = serde_json::from_str(r).expect("JSON");
        if v.get("action") == Some(&Value::from("genmove")) {
            crate::schema::assert_valid("player-request.schema.json", "a move request", &v);
        }
    }
    let out = crate::common::m3go_ok(
        &["player", "--strategy", "greedy", "--seed", "3"],
        Some(&(requests.join("\n") + "\n")),
    );
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer"))
        .collect();
    assert_eq!(answers.len(), 2);
    crate::schema::assert_valid(
        "player-capabilities.schema.json",
        "capabilities",
        &answers[0],
    );
    crate::schema::assert_valid("player-answer.schema.json", "a move answer", &answers[1]);
    let mv = answers[1]["move"].as_str().expect("a move");
    assert!(mv.starts_with("黑1."), "{mv}");
    // the next request gives the moves since: the player's own and white's
    let next = format!(
        "{}\n{}\n{}\n",
        requests[1],
        r#"{"protocol":"m3go-player/1","id":3,"action":"genmove","game":"g","moves":["MV","白2.pass"],"to_play":{"number":3,"player":"black","kind":"own","symbol":"黑"},"time_ms":1000}"#.replace("MV", mv),
        r#"{"protocol":"m3go-player/1","id":5,"action":"genmove","game":"other","moves":[],"to_play":{"number":1,"player":"black","kind":"own","symbol":"黑"},"time_ms":1000}"#
    );
    let out = crate::common::m3go_ok(&["player", "--seed", "3"], Some(&next));
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert!(
        answers[1]["move"]
            .as_str()
            .is_some_and(|m| m.starts_with("黑3.")),
        "{:?}",
        answers[1]
    );
    // a game the player does not know, without a position: an error answer
    crate::schema::assert_valid("error.schema.json", "an error", &answers[2]);
}

/// `-o` names a folder: a file there (or a device) is refused before any player starts, with one
/// line naming it and what was expected, and exit 2.
#[test]
fn match_output_that_is_not_a_folder_is_refused() {
    let dir = scratch("not-a-folder");
    let file = dir.join("games.txt");
    std::fs::write(&file, "kept").expect("a file");
    let f = file.to_string_lossy().into_owned();
    for target in [f.as_str(), "/dev/null"] {
        let (code, _, err) = m3go(&[
            "match",
            "--player",
            "a=m3go player --seed 1",
            "--player",
            "b=m3go player --seed 2",
            "--games",
            "2",
            "--size",
            "5",
            "-o",
            target,
        ]);
        assert_eq!(code, Some(2), "{target}: {err}");
        assert!(
            err.contains(target) && err.contains("expected a folder"),
            "{target}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(std::fs::read_to_string(&file).expect("the file"), "kept");
}

/// `--team`: four programs in the 2016 team format, each asked only for the moves of its seat;
/// every request each program received (logged by the shell before it is passed on) is checked against the order module's
/// schedule ([`m3go_engine::game::TeamTurn::of_move`]), and together they are every move of the game,
/// once each. The sides swap colours in the second game.
#[test]
fn the_team_format_asks_each_move_of_the_seat_the_schedule_names() {
    use m3go_engine::game::{Seat, TeamTurn};
    let dir = scratch("team");
    let names = ["a", "b", "c", "d"];
    let players: Vec<String> = names
        .iter()
        .map(|n| {
            let log = dir.join(format!("{n}.log")).to_string_lossy().into_owned();
            // each request is logged before it is passed on (`tee` writes the pipe first, and a
            // loaded machine may end the game before it writes the log)
            format!(
                "{n}=while IFS= read -r l; do printf '%s\\n' \"$l\" >> '{log}'; printf '%s\\n' \"$l\"; done | {}",
                player("--strategy random --seed 3")
            )
        })
        .collect();
    let mut args: Vec<&str> = vec![
        "match",
        "--team",
        "--rules",
        "m3go-2016",
        "--size",
        "9",
        "--games",
        "2",
        "--seed",
        "1",
    ];
    for p in &players {
        args.extend(["--player", p]);
    }
    let (lines, stdout) = run_match(&dir, &args);
    assert_eq!(lines.len(), 2);
    assert!(stdout.contains("a+b vs c+d: 2 games"), "{stdout}");
    assert_eq!(
        (&lines[0]["black"], &lines[1]["black"]),
        (&"a+b".into(), &"c+d".into())
    );
    let grey_start = 31;
    // the seats of game 1 and game 2 (sides swapped)
    let seats_of = |game: &str, name: &str| -> Seat {
        let k = names.iter().position(|n| *n == name).unwrap_or(0);
        let k = if game.ends_with("-g2") {
            (k + 2) % 4
        } else {
            k
        };
        [Seat::A, Seat::B, Seat::C, Seat::D][k]
    };
    let mut asked: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    let mut grey_asked = 0;
    for name in names {
        let log = std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default();
        for l in log.lines() {
            let req: Value = serde_json::from_str(l).expect("a request");
            if req["action"] != "genmove" {
                continue;
            }
            let game = req["game"].as_str().expect("a game").to_string();
            let n = req["to_play"]["number"].as_u64().expect("a number");
            let seat = seats_of(&game, name);
            let want = TeamTurn::of_move(n as u32, grey_start);
            assert_eq!(
                want.seat, seat,
                "{game}: move {n} was asked of {name} ({seat})"
            );
            assert_eq!(
                req["to_play"]["symbol"],
                want.seat.turn().symbol().to_string(),
                "{game} move {n}"
            );
            if matches!(seat, Seat::B | Seat::D) {
                grey_asked += 1;
            }
            asked.entry(game).or_default().push(n);
        }
    }
    assert!(grey_asked > 0, "no grey move was asked: {lines:?}");
    for l in &lines {
        let game = format!("s1-g{}", l["game"]);
        let mut got = asked.get(&game).cloned().unwrap_or_default();
        got.sort_unstable();
        let moves = l["moves"].as_u64().expect("moves");
        assert_eq!(got, (1..=moves).collect::<Vec<_>>(), "{game}");
        assert_eq!(l["ending"], "score", "{l}");
        assert_eq!(
            Some(replayed_margin(&dir, l["sgf"].as_str().unwrap_or_default())),
            l["margin_quarters"].as_i64()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The two baseline players of the tests below: greedy against random, seeded.
fn greedy_and_random() -> [String; 2] {
    [
        format!("a={}", player("--strategy greedy --seed 1")),
        format!("b={}", player("--strategy random --seed 2")),
    ]
}

/// `--openings`: each opening is played twice in a row, the seats swapped; the record and the
/// players begin with its moves, and the SGF replays to the game's result. An opening on
/// another board, or with an illegal move, is refused before any game, naming the file.
#[test]
fn openings_start_the_games_each_with_the_seats_swapped() {
    let dir = scratch("openings");
    let ops = dir.join("openings");
    std::fs::create_dir_all(&ops).expect("a folder");
    std::fs::write(
        ops.join("a.txt"),
        "rules: m3go-2020\nsize: 5\n黑1.BO 白2.OA 黑3.AO\n",
    )
    .expect("written");
    std::fs::write(
        ops.join("b.txt"),
        "rules: m3go-2020\nsize: 5\n黑1.二二 白2.BB\n",
    )
    .expect("written");
    let [a, b] = greedy_and_random();
    let o = ops.to_string_lossy().into_owned();
    let (lines, _) = run_match(
        &dir,
        &[
            "match",
            "--player",
            &a,
            "--player",
            &b,
            "--games",
            "4",
            "--size",
            "5",
            "--openings",
            &o,
        ],
    );
    assert_eq!(lines.len(), 4);
    let opening = |k: usize| {
        Path::new(lines[k]["opening"].as_str().expect("an opening"))
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
    };
    assert_eq!(
        (0..4).map(opening).collect::<Vec<_>>(),
        ["a.txt", "a.txt", "b.txt", "b.txt"].map(|s| Some(s.to_string()))
    );
    assert_eq!(lines[0]["black"], "a");
    assert_eq!(lines[1]["black"], "b");
    for (k, first) in [(0, "黑1.BO"), (2, "黑1.二二")] {
        let sgf = lines[k]["sgf"].as_str().expect("an SGF path");
        let (code, text, err) = m3go(&["convert", sgf, "-"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            text.contains(first),
            "game {k} does not begin with {first}:\n{text}"
        );
        assert!(
            text.contains("m3go: opening "),
            "the game comment names the opening:\n{text}"
        );
        if lines[k]["ending"] == "score" {
            assert_eq!(
                replayed_margin(&dir, sgf),
                lines[k]["margin_quarters"].as_i64().expect("a margin")
            );
        }
    }
    // refused before any game: another board, an illegal move
    std::fs::write(dir.join("nine.txt"), "rules: m3go-2020\nsize: 9\n").expect("written");
    std::fs::write(
        dir.join("bad.txt"),
        "rules: m3go-2020\nsize: 5\n黑1.二二 白2.二二\n",
    )
    .expect("written");
    for (file, says) in [("nine.txt", "a 9×9 board"), ("bad.txt", "move 2")] {
        let f = dir.join(file).to_string_lossy().into_owned();
        let out = dir.join("refused").to_string_lossy().into_owned();
        let (code, _, err) = m3go(&[
            "match",
            "--player",
            "a=false",
            "--player",
            "b=false",
            "--size",
            "5",
            "-o",
            &out,
            "--openings",
            &f,
        ]);
        assert_eq!(code, Some(2), "{file}: {err}");
        assert!(err.contains(file) && err.contains(says), "{file}: {err}");
        assert!(!Path::new(&out).join("game-001.sgf").exists());
    }
}

/// `--sprt`: a lopsided match stops once the test has decided, with fewer games than asked,
/// and says so; refused with more than two players or with --shard.
#[test]
fn the_sprt_stops_a_decided_match() {
    let dir = scratch("sprt");
    let [a, b] = greedy_and_random();
    let (lines, stdout) = run_match(
        &dir,
        &[
            "match", "--player", &a, "--player", &b, "--games", "200", "--size", "5", "--sprt",
            "0,100",
        ],
    );
    assert!(lines.len() < 200, "{} games were played", lines.len());
    assert!(stdout.contains("the SPRT decided after"), "{stdout}");
    let verdict = stdout
        .lines()
        .find(|l| l.starts_with("SPRT a vs b: LLR"))
        .unwrap_or_else(|| panic!("no SPRT line:\n{stdout}"));
    assert!(verdict.contains("accepted"), "{verdict}");
    let out = dir.join("x").to_string_lossy().into_owned();
    let c = format!("c={}", player("--strategy random --seed 3"));
    for extra in [vec!["--player", c.as_str()], vec!["--shard", "1/2"]] {
        let mut args = vec![
            "match", "--player", &a, "--player", &b, "-o", &out, "--sprt", "0,10",
        ];
        args.extend(extra.iter().copied());
        let (code, _, err) = m3go(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("--sprt"), "{err}");
    }
    let (code, _, err) = m3go(&[
        "match", "--player", &a, "--player", &b, "-o", &out, "--sprt", "10,0",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("ELO0 < ELO1"), "{err}");
}

/// `--shard K/N` plays the games of the whole match whose number is K modulo N, and `--merge`
/// joins the shards' results into the whole match's table; a game given twice is refused.
/// `--junit` writes a test case per game.
#[test]
fn shards_merge_into_the_whole_match() {
    let dir = scratch("shards");
    let [a, b] = greedy_and_random();
    let common = [
        "--player", &a, "--player", &b, "--games", "6", "--size", "5",
    ];
    let whole = dir.join("whole");
    std::fs::create_dir_all(&whole).expect("a folder");
    let (all, whole_out) = run_match(&whole, &[&["match"][..], &common].concat());
    let mut files = Vec::new();
    for k in 1..=2 {
        let d = dir.join(format!("shard{k}"));
        std::fs::create_dir_all(&d).expect("a folder");
        let shard = format!("{k}/2");
        let (lines, _) = run_match(
            &d,
            &[&["match"][..], &common, &["--shard", &shard]].concat(),
        );
        let numbers: Vec<i64> = lines.iter().filter_map(|l| l["game"].as_i64()).collect();
        let expected: Vec<i64> = (1..=6).filter(|n| (n - 1) % 2 == k - 1).collect();
        assert_eq!(numbers, expected, "shard {k}");
        for l in &lines {
            let same = &all[l["game"].as_u64().expect("a number") as usize - 1];
            for key in ["black", "white", "result", "moves"] {
                assert_eq!(l[key], same[key], "game {} {key}", l["game"]);
            }
        }
        files.push(d.join("results.jsonl").to_string_lossy().into_owned());
    }
    let junit = dir.join("match.xml").to_string_lossy().into_owned();
    let (code, merged, err) = m3go(&["match", "--merge", &files[0], &files[1], "--junit", &junit]);
    assert_eq!(code, Some(0), "{err}");
    let table = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("a vs b:"))
            .map(str::to_string)
    };
    assert_eq!(table(&merged), table(&whole_out), "{merged}\n{whole_out}");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report");
    let doc = roxmltree::Document::parse(&xml).expect("XML");
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert_eq!(cases, 6, "{xml}");
    let (code, _, err) = m3go(&["match", "--merge", &files[0], &files[0]]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("given twice"), "{err}");
}

/// `--final-analysis` writes the analysis of each game's final position beside its SGF, with
/// the clauses that decided it; `--junit` makes a forfeit a failure naming its clause.
#[test]
fn final_analysis_and_forfeits_in_the_junit_report() {
    let dir = scratch("final");
    let [a, _] = greedy_and_random();
    let bad = bad_player(&dir, "illegal");
    let junit = dir.join("match.xml").to_string_lossy().into_owned();
    let (lines, _) = run_match(
        &dir,
        &[
            "match",
            "--player",
            &a,
            "--player",
            &bad,
            "--games",
            "2",
            "--size",
            "5",
            "--final-analysis",
            "--junit",
            &junit,
        ],
    );
    assert_eq!(lines.len(), 2);
    for l in &lines {
        let sgf = l["sgf"].as_str().expect("an SGF path");
        let fin = sgf.replace(".sgf", ".final.txt");
        let text = std::fs::read_to_string(&fin).unwrap_or_else(|e| panic!("{fin}: {e}"));
        assert!(text.starts_with("m3go analysis"), "{text}");
        assert!(text.contains("M20-"), "no clause cited:\n{text}");
    }
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report");
    let doc = roxmltree::Document::parse(&xml).expect("XML");
    let failures: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .filter_map(|n| n.attribute("message").map(str::to_string))
        .collect();
    assert_eq!(failures.len(), 2, "{xml}");
    for f in &failures {
        assert!(f.starts_with("bad (") && f.contains("illegal"), "{f}");
        assert!(f.contains("(M20-") || f.contains("(GO-"), "no clause: {f}");
    }
}

/// A round robin of three players has every two meet; `--gauntlet` has the first meet each of
/// the others alone, and the table lists only the pairings that met.
#[test]
fn a_gauntlet_pairs_the_first_player_with_each_other() {
    let dir = scratch("gauntlet");
    let [a, b] = greedy_and_random();
    let c = format!("c={}", player("--strategy random --seed 3"));
    let pairs = |lines: &[Value]| {
        let mut p: Vec<(String, String)> = lines
            .iter()
            .map(|l| {
                let mut two = [l["black"].to_string(), l["white"].to_string()];
                two.sort();
                (two[0].clone(), two[1].clone())
            })
            .collect();
        p.dedup();
        p
    };
    let common = [
        "match", "--player", &a, "--player", &b, "--player", &c, "--games", "2", "--size", "5",
    ];
    let robin = dir.join("robin");
    std::fs::create_dir_all(&robin).expect("a folder");
    let (lines, out) = run_match(&robin, &common);
    assert_eq!(lines.len(), 6);
    assert_eq!(pairs(&lines).len(), 3, "{lines:?}");
    assert!(out.contains("b vs c: 2 games"), "{out}");
    let gauntlet = dir.join("gauntlet");
    std::fs::create_dir_all(&gauntlet).expect("a folder");
    let (lines, out) = run_match(&gauntlet, &[&common[..], &["--gauntlet"]].concat());
    assert_eq!(lines.len(), 4);
    assert!(
        lines.iter().all(|l| l["black"] == "a" || l["white"] == "a"),
        "{lines:?}"
    );
    assert!(
        out.contains("a vs b: 2 games") && out.contains("a vs c: 2 games"),
        "{out}"
    );
    assert!(!out.contains("b vs c"), "{out}");
}

/// The summary counts the forfeits; `--fail-on-forfeit` makes them exit 1 (the results still
/// written), and without it a match of forfeits exits 0 (forfeits are results).
#[test]
fn forfeits_are_counted_and_fail_the_match_on_request() {
    let dir = scratch("fail-on-forfeit");
    let bad = bad_player(&dir, "exit");
    let good = format!("good={}", player("--strategy random --seed 5"));
    let (_, stdout) = run_match(
        &dir,
        &[
            "match", "--player", &bad, "--player", &good, "--games", "2", "--size", "5",
        ],
    );
    assert!(stdout.contains("forfeits: 2 of 2 games"), "{stdout}");
    let out = dir.join("again").to_string_lossy().into_owned();
    let (code, stdout, stderr) = m3go(&[
        "match",
        "--player",
        &bad,
        "--player",
        &good,
        "--games",
        "2",
        "--size",
        "5",
        "-o",
        &out,
        "--fail-on-forfeit",
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stdout.contains("forfeits: 2 of 2 games"), "{stdout}");
    assert!(
        stderr.contains("2 forfeited: exit 1 (--fail-on-forfeit)"),
        "{stderr}"
    );
    assert!(Path::new(&out).join("game-002.sgf").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match that could not start still writes its `--junit` report, with the error.
#[test]
fn the_junit_report_of_a_match_that_could_not_start_holds_its_error() {
    let dir = scratch("junit-no-start");
    let xml = dir.join("r.xml").to_string_lossy().into_owned();
    let out = dir.join("games").to_string_lossy().into_owned();
    let (code, _, stderr) = m3go(&["match", "--player", "a=true", "-o", &out, "--junit", &xml]);
    assert_eq!(code, Some(2), "{stderr}");
    let text = std::fs::read_to_string(&xml).expect("the JUnit report");
    assert!(
        text.contains("<error message=\"--player: one player given"),
        "{text}"
    );
    assert!(stderr.contains("one player given"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
