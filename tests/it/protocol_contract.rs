//! The protocol contract says one thing in its schemas, its text (spec/README.md) and m3go's
//! own answers (issue 25, item 2): one test per point where they once disagreed. Each builds
//! the input the docs name and checks m3go's answer against the schema and the documented code.

use crate::schema::{assert_valid, errors, schema};
use m3go::conform::answer::answer_value;
use m3go::conform::capabilities::Capabilities;
use m3go::conform::failure::ProgramFailure;
use m3go::conform::runner::{negotiate, Declared, Oracle};
use serde_json::{json, Value};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const THREE: &str = ". . .\n. . .\n. . .\n";

fn ask(v: Value) -> Value {
    answer_value(&v, &Capabilities::m3go(), m3go_engine::Engine::Fast)
}

fn spec_readme() -> String {
    std::fs::read_to_string(format!("{ROOT}/spec/README.md")).expect("spec/README.md")
}

/// A program whose every answer is the one given (with the request's id).
struct Says(Value);

impl Oracle for Says {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        let mut a = self.0.clone();
        a["id"] = request["id"].clone();
        Ok(a)
    }
}

/// capabilities.schema.json and the text agree: `options` and `replay` may be left out (the
/// runner reads none and both), `presets` may not.
#[test]
fn capabilities_options_and_replay_are_optional_in_the_schema_and_the_runner() {
    let minimal = json!({"id": "capabilities", "protocols": [m3go::conform::protocol::PROTOCOL],
        "implementation": {"name": "toy", "version": "1"},
        "capabilities": {"presets": ["m3go-2020"]}});
    assert_valid("capabilities.schema.json", "minimal capabilities", &minimal);
    let negotiated = negotiate(&mut Says(minimal.clone())).expect("negotiated");
    assert_eq!(negotiated.protocol, m3go::conform::protocol::PROTOCOL);
    let Declared::Capabilities(c) = negotiated.declared else {
        panic!("no capabilities read from {minimal}")
    };
    assert!(c.options.is_empty());
    assert_eq!(c.replay.len(), 2, "{c:?}");
    let mut no_presets = minimal;
    no_presets["capabilities"] = json!({"options": {}});
    assert!(!errors(&schema("capabilities.schema.json"), &no_presets).is_empty());
    assert!(negotiate(&mut Says(no_presets)).is_err());
    let text = spec_readme();
    assert!(
        text.contains("`capabilities.options` (optional"),
        "spec/README.md"
    );
    assert!(
        text.contains("`capabilities.replay` (optional"),
        "spec/README.md"
    );
}

/// The `reason` of an `unsupported` answer is in answer.schema.json, a string, and m3go's own
/// unsupported answer validates.
#[test]
fn the_reason_of_unsupported_is_in_the_answer_schema() {
    let s = schema("answer.schema.json");
    assert!(s["properties"]["reason"].is_object(), "{}", s["properties"]);
    let toy = Capabilities::only_presets(&["m3go-2020".to_string()]);
    let a = answer_value(
        &json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": "d",
            "position": {"rules": "dullstone", "diagram": THREE}}),
        &toy,
        m3go_engine::Engine::Fast,
    );
    assert_eq!(a["unsupported"], true, "{a}");
    assert!(
        a["reason"]
            .as_str()
            .is_some_and(|r| r.contains("dullstone")),
        "{a}"
    );
    assert_valid("answer.schema.json", "unsupported answer", &a);
    let mut bad = a.clone();
    bad["reason"] = json!(5);
    assert!(!errors(&s, &bad).is_empty(), "a numeric reason validates");
}

/// Ids: a string or a number in every request and answer schema, and m3go answers a numeric id
/// like a string one (echoed as the same value); anything else is a bad request.
#[test]
fn ids_are_strings_or_numbers_in_requests_answers_and_m3go() {
    for id in [json!("x"), json!(7), json!(2.5)] {
        let req = json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": id,
            "position": {"diagram": THREE}, "probes": ["黑1.OO"]});
        assert_valid(
            "request.schema.json",
            &format!("request with id {id}"),
            &req,
        );
        let a = ask(req);
        assert!(a.get("error").is_none(), "{a}");
        assert_eq!(a["id"], id, "{a}");
        assert_eq!(a["probes"][0]["legal"], true, "{a}");
        assert_valid("answer.schema.json", &format!("answer with id {id}"), &a);
        let caps = json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": id,
            "action": "capabilities", "protocols": [m3go::conform::protocol::PROTOCOL]});
        assert_valid(
            "capabilities-request.schema.json",
            "capabilities request",
            &caps,
        );
        let a = ask(caps);
        assert_eq!(a["id"], id, "{a}");
        assert_valid("capabilities.schema.json", "capabilities answer", &a);
        let e = ask(
            json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": id,
            "position": {"diagram": "? ?\n"}}),
        );
        assert_eq!(e["id"], id, "{e}");
        assert_valid("error.schema.json", "error answer", &e);
    }
    for id in [json!(true), json!(["x"]), json!({"a": 1})] {
        let req = json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": id,
            "position": {"diagram": THREE}});
        assert!(
            !errors(&schema("request.schema.json"), &req).is_empty(),
            "{id}"
        );
        let a = ask(req);
        assert_eq!(a["error"]["code"], "bad-request", "{a}");
        assert!(a["id"].is_null(), "{a}");
        assert_valid("error.schema.json", "error answer", &a);
    }
    let mut bad = ask(
        json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": "e",
        "position": {"diagram": "? ?\n"}}),
    );
    bad["id"] = json!(true);
    assert!(!errors(&schema("error.schema.json"), &bad).is_empty());
}

