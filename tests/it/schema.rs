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
    assert_eq!(all.len(), 26);
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
        assert_valid(
            "answer-m3go.schema.json",
            &format!("answer {}", v["id"]),
            &v,
        );
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

/// Issue 39, item 1: one contract. A conforming program's answer needs only `id` and the fields
/// its checks read (spec/README.md), a declined score may be null, and an error answer may
/// carry a null id (error.schema.json); m3go's own answers meet the strict schema, which
/// requires every field of the analysis.
#[test]
fn the_answer_schema_admits_what_the_spec_admits_and_m3go_meets_the_strict_one() {
    let request = serde_json::json!({
        "protocol": "m3go-conform/2", "id": "p",
        "position": {"rules": "m3go-2020", "diagram": ". . .\n. X .\n. . .\n"},
        "checks": ["private_eyes", "score"],
    });
    let full: Value = serde_json::from_str(m3go(&["protocol"], &format!("{request}\n")).trim())
        .expect("answer JSON");
    assert_valid("answer-m3go.schema.json", "m3go's answer", &full);
    // what a program that answers only the private eyes and declines the score sends
    let strings: Vec<Value> = full["analysis"]["strings"]
        .as_array()
        .expect("strings")
        .iter()
        .map(|s| serde_json::json!({"name": s["name"], "private_eyes": s["private_eyes"]}))
        .collect();
    let partial = serde_json::json!({
        "id": "p",
        "analysis": {"strings": strings, "score": null},
        "declined": {"score": "flower-enclosed"},
    });
    assert_valid("answer.schema.json", "a partial program's answer", &partial);
    assert!(
        !errors(&schema("answer-m3go.schema.json"), &partial).is_empty(),
        "the strict schema must refuse an analysis without its fields"
    );
    let unreadable = serde_json::json!({
        "id": null,
        "error": {"code": "bad-request", "field": null, "message": "the request is not JSON"},
    });
    for file in [
        "answer.schema.json",
        "answer-m3go.schema.json",
        "error.schema.json",
    ] {
        assert_valid(file, "an error answer with a null id", &unreadable);
    }
    // what is present keeps its type
    let wrong = serde_json::json!({"id": "p", "analysis": {"strings": "none"}});
    assert!(!errors(&schema("answer.schema.json"), &wrong).is_empty());
}

/// Issue 39, item 1: only standard JSON Schema formats, so that `ajv --strict` and
/// `check-jsonschema` accept every schema, and both validators agree with the one the tests use
/// on an answer. The validators come from their registries (npm's `ajv-cli`, PyPI's
/// `check-jsonschema`); `.ci/run` installs them and sets `M3GO_AJV`, `M3GO_CHECK_JSONSCHEMA` and
/// `M3GO_SCHEMA_VALIDATORS_REQUIRED=1`. Without them the validators' part is skipped with a
/// notice (the format check still runs).
#[test]
fn schemas_use_standard_formats_and_pass_ajv_strict_and_check_jsonschema() {
    const STANDARD: &[&str] = &[
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    ];
    fn formats(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(f)) = m.get("format") {
                    out.push(f.clone());
                }
                m.values().for_each(|x| formats(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| formats(x, out)),
            _ => {}
        }
    }
    let files: Vec<String> = schemas().iter().map(|s| s.file.to_string()).collect();
    for file in &files {
        let mut found = Vec::new();
        formats(&schema(file), &mut found);
        found.retain(|f| !STANDARD.contains(&f.as_str()));
        assert!(
            found.is_empty(),
            "{file} uses formats JSON Schema does not define: {found:?}"
        );
    }
    let required = std::env::var_os("M3GO_SCHEMA_VALIDATORS_REQUIRED").is_some();
    let (Some(ajv), Some(cjs)) = (
        std::env::var_os("M3GO_AJV"),
        std::env::var_os("M3GO_CHECK_JSONSCHEMA"),
    ) else {
        assert!(
            !required,
            "M3GO_AJV and M3GO_CHECK_JSONSCHEMA must name the validators"
        );
        eprintln!("schema validators: M3GO_AJV / M3GO_CHECK_JSONSCHEMA not set, skipped");
        return;
    };
    let dir = std::env::temp_dir().join(format!("m3go-validators-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |program: &std::ffi::OsStr, args: &[&str]| {
        let out = std::process::Command::new(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("run {program:?}: {e}"));
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    };
    let answer = dir.join("answer.json");
    let request = serde_json::json!({
        "protocol": "m3go-conform/2", "id": 1,
        "position": {"rules": "m3go-2020", "diagram": ". . .\n. X .\n. . .\n"},
    });
    std::fs::write(&answer, m3go(&["protocol"], &format!("{request}\n"))).unwrap();
    let answer = answer.to_str().unwrap();
    for file in &files {
        let path = format!("{ROOT}/spec/schema/{file}");
        let (ok, out) = run(
            &ajv,
            &["compile", "--spec=draft2020", "--strict=true", "-s", &path],
        );
        assert!(
            ok && !out.contains("unknown format"),
            "ajv --strict on {file}:\n{out}"
        );
        let (ok, out) = run(&cjs, &["--check-metaschema", &path]);
        assert!(ok, "check-jsonschema --check-metaschema {file}:\n{out}");
    }
    for file in ["answer.schema.json", "answer-m3go.schema.json"] {
        let path = format!("{ROOT}/spec/schema/{file}");
        let (ok, out) = run(
            &ajv,
            &[
                "validate",
                "--spec=draft2020",
                "--strict=true",
                "-s",
                &path,
                "-d",
                answer,
            ],
        );
        assert!(ok, "ajv validate {file}:\n{out}");
        let (ok, out) = run(&cjs, &["--schemafile", &path, answer]);
        assert!(ok, "check-jsonschema {file}:\n{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The play protocol's capabilities bound a board size as m3go does (3 to 19), not by a Rust
/// integer's range, and leave out `options`, `sizes` and `protocol` (spec/play-protocol.md
/// "Capabilities").
#[test]
fn player_capabilities_sizes_are_board_sizes_and_options_are_optional() {
    let s = schema("player-capabilities.schema.json");
    let answer = |caps: Value| {
        serde_json::json!({"id": "capabilities", "protocols": ["m3go-player/1"],
            "implementation": {"name": "p", "version": "1"}, "capabilities": caps})
    };
    let minimal = answer(serde_json::json!({"presets": ["m3go-2020"]}));
    assert!(
        errors(&s, &minimal).is_empty(),
        "{:?}",
        errors(&s, &minimal)
    );
    let sized = answer(serde_json::json!({"presets": ["m3go-2020"], "sizes": [3, 9, 19]}));
    assert!(errors(&s, &sized).is_empty(), "{:?}", errors(&s, &sized));
    for bad in [1, 21, 4_294_967_296_u64] {
        let a = answer(serde_json::json!({"presets": ["m3go-2020"], "sizes": [bad]}));
        assert!(!errors(&s, &a).is_empty(), "size {bad} accepted");
    }
}
