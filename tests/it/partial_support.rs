//! Partial support at the granularity of a reading (issue 25, item 1; spec/README.md "Partial
//! support"): a program that lacks one reading of a preset declines the checks that depend on
//! it, the runner asks and makes every other check and counts the ones it skipped; the
//! protocol version is negotiated (`m3go-conform/2`, `/1` kept).

use crate::common::{m3go_ok, output, text, BIN, ROOT};
use m3go::conform::answer::answer_value;
use m3go::conform::capabilities::{Capabilities, Decline, PresetCapabilities, SkippedCheck};
use m3go::conform::case::Case;
use m3go::conform::check::checks_of;
use m3go::conform::failure::ProgramFailure;
use m3go::conform::protocol::{PROTOCOL, PROTOCOL_1};
use m3go::conform::runner::{negotiate, run_case_in, BuiltinOn, NegotiationError, Oracle, Outcome};
use serde_json::{json, Value};

/// The suite's cases that run under m3go-2020 with its own `flower-enclosed` (the reading the
/// toy program lacks), split into those that check the score and something else, and those
/// that check the score alone.
fn score_cases() -> (Vec<Case>, Vec<Case>) {
    let suite = m3go::conform::runner::load_suite(
        &format!("{ROOT}/spec/cases"),
        &format!("{ROOT}/rules.md"),
    )
    .expect("suite");
    let base = json!(m3go_engine::Rules::preset("m3go-2020").expect("preset"));
    let (mut mixed, mut only) = (Vec::new(), Vec::new());
    for (_, c) in suite.cases {
        let Ok(rules) = c.position.rules.resolve() else {
            continue;
        };
        let r = json!(rules);
        if rules.preset != m3go_engine::rules::Preset::M3go2020
            || r["flower-enclosed"] != base["flower-enclosed"]
        {
            continue;
        }
        let checks = checks_of(&c);
        if !checks.contains(&"score") {
            continue;
        }
        if checks.len() == 1 {
            only.push(c);
        } else {
            mixed.push(c);
        }
    }
    (mixed, only)
}

/// The "done when": a program lacking m3go-2020's own scoring reading of flower-enclosed
/// regions answers every other check of those cases; the summary counts the checks skipped, and
/// the cases that check nothing but the score are skipped by capability.
#[test]
fn a_program_lacking_one_scoring_reading_answers_every_other_check() {
    let (mixed, only) = score_cases();
    assert!(
        !mixed.is_empty(),
        "no m3go-2020 case checks the score with something else"
    );
    let toy = format!("'{BIN}' protocol --decline m3go-2020:flower-enclosed=score");
    let out = output(
        &[
            "conform",
            "--impl",
            &toy,
            "--jobs",
            "2",
            "--allow-skips",
            "--verbose",
        ],
        None,
        None,
    );
    let (code, out, err) = text(out);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(!out.contains("FAILED"), "{out}");
    let cases = m3go::conform::suite::case_files(&format!("{ROOT}/spec/cases"))
        .expect("files")
        .len();
    let want = format!(
        "{} passed, 0 failed, 0 errored, {} skipped, {} checks skipped\n",
        cases - only.len(),
        only.len(),
        mixed.len()
    );
    assert!(
        out.ends_with(&want),
        "expected `{want}` at the end of\n{out}"
    );
    assert!(
        out.contains(&format!(
            "checks skipped: {} in {} case(s) that were run",
            mixed.len(),
            mixed.len()
        )),
        "{out}"
    );
    assert!(
        out.contains("score: declined by capability: m3go-2020's own `flower-enclosed: inner`"),
        "{out}"
    );
    for c in &only {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("SKIPPED {} ", c.id))
                    && l.contains("every check of the case (score) is declined")),
            "{} not skipped by capability:\n{out}",
            c.id
        );
    }
    // without --allow-skips the skipped checks are skips
    let (code, _, err) = text(output(
        &["conform", "--impl", &toy, "--id", &mixed[0].id],
        None,
        None,
    ));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("1 check(s) skipped"), "{err}");
}

