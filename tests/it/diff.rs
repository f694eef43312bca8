//! Differential testing: `m3go diff` against m3go itself finds nothing; against deliberately
//! broken implementations (a wrapper that corrupts one field of each answer, or an in-process
//! oracle that drops one captured stone) it finds the disagreement, shrinks it, and prints a
//! conformance case that passes under m3go and fails under the broken program.

use crate::common::output;
use m3go::conform::diff::{compare, run, DiffOptions, DiffOutcome};
use m3go::conform::failure::ProgramFailure;
use m3go::conform::runner::{Builtin, Oracle};
use m3go_engine::Rules;
use serde_json::Value;
use std::process::Command;

fn m3go() -> &'static str {
    crate::common::BIN
}

/// `m3go protocol` with one field of every answer corrupted by sed.
fn broken(sed: &str) -> String {
    format!("'{}' protocol | sed -u '{sed}'", m3go())
}

/// Flips the first neutral flower string of every answer to black.
const NEUTRAL_TO_BLACK: &str = r#"s/"attribute":"neutral"/"attribute":"black"/"#;
/// Renames the first tiger's mouth of every answer a one-liberty eye.
const TIGER_TO_EYE: &str = r#"s/"reason":"tigers-mouth"/"reason":"one-liberty-eye"/"#;

fn tmpdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-diff-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

