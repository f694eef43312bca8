//! The clause register and the disputed-points register, inside the binary: rules.md is embedded
//! (`include_str!`) and parsed here, so `m3go clause ID` and the conformance tools cite the
//! clause text without a checkout.
//!
//! A clause is a row of one of rules.md's clause tables (`| id | seed | kind | quote | reading |
//! function | cases |`); a disputed point is a `### Dn Title` section of the disputed-points
//! register, cut into its bold-labelled parts (`**Question.**`, `**Readings.**`,
//! `**Evidence.**`, `**Default.**`, `**Option.**`, and any other `**Label.**`).

use super::clause_id::{cited, is_clause_id, words};
use serde::Serialize;

/// The text of rules.md, as it was when the binary was built.
pub(crate) const RULES_MD: &str = include_str!("../../rules.md");

/// The four source documents (`/work/shared/seeds/`), by the number the register's **seed**
/// column gives, with their file names as a case's `source.seed` writes them.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const SEED_FILES: [(&str, &str); 4] = [
    ("000", "000_2c6147746ff1d7d0.txt"),
    ("001", "001_6f8ac0bfab7cc237.txt"),
    ("003", "003_c678549056cd21c6.txt"),
    ("004", "004_86279b778078f81e.txt"),
];

/// The file name of the source document numbered `seed` (`003`).
pub(crate) fn seed_file(seed: &str) -> Option<&'static str> {
    SEED_FILES
        .iter()
        .find(|(n, _)| *n == seed.trim())
        .map(|(_, f)| *f)
}

/// One clause of the register: a row of a clause table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Clause {
    /// The stable id (`M20-EYE-SIM`).
    pub id: String,
    /// The source document's number (`003`).
    pub seed: String,
    /// `normative`, `example`, `background` or `narrative`.
    pub kind: String,
    /// An exact substring of the seed.
    pub quote: String,
    /// How m3go reads the clause.
    pub reading: String,
    /// The function(s) that implement it, as rules.md writes them (backquoted paths).
    pub function: String,
    /// The conformance cases that cite the clause.
    pub cases: Vec<String>,
    /// The heading of the table the row is in (`003 — M3Go rules, 2020 edition (M20)`).
    pub document: String,
    /// The disputed points (`D2`, …) the reading refers to.
    pub disputed: Vec<String>,
    /// The row's line number in rules.md (1-based).
    pub line: usize,
}

/// One entry of the disputed-points register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Disputed {
    /// `D1` … `D29`.
    pub id: String,
    /// The heading after the id (`What is a closed region (封闭区域)?`).
    pub title: String,
    /// The `**Question.**` part (empty if the entry has none).
    pub question: String,
    /// The `**Readings.**` part (also `**Readings (adopted).**` and `**Reading.**`).
    pub readings: String,
    /// The `**Evidence.**` part.
    pub evidence: String,
    /// The `**Default.**` part: the reading m3go follows.
    pub default: String,
    /// The `**Option.**` part: the rule option that selects another reading, or why there is
    /// none (also `**Options.**`).
    pub option: String,
    /// Every other labelled part, in order: (label without the final dot, text).
    pub other: Vec<(String, String)>,
    /// The clause ids the entry cites.
    pub clauses: Vec<String>,
    /// The heading's line number in rules.md (1-based).
    pub line: usize,
}

/// Every clause of the embedded rules.md, in the order it lists them.
pub fn clauses() -> Vec<Clause> {
    register().to_vec()
}

/// The embedded register, parsed once (a server's `analyze` and `play` cite a few clauses per
/// request; each lookup used to parse rules.md again).
fn register() -> &'static [Clause] {
    static REGISTER: std::sync::OnceLock<Vec<Clause>> = std::sync::OnceLock::new();
    REGISTER.get_or_init(|| parse_clauses(RULES_MD))
}

/// The clause with this id, if the register has it.
pub fn clause(id: &str) -> Option<Clause> {
    register().iter().find(|c| c.id == id).cloned()
}

/// Every entry of the embedded disputed-points register, in order.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn disputed_points() -> Vec<Disputed> {
    parse_disputed(RULES_MD)
}

/// The disputed point with this id (`D29`), if the register has it.
pub(crate) fn disputed(id: &str) -> Option<Disputed> {
    disputed_points().into_iter().find(|d| d.id == id)
}

