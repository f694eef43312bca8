//! `m3go conform`: the conformance suite run against m3go or another program, the clause
//! coverage of rules.md, the cases as JSON. The runner is `crate::conform::runner`.

use crate::cli::common::progress_bar;
use crate::conform::case::Case;
use crate::conform::runner::{
    load_suite, negotiate, outside, run_case, stop_children_on_signal, thread_pool, BuiltinOn,
    Coverage, Declared, External, MakeOracle, Oracle, OraclePool, Outcome,
};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// Run the conformance suite (default spec/cases).
///
/// Each case is put to the implementation under test (m3go itself, or with `--impl` another
/// program speaking the JSON-lines protocol m3go-conform/1, README.md). The program is first
/// asked for its capabilities; a case outside them (a preset or option value it does not
/// declare) is skipped, with the reason. Each failure prints the case id, the file, the clauses
/// and the expected-against-actual differences. The run closes with
/// `N passed, N failed, N errored, N skipped`. A program that crashes, hangs (past --timeout)
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
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// A case's outcome, and whether a skip came from the declared capabilities.
struct Ran {
    outcome: Outcome,
    by_capability: bool,
}

pub fn run(args: ConformArgs) -> i32 {
    let dir = &args
        .dir
        .clone()
        .unwrap_or_else(crate::conform::case::default_cases_dir);
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
    let declared = if selected.is_empty() {
        Declared::Nothing(String::new())
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
                        outcome: Outcome::Skipped(format!(
                            "outside the declared capabilities: {why}"
                        )),
                        by_capability: true,
                    },
                    None => Ran {
                        outcome: pool
                            .with(|o| run_case(c, o))
                            .unwrap_or_else(Outcome::Errored),
                        by_capability: false,
                    },
                };
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    drop(pool);
    let (mut passed, mut failed, mut errored, mut skipped) = (0, 0, load_errors.len(), 0);
    let mut skip_reasons: BTreeMap<(bool, String), usize> = BTreeMap::new();
    for ((f, c), r) in selected.iter().zip(ran) {
        match r.outcome {
            Outcome::Passed => passed += 1,
            Outcome::Skipped(why) => {
                skipped += 1;
                outln!("SKIPPED {} ({f}): {why}", c.id);
                *skip_reasons.entry((r.by_capability, why)).or_default() += 1;
            }
            Outcome::Errored(e) => {
                errored += 1;
                outln!("ERRORED {} ({f}) [{}]\n    {e}", c.id, c.clauses.join(", "));
            }
            Outcome::Failed(d) => {
                failed += 1;
                outln!("FAILED {} ({f}) [{}]", c.id, c.clauses.join(", "));
                for x in d {
                    outln!("    - {}", x.replace('\n', "\n      "));
                }
            }
        }
    }
    if skipped > 0 {
        let by_cap: usize = skip_reasons
            .iter()
            .filter(|((c, _), _)| *c)
            .map(|(_, n)| n)
            .sum();
        outln!(
            "skipped: {by_cap} by capability, {} answered unsupported",
            skipped - by_cap
        );
        for ((_, why), n) in &skip_reasons {
            outln!("    {n} × {why}");
        }
    }
    outln!("{passed} passed, {failed} failed, {errored} errored, {skipped} skipped");
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
        errln!("error: {skipped} case(s) skipped: exit 1 (--allow-skips accepts skipped cases)");
        code = 1;
    }
    code
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