fn diff(args: &[&str]) -> (i32, String) {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    let out = output(&all, None, None);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

fn conform(dir: &std::path::Path, imp: Option<&str>) -> (i32, String) {
    let dir = dir.to_string_lossy();
    let mut args = vec!["conform", &*dir];
    if let Some(i) = imp {
        args.extend(["--impl", i]);
    }
    let out = output(&args, None, None);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn diff_against_m3go_itself_finds_no_disagreement() {
    let me = format!("'{}' protocol", m3go());
    let (code, out) = diff(&[
        "--impl",
        &me,
        "--games",
        "2",
        "--seed",
        "5",
        "--size",
        "7",
        "--max-moves",
        "30",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 games, 37 moves compared"), "{out}");
    assert!(out.contains("no disagreement"), "{out}");
    // no progress bar when stdout is not a terminal
    assert!(!out.contains('\r'), "{out:?}");
    let (code, out) = diff(&[
        "--impl",
        &me,
        "--games",
        "1",
        "--seed",
        "2",
        "--size",
        "5",
        "--rules",
        "dullstone",
        "--max-moves",
        "30",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn m20_attr_diff_finds_and_shrinks_a_flipped_attribute() {
    let dir = tmpdir("attr");
    let imp = broken(NEUTRAL_TO_BLACK);
    let (code, out) = diff(&[
        "--impl",
        &imp,
        "--games",
        "3",
        "--seed",
        "7",
        "--size",
        "7",
        "--max-moves",
        "30",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{out}");
    // the first flower is placed at move 9: found there, shrunk to that one flower
    assert!(out.contains("at move 9 (华9."), "{out}");
    assert!(out.contains("to 1 stone(s) and 0 move(s)"), "{out}");
    assert!(out.contains("attribute: neutral"), "{out}");
    let case = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().and_then(|x| x.to_str()) == Some("yaml"))
        .unwrap_or_else(|| panic!("no case written: {out}"));
    let text = std::fs::read_to_string(&case).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text.matches('#').count(), 1, "{text}");
    // the case passes under m3go and fails under the broken program
    let (c, o) = conform(&dir, None);
    assert_eq!(c, 0, "{o}");
    assert!(o.contains("1 passed, 0 failed"), "{o}");
    let (c, o) = conform(&dir, Some(&imp));
    assert_eq!(c, 1, "{o}");
    assert!(o.contains("0 passed, 1 failed"), "{o}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn m20_forbid_tiger_diff_finds_and_shrinks_a_renamed_forbidden_point() {
    let dir = tmpdir("tiger");
    let imp = broken(TIGER_TO_EYE);
    let (code, out) = diff(&[
        "--impl",
        &imp,
        "--games",
        "3",
        "--seed",
        "3",
        "--size",
        "7",
        "--max-moves",
        "30",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("- forbidden:"), "{out}");
    assert!(out.contains("M20-FORBID-TIGER"), "{out}");
    // one stone on the edge makes a tiger's mouth: nothing smaller shows the difference
    assert!(out.contains("to 1 stone(s)"), "{out}");
    let (c, o) = conform(&dir, None);
    assert_eq!(c, 0, "{o}");
    let (c, o) = conform(&dir, Some(&imp));
    assert_eq!(c, 1, "{o}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An implementation that forgets one captured stone in every report.
struct DropsACapture;

impl Oracle for DropsACapture {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        let mut v = Builtin.ask(request)?;
        let captured = v
            .get_mut("reports")
            .and_then(|r| r.get_mut(0))
            .and_then(|r| r.get_mut("captured"))
            .and_then(Value::as_array_mut);
        if let Some(c) = captured {
            c.pop();
        }
        Ok(v)
    }
}

#[test]
fn go_capture_diff_finds_and_shrinks_a_forgotten_capture() {
    let opts = DiffOptions {
        games: 6,
        seed: 11,
        size: 5,
        rules: Rules::m3go_2020(),
        max_moves: 60,
        engine: m3go_engine::Engine::Fast,
    };
    let moves = std::sync::atomic::AtomicU64::new(0);
    let make = || -> Result<Box<dyn Oracle>, ProgramFailure> { Ok(Box::new(DropsACapture)) };
    let outcome = run(&opts, 2, None, &make, &|n| {
        moves.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap_or_else(|e| panic!("{e}"));
    // progress counts every step of every game, played or not
    assert!(moves.into_inner() <= 6 * 60);
    let DiffOutcome::Disagree(d) = outcome else {
        panic!("no capture in random games on 5x5: {outcome:?}");
    };
    assert_eq!(d.differences[0].field, "captured", "{:?}", d.differences);
    // the capture needs the move and the captured stone's surroundings, nothing else
    assert_eq!(d.case.moves.len(), 1);
    assert!(
        d.stones_after < d.stones_before,
        "{} -> {}",
        d.stones_before,
        d.stones_after
    );
    let events = d.case.expect.events.clone().unwrap_or_default();
    let captured = events[0].captured.clone().unwrap_or_default();
    assert!(!captured.is_empty());
    // the case passes under m3go
    let outcome = m3go::conform::runner::run_case(&d.case, &mut Builtin);
    assert!(matches!(outcome, m3go::conform::runner::Outcome::Passed));
    let outcome = m3go::conform::runner::run_case(&d.case, &mut DropsACapture);
    assert!(matches!(outcome, m3go::conform::runner::Outcome::Failed(_)));
}

#[test]
fn diff_compare_of_identical_answers_finds_nothing() {
    let req = serde_json::json!({
        "protocol": m3go::conform::protocol::PROTOCOL,
        "id": "x",
        "position": {"rules": "m3go-2020", "size": 5, "move": 9,
                     "diagram": ". X # . .\nX X . . .\n. . . . O\n. . . . .\n. . . . .\n"},
        "moves": ["华9.二二"],
        "probes": []
    });
    let a = Builtin.ask(&req).unwrap_or_else(|e| panic!("{e}"));
    assert!(a.get("error").is_none(), "{a}");
    assert!(compare(&a, &a.clone(), 5).is_empty());
    let mut b = a.clone();
    b["analysis"]["flowers"][0]["attribute"] = Value::from("white");
    let d = compare(&a, &b, 5);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].field, "attributes");
}

/// m3go's own half of a `diff` move is summarised from its typed answer (`Summary::of_answer`),
/// the other program's from the JSON it wrote (`Summary::of`): for every case of the suite, with
/// every part of the answer or only those `diff` compares, the two summaries of one answer are
/// the same, so that equal answers never differ in `diff`; so is the summary of the JSON read
/// without the parts `diff` reads past (`diff::UNREAD`), and the answer with only the compared
/// parts summarises as the whole one.
#[test]
fn the_summary_of_a_typed_answer_is_the_summary_of_its_json() {
    use m3go::conform::answer::{case_answer, AnswerParts};
    use m3go::conform::diff::Summary;
    use m3go::conform::protocol::Request;
    use m3go_engine::Engine;
    let root = env!("CARGO_MANIFEST_DIR");
    let suite = m3go::conform::runner::load_suite(
        &format!("{root}/spec/cases"),
        &format!("{root}/rules.md"),
    )
    .expect("suite");
    let mut compared = 0;
    for (_, case) in &suite.cases {
        let req: Request =
            serde_json::from_value(case.request_in(m3go::conform::protocol::PROTOCOL, None))
                .expect("a suite request reads");
        let mut summaries = Vec::new();
        for parts in [AnswerParts::All, AnswerParts::Compared] {
            let Ok(a) = case_answer(&req, Engine::Fast, parts) else {
                continue;
            };
            let size = a.analysis.size;
            let json = serde_json::to_value(&a).expect("an answer serialises");
            let typed = Summary::of_answer(&a, size);
            assert_eq!(typed, Summary::of(&json, size), "case {}", case.id);
            // the other program's answer is read without diff::UNREAD: nothing compared
            let text = serde_json::to_string(&a).expect("an answer serialises");
            let pruned = m3go::conform::pruned::from_str_pruned(&text, m3go::conform::diff::UNREAD)
                .expect("the answer reads");
            assert_eq!(typed, Summary::of(&pruned, size), "case {}", case.id);
            summaries.push(typed);
            compared += 1;
        }
        // the parts left out of the compared answer are none of those compared
        if let [all, only] = &summaries[..] {
            assert_eq!(all, only, "case {}", case.id);
        }
    }
    assert!(compared > 400, "{compared}");
}

// ---- the program under test: failures are reported as such, never as rules disagreements ----

/// `m3go ARGS` with its exit code, stdout and stderr, and the wall time it took.
fn run_m3go(args: &[&str]) -> (i32, String, String, std::time::Duration) {
    let t = std::time::Instant::now();
    let out = Command::new(m3go())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        t.elapsed(),
    )
}

/// Whether any process of process group `pgid` is still alive (Linux /proc).
fn group_alive(pgid: i32) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .any(|stat| {
            // pid (comm) state ppid pgrp …; comm may hold spaces, so read after the last ')'
            let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
            let f: Vec<&str> = rest.split_whitespace().collect();
            f.get(2).and_then(|p| p.parse::<i32>().ok()) == Some(pgid) && f.first() != Some(&"Z")
        })
}

/// Whether the process group is gone within 10 s: SIGKILL is delivered at once, but on a loaded
/// machine the killed processes may take a moment to be scheduled and exit.
fn group_gone(pgid: i32) -> bool {
    let t = std::time::Instant::now();
    while group_alive(pgid) {
        if t.elapsed() > std::time::Duration::from_secs(10) {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

/// A program that writes its shell's pid (its process group) to `file`, then hangs.
fn hanging(file: &std::path::Path) -> String {
    format!("echo $$ > '{}'; sleep 1000", file.display())
}

fn pgid_in(file: &std::path::Path) -> i32 {
    std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn diff_a_program_that_cannot_start_is_an_error_and_writes_no_case() {
    let dir = tmpdir("nonexistent");
    let (code, out, err, _) = run_m3go(&[
        "diff",
        "--impl",
        "/nonexistent/prog",
        "--games",
        "1",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("the program under test failed"), "{err}");
    assert!(
        err.contains("exit status 127: the command was not found"),
        "{err}"
    );
    assert!(!out.contains("disagreement"), "{out}");
    let written: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .collect();
    assert!(written.is_empty(), "{written:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that stops answering in the middle of a game (here after the capabilities and
/// three moves) fails at the move it did not answer, although `m3go diff` sent the request of
/// that move before it read the answer to the move before (the request sent ahead). The program
/// ends its whole process group after the fourth line (`kill 0`: m3go starts each program in a
/// group of its own): without it, `m3go protocol` could write the answer to move 4 into the pipe
/// before the reader left, and then wait for a request that never comes while the shell, which
/// waits for it, holds the output open — the run then ended only at the 60 s timeout (seen on a
/// loaded machine).
#[test]
fn diff_a_program_that_stops_answering_fails_at_the_move_it_did_not_answer() {
    let imp = format!(
        "'{}' protocol | {{ for i in 1 2 3 4; do IFS= read -r l; printf '%s\\n' \"$l\"; done; kill 0; }}",
        m3go()
    );
    let (code, out, err, _) = run_m3go(&["diff", "--size", "5", "--games", "2", "--impl", &imp]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        // "without answering", or "before reading the request" when the group ended before
        // the request of move 4 was written: either way at move 4
        err.contains("failed in game 1 at move 4: the program exited"),
        "{err}"
    );
}

#[test]
fn diff_a_hung_program_is_stopped_at_the_timeout_and_not_left_running() {
    let dir = tmpdir("hung");
    let pidfile = dir.join("pid");
    let (code, out, err, took) = run_m3go(&[
        "diff",
        "--impl",
        &hanging(&pidfile),
        "--timeout",
        "1",
        "--games",
        "1",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no answer within 1 s"), "{err}");
    assert!(took < std::time::Duration::from_secs(30), "{took:?}");
    let pgid = pgid_in(&pidfile);
    assert!(group_gone(pgid), "process group {pgid} still running");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_games_past_the_bound_is_refused() {
    for n in ["4294967296", "1000001"] {
        let (code, out, err, _) = run_m3go(&["diff", "--impl", "true", "--games", n]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("--games"), "{err}");
    }
    let (code, _, err, _) =
        run_m3go(&["diff", "--impl", "true", "--size", "3", "--max-moves", "91"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--max-moves") && err.contains("at most 90"),
        "{err}"
    );
}

/// `m3go protocol` whose every answer (the capabilities one too) is rewritten to
/// `{"id":…,"unsupported":true}`: a program that supports nothing and declares nothing.
fn unsupported_everything() -> String {
    broken(r#"s/.*"id":\("[^"]*"\).*/{"id":\1,"unsupported":true}/"#)
}

#[test]
fn diff_honours_unsupported_and_fails_when_nothing_was_compared() {
    let imp = unsupported_everything();
    let args = [
        "diff",
        "--impl",
        &imp,
        "--games",
        "1",
        "--size",
        "5",
        "--max-moves",
        "5",
    ];
    let (code, out, err, _) = run_m3go(&args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("0 moves compared"), "{out}");
    assert!(out.contains("5 moves skipped"), "{out}");
    assert!(err.contains("nothing was compared"), "{err}");
    let mut allowed = args.to_vec();
    allowed.extend(["--allow-empty", "--allow-skips"]);
    let (code, out, err, _) = run_m3go(&allowed);
    assert_eq!(code, 0, "{out}{err}");
    // declared capabilities without the rules: nothing is played
    let toy = format!("'{}' protocol --presets dullstone", m3go());
    let (code, out, err, _) = run_m3go(&["diff", "--impl", &toy, "--games", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("capabilities exclude m3go-2020"), "{out}");
}

#[test]
fn diff_jobs_and_shards_play_the_same_games() {
    let me = format!("'{}' protocol", m3go());
    let base = [
        "diff",
        "--impl",
        &me,
        "--games",
        "4",
        "--seed",
        "9",
        "--size",
        "5",
        "--max-moves",
        "12",
    ];
    let moves = |extra: &[&str]| -> u64 {
        let mut a = base.to_vec();
        a.extend(extra);
        let (code, out, err, _) = run_m3go(&a);
        assert_eq!(code, 0, "{out}{err}");
        let n = out
            .split(" moves compared")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok());
        n.unwrap_or_else(|| panic!("{out}"))
    };
    let one = moves(&[]);
    assert_eq!(moves(&["--jobs", "2"]), one);
    assert_eq!(moves(&["--shard", "1/2"]) + moves(&["--shard", "2/2"]), one);
}

/// A directory of a few cases of the suite: two of m3go-2020, one of m3go-2020 with an option
/// away from the preset, and one each of dullstone, m3go-2016 and m3go-2013.
fn small_suite(tag: &str) -> std::path::PathBuf {
    let dir = tmpdir(tag);
    for f in [
        "disputed-suicide-forbidden",
        "disputed-ko-simple",
        "disputed-ko-none",
        "d3-life-flower",
        "m16-life-1-grey-no-liberty",
        "m13-conv-white",
    ] {
        let from = format!("{}/spec/cases/{f}.yaml", env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(&from, dir.join(format!("{f}.yaml")))
            .unwrap_or_else(|e| panic!("{from}: {e}"));
    }
    dir
}

fn conform_args(dir: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let d = dir.to_string_lossy().into_owned();
    let mut a = vec!["conform", d.as_str()];
    a.extend(extra);
    let (code, out, err, _) = run_m3go(&a);
    (code, out, err)
}

#[test]
fn conform_a_toy_declaring_only_m3go_2020_runs_those_cases_and_skips_the_rest_by_capability() {
    let dir = small_suite("toy");
    let toy = format!("'{}' protocol --presets m3go-2020", m3go());
    let (code, out, err) = conform_args(&dir, &["--impl", &toy, "--verbose"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("2 passed, 0 failed, 0 errored, 4 skipped"),
        "{out}"
    );
    assert!(
        out.contains("skipped: 4 by capability, 0 answered unsupported"),
        "{out}"
    );
    for (id, why) in [
        (
            "disputed-ko-none",
            "option `ko: none` (away from m3go-2020's) is not declared",
        ),
        ("d3-life-flower", "preset `dullstone` is not declared"),
        (
            "m16-life-1-grey-no-liberty",
            "preset `m3go-2016` is not declared",
        ),
        ("m13-conv-white", "preset `m3go-2013` is not declared"),
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("SKIPPED {id} ")))
            .unwrap_or_else(|| panic!("{id} not skipped: {out}"));
        assert!(
            line.contains("outside the declared capabilities") && line.contains(why),
            "{line}"
        );
    }
    assert!(
        err.contains("4 case(s) skipped") && err.contains("--allow-skips"),
        "{err}"
    );
    let (code, out, err) = conform_args(&dir, &["--impl", &toy, "--allow-skips"]);
    assert_eq!(code, 0, "{out}{err}");
    // m3go itself declares everything
    let (code, out, err) = conform_args(&dir, &["--jobs", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("6 passed, 0 failed, 0 errored, 0 skipped"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_fails_when_nothing_was_tested_unless_allowed() {
    let dir = small_suite("empty");
    for sel in [
        &["--id", "no-such-case"][..],
        &["--filter", "NO-SUCH-CLAUSE"][..],
    ] {
        let (code, out, err) = conform_args(&dir, sel);
        assert_eq!(code, 1, "{sel:?}: {out}{err}");
        assert!(
            out.contains("0 passed, 0 failed, 0 errored, 0 skipped"),
            "{out}"
        );
        assert!(err.contains("nothing was tested"), "{err}");
        let mut allowed = sel.to_vec();
        allowed.push("--allow-empty");
        let (code, out, err) = conform_args(&dir, &allowed);
        assert_eq!(code, 0, "{sel:?}: {out}{err}");
    }
    let imp = unsupported_everything();
    let (code, out, err) = conform_args(&dir, &["--impl", &imp]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("note: the program declared no capabilities"),
        "{out}"
    );
    assert!(
        out.contains("0 passed, 0 failed, 0 errored, 6 skipped"),
        "{out}"
    );
    assert!(err.contains("all 6 selected cases were skipped"), "{err}");
    let (code, out, err) = conform_args(&dir, &["--impl", &imp, "--allow-skips"]);
    assert_eq!(code, 1, "{out}{err}");
    let (code, out, err) = conform_args(&dir, &["--impl", &imp, "--allow-skips", "--allow-empty"]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_a_crashing_program_is_errored_and_started_again_for_the_next_case() {
    let dir = small_suite("crash");
    // the program answers two requests, then exits: the capabilities request and the first
    // case; the second case finds it gone and errs; the program started again answers two more
    let imp = format!("sed -u 2q | '{}' protocol", m3go());
    let (code, out, err) = conform_args(&dir, &["--impl", &imp]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("4 passed, 0 failed, 2 errored, 0 skipped"),
        "{out}"
    );
    // the failed program was stopped; the next case started it again (the passes after)
    assert!(out.contains("was stopped)"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_a_non_json_answer_is_errored_with_the_offending_line() {
    let dir = small_suite("garbage");
    // the second answer of the first start (the first case's) is replaced by a line that is
    // not JSON; started again, the program answers well
    let once = dir.join("started");
    let imp = format!(
        "if [ -e '{f}' ]; then exec '{m}' protocol; else touch '{f}'; {b}; fi",
        f = once.display(),
        m = m3go(),
        b = broken("2s/.*/this is not an answer/")
    );
    let (code, out, err) = conform_args(&dir, &["--impl", &imp]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("the answer is not JSON"), "{out}");
    assert!(out.contains("`this is not an answer`"), "{out}");
    assert!(out.contains("5 passed, 0 failed, 1 errored"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_a_program_that_cannot_start_or_hangs_ends_the_run_with_exit_2() {
    let dir = small_suite("start");
    let (code, out, err) = conform_args(&dir, &["--impl", "/nonexistent/prog"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("did not answer the capabilities request"),
        "{err}"
    );
    assert!(err.contains("exit status 127"), "{err}");
    let pidfile = dir.join("pid");
    let t = std::time::Instant::now();
    let (code, out, err) = conform_args(&dir, &["--impl", &hanging(&pidfile), "--timeout", "1"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no answer within 1 s"), "{err}");
    assert!(t.elapsed() < std::time::Duration::from_secs(30));
    let pgid = pgid_in(&pidfile);
    assert!(group_gone(pgid), "process group {pgid} still running");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn protocol_capabilities_and_error_answers_echo_the_id() {
    use m3go::conform::answer::answer_line;
    use m3go::conform::capabilities::Capabilities;
    let caps = Capabilities::m3go();
    let a = answer_line(
        r#"{"protocol":"m3go-conform/1","id":"c1","action":"capabilities"}"#,
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["id"], "c1", "{a}");
    assert_eq!(
        a["protocols"],
        serde_json::json!(["m3go-conform/2", "m3go-conform/1"]),
        "{a}"
    );
    assert_eq!(
        a["protocol"], "m3go-conform/1",
        "the request's version: {a}"
    );
    assert_eq!(
        a["capabilities"]["presets"].as_array().map(Vec::len),
        Some(5),
        "{a}"
    );
    let a = answer_line(
        r#"{"id":7,"action":"dance"}"#,
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["id"], 7, "{a}");
    assert_eq!(a["error"]["code"], "unsupported-action", "{a}");
    assert_eq!(a["error"]["field"], "action", "{a}");
    let a = answer_line("not json", &caps, m3go_engine::Engine::Fast);
    assert_eq!(a["error"]["code"], "bad-request", "{a}");
    assert!(a["id"].is_null(), "{a}");
    let a = answer_line(
        r#"{"protocol":"m3go-conform/1","id":"x","position":{"size":3,"diagram":". . .\n. . .\n. . .\n"},"moves":["黑1.九九"]}"#,
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["id"], "x", "{a}");
    assert_eq!(a["error"]["code"], "bad-move", "{a}");
    assert_eq!(a["error"]["field"], "moves[0]", "{a}");
    let a = answer_line(
        r#"{"protocol":"m3go-conform/9","id":"v","position":{"size":3,"diagram":". . .\n. . .\n. . .\n"}}"#,
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["error"]["code"], "unsupported-protocol", "{a}");
    let toy = Capabilities::only_presets(&["m3go-2020".to_string()]);
    let a = answer_line(
        r#"{"protocol":"m3go-conform/1","id":"d","position":{"rules":"dullstone","size":3,"diagram":". . .\n. . .\n. . .\n"}}"#,
        &toy,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["id"], "d", "{a}");
    assert_eq!(a["unsupported"], true, "{a}");
}

#[test]
fn diff_and_conform_stopped_by_a_signal_stop_the_program_under_test() {
    for sub in ["diff", "conform"] {
        let dir = small_suite(&format!("signal-{sub}"));
        let pidfile = dir.join("pid");
        let imp = hanging(&pidfile);
        let d = dir.to_string_lossy().into_owned();
        let mut args = vec![sub, "--impl", imp.as_str(), "--timeout", "600"];
        if sub == "conform" {
            args.insert(1, &d);
        }
        let mut child = Command::new(m3go())
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let t = std::time::Instant::now();
        while std::fs::read_to_string(&pidfile).map_or(true, |s| !s.ends_with('\n')) {
            assert!(
                t.elapsed() < std::time::Duration::from_secs(60),
                "{sub}: never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let pgid = pgid_in(&pidfile);
        assert!(group_alive(pgid));
        let kill = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(kill.success());
        let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(status.code(), Some(130), "{sub}");
        assert!(
            group_gone(pgid),
            "{sub}: process group {pgid} still running"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// An implementation that corrupts every answer with `edit`.
struct Corrupts(fn(&mut Value));

impl Oracle for Corrupts {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        let mut v = Builtin.ask(request)?;
        (self.0)(&mut v);
        Ok(v)
    }
}

/// Issue 20, worst finding 5: every case `diff` writes quotes the clause it cites — its seed
/// file and its quote as the clause register (rules.md) gives them — not one capture sentence of
/// 000 whatever the clause. Three disagreements citing three clauses (a forgotten capture, a
/// flower attribute flipped, a tiger's mouth renamed) give three different quotes, each its
/// clause's own.
#[test]
fn diff_cases_quote_the_clause_they_cite_from_the_register() {
    fn drop_capture(v: &mut Value) {
        if let Some(c) = v
            .pointer_mut("/reports/0/captured")
            .and_then(Value::as_array_mut)
        {
            c.pop();
        }
    }
    fn neutral_to_black(v: &mut Value) {
        for f in v
            .pointer_mut("/analysis/flowers")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if f["attribute"] == "neutral" {
                f["attribute"] = Value::from("black");
                return;
            }
        }
    }
    fn tiger_to_eye(v: &mut Value) {
        for who in ["black", "white"] {
            let path = format!("/analysis/forbidden/{who}");
            for f in v
                .pointer_mut(&path)
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if f["reason"] == "tigers-mouth" {
                    f["reason"] = Value::from("one-liberty-eye");
                }
            }
        }
    }
    let seeds: std::collections::BTreeMap<&str, &str> =
        m3go::conform::register::SEED_FILES.into_iter().collect();
    let mut quotes = std::collections::BTreeSet::new();
    for (edit, seed) in [
        (drop_capture as fn(&mut Value), 11),
        (neutral_to_black, 7),
        (tiger_to_eye, 3),
    ] {
        let opts = DiffOptions {
            games: 6,
            seed,
            size: 7,
            rules: Rules::m3go_2020(),
            max_moves: 40,
            engine: m3go_engine::Engine::Fast,
        };
        let make =
            move || -> Result<Box<dyn Oracle>, ProgramFailure> { Ok(Box::new(Corrupts(edit))) };
        let outcome = run(&opts, 1, None, &make, &|_| {}).unwrap_or_else(|e| panic!("{e}"));
        let DiffOutcome::Disagree(d) = outcome else {
            panic!("seed {seed}: no disagreement: {outcome:?}");
        };
        let case = &d.case;
        assert_eq!(case.clauses.len(), 1, "{:?}", case.clauses);
        let cited = &case.clauses[0];
        let row = m3go::conform::register::clause(cited)
            .unwrap_or_else(|| panic!("{} cites {cited}, not in the register", case.id));
        assert_eq!(
            case.source.quote, row.quote,
            "{} cites {cited} but quotes another sentence",
            case.id
        );
        assert_eq!(
            Some(&case.source.seed.as_str()),
            seeds.get(row.seed.as_str()),
            "{}: {cited} is from seed {}",
            case.id,
            row.seed
        );
        quotes.insert(case.source.quote.clone());
    }
    assert_eq!(quotes.len(), 3, "{quotes:?}");
}

/// Issue 20: a program that answers only the id, or echoes its requests (`cat`), is a broken
/// program — exit 2, no failed case, no case written — for `conform` and `diff` alike, also when
/// its capabilities answer is a proper one and only its case answers say nothing.
#[test]
fn a_program_that_answers_only_the_id_or_echoes_is_broken_not_disagreeing() {
    let dir = tmpdir("only-id");
    let script = |name: &str, caps: &str| -> String {
        let p = dir.join(name);
        std::fs::write(
            &p,
            format!(
                "while read -r line; do\n  id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/p')\n  case \"$line\" in\n    *'\"action\"'*) printf '%s\\n' '{caps}' ;;\n    *) printf '{{\"id\":\"%s\"}}\\n' \"$id\" ;;\n  esac\ndone\n"
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        format!("sh '{}'", p.display())
    };
    let only_id = script("only-id.sh", r#"{"id":"capabilities"}"#);
    let caps_then_id = script(
        "caps-then-id.sh",
        r#"{"id":"capabilities","protocols":["m3go-conform/1"]}"#,
    );
    for imp in [only_id.as_str(), caps_then_id.as_str(), "cat"] {
        let (code, out, err, _) = run_m3go(&["conform", "--impl", imp, "--filter", "M20-EYE-SIM"]);
        assert_eq!(code, 2, "{imp}: {out}{err}");
        assert!(!out.contains("FAILED"), "{imp}: {out}");
        let cases = dir.join("cases");
        let (code, out, err, _) = run_m3go(&[
            "diff",
            "--impl",
            imp,
            "--games",
            "1",
            "--size",
            "5",
            "--max-moves",
            "5",
            "-o",
            &cases.to_string_lossy(),
        ]);
        assert_eq!(code, 2, "{imp}: {out}{err}");
        assert!(!out.contains("disagreement"), "{imp}: {out}");
        assert!(!cases.exists(), "{imp}: a case was written");
        assert!(err.contains("the program"), "{imp}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
