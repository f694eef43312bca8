//! The contract and the output for people, through the built binary: the clause register inside
//! the binary (`m3go clause`).

use crate::common::{m3go_in, m3go_stdin};
use std::process::Command;

/// A fresh empty directory under the target folder.
fn empty_dir(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

#[test]
fn clause_prints_quote_seed_reading_function_and_cases_from_any_directory() {
    let dir = empty_dir("clause");
    let (code, out, err) = m3go_in(Some(&dir), &["clause", "M20-EYE-SIM"]);
    assert_eq!(code, Some(0), "{err}");
    for want in [
        "M20-EYE-SIM (normative, seed 003",
        "quote:    「在此封闭区域内连续补充白色棋子",
        "reading:  The fill adds opponent stones",
        "function: judge::eyes::fill_simulation_makes_eye",
        "cases:    m20-eye-fig6",
    ] {
        assert!(out.contains(want), "no `{want}` in\n{out}");
    }
    let (code, out, err) = m3go_in(Some(&dir), &["clause", "d29", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["id"], "D29");
    assert!(
        v["option"].as_str().unwrap_or("").contains("tigers-mouth"),
        "{v}"
    );
    let (code, _, err) = m3go_in(Some(&dir), &["clause", "M20-EYE-SIMX"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("closest: M20-EYE-SIM"), "{err}");
    let (code, out, _) = m3go_in(Some(&dir), &["clause", "--list"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l.starts_with("M20-EYE-SIM ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("D29 ")), "{out}");
}

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/example-9x9.yaml");

#[test]
fn conform_runs_the_built_in_suite_from_an_empty_directory() {
    let dir = empty_dir("conform");
    let cases = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/cases"))
        .expect("spec/cases")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        })
        .count();
    let (code, out, err) = m3go_in(Some(&dir), &["conform", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), cases, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("kj-288-mechanical-replay ") && l.contains("M20-REPLAY")),
        "{out}"
    );
    // the whole suite, the record-based cases (spec/records inside the binary) included
    let (code, out, err) = m3go_in(Some(&dir), &["conform"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.ends_with(&format!("{cases} passed, 0 failed, 0 errored, 0 skipped\n")),
        "{out}"
    );
    // the coverage of the built-in register by the built-in suite
    let (code, out, err) = m3go_in(Some(&dir), &["conform", "--coverage"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("uncovered: none"), "{out}");
    // a directory that does not exist is still an error, not the built-in suite
    let (code, _, err) = m3go_in(Some(&dir), &["conform", "spec/cases"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("spec/cases: cannot read"), "{err}");
}

#[test]
fn a_dash_reads_the_position_from_standard_input() {
    let text = std::fs::read_to_string(EXAMPLE).expect("example");
    let (code, from_file, err) = m3go_in(None, &["analyze", EXAMPLE, "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, from_stdin, err) = m3go_stdin(&["analyze", "-", "--format", "json"], &text);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(from_file, from_stdin);
    for args in [
        vec!["render", "-"],
        vec!["explain", "-", "一四"],
        vec!["perft", "-", "1"],
        vec!["play", "-", "pass"],
    ] {
        let (code, out, err) = m3go_stdin(&args, &text);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!out.is_empty(), "{args:?}");
    }
    let (code, _, err) = m3go_stdin(&["analyze", "-"], "size: 4\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: -"), "{err}");
}

#[test]
fn no_colour_into_a_pipe_or_with_no_color() {
    let has_escape = |s: &str| s.contains('\x1b');
    // stdout is a pipe here: no escapes, whatever the environment says but CLICOLOR_FORCE
    for (env, value) in [("NO_COLOR", "1"), ("M3GO_UNUSED", "1")] {
        let out = Command::new(env!("CARGO_BIN_EXE_m3go"))
            .args(["render", EXAMPLE])
            .env_remove("CLICOLOR_FORCE")
            .env(env, value)
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        assert!(!has_escape(&text), "{env}: {text:?}");
        assert!(text.contains('●') && text.contains('◉'), "{text}");
        let out = Command::new(env!("CARGO_BIN_EXE_m3go"))
            .args(["analyze", EXAMPLE, "--board"])
            .env_remove("CLICOLOR_FORCE")
            .env(env, value)
            .output()
            .expect("run");
        assert!(!has_escape(&String::from_utf8_lossy(&out.stdout)), "{env}");
    }
    // forced colour (as on a terminal) keeps them, unless NO_COLOR
    let forced = |no_color: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_m3go"));
        c.args(["render", EXAMPLE]).env("CLICOLOR_FORCE", "1");
        if no_color {
            c.env("NO_COLOR", "1");
        } else {
            c.env_remove("NO_COLOR");
        }
        String::from_utf8_lossy(&c.output().expect("run").stdout).into_owned()
    };
    assert!(has_escape(&forced(false)));
    assert!(!has_escape(&forced(true)));
}

#[test]
fn text_reports_are_labelled_in_either_system_and_hide_other_regions() {
    let (code, out, err) = m3go_in(None, &["analyze", EXAMPLE]);
    assert_eq!(code, Some(0), "{err}");
    // the board framed by its labels: 9 columns D … 四 above and below, rows 四 … D on both sides
    assert!(out.contains("   D C B A O 一二三四  "), "{out}");
    assert!(out.contains("四 . X # . . . # O . 四"), "{out}");
    assert!(
        out.contains("region of 1 point(s) [D四]: private eye"),
        "{out}"
    );
    assert!(!out.contains("not a private eye"), "{out}");
    assert!(out.contains("closed region(s) that are not private eyes: shown with --verbose"));
    let (_, verbose, _) = m3go_in(None, &["analyze", EXAMPLE, "--verbose"]);
    assert!(verbose.contains("not a private eye"), "{verbose}");
    let (code, latin, err) = m3go_in(None, &["analyze", EXAMPLE, "--labels", "latin"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(latin.contains("   d c b a 0 1 2 3 4   "), "{latin}");
    assert!(
        latin.contains("region of 1 point(s) [d4]: private eye"),
        "{latin}"
    );
    assert!(latin.contains("black c4* — 3 stone(s)"), "{latin}");
    assert!(!latin.contains('四'), "{latin}");
    let (code, play, err) = m3go_in(None, &["play", EXAMPLE, "pass", "--labels", "latin"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(play.contains("black c4* — 3 stone(s)"), "{play}");
}

#[test]
fn render_labels_the_edges_in_either_system() {
    let dir = empty_dir("render-labels");
    let out = dir.join("latin.svg");
    let out = out.to_string_lossy();
    let (code, text, err) = m3go_in(
        None,
        &[
            "render", EXAMPLE, "--svg", &out, "--ansi", "--labels", "latin",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("   d c b a 0 1 2 3 4 "), "{text}");
    let svg = std::fs::read_to_string(&*out).expect("svg");
    let labels: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains(r#"class="label""#))
        .filter_map(|l| l.split('>').nth(1)?.split('<').next())
        .collect();
    assert_eq!(labels.len(), 4 * 9, "{labels:?}");
    assert!(labels.iter().all(|l| l.is_ascii()), "{labels:?}");
    let (_, chinese, _) = m3go_in(None, &["render", EXAMPLE]);
    assert!(chinese.contains("一二三四"), "{chinese}");
}