/// A program that answers well but for a field it was not asked about passes; one that answers
/// a check it was asked wrongly fails: the runner checks exactly the checks it sends.
#[test]
fn the_runner_checks_exactly_the_checks_it_asks_and_the_answer_declines() {
    let (mixed, _) = score_cases();
    let case = &mixed[0];
    let declined = vec![SkippedCheck {
        check: "score".into(),
        reason: "lacked".into(),
    }];
    // capability-declined: the request's `checks` leave out the score, whose answer is wrong
    struct Recorder(Vec<Value>, fn(&mut Value));
    impl Oracle for Recorder {
        fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
            self.0.push(request.clone());
            let mut a = BuiltinOn(m3go_engine::Engine::Fast).ask(request)?;
            (self.1)(&mut a);
            Ok(a)
        }
    }
    fn wrong_score(a: &mut Value) {
        a["analysis"]["score"]["black"] = json!(-12345);
    }
    let mut o = Recorder(Vec::new(), wrong_score);
    let r = run_case_in(case, &mut o, PROTOCOL, &declined);
    assert!(matches!(r.outcome, Outcome::Passed), "{:?}", r.outcome);
    assert_eq!(r.skipped_checks, declined);
    let checks = o.0[0]["checks"].as_array().expect("checks").clone();
    assert!(
        !checks.contains(&json!("score")) && !checks.is_empty(),
        "{checks:?}"
    );
    // asked, the same wrong score fails
    let r = run_case_in(case, &mut o, PROTOCOL, &[]);
    assert!(matches!(r.outcome, Outcome::Failed(_)), "{:?}", r.outcome);
    // declined by the answer (`declined`), the score is skipped with the answer's reason
    fn declines_score(a: &mut Value) {
        a["analysis"]["score"] = Value::Null;
        a["declined"] = json!({"score": "no flower-enclosed reading"});
    }
    let mut o = Recorder(Vec::new(), declines_score);
    let r = run_case_in(case, &mut o, PROTOCOL, &[]);
    assert!(matches!(r.outcome, Outcome::Passed), "{:?}", r.outcome);
    assert_eq!(r.skipped_checks.len(), 1, "{:?}", r.skipped_checks);
    assert!(r.skipped_checks[0]
        .reason
        .contains("no flower-enclosed reading"));
    // in m3go-conform/1 no `checks` are sent
    let mut o = Recorder(Vec::new(), |_| {});
    let r = run_case_in(case, &mut o, PROTOCOL_1, &[]);
    assert!(matches!(r.outcome, Outcome::Passed), "{:?}", r.outcome);
    assert!(o.0[0].get("checks").is_none(), "{}", o.0[0]);
    assert_eq!(o.0[0]["protocol"], PROTOCOL_1);
}

/// m3go's own answer for a declined reading: the field is null and `declined` says why (under
/// `/2` only); the capabilities carry the declaration per preset, and validate.
#[test]
fn m3go_declines_what_its_capabilities_decline() {
    let mut caps = Capabilities::m3go();
    caps.by_preset.insert(
        "m3go-2020".into(),
        PresetCapabilities {
            options: Default::default(),
            declines: vec![Decline {
                option: "flower-enclosed".into(),
                checks: vec!["score".into()],
                reason: Some("no such reading".into()),
            }],
        },
    );
    caps.validate().expect("valid");
    let req = |protocol: &str, rules: Value| {
        json!({"protocol": protocol, "id": "s", "checks": ["score", "private_eyes"],
            "position": {"rules": rules, "diagram": ". . .\n. X .\n. . .\n"}})
    };
    let a = answer_value(
        &req(PROTOCOL, json!("m3go-2020")),
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert!(a["analysis"]["score"].is_null(), "{a}");
    assert!(
        a["declined"]["score"]
            .as_str()
            .is_some_and(|r| r.contains("no such reading")),
        "{a}"
    );
    assert!(a["analysis"]["strings"].is_array(), "{a}");
    crate::schema::assert_valid("answer.schema.json", "declining answer", &a);
    // the reading is declined, not the preset: another value of the option is m3go's own
    let a = answer_value(
        &req(
            PROTOCOL,
            json!({"preset": "m3go-2020", "flower-enclosed": "any"}),
        ),
        &caps,
        m3go_engine::Engine::Fast,
    );
    assert!(
        a["analysis"]["score"].is_object() && a.get("declined").is_none(),
        "{a}"
    );
    let mut one = req(PROTOCOL_1, json!("m3go-2020"));
    one.as_object_mut().expect("object").remove("checks");
    let a = answer_value(&one, &caps, m3go_engine::Engine::Fast);
    assert!(
        a["analysis"]["score"].is_null() && a.get("declined").is_none(),
        "{a}"
    );
    assert_eq!(a["protocol"], PROTOCOL_1, "{a}");
    let line = json!({"protocol": PROTOCOL_1, "id": "c", "action": "capabilities", "protocols": [PROTOCOL]});
    let c = answer_value(&line, &caps, m3go_engine::Engine::Fast);
    assert_eq!(
        c["capabilities"]["by_preset"]["m3go-2020"]["declines"][0]["checks"],
        json!(["score"]),
        "{c}"
    );
    crate::schema::assert_valid("capabilities.schema.json", "capabilities", &c);
    // a check that does not exist is refused, in a request and in capabilities
    let mut bad = req(PROTOCOL, json!("m3go-2020"));
    bad["checks"] = json!(["scores"]);
    assert_eq!(
        answer_value(&bad, &caps, m3go_engine::Engine::Fast)["error"]["code"],
        "bad-request"
    );
    caps.by_preset.get_mut("m3go-2020").expect("entry").declines[0].checks = vec!["scores".into()];
    assert!(caps
        .validate()
        .is_err_and(|e| e.to_string().contains("`scores` is not a check")));
}

/// The runner speaks the newest version the program speaks: `/2` to m3go, `/1` to a program of
/// `/1`, and stops (exit 2) when the program speaks none of its versions.
#[test]
fn the_runner_negotiates_the_version_and_stops_on_none_in_common() {
    struct Speaks(&'static [&'static str]);
    impl Oracle for Speaks {
        fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
            let mut a = BuiltinOn(m3go_engine::Engine::Fast).ask(request)?;
            a["protocols"] = json!(self.0);
            Ok(a)
        }
    }
    assert_eq!(
        negotiate(&mut Speaks(&[PROTOCOL, PROTOCOL_1]))
            .expect("ok")
            .protocol,
        PROTOCOL
    );
    assert_eq!(
        negotiate(&mut Speaks(&[PROTOCOL_1])).expect("ok").protocol,
        PROTOCOL_1
    );
    let e = negotiate(&mut Speaks(&["m3go-conform/7"])).expect_err("none in common");
    assert!(
        matches!(e, NegotiationError::NoCommonVersion { .. }),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("none of the versions this runner speaks"), "{e}");
    // through the binary: a program that answers with a version the runner lacks ends the run
    let script = format!(
        "'{BIN}' protocol | sed -u 's#\"protocols\":\\[\"m3go-conform/2\",\"m3go-conform/1\"\\]#\"protocols\":[\"m3go-conform/7\"]#'"
    );
    let (code, out, err) = text(output(
        &["conform", "--impl", &script, "--id", "m20-eye-fig1"],
        None,
        None,
    ));
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(err.contains("[\"m3go-conform/7\"]"), "{err}");
    // m3go answers a capabilities request whatever the runner's `protocols` say
    let a = m3go_ok(
        &["protocol"],
        Some(&format!(
            "{}\n",
            json!({"protocol": PROTOCOL_1, "id": "c", "action": "capabilities", "protocols": ["m3go-conform/7"]})
        )),
    );
    let a: Value = serde_json::from_str(a.trim()).expect("JSON");
    assert_eq!(a["protocols"], json!([PROTOCOL, PROTOCOL_1]), "{a}");
}

