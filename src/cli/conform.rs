//! `m3go conform`: the conformance suite run against m3go or another program, the clause
//! coverage of rules.md, the cases as JSON. The runner is `crate::conform::runner`.

use crate::cli::common::{progress_bar, Format};
use crate::conform::case::Case;
use crate::conform::failure::ProgramFailure;
use crate::conform::results::{
    capabilities_hash, ids_hash, results_text, run_one, suite_hash, Ran, ResultRecord,
    ResultsHeader, Selection, RESULTS_FORMAT,
};
use crate::conform::runner::{
    load_suite, negotiate_in, stop_children_on_signal, thread_pool, BuiltinOn, Coverage, Declared,
    External, MakeOracle, Negotiated, Oracle, OraclePool,
};
use crate::conform::summary::{self, Summary};
use crate::conform::{coverage, merge};
use crate::outputs::Target;
use rayon::prelude::*;
use serde_json::Value;

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

/// Where the reports of a run go: `--junit`, `--format`, `--verbose`.
struct Reports {
    junit: Option<String>,
    json: bool,
    verbose: bool,
    /// `--junit` writes to standard output: the text report goes to standard error.
    text_to_stderr: bool,
    /// Skips fail the run (no `--allow-skips`), and nothing tested (no `--allow-empty`): the
    /// JUnit report shows them as failures.
    skips_fail: bool,
    empty_fails: bool,
}

/// Why the reports asked for cannot be written.
#[derive(Debug)]
enum ReportsError {
    /// An output names nothing m3go may write.
    Output(crate::errors::Error),
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
            let target = crate::outputs::decide(path).map_err(ReportsError::Output)?;
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
        crate::outputs::check_outputs(&paths, None).map_err(ReportsError::Output)?;
        Ok(Reports {
            junit: junit.clone(),
            json,
            verbose,
            text_to_stderr,
            skips_fail: false,
            empty_fails: false,
        })
    }

    /// A run that could not start or go on: its error said ([`crate::cli::fail_with`]) and,
    /// with `--junit`, written there as the report's `<error>`; the exit code, 2.
    fn fail(&self, code: crate::conform::outputs::ErrorCode, e: impl std::fmt::Display) -> i32 {
        if let Some(path) = &self.junit {
            let suite = crate::conform::junit::run_error("m3go-conform", &e.to_string());
            let written = crate::conform::junit::xml(&suite).map_err(|w| w.to_string());
            if let Err(w) = written
                .and_then(|x| crate::cli::common::write_file(path, &x).map_err(|w| w.to_string()))
            {
                errln!("error: --junit {path}: {w}");
            }
        }
        crate::cli::fail_with(code, e, 2)
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
        let s = summary::summarize(records, load_errors.len());
        if self.json {
            let v = summary::json_summary(records, load_errors, &s);
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
            let text = summary::text_report(records, load_errors, &s, self.verbose);
            if self.text_to_stderr {
                crate::cli::common::write_err(format_args!("{text}"));
            } else {
                out!("{text}");
            }
        }
        if let Some(path) = &self.junit {
            let mut suite = summary::junit_suite(records, load_errors, time, properties);
            if self.skips_fail {
                let why = "skipped, and skips fail the run (--allow-skips accepts them)";
                crate::conform::junit::skips_failing(&mut suite, why);
            }
            if self.empty_fails {
                let why = "nothing was tested, which fails the run (--allow-empty accepts it)";
                crate::conform::junit::nothing_failing(&mut suite, why);
            }
            let unwritable = |e: &dyn std::fmt::Display| {
                crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unwritable, e, 2)
            };
            let x = crate::conform::junit::xml(&suite).map_err(|e| unwritable(&e))?;
            crate::cli::common::write_file(path, &x).map_err(|e| unwritable(&e))?;
        }
        Ok(s)
    }
}

pub(crate) fn run(args: ConformArgs) -> i32 {
    let started = std::time::Instant::now();
    let mut reports = match Reports::of(&args.junit, &args.results, args.format, args.verbose) {
        Ok(r) => r,
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::BadInput, &e, 2);
        }
    };
    reports.skips_fail = !args.program.allow_skips;
    reports.empty_fails = !args.program.allow_empty;
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
        Err(e) => return reports.fail(crate::conform::outputs::ErrorCode::BadInput, &e),
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
    let Negotiated { declared, protocol } = match negotiated(&pool, selected.is_empty(), &reports) {
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
fn negotiated(pool: &OraclePool, nothing_selected: bool, r: &Reports) -> Result<Negotiated, i32> {
    if nothing_selected {
        return Ok(Negotiated {
            declared: Declared::Nothing(String::new()),
            protocol: crate::conform::protocol::PROTOCOL,
        });
    }
    negotiate_in(pool).map_err(|e| r.fail(crate::conform::outputs::ErrorCode::ProgramFailed, e))
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

/// The exit status of a run, its message on standard error ([`summary::run_exit`]).
fn exit_code(
    args: &ConformArgs,
    s: &Summary,
    load_errors: &[(String, String)],
    selected: usize,
    dir: &str,
) -> i32 {
    let scope = summary::RunScope {
        allow_empty: args.program.allow_empty,
        allow_skips: args.program.allow_skips,
        id: args.id.as_deref(),
        filter: args.filter.as_deref(),
        sharded: args.spread.shard.is_some(),
        dir,
        selected,
    };
    said(summary::run_exit(s, load_errors, &scope))
}

/// The exit code, its message (if any) said on standard error.
fn said(exit: summary::Exit) -> i32 {
    if let Some(m) = exit.message {
        errln!("{m}");
    }
    exit.code
}

/// `--merge FILES`: the results of the shards of one run (`--results`), read back
/// ([`merge::merged`]: one selection, one split, each case once) and reported as the whole run:
/// every case's line, the summary, the exit status.
fn merge(files: &[String], program: &crate::cli::common::ProgramArgs, reports: &Reports) -> i32 {
    let (records, load_errors) = match merge::merged(files) {
        Ok(r) => r,
        Err(e) => return reports.fail(crate::conform::outputs::ErrorCode::BadInput, &e),
    };
    let properties = vec![("merged".to_string(), files.join(" "))];
    let s = match reports.finish(&records, &load_errors, None, properties) {
        Ok(s) => s,
        Err(code) => return code,
    };
    said(summary::merge_exit(
        &s,
        &load_errors,
        program.allow_empty,
        program.allow_skips,
    ))
}

/// Exit 0, or 2 with [`malformed_cases`] when a case file did not read.
fn malformed_exit(load_errors: &[(String, String)]) -> i32 {
    if load_errors.is_empty() {
        return 0;
    }
    errln!("{}", summary::malformed_cases(load_errors));
    2
}

/// Prints the coverage ([`coverage::report`]) and, with `update`, writes it into rules.md.
fn coverage(
    rules_md: &str,
    cases: &[(String, Case)],
    update: bool,
    load_errors: &[(String, String)],
) -> i32 {
    let text = match coverage::register_text(rules_md, update) {
        Ok(t) => t,
        Err(e) => {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unreadable, &e, 2);
        }
    };
    let cov = Coverage::new(&text, cases);
    out!("{}", coverage::report(&cov, load_errors));
    if update {
        let out = cov.update_rules_md(&text);
        if let Err(e) = crate::cli::common::write_file(rules_md, &out) {
            return crate::cli::fail_with(crate::conform::outputs::ErrorCode::Unwritable, &e, 2);
        }
    }
    if cov.uncovered().is_empty() && load_errors.is_empty() {
        0
    } else {
        1
    }
}