/// Issue 36, finding 8: `m3go protocol` echoes an id beyond 64 bits as the request wrote it
/// (it was rounded to `1.2345678901234568e+29`), in every kind of answer: a case answer, a
/// capabilities answer, an error, `unsupported`, a declined check; an id with a fraction or an
/// exponent likewise.
#[test]
fn an_id_beyond_64_bits_is_echoed_as_the_request_wrote_it() {
    let p = m3go::conform::protocol::PROTOCOL;
    let three = r#"{"size":3,"diagram":". . .\n. . .\n. . .\n"}"#;
    let dull = r#"{"rules":"dullstone","size":3,"diagram":". . .\n. . .\n. . .\n"}"#;
    for id in [
        "123456789012345678901234567890",
        "-1180591620717411303424",
        "18446744073709551616",
        "1.50",
        "2e3",
    ] {
        let lines = [
            format!(r#"{{"protocol":"{p}","id":{id},"position":{three},"probes":["黑1.OO"]}}"#),
            format!(r#"{{"protocol":"{p}","id":{id},"action":"capabilities"}}"#),
            format!(r#"{{"protocol":"{p}","id":{id},"position":{{"diagram":"? ?"}}}}"#),
            format!(r#"{{"protocol":"{p}","id":{id},"action":"dance"}}"#),
            format!(r#"{{"protocol":"{p}","id":{id},"position":{dull}}}"#),
            format!(r#"{{"protocol":"{p}","id":{id},"position":{three},"checks":["score"]}}"#),
        ];
        for args in [
            &["protocol", "--presets", "m3go-2020"][..],
            &["protocol", "--decline", "m3go-2020:flower-enclosed=score"][..],
        ] {
            let (code, out, err) = crate::common::m3go_stdin(args, &(lines.join("\n") + "\n"));
            assert_eq!(code, Some(0), "{err}");
            let answers: Vec<&str> = out.lines().collect();
            assert_eq!(answers.len(), lines.len(), "{out}");
            for (line, answer) in lines.iter().zip(&answers) {
                assert!(
                    answer.contains(&format!(r#""id":{id}"#)),
                    "{args:?} {line}\n→ {answer}"
                );
                let v: Value = serde_json::from_str(answer).expect("the answer is JSON");
                assert_eq!(
                    v["id"],
                    serde_json::from_str::<Value>(id).expect("a number")
                );
            }
            // the kinds of answer the lines get
            let v: Vec<Value> = answers
                .iter()
                .map(|a| serde_json::from_str(a).expect("JSON"))
                .collect();
            assert!(v[0]["analysis"].is_object(), "{}", answers[0]);
            assert!(v[1]["protocols"].is_array(), "{}", answers[1]);
            assert_eq!(v[2]["error"]["code"], "bad-position");
            assert_eq!(v[3]["error"]["code"], "unsupported-action");
        }
    }
}

/// `off-board` is what the docs say: a probe off the board is refused with it, one that does
/// not read with `malformed`; a move of `moves` off the board is a `bad-move` error.
#[test]
fn an_off_board_probe_is_refused_off_board_and_an_off_board_move_is_a_bad_move() {
    let a = ask(
        json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": "o",
        "position": {"diagram": THREE}, "probes": ["黑1.九九", "(5,0)", "hello", "黑1.OO"]}),
    );
    let reasons: Vec<&Value> = a["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| &p["reason"])
        .collect();
    assert_eq!(
        reasons,
        [
            &json!("off-board"),
            &json!("off-board"),
            &json!("malformed"),
            &Value::Null
        ],
        "{a}"
    );
    assert_valid("answer.schema.json", "probes", &a);
    let e = ask(
        json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": "m",
        "position": {"diagram": THREE}, "moves": ["黑1.九九"]}),
    );
    assert_eq!(e["error"]["code"], "bad-move", "{e}");
    assert_eq!(e["error"]["field"], "moves[0]", "{e}");
    let text = spec_readme();
    for code in ["`off-board`", "`malformed`"] {
        assert!(text.contains(code), "{code} is not documented");
    }
}

/// Every code of the error table of spec/README.md is produced by the input the table names,
/// and the table lists every code m3go has.
#[test]
fn each_documented_error_code_is_produced_by_the_input_the_docs_name() {
    use m3go::conform::protocol::code;
    let p = m3go::conform::protocol::PROTOCOL;
    let pos = |v: Value| json!({"protocol": p, "id": "e", "position": v});
    let cases: Vec<(&str, Value, Value)> = vec![
        (
            code::BAD_REQUEST,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "bogus": 1}),
            Value::Null,
        ),
        (code::BAD_REQUEST, json!([1, 2]), Value::Null),
        (
            code::BAD_REQUEST,
            json!({"protocol": p, "id": "e"}),
            Value::Null,
        ),
        (
            code::UNSUPPORTED_PROTOCOL,
            json!({"protocol": "m3go-conform/99", "id": "e", "position": {"diagram": THREE}}),
            json!("protocol"),
        ),
        (
            code::UNSUPPORTED_ACTION,
            json!({"protocol": p, "id": "e", "action": "dance"}),
            json!("action"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": THREE, "colour": 1})),
            json!("position"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": THREE, "rules": {"preset": "m3go-2020", "bogus": 1}})),
            json!("position"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": THREE, "rules": {"preset": "m3go-2020", "ko": "sometimes"}})),
            json!("position"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": THREE, "rules": "go-2099"})),
            json!("position"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": THREE, "rules": {"preset": "m3go-2020", "komi": 0.3}})),
            json!("position"),
        ),
        (
            code::BAD_POSITION,
            pos(json!({"diagram": "? ?\n"})),
            json!("position"),
        ),
        (
            code::BAD_MOVE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "moves": ["黑1.ZZ"]}),
            json!("moves[0]"),
        ),
        (
            code::BAD_MOVE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "moves": ["黑1.九九"]}),
            json!("moves[0]"),
        ),
        (
            code::BAD_MOVE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "replay": {"mode": "strict", "moves": ["ZZ"]}}),
            json!("replay.moves[0]"),
        ),
        (
            code::ILLEGAL_MOVE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "moves": ["黑1.OO", "白2.OO"]}),
            json!("moves[1]"),
        ),
        (
            code::ILLEGAL_MOVE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "replay": {"mode": "strict", "moves": ["OO", "OO"]}}),
            json!("replay.moves[1]"),
        ),
        (
            code::TOO_LARGE,
            json!({"protocol": p, "id": "e", "position": {"diagram": THREE}, "replay": {"mode": "mechanical", "moves": vec!["pass"; 91]}}),
            json!("replay.moves"),
        ),
    ];
    for (want, req, field) in &cases {
        let a = ask(req.clone());
        assert_eq!(a["error"]["code"], *want, "{req}\n-> {a}");
        assert_eq!(a["error"]["field"], *field, "{req}\n-> {a}");
        assert_valid("error.schema.json", &format!("answer to {req}"), &a);
    }
    let text = spec_readme();
    let table: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'))
        .map(str::to_string)
        .collect();
    let all = [
        code::BAD_REQUEST,
        code::UNSUPPORTED_PROTOCOL,
        code::UNSUPPORTED_ACTION,
        code::BAD_POSITION,
        code::BAD_MOVE,
        code::ILLEGAL_MOVE,
        code::TOO_LARGE,
    ];
    for c in all {
        assert!(
            table.iter().any(|t| t == c),
            "`{c}` is not in the error table of spec/README.md"
        );
        assert!(
            cases.iter().any(|(w, _, _)| *w == c),
            "no input produces `{c}` here"
        );
    }
}

