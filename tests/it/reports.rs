//! The reports CI systems read (issue 39, item 3): `conform` and `diff` write a JUnit XML
//! report (`--junit FILE`, `-` for standard output) and a JSON summary (`--format json`), and
//! the text report folds the skipped cases into one line per reason unless `--verbose`. The
//! reports are read back (roxmltree, serde_json) and compared with the text report of the same
//! run: the counts, the failed cases with their clauses, the errored ones.

use crate::common::{output, text, BIN, ROOT};
use crate::schema::assert_valid;
use serde_json::Value;
use std::collections::BTreeSet;

/// `m3go protocol` declaring m3go-2020 alone, with every probe's `legal: true` turned false:
/// the cases of m3go-2020 that probe a legal move fail, the others pass, the rest are skipped.
fn wrong_2020() -> String {
    format!(r#"'{BIN}' protocol --presets m3go-2020 | sed -u 's/"legal":true/"legal":false/'"#)
}

fn tmp(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-reports-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d
}

fn run(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = text(output(args, None, None));
    (code.unwrap_or(-1), out, err)
}

/// The counts of the text report's last line `P passed, F failed, E errored, S skipped`.
fn counts(report: &str) -> [usize; 4] {
    let last = report
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no summary line in\n{report}"));
    let n: Vec<usize> = last
        .split(", ")
        .take(4)
        .map(|p| {
            p.split(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{last}"))
        })
        .collect();
    [n[0], n[1], n[2], n[3]]
}

/// The failed cases of a text report: id -> the clauses of its `FAILED` line.
fn failed(report: &str) -> Vec<(String, String)> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("FAILED "))
        .map(|l| {
            let id = l.split(' ').next().unwrap_or("").to_string();
            let clauses = l
                .rsplit_once('[')
                .map(|(_, c)| c.trim_end_matches(']').to_string())
                .unwrap_or_default();
            (id, clauses)
        })
        .collect()
}

fn attr(n: roxmltree::Node, name: &str) -> String {
    n.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", n.tag_name().name()))
        .to_string()
}

fn num(n: roxmltree::Node, name: &str) -> usize {
    attr(n, name)
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The one testsuite of a report, checked against its testcases: `tests`, `failures`,
/// `errors`, `skipped` count them, on the suite and on the root alike.
fn suite<'a>(doc: &'a roxmltree::Document<'a>, name: &str) -> roxmltree::Node<'a, 'a> {
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 1);
    let s = suites[0];
    assert_eq!(attr(s, "name"), name);
    let cases: Vec<_> = s
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let with = |tag: &str| {
        cases
            .iter()
            .filter(|c| c.children().any(|x| x.has_tag_name(tag)))
            .count()
    };
    for n in [root, s] {
        assert_eq!(num(n, "tests"), cases.len());
        assert_eq!(num(n, "failures"), with("failure"));
        assert_eq!(num(n, "errors"), with("error"));
        assert_eq!(num(n, "skipped"), with("skipped"));
    }
    s
}

fn cases<'a>(s: roxmltree::Node<'a, 'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    s.children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect()
}

