//! The conformance suite under `cargo test`: every case of spec/cases is one test named by its
//! id; the clause coverage of rules.md; the protocol, driven through the real binary, both
//! against m3go itself and against a deliberately wrong implementation.

use libtest_mimic::{Arguments, Failed, Trial};
use m3go::conform::case::Case;
use m3go::conform::clause_id::clause_ids;
use m3go::conform::runner::{run_case, Builtin, External, Outcome};
use m3go::conform::suite::case_files;
use std::collections::BTreeSet;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/cases");
const RULES_MD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules.md");

fn known_clauses() -> Option<BTreeSet<String>> {
    std::fs::read_to_string(RULES_MD)
        .ok()
        .map(|t| clause_ids(&t).into_iter().collect())
}

fn load_all() -> Vec<(String, Result<Case, String>)> {
    let known = known_clauses();
    case_files(CASES)
        .unwrap_or_default()
        .into_iter()
        .map(|f| {
            let c = Case::load(&f, known.as_ref()).map_err(|e| e.to_string());
            (f, c)
        })
        .collect()
}

fn outcome_to_result(o: Outcome) -> Result<(), Failed> {
    match o {
        Outcome::Passed => Ok(()),
        Outcome::Skipped(w) => Err(format!("skipped by the built-in implementation: {w}").into()),
        Outcome::Errored(e) => Err(format!("errored: {e}").into()),
        Outcome::Failed(d) => Err(d.join("\n").into()),
    }
}

fn m3go() -> &'static str {
    env!("CARGO_BIN_EXE_m3go")
}

/// Runs every case against an external command; returns (passed, failed+errored) and the ids
/// that did not pass.
fn run_external(cmd: &str, cases: &[Case]) -> Result<(usize, Vec<String>), String> {
    let mut ext = External::spawn(cmd)?;
    let mut passed = 0;
    let mut bad = Vec::new();
    for c in cases {
        match run_case(c, &mut ext) {
            Outcome::Passed => passed += 1,
            _ => bad.push(c.id.clone()),
        }
    }
    Ok((passed, bad))
}

