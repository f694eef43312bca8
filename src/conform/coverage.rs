//! `m3go conform --coverage`: the clause register it reads (rules.md, or the register built into
//! the binary) and the report of which cases cite each clause ([`Coverage`], computed by the
//! runner).

use crate::conform::runner::Coverage;
use m3go_engine::InputError;
use std::fmt::Write;

/// The text of the clause register `rules_md`; outside a checkout, and not asked to write it
/// (`update`), the register built into the binary.
pub(crate) fn register_text(rules_md: &str, update: bool) -> Result<String, InputError> {
    match crate::input::read_text(rules_md) {
        Ok(t) => Ok(t),
        Err(_) if !update && rules_md == "rules.md" && !std::path::Path::new(rules_md).exists() => {
            Ok(crate::conform::register::RULES_MD.to_string())
        }
        Err(e) => Err(e),
    }
}

/// The coverage report: each clause with the cases citing it (or `UNCOVERED`), the case files
/// that did not read, then the count of clauses covered and the clauses uncovered.
pub(crate) fn report(cov: &Coverage, load_errors: &[(String, String)]) -> String {
    let mut o = String::new();
    let (ids, by) = (&cov.ids, &cov.by);
    let uncovered = cov.uncovered();
    for id in ids {
        let v = by.get(id.as_str()).map(Vec::as_slice).unwrap_or_default();
        let _ = writeln!(
            o,
            "{id}: {}",
            if v.is_empty() {
                "UNCOVERED".to_string()
            } else {
                v.join(", ")
            }
        );
    }
    for (f, e) in load_errors {
        let _ = writeln!(o, "ERRORED {f}: {e}");
    }
    let covered = ids.len() - uncovered.len();
    let _ = writeln!(
        o,
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
    o
}
