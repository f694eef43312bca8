//! The JSON Schemas of spec/schema/ are what the Rust types generate (`m3go schema --write`
//! regenerates them), and real outputs validate against them: every case file, every request
//! of the suite and m3go's answer to it (`m3go protocol`), `m3go analyze --format json` and
//! `m3go play --format json`.

use m3go::conform::schema::{file_text, schemas};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

pub(crate) fn schema(file: &str) -> Value {
    let text = std::fs::read_to_string(format!("{ROOT}/spec/schema/{file}"))
        .unwrap_or_else(|e| panic!("spec/schema/{file}: {e} (run `cargo run -- schema --write`)"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("spec/schema/{file}: {e}"))
}

/// The errors of `instance` against `schema`, each with where it is.
pub(crate) fn errors(schema: &Value, instance: &Value) -> Vec<String> {
    let v = jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("schema: {e}"));
    v.iter_errors(instance)
        .map(|e| format!("at `{}`: {e}", e.instance_path()))
        .collect()
}

pub(crate) fn assert_valid(schema_file: &str, what: &str, instance: &Value) {
    let e = errors(&schema(schema_file), instance);
    assert!(
        e.is_empty(),
        "{what} against {schema_file}:\n  {}",
        e.join("\n  ")
    );
}

/// Runs m3go with `stdin`, expects exit 0, returns stdout.
fn m3go(args: &[&str], stdin: &str) -> String {
    crate::common::m3go_ok(args, Some(stdin))
}

#[test]
fn schema_files_are_what_the_types_generate() {
    let all = schemas();
    assert_eq!(all.len(), 10);
    for s in all {
        let path = format!("{ROOT}/spec/schema/{}", s.file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == file_text(&s.schema),
            "{path} is not what the types generate: a type changed without its schema; \
             run `cargo run -- schema --write` (and bump the format version if the shape changed)"
        );
    }
}

#[test]
fn schemas_reject_what_they_must() {
    let bad_analysis = serde_json::json!({"format": "m3go-analysis/2"});
    assert!(!errors(&schema("analysis.schema.json"), &bad_analysis).is_empty());
    let bad_request = serde_json::json!({"protocol": "m3go-conform/1", "id": "x", "position": {"diagram": ". ."}, "extra": 1});
    assert!(!errors(&schema("request.schema.json"), &bad_request).is_empty());
    let no_id = serde_json::json!({"unsupported": true});
    assert!(!errors(&schema("answer.schema.json"), &no_id).is_empty());
}

#[test]
fn case_files_requests_and_answers_validate() {
    let suite = m3go::conform::runner::load_suite(
        &format!("{ROOT}/spec/cases"),
        &format!("{ROOT}/rules.md"),
    )
    .expect("suite");
    assert!(suite.load_errors.is_empty(), "{:?}", suite.load_errors);
    assert!(suite.cases.len() > 100);
    let mut requests = String::new();
    for (file, case) in &suite.cases {
        let text = std::fs::read_to_string(file).expect("case");
        let yaml: Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_valid("case.schema.json", file, &yaml);
        let req = case.request();
        assert_valid("request.schema.json", &format!("request of {file}"), &req);
        requests.push_str(&serde_json::to_string(&req).expect("JSON"));
        requests.push('\n');
    }
    let answers = m3go(&["protocol"], &requests);
    let mut n = 0;
    for line in answers.lines() {
        let v: Value = serde_json::from_str(line).expect("answer JSON");
        assert!(v.get("error").is_none(), "{line}");
        assert_valid("answer.schema.json", &format!("answer {}", v["id"]), &v);
        n += 1;
    }
    assert_eq!(n, suite.cases.len());
}

/// The capabilities request a runner sends, m3go's answer to it, and m3go's error answers (a
/// line that is not JSON, an unknown action, a bad position) validate against their schemas.
#[test]
fn capabilities_and_error_answers_validate() {
    let req = m3go::conform::runner::capabilities_request();
    assert_valid(
        "capabilities-request.schema.json",
        "capabilities request",
        &req,
    );
    let bad_position = serde_json::json!({"protocol": "m3go-conform/1", "id": "p", "position": {"diagram": "? ?\n"}});
    let input = format!("{req}\nnot json\n{{\"id\": 7, \"action\": \"dance\"}}\n{bad_position}\n");
    let answers: Vec<Value> = m3go(&["protocol"], &input)
        .lines()
        .map(|l| serde_json::from_str(l).expect("answer JSON"))
        .collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_valid(
        "capabilities.schema.json",
        "capabilities answer",
        &answers[0],
    );
    assert_eq!(answers[0]["id"], "capabilities");
    for (a, code) in answers[1..]
        .iter()
        .zip(["bad-request", "unsupported-action", "bad-position"])
    {
        assert_valid("error.schema.json", &format!("error answer {a}"), a);
        assert_eq!(a["error"]["code"], code, "{a}");
    }
    assert_eq!(answers[2]["id"], 7);
    assert_eq!(answers[3]["id"], "p");
    // an error answer without its code is not one
    let no_code = serde_json::json!({"id": null, "error": {"message": "x", "field": null}});
    assert!(!errors(&schema("error.schema.json"), &no_code).is_empty());
}

#[test]
fn analyze_and_play_json_validate() {
    for pos in ["spec/positions/example.yaml", "docs/example-9x9.yaml"] {
        let out = m3go(&["analyze", pos, "--format", "json"], "");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["format"], "m3go-analysis/4");
        assert_valid("analysis.schema.json", pos, &v);
        let point = &v["score"]["points"][0];
        assert!(
            point["point"].is_string() && point["owner"].is_string(),
            "{point}"
        );
    }
    let out = m3go(
        &[
            "play",
            "docs/example-9x9.yaml",
            "一四",
            "pass",
            "--format",
            "json",
        ],
        "",
    );
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["format"], "m3go-play/1");
    assert_eq!(v["reports"][0]["action"], "一四", "labels, not {{x, y}}");
    assert_eq!(v["reports"][1]["action"], "pass");
    assert_valid("play.schema.json", "play", &v);
}
