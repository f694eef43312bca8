//! "Which reading decides this?" (`--readings`): on spec/positions/readings.yaml the tiger's-mouth
//! reading (D29) and the flower-capture reading (D7, D9) each change named verdicts, other
//! options change none of those, and the CLI prints them as text and JSON.

use crate::common::m3go;
use m3go::tools::readings::{readings, Reading};
use m3go_engine::Setup;

fn register() -> Vec<(String, String)> {
    m3go::conform::register::disputed_points()
        .into_iter()
        .map(|d| (d.id, d.option))
        .collect()
}

const POS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/positions/readings.yaml");

fn reading<'a>(all: &'a [Reading], option: &str, value: &str) -> &'a Reading {
    all.iter()
        .find(|r| r.option == option && r.value == value)
        .unwrap_or_else(|| panic!("no reading {option}: {value}"))
}

fn has(r: &Reading, kind: &str, subject: &str, base: &str, reading: &str) -> bool {
    r.changes.iter().any(|c| {
        c.kind == kind
            && c.subject.to_string() == subject
            && c.base.to_string().starts_with(base)
            && c.reading.to_string().starts_with(reading)
    })
}

#[test]
fn readings_tigers_mouth_changes_the_forbidden_point_next_to_a_neutral_flower() {
    let p = Setup::load(POS).expect("the position loads");
    let rd = readings(&p, None, &register()).expect("readings");
    let upper = reading(&rd.readings, "tigers-mouth", "upper-layer");
    assert_eq!(upper.register, vec!["D17", "D29"]);
    assert_eq!(upper.base_value, "stones");
    assert!(
        has(
            upper,
            "forbidden",
            "二一 to black's flower",
            "allowed",
            "tigers-mouth"
        ),
        "{upper:?}"
    );
    assert!(
        has(
            upper,
            "forbidden",
            "二一 to white's flower",
            "allowed",
            "tigers-mouth"
        ),
        "{upper:?}"
    );
    assert!(
        has(upper, "legal-move", "二一", "legal", "not legal"),
        "{upper:?}"
    );
    let none = reading(&rd.readings, "tigers-mouth", "none");
    assert!(
        has(
            none,
            "forbidden",
            "DD to white's flower",
            "tigers-mouth",
            "allowed"
        ),
        "{none:?}"
    );
    assert!(
        !has(none, "forbidden", "二一 to black's flower", "", ""),
        "{none:?}"
    );
    // options that decide nothing here list no change
    for (o, v) in [
        ("ko", "positional"),
        ("suicide", "allowed"),
        ("game-end", "two-passes"),
    ] {
        assert!(reading(&rd.readings, o, v).changes.is_empty(), "{o}: {v}");
    }
    // komi and the other numbers are named as not varied
    assert!(rd.not_varied.iter().any(|n| n.option == "komi"));
}

#[test]
fn readings_flower_capture_check_changes_the_legality_of_the_move() {
    let p = Setup::load(POS).expect("the position loads");
    let rd = readings(&p, Some("花10.CD"), &register()).expect("readings");
    let stat = reading(&rd.readings, "flower-capture-check", "static");
    assert_eq!(stat.register, vec!["D7", "D9"]);
    assert!(
        has(
            stat,
            "move",
            "the move",
            "refused: capture-point",
            "legal: 花10.CD, captures DA"
        ),
        "{stat:?}"
    );
    let trace = stat.trace.as_ref().expect("the trace changes").to_string();
    assert!(trace.contains("花10.CD is legal"), "{trace}");
    assert!(trace.contains("GO-CAPTURE"), "{trace}");
    // the tiger's-mouth readings leave this move refused
    let upper = reading(&rd.readings, "tigers-mouth", "upper-layer");
    assert!(!upper.changes.iter().any(|c| c.kind == "move"), "{upper:?}");
}

#[test]
fn readings_cli_text_and_json() {
    let (code, out, err) = m3go(&["analyze", POS, "--readings"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("tigers-mouth: upper-layer (was stones) — register D17, D29"),
        "{out}"
    );
    assert!(
        out.contains("forbidden 二一 to black's flower: allowed -> tigers-mouth"),
        "{out}"
    );
    let (code, out, err) = m3go(&["analyze", POS, "--readings", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["format"], "m3go-analysis/4");
    assert_eq!(v["readings"]["format"], "m3go-readings/1");
    assert!(v["readings"]["readings"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));

    let (code, out, err) = m3go(&["explain", POS, "花10.CD", "--readings"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("花10.CD is refused: capture-point"),
        "{out}"
    );
    assert!(
        out.contains("flower-capture-check: static (was cascade) — register D7, D9"),
        "{out}"
    );
    assert!(
        out.contains("move the move: refused: capture-point (M20-FORBID-CAPTURE) -> legal"),
        "{out}"
    );
    let (code, out, err) = m3go(&["explain", POS, "花10.CD", "--readings", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["trace"].as_str().is_some_and(|t| t.contains("refused")));
    assert_eq!(v["readings"]["target"], "花10.CD");

    // a bad target is one error naming it, exit 2
    let (code, _, err) = m3go(&["explain", POS, "黑10.ZZ", "--readings"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");
}

/// D27 and D14 (issue 21): the readings of the 9×9 corner-pocket case list `inner` as the
/// position's `flower-enclosed` and every other value as a change of the score; on the D14 case
/// `long-life-eyes: lower` changes the score, naming D14.
#[test]
fn readings_flower_enclosed_and_long_life_eyes_values_of_issue_21() {
    let case = |id: &str| {
        let f = format!("{}/spec/cases/{id}.yaml", env!("CARGO_MANIFEST_DIR"));
        let c = m3go::conform::case::Case::load(&f, None).expect("the case loads");
        c.position.to_position(&f).expect("the position loads")
    };
    let pocket = case("m20-score-pocket-9-corner");
    let rd = readings(&pocket, None, &register()).expect("readings");
    for value in ["split", "touching", "any"] {
        let r = reading(&rd.readings, "flower-enclosed", value);
        assert_eq!(r.base_value, "inner");
        assert_eq!(r.register, vec!["D27"]);
        assert!(
            has(
                r,
                "score",
                "area",
                "black 72 white 84 neutral 6",
                "black 0 white 0 neutral 162"
            ),
            "{r:?}"
        );
    }
    let life = case("m16-life-3-eye-open-to-opponent-flower");
    let rd = readings(&life, None, &register()).expect("readings");
    let lower = reading(&rd.readings, "long-life-eyes", "lower");
    assert_eq!(lower.base_value, "holographic");
    assert_eq!(lower.register, vec!["D14"]);
    assert!(
        has(
            lower,
            "score",
            "area",
            "black 90 white 0 neutral 72",
            "black 116 white 28 neutral 18"
        ),
        "{lower:?}"
    );
}