/// Time budgets: a request has `--timeout`, a replay of N moves `--timeout × (1 + N/100)`.
#[test]
fn a_replay_case_gets_a_budget_scaled_by_its_size() {
    use m3go::conform::runner::budget;
    use std::time::Duration;
    let t = Duration::from_secs(60);
    let case = Case::load(
        &format!("{ROOT}/spec/cases/kj-288-mechanical-replay.yaml"),
        None,
    )
    .expect("case");
    let req = case.request();
    let n = req["replay"]["moves"].as_array().expect("replay").len();
    assert!(n >= 288, "{n}");
    assert_eq!(budget(t, &req), t.mul_f64(1.0 + n as f64 / 100.0));
    assert!(budget(t, &req) > Duration::from_secs(200));
    let plain = Case::load(&format!("{ROOT}/spec/cases/m20-eye-fig1.yaml"), None).expect("case");
    assert_eq!(budget(t, &plain.request()), t);
    let readme = std::fs::read_to_string(format!("{ROOT}/spec/README.md")).expect("spec");
    assert!(readme.contains("### Time budgets"), "spec/README.md");
}

/// Issue 36, finding 9: an answer's `declined` that is not an object of checks with their
/// reasons (a string, a reason that is not text, a check that does not exist) is a failure of
/// the program, said with the field's name, not read as declining nothing.
#[test]
fn a_malformed_declined_field_is_an_error_naming_it() {
    let (mixed, _) = score_cases();
    let case = &mixed[0];
    struct Says(Value);
    impl Oracle for Says {
        fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
            let mut a = BuiltinOn(m3go_engine::Engine::Fast).ask(request)?;
            a["declined"] = self.0.clone();
            Ok(a)
        }
    }
    for (declined, said) in [
        (
            json!("score"),
            "the answer's `declined` is not an object: `\"score\"`",
        ),
        (
            json!({"score": 3}),
            "the answer's `declined.score` is `3`, not a string",
        ),
        (
            json!({"scores": "x"}),
            "the answer's `declined` names `scores`, which is not a check",
        ),
    ] {
        let r = run_case_in(case, &mut Says(declined.clone()), PROTOCOL, &[]);
        match &r.outcome {
            Outcome::Errored(e) => assert!(e.contains(said), "{declined}: {e}"),
            other => panic!("{declined}: {other:?}"),
        }
    }
    // through the binary: the case is errored with the message, and the run exits 2
    let script =
        format!("'{BIN}' protocol | sed -u '/\"capabilities\"/!s/^{{/{{\"declined\":\"score\",/'");
    let (code, out, err) = text(output(
        &["conform", "--impl", &script, "--id", &case.id],
        None,
        None,
    ));
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(
        out.contains(&format!("ERRORED {} ", case.id))
            && out.contains("the answer's `declined` is not an object"),
        "{out}"
    );
}

