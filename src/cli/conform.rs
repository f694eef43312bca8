//! `m3go conform`: the conformance suite run against m3go or another program, the clause
//! coverage of rules.md, the cases as JSON. The runner is `crate::conform::runner`.

use crate::cli::common::{progress_bar, Format};
use crate::cli::junit::{TestCase, TestSuite, Verdict};
use crate::cli::output::Target;
use crate::conform::capabilities::SkippedCheck;
use crate::conform::case::Case;
use crate::conform::failure::ProgramFailure;
use crate::conform::runner::{
    load_suite, negotiate_in, outside, run_case_in, stop_children_on_signal, thread_pool,
    BuiltinOn, CaseRun, Coverage, Declared, External, MakeOracle, Negotiated, Oracle, OraclePool,
    Outcome,
};
use crate::conform::shard::{LineError, MergedLines, Shard};
use crate::io::clip;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Run the conformance suite (default spec/cases).
///
/// Each case is put to the implementation under test (m3go itself, or with `--impl` another
/// program speaking the JSON-lines protocol m3go-conform/2 or /1, README.md). The program is first
/// asked for its capabilities; a case outside them (a preset or option value it does not
/// declare) is skipped, with the reason. Each failure prints the case id, the file, the clauses
/// and the expected-against-actual differences; the skipped cases are counted one line per
/// reason (--verbose lists each). The run closes with
/// `N passed, N failed, N errored, N skipped` (and `, N checks skipped` when the program declined
/// some checks of cases it answered). --junit FILE also writes a JUnit XML report, --format json
/// prints a JSON summary instead of the text. A program that crashes, hangs (past --timeout, scaled by
/// the size of a replay)
/// or writes something that is not one JSON answer is stopped, the case counts as errored, and
/// the program is started again for the next case; a program that cannot answer the first
/// request at all ends the run with exit 2. Exit 1 on any failure or errored case, when no case
/// was tested (unless --allow-empty) or when a case was skipped (unless --allow-skips).
#[derive(Debug, clap::Args)]
pub struct ConformArgs {
    /// The directory of case files (default: spec/cases in a checkout, else the suite built into
    /// the binary).
    #[arg(value_name = "DIR")]
    pub dir: Option<String>,
    /// List the cases (id, clauses, title) instead of running them.
    #[arg(long)]
    pub list: bool,
    /// Run only the case with this id.
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Run only the cases citing a clause that starts with this (M20-EYE).
    #[arg(long, value_name = "CLAUSE")]
    pub filter: Option<String>,
    /// Run the cases against this program (a shell command) instead of m3go.
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: Option<String>,
    #[command(flatten)]
    pub program: crate::cli::common::ProgramArgs,
    #[command(flatten)]
    pub spread: crate::cli::common::SpreadArgs,
    /// Print which cases cite each clause of rules.md, and the clauses no case cites (exit 1 if
    /// any).
    #[arg(long)]
    pub coverage: bool,
    /// Print every case as JSON instead of running them.
    #[arg(long)]
    pub dump_json: bool,
    /// Like --coverage, and write the cases of each clause into rules.md's clause register.
    #[arg(long)]
    pub update_rules: bool,
    /// The clause register the case clauses are checked against.
    #[arg(long, value_name = "FILE", default_value = "rules.md")]
    pub rules_md: String,
    /// Also write the outcome of every case run as JSON lines to FILE (a header line recording
    /// the run's selection, then one line a case), for `--merge`: one file per shard of a run
    /// spread over a scheduler.
    #[arg(long, value_name = "FILE")]
    pub results: Option<String>,
    /// Merge the JSON-lines results of the shards of one run (`--results`) into one summary
    /// (the report and exit status of the whole run), instead of running cases; refused when the
    /// files are of different selections, a shard or a case is missing or given twice, or a file
    /// does not match its header.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["dir", "list", "coverage", "dump_json", "update_rules", "implementation", "results"])]
    pub merge: Option<Vec<String>>,
    /// Also write the run as a JUnit XML report to FILE (`-`: standard output, and the text report
    /// goes to standard error): one `testcase` per case, with the clauses and the differences of
    /// each failure, for the test reports of CI systems (GitHub, GitLab, Jenkins).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["list", "coverage", "dump_json", "update_rules"])]
    pub junit: Option<String>,
    /// The report on standard output: text, or a JSON summary (`m3go-conform-summary/1`: the
    /// counts, the skipped cases by reason, every failure with its clauses and differences).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    pub format: Format,
    /// List every skipped case with its reason (without: one line per reason, with the count).
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// A case's outcome, and whether a skip came from the declared capabilities.
struct Ran {
    run: CaseRun,
    by_capability: bool,
    /// Seconds the case took (asked and compared); none for a case not sent.
    seconds: Option<f64>,
}

/// The format tag of the header line of a results file (`--results`).
const RESULTS_FORMAT: &str = "m3go-conform-results/2";

/// The format of the results files of older m3go, which did not record the run's selection:
/// refused by `--merge`, with that said.
const RESULTS_FORMAT_1: &str = "m3go-conform-results/1";

/// The longest line of a results file `--merge` reads (one case's result with its
/// differences); the file itself is read line by line, of any length.
const MAX_RESULTS_LINE: usize = 16 << 20;

/// The problems of one kind `--merge` names before "… and N more".
const MAX_LISTED: usize = 5;

/// The outcomes a case's result may have.
const OUTCOMES: [&str; 4] = ["passed", "failed", "errored", "skipped"];

/// What a run selected, recorded in each results file: `--merge` merges only the shards of one
/// selection. The hashes are SHA-256, in hex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Selection {
    /// The suite: each case file (its path inside the suite's folder) with its case, and the
    /// files that did not read.
    suite: String,
    /// `--id`, `--filter` as given.
    id: Option<String>,
    filter: Option<String>,
    /// The cases selected (before `--shard`), and the hash of their ids in order.
    cases: usize,
    ids: String,
    /// The capabilities the program declared, with the protocol version negotiated; null when
    /// the shard held no case (the program was not asked).
    capabilities: Option<String>,
}

