//! What a conformance run (or the merge of its shards) reports: the counts ([`Summary`]), the
//! text report, the JSON summary (`m3go-conform-summary/1`), the JUnit report and the exit
//! status with its message.

use super::results::{CaseOutcome, ResultRecord};
use crate::conform::junit::{TestCase, TestSuite, Verdict};
use std::collections::BTreeMap;

/// The counts of a run (or of merged shards), printed as its last lines.
#[derive(Default)]
pub(crate) struct Summary {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    pub(crate) errored: usize,
    pub(crate) skipped: usize,
    /// (by capability, reason) -> the ids of the cases skipped so, in the order of the run.
    pub(crate) skip_reasons: BTreeMap<(bool, String), Vec<String>>,
    /// Checks left out of cases that were run, and in how many cases.
    pub(crate) checks_skipped: usize,
    pub(crate) cases_with_skipped_checks: usize,
    /// reason -> check -> how many times (each reason printed once, with its checks).
    pub(crate) check_reasons: BTreeMap<String, BTreeMap<String, usize>>,
}

/// The counts of the records; `load_errors` (case files that did not read) count as errored.
pub(crate) fn summarize(records: &[ResultRecord], load_errors: usize) -> Summary {
    let mut s = Summary {
        errored: load_errors,
        ..Summary::default()
    };
    for r in records {
        match r.outcome {
            CaseOutcome::Passed => s.passed += 1,
            CaseOutcome::Skipped => {
                s.skipped += 1;
                s.skip_reasons
                    .entry((r.by_capability, r.details.join("; ")))
                    .or_default()
                    .push(r.id.clone());
            }
            CaseOutcome::Errored => s.errored += 1,
            CaseOutcome::Failed => s.failed += 1,
        }
        if r.outcome != CaseOutcome::Skipped && !r.skipped_checks.is_empty() {
            s.cases_with_skipped_checks += 1;
            s.checks_skipped += r.skipped_checks.len();
            for (c, why) in &r.skipped_checks {
                *s.check_reasons
                    .entry(why.clone())
                    .or_default()
                    .entry(c.clone())
                    .or_default() += 1;
            }
        }
    }
    s
}

/// The text report: the case files that did not read, each failed or errored case with its
/// differences (and, with `verbose`, each skipped case with its reason), then the summary: the
/// skipped cases one line per reason, the skipped checks, the counts.
pub(crate) fn text_report(
    records: &[ResultRecord],
    load_errors: &[(String, String)],
    s: &Summary,
    verbose: bool,
) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    for (f, e) in load_errors {
        let _ = writeln!(o, "ERRORED {f}\n    {e}");
    }
    let refused = refused_every_request(records);
    if let Some((n, first)) = &refused {
        let _ = writeln!(
            o,
            "REFUSED every request: the program answered each of the {n} cases it was sent with \
             an error, the first {first}; it may not read the version of the contract m3go \
             sends (spec/README.md \"Compatibility\"){}",
            if verbose {
                ""
            } else {
                " (--verbose lists each case)"
            }
        );
    }
    for r in records.iter().filter(|_| refused.is_none() || verbose) {
        let (f, id) = (&r.file, &r.id);
        match r.outcome {
            CaseOutcome::Passed => {}
            CaseOutcome::Skipped => {
                if verbose {
                    let _ = writeln!(o, "SKIPPED {id} ({f}): {}", r.details.join("; "));
                }
            }
            CaseOutcome::Errored => {
                let _ = writeln!(
                    o,
                    "ERRORED {id} ({f}) [{}]\n    {}",
                    r.clauses.join(", "),
                    r.details.join("; ")
                );
            }
            CaseOutcome::Failed => {
                let _ = writeln!(o, "FAILED {id} ({f}) [{}]", r.clauses.join(", "));
                for x in &r.details {
                    let _ = writeln!(o, "    - {}", x.replace('\n', "\n      "));
                }
            }
        }
    }
    if s.skipped > 0 {
        let by_cap: usize = s
            .skip_reasons
            .iter()
            .filter(|((c, _), _)| *c)
            .map(|(_, ids)| ids.len())
            .sum();
        let _ = writeln!(
            o,
            "skipped: {by_cap} by capability, {} answered unsupported{}",
            s.skipped - by_cap,
            if verbose {
                ""
            } else {
                " (--verbose lists each case)"
            }
        );
        for ((_, why), ids) in &s.skip_reasons {
            let _ = writeln!(o, "    {} × {why}", ids.len());
        }
    }
    if s.checks_skipped > 0 {
        let _ = writeln!(
            o,
            "checks skipped: {} in {} case(s) that were run (the other checks of those cases were made)",
            s.checks_skipped, s.cases_with_skipped_checks
        );
        for (why, checks) in &s.check_reasons {
            let checks: Vec<String> = checks.iter().map(|(c, n)| format!("{n} × {c}")).collect();
            let _ = writeln!(o, "    {}: {why}", checks.join(", "));
        }
    }
    let _ = writeln!(
        o,
        "{} passed, {} failed, {} errored, {} skipped{}",
        s.passed,
        s.failed,
        s.errored,
        s.skipped,
        if s.checks_skipped > 0 {
            format!(", {} checks skipped", s.checks_skipped)
        } else {
            String::new()
        }
    );
    o
}