/// Issue 36, finding 6: a program's 1 MiB reason for declining a reading is cut to a fixed
/// length when printed, and printed once for all the checks it declines (it was printed once
/// per declined check: 13.6 MB).
#[test]
fn a_long_decline_reason_is_cut_and_printed_once() {
    use m3go::conform::capabilities::MAX_REASON_CHARS;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("long-reason");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    // m3go's own capabilities, with a reading of m3go-2020 declined for a mebibyte's reason
    let request = m3go::conform::runner::capabilities_request();
    let mut caps: Value =
        serde_json::from_str(m3go_ok(&["protocol"], Some(&format!("{request}\n"))).trim())
            .expect("JSON");
    let reason = format!("lacking{}", "!".repeat(1 << 20));
    let declined = [
        "score",
        "legal",
        "illegal",
        "events",
        "to_move",
        "private_eyes",
    ];
    caps["capabilities"]["by_preset"] = json!({"m3go-2020": {"declines": [
        {"option": "flower-enclosed", "checks": declined, "reason": reason}]}});
    let answer = dir.join("capabilities.json");
    std::fs::write(&answer, format!("{caps}\n")).expect("write");
    // the program: those capabilities, m3go's own answers (every check answered)
    let program = dir.join("program.sh");
    std::fs::write(
        &program,
        format!(
            "IFS= read -r line\ncase \"$line\" in\n*'\"action\":\"capabilities\"'*) cat '{}'; exec '{BIN}' protocol ;;\n*) {{ printf '%s\\n' \"$line\"; cat; }} | exec '{BIN}' protocol ;;\nesac\n",
            answer.display()
        ),
    )
    .expect("write");
    let program = format!("sh '{}'", program.display());
    let (code, out, err) = text(output(
        &[
            "conform",
            "--impl",
            &program,
            "--jobs",
            "2",
            "--allow-skips",
        ],
        None,
        None,
    ));
    assert_eq!(code, Some(0), "{}\n{err}", &out[..out.len().min(4000)]);
    assert!(out.len() < 200_000, "{} bytes of output", out.len());
    assert!(
        out.lines().all(|l| l.len() < 2 * MAX_REASON_CHARS + 400),
        "a line of {} bytes",
        out.lines().map(str::len).max().unwrap_or(0)
    );
    let cut = format!("lacking{}…", "!".repeat(MAX_REASON_CHARS - "lacking".len()));
    let section: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("checks skipped: "))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    let with_reason: Vec<&&str> = section.iter().filter(|l| l.contains(&cut)).collect();
    assert_eq!(with_reason.len(), 1, "{section:?}");
    assert!(
        with_reason[0].contains(" × score, ") || with_reason[0].matches(" × ").count() > 1,
        "{}",
        with_reason[0]
    );
}

/// Issue 36, findings 6 and 9: capabilities whose decline is malformed (a `declined` key where
/// `declines` belongs, next to a mebibyte of text) are refused with a short message naming the
/// field, not one that quotes the whole answer.
#[test]
fn malformed_capabilities_are_refused_in_a_short_message_naming_the_field() {
    struct Declares(Value);
    impl Oracle for Declares {
        fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
            let mut a = self.0.clone();
            a["id"] = request["id"].clone();
            Ok(a)
        }
    }
    let long = "!".repeat(1 << 20);
    let caps = json!({"id": "capabilities", "protocols": [PROTOCOL],
        "capabilities": {"presets": ["m3go-2020"], "by_preset": {"m3go-2020": {
            "declined": [{"option": "flower-enclosed", "checks": ["score"], "reason": long}]}}}});
    let e = negotiate(&mut Declares(caps)).expect_err("malformed");
    assert!(matches!(e, NegotiationError::Unreadable { .. }), "{e:?}");
    let e = e.to_string();
    assert!(
        e.contains("unknown field `declined`"),
        "{}",
        &e[..e.len().min(600)]
    );
    assert!(e.len() < 1000, "{} bytes", e.len());
}