/// The refusal order of the docs: a flower refused by its cascade is `capture-point` although
/// the point passed the static tests, and `forbidden` (the three static tests only) does not
/// list it.
#[test]
fn forbidden_holds_the_static_tests_and_the_cascade_capture_point_comes_after_them() {
    let case = m3go::conform::case::Case::load(
        &format!("{ROOT}/spec/cases/disputed-flower-capture-check-cascade.yaml"),
        None,
    )
    .expect("case");
    let a = ask(case.request());
    assert_eq!(a["probes"][0]["move"], "花10.CD", "{a}");
    assert_eq!(a["probes"][0]["reason"], "capture-point", "{}", a["probes"]);
    let listed = |who: &str| {
        a["analysis"]["forbidden"][who]
            .as_array()
            .expect("forbidden")
            .iter()
            .any(|f| f["point"] == "CD")
    };
    assert!(
        !listed("white") && !listed("black"),
        "{}",
        a["analysis"]["forbidden"]
    );
    // a black flower whose cascade leaves only a black string without liberty: `suicide`,
    // after the static tests (which pass: AB is not in `forbidden`)
    let a = ask(
        json!({"protocol": m3go::conform::protocol::PROTOCOL, "id": "s",
        "position": {"size": 5, "move": 9,
            "diagram": ". X . X .\n. O # O .\nO # . X .\n# . # O .\nX . # # .\n"},
        "probes": ["华9.AB"]}),
    );
    assert_eq!(a["probes"][0]["reason"], "suicide", "{}", a["probes"]);
    assert!(
        a["probes"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("black string(s) BB*")),
        "{}",
        a["probes"]
    );
    for who in ["black", "white"] {
        let listed = a["analysis"]["forbidden"][who]
            .as_array()
            .expect("forbidden")
            .iter()
            .any(|f| f["point"] == "AB");
        assert!(!listed, "{}", a["analysis"]["forbidden"]);
    }
    let text = spec_readme();
    assert!(text.contains("lists only the points the three *static* point tests forbid"));
    assert!(text.contains("a flower whose\n  cascade leaves only its own player's strings without liberty is refused as `suicide`"));
}

