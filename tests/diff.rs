//! Differential testing: `m3go diff` against m3go itself finds nothing; against deliberately
//! broken implementations (a wrapper that corrupts one field of each answer, or an in-process
//! oracle that drops one captured stone) it finds the disagreement, shrinks it, and prints a
//! conformance case that passes under m3go and fails under the broken program.

use m3go::conform::diff::{compare, run, DiffOptions, DiffOutcome};
use m3go::conform::runner::{Builtin, Oracle};
use m3go::rules::Rules;
use serde_json::Value;
use std::process::Command;

fn m3go() -> &'static str {
    env!("CARGO_BIN_EXE_m3go")
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
    let out = Command::new(m3go())
        .arg("diff")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

fn conform(dir: &std::path::Path, imp: Option<&str>) -> (i32, String) {
    let mut c = Command::new(m3go());
    c.arg("conform").arg(dir);
    if let Some(i) = imp {
        c.args(["--impl", i]);
    }
    let out = c.output().unwrap_or_else(|e| panic!("{e}"));
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
    assert!(out.contains("2 games, 60 moves compared"), "{out}");
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
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let mut v = Builtin.ask(request)?;
        if let Some(c) = v["reports"][0]["captured"].as_array_mut() {
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
    };
    let mut moves = 0;
    let outcome = run(&opts, &mut Builtin, &mut DropsACapture, &mut |_, _| {
        moves += 1
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let DiffOutcome::Disagree(d) = outcome else {
        panic!("no capture in {moves} random moves on 5x5");
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
        "protocol": m3go::conform::case::PROTOCOL,
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
