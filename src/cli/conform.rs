//! `m3go conform`: the conformance suite run against m3go or another program, the clause
//! coverage of rules.md, the cases as JSON. The runner is `crate::conform::runner`.

use crate::conform::case::Case;
use crate::conform::runner::{load_suite, run_case, Builtin, Coverage, External, Oracle, Outcome};
use serde_json::Value;

/// Run the conformance suite (default spec/cases).
///
/// Each case is put to the implementation under test (m3go itself, or with `--impl` another
/// program speaking the JSON-lines protocol m3go-conform/1, README.md); each failure prints the
/// case id, the file, the clauses and the expected-against-actual differences. The run closes
/// with `N passed, N failed, N errored, N skipped` and exits 1 on any failure or error. A crash,
/// a hang (60 s) or an unreadable answer counts as errored.
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
            eprintln!("error: {e}");
            return 2;
        }
    };
    let (cases, load_errors) = (suite.cases, suite.load_errors);
    if args.coverage || args.update_rules {
        return coverage(rules_md, &cases, args.update_rules, &load_errors);
    }
    if args.list {
        for (_, c) in &cases {
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
        return if load_errors.is_empty() { 0 } else { 1 };
    }
    if args.dump_json {
        let all: Vec<Value> = cases
            .iter()
            .map(|(_, c)| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect();
        match serde_json::to_string_pretty(&all) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
        return if load_errors.is_empty() { 0 } else { 1 };
    }
    let mut oracle: Box<dyn Oracle> = match &args.implementation {
        None => Box::new(Builtin),
        Some(cmd) => match External::spawn(cmd) {
            Ok(x) => Box::new(x),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
    };
    let (mut passed, mut failed, mut errored, mut skipped) = (0, 0, load_errors.len(), 0);
    for (f, e) in &load_errors {
        outln!("ERRORED {f}\n    {e}");
    }
    for (f, c) in &cases {
        if args.id.as_ref().is_some_and(|id| *id != c.id) {
            continue;
        }
        if args
            .filter
            .as_ref()
            .is_some_and(|cl| !c.clauses.iter().any(|x| x.starts_with(cl.as_str())))
        {
            continue;
        }
        match run_case(c, oracle.as_mut()) {
            Outcome::Passed => passed += 1,
            Outcome::Skipped(why) => {
                skipped += 1;
                outln!("SKIPPED {} ({f}): {why}", c.id);
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
    outln!("{passed} passed, {failed} failed, {errored} errored, {skipped} skipped");
    if failed + errored > 0 {
        1
    } else {
        0
    }
}

/// Prints the coverage (`crate::conform::runner::Coverage`) and, with `update`, writes it into
/// rules.md.
fn coverage(
    rules_md: &str,
    cases: &[(String, Case)],
    update: bool,
    load_errors: &[(String, String)],
) -> i32 {
    let text = match std::fs::read_to_string(rules_md) {
        Ok(t) => t,
        // outside a checkout, and not asked to write it: the register built into the binary
        Err(_) if !update && rules_md == "rules.md" && !std::path::Path::new(rules_md).exists() => {
            crate::conform::register::RULES_MD.to_string()
        }
        Err(e) => {
            eprintln!("error: {rules_md}: cannot read: {e}");
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
        if let Err(e) = std::fs::write(rules_md, out) {
            eprintln!("error: {rules_md}: cannot write: {e}");
            return 2;
        }
    }
    if uncovered.is_empty() && load_errors.is_empty() {
        0
    } else {
        1
    }
}