/// When every case sent (two or more, none skipped by the run) was answered with an error: how
/// many, and the first case's id with what the program said.
fn refused_every_request(records: &[ResultRecord]) -> Option<(usize, String)> {
    use crate::conform::check::ANSWERED_AN_ERROR;
    let sent: Vec<&ResultRecord> = records
        .iter()
        .filter(|r| r.outcome != CaseOutcome::Skipped)
        .collect();
    let said = |r: &ResultRecord| -> Option<String> {
        (r.outcome == CaseOutcome::Failed)
            .then(|| r.details.first()?.strip_prefix(ANSWERED_AN_ERROR))
            .flatten()
            .map(str::to_string)
    };
    if sent.len() < 2 || !sent.iter().all(|r| said(r).is_some()) {
        return None;
    }
    let first = sent.first()?;
    Some((sent.len(), format!("({}): `{}`", first.id, said(first)?)))
}

/// The JSON summary (`--format json`, `m3go-conform-summary/1`).
pub(crate) fn json_summary(
    records: &[ResultRecord],
    load_errors: &[(String, String)],
    s: &Summary,
) -> crate::conform::report::ConformSummary {
    use crate::conform::report::{
        CaseError, CaseFailure, CheckSkipReason, ConformSummary, SkipReason, CONFORM_SUMMARY,
    };
    let mut errors: Vec<CaseError> = load_errors
        .iter()
        .map(|(f, e)| CaseError {
            id: None,
            file: f.clone(),
            clauses: Vec::new(),
            message: e.clone(),
        })
        .collect();
    let mut failures = Vec::new();
    for r in records {
        match r.outcome {
            CaseOutcome::Failed => failures.push(CaseFailure {
                id: r.id.clone(),
                file: r.file.clone(),
                clauses: r.clauses.clone(),
                differences: r.details.clone(),
            }),
            CaseOutcome::Errored => errors.push(CaseError {
                id: Some(r.id.clone()),
                file: r.file.clone(),
                clauses: r.clauses.clone(),
                message: r.details.join("; "),
            }),
            CaseOutcome::Passed | CaseOutcome::Skipped => {}
        }
    }
    ConformSummary {
        format: CONFORM_SUMMARY.to_string(),
        passed: s.passed,
        failed: s.failed,
        errored: s.errored,
        skipped: s.skipped,
        skipped_by_reason: s
            .skip_reasons
            .iter()
            .map(|((by_capability, reason), ids)| SkipReason {
                reason: reason.clone(),
                by_capability: *by_capability,
                cases: ids.len(),
                ids: ids.clone(),
            })
            .collect(),
        checks_skipped: s.checks_skipped,
        cases_with_skipped_checks: s.cases_with_skipped_checks,
        checks_skipped_by_reason: s
            .check_reasons
            .iter()
            .map(|(reason, checks)| CheckSkipReason {
                reason: reason.clone(),
                checks: checks.clone(),
            })
            .collect(),
        failures,
        errors,
    }
}

/// The JUnit report (`--junit`): one `testcase` per case (classname: its first clause), one per
/// case file that did not read (classname `case-files`).
pub(crate) fn junit_suite(
    records: &[ResultRecord],
    load_errors: &[(String, String)],
    time: Option<f64>,
    properties: Vec<(String, String)>,
) -> TestSuite {
    let mut cases: Vec<TestCase> = load_errors
        .iter()
        .map(|(f, e)| TestCase {
            name: f.clone(),
            classname: "case-files".to_string(),
            file: Some(f.clone()),
            time: None,
            verdict: Verdict::Errored {
                message: "the case file could not be read".to_string(),
                text: e.clone(),
            },
            system_out: None,
        })
        .collect();
    for r in records {
        let clauses = if r.clauses.is_empty() {
            "none".to_string()
        } else {
            r.clauses.join(", ")
        };
        let verdict = match r.outcome {
            CaseOutcome::Passed => Verdict::Passed,
            CaseOutcome::Skipped => Verdict::Skipped {
                message: r.details.join("; "),
            },
            CaseOutcome::Errored => Verdict::Errored {
                message: format!(
                    "the program under test could not answer: {}",
                    r.details.join("; ")
                ),
                text: format!("clauses: {clauses}\n{}", r.details.join("\n")),
            },
            CaseOutcome::Failed => {
                let mut text = format!("clauses: {clauses}\n");
                for d in &r.details {
                    text.push_str(&format!("- {}\n", d.replace('\n', "\n  ")));
                }
                Verdict::Failed {
                    message: format!(
                        "{} difference(s); clauses {clauses}: {}",
                        r.details.len(),
                        r.details.first().map(String::as_str).unwrap_or("")
                    ),
                    text,
                }
            }
        };
        let system_out =
            (r.outcome != CaseOutcome::Skipped && !r.skipped_checks.is_empty()).then(|| {
                r.skipped_checks
                    .iter()
                    .map(|(c, why)| format!("check skipped: {c}: {why}\n"))
                    .collect()
            });
        cases.push(TestCase {
            name: r.id.clone(),
            classname: r
                .clauses
                .first()
                .cloned()
                .unwrap_or_else(|| "m3go-conform".to_string()),
            file: Some(r.file.clone()),
            time: r.seconds,
            verdict,
            system_out,
        });
    }
    TestSuite {
        name: "m3go-conform".to_string(),
        time,
        properties,
        cases,
    }
}

