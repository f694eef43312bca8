//! The analysis JSON (`m3go-analysis/4`) lists each closed region once, as the strings it is made
//! of, and loses nothing: every string's regions, rebuilt from the indices, are the regions the
//! analysis judged, point for point and in order; and the dense 19×19 position of the Ke Jie game
//! at move 288 stays under 150 KB (715 KB in `/3`, which repeated every region under each string).

use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::{Point, Position, Rules};
use std::collections::HashSet;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const KEJIE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/spec/records/kejie-alphago-2017-g1.sgf"
);

/// The positions of benches/data and spec/positions.
fn positions() -> Vec<(String, Position)> {
    let mut out = Vec::new();
    for dir in ["benches/data", "spec/positions"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{ROOT}/{dir}"))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        for f in files {
            let path = f.to_string_lossy().into_owned();
            let pos = m3go::input::load_position(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            out.push((path, pos));
        }
    }
    assert!(out.len() >= 10, "only {} positions", out.len());
    out
}

/// Checks that the report of `pos` lists every region once and that each string's regions,
/// rebuilt from the report, are the analysis's; returns how many regions strings refer to.
fn check_regions(what: &str, pos: &Position) -> usize {
    let report = AnalysisReport::new(pos);
    let a = pos.analysis();
    let b = pos.board();
    let points = |v: &[usize]| -> Vec<Point> { v.iter().map(|&i| b.point(i)).collect() };
    let mut distinct = HashSet::new();
    for k in 0..report.regions.len() {
        let (p, e) = report.region_points(k);
        assert_eq!(p.len(), report.regions[k].size, "{what}: region {k}'s size");
        assert!(
            !e.is_empty() || !p.is_empty(),
            "{what}: region {k} is empty"
        );
        assert!(distinct.insert(p), "{what}: region {k} is listed twice");
    }
    assert_eq!(report.strings.len(), a.lower_strings.groups.len(), "{what}");
    let mut refs = 0;
    for (g, s) in report.strings.iter().enumerate() {
        assert_eq!(
            s.regions.len(),
            a.regions[g].len(),
            "{what}: string {}",
            s.name
        );
        for (r, (region, verdict)) in s.regions.iter().zip(&a.regions[g]) {
            let (p, e) = report.region_points(r.region);
            assert_eq!(
                p,
                points(&region.points),
                "{what}: {}'s region points",
                s.name
            );
            assert_eq!(
                e,
                points(&region.empty),
                "{what}: {}'s region empty",
                s.name
            );
            assert_eq!(r.verdict, verdict.code(), "{what}: {}", s.name);
            refs += 1;
        }
    }
    refs
}

#[test]
fn every_region_is_listed_once_and_rebuilds_to_the_judged_region() {
    let mut refs = 0;
    for (path, pos) in positions() {
        // the 2020 region, the same-colour region and the 2016 region (grey stones inside)
        for preset in [None, Some("m3go-2016"), Some("dullstone")] {
            let pos = match preset {
                None => pos.clone(),
                Some(p) => {
                    let rules = Rules::preset(p).unwrap_or_else(|e| panic!("preset {p}: {e}"));
                    match pos.with_rules(&rules, &path) {
                        Ok(q) => q,
                        Err(_) => continue,
                    }
                }
            };
            refs += check_regions(&format!("{path} under {preset:?}"), &pos);
        }
        let mut rules = pos.rules().clone();
        rules.closed_region = m3go_engine::rules::ClosedRegion::SameColour;
        if let Ok(q) = pos.with_rules(&rules, &path) {
            refs += check_regions(&format!("{path} with same-colour regions"), &q);
        }
    }
    assert!(refs > 100, "only {refs} regions checked");
}

