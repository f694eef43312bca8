//! `--reference`: every command that plays or lists moves gives, on the clause-by-clause
//! reference alone, exactly the output (stdout, byte for byte, and the exit code) it gives on the
//! fast engine — for every bundled position (`spec/positions/*.yaml`), the bundled Ke Jie record
//! (`spec/records/kejie-alphago-2017-g1.sgf`, the ground truth of 003) and the requests of every
//! case of the conformance suite; and `--help` of each documents the flag.

use crate::common::{BIN, ROOT};

fn path(rel: &str) -> String {
    format!("{ROOT}/{rel}")
}

/// Runs m3go with `args` (and `stdin`); returns the exit code and stdout.
fn m3go(args: &[&str], stdin: Option<&str>) -> (Option<i32>, Vec<u8>) {
    let out = crate::common::output(args, None, stdin);
    (out.status.code(), out.stdout)
}

/// Asserts that `m3go ARGS` and `m3go ARGS --reference` exit alike with the same stdout, and
/// that the output is not empty; returns the output.
fn same_on_both_engines(args: &[&str], stdin: Option<&str>) -> String {
    let (fast_code, fast) = m3go(args, stdin);
    let mut with_flag = args.to_vec();
    with_flag.push("--reference");
    let (ref_code, reference) = m3go(&with_flag, stdin);
    assert_eq!(fast_code, ref_code, "exit code of m3go {}", args.join(" "));
    assert!(!fast.is_empty(), "m3go {} printed nothing", args.join(" "));
    if fast != reference {
        let (f, r) = (
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&reference),
        );
        let line = f
            .lines()
            .zip(r.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "m3go {} differs with --reference from line {}:\n  fast:      {:?}\n  reference: {:?}",
            args.join(" "),
            line + 1,
            f.lines().nth(line),
            r.lines().nth(line)
        );
    }
    String::from_utf8_lossy(&fast).into_owned()
}

fn positions() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(path("spec/positions"))
        .unwrap_or_else(|e| panic!("spec/positions: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".yaml"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no bundled position");
    v
}