/// `eyes_made` / `eyes_lost` are compared whole (as many strings as the case names), as the docs
/// now say: an answer with one extra string fails the case.
#[test]
fn eyes_made_and_eyes_lost_must_match_in_count() {
    let text = spec_readme();
    assert!(text.contains("an extra entry fails (`expected 0 string(s), got 1`)"));
    assert!(text.contains("**and still on the board**"));
    let files = m3go::conform::suite::case_files(&format!("{ROOT}/spec/cases")).expect("cases");
    let mut tried = 0;
    for f in files {
        let case = m3go::conform::case::Case::load(&f, None).expect("case");
        let Some(ev) = case.expect.events.as_ref().and_then(|e| {
            e.iter()
                .find(|e| e.eyes_made.as_ref().is_some_and(Vec::is_empty))
        }) else {
            continue;
        };
        let mut a = ask(case.request());
        assert!(m3go::conform::check::check(&case, &a).is_empty(), "{f}");
        let extra = json!({"points": ["OO"], "eyes": []});
        a["reports"][ev.index]["eyes_made"] = json!([extra]);
        let d = m3go::conform::check::check(&case, &a);
        assert!(
            d.iter().any(|x| x.contains("expected 0 string(s), got 1")),
            "{f}: {d:?}"
        );
        tried += 1;
    }
    assert!(tried > 0, "no case expects `eyes_made: []`");
}

/// `m3go protocol` writes a case request's answer straight from the typed answer
/// (`answer_line_text`): every line it writes says what the JSON answer (`answer_line`) says,
/// for every case of the suite in both protocol versions and for the lines that take the JSON
/// value's way (capabilities, errors, rules outside the capabilities, a duplicate key).
#[test]
fn the_protocol_line_says_what_the_json_answer_says() {
    use m3go::conform::answer::{answer_line, answer_line_text};
    use m3go_engine::Engine;
    let suite = m3go::conform::runner::load_suite(
        &format!("{ROOT}/spec/cases"),
        &format!("{ROOT}/rules.md"),
    )
    .expect("suite");
    let mut lines: Vec<String> = Vec::new();
    for (_, case) in &suite.cases {
        for protocol in m3go::conform::protocol::PROTOCOLS {
            lines.push(serde_json::to_string(&case.request_in(protocol, None)).expect("JSON"));
        }
    }
    assert!(lines.len() > 200, "{}", lines.len());
    let three = r#"{"size":3,"diagram":". . .\n. . .\n. . .\n"}"#;
    lines.extend([
        r#"{"protocol":"m3go-conform/1","id":"c1","action":"capabilities"}"#.to_string(),
        "not json".to_string(),
        r#"{"id":7,"action":"dance"}"#.to_string(),
        format!(r#"{{"protocol":"m3go-conform/1","id":"x","position":{three},"moves":["黑1.九九"]}}"#),
        format!(r#"{{"protocol":"m3go-conform/9","id":"v","position":{three}}}"#),
        format!(r#"{{"protocol":"m3go-conform/1","id":"k","position":{three},"probes":["黑1.二二"],"checks":["legal"]}}"#),
        format!(r#"{{"protocol":"m3go-conform/1","id":"dup","id":"dup2","position":{three}}}"#),
        r#"{"protocol":"m3go-conform/1","id":"d","position":{"rules":"dullstone","size":3,"diagram":". . .\n. . .\n. . .\n"}}"#.to_string(),
    ]);
    let toy = Capabilities::only_presets(&["m3go-2020".to_string()]);
    for caps in [Capabilities::m3go(), toy] {
        for line in &lines {
            let text = answer_line_text(line, &caps, Engine::Fast);
            let written: Value = serde_json::from_str(&text).expect("the line is JSON");
            assert_eq!(
                written,
                answer_line(line, &caps, Engine::Fast),
                "request {line}"
            );
        }
    }
}
