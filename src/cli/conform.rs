//! `m3go conform`: the conformance suite run against m3go or another program, the clause
//! coverage of rules.md, the cases as JSON. The runner is `crate::conform::runner`.

use crate::cli::common::progress_bar;
use crate::conform::capabilities::SkippedCheck;
use crate::conform::case::Case;
use crate::conform::runner::{
    load_suite, negotiate, outside, run_case_in, stop_children_on_signal, thread_pool, BuiltinOn,
    CaseRun, Coverage, Declared, External, MakeOracle, Negotiated, Oracle, OraclePool, Outcome,
};
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
/// and the expected-against-actual differences. The run closes with
/// `N passed, N failed, N errored, N skipped` (and `, N checks skipped` when the program declined
/// some checks of cases it answered). A program that crashes, hangs (past --timeout, scaled by
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
    /// Also write the outcome of every case run as JSON lines to FILE (a header line, then one
    /// line a case), for `--merge`: one file per shard of a run spread over a scheduler.
    #[arg(long, value_name = "FILE")]
    pub results: Option<String>,
    /// Merge the JSON-lines results of the shards of one run (`--results`) into one summary
    /// (the report and exit status of the whole run), instead of running cases; refused when a
    /// shard is missing or given twice.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["dir", "list", "coverage", "dump_json", "update_rules", "implementation", "results"])]
    pub merge: Option<Vec<String>>,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// A case's outcome, and whether a skip came from the declared capabilities.
struct Ran {
    run: CaseRun,
    by_capability: bool,
}

/// The format tag of the header line of a results file (`--results`).
const RESULTS_FORMAT: &str = "m3go-conform-results/1";

/// The first line of a results file: the shard it holds (null for a whole run), the number of
/// cases selected in it and the case files that did not read.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsHeader {
    format: String,
    shard: Option<String>,
    cases: usize,
    load_errors: Vec<(String, String)>,
}

/// One case of a results file: what `m3go conform` printed about it, as data.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    id: String,
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
}