/// The first line of a results file: the run's selection, the shard it holds (`K/N` as it was
/// resolved, null for a whole run), the number of cases of the shard (the lines that follow)
/// and the case files that did not read.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsHeader {
    format: String,
    selection: Selection,
    shard: Option<String>,
    cases: usize,
    load_errors: Vec<(String, String)>,
}

/// A SHA-256 of a sequence of byte strings, each with its length (so that no two sequences
/// hash alike by their concatenation).
struct Hash(sha2::Sha256);

impl Hash {
    fn new() -> Hash {
        use sha2::Digest;
        Hash(sha2::Sha256::new())
    }

    fn add(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn hex(self) -> String {
        use sha2::Digest;
        format!("{:x}", self.0.finalize())
    }
}

/// The hash of a suite: every case (its file's path inside `dir`, the case as JSON) and every
/// file that did not read.
fn suite_hash(dir: &str, cases: &[(String, Case)], load_errors: &[(String, String)]) -> String {
    let rel = |f: &str| {
        f.strip_prefix(dir)
            .unwrap_or(f)
            .trim_start_matches('/')
            .to_string()
    };
    let mut h = Hash::new();
    for (f, c) in cases {
        h.add(rel(f).as_bytes());
        h.add(serde_json::to_string(c).unwrap_or_default().as_bytes());
    }
    for (f, _) in load_errors {
        h.add(b"unreadable");
        h.add(rel(f).as_bytes());
    }
    h.hex()
}

/// The hash of the ids of a selection's cases, in order.
fn ids_hash<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let mut h = Hash::new();
    for id in ids {
        h.add(id.as_bytes());
    }
    h.hex()
}

/// The hash of what the program declared, and the protocol version negotiated.
fn capabilities_hash(declared: &Declared, protocol: &str) -> String {
    let caps = match declared {
        Declared::Capabilities(c) => serde_json::to_value(c).unwrap_or(Value::Null),
        Declared::Nothing(_) => Value::Null,
    };
    let mut h = Hash::new();
    h.add(protocol.as_bytes());
    h.add(caps.to_string().as_bytes());
    h.hex()
}

/// One case of a results file: what `m3go conform` printed about it, as data.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultRecord {
    id: String,
    /// The case's place in the run's selection (before `--shard`), from 0.
    index: usize,
    file: String,
    clauses: Vec<String>,
    /// passed | failed | errored | skipped
    outcome: String,
    /// The differences (failed), the failure of the program (errored), the reason (skipped).
    details: Vec<String>,
    /// A skip that came from the declared capabilities (not from an `unsupported` answer).
    #[serde(default)]
    by_capability: bool,
    /// The checks left out of a case that was run, each with its reason.
    #[serde(default)]
    skipped_checks: Vec<(String, String)>,
    /// Seconds the case took, for the JUnit report; not kept in a results file (the merged
    /// report has no times).
    #[serde(skip)]
    seconds: Option<f64>,
}

impl ResultRecord {
    fn of(file: &str, c: &Case, r: Ran, index: usize) -> ResultRecord {
        let (outcome, details) = match r.run.outcome {
            Outcome::Passed => ("passed", vec![]),
            Outcome::Failed(d) => ("failed", d),
            Outcome::Errored(e) => ("errored", vec![e]),
            Outcome::Skipped(why) => ("skipped", vec![why]),
        };
        ResultRecord {
            id: c.id.clone(),
            index,
            file: file.to_string(),
            clauses: c.clauses.clone(),
            outcome: outcome.to_string(),
            details,
            by_capability: r.by_capability,
            skipped_checks: r
                .run
                .skipped_checks
                .into_iter()
                .map(|s| (s.check, s.reason))
                .collect(),
            seconds: r.seconds,
        }
    }
}

/// The counts of a run (or of merged shards), printed as its last lines.
#[derive(Default)]
struct Summary {
    passed: usize,
    failed: usize,
    errored: usize,
    skipped: usize,
    /// (by capability, reason) -> the ids of the cases skipped so, in the order of the run.
    skip_reasons: BTreeMap<(bool, String), Vec<String>>,
    /// Checks left out of cases that were run, and in how many cases.
    checks_skipped: usize,
    cases_with_skipped_checks: usize,
    /// reason -> check -> how many times (each reason printed once, with its checks).
    check_reasons: BTreeMap<String, BTreeMap<String, usize>>,
}

