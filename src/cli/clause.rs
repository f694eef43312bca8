//! `m3go clause ID`: a clause of the register (or a disputed point) from the rules.md embedded in
//! the binary (`crate::conform::register`).

use super::common::Format;
use crate::conform::outputs::{ClauseReport, CLAUSE_FORMAT};
use crate::conform::register::{self, Clause, Disputed};
use m3go_engine::InputError;

/// Print a clause of the register: its quote, seed, reading, function and cases.
///
/// ID is a clause id of rules.md (`M20-EYE-SIM`; case does not matter) or a disputed point
/// (`D29`: its question, readings, default and option). `--list` lists every id with its quote.
/// The register is the rules.md the binary was built with, so this works without a checkout.
#[derive(Debug, clap::Args)]
pub struct ClauseArgs {
    /// A clause id (M20-EYE-SIM) or a disputed point (D29).
    #[arg(value_name = "ID", required_unless_present = "list")]
    pub id: Option<String>,
    /// List every clause and disputed point, one a line.
    #[arg(long)]
    pub list: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: ClauseArgs) -> Result<(), InputError> {
    if args.list {
        return list(args.format);
    }
    let raw = args.id.unwrap_or_default();
    let id = raw.trim().to_ascii_uppercase();
    if let Some(c) = register::clause(&id) {
        match args.format {
            Format::Json => outln!(
                "{}",
                json(&ClauseReport::Clause {
                    format: CLAUSE_FORMAT.to_string(),
                    clause: c
                })?
            ),
            Format::Text => out!("{}", clause_text(&c)),
        }
        return Ok(());
    }
    if let Some(d) = register::disputed(&id) {
        match args.format {
            Format::Json => outln!(
                "{}",
                json(&ClauseReport::Disputed {
                    format: CLAUSE_FORMAT.to_string(),
                    disputed: d
                })?
            ),
            Format::Text => out!("{}", disputed_text(&d)),
        }
        return Ok(());
    }
    let near = register::closest(&id);
    let hint = if near.is_empty() {
        String::new()
    } else {
        format!(" (closest: {})", near.join(", "))
    };
    Err(InputError::new(format!("`{raw}` is not in the register{hint}"))
        .key("ID")
        .expected("a clause id of rules.md (M20-EYE-SIM) or a disputed point (D1 … D29); `m3go clause --list` lists them"))
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, InputError> {
    serde_json::to_string_pretty(v).map_err(InputError::internal)
}

fn list(format: Format) -> Result<(), InputError> {
    let clauses = register::clauses();
    let disputed = register::disputed_points();
    match format {
        Format::Json => {
            let v = ClauseReport::List {
                format: CLAUSE_FORMAT.to_string(),
                clauses,
                disputed,
            };
            outln!("{}", json(&v)?);
        }
        Format::Text => {
            for c in &clauses {
                outln!("{:<24} {} {:<10} {}", c.id, c.seed, c.kind, c.quote);
            }
            for d in &disputed {
                outln!("{:<24} {}", d.id, d.title);
            }
        }
    }
    Ok(())
}

/// A clause as text: the id and where it stands, then each column on its own paragraph.
pub fn clause_text(c: &Clause) -> String {
    let mut s = format!(
        "{} ({}, seed {}; rules.md line {})\n",
        c.id, c.kind, c.seed, c.line
    );
    s.push_str(&format!("  document: {}\n", c.document));
    s.push_str(&format!("  quote:    「{}」\n", c.quote));
    s.push_str(&format!("  reading:  {}\n", c.reading));
    s.push_str(&format!("  function: {}\n", c.function.replace('`', "")));
    let cases = if c.cases.is_empty() {
        "—".to_string()
    } else {
        c.cases.join(", ")
    };
    s.push_str(&format!("  cases:    {cases}\n"));
    if !c.disputed.is_empty() {
        s.push_str(&format!(
            "  disputed: {} (m3go clause {})\n",
            c.disputed.join(", "),
            c.disputed[0]
        ));
    }
    s
}

/// A disputed point as text: the heading, then its labelled parts.
pub fn disputed_text(d: &Disputed) -> String {
    let mut s = format!("{} {} (rules.md line {})\n", d.id, d.title, d.line);
    let parts = [
        ("question", &d.question),
        ("readings", &d.readings),
        ("evidence", &d.evidence),
        ("default", &d.default),
        ("option", &d.option),
    ];
    for (label, text) in parts {
        if !text.is_empty() {
            s.push_str(&format!("\n{label}:\n{}\n", indent(text)));
        }
    }
    for (label, text) in &d.other {
        s.push_str(&format!("\n{}:\n{}\n", label.to_lowercase(), indent(text)));
    }
    if !d.clauses.is_empty() {
        s.push_str(&format!("\nclauses: {}\n", d.clauses.join(", ")));
    }
    s
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
