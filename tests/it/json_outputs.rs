//! The JSON outputs of the command line (docs/src/json.md): every one carries its `format`
//! version and validates against its schema in spec/schema/; under `--format json` a failure is
//! one JSON error object (`m3go-error/1`) on standard output, its message still on standard
//! error and the exit code unchanged; explain's JSON is the trace's steps; `-` is standard
//! output for every output flag; `--labels latin` writes ASCII stone names that read back.

use crate::common::{m3go, m3go_ok, ROOT};
use crate::schema::{assert_valid, errors, schema};
use serde_json::Value;

const POS: &str = "spec/positions/example.yaml";
const READINGS_POS: &str = "spec/positions/readings.yaml";
const RECORD: &str = "spec/records/kejie-alphago-2017-g1.sgf";

fn json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not one JSON value: {e}\n{text}"))
}

/// Runs a command expected to succeed, parses its standard output, checks its `format` and
/// validates it against `schema_file`.
fn valid_output(args: &[&str], schema_file: &str, format: &str) -> Value {
    let out = m3go_ok(args, None);
    let v = json(&out, &format!("{args:?}"));
    assert_eq!(v["format"], format, "{args:?}: {out}");
    assert_valid(schema_file, &format!("{args:?}"), &v);
    v
}

/// Runs a command expected to fail with exit 2 under `--format json`: its standard output is one
/// error object, valid under cli-error.schema.json, of `code`; its message is on standard error.
fn json_error(args: &[&str], code: &str) -> Value {
    let (status, out, err) = m3go(args);
    assert_eq!(status, Some(2), "{args:?}: {out}{err}");
    let v = json(&out, &format!("{args:?}"));
    assert_valid("cli-error.schema.json", &format!("{args:?}"), &v);
    assert_eq!(v["format"], "m3go-error/1", "{v}");
    assert_eq!(v["code"], code, "{args:?}: {v}");
    assert_eq!(v["exit"], 2, "{v}");
    let message = v["message"].as_str().expect("message");
    assert!(!message.is_empty());
    assert!(
        err.contains(message.lines().next().unwrap_or(message)),
        "{args:?}: standard error keeps the message: {err}"
    );
    v
}

#[test]
fn a_failure_under_format_json_is_one_error_object_on_standard_output() {
    let v = json_error(
        &["analyze", "no-such-file.yaml", "--format", "json"],
        "unreadable",
    );
    assert_eq!(v["place"]["file"], "no-such-file.yaml", "{v}");
    let v = json_error(&["play", POS, "二二", "--format", "json"], "illegal-move");
    assert_eq!(v["place"]["move"], 1, "{v}");
    assert_eq!(v["place"]["text"], "二二", "{v}");
    let v = json_error(&["play", POS, "七十", "--format", "json"], "bad-input");
    assert_eq!(v["place"]["move"], 1, "{v}");
    json_error(&["explain", POS, "ZZ", "--format", "json"], "bad-input");
    json_error(&["replay", "no-such.sgf", "--format", "json"], "unreadable");
    let v = json_error(
        &["perft", POS, "3", "--max-nodes", "10", "--format", "json"],
        "limit-exceeded",
    );
    assert_eq!(v["place"]["key"], "--max-nodes", "{v}");
    let v = json_error(&["clause", "NOPE-1", "--format", "json"], "bad-input");
    assert_eq!(v["place"]["key"], "ID", "{v}");
    json_error(
        &["rules", "check", "no-such-rules.yaml", "--format", "json"],
        "unreadable",
    );
    // a bad flag value, refused by the parser before the command runs: `--format=json` too
    let v = json_error(
        &["perft", POS, "1", "--max-nodes", "x", "--format", "json"],
        "usage",
    );
    assert_eq!(v["place"]["key"], "--max-nodes", "{v}");
    assert_eq!(v["place"]["text"], "x", "{v}");
    let v = json_error(&["perft", POS, "9", "--format=json"], "usage");
    assert_eq!(v["place"]["text"], "9", "{v}");
    // an output that cannot be written: a folder where the position file should go
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("out.yaml");
    std::fs::create_dir(&folder).expect("folder");
    let folder = folder.to_string_lossy().into_owned();
    let v = json_error(
        &["play", POS, "pass", "-o", &folder, "--format", "json"],
        "unwritable",
    );
    assert_eq!(v["place"]["file"], folder.as_str(), "{v}");
}