/// The counts of the records; `load_errors` (case files that did not read) count as errored.
fn summarize(records: &[ResultRecord], load_errors: usize) -> Summary {
    let mut s = Summary {
        errored: load_errors,
        ..Summary::default()
    };
    for r in records {
        match r.outcome.as_str() {
            "passed" => s.passed += 1,
            "skipped" => {
                s.skipped += 1;
                s.skip_reasons
                    .entry((r.by_capability, r.details.join("; ")))
                    .or_default()
                    .push(r.id.clone());
            }
            "errored" => s.errored += 1,
            _ => s.failed += 1,
        }
        if r.outcome != "skipped" && !r.skipped_checks.is_empty() {
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
fn text_report(
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
    for r in records {
        let (f, id) = (&r.file, &r.id);
        match r.outcome.as_str() {
            "passed" => {}
            "skipped" => {
                if verbose {
                    let _ = writeln!(o, "SKIPPED {id} ({f}): {}", r.details.join("; "));
                }
            }
            "errored" => {
                let _ = writeln!(
                    o,
                    "ERRORED {id} ({f}) [{}]\n    {}",
                    r.clauses.join(", "),
                    r.details.join("; ")
                );
            }
            _ => {
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

/// The JSON summary (`--format json`, `m3go-conform-summary/1`).
fn json_summary(
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
        match r.outcome.as_str() {
            "failed" => failures.push(CaseFailure {
                id: r.id.clone(),
                file: r.file.clone(),
                clauses: r.clauses.clone(),
                differences: r.details.clone(),
            }),
            "errored" => errors.push(CaseError {
                id: Some(r.id.clone()),
                file: r.file.clone(),
                clauses: r.clauses.clone(),
                message: r.details.join("; "),
            }),
            _ => {}
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
fn junit_suite(
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
        let verdict = match r.outcome.as_str() {
            "passed" => Verdict::Passed,
            "skipped" => Verdict::Skipped {
                message: r.details.join("; "),
            },
            "errored" => Verdict::Errored {
                message: format!(
                    "the program under test could not answer: {}",
                    r.details.join("; ")
                ),
                text: format!("clauses: {clauses}\n{}", r.details.join("\n")),
            },
            _ => {
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
        let system_out = (r.outcome != "skipped" && !r.skipped_checks.is_empty()).then(|| {
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

/// Where the reports of a run go: `--junit`, `--format`, `--verbose`.
struct Reports {
    junit: Option<String>,
    json: bool,
    verbose: bool,
    /// `--junit` writes to standard output: the text report goes to standard error.
    text_to_stderr: bool,
}

/// Why the reports asked for cannot be written.
#[derive(Debug)]
enum ReportsError {
    /// An output names nothing m3go may write.
    Output(m3go_engine::InputError),
    /// Several outputs want standard output (the flags with their paths).
    SeveralOnStdout(Vec<String>),
}

impl std::fmt::Display for ReportsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportsError::Output(e) => write!(f, "{e}"),
            ReportsError::SeveralOnStdout(on_stdout) => {
                let all = if on_stdout.len() == 2 { "both" } else { "all" };
                write!(
                    f,
                    "{} {all} write to standard output: expected at most one of them on standard output (the others to files)",
                    on_stdout.join(" and ")
                )
            }
        }
    }
}

impl std::error::Error for ReportsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportsError::Output(e) => Some(e),
            ReportsError::SeveralOnStdout(_) => None,
        }
    }
}

impl Reports {
    /// The reports asked for, refused (exit 2, before anything runs) when `--junit` names
    /// nothing m3go may write or when it and `--format json` both want standard output.
    fn of(
        junit: &Option<String>,
        results: &Option<String>,
        format: Format,
        verbose: bool,
    ) -> Result<Reports, ReportsError> {
        let json = format == Format::Json;
        let mut text_to_stderr = false;
        // the outputs that may be standard output (`-`): at most one of them, and then the
        // text report goes to standard error
        let mut on_stdout: Vec<String> = json
            .then(|| "--format json".to_string())
            .into_iter()
            .collect();
        for (flag, path) in [("--junit", junit), ("--results", results)] {
            let Some(path) = path else { continue };
            let target = crate::cli::output::decide(path).map_err(ReportsError::Output)?;
            if target == Target::Stdout {
                on_stdout.push(format!("{flag} {path}"));
                text_to_stderr = true;
            }
        }
        if on_stdout.len() > 1 {
            return Err(ReportsError::SeveralOnStdout(on_stdout));
        }
        // both writable (a new file's folder exists and may be written), not the same file
        let paths: Vec<(&str, &str)> = [("--junit", junit), ("--results", results)]
            .into_iter()
            .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
            .collect();
        crate::cli::output::check_outputs(&paths, None).map_err(ReportsError::Output)?;
        Ok(Reports {
            junit: junit.clone(),
            json,
            verbose,
            text_to_stderr,
        })
    }

    /// A line of the text report (not of the JSON summary): on standard output, or on standard
    /// error when standard output holds the JUnit report or the JSON summary.
    fn note(&self, text: &str) {
        if self.text_to_stderr || self.json {
            errln!("{text}");
        } else {
            outln!("{text}");
        }
    }

    /// Prints the report (text or JSON) and writes the JUnit report; the counts, or the exit
    /// code when the JUnit report could not be written.
    fn finish(
        &self,
        records: &[ResultRecord],
        load_errors: &[(String, String)],
        time: Option<f64>,
        properties: Vec<(String, String)>,
    ) -> Result<Summary, i32> {
        let s = summarize(records, load_errors.len());
        if self.json {
            let v = json_summary(records, load_errors, &s);
            match serde_json::to_string_pretty(&v) {
                Ok(j) => {
                    outln!("{j}");
                    crate::cli::json_printed();
                }
                Err(e) => {
                    return Err(crate::cli::fail_with(
                        crate::conform::outputs::ErrorCode::Internal,
                        &e,
                        2,
                    ));
                }
            }
        } else {
            let text = text_report(records, load_errors, &s, self.verbose);
            if self.text_to_stderr {
                crate::cli::common::write_err(format_args!("{text}"));
            } else {
                out!("{text}");
            }
        }
        if let Some(path) = &self.junit {
            let suite = junit_suite(records, load_errors, time, properties);
            let unwritable = |e: &dyn std::fmt::Display| {
                crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unwritable, e, 2)
            };
            let x = crate::cli::junit::xml(&suite).map_err(|e| unwritable(&e))?;
            crate::cli::common::write_file(path, &x).map_err(|e| unwritable(&e))?;
        }
        Ok(s)
    }
}

/// The error of a run that skipped cases or checks without `--allow-skips`.
fn skipped_error(s: &Summary) -> String {
    let what = match (s.skipped, s.checks_skipped) {
        (n, 0) => format!("{n} case(s) skipped"),
        (0, k) => format!("{k} check(s) skipped"),
        (n, k) => format!("{n} case(s) and {k} check(s) skipped"),
    };
    format!("error: {what}: exit 1 (--allow-skips accepts skipped cases and checks)")
}

/// The results file of a run: the header, then one JSON line a case.
fn results_text(header: &ResultsHeader, records: &[ResultRecord]) -> String {
    let mut out = serde_json::to_string(header).unwrap_or_default();
    out.push('\n');
    for r in records {
        out.push_str(&serde_json::to_string(r).unwrap_or_default());
        out.push('\n');
    }
    out
}

pub fn run(args: ConformArgs) -> i32 {
    let started = std::time::Instant::now();
    let reports = match Reports::of(&args.junit, &args.results, args.format, args.verbose) {
        Ok(r) => r,
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::BadInput, &e, 2);
        }
    };
    if let Some(files) = &args.merge {
        return merge(files, &args.program, &reports);
    }
    let dir = &args
        .dir
        .clone()
        .unwrap_or_else(crate::conform::suite::default_cases_dir);
    let rules_md = &args.rules_md;
    let suite = match load_suite(dir, rules_md) {
        Ok(s) => s,
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::BadInput, &e, 2);
        }
    };
    let (cases, load_errors) = (suite.cases, suite.load_errors);
    if args.coverage || args.update_rules {
        return coverage(rules_md, &cases, args.update_rules, &load_errors);
    }
    // --id, --filter and --shard select the cases listed, dumped and run alike
    let chosen = chosen_cases(&args, &cases);
    // each case with its place in the selection, which a results file records
    let (indices, selected): (Vec<usize>, Vec<&(String, Case)>) = chosen
        .iter()
        .enumerate()
        .filter(|(k, _)| args.spread.shard.is_none_or(|s| s.takes(*k)))
        .map(|(k, c)| (k, *c))
        .unzip();
    if args.list {
        return list(&selected, &load_errors);
    }
    if args.dump_json {
        return dump_json(&selected, &load_errors);
    }
    let make = oracle_maker(&args);
    let make: &MakeOracle = &make;
    let pool = OraclePool::new(make);
    let Negotiated { declared, protocol } = match negotiated(&pool, selected.is_empty()) {
        Ok(n) => n,
        Err(code) => return code,
    };
    if let (Declared::Nothing(said), Some(_)) = (&declared, &args.implementation) {
        if !selected.is_empty() {
            reports.note(&format!(
                "note: the program declared no capabilities (it answered: {said}); every case is asked"
            ));
        }
    }
    let ran = match run_cases(
        &selected,
        &pool,
        &declared,
        protocol,
        args.spread.jobs as usize,
    ) {
        Ok(r) => r,
        Err(code) => return code,
    };
    drop(pool);
    let records: Vec<ResultRecord> = selected
        .iter()
        .zip(ran)
        .zip(&indices)
        .map(|(((f, c), r), &k)| ResultRecord::of(f, c, r, k))
        .collect();
    let mut unwritten = None;
    if let Some(path) = &args.results {
        let capabilities = (!selected.is_empty()).then(|| capabilities_hash(&declared, protocol));
        let header = ResultsHeader {
            format: RESULTS_FORMAT.to_string(),
            selection: selection_of(&args, dir, &cases, &load_errors, &chosen, capabilities),
            shard: args.spread.shard.map(|s| s.to_string()),
            cases: records.len(),
            load_errors: load_errors.clone(),
        };
        // a results file that cannot be written (late in the run) still leaves the report
        // and the JUnit report written, then exit 2
        if let Err(e) = crate::cli::common::write_file(path, &results_text(&header, &records)) {
            unwritten = Some(e);
        }
    }
    let s = match reports.finish(
        &records,
        &load_errors,
        Some(started.elapsed().as_secs_f64()),
        run_properties(&args, dir, protocol),
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(e) = unwritten {
        return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unwritable, &e, 2);
    }
    exit_code(&args, &s, &load_errors, selected.len(), dir)
}

/// What makes the program under test: m3go's own engine, or `--impl`'s command (whose
/// children are then stopped on Ctrl-C).
fn oracle_maker(args: &ConformArgs) -> impl Fn() -> Result<Box<dyn Oracle>, ProgramFailure> + Sync {
    let timeout = std::time::Duration::from_secs(args.program.timeout);
    let cmd = args.implementation.clone();
    if cmd.is_some() {
        stop_children_on_signal();
    }
    let engine = args.engine.engine();
    move || -> Result<Box<dyn Oracle>, ProgramFailure> {
        match &cmd {
            None => Ok(Box::new(BuiltinOn(engine))),
            Some(c) => Ok(Box::new(External::with_timeout(c, timeout)?)),
        }
    }
}

/// The selection a results file records: the suite, `--id`, `--filter`, the cases chosen and
/// the capabilities declared.
fn selection_of(
    args: &ConformArgs,
    dir: &str,
    cases: &[(String, Case)],
    load_errors: &[(String, String)],
    chosen: &[&(String, Case)],
    capabilities: Option<String>,
) -> Selection {
    Selection {
        suite: suite_hash(dir, cases, load_errors),
        id: args.id.clone(),
        filter: args.filter.clone(),
        cases: chosen.len(),
        ids: ids_hash(chosen.iter().map(|(_, c)| c.id.as_str())),
        capabilities,
    }
}

/// The cases `--id` and `--filter` select (before `--shard`), in the suite's order.
fn chosen_cases<'a>(args: &ConformArgs, cases: &'a [(String, Case)]) -> Vec<&'a (String, Case)> {
    cases
        .iter()
        .filter(|(_, c)| args.id.as_ref().is_none_or(|id| *id == c.id))
        .filter(|(_, c)| {
            args.filter
                .as_ref()
                .is_none_or(|cl| c.clauses.iter().any(|x| x.starts_with(cl.as_str())))
        })
        .collect()
}

/// `--list`: the selected cases (id, clauses, title), then the case files that did not read.
fn list(selected: &[&(String, Case)], load_errors: &[(String, String)]) -> i32 {
    for (_, c) in selected {
        outln!(
            "{:<44} [{}] {}",
            c.id,
            c.clauses.join(", "),
            c.title.as_deref().unwrap_or("")
        );
    }
    for (f, e) in load_errors {
        outln!("ERRORED {f}: {e}");
    }
    malformed_exit(load_errors)
}

/// `--dump-json`: the selected cases as a JSON array.
fn dump_json(selected: &[&(String, Case)], load_errors: &[(String, String)]) -> i32 {
    let all: Vec<Value> = selected
        .iter()
        .map(|(_, c)| serde_json::to_value(c).unwrap_or(Value::Null))
        .collect();
    match serde_json::to_string_pretty(&all) {
        Ok(s) => outln!("{s}"),
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Internal, &e, 2);
        }
    }
    malformed_exit(load_errors)
}

