//! `m3go diff` negotiates as `m3go conform` does (issue 39, item 1): it speaks `m3go-conform/2`
//! to a program that speaks it, names the checks it compares in every request, and leaves out
//! the checks a program declines (by capability or in an answer) with the fields that depend on
//! them, so that a partial implementation is diffed under its own declines; a field it did not
//! decline is still compared. A failed capabilities request ends the run, and says so.

use crate::common::{output, BIN};
use m3go::conform::capabilities::SkippedCheck;
use m3go::conform::diff::{game_checks, run_games, DiffOptions, DiffOutcome, DiffRun};
use m3go::conform::failure::ProgramFailure;
use m3go::conform::runner::{BuiltinOn, Oracle};
use m3go_engine::{Engine, Rules};
use serde_json::{json, Value};

/// `m3go protocol` lacking m3go-2020's own reading of flower-enclosed regions: it declares the
/// decline and answers without the score (spec/README.md "Partial support").
fn partial() -> String {
    format!("'{BIN}' protocol --decline m3go-2020:flower-enclosed=score")
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    crate::common::text(output(&all, None, None))
}

const GAMES: [&str; 6] = ["--games", "2", "--size", "5", "--max-moves", "20"];

fn with(extra: &[&str]) -> Vec<String> {
    GAMES.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_partial_program_is_diffed_under_its_declines_and_passes() {
    let imp = partial();
    let dir = std::env::temp_dir().join(format!("m3go-diff-declines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let log = dir.join("requests");
    // the program's requests, as it reads them
    let teed = format!("tee '{}' | {imp}", log.display());
    let args = with(&["--impl", &teed, "--allow-skips"]);
    let (code, out, err) = run(&strs(&args));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("no disagreement"), "{out}");
    assert!(!out.contains("- score:"), "{out}");
    assert!(
        out.contains("diff: checks skipped: 40 in the moves compared"),
        "{out}"
    );
    assert!(
        out.contains(
            "    40 × score: declined by capability: m3go-2020's own `flower-enclosed: inner`"
        ),
        "{out}"
    );
    // the case requests speak /2 and name every check a game compares but the score
    let sent = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}"));
    let requests: Vec<Value> = sent
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(requests[0]["action"], "capabilities", "{sent}");
    let want: Vec<&str> = game_checks()
        .into_iter()
        .filter(|c| *c != "score")
        .collect();
    assert!(want.contains(&"private_eyes") && want.contains(&"legal"));
    for r in &requests[1..] {
        assert_eq!(r["protocol"], "m3go-conform/2", "{r}");
        assert_eq!(r["checks"], json!(want), "{r}");
    }
    // skipped checks are skips, as in `m3go conform`: exit 1 unless --allow-skips
    let args = with(&["--impl", &imp]);
    let (code, out, err) = run(&strs(&args));
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("no disagreement"), "{out}");
    assert!(err.contains("error: 40 checks skipped: exit 1"), "{err}");
    // the JSON summary counts them
    let args = with(&["--impl", &imp, "--allow-skips", "--format", "json"]);
    let (code, out, err) = run(&strs(&args));
    assert_eq!(code, Some(0), "{out}{err}");
    let s: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(s["outcome"], "agree", "{s}");
    assert_eq!(s["checks_skipped"], 40, "{s}");
    assert_eq!(
        s["checks_skipped_by_reason"][0]["checks"],
        json!({"score": 40}),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_field_the_partial_program_did_not_decline_still_fails() {
    // the same partial program with every neutral flower string turned black: attributes are
    // not declined, so the first flower disagrees, while the score (null) is not compared
    let imp = format!(
        "{} | sed -u 's/\"attribute\":\"neutral\"/\"attribute\":\"black\"/'",
        partial()
    );
    let (code, out, err) = run(&[
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
        "--allow-skips",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("diff: disagreement in game"), "{out}");
    assert!(out.contains("  - attributes: "), "{out}");
    assert!(!out.contains("  - score: "), "{out}");
    assert!(out.contains("disagrees on attributes"), "{out}");
}

#[test]
fn a_program_declining_every_check_a_game_compares_plays_nothing() {
    let all = game_checks().join("+");
    let imp = format!("'{BIN}' protocol --decline m3go-2020:ko={all}");
    let (code, out, err) = run(&["--impl", &imp, "--games", "1", "--size", "5"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("0 moves compared: the program's declared capabilities exclude m3go-2020: every check of a game ("),
        "{out}"
    );
    assert!(err.contains("nothing was compared"), "{err}");
    // under rules whose ko is not the preset's, the reading declined is not in play
    let (code, out, err) = run(&[
        "--impl",
        &imp,
        "--games",
        "1",
        "--size",
        "5",
        "--max-moves",
        "10",
        "--rules",
        "{preset: m3go-2020, ko: positional}",
    ]);
    // m3go's protocol declares every option value: the games are played and compared whole
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("10 moves compared"), "{out}");
    assert!(!out.contains("checks skipped"), "{out}");
}

/// m3go answering, but declining the score in its answers (`declined`, with the score left
/// out) when `declines` is set, or only leaving the score out otherwise.
struct ScoreLeftOut {
    declines: bool,
}

impl Oracle for ScoreLeftOut {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        let mut a = BuiltinOn(Engine::Fast).ask(request)?;
        if request.get("action").is_none() && a.get("error").is_none() {
            a["analysis"]["score"] = Value::Null;
            if self.declines {
                a["declined"] = json!({"score": "the score depends on a reading I lack here"});
            }
        }
        Ok(a)
    }
}

fn diffed(declines: bool) -> DiffRun {
    let opts = DiffOptions {
        games: 2,
        seed: 3,
        size: 5,
        rules: Rules::m3go_2020(),
        max_moves: 12,
        engine: Engine::Fast,
    };
    let make = move || -> Result<Box<dyn Oracle>, ProgramFailure> {
        Ok(Box::new(ScoreLeftOut { declines }))
    };
    run_games(&opts, 1, None, &make, &|_| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_check_an_answer_declines_is_not_compared_and_is_counted() {
    let r = diffed(true);
    let DiffOutcome::Agree { moves, .. } = r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert_eq!(moves, 24);
    let want = SkippedCheck {
        check: "score".into(),
        reason: "declined by the answer: the score depends on a reading I lack here".into(),
    };
    assert_eq!(
        r.checks_skipped.into_iter().collect::<Vec<_>>(),
        [(want, 24)]
    );
    // without `declined`, a missing score is a disagreement on the score
    let r = diffed(false);
    let DiffOutcome::Disagree(d) = r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert_eq!(d.differences[0].field, "score", "{:?}", d.differences);
    assert!(r.checks_skipped.is_empty());
}

/// A program that fails the capabilities request is never started again: the run ends (exit
/// 2), and the message says so rather than promising a next request.
#[test]
fn a_failed_capabilities_request_says_the_run_ends() {
    for command in ["conform", "diff"] {
        let (code, out, err) = crate::common::text(output(
            &[command, "--impl", "/nonexistent/prog"],
            None,
            None,
        ));
        assert_eq!(code, Some(2), "{command}: {out}{err}");
        assert!(
            err.contains("did not answer the capabilities request"),
            "{command}: {err}"
        );
        assert!(err.contains("exit status 127"), "{command}: {err}");
        assert!(err.contains("was stopped"), "{command}: {err}");
        assert!(
            err.contains("the run ends, as nothing can be tested without it"),
            "{command}: {err}"
        );
        assert!(!err.contains("started again"), "{command}: {err}");
    }
}