/// The clauses of a rules.md text (see the module documentation).
pub(crate) fn parse_clauses(md: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut document = String::new();
    let mut in_register = false;
    for (n, line) in md.lines().enumerate() {
        if let Some(h) = line.strip_prefix("## ") {
            in_register = h.trim() == "Clause register";
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            document = h.trim().to_string();
            continue;
        }
        if !in_register || !line.trim_start().starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim().split('|').collect();
        // "", id, seed, kind, quote, reading…, function, cases, ""
        if cells.len() < 9 {
            continue;
        }
        let id = cells[1].trim().trim_matches('`');
        if !is_clause_id(id) || out.iter().any(|c| c.id == id) {
            continue;
        }
        let k = cells.len();
        let reading = cells[5..k - 3].join("|").trim().to_string();
        let cases = cells[k - 2]
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty() && *c != "—")
            .map(str::to_string)
            .collect();
        out.push(Clause {
            id: id.to_string(),
            seed: cells[2].trim().to_string(),
            kind: cells[3].trim().to_string(),
            quote: cells[4].trim().to_string(),
            disputed: disputed_ids(&reading),
            reading,
            function: cells[k - 3].trim().to_string(),
            cases,
            document: document.clone(),
            line: n + 1,
        });
    }
    out
}

/// The disputed points of a rules.md text (see the module documentation).
pub(crate) fn parse_disputed(md: &str) -> Vec<Disputed> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String, String, String)> = None;
    let mut in_register = false;
    let finish = |c: Option<(usize, String, String, String)>, out: &mut Vec<Disputed>| {
        if let Some((line, id, title, body)) = c {
            out.push(disputed_entry(line, id, title, &body));
        }
    };
    for (n, line) in md.lines().enumerate() {
        if let Some(h) = line.strip_prefix("## ") {
            finish(current.take(), &mut out);
            in_register = h.trim() == "Disputed-points register";
            continue;
        }
        if !in_register {
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            finish(current.take(), &mut out);
            let (id, title) = h.trim().split_once(' ').unwrap_or((h.trim(), ""));
            if is_disputed_id(id) {
                current = Some((
                    n + 1,
                    id.to_string(),
                    title.trim().to_string(),
                    String::new(),
                ));
            }
            continue;
        }
        if let Some((_, _, _, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    finish(current, &mut out);
    out
}

/// `D` followed by digits: a disputed point's id (`D3`, never `D3-…`, a Dullstone clause).
pub(crate) fn is_disputed_id(s: &str) -> bool {
    s.len() > 1 && s.starts_with('D') && s[1..].chars().all(|c| c.is_ascii_digit())
}

/// The entry's labelled parts: `**Label.**` opens a part that runs to the next label.
fn disputed_entry(line: usize, id: String, title: String, body: &str) -> Disputed {
    let mut d = Disputed {
        id,
        title,
        question: String::new(),
        readings: String::new(),
        evidence: String::new(),
        default: String::new(),
        option: String::new(),
        other: Vec::new(),
        clauses: cited(body),
        line,
    };
    for (label, text) in labelled_parts(body) {
        let slot = match label.as_str() {
            "Question" => &mut d.question,
            "Readings" | "Readings (adopted)" | "Reading" => &mut d.readings,
            "Evidence" => &mut d.evidence,
            "Default" => &mut d.default,
            "Option" | "Options" => &mut d.option,
            _ => {
                d.other.push((label, text));
                continue;
            }
        };
        if !slot.is_empty() {
            slot.push_str("\n\n");
        }
        slot.push_str(&text);
    }
    d
}

/// The parts of `body` opened by `**Label.**` markers (a bold run ending in a full stop); text
/// before the first marker is dropped (the register's entries start with one).
fn labelled_parts(body: &str) -> Vec<(String, String)> {
    let mut marks: Vec<(usize, usize, String)> = Vec::new(); // start, end, label
    let mut from = 0;
    while let Some(s) = body[from..].find("**") {
        let start = from + s;
        let Some(e) = body[start + 2..].find("**") else {
            break;
        };
        let inner = &body[start + 2..start + 2 + e];
        let end = start + 2 + e + 2;
        let opens_part = start == 0
            || body[..start].ends_with('\n')
            || body[..start].ends_with(". ")
            || body[..start].ends_with(".) ");
        if opens_part && inner.ends_with('.') && !inner.contains('\n') {
            marks.push((start, end, inner.trim_end_matches('.').to_string()));
            from = end;
        } else {
            from = end;
        }
    }
    let mut out = Vec::new();
    for (i, (_, end, label)) in marks.iter().enumerate() {
        let stop = marks.get(i + 1).map(|m| m.0).unwrap_or(body.len());
        out.push((label.clone(), body[*end..stop].trim().to_string()));
    }
    out
}

/// The disputed-point ids (`D7`) a text names as whole words, in order, once each.
fn disputed_ids(text: &str) -> Vec<String> {
    words(text)
        .filter(|w| is_disputed_id(w))
        .fold(Vec::new(), |mut v, w| {
            if !v.iter().any(|x: &String| x == w) {
                v.push(w.to_string());
            }
            v
        })
}

/// The register ids closest to `id` (same prefix first, then by edit distance), for the message
/// about an unknown id.
pub(crate) fn closest(id: &str) -> Vec<String> {
    let up = id.to_ascii_uppercase();
    let mut all: Vec<String> = clauses().into_iter().map(|c| c.id).collect();
    all.extend(disputed_points().into_iter().map(|d| d.id));
    if all.contains(&up) {
        return vec![up];
    }
    let mut scored: Vec<(usize, String)> = all
        .into_iter()
        .map(|c| (distance(&up, &c), c))
        .filter(|(d, c)| *d <= 3 || c.starts_with(&up))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance of two short ASCII-ish strings.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The disputed-points register as (id, the entry's **Option.** text) pairs: the `register`
/// argument of [`crate::tools::readings::readings`] (for naming the entries of each option,
/// [`crate::tools::readings::entries_of`]), the same for the command line and the page.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn option_entries() -> Vec<(String, String)> {
    disputed_points()
        .into_iter()
        .map(|d| (d.id, d.option))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_clause_id_of_rules_md_is_in_the_register_once() {
        let ids: Vec<String> = clauses().into_iter().map(|c| c.id).collect();
        assert_eq!(ids, super::super::clause_id::clause_ids(RULES_MD));
        assert!(ids.len() > 100, "{} clauses", ids.len());
    }

    #[test]
    fn the_register_parsed_once_is_rules_md_parsed_now() {
        let parsed = parse_clauses(RULES_MD);
        assert_eq!(clauses(), parsed);
        for c in &parsed {
            assert_eq!(clause(&c.id).as_ref(), Some(c));
        }
        assert_eq!(clause("NO-SUCH-CLAUSE"), None);
    }

    #[test]
    fn a_clause_has_its_columns() {
        let c = clause("M20-EYE-SIM").expect("M20-EYE-SIM is registered");
        assert_eq!(c.seed, "003");
        assert_eq!(c.kind, "normative");
        assert!(c.quote.contains("连续补充"), "{}", c.quote);
        assert!(c.function.contains("::"), "{}", c.function);
        assert!(!c.cases.is_empty());
        assert!(c.document.starts_with("003"), "{}", c.document);
        assert!(RULES_MD
            .lines()
            .nth(c.line - 1)
            .unwrap()
            .contains("M20-EYE-SIM"));
    }

    #[test]
    fn every_clause_has_seed_kind_quote_reading_and_function() {
        for c in clauses() {
            assert!(
                ["000", "001", "003", "004"].contains(&c.seed.as_str()),
                "{}: seed {}",
                c.id,
                c.seed
            );
            assert!(
                ["normative", "example", "background", "narrative"].contains(&c.kind.as_str()),
                "{}: kind {}",
                c.id,
                c.kind
            );
            assert!(!c.quote.is_empty() && !c.reading.is_empty(), "{}", c.id);
        }
    }

    #[test]
    fn disputed_points_have_their_parts() {
        let all = disputed_points();
        assert!(all.len() >= 28, "{} entries", all.len());
        let d1 = disputed("D1").expect("D1");
        assert!(d1.title.starts_with("What is a closed region"));
        assert!(d1.question.starts_with("For a private eye"));
        assert!(d1.readings.contains("single-string"));
        assert!(d1.evidence.contains("fig. 4"));
        assert!(d1.default.contains("Reading 1"), "{}", d1.default);
        assert!(d1.option.contains("closed-region"), "{}", d1.option);
        assert!(d1.clauses.contains(&"M20-EYE-REGION".to_string()));
        let d29 = disputed("D29").expect("D29");
        assert!(d29.option.contains("tigers-mouth"), "{}", d29.option);
        assert!(d29.default.contains("Reading 1"));
        for d in &all {
            assert!(
                !d.default.is_empty() || !d.other.is_empty(),
                "{}: no default",
                d.id
            );
        }
        assert!(disputed("D3-FOO").is_none() && disputed("D99").is_none());
    }

    #[test]
    fn unknown_ids_suggest_close_ones() {
        assert!(clause("M20-EYE-SIMX").is_none());
        assert!(closest("M20-EYE-SIMX").contains(&"M20-EYE-SIM".to_string()));
        assert_eq!(closest("m20-eye-sim"), vec!["M20-EYE-SIM".to_string()]);
    }
}