/// What the program declared and the protocol version (nothing asked when no case is
/// selected), or the exit code when it could not be asked.
fn negotiated(pool: &OraclePool, nothing_selected: bool) -> Result<Negotiated, i32> {
    if nothing_selected {
        return Ok(Negotiated {
            declared: Declared::Nothing(String::new()),
            protocol: crate::conform::protocol::PROTOCOL,
        });
    }
    negotiate_in(pool)
        .map_err(|e| crate::cli::fail_with(crate::conform::outputs::ErrorCode::ProgramFailed, e, 2))
}

/// Runs the selected cases on `jobs` workers (a case outside the declared capabilities is
/// skipped, with the reason), with a progress bar; or the exit code when no worker starts.
fn run_cases(
    selected: &[&(String, Case)],
    pool: &OraclePool,
    declared: &Declared,
    protocol: &'static str,
    jobs: usize,
) -> Result<Vec<Ran>, i32> {
    let workers = thread_pool(jobs)
        .map_err(|e| crate::cli::fail_with(crate::conform::outputs::ErrorCode::Internal, &e, 2))?;
    let pb = progress_bar(selected.len() as u64, "cases");
    let ran: Vec<Ran> = workers.install(|| {
        selected
            .par_iter()
            .map(|(_, c)| {
                let r = run_one(c, pool, declared, protocol);
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    Ok(ran)
}

/// One case: skipped when outside the declared capabilities, else asked (with the checks the
/// program declined left out) and timed.
fn run_one(c: &Case, pool: &OraclePool, declared: &Declared, protocol: &'static str) -> Ran {
    let began = std::time::Instant::now();
    match outside(c, declared) {
        Some(why) => Ran {
            run: CaseRun {
                outcome: Outcome::Skipped(format!("outside the declared capabilities: {why}")),
                skipped_checks: Vec::new(),
            },
            by_capability: true,
            seconds: None,
        },
        None => {
            let declined: Vec<SkippedCheck> = c
                .position
                .rules
                .resolve()
                .map(|rules| declared.declined(&rules))
                .unwrap_or_default();
            Ran {
                run: pool
                    .with(|o| run_case_in(c, o, protocol, &declined))
                    .unwrap_or_else(|e| CaseRun {
                        outcome: Outcome::Errored(e.to_string()),
                        skipped_checks: Vec::new(),
                    }),
                by_capability: false,
                seconds: Some(began.elapsed().as_secs_f64()),
            }
        }
    }
}

/// The properties of the JUnit report: the program, the suite, the protocol, the shard.
fn run_properties(args: &ConformArgs, dir: &str, protocol: &str) -> Vec<(String, String)> {
    let mut properties = vec![(
        "implementation".to_string(),
        args.implementation
            .clone()
            .unwrap_or_else(|| "m3go (built in)".to_string()),
    )];
    properties.push(("suite".to_string(), dir.to_string()));
    properties.push(("protocol".to_string(), protocol.to_string()));
    if let Some(sh) = args.spread.shard {
        properties.push(("shard".to_string(), sh.to_string()));
    }
    properties
}

/// The exit status of a run (with its message on standard error): 2 when a case file did not
/// read or the program answered no case, 1 on a failure, when nothing was tested (unless
/// `--allow-empty`) or when cases or checks were skipped (unless `--allow-skips`).
fn exit_code(
    args: &ConformArgs,
    s: &Summary,
    load_errors: &[(String, String)],
    selected: usize,
    dir: &str,
) -> i32 {
    let (passed, failed, errored, skipped) = (s.passed, s.failed, s.errored, s.skipped);
    let skipped = skipped + s.checks_skipped;
    let tested = passed + failed + errored - load_errors.len();
    let mut code = if failed + errored > 0 { 1 } else { 0 };
    if !load_errors.is_empty() {
        // a case file that does not read is bad input, like any other: exit 2
        errln!("{}", malformed_cases(load_errors));
        code = 2;
    } else if tested > 0 && passed + failed == 0 && skipped == 0 {
        // every case asked errored: the program under test cannot answer at all
        errln!(
            "error: the program under test answered none of the {errored} cases (every one errored, above): exit 2"
        );
        code = 2;
    } else if tested == 0 && !args.program.allow_empty {
        errln!(
            "error: nothing was tested ({}): exit 1 (--allow-empty accepts it)",
            if selected == 0 {
                match (&args.id, &args.filter, &args.spread.shard) {
                    (Some(id), _, _) => format!("no case has the id `{id}`"),
                    (None, Some(f), _) => format!("no case cites a clause starting with `{f}`"),
                    (None, None, Some(_)) => "the shard holds no case".to_string(),
                    _ => format!("{dir} holds no case"),
                }
            } else {
                format!("all {selected} selected cases were skipped")
            }
        );
        code = 1;
    } else if skipped > 0 && !args.program.allow_skips {
        errln!("{}", skipped_error(s));
        code = 1;
    }
    code
}

/// `--merge FILES`: the results of the shards of one run (`--results`), read back and reported
/// as the whole run: every case's line, the summary, the exit status. The files must hold one
/// selection (the same suite, `--id`, `--filter` and capabilities), be the shards of one split
/// (`K/N` for every K of one N, each once, as resolved when they ran) and hold together exactly
/// the cases of the selection, each once; each is read line by line, of any length.
fn merge(files: &[String], program: &crate::cli::common::ProgramArgs, reports: &Reports) -> i32 {
    let (mut records, load_errors) = match read_results(files) {
        Ok(r) => r,
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::BadInput, &e, 2);
        }
    };
    let load_errors: Vec<(String, String)> = load_errors
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    records.sort_by(|a, b| a.file.cmp(&b.file).then(a.id.cmp(&b.id)));
    let properties = vec![("merged".to_string(), files.join(" "))];
    let s = match reports.finish(&records, &load_errors, None, properties) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if !load_errors.is_empty() {
        errln!("{}", malformed_cases(&load_errors));
        return 2;
    }
    if s.failed + s.errored > 0 {
        1
    } else if s.passed == 0 && !program.allow_empty {
        errln!(
            "error: nothing was tested in the merged results: exit 1 (--allow-empty accepts it)"
        );
        1
    } else if s.skipped + s.checks_skipped > 0 && !program.allow_skips {
        errln!("{}", skipped_error(&s));
        1
    } else {
        0
    }
}

/// Why `--merge` refuses its results files: a file that does not read as results, or files that
/// are not the shards of one selection holding its cases exactly.
#[derive(Debug)]
enum MergeError {
    /// A file that cannot be read.
    Unreadable {
        file: String,
        source: std::io::Error,
    },
    /// A line past [`MAX_RESULTS_LINE`] bytes.
    LineTooLong { file: String, line: usize },
    /// A line that is not UTF-8.
    NotUtf8 {
        file: String,
        line: usize,
        source: std::str::Utf8Error,
    },
    /// An empty file.
    Empty { file: String },
    /// A first line that is not a results header (`source`: why it does not read; none when it
    /// has no `format`).
    NotHeader {
        file: String,
        source: Option<serde_json::Error>,
    },
    /// A results file of an older m3go (format `m3go-conform-results/1`).
    OlderFormat { file: String },
    /// A results header of another format.
    UnknownFormat { file: String, format: String },
    /// A header's shard that is not a resolved shard.
    Shard {
        file: String,
        source: crate::conform::shard::ShardError,
    },
    /// Two files of different selections (`first`, the file compared with; what differs).
    DifferentSelections {
        first: String,
        file: String,
        differences: Vec<String>,
    },
    /// A line that is not a case's result.
    NotARecord {
        file: String,
        line: usize,
        source: serde_json::Error,
    },
    /// A case's result with an outcome m3go does not write.
    UnknownOutcome {
        file: String,
        line: usize,
        outcome: String,
    },
    /// A file with another number of results than its header says.
    LineCount {
        file: String,
        lines: usize,
        header: usize,
    },
    /// Cases not of a file's shard, given twice, or missing (the problems, each said).
    DoNotAddUp(Vec<String>),
    /// The ids of the results are not those of the selection.
    IdsDiffer { file: String },
    /// Files holding a whole run among several files.
    WholeRun(Vec<String>),
    /// Shards of different splits (the numbers of parts).
    DifferentSplits(Vec<usize>),
    /// A shard given by two files.
    ShardTwice {
        shard: crate::conform::shard::Shard,
        other: String,
        file: String,
    },
    /// Shards no file gives, of a split into `n`.
    ShardsMissing { missing: Vec<String>, n: usize },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Unreadable { file, source } => write!(f, "{file}: cannot read: {source}"),
            MergeError::LineTooLong { file, line } => write!(
                f,
                "{file}: line {line}: longer than {MAX_RESULTS_LINE} bytes: expected one case's result a line, as `m3go conform --results` writes"
            ),
            MergeError::NotUtf8 { file, line, source } => {
                write!(f, "{file}: line {line}: not UTF-8 text: {source}")
            }
            MergeError::Empty { file } => write!(
                f,
                "{file}: empty: expected the results `m3go conform --results` writes"
            ),
            MergeError::NotHeader { file, source } => {
                let why = match source {
                    Some(e) => e.to_string(),
                    None => "no `format`".to_string(),
                };
                write!(
                    f,
                    "{file}: line 1: not a results header ({why}): expected the first line `m3go conform --results` writes"
                )
            }
            MergeError::OlderFormat { file } => write!(
                f,
                "{file}: written by an older m3go (format `{RESULTS_FORMAT_1}`), which did not record the run's selection: expected `{RESULTS_FORMAT}` (run the shards again with this m3go)"
            ),
            MergeError::UnknownFormat { file, format } => write!(
                f,
                "{file}: line 1: format `{}`: expected `{RESULTS_FORMAT}`",
                clip(format, 60)
            ),
            MergeError::Shard { file, source } => write!(f, "{file}: line 1: shard: {source}"),
            MergeError::DifferentSelections {
                first,
                file,
                differences,
            } => write!(
                f,
                "{first} and {file} are results of different selections ({}): expected the shards of one run",
                differences.join("; ")
            ),
            MergeError::NotARecord { file, line, source } => write!(
                f,
                "{file}: line {line}: not a case's result ({source}): expected a line `m3go conform --results` writes"
            ),
            MergeError::UnknownOutcome {
                file,
                line,
                outcome,
            } => write!(
                f,
                "{file}: line {line}: outcome `{}` is unknown: expected {}",
                clip(outcome, 40),
                OUTCOMES.join(", ")
            ),
            MergeError::LineCount {
                file,
                lines,
                header,
            } => write!(
                f,
                "{file}: has {lines} lines of results, its header says {header}"
            ),
            MergeError::DoNotAddUp(problems) => write!(
                f,
                "the results do not add up to the cases of the selection: {}",
                problems.join("; ")
            ),
            MergeError::IdsDiffer { file } => write!(
                f,
                "the ids of the cases in the results are not those of the selection the headers record ({file} and the others): expected the files `m3go conform --results` wrote, unedited"
            ),
            MergeError::WholeRun(whole) => write!(
                f,
                "{} holds a whole run (no --shard), not a shard: expected the shards of one run",
                whole.join(", ")
            ),
            MergeError::DifferentSplits(ns) => write!(
                f,
                "the files are shards of different splits (of {} parts): expected one split",
                ns.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            MergeError::ShardTwice { shard, other, file } => {
                write!(f, "shard {shard} is given twice ({other}, {file})")
            }
            MergeError::ShardsMissing { missing, n } => write!(
                f,
                "shard(s) {} missing: expected the results of all {n} shards",
                crate::referee::results::listed(missing, missing.len())
            ),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Unreadable { source, .. } => Some(source),
            MergeError::NotUtf8 { source, .. } => Some(source),
            MergeError::NotHeader {
                source: Some(source),
                ..
            } => Some(source),
            MergeError::Shard { source, .. } => Some(source),
            MergeError::NotARecord { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A merged file's line error in this merge's words.
fn line_error(file: &str, e: LineError) -> MergeError {
    let file = file.to_string();
    match e {
        LineError::Unreadable(source) => MergeError::Unreadable { file, source },
        LineError::TooLong { line } => MergeError::LineTooLong { file, line },
        LineError::NotUtf8 { line, source } => MergeError::NotUtf8 { file, line, source },
    }
}

/// The first [`MAX_LISTED`] of `items` (of `total`), then "… and N more".
fn listed(items: &[String], total: usize) -> String {
    let shown: Vec<&str> = items.iter().take(MAX_LISTED).map(String::as_str).collect();
    let more = total.saturating_sub(shown.len());
    if more > 0 {
        format!("{} … and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The header of a results file (its first line).
fn header_of(f: &str, line: &str) -> Result<ResultsHeader, MergeError> {
    let not_header = |source: Option<serde_json::Error>| MergeError::NotHeader {
        file: f.to_string(),
        source,
    };
    let v: Value = serde_json::from_str(line).map_err(|e| not_header(Some(e)))?;
    match v.get("format").and_then(Value::as_str) {
        Some(RESULTS_FORMAT) => {}
        Some(RESULTS_FORMAT_1) => {
            return Err(MergeError::OlderFormat {
                file: f.to_string(),
            })
        }
        Some(other) => {
            return Err(MergeError::UnknownFormat {
                file: f.to_string(),
                format: other.to_string(),
            })
        }
        None => return Err(not_header(None)),
    }
    serde_json::from_value(v).map_err(|e| not_header(Some(e)))
}

/// What differs between two selections, for people.
fn selection_differences(a: &Selection, b: &Selection) -> Vec<String> {
    let flag = |x: &Option<String>| {
        x.as_ref()
            .map_or("none".to_string(), |v| format!("`{}`", clip(v, 60)))
    };
    let mut d = Vec::new();
    if a.suite != b.suite {
        d.push("the suites (case files) differ".to_string());
    }
    if a.id != b.id {
        d.push(format!("--id {} against {}", flag(&a.id), flag(&b.id)));
    }
    if a.filter != b.filter {
        d.push(format!(
            "--filter {} against {}",
            flag(&a.filter),
            flag(&b.filter)
        ));
    }
    if a.cases != b.cases {
        d.push(format!("{} cases selected against {}", a.cases, b.cases));
    } else if a.ids != b.ids {
        d.push("the ids of the cases selected differ".to_string());
    }
    if let (Some(x), Some(y)) = (&a.capabilities, &b.capabilities) {
        if x != y {
            d.push("the program declared different capabilities".to_string());
        }
    }
    d
}

/// How many of `cases` items (indices 0..cases) a shard takes.
fn taken(cases: usize, shard: Option<Shard>) -> usize {
    match shard {
        None => cases,
        Some(s) if cases >= s.k => (cases - s.k) / s.n + 1,
        Some(_) => 0,
    }
}

/// The case files that did not read: (file, error).
type LoadErrors = Vec<(String, String)>;

/// Reads the results files of `--merge` (each as a stream) and checks that they are the shards
/// of one selection holding its cases exactly: the records and the case files that did not
/// read, or the first problem found (the cases missing or given twice: a few named, then how
/// many more).
fn read_results(files: &[String]) -> Result<(Vec<ResultRecord>, LoadErrors), MergeError> {
    let mut m = Merging::default();
    for (fi, f) in files.iter().enumerate() {
        m.read_file(files, fi, f)?;
    }
    m.finish()
}

/// The results read so far by `--merge`, and the problems found.
#[derive(Default)]
struct Merging {
    records: Vec<ResultRecord>,
    load_errors: LoadErrors,
    shards: Vec<(String, Option<Shard>)>,
    /// The first file and its selection.
    first: Option<(String, Selection)>,
    /// index in the selection -> (file, line); id -> (file, line)
    at_index: BTreeMap<usize, (usize, usize)>,
    at_id: BTreeMap<String, (usize, usize)>,
    problems: Vec<String>,
}

/// What one results file held besides the cases kept: its lines of results, the cases not of
/// its shard and the cases given a second time (a few named, all counted).
#[derive(Default)]
struct FileTally {
    lines: usize,
    kept: usize,
    foreign: Vec<String>,
    n_foreign: usize,
    twice: Vec<String>,
    n_twice: usize,
}

impl Merging {
    /// Reads the results file `f` (number `fi` of `files`): its header (of the selection of the
    /// first file), then its cases.
    fn read_file(&mut self, files: &[String], fi: usize, f: &str) -> Result<(), MergeError> {
        let opened = crate::io::open_regular(f).map_err(|source| MergeError::Unreadable {
            file: f.to_string(),
            source,
        })?;
        let mut lines = MergedLines::new(std::io::BufReader::new(opened), MAX_RESULTS_LINE);
        let header = match lines.next_line().map_err(|e| line_error(f, e))? {
            Some((_, l)) => header_of(f, l)?,
            None => {
                return Err(MergeError::Empty {
                    file: f.to_string(),
                })
            }
        };
        let shard = header
            .shard
            .as_deref()
            .map(Shard::parse_resolved)
            .transpose()
            .map_err(|source| MergeError::Shard {
                file: f.to_string(),
                source,
            })?;
        match &self.first {
            None => self.first = Some((f.to_string(), header.selection.clone())),
            Some((g, sel)) => {
                let differences = selection_differences(sel, &header.selection);
                if !differences.is_empty() {
                    return Err(MergeError::DifferentSelections {
                        first: g.clone(),
                        file: f.to_string(),
                        differences,
                    });
                }
            }
        }
        let sel = &header.selection;
        let mut t = FileTally::default();
        while let Some((line, text)) = lines.next_line().map_err(|e| line_error(f, e))? {
            t.lines += 1;
            self.read_record(files, fi, f, line, text, sel, shard, &mut t)?;
        }
        if t.lines != header.cases {
            return Err(MergeError::LineCount {
                file: f.to_string(),
                lines: t.lines,
                header: header.cases,
            });
        }
        self.note_problems(fi, f, sel, shard, &t);
        self.load_errors.extend(header.load_errors);
        self.shards.push((f.to_string(), shard));
        Ok(())
    }

    /// Reads one case's result (line `line` of `f`): kept, or tallied as not of the shard or
    /// given a second time.
    #[allow(clippy::too_many_arguments)]
    fn read_record(
        &mut self,
        files: &[String],
        fi: usize,
        f: &str,
        line: usize,
        text: &str,
        sel: &Selection,
        shard: Option<Shard>,
        t: &mut FileTally,
    ) -> Result<(), MergeError> {
        let r: ResultRecord =
            serde_json::from_str(text).map_err(|source| MergeError::NotARecord {
                file: f.to_string(),
                line,
                source,
            })?;
        if !OUTCOMES.contains(&r.outcome.as_str()) {
            return Err(MergeError::UnknownOutcome {
                file: f.to_string(),
                line,
                outcome: r.outcome,
            });
        }
        if r.index >= sel.cases || shard.is_some_and(|s| !s.takes(r.index)) {
            t.n_foreign += 1;
            if t.foreign.len() < MAX_LISTED {
                t.foreign
                    .push(format!("`{}` (line {line})", clip(&r.id, 60)));
            }
            return Ok(());
        }
        let again = self
            .at_index
            .get(&r.index)
            .or_else(|| self.at_id.get(&r.id));
        if let Some(&(gi, gl)) = again {
            t.n_twice += 1;
            if t.twice.len() < MAX_LISTED {
                t.twice.push(format!(
                    "`{}` (line {line}; also {} line {gl})",
                    clip(&r.id, 60),
                    files[gi]
                ));
            }
            return Ok(());
        }
        self.at_index.insert(r.index, (fi, line));
        self.at_id.insert(r.id.clone(), (fi, line));
        t.kept += 1;
        self.records.push(r);
        Ok(())
    }

    /// The problems of file `f`: cases not of its shard, given twice, or missing.
    fn note_problems(
        &mut self,
        fi: usize,
        f: &str,
        sel: &Selection,
        shard: Option<Shard>,
        t: &FileTally,
    ) {
        let part = shard.map_or("the whole run".to_string(), |s| format!("shard {s}"));
        if t.n_foreign > 0 {
            self.problems.push(format!(
                "{f} holds {} case(s) not of {part} of the selection: {}",
                t.n_foreign,
                listed(&t.foreign, t.n_foreign)
            ));
        }
        if t.n_twice > 0 {
            self.problems.push(format!(
                "{f} gives {} case(s) a second time: {}",
                t.n_twice,
                listed(&t.twice, t.n_twice)
            ));
        }
        let want = taken(sel.cases, shard);
        if t.kept < want {
            // the first few places of the shard no line holds: at most `kept` places are
            // passed over before they are found
            let (start, step) = shard.map_or((0, 1), |s| (s.k - 1, s.n));
            let missing: Vec<String> = (start..sel.cases)
                .step_by(step)
                .filter(|k| self.at_index.get(k).is_none_or(|&(gi, _)| gi != fi))
                .take(MAX_LISTED)
                .map(|k| (k + 1).to_string())
                .collect();
            self.problems.push(format!(
                "{f} lacks {} of the {want} case(s) of {part}: the selection's case number {} (counted from 1, in the order `m3go conform --list` lists the selection)",
                want - t.kept,
                listed(&missing, want - t.kept)
            ));
        }
    }

    /// The records and the case files that did not read, once every file is read: the files
    /// are one split, no problem was found, and the ids are those of the selection.
    fn finish(self) -> Result<(Vec<ResultRecord>, LoadErrors), MergeError> {
        complete_split(&self.shards)?;
        if !self.problems.is_empty() {
            return Err(MergeError::DoNotAddUp(self.problems));
        }
        // every place of the selection is held once: the ids must be those selected, in order
        if let Some((f, sel)) = &self.first {
            let mut by_index: Vec<&ResultRecord> = self.records.iter().collect();
            by_index.sort_by_key(|r| r.index);
            if ids_hash(by_index.iter().map(|r| r.id.as_str())) != sel.ids {
                return Err(MergeError::IdsDiffer { file: f.clone() });
            }
        }
        Ok((self.records, self.load_errors))
    }
}

/// The files merged are the shards of one run: all whole runs (one file), or `K/N` for each K
/// of one N exactly once.
fn complete_split(shards: &[(String, Option<Shard>)]) -> Result<(), MergeError> {
    use crate::conform::shard::SplitProblem;
    crate::conform::shard::complete_split(shards).map_err(|p| match p {
        SplitProblem::Whole(files) => MergeError::WholeRun(files),
        SplitProblem::DifferentSplits(ns) => MergeError::DifferentSplits(ns),
        SplitProblem::Twice { shard, other, file } => MergeError::ShardTwice { shard, other, file },
        SplitProblem::Missing { missing, n } => MergeError::ShardsMissing { missing, n },
    })
}

/// The message for case files that do not read (each is listed as `ERRORED FILE` above it).
fn malformed_cases(load_errors: &[(String, String)]) -> String {
    let files: Vec<&str> = load_errors.iter().map(|(f, _)| f.as_str()).collect();
    format!(
        "error: {} case file(s) could not be read ({}): expected case files as spec/README.md describes them (exit 2)",
        files.len(),
        files.join(", ")
    )
}

/// Exit 0, or 2 with [`malformed_cases`] when a case file did not read.
fn malformed_exit(load_errors: &[(String, String)]) -> i32 {
    if load_errors.is_empty() {
        return 0;
    }
    errln!("{}", malformed_cases(load_errors));
    2
}

/// Prints the coverage (`crate::conform::runner::Coverage`) and, with `update`, writes it into
/// rules.md.
fn coverage(
    rules_md: &str,
    cases: &[(String, Case)],
    update: bool,
    load_errors: &[(String, String)],
) -> i32 {
    let text = match m3go_engine::game::read_text(rules_md) {
        Ok(t) => t,
        // outside a checkout, and not asked to write it: the register built into the binary
        Err(_) if !update && rules_md == "rules.md" && !std::path::Path::new(rules_md).exists() => {
            crate::conform::register::RULES_MD.to_string()
        }
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unreadable, &e, 2);
        }
    };
    let cov = Coverage::new(&text, cases);
    let (ids, by) = (&cov.ids, &cov.by);
    let uncovered = cov.uncovered();
    for id in ids {
        let v = &by[id.as_str()];
        outln!(
            "{id}: {}",
            if v.is_empty() {
                "UNCOVERED".to_string()
            } else {
                v.join(", ")
            }
        );
    }
    for (f, e) in load_errors {
        outln!("ERRORED {f}: {e}");
    }
    let covered = ids.len() - uncovered.len();
    outln!(
        "coverage: {covered}/{} clauses covered ({:.1} %); uncovered: {}",
        ids.len(),
        if ids.is_empty() {
            100.0
        } else {
            100.0 * covered as f64 / ids.len() as f64
        },
        if uncovered.is_empty() {
            "none".to_string()
        } else {
            uncovered.join(", ")
        }
    );
    if update {
        let out = cov.update_rules_md(&text);
        if let Err(e) = crate::cli::common::write_file(rules_md, &out) {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unwritable, &e, 2);
        }
    }
    if uncovered.is_empty() && load_errors.is_empty() {
        0
    } else {
        1
    }
}
