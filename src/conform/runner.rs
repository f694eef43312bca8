//! The conformance runner: an implementation under test (`Oracle`: m3go itself or another
//! program driven through the JSON-lines protocol), one case run against it (`run_case`), the
//! suite loaded from a directory (`load_suite`) and the clause coverage of rules.md
//! (`Coverage`). The command line (`m3go conform`, `m3go diff`) only prints what these return.

use crate::conform::case::{case_files, check, clause_ids, is_clause_id, Case, Request};
use crate::game::setup::InputError;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};

/// Outcome of one case.
pub enum Outcome {
    Passed,
    Failed(Vec<String>),
    Errored(String),
    Skipped(String),
}

/// An implementation under test.
pub trait Oracle {
    fn ask(&mut self, request: &Value) -> Result<Value, String>;
}

/// m3go itself.
pub struct Builtin;

impl Oracle for Builtin {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let req: Request = serde_json::from_value(request.clone()).map_err(|e| e.to_string())?;
        Ok(crate::conform::case::answer(&req))
    }
}

/// Another program, driven through the JSON-lines protocol.
pub struct External {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl External {
    pub fn spawn(cmd: &str) -> Result<External, String> {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{cmd}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            child,
            stdin,
            lines: rx,
        })
    }
}

impl Oracle for External {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        writeln!(self.stdin, "{request}").map_err(|e| format!("cannot write the request: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("cannot write the request: {e}"))?;
        let line = self
            .lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .map_err(|_| "no answer within 60 s (the program crashed or hung)".to_string())?;
        serde_json::from_str(&line).map_err(|e| format!("the answer is not JSON: {e}"))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs one case against an oracle.
pub fn run_case(case: &Case, oracle: &mut dyn Oracle) -> Outcome {
    match oracle.ask(&case.request()) {
        Err(e) => Outcome::Errored(e),
        Ok(ans) => {
            if ans
                .get("unsupported")
                .is_some_and(|u| u.as_bool() == Some(true))
            {
                return Outcome::Skipped("the implementation does not support this case".into());
            }
            if ans.get("id").and_then(|v| v.as_str()) != Some(case.id.as_str()) {
                return Outcome::Errored(format!(
                    "the answer's id is {}, expected {}",
                    ans["id"], case.id
                ));
            }
            let d = check(case, &ans);
            if d.is_empty() {
                Outcome::Passed
            } else {
                Outcome::Failed(d)
            }
        }
    }
}

/// The case files of a directory, loaded: the cases that load (with their file) and, for each
/// file that does not, its error; a second case with an id already taken is a load error too.
pub struct Suite {
    pub cases: Vec<(String, Case)>,
    pub load_errors: Vec<(String, String)>,
}

/// Loads every case file under `dir`, checking each case's clauses against the clause ids of
/// `rules_md` when that file can be read. Only an unreadable directory is an error.
pub fn load_suite(dir: &str, rules_md: &str) -> Result<Suite, InputError> {
    let known: Option<BTreeSet<String>> = std::fs::read_to_string(rules_md)
        .ok()
        .map(|t| clause_ids(&t).into_iter().collect());
    let files = case_files(dir)?;
    let mut cases = Vec::new();
    let mut load_errors = Vec::new();
    for f in &files {
        match Case::load(f, known.as_ref()) {
            Ok(c) => cases.push((f.clone(), c)),
            Err(e) => load_errors.push((f.clone(), e.to_string())),
        }
    }
    let mut seen = BTreeMap::new();
    for (f, c) in &cases {
        if let Some(other) = seen.insert(c.id.clone(), f.clone()) {
            load_errors.push((
                f.clone(),
                format!("duplicate id `{}` (also in {other})", c.id),
            ));
        }
    }
    Ok(Suite { cases, load_errors })
}

/// The clause coverage of rules.md: for every clause id, the cases that cite it.
pub struct Coverage {
    /// The clause ids in the order rules.md lists them.
    pub ids: Vec<String>,
    /// For each clause id, the ids of the cases citing it (in the cases' order).
    pub by: BTreeMap<String, Vec<String>>,
}

impl Coverage {
    /// The coverage of the clauses of `rules_md` (the text of rules.md) by `cases`.
    pub fn new(rules_md: &str, cases: &[(String, Case)]) -> Coverage {
        let ids = clause_ids(rules_md);
        let mut by: BTreeMap<String, Vec<String>> =
            ids.iter().map(|i| (i.clone(), Vec::new())).collect();
        for (_, c) in cases {
            for cl in &c.clauses {
                if let Some(v) = by.get_mut(cl.as_str()) {
                    v.push(c.id.clone());
                }
            }
        }
        Coverage { ids, by }
    }

    /// The clause ids no case cites, in id order.
    pub fn uncovered(&self) -> Vec<&str> {
        self.by
            .iter()
            .filter(|(_, v)| v.is_empty())
            .map(|(k, _)| k.as_str())
            .collect()
    }

    /// The text of rules.md with the cases column (the second last) of every clause row set
    /// to the cases citing that clause (`—` for none).
    pub fn update_rules_md(&self, text: &str) -> String {
        let mut out = String::new();
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').collect();
            let id = cells
                .get(1)
                .map(|c| c.trim().trim_matches('`'))
                .unwrap_or("");
            if line.trim_start().starts_with('|') && is_clause_id(id) && cells.len() >= 8 {
                let list = self.by.get(id).map(|v| v.join(", ")).unwrap_or_default();
                let mut c: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
                let n = c.len();
                c[n - 2] = format!(" {} ", if list.is_empty() { "—".into() } else { list });
                out.push_str(&c.join("|"));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    }
}