impl Record {
    fn of(file: &str, c: &Case, r: Ran) -> Record {
        let (outcome, details) = match r.run.outcome {
            Outcome::Passed => ("passed", vec![]),
            Outcome::Failed(d) => ("failed", d),
            Outcome::Errored(e) => ("errored", vec![e]),
            Outcome::Skipped(why) => ("skipped", vec![why]),
        };
        Record {
            id: c.id.clone(),
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
    /// (by capability, reason) -> cases skipped so.
    skip_reasons: BTreeMap<(bool, String), usize>,
    /// Checks left out of cases that were run, and in how many cases.
    checks_skipped: usize,
    cases_with_skipped_checks: usize,
    /// (check, reason) -> how many times.
    check_reasons: BTreeMap<(String, String), usize>,
}

/// Prints each case's line (the failures with their differences) and the summary; returns the
/// counts. `load_errors` count as errored.
fn report(records: &[Record], load_errors: usize) -> Summary {
    let mut s = Summary {
        errored: load_errors,
        ..Summary::default()
    };
    for r in records {
        let (f, id) = (&r.file, &r.id);
        match r.outcome.as_str() {
            "passed" => s.passed += 1,
            "skipped" => {
                s.skipped += 1;
                let why = r.details.join("; ");
                outln!("SKIPPED {id} ({f}): {why}");
                *s.skip_reasons.entry((r.by_capability, why)).or_default() += 1;
            }
            "errored" => {
                s.errored += 1;
                outln!(
                    "ERRORED {id} ({f}) [{}]\n    {}",
                    r.clauses.join(", "),
                    r.details.join("; ")
                );
            }
            _ => {
                s.failed += 1;
                outln!("FAILED {id} ({f}) [{}]", r.clauses.join(", "));
                for x in &r.details {
                    outln!("    - {}", x.replace('\n', "\n      "));
                }
            }
        }
        if r.outcome != "skipped" && !r.skipped_checks.is_empty() {
            s.cases_with_skipped_checks += 1;
            s.checks_skipped += r.skipped_checks.len();
            for (c, why) in &r.skipped_checks {
                *s.check_reasons.entry((c.clone(), why.clone())).or_default() += 1;
            }
        }
    }
    if s.skipped > 0 {
        let by_cap: usize = s
            .skip_reasons
            .iter()
            .filter(|((c, _), _)| *c)
            .map(|(_, n)| n)
            .sum();
        outln!(
            "skipped: {by_cap} by capability, {} answered unsupported",
            s.skipped - by_cap
        );
        for ((_, why), n) in &s.skip_reasons {
            outln!("    {n} × {why}");
        }
    }
    if s.checks_skipped > 0 {
        outln!(
            "checks skipped: {} in {} case(s) that were run (the other checks of those cases were made)",
            s.checks_skipped, s.cases_with_skipped_checks
        );
        for ((c, why), n) in &s.check_reasons {
            outln!("    {n} × {c}: {why}");
        }
    }
    outln!(
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
    s
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
fn results_text(header: &ResultsHeader, records: &[Record]) -> String {
    let mut out = serde_json::to_string(header).unwrap_or_default();
    out.push('\n');
    for r in records {
        out.push_str(&serde_json::to_string(r).unwrap_or_default());
        out.push('\n');
    }
    out
}

pub fn run(args: ConformArgs) -> i32 {
    if let Some(files) = &args.merge {
        return merge(files, &args.program);
    }
    let dir = &args
        .dir
        .clone()
        .unwrap_or_else(crate::conform::suite::default_cases_dir);
    let rules_md = &args.rules_md;
    let suite = match load_suite(dir, rules_md) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let (cases, load_errors) = (suite.cases, suite.load_errors);
    if args.coverage || args.update_rules {
        return coverage(rules_md, &cases, args.update_rules, &load_errors);
    }
    // --id, --filter and --shard select the cases listed, dumped and run alike
    let selected: Vec<&(String, Case)> = cases
        .iter()
        .filter(|(_, c)| args.id.as_ref().is_none_or(|id| *id == c.id))
        .filter(|(_, c)| {
            args.filter
                .as_ref()
                .is_none_or(|cl| c.clauses.iter().any(|x| x.starts_with(cl.as_str())))
        })
        .enumerate()
        .filter(|(k, _)| args.spread.shard.is_none_or(|s| s.takes(*k)))
        .map(|(_, c)| c)
        .collect();
    if args.list {
        for (_, c) in &selected {
            outln!(
                "{:<44} [{}] {}",
                c.id,
                c.clauses.join(", "),
                c.title.as_deref().unwrap_or("")
            );
        }
        for (f, e) in &load_errors {
            outln!("ERRORED {f}: {e}");
        }
        return malformed_exit(&load_errors);
    }
    if args.dump_json {
        let all: Vec<Value> = selected
            .iter()
            .map(|(_, c)| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect();
        match serde_json::to_string_pretty(&all) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        }
        return malformed_exit(&load_errors);
    }
    for (f, e) in &load_errors {
        outln!("ERRORED {f}\n    {e}");
    }
    let timeout = std::time::Duration::from_secs(args.program.timeout);
    let cmd = args.implementation.clone();
    if cmd.is_some() {
        stop_children_on_signal();
    }
    let engine = args.engine.engine();
    let make = move || -> Result<Box<dyn Oracle>, String> {
        match &cmd {
            None => Ok(Box::new(BuiltinOn(engine))),
            Some(c) => Ok(Box::new(External::with_timeout(c, timeout)?)),
        }
    };
    let make: &MakeOracle = &make;
    let pool = OraclePool::new(make);
    let Negotiated { declared, protocol } = if selected.is_empty() {
        Negotiated {
            declared: Declared::Nothing(String::new()),
            protocol: crate::conform::protocol::PROTOCOL,
        }
    } else {
        match pool.with(|o| negotiate(o)).and_then(|d| d) {
            Ok(d) => d,
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        }
    };
    if let (Declared::Nothing(said), Some(_)) = (&declared, &args.implementation) {
        if !selected.is_empty() {
            outln!(
                "note: the program declared no capabilities (it answered: {said}); every case is asked"
            );
        }
    }
    let workers = match thread_pool(args.spread.jobs as usize) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let pb = progress_bar(selected.len() as u64, "cases");
    let ran: Vec<Ran> = workers.install(|| {
        selected
            .par_iter()
            .map(|(_, c)| {
                let r = match outside(c, &declared) {
                    Some(why) => Ran {
                        run: CaseRun {
                            outcome: Outcome::Skipped(format!(
                                "outside the declared capabilities: {why}"
                            )),
                            skipped_checks: Vec::new(),
                        },
                        by_capability: true,
                    },
                    None => {
                        let declined: Vec<SkippedCheck> = match &declared {
                            Declared::Capabilities(caps) => c
                                .position
                                .rules
                                .resolve()
                                .map(|rules| caps.declined(&rules))
                                .unwrap_or_default(),
                            Declared::Nothing(_) => Vec::new(),
                        };
                        Ran {
                            run: pool
                                .with(|o| run_case_in(c, o, protocol, &declined))
                                .unwrap_or_else(|e| CaseRun {
                                    outcome: Outcome::Errored(e),
                                    skipped_checks: Vec::new(),
                                }),
                            by_capability: false,
                        }
                    }
                };
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    drop(pool);
    let records: Vec<Record> = selected
        .iter()
        .zip(ran)
        .map(|((f, c), r)| Record::of(f, c, r))
        .collect();
    if let Some(path) = &args.results {
        let header = ResultsHeader {
            format: RESULTS_FORMAT.to_string(),
            shard: args.spread.shard.map(|s| s.to_string()),
            cases: records.len(),
            load_errors: load_errors.clone(),
        };
        if let Err(e) = crate::cli::common::write_file(path, &results_text(&header, &records)) {
            errln!("error: {e}");
            return 2;
        }
    }
    let s = report(&records, load_errors.len());
    let (passed, failed, errored, skipped) = (s.passed, s.failed, s.errored, s.skipped);
    let skipped = skipped + s.checks_skipped;
    let tested = passed + failed + errored - load_errors.len();
    let mut code = if failed + errored > 0 { 1 } else { 0 };
    if !load_errors.is_empty() {
        // a case file that does not read is bad input, like any other: exit 2
        errln!("{}", malformed_cases(&load_errors));
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
            if selected.is_empty() {
                match (&args.id, &args.filter, &args.spread.shard) {
                    (Some(id), _, _) => format!("no case has the id `{id}`"),
                    (None, Some(f), _) => format!("no case cites a clause starting with `{f}`"),
                    (None, None, Some(_)) => "the shard holds no case".to_string(),
                    _ => format!("{dir} holds no case"),
                }
            } else {
                format!("all {} selected cases were skipped", selected.len())
            }
        );
        code = 1;
    } else if skipped > 0 && !args.program.allow_skips {
        errln!("{}", skipped_error(&s));
        code = 1;
    }
    code
}

/// `--merge FILES`: the results of the shards of one run (`--results`), read back and reported
/// as the whole run: every case's line, the summary, the exit status. The shards must be those
/// of one split (`K/N` for every K of one N, each once) and hold no case twice.
fn merge(files: &[String], program: &crate::cli::common::ProgramArgs) -> i32 {
    let mut records: Vec<Record> = Vec::new();
    let mut load_errors: Vec<(String, String)> = Vec::new();
    let mut shards: Vec<(String, Option<crate::conform::shard::Shard>)> = Vec::new();
    for f in files {
        let text = match crate::game::setup::read_text(f) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let header: ResultsHeader = match lines.next().map(|(_, l)| serde_json::from_str(l)) {
            Some(Ok(h)) => h,
            Some(Err(e)) => {
                errln!("error: {f}: line 1: not a results header ({e}): expected the first line `m3go conform --results` writes");
                return 2;
            }
            None => {
                errln!("error: {f}: empty: expected the results `m3go conform --results` writes");
                return 2;
            }
        };
        if header.format != RESULTS_FORMAT {
            errln!(
                "error: {f}: format `{}`: expected `{RESULTS_FORMAT}`",
                header.format
            );
            return 2;
        }
        let shard = match header
            .shard
            .as_deref()
            .map(crate::conform::shard::Shard::parse)
        {
            None => None,
            Some(Ok(s)) => Some(s),
            Some(Err(e)) => {
                errln!("error: {f}: shard: {e}");
                return 2;
            }
        };
        let mut n = 0;
        for (k, l) in lines {
            match serde_json::from_str::<Record>(l) {
                Ok(r) => records.push(r),
                Err(e) => {
                    errln!("error: {f}: line {}: not a case's result ({e})", k + 1);
                    return 2;
                }
            }
            n += 1;
        }
        if n != header.cases {
            errln!(
                "error: {f}: {n} case(s), the header says {}: the file is cut short",
                header.cases
            );
            return 2;
        }
        load_errors.extend(header.load_errors);
        shards.push((f.clone(), shard));
    }
    if let Err(e) = complete_split(&shards) {
        errln!("error: {e}");
        return 2;
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    if let Some(r) = records.iter().find(|r| !seen.insert(r.id.as_str())) {
        errln!(
            "error: case `{}` is in two of the files: expected the shards of one run",
            r.id
        );
        return 2;
    }
    let load_errors: Vec<(String, String)> = load_errors
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for (f, e) in &load_errors {
        outln!("ERRORED {f}\n    {e}");
    }
    records.sort_by(|a, b| a.file.cmp(&b.file).then(a.id.cmp(&b.id)));
    let s = report(&records, load_errors.len());
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

/// The files merged are the shards of one run: all whole runs (one file), or `K/N` for each K
/// of one N exactly once.
fn complete_split(shards: &[(String, Option<crate::conform::shard::Shard>)]) -> Result<(), String> {
    let whole: Vec<&str> = shards
        .iter()
        .filter(|(_, s)| s.is_none())
        .map(|(f, _)| f.as_str())
        .collect();
    if !whole.is_empty() {
        if shards.len() == 1 {
            return Ok(());
        }
        return Err(format!(
            "{} holds a whole run (no --shard), not a shard: expected the shards of one run",
            whole.join(", ")
        ));
    }
    let ns: BTreeSet<usize> = shards.iter().filter_map(|(_, s)| s.map(|s| s.n)).collect();
    if ns.len() > 1 {
        return Err(format!(
            "the files are shards of different splits (of {} parts): expected one split",
            ns.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let n = ns.into_iter().next().unwrap_or(0);
    let mut have: BTreeMap<usize, &str> = BTreeMap::new();
    for (f, s) in shards {
        if let Some(s) = s {
            if let Some(other) = have.insert(s.k, f) {
                return Err(format!("shard {s} is given twice ({other}, {f})"));
            }
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard(s) {} missing: expected the results of all {n} shards",
            missing.join(", ")
        ));
    }
    Ok(())
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
    let text = match crate::game::setup::read_text(rules_md) {
        Ok(t) => t,
        // outside a checkout, and not asked to write it: the register built into the binary
        Err(_) if !update && rules_md == "rules.md" && !std::path::Path::new(rules_md).exists() => {
            crate::conform::register::RULES_MD.to_string()
        }
        Err(e) => {
            errln!("error: {e}");
            return 2;
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
            errln!("error: {e}");
            return 2;
        }
    }
    if uncovered.is_empty() && load_errors.is_empty() {
        0
    } else {
        1
    }
}
