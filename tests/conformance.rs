//! The conformance suite under `cargo test`: every case of spec/cases is one test named by its
//! id; the clause coverage of rules.md; the protocol, driven through the real binary, both
//! against m3go itself and against a deliberately wrong implementation; and the mutation test
//! of the suite: every rule option value other than a preset's own must fail a case of that
//! preset, but for the readings listed as not yet caught.

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
    let mut ext = External::spawn(cmd).map_err(|e| e.to_string())?;
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
    let mutated = good.clone();
    trials.push(Trial::test(
        "mutation::every_other_option_value_fails_a_case",
        move || mutation_survivors(&mutated),
    ));
    let d31: Vec<Case> = good
        .iter()
        .filter(|c| c.expect.m2016.is_some())
        .cloned()
        .collect();
    trials.push(Trial::test(
        "mutation::every_d31_reading_switched_fails_a_case",
        move || d31_survivors(&d31),
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
                    c.expect.attributes.as_ref().is_some_and(|a| {
                        a.values()
                            .any(|x| x.attribute != m3go_engine::Attribute::Neutral)
                    }) || c.expect.forbidden.as_ref().is_some_and(|f| {
                        f.values()
                            .any(|x| x.reason != m3go_engine::Refusal::CapturePoint)
                    })
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

/// The values a mutation of option `name` tries besides the preset's own: every value of a
/// listed option, one other value of a numeric one.
fn option_values(name: &str, values: &str, current: &serde_yaml::Value) -> Vec<serde_yaml::Value> {
    use serde_yaml::Value;
    let listed: Vec<Value> = values
        .split('|')
        .map(|v| v.trim().split(" (").next().unwrap_or("").trim())
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .filter(|v| *v != "integer")
        .map(|v| serde_yaml::from_str(v).unwrap_or(Value::String(v.to_string())))
        .collect();
    let numeric = match name {
        "komi" => vec![Value::from(current.as_f64().unwrap_or(0.0) + 0.25)],
        "flystones" | "flystone-seed" | "team-grey-start" | "flystone-window" => {
            vec![Value::from(current.as_u64().unwrap_or(1) + 1)]
        }
        _ => Vec::new(),
    };
    listed
        .into_iter()
        .chain(numeric)
        .filter(|v| v != current)
        .collect()
}

/// Whether a value written in a case's rules is the preset's own: the same YAML value, numbers
/// compared by value (`7.5` and `7.50`); another spelling of the same reading (`tigers-mouth:
/// true` for `stones`) counts as another value, so such a case is left alone.
fn same_value(written: &serde_yaml::Value, own: &serde_yaml::Value) -> bool {
    written == own
        || written
            .as_f64()
            .zip(own.as_f64())
            .is_some_and(|(a, b)| a == b)
}

/// Whether rules.md's options table says option `name` applies under `preset`: not "—" (the
/// option has no effect under the preset's schedule) and not "(unused)"; a mutation of an option
/// that does not apply changes nothing, so no case can catch it.
fn applies(md: &str, name: &str, preset: &str) -> bool {
    let table = md.split("\n## Options").nth(1).unwrap_or_default();
    let mut rows = table.lines().filter(|l| l.starts_with('|'));
    let header: Vec<&str> = rows
        .next()
        .map(|h| h.split('|').map(str::trim).collect())
        .unwrap_or_default();
    let Some(col) = header.iter().position(|h| *h == preset) else {
        return true;
    };
    rows.find(|r| r.split('|').nth(1).map(str::trim) == Some(name))
        .and_then(|r| r.split('|').nth(col).map(str::trim))
        .is_none_or(|cell| !cell.starts_with('—') && !cell.contains("(unused)"))
}

/// Mutations that change no verdict: no case can catch them. The 2016 and 2020 conversion rules
/// agree on every count (register D17, `judge::attribute::attribute_2016`'s doc: with equal
/// private-eye counts, comparing all adjacent strings is comparing those without), so swapping
/// one for the other under the same private-eye definition is the same rule.
///
/// A komi of 7.75 instead of 7.5 decides every game alike: a margin is always a whole number of
/// points (stones and territory count a point each, a point shared in seki half a point to each
/// side, a neutral point nothing), so no margin lies between 7.5 and 7.75.
///
/// Under Dullstone and Flystone every flower is neutral (`attribute: always-neutral`, D17): a
/// flower changes no attribute, so its capture check after the cascade is the point test (D9:
/// "004's flowers are always neutral, so there reading 2 equals the point test"), and no
/// opponent-attributed flower touches an eye, so `long-life-eyes: lower` counts the same eyes as
/// `holographic` (D14).
///
/// Under Dullstone and Flystone the cascade's held round and its recomputed rounds see the same
/// upper layer: `Analysis::with_held_attributes` holds the attributes from before the move, all
/// neutral under `attribute: always-neutral`, and `Analysis::new` recomputes them neutral again
/// (the fast engine's `run_held` and `refresh` likewise), so `game::cascade::cascade` captures
/// and judges suicide alike whether the first round is held or recomputed: `capture-timing:
/// recompute-first` (D8: reading 2 differs from reading 1 only in attributes recomputed before
/// the first capture) and `suicide-timing: first-round` (D10: "Under `capture-timing:
/// recompute-first` the two coincide (nothing is held)") change nothing.
///
/// Under m3go-2016, `long-life-eyes: lower` counts the same eyes as `holographic`: a grey
/// stone touching a 2016 private eye R of a string lies inside R (only the string and the edge
/// close R, M16-EYE), and it has the opponent's attribute only if it touches an opponent string
/// with a private eye (000 rules 2 and 3; 3c needs an eye on both sides), which then lies
/// inside R too, so R is no private eye (M16-EYE-C, "私眼内的异色棋串（非灰棋串）不能嵌套私眼"): no
/// counted eye is ever touched by an opponent grey (`judge::scoring::eye_holds_on_holographic_board`
/// always holds). Under m3go-2013 the count of stones can make such a grey white (case
/// m13-life-3-eye-open-to-white-grey).
///
/// `grey-freeze` is read by the 2013 attribute rule alone (`judge::freeze::freezes`, D21): under
/// the presets whose attribute rule is another (m2020, m2016, always-neutral) no grey string is
/// ever frozen, whatever its value, so `recomputed` decides every position as `kept` does.
const EQUIVALENT: &[&str] = &[
    "m3go-2020: attribute: m2016",
    "m3go-2016: attribute: m2020",
    "m3go-2020: grey-freeze: recomputed",
    "m3go-2016: grey-freeze: recomputed",
    "dullstone: grey-freeze: recomputed",
    "flystone: grey-freeze: recomputed",
    "dullstone: komi: 7.75",
    "flystone: komi: 7.75",
    "dullstone: flower-capture-check: static",
    "flystone: flower-capture-check: static",
    "dullstone: long-life-eyes: lower",
    "flystone: long-life-eyes: lower",
    "dullstone: capture-timing: recompute-first",
    "dullstone: suicide-timing: first-round",
    "flystone: capture-timing: recompute-first",
    "flystone: suicide-timing: first-round",
    "m3go-2016: long-life-eyes: lower",
];

/// The readings the suite does not yet tell apart (issue 37, item 7), by preset, option and
/// value: each needs a case. The mutation test fails when one of them is caught (remove it
/// here) or when another reading survives (add its case).
const NOT_YET_CAUGHT: &[&str] = &[];

/// Issue 37, item 7: the suite catches every wrong reading. For every preset, rule option and
/// value other than the preset's own, the cases of that preset run with that one value changed:
/// at least one must fail. The survivors (a reading no case tells apart) are listed.
fn mutation_survivors(cases: &[Case]) -> Result<(), Failed> {
    use m3go_engine::rules::RulesField;
    use m3go_engine::Rules;
    use serde_yaml::Value;
    let md = std::fs::read_to_string(RULES_MD).map_err(|e| e.to_string())?;
    let mut survivors = Vec::new();
    let mut tried = 0;
    for preset in [
        "m3go-2020",
        "m3go-2016",
        "m3go-2013",
        "dullstone",
        "flystone",
    ] {
        let Ok(rules) = m3go_engine::Rules::preset(preset) else {
            return Err(format!("no preset {preset}").into());
        };
        let own = serde_yaml::to_value(&rules).map_err(|e| e.to_string())?;
        let of_preset: Vec<&Case> = cases
            .iter()
            .filter(|c| match &c.position.rules {
                RulesField::Name(n) => n == preset,
                RulesField::Spec(s) => s.preset.as_deref().unwrap_or("m3go-2020") == preset,
            })
            .collect();
        for (name, values, _) in Rules::OPTIONS {
            if !applies(&md, name, preset) {
                continue;
            }
            let current = own.get(*name).cloned().unwrap_or(Value::Null);
            for value in option_values(name, values, &current) {
                tried += 1;
                let caught = of_preset.iter().any(|c| {
                    let mut spec = match serde_yaml::to_value(&c.position.rules) {
                        Ok(Value::String(p)) => {
                            let mut m = serde_yaml::Mapping::new();
                            m.insert("preset".into(), Value::String(p));
                            m
                        }
                        Ok(Value::Mapping(m)) => m,
                        _ => return false,
                    };
                    // a case that writes out the preset's own value checks the default
                    // reading: it is mutated too; one that chose another value is left alone
                    if spec.get(*name).is_some_and(|v| !same_value(v, &current)) {
                        return false;
                    }
                    spec.insert(Value::from(*name), value.clone());
                    let Ok(field) = serde_yaml::from_value::<RulesField>(Value::Mapping(spec))
                    else {
                        return false;
                    };
                    if field.resolve().is_err() {
                        return false;
                    }
                    let mut other = (*c).clone();
                    other.position.rules = field;
                    !matches!(run_case(&other, &mut Builtin), Outcome::Passed)
                });
                if !caught {
                    survivors.push(format!(
                        "{preset}: {name}: {}",
                        serde_yaml::to_string(&value).unwrap_or_default().trim()
                    ));
                }
            }
        }
    }
    eprintln!(
        "mutation: {tried} mutations tried, {} survived",
        survivors.len()
    );
    let new: Vec<&String> = survivors
        .iter()
        .filter(|s| !NOT_YET_CAUGHT.contains(&s.as_str()) && !EQUIVALENT.contains(&s.as_str()))
        .collect();
    let caught: Vec<&&str> = NOT_YET_CAUGHT
        .iter()
        .chain(EQUIVALENT)
        .filter(|k| !survivors.iter().any(|s| s == *k))
        .collect();
    if new.is_empty() && caught.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "readings no case tells apart (add a case that does):\n{}\nnow caught (remove from NOT_YET_CAUGHT, or from EQUIVALENT, which they are not): {caught:?}",
            new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        )
        .into())
    }
}