#[test]
fn a_failure_without_format_json_leaves_standard_output_empty() {
    for args in [
        &["analyze", "no-such-file.yaml"][..],
        &["play", POS, "二二"],
        &["perft", POS, "1", "--max-nodes", "x"],
    ] {
        let (status, out, err) = m3go(args);
        assert_eq!(status, Some(2), "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn the_error_schema_refuses_a_free_code_and_a_missing_message() {
    let s = schema("cli-error.schema.json");
    let good = serde_json::json!({"format": "m3go-error/1", "code": "bad-input", "place": null, "message": "x", "exit": 2});
    assert!(errors(&s, &good).is_empty());
    let free = serde_json::json!({"format": "m3go-error/1", "code": "oops", "place": null, "message": "x", "exit": 2});
    assert!(!errors(&s, &free).is_empty());
    let no_message =
        serde_json::json!({"format": "m3go-error/1", "code": "usage", "place": null, "exit": 2});
    assert!(!errors(&s, &no_message).is_empty());
}

/// The first legal move of the position, as `analyze --format json` lists it.
fn a_legal_move(pos: &str) -> String {
    let v = json(
        &m3go_ok(&["analyze", pos, "--format", "json"], None),
        "analyze",
    );
    v["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string()
}

#[test]
fn every_json_output_carries_its_version_and_validates_against_its_schema() {
    valid_output(
        &["analyze", POS, "--format", "json"],
        "analysis.schema.json",
        "m3go-analysis/4",
    );
    let v = m3go_ok(
        &["analyze", READINGS_POS, "--format", "json", "--readings"],
        None,
    );
    let v = json(&v, "analyze --readings");
    assert_valid("readings.schema.json", "analyze --readings", &v["readings"]);
    let mv = a_legal_move(POS);
    valid_output(
        &["play", POS, &mv, "--format", "json"],
        "play.schema.json",
        "m3go-play/1",
    );
    for target in ["六四", "二二", mv.as_str(), "二二*", "pass"] {
        valid_output(
            &["explain", POS, target, "--format", "json"],
            "explain.schema.json",
            "m3go-explain/1",
        );
    }
    let v = valid_output(
        &[
            "explain",
            READINGS_POS,
            "OO",
            "--format",
            "json",
            "--readings",
        ],
        "explain.schema.json",
        "m3go-explain/1",
    );
    assert_eq!(v["readings"]["format"], "m3go-readings/1");
    valid_output(
        &[
            "replay",
            RECORD,
            "--mechanical",
            "--to",
            "30",
            "--format",
            "json",
        ],
        "replay.schema.json",
        "m3go-replay/1",
    );
    let v = {
        let (status, out, _) = m3go(&[
            "replay",
            RECORD,
            "no-such.sgf",
            "--mechanical",
            "--to",
            "20",
            "--format",
            "json",
        ]);
        assert_eq!(status, Some(2), "a record that fails makes the exit 2");
        json(&out, "replay of several")
    };
    assert_eq!(v["format"], "m3go-replays/1");
    assert_valid("replays.schema.json", "replay of several", &v);
    assert!(v["records"][0]["summary"].is_string(), "{v}");
    assert!(v["records"][1]["error"].is_string(), "{v}");
    let v = valid_output(
        &["perft", POS, "1", "--format", "json"],
        "perft.schema.json",
        "m3go-perft/1",
    );
    let text = m3go_ok(&["perft", POS, "1"], None);
    assert_eq!(text.trim(), format!("perft 1 {}", v["total"]));
    let v = valid_output(
        &["perft", POS, "1", "--divide", "--format", "json"],
        "perft.schema.json",
        "m3go-perft/1",
    );
    let divide = v["divide"].as_array().expect("divide");
    let sum: u64 = divide
        .iter()
        .map(|l| l["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(Some(sum), v["total"].as_u64());
    valid_output(
        &["clause", "M20-EYE-1", "--format", "json"],
        "clause.schema.json",
        "m3go-clause/1",
    );
    valid_output(
        &["clause", "D2", "--format", "json"],
        "clause.schema.json",
        "m3go-clause/1",
    );
    valid_output(
        &["clause", "--list", "--format", "json"],
        "clause.schema.json",
        "m3go-clause/1",
    );
    let v = valid_output(
        &["rules", "--format", "json"],
        "rules.schema.json",
        "m3go-rules/1",
    );
    assert!(v["presets"]["m3go-2020"].is_object(), "{v}");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("rules.yaml");
    std::fs::write(&file, "preset: dullstone\nko: positional\n").expect("write");
    let v = valid_output(
        &[
            "rules",
            "check",
            &file.to_string_lossy(),
            "--format",
            "json",
        ],
        "rules.schema.json",
        "m3go-rules/1",
    );
    assert_eq!(v["rules"]["preset"], "dullstone", "{v}");
    let id = "cov-d3-dullstone";
    valid_output(
        &["conform", "--id", id, "--format", "json"],
        "conform-summary.schema.json",
        "m3go-conform-summary/1",
    );
}

#[test]
fn every_schema_prints_by_name() {
    for name in [
        "cli-error",
        "explain",
        "readings",
        "replay",
        "replays",
        "perft",
        "clause",
        "rules",
    ] {
        let text = m3go_ok(&["schema", name], None);
        let committed = std::fs::read_to_string(format!("{ROOT}/spec/schema/{name}.schema.json"))
            .expect("file");
        assert_eq!(text, committed, "{name}");
    }
}

#[test]
fn explain_json_is_the_steps_of_the_text_trace() {
    let mv = a_legal_move(POS);
    let empty_point = mv.split('.').nth(1).expect("a point").to_string();
    for target in [
        "六四",
        "二二",
        "二二*",
        empty_point.as_str(),
        mv.as_str(),
        "华289.二二",
    ] {
        let text = m3go_ok(&["explain", POS, target], None);
        let v = json(
            &m3go_ok(&["explain", POS, target, "--format", "json"], None),
            target,
        );
        assert_eq!(v["trace"], text.as_str(), "{target}");
        let steps = v["steps"].as_array().expect("steps");
        let lines: Vec<&str> = steps
            .iter()
            .map(|s| s["text"].as_str().expect("text"))
            .collect();
        assert_eq!(format!("{}\n", lines.join("\n")), text, "{target}");
    }
    // an empty point: each forbidden-point test is a step with its clause and verdict
    let empty = json(
        &m3go_ok(&["explain", POS, &empty_point, "--format", "json"], None),
        "point",
    );
    let steps = empty["steps"].as_array().expect("steps");
    let by_clause = |c: &str| {
        steps
            .iter()
            .find(|s| s["clause"] == c)
            .unwrap_or_else(|| panic!("no step of {c}: {empty}"))
    };
    for c in ["M20-FORBID-CAPTURE", "M20-FORBID-EYE", "M20-FORBID-TIGER"] {
        let s = by_clause(c);
        assert!(s["verdict"] == "yes" || s["verdict"] == "no", "{s}");
        assert_eq!(s["subject"]["kind"], "point", "{s}");
    }
    // a refused move: its verdict is the refusal code, its clause the refusing clause
    let refused = json(
        &m3go_ok(&["explain", POS, "华289.二二", "--format", "json"], None),
        "refused",
    );
    let first = &refused["steps"][0];
    assert_eq!(first["subject"]["kind"], "move", "{first}");
    let text = first["text"].as_str().unwrap_or("");
    let code = first["verdict"].as_str().unwrap_or("?");
    let clause = first["clause"].as_str().unwrap_or("?");
    assert!(
        text.contains(&format!("is refused: {code} — clause {clause}")),
        "{first}"
    );
}

#[test]
fn a_dash_is_standard_output_for_every_output_flag() {
    let yaml = m3go_ok(&["play", POS, "pass", "-o", "-", "--format", "json"], None);
    assert!(
        yaml.contains("m3go-play/1") && yaml.contains("diagram:"),
        "{yaml}"
    );
    let replay = m3go_ok(
        &[
            "replay",
            RECORD,
            "--mechanical",
            "--to",
            "5",
            "-o",
            "-",
            "--quiet",
        ],
        None,
    );
    assert!(replay.contains("diagram:"), "{replay}");
    let saved = m3go_ok(
        &[
            "replay",
            RECORD,
            "--mechanical",
            "--to",
            "5",
            "--save",
            "-",
            "--quiet",
        ],
        None,
    );
    assert!(saved.contains("黑1."), "{saved}");
    let svg = m3go_ok(&["render", POS, "--svg", "-"], None);
    assert!(svg.starts_with("<svg"), "{svg}");
    let game = m3go_ok(&["convert", RECORD, "-"], None);
    assert!(game.contains("黑1."), "{game}");
    // conform: --results - and --junit - take standard output, the text report goes to
    // standard error; two outputs on standard output are refused
    let id = "cov-d3-dullstone";
    let (status, out, err) = m3go(&["conform", "--id", id, "--results", "-"]);
    assert_eq!(status, Some(0), "{err}");
    let first = out.lines().next().unwrap_or("");
    assert!(first.contains("m3go-conform-results/2"), "{out}");
    assert!(err.contains("1 passed"), "{err}");
    let (status, _, err) = m3go(&["conform", "--id", id, "--results", "-", "--junit", "-"]);
    assert_eq!(status, Some(2));
    assert!(err.contains("both write to standard output"), "{err}");
    let (status, _, err) = m3go(&[
        "diff", "--impl", "true", "--games", "1", "-o", "-", "--format", "json",
    ]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("both write to standard output"), "{err}");
}

#[test]
fn latin_labels_write_ascii_stone_names_that_read_back() {
    use m3go_engine::game::Prefix;
    use m3go_engine::{Action, Colour, Labels, Move, Notation, Point, Rules, StoneKind, Turn};
    let rules = Rules::m3go_2020();
    let label_chars = "IHGFEDCBAOihgfedcbao0123456789";
    let mut seen = Vec::new();
    for player in [Colour::Black, Colour::White] {
        for kind in [StoneKind::Own, StoneKind::Flower] {
            let turn = Turn { player, kind };
            let c = turn.symbol_in(Labels::Latin);
            assert!(c.is_ascii_uppercase(), "{c}");
            assert!(!label_chars.contains(c), "{c} is a label");
            assert!(!seen.contains(&c), "{c} names two kinds");
            seen.push(c);
            assert_eq!(turn.symbol_in(Labels::Chinese), turn.symbol());
            for action in [Action::Pass, Action::Place(Point::new(2, -3))] {
                for labels in [Labels::Latin, Labels::Chinese] {
                    let n = Notation {
                        prefix: Prefix::Numbered(turn, 7),
                        action,
                    };
                    let written = n.format(labels);
                    let read = Move::parse_in(&written, &rules, 9)
                        .unwrap_or_else(|e| panic!("{written}: {e}"));
                    assert_eq!(read.turn, Some(turn), "{written}");
                    assert_eq!(read.number, Some(7), "{written}");
                    assert_eq!(read.action, action, "{written}");
                    assert_eq!(written.is_ascii(), labels == Labels::Latin, "{written}");
                }
            }
        }
    }
    // a whole record written as a Latin game file is ASCII (but its headers' values) and
    // replays to the same position as the record
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("game.txt");
    let out = out.to_string_lossy().into_owned();
    m3go_ok(&["convert", RECORD, &out, "--labels", "latin"], None);
    let text = std::fs::read_to_string(&out).expect("game file");
    let moves: String = text.lines().filter(|l| !l.contains(':')).collect();
    assert!(moves.is_ascii(), "{moves}");
    assert!(moves.contains("K1.") && moves.contains("W2."), "{moves}");
    let a = m3go_ok(&["replay", RECORD, "--format", "json"], None);
    let b = m3go_ok(&["replay", &out, "--format", "json"], None);
    assert_eq!(
        json(&a, "record")["position"],
        json(&b, "game file")["position"]
    );
}