/// The error of a run that skipped cases or checks without `--allow-skips`.
pub(crate) fn skipped_error(s: &Summary) -> String {
    let what = match (s.skipped, s.checks_skipped) {
        (n, 0) => format!("{n} case(s) skipped"),
        (0, k) => format!("{k} check(s) skipped"),
        (n, k) => format!("{n} case(s) and {k} check(s) skipped"),
    };
    format!("error: {what}: exit 1 (--allow-skips accepts skipped cases and checks)")
}

/// The message for case files that do not read (each is listed as `ERRORED FILE` above it).
pub(crate) fn malformed_cases(load_errors: &[(String, String)]) -> String {
    let files: Vec<&str> = load_errors.iter().map(|(f, _)| f.as_str()).collect();
    format!(
        "error: {} case file(s) could not be read ({}): expected case files as spec/README.md describes them (exit 2)",
        files.len(),
        files.join(", ")
    )
}

/// An exit status, and the message said with it on standard error.
pub(crate) struct Exit {
    pub(crate) code: i32,
    pub(crate) message: Option<String>,
}

/// What a run selected and was asked to accept, for its exit status ([`run_exit`]).
pub(crate) struct RunScope<'a> {
    /// `--allow-empty`, `--allow-skips`.
    pub(crate) allow_empty: bool,
    pub(crate) allow_skips: bool,
    /// `--id`, `--filter` and whether `--shard` was given.
    pub(crate) id: Option<&'a str>,
    pub(crate) filter: Option<&'a str>,
    pub(crate) sharded: bool,
    /// The folder of the case files.
    pub(crate) dir: &'a str,
    /// The cases selected.
    pub(crate) selected: usize,
}

/// The exit status of a run (with its message): 2 when a case file did not read or the program
/// answered no case, 1 on a failure, when nothing was tested (unless `--allow-empty`) or when
/// cases or checks were skipped (unless `--allow-skips`).
pub(crate) fn run_exit(s: &Summary, load_errors: &[(String, String)], scope: &RunScope) -> Exit {
    let (passed, failed, errored, skipped) = (s.passed, s.failed, s.errored, s.skipped);
    let skipped = skipped + s.checks_skipped;
    let tested = passed + failed + errored - load_errors.len();
    let code = if failed + errored > 0 { 1 } else { 0 };
    let (code, message) = if !load_errors.is_empty() {
        // a case file that does not read is bad input, like any other: exit 2
        (2, malformed_cases(load_errors))
    } else if tested > 0 && passed + failed == 0 && skipped == 0 {
        // every case asked errored: the program under test cannot answer at all
        (
            2,
            format!(
                "error: the program under test answered none of the {errored} cases (every one errored, above): exit 2"
            ),
        )
    } else if tested == 0 && !scope.allow_empty {
        let selected = scope.selected;
        (
            1,
            format!(
                "error: nothing was tested ({}): exit 1 (--allow-empty accepts it)",
                if selected == 0 {
                    match (scope.id, scope.filter, scope.sharded) {
                        (Some(id), _, _) => format!("no case has the id `{id}`"),
                        (None, Some(f), _) => format!("no case cites a clause starting with `{f}`"),
                        (None, None, true) => "the shard holds no case".to_string(),
                        _ => format!("{} holds no case", scope.dir),
                    }
                } else {
                    format!("all {selected} selected cases were skipped")
                }
            ),
        )
    } else if skipped > 0 && !scope.allow_skips {
        (1, skipped_error(s))
    } else {
        return Exit {
            code,
            message: None,
        };
    };
    Exit {
        code,
        message: Some(message),
    }
}

/// The exit status of merged results (with its message): 2 when a case file did not read, 1 on
/// a failure, when nothing was tested (unless `allow_empty`) or when cases or checks were
/// skipped (unless `allow_skips`).
pub(crate) fn merge_exit(
    s: &Summary,
    load_errors: &[(String, String)],
    allow_empty: bool,
    allow_skips: bool,
) -> Exit {
    let (code, message) = if !load_errors.is_empty() {
        (2, Some(malformed_cases(load_errors)))
    } else if s.failed + s.errored > 0 {
        (1, None)
    } else if s.passed == 0 && !allow_empty {
        (
            1,
            Some(
                "error: nothing was tested in the merged results: exit 1 (--allow-empty accepts it)"
                    .to_string(),
            ),
        )
    } else if s.skipped + s.checks_skipped > 0 && !allow_skips {
        (1, Some(skipped_error(s)))
    } else {
        (0, None)
    };
    Exit { code, message }
}