/// Register D31's readings of the 2016 report, each switched to its alternative on m3go's own
/// answer (`analysis.m2016`): 1 true common eyes read false and false ones true; 2 the
/// conditions a–d stopping at the first that fails (the verdict's order) instead of each judged
/// on its own; 3 a chain with a string split off dying whole (no sub-chain); 4 the groups as
/// lone strings (the chains only, no shared liberty or grey); 5 no seki; 6 no dead string;
/// item 6's dying verdict: `dead` derived from the chain too (the strings split off dead).
const D31_READINGS: &[&str] = &[
    "1 common-eye truth",
    "2 conditions each on its own",
    "3 sub-chain",
    "4 groups",
    "5 seki",
    "6 dead by the local reading",
    "6 dying apart from dead",
];

/// `answer` with D31 reading `k` of [`D31_READINGS`] switched.
fn switch_d31(k: usize, m: &mut serde_json::Value) {
    use serde_json::Value;
    let each = |m: &mut Value, key: &str, f: &mut dyn FnMut(&mut Value)| {
        if let Some(v) = m.get_mut(key).and_then(Value::as_array_mut) {
            v.iter_mut().for_each(&mut *f);
        }
    };
    match k {
        0 => each(m, "eyes", &mut |e| {
            if e["kind"] == "common" {
                let t = e["true_eye"].as_bool().unwrap_or(true);
                e["true_eye"] = Value::Bool(!t);
            }
        }),
        1 => each(m, "conditions", &mut |c| {
            let mut failed = false;
            for key in ["a", "b", "capture", "c", "d"] {
                if failed && c[key].is_boolean() {
                    c[key] = Value::Bool(false);
                }
                failed |= c[key] == Value::Bool(false);
            }
        }),
        2 => each(m, "chains", &mut |ch| {
            if ch["split_off"].as_array().is_some_and(|v| !v.is_empty()) {
                ch["split_off"] = ch["strings"].clone();
                ch["sub_chain"] = Value::Array(Vec::new());
            }
        }),
        3 => {
            let lone: Vec<Value> = m["strings"]
                .as_array()
                .map(|v| {
                    v.iter()
                        .map(|s| Value::Array(vec![s["name"].clone()]))
                        .collect()
                })
                .unwrap_or_default();
            m["groups"] = Value::Array(lone);
        }
        4 => {
            m["seki"] = Value::Array(Vec::new());
            each(m, "strings", &mut |s| s["seki"] = Value::Bool(false));
        }
        5 => {
            m["dead"] = Value::Array(Vec::new());
            each(m, "strings", &mut |s| s["dead"] = Value::Bool(false));
        }
        _ => {
            let split: Vec<Value> = m["chains"]
                .as_array()
                .map(|v| {
                    v.iter()
                        .flat_map(|c| c["split_off"].as_array().cloned().unwrap_or_default())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(d) = m.get_mut("dead").and_then(Value::as_array_mut) {
                for s in split {
                    if !d.contains(&s) {
                        d.push(s);
                    }
                }
            }
        }
    }
}

/// m3go with one D31 reading switched in its answers.
struct D31Switched(usize);

impl m3go::conform::runner::Oracle for D31Switched {
    fn ask(
        &mut self,
        request: &serde_json::Value,
    ) -> Result<serde_json::Value, m3go::conform::failure::ProgramFailure> {
        let mut ans = Builtin.ask(request)?;
        if let Some(m) = ans.pointer_mut("/analysis/m2016") {
            switch_d31(self.0, m);
        }
        Ok(ans)
    }
}

/// Issue 52: every reading of register D31 switched fails at least one case of the 2016
/// report.
fn d31_survivors(cases: &[Case]) -> Result<(), Failed> {
    let survivors: Vec<&str> = D31_READINGS
        .iter()
        .enumerate()
        .filter(|(k, _)| {
            !cases
                .iter()
                .any(|c| !matches!(run_case(c, &mut D31Switched(*k)), Outcome::Passed))
        })
        .map(|(_, r)| *r)
        .collect();
    if survivors.is_empty() {
        Ok(())
    } else {
        Err(
            format!("D31 readings no case tells apart (add a case that does): {survivors:?}")
                .into(),
        )
    }
}