#[test]
fn the_dense_ke_jie_position_at_move_288_is_under_150_kb() {
    let dir = std::env::temp_dir().join(format!("m3go-analysis-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pos = dir.join("kejie-288.yaml");
    let pos = pos.to_str().expect("a UTF-8 path");
    crate::common::m3go_ok(
        &["replay", "--mechanical", KEJIE, "--to", "288", "-o", pos],
        None,
    );
    let json = crate::common::m3go_ok(&["analyze", pos, "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["format"], "m3go-analysis/4");
    let strings = v["strings"].as_array().expect("strings").len();
    assert!(strings > 50, "a dense position: {strings} strings");
    assert!(
        json.len() <= 150_000,
        "the analysis JSON of the Ke Jie game at move 288 is {} bytes",
        json.len()
    );
    check_regions(
        "Ke Jie at move 288",
        &m3go::input::load_position(pos).expect("the position"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The chain position of cov-m16-chain under `rules`.
fn chain_position(rules: &str) -> String {
    format!(
        "rules: {rules}\nsize: 9\nmove: 2\ndiagram: |\n  . X X . . . . . .\n  X . X . . . . . .\n  X X . . . . . . .\n  . X . . . . . . .\n  X O . . . . . . .\n  O O . . . . . . .\n  . . . . . . . O .\n  . . . . . . O X O\n  . . . . . O X . X\n"
    )
}

/// Issue 37 item 8: 000's 2016 concepts are reported under the 2016 eye rule only — the JSON
/// section `m2016`, the text report and `explain` — and the JSON's conditions name regions of
/// the report, one entry per closed region of each string.
#[test]
fn m2016_concepts_are_reported_under_the_2016_eye_rule_only() {
    let json = |rules: &str| -> serde_json::Value {
        let out = crate::common::m3go_ok(
            &["analyze", "-", "--format", "json"],
            Some(&chain_position(rules)),
        );
        serde_json::from_str(&out).expect("JSON")
    };
    for rules in ["m3go-2020", "dullstone", "flystone"] {
        assert!(json(rules).get("m2016").is_none(), "{rules}");
    }
    for rules in ["m3go-2016", "m3go-2013"] {
        let v = json(rules);
        let m = &v["m2016"];
        let chains = m["chains"].as_array().expect("chains");
        assert_eq!(chains.len(), 2, "{rules}: {chains:?}");
        assert_eq!(
            chains[0]["split_off"],
            serde_json::json!(["DO*"]),
            "{rules}"
        );
        assert_eq!(
            m["dead"],
            serde_json::json!(["三C*", "二D*", "四D*"]),
            "{rules}"
        );
        let regions = v["regions"].as_array().expect("regions").len();
        let per_string: usize = v["strings"]
            .as_array()
            .expect("strings")
            .iter()
            .map(|s| s["regions"].as_array().map_or(0, Vec::len))
            .sum();
        let conditions = m["conditions"].as_array().expect("conditions");
        assert_eq!(conditions.len(), per_string, "{rules}");
        assert!(conditions
            .iter()
            .all(|c| c["region"].as_u64().is_some_and(|k| (k as usize) < regions)));
        let false_eyes = m["eyes"]
            .as_array()
            .expect("eyes")
            .iter()
            .filter(|e| e["true_eye"] == false)
            .count();
        assert_eq!(false_eyes, 2, "{rules}: D一 and 三D");
    }
    let text = crate::common::m3go_ok(&["analyze", "-"], Some(&chain_position("m3go-2016")));
    assert!(text.contains("2016 concepts (000):"), "{text}");
    assert!(
        text.contains("common false eye of D三* DO* [D一] (M16-FALSE-EYE)"),
        "{text}"
    );
    assert!(
        text.contains("long-living sub-chain C四* D三*; split off DO*"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("dying by their chain (M16-LIFE-4-SPLIT):") && l.contains("DO*")),
        "{text}"
    );
    let plain = crate::common::m3go_ok(&["analyze", "-"], Some(&chain_position("m3go-2020")));
    assert!(!plain.contains("2016 concepts"), "{plain}");
    let explained =
        crate::common::m3go_ok(&["explain", "-", "DO"], Some(&chain_position("m3go-2016")));
    for want in [
        "common eye (公眼), false (假眼): D一",
        "chain (棋链, M16-CHAIN): C四* D三* DO*",
        "split off and captured (M16-LIFE-4-SPLIT): DO*",
        // one verdict per string: dying by its chain, named apart from the local reading
        "dying by its chain (会被提吃, M16-LIFE-4-SPLIT): yes",
        "dead by the local reading (死棋状态, M16-EX-UL-3): no",
    ] {
        assert!(explained.contains(want), "{want} in\n{explained}");
    }
}