#[test]
fn conform_junit_holds_every_case_and_the_failures_name_the_case_and_its_clauses() {
    let dir = tmp("junit");
    let xml_file = dir.join("report.xml");
    let xml_path = xml_file.to_string_lossy().into_owned();
    let imp = wrong_2020();
    let (code, out, err) = run(&[
        "conform",
        "--impl",
        &imp,
        "--jobs",
        "2",
        "--allow-skips",
        "--junit",
        &xml_path,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let [passed, nfailed, errored, skipped] = counts(&out);
    let fails = failed(&out);
    assert!(nfailed > 0 && passed > 0 && skipped > 0, "{out}");
    assert_eq!(fails.len(), nfailed);
    // the skipped cases are folded: one line per reason, none per case
    assert!(!out.contains("SKIPPED "), "{out}");
    assert!(out.contains("(--verbose lists each case)"), "{out}");
    assert!(
        out.contains("× outside the declared capabilities: preset `dullstone` is not declared"),
        "{out}"
    );
    // failures come before the summary
    let first_failed = out.find("FAILED ").unwrap_or(usize::MAX);
    let summary = out.find("skipped: ").unwrap_or(0);
    assert!(first_failed < summary, "{out}");

    let xml = std::fs::read_to_string(&xml_file).unwrap_or_else(|e| panic!("{e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let s = suite(&doc, "m3go-conform");
    assert_eq!(num(s, "tests"), passed + nfailed + errored + skipped);
    assert_eq!(num(s, "failures"), nfailed);
    assert_eq!(num(s, "errors"), errored);
    assert_eq!(num(s, "skipped"), skipped);
    let all = cases(s);
    let files = m3go::conform::suite::case_files(&format!("{ROOT}/spec/cases"))
        .expect("case files")
        .len();
    assert_eq!(all.len(), files);
    for (id, clauses) in &fails {
        let c = all
            .iter()
            .find(|c| attr(**c, "name") == *id)
            .unwrap_or_else(|| panic!("no testcase {id}"));
        let first = clauses.split(", ").next().unwrap_or("");
        assert_eq!(attr(*c, "classname"), first, "{id}");
        assert!(attr(*c, "file").ends_with(".yaml"), "{id}");
        let f = c
            .children()
            .find(|x| x.has_tag_name("failure"))
            .unwrap_or_else(|| panic!("{id}: no <failure>"));
        assert!(
            attr(f, "message").contains(clauses.as_str()),
            "{id}: {}",
            attr(f, "message")
        );
        let body = f.text().unwrap_or("");
        assert!(
            body.contains(&format!("clauses: {clauses}")),
            "{id}: {body}"
        );
        assert!(
            body.contains("legal"),
            "{id}: the difference is in the body: {body}"
        );
    }
    // each skipped case has its reason
    for c in &all {
        if let Some(sk) = c.children().find(|x| x.has_tag_name("skipped")) {
            assert!(attr(sk, "message").contains("outside the declared capabilities"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_json_summary_parses_validates_and_its_counts_are_the_text_reports() {
    let imp = wrong_2020();
    let (code, out, err) = run(&["conform", "--impl", &imp, "--allow-skips", "--jobs", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    let [passed, nfailed, errored, skipped] = counts(&out);
    let fails = failed(&out);
    let (code, json, err) = run(&[
        "conform",
        "--impl",
        &imp,
        "--allow-skips",
        "--jobs",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_valid("conform-summary.schema.json", "conform --format json", &v);
    assert_eq!(v["format"], "m3go-conform-summary/1");
    assert_eq!(v["passed"], passed);
    assert_eq!(v["failed"], nfailed);
    assert_eq!(v["errored"], errored);
    assert_eq!(v["skipped"], skipped);
    let by_reason: Vec<&Value> = v["skipped_by_reason"]
        .as_array()
        .expect("array")
        .iter()
        .collect();
    let folded: u64 = by_reason.iter().filter_map(|r| r["cases"].as_u64()).sum();
    assert_eq!(folded as usize, skipped);
    for r in &by_reason {
        assert_eq!(
            r["ids"].as_array().map(Vec::len),
            r["cases"].as_u64().map(|n| n as usize)
        );
        assert_eq!(r["by_capability"], true);
        // the text gives each reason with its count
        let line = format!(
            "    {} × {}",
            r["cases"],
            r["reason"].as_str().unwrap_or("")
        );
        assert!(out.contains(&line), "{line}\n{out}");
    }
    let failures = v["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), nfailed);
    for ((id, clauses), f) in fails.iter().zip(failures) {
        assert_eq!(f["id"].as_str(), Some(id.as_str()));
        let cl: Vec<&str> = f["clauses"]
            .as_array()
            .expect("clauses")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(cl.join(", "), *clauses);
        assert!(!f["differences"].as_array().expect("differences").is_empty());
    }
    // the JSON is all standard output holds
    assert!(!json.contains("passed,"), "{json}");
}

#[test]
fn conform_junit_to_standard_output_is_the_xml_alone_and_the_text_goes_to_standard_error() {
    let (code, out, err) = run(&["conform", "--filter", "M20-EYE", "--junit", "-"]);
    assert_eq!(code, 0, "{out}{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-conform");
    let [passed, nfailed, errored, skipped] = counts(&err);
    assert!(passed > 0, "{err}");
    assert_eq!(num(s, "tests"), passed + nfailed + errored + skipped);
    assert_eq!(num(s, "failures"), 0);
    assert!(cases(s)
        .iter()
        .all(|c| !attr(*c, "name").is_empty() && c.attribute("time").is_some()));
    // with --format json both would be on standard output: refused before anything runs
    let (code, out, err) = run(&[
        "conform", "--filter", "M20-EYE", "--junit", "-", "--format", "json",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("both write to standard output"), "{err}");
    // under --format json the refusal is the JSON error object (docs/src/json.md), alone
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["format"], "m3go-error/1", "{out}");
}

#[test]
fn conform_verbose_lists_each_skipped_case() {
    let toy = format!("'{BIN}' protocol --presets m3go-2020");
    let (code, out, err) = run(&[
        "conform",
        "--impl",
        &toy,
        "--filter",
        "D3-",
        "--allow-skips",
        "--allow-empty",
        "--verbose",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let [_, _, _, skipped] = counts(&out);
    assert!(skipped > 0, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("SKIPPED ")).count(),
        skipped,
        "{out}"
    );
    assert!(!out.contains("--verbose lists"), "{out}");
    let (_, out, _) = run(&[
        "conform",
        "--impl",
        &toy,
        "--filter",
        "D3-",
        "--allow-skips",
    ]);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("SKIPPED ")).count(),
        0,
        "{out}"
    );
    // one line per reason, the counts adding up to the cases skipped
    let folded: usize = out
        .lines()
        .filter_map(|l| l.strip_prefix("    ")?.split_once(" × outside"))
        .map(|(n, _)| n.parse::<usize>().unwrap_or(0))
        .sum();
    assert_eq!(folded, skipped, "{out}");
    assert!(
        out.contains("× outside the declared capabilities: preset `dullstone` is not declared"),
        "{out}"
    );
}

#[test]
fn conform_junit_reports_a_program_that_could_not_answer_as_errors() {
    let dir = tmp("errors");
    let xml_file = dir.join("r.xml");
    let xml_path = xml_file.to_string_lossy().into_owned();
    // the program answers the capabilities request and one case, then exits: the next case
    // errs, and the program started again answers two more
    let imp = format!("sed -u 2q | '{BIN}' protocol");
    let (code, out, err) = run(&[
        "conform",
        "--impl",
        &imp,
        "--filter",
        "M20-EYE-1",
        "--junit",
        &xml_path,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let [_, _, errored, _] = counts(&out);
    assert!(errored > 0, "{out}");
    let xml = std::fs::read_to_string(&xml_file).unwrap_or_else(|e| panic!("{e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let s = suite(&doc, "m3go-conform");
    assert_eq!(num(s, "errors"), errored);
    let errored_ids: BTreeSet<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("ERRORED "))
        .map(|l| l.split(' ').next().unwrap_or("").to_string())
        .collect();
    let in_xml: BTreeSet<String> = cases(s)
        .iter()
        .filter(|c| c.children().any(|x| x.has_tag_name("error")))
        .map(|c| attr(*c, "name"))
        .collect();
    assert_eq!(in_xml, errored_ids);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_merge_writes_the_junit_report_of_the_whole_run() {
    let dir = tmp("merge");
    let shard = |k: &str| {
        dir.join(format!("s{k}.jsonl"))
            .to_string_lossy()
            .into_owned()
    };
    for k in ["1", "2"] {
        let (code, out, err) = run(&[
            "conform",
            "--filter",
            "M20-ATTR",
            "--shard",
            &format!("{k}/2"),
            "--results",
            &shard(k),
        ]);
        assert_eq!(code, 0, "{out}{err}");
    }
    let xml_file = dir.join("all.xml");
    let xml_path = xml_file.to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "conform",
        "--merge",
        &shard("1"),
        &shard("2"),
        "--junit",
        &xml_path,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let [passed, ..] = counts(&out);
    let (_, whole, _) = run(&["conform", "--filter", "M20-ATTR"]);
    assert_eq!(counts(&whole), [passed, 0, 0, 0]);
    let xml = std::fs::read_to_string(&xml_file).unwrap_or_else(|e| panic!("{e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let s = suite(&doc, "m3go-conform");
    assert_eq!(num(s, "tests"), passed);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `m3go protocol` with every neutral flower string answered black (tests/it/diff.rs).
fn flipped_attribute() -> String {
    format!(r#"'{BIN}' protocol | sed -u 's/"attribute":"neutral"/"attribute":"black"/'"#)
}

#[test]
fn diff_junit_has_a_testcase_per_game_and_the_disagreement_with_the_shrunk_case() {
    let dir = tmp("diff");
    let xml_file = dir.join("diff.xml");
    let xml_path = xml_file.to_string_lossy().into_owned();
    let cases_dir = dir.join("cases");
    let cases_path = cases_dir.to_string_lossy().into_owned();
    let imp = flipped_attribute();
    let game_args = [
        "--games",
        "3",
        "--seed",
        "7",
        "--size",
        "7",
        "--max-moves",
        "30",
    ];
    let mut args = vec!["diff", "--impl", &imp];
    args.extend(game_args);
    args.extend(["-o", &cases_path, "--junit", &xml_path]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("diff: disagreement in game 1 at move 9"),
        "{out}"
    );
    let xml = std::fs::read_to_string(&xml_file).unwrap_or_else(|e| panic!("{e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let s = suite(&doc, "m3go-diff");
    let all = cases(s);
    assert_eq!(all.len(), 3);
    let seed1 = m3go::conform::diff::game_seed(7, 1);
    assert_eq!(attr(all[0], "name"), format!("game-1 (seed {seed1})"));
    assert_eq!(attr(all[0], "classname"), "m3go-2020");
    let f = all[0]
        .children()
        .find(|x| x.has_tag_name("failure"))
        .unwrap_or_else(|| panic!("no failure: {xml}"));
    let message = attr(f, "message");
    assert!(
        message.contains("move 9") && message.contains("attributes"),
        "{message}"
    );
    assert!(message.contains("M20-ATTR-1"), "the clause: {message}");
    let body = f.text().unwrap_or("");
    let written = std::fs::read_dir(&cases_dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| e.path().to_string_lossy().into_owned())
        .next()
        .unwrap_or_else(|| panic!("no case written"));
    assert!(body.contains(&format!("written to {written}")), "{body}");
    assert!(body.contains("expect:"), "the shrunk case: {body}");
    // the games after the first that failed are skipped, with why
    for c in &all[1..] {
        let sk = c
            .children()
            .find(|x| x.has_tag_name("skipped"))
            .expect("skipped");
        assert!(attr(sk, "message").contains("stops at game 1"));
    }
    // the JSON summary of the same run
    let mut args = vec!["diff", "--impl", &imp];
    args.extend(game_args);
    args.extend(["--format", "json"]);
    let (code, json, err) = run(&args);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_valid("diff-summary.schema.json", "diff --format json", &v);
    assert_eq!(v["format"], "m3go-diff-summary/1");
    assert_eq!(v["outcome"], "disagree");
    assert_eq!(v["games"], 3);
    let d = &v["disagreement"];
    assert_eq!(d["game"], 1);
    assert_eq!(d["game_seed"], seed1);
    // above 2^53 (JavaScript rounds it): also written exactly as a string
    assert!(seed1 > 1 << 53, "{seed1}");
    assert_eq!(d["game_seed_text"], seed1.to_string());
    assert_eq!(d["move_number"], 9);
    assert_eq!(d["differences"][0]["field"], "attributes");
    assert_eq!(d["case"]["clauses"][0], "M20-ATTR-1");
    assert_eq!(d["case_path"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_reports_of_an_agreeing_run_count_every_game_and_move() {
    let me = format!("'{BIN}' protocol");
    let game_args = [
        "diff",
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
    ];
    let (code, text_out, err) = run(&game_args);
    assert_eq!(code, 0, "{text_out}{err}");
    assert!(
        text_out.contains("2 games, 37 moves compared"),
        "{text_out}"
    );
    let mut args = game_args.to_vec();
    args.extend(["--junit", "-"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("2 games, 37 moves compared"),
        "the text on stderr: {err}"
    );
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-diff");
    assert_eq!(num(s, "tests"), 2);
    assert_eq!(num(s, "failures") + num(s, "errors") + num(s, "skipped"), 0);
    let moves: usize = cases(s)
        .iter()
        .filter_map(|c| c.children().find(|x| x.has_tag_name("system-out")))
        .filter_map(|o| o.text()?.split(' ').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(moves, 37);
    let mut args = game_args.to_vec();
    args.extend(["--format", "json"]);
    let (code, json, _) = run(&args);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_valid("diff-summary.schema.json", "diff --format json", &v);
    assert_eq!(v["outcome"], "agree");
    assert_eq!(v["games_agreed"], 2);
    assert_eq!(v["moves_compared"], 37);
}

#[test]
fn diff_junit_of_a_program_that_cannot_start_is_an_error_before_the_games() {
    let missing = std::env::temp_dir().join("m3go-reports-no-such-program");
    let missing = missing.to_string_lossy().into_owned();
    let (code, out, err) = run(&["diff", "--impl", &missing, "--games", "2", "--junit", "-"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("failed before the first game"), "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-diff");
    let all = cases(s);
    assert_eq!(all.len(), 3, "{out}");
    assert_eq!(attr(all[0], "name"), "capabilities");
    assert!(all[0].children().any(|x| x.has_tag_name("error")), "{out}");
    assert_eq!(num(s, "errors"), 1);
    assert_eq!(num(s, "skipped"), 2);
}

#[test]
fn a_junit_path_that_cannot_be_written_is_refused_before_anything_runs() {
    let dir = tmp("folder");
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = run(&["conform", "--filter", "M20-EYE-1", "--junit", &d]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("a folder"), "{err}");
    assert!(out.is_empty(), "nothing ran: {out}");
    let me = format!("'{BIN}' protocol");
    let (code, out, err) = run(&["diff", "--impl", &me, "--games", "1", "--junit", &d]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "no game was played: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that could not start still writes its JUnit report, the run's error as an `<error>`:
/// a CI job that publishes the report whatever happened finds it and the reason.
#[test]
fn conform_junit_of_a_run_that_could_not_start_holds_its_error() {
    let dir = tmp("no-start");
    let xml_file = dir.join("r.xml");
    let x = xml_file.to_string_lossy().into_owned();
    let (code, out, err) = run(&["conform", "--impl", "false", "--junit", &x]);
    assert_eq!(code, 2, "{out}{err}");
    let xml = std::fs::read_to_string(&xml_file).unwrap_or_else(|e| panic!("no report: {e}"));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let s = suite(&doc, "m3go-conform");
    let all = cases(s);
    assert_eq!(all.len(), 1, "{xml}");
    let error = all[0]
        .children()
        .find(|x| x.has_tag_name("error"))
        .unwrap_or_else(|| panic!("no <error> in {xml}"));
    let first = err.lines().next().unwrap_or_default();
    let said = first.trim_start_matches("error: ");
    assert!(
        !said.is_empty() && attr(error, "message").contains(said),
        "{xml}\n{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Skips fail the run unless --allow-skips: the JUnit report then shows them as failures (a
/// report with none would be green where the run is red); with --allow-skips, as skips.
#[test]
fn conform_junit_shows_skips_that_fail_the_run_as_failures() {
    let toy = format!("'{BIN}' protocol --presets m3go-2020");
    let args = ["conform", "--impl", &toy, "--filter", "D3-", "--junit", "-"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-conform");
    assert!(num(s, "failures") > 0, "{out}");
    assert_eq!(num(s, "skipped"), 0, "{out}");
    assert!(out.contains("skips fail the run"), "{out}");
    let mut allowed = args.to_vec();
    allowed.push("--allow-skips");
    let (code, out, err) = run(&allowed);
    assert_eq!(code, 0, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-conform");
    assert_eq!(num(s, "failures"), 0, "{out}");
    assert!(num(s, "skipped") > 0, "{out}");
}

/// Nothing tested fails the run unless --allow-empty: the JUnit report then holds one failing
/// case saying so, not an empty (green) suite.
#[test]
fn conform_junit_of_a_run_that_tested_nothing_fails() {
    let args = ["conform", "--id", "no-such-case", "--junit", "-"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let s = suite(&doc, "m3go-conform");
    assert_eq!(num(s, "failures"), 1, "{out}");
    assert!(out.contains("nothing was tested"), "{out}");
    let mut allowed = args.to_vec();
    allowed.push("--allow-empty");
    let (code, out, err) = run(&allowed);
    assert_eq!(code, 0, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert_eq!(num(suite(&doc, "m3go-conform"), "tests"), 0, "{out}");
}