fn main() {
    let args = Arguments::from_args();
    let all = load_all();
    let mut trials = Vec::new();
    let mut good: Vec<Case> = Vec::new();
    for (file, case) in all {
        match case {
            Ok(c) => {
                good.push(c.clone());
                let name = format!("case::{}", c.id);
                trials.push(Trial::test(name, move || {
                    outcome_to_result(run_case(&c, &mut Builtin))
                }));
            }
            Err(e) => {
                let name = format!("case-file::{}", file.rsplit('/').next().unwrap_or(&file));
                trials.push(Trial::test(name, move || Err(e.into())));
            }
        }
    }
    let count = good.len();
    trials.push(Trial::test("suite::at_least_60_cases", move || {
        if count >= 60 {
            Ok(())
        } else {
            Err(format!("only {count} conformance cases; the suite needs at least 60").into())
        }
    }));
    let covered: BTreeSet<String> = good
        .iter()
        .flat_map(|c| c.clauses.iter().cloned())
        .collect();
    trials.push(Trial::test(
        "coverage::every_clause_of_rules_md_has_a_case",
        move || {
            let text = std::fs::read_to_string(RULES_MD).map_err(|e| format!("rules.md: {e}"))?;
            let ids = clause_ids(&text);
            if ids.is_empty() {
                return Err("rules.md lists no clause ids".into());
            }
            let uncovered: Vec<&String> = ids.iter().filter(|i| !covered.contains(*i)).collect();
            if uncovered.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{} of {} clauses have no conformance case: {}",
                    uncovered.len(),
                    ids.len(),
                    uncovered
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
                .into())
            }
        },
    ));
    let kj: Vec<Case> = good
        .iter()
        .filter(|c| c.start.is_some() && c.id.starts_with("kj-"))
        .cloned()
        .collect();
    trials.push(Trial::test(
        "real_game::the_ke_jie_replay_rejects_tigers_mouth_upper_layer",
        move || {
            // Register D29: under `tigers-mouth: upper-layer` five flower moves of the record
            // become passes and 003's statements about moves 288-306 fail; the default holds.
            if kj.len() < 2 {
                return Err(format!("expected the two kj-* cases, found {}", kj.len()).into());
            }
            for c in &kj {
                if !matches!(run_case(c, &mut Builtin), Outcome::Passed) {
                    return Err(format!("{} does not pass under its own rules", c.id).into());
                }
                let mut other = c.clone();
                other.position.rules =
                    serde_yaml::from_str("{ preset: m3go-2020, tigers-mouth: upper-layer }")
                        .map_err(|e| e.to_string())?;
                if !matches!(run_case(&other, &mut Builtin), Outcome::Failed(_)) {
                    return Err(
                        format!("{} still passes under tigers-mouth: upper-layer", c.id).into(),
                    );
                }
            }
            Ok(())
        },
    ));
    trials.push(Trial::test(
        "case_format::position_and_start_are_exclusive",
        || {
            let dir = std::env::temp_dir().join(format!("m3go-case-start-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let record = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/records/kejie-alphago-2017-g1.sgf");
            let head = "clauses: [M20-REPLAY]\nsource: { seed: x, quote: y }\nexpect: { to_move: { move: 2 } }\n";
            let files = [
                ("both", format!("id: both\n{head}position: {{ size: 3, diagram: \". . .\\n. . .\\n. . .\" }}\nstart: {{ record: '{record}', replay: mechanical, to: 1 }}\n"), "both `position` and `start`"),
                ("neither", format!("id: neither\n{head}"), "missing `position`"),
                ("past", format!("id: past\n{head}start: {{ record: '{record}', replay: mechanical, to: 9999 }}\n"), "past the record's last move 289"),
            ];
            for (id, text, want) in files {
                let path = dir.join(format!("{id}.yaml"));
                std::fs::write(&path, text).map_err(|e| e.to_string())?;
                match Case::load(&path.to_string_lossy(), None) {
                    Ok(_) => return Err(format!("{id}: accepted").into()),
                    Err(e) if e.to_string().contains(want) => {}
                    Err(e) => return Err(format!("{id}: message `{}` lacks `{want}`", e).into()),
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
            Ok(())
        },
    ));
    let self_cases = good.clone();
    trials.push(Trial::test(
        "protocol::m3go_against_itself_passes_every_case",
        move || {
            let cmd = format!("'{}' protocol", m3go());
            let (passed, bad) = run_external(&cmd, &self_cases)?;
            if bad.is_empty() && passed == self_cases.len() {
                Ok(())
            } else {
                Err(format!(
                    "through the protocol, these cases did not pass: {}",
                    bad.join(", ")
                )
                .into())
            }
        },
    ));
    let wrong_cases = good.clone();
    trials.push(Trial::test(
        "protocol::a_wrong_implementation_is_caught",
        move || {
            // Answers every attribute as neutral and every forbidden reason as a capture point.
            let cmd = format!(
            "'{}' protocol | sed -u -e 's/\"attribute\":\"[a-z]*\"/\"attribute\":\"neutral\"/g' \
             -e 's/\"reason\":\"[a-z-]*\"/\"reason\":\"capture-point\"/g'",
            m3go()
        );
            let relevant: Vec<Case> = wrong_cases
                .iter()
                .filter(|c| {
                    c.expect
                        .attributes
                        .as_ref()
                        .is_some_and(|a| a.values().any(|x| x.attribute != "neutral"))
                        || c.expect
                            .forbidden
                            .as_ref()
                            .is_some_and(|f| f.values().any(|x| x.reason != "capture-point"))
                })
                .cloned()
                .collect();
            if relevant.is_empty() {
                return Err(
                    "no case expects a non-neutral attribute or a non-capture forbidden point"
                        .into(),
                );
            }
            let (passed, bad) = run_external(&cmd, &relevant)?;
            if passed == 0 && bad.len() == relevant.len() {
                Ok(())
            } else {
                Err(format!(
                    "the wrong implementation passed {passed} of {} cases it should fail",
                    relevant.len()
                )
                .into())
            }
        },
    ));
    libtest_mimic::run(&args, trials).exit();
}