/// The first legal move of the position and one it lists as not legal (a refused point or an
/// occupied one), in notation, from `analyze --format json`.
fn moves_of(pos: &str) -> (String, String) {
    let (_, out) = m3go(&["analyze", pos, "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_slice(&out).expect("analysis JSON");
    let legal: Vec<&str> = v["legal_moves"]
        .as_array()
        .expect("legal_moves")
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let first = legal.first().expect("a legal move").to_string();
    let prefix = first.split('.').next().unwrap_or_default().to_string();
    let refused = v["strings"]
        .as_array()
        .and_then(|s| s.first())
        .and_then(|s| s["points"][0].as_str())
        .map(|p| format!("{prefix}.{p}"))
        .unwrap_or_else(|| first.clone());
    (first, refused)
}

#[test]
fn analyze_play_explain_and_perft_of_every_bundled_position_are_the_same_on_both_engines() {
    for pos in positions() {
        let pos = pos.as_str();
        let (legal, refused) = moves_of(pos);
        same_on_both_engines(&["analyze", pos], None);
        same_on_both_engines(&["analyze", pos, "--format", "json"], None);
        same_on_both_engines(&["play", pos, &legal, "pass"], None);
        same_on_both_engines(&["play", pos, &legal, "--format", "json"], None);
        // a refused move: the same error and exit code, nothing on stdout but what was played
        let (code, _) = m3go(&["play", pos, &refused], None);
        assert_eq!(code, Some(2), "play {pos} {refused}");
        same_on_both_engines(&["explain", pos, &legal], None);
        same_on_both_engines(&["explain", pos, &refused], None);
        same_on_both_engines(&["perft", pos, "1"], None);
        same_on_both_engines(&["perft", pos, "1", "--divide"], None);
    }
}

#[test]
fn perft_2_of_small_positions_is_the_same_on_both_engines() {
    for pos in [
        "tests/bad_input/ok_3x3.yaml",
        "spec/positions/readings.yaml",
    ] {
        let pos = path(pos);
        same_on_both_engines(&["perft", &pos, "2", "--divide"], None);
        same_on_both_engines(&["perft", &pos, "2"], None);
    }
}

#[test]
fn the_readings_of_the_bundled_readings_position_are_the_same_on_both_engines() {
    let pos = path("spec/positions/readings.yaml");
    same_on_both_engines(&["analyze", &pos, "--readings"], None);
    same_on_both_engines(&["explain", &pos, "花10.CD", "--readings"], None);
    same_on_both_engines(
        &["explain", &pos, "花10.CD", "--readings", "--format", "json"],
        None,
    );
}

#[test]
fn the_ke_jie_record_replays_the_same_on_both_engines() {
    let kj = path("spec/records/kejie-alphago-2017-g1.sgf");
    let log = same_on_both_engines(&["replay", "--mechanical", &kj, "--gloss"], None);
    // 003's ground truth (README, "Mechanical replay"): move 289 is black's flower, refused
    assert!(log.contains("华289.虚着（原谱B六"), "{log}");
    same_on_both_engines(&["replay", "--mechanical", &kj, "--format", "json"], None);
    same_on_both_engines(
        &["replay", "--mechanical", &kj, "--to", "120", "--quiet"],
        None,
    );
    same_on_both_engines(&["replay", &kj, "--quiet"], None);
    same_on_both_engines(&["replay", &kj, &kj, "--mechanical", "--jobs", "2"], None);
    // the summary of --quiet and of many records, counted without the reports, is the log's
    for mode in [&["--mechanical"][..], &[][..]] {
        let mut full = vec!["replay", kj.as_str()];
        full.extend(mode);
        let (_, log) = m3go(&full, None);
        let log = String::from_utf8_lossy(&log).into_owned();
        let last = log.lines().last().expect("a summary line").to_string();
        full.push("--quiet");
        let quiet = same_on_both_engines(&full, None);
        assert_eq!(quiet.trim_end(), last, "replay {mode:?} --quiet");
        let mut many = vec!["replay", kj.as_str(), kj.as_str()];
        many.extend(mode);
        let summary = same_on_both_engines(&many, None);
        assert!(
            summary.contains(&format!("{kj}: {last}")),
            "replay of two records {mode:?}:\n{summary}"
        );
    }
    same_on_both_engines(&["conform", "--filter", "M20-REPLAY"], None);
    same_on_both_engines(&["conform", "--id", "kj-289-306-continuation"], None);
}

#[test]
fn protocol_answers_to_every_case_of_the_suite_are_the_same_on_both_engines() {
    let mut lines = String::new();
    let dir = path("spec/cases");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".yaml"))
        .collect();
    files.sort();
    for f in &files {
        let case = m3go::conform::case::Case::load(f, None).unwrap_or_else(|e| panic!("{e}"));
        lines.push_str(&case.request().to_string());
        lines.push('\n');
    }
    let out = same_on_both_engines(&["protocol"], Some(&lines));
    assert_eq!(out.lines().count(), files.len(), "one answer per case");
}

#[test]
fn diff_against_itself_is_the_same_on_both_engines() {
    let other = format!("{BIN} protocol");
    for rules in ["m3go-2020", "dullstone", "flystone"] {
        same_on_both_engines(
            &[
                "diff",
                "--impl",
                &other,
                "--size",
                "7",
                "--games",
                "2",
                "--max-moves",
                "25",
                "--rules",
                rules,
            ],
            None,
        );
    }
}

#[test]
fn every_command_that_plays_or_lists_moves_documents_reference_in_its_help() {
    for sub in [
        "analyze", "play", "explain", "perft", "diff", "conform", "protocol", "replay",
    ] {
        let (code, out) = m3go(&[sub, "--help"], None);
        assert_eq!(code, Some(0), "{sub} --help");
        let text = String::from_utf8_lossy(&out);
        assert!(
            text.contains("--reference") && text.contains("clause-by-clause reference"),
            "m3go {sub} --help does not document --reference:\n{text}"
        );
    }
}
