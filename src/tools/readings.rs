//! "Which reading decides this?": a position (and optionally a move) judged under every value of
//! every enumerated rule option, one option changed at a time from the position's own rules, and
//! the verdicts that change under each value — private eyes, flower attributes, forbidden points,
//! the legal moves, the legality of the move, the score and the winner — with the entries of the
//! disputed-points register that the option selects between.
//!
//! The verdicts are read from the same [`AnalysisReport`] that `m3go analyze` prints and the move
//! is played with the same [`Position::play`] that `m3go play` uses: no second analysis.

use m3go_engine::formats::explain::Trace;
use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::game::Text;
use m3go_engine::{text, InputError, Labels, Move, Position, Rules};
use serde::Serialize;
use std::collections::BTreeMap;

/// The changes of one reading listed in the text form; JSON lists all.
const TEXT_CHANGES: usize = 12;

/// Version of the JSON written by `--readings`.
pub(crate) const READINGS_FORMAT: &str = "m3go-readings/1";

/// The verdicts of one position (and move) under one rule set, each keyed by its subject so that
/// two rule sets compare subject by subject. Values are short words (`private eye`, `white`,
/// `capture-point`, `legal`); subjects and values name their points typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Verdicts {
    /// Per kind of verdict (see [`KINDS`]), the subject's text in the Chinese system (the order
    /// the subjects are listed in) → the subject and the verdict.
    pub by_kind: BTreeMap<&'static str, BTreeMap<String, (Text, Text)>>,
    /// Set when the position is not valid under these rules (the board is not settled there).
    pub invalid: Option<Text>,
}

/// The kinds of verdict compared, in the order they are listed.
pub const KINDS: [&str; 8] = [
    "to-move",
    "private-eye",
    "attribute",
    "forbidden",
    "legal-move",
    "move",
    "score",
    "winner",
];

impl Verdicts {
    /// The verdicts of `pos`, and of `mv` played on it (the legal moves listed on the
    /// position's engine).
    pub fn of(pos: &Position, mv: Option<&Move>) -> Verdicts {
        let r = AnalysisReport::new(pos);
        let mut v = Verdicts::default();
        let mut put = |kind: &'static str, subject: Text, verdict: Text| {
            v.by_kind
                .entry(kind)
                .or_default()
                .insert(subject.to_string(), (subject, verdict));
        };
        for s in &r.strings {
            for e in &s.private_eyes {
                put(
                    "private-eye",
                    text!(
                        s.colour.name(),
                        " ",
                        Text::join(e.points.iter().copied(), " ")
                    ),
                    text!("private eye of ", s.name),
                );
            }
        }
        for f in &r.flowers {
            put("attribute", text!(f.name), f.attribute.name().into());
        }
        for (player, list) in [("black", &r.forbidden.black), ("white", &r.forbidden.white)] {
            for f in list {
                put(
                    "forbidden",
                    text!(f.point, " to ", player, "'s flower"),
                    format!("{} ({})", f.reason, f.clause).into(),
                );
            }
        }
        let kind = serde_json::to_value(r.to_move.kind)
            .ok()
            .and_then(|k| k.as_str().map(str::to_string))
            .unwrap_or_default();
        put(
            "to-move",
            "the side to move".into(),
            format!(
                "{}{} ({}, {kind})",
                r.to_move.symbol,
                r.move_number,
                r.to_move.player.name()
            )
            .into(),
        );
        // keyed by the point (or pass), so that a reading that changes the side to move lists the
        // points whose legality changes, not every move renamed
        for m in &r.legal_moves {
            put("legal-move", text!(m.action), "legal".into());
        }
        if let Some(mv) = mv {
            let verdict = match pos.play_reported(mv) {
                Ok((_, rep)) => {
                    let mut t = text!("legal: ", rep.notation);
                    if !rep.captured.is_empty() {
                        t.push(", captures ")
                            .push(Text::join(rep.captured.iter().copied(), " "));
                    }
                    for c in &rep.attribute_changes {
                        t.push(text!(
                            ", ",
                            c.string,
                            " ",
                            c.from.name(),
                            " -> ",
                            c.to.name()
                        ));
                    }
                    t
                }
                Err(e) => format!("refused: {} ({})", e.reason.code(), e.clause).into(),
            };
            put("move", "the move".into(), verdict);
        }
        match (&r.score, &r.score_error) {
            (Some(s), _) => {
                put(
                    "score",
                    "area".into(),
                    format!(
                        "black {} white {} neutral {} (komi {})",
                        s.black,
                        s.white,
                        s.neutral,
                        s.komi_quarters.points()
                    )
                    .into(),
                );
                put("winner", "winner".into(), s.winner.to_string().into());
            }
            (None, Some(e)) => put("score", "area".into(), format!("not scored: {e}").into()),
            (None, None) => {}
        }
        v
    }

    /// The verdicts that differ from `base`'s, kind by kind, subject by subject.
    pub fn changes_from(&self, base: &Verdicts) -> Vec<VerdictChange> {
        let mut out = Vec::new();
        if self.invalid != base.invalid {
            let valid = |v: &Option<Text>| v.clone().unwrap_or_else(|| Text::from("valid"));
            out.push(VerdictChange {
                kind: "position",
                subject: "the position".into(),
                base: valid(&base.invalid),
                reading: valid(&self.invalid),
            });
        }
        if self.invalid.is_some() || base.invalid.is_some() {
            return out;
        }
        let empty = BTreeMap::new();
        for kind in KINDS {
            let a = base.by_kind.get(kind).unwrap_or(&empty);
            let b = self.by_kind.get(kind).unwrap_or(&empty);
            let mut subjects: Vec<&String> = a.keys().chain(b.keys()).collect();
            subjects.sort();
            subjects.dedup();
            for s in subjects {
                let (x, y) = (a.get(s), b.get(s));
                if x.map(|v| &v.1) != y.map(|v| &v.1) {
                    let Some((subject, _)) = x.or(y) else {
                        continue;
                    };
                    let verdict = |v: Option<&(Text, Text)>| {
                        v.map_or_else(|| none_word(kind).into(), |(_, t)| t.clone())
                    };
                    out.push(VerdictChange {
                        kind,
                        subject: subject.clone(),
                        base: verdict(x),
                        reading: verdict(y),
                    });
                }
            }
        }
        out
    }
}

/// What the absence of a verdict of `kind` means.
fn none_word(kind: &str) -> &'static str {
    match kind {
        "private-eye" => "no private eye",
        "forbidden" => "allowed",
        "legal-move" => "not legal",
        _ => "none",
    }
}

/// One verdict that differs between the position's rules and a reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct VerdictChange {
    /// One of [`KINDS`], or `position` when the position is not valid under one of the two.
    pub kind: &'static str,
    /// What the verdict is about: a region's points, a flower string, a point and a player, a
    /// legal move, `the move`, `area`, `winner`.
    pub subject: Text,
    /// The verdict under the position's rules.
    pub base: Text,
    /// The verdict under the reading.
    pub reading: Text,
}

/// One rule option set to one value other than the position's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Reading {
    /// The option's YAML key (`tigers-mouth`).
    pub option: &'static str,
    /// The position's value of it.
    pub base_value: String,
    /// The value tried.
    pub value: String,
    /// The disputed-points register entries that the option selects between (`D29`).
    pub register: Vec<String>,
    /// The verdicts that change; empty if none does.
    pub changes: Vec<VerdictChange>,
    /// The clause trace of the target under this reading, when it differs from the trace under
    /// the position's rules (`explain --readings`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Text>,
}

/// The readings of a position: every enumerated option at every other value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Readings {
    /// `m3go-readings/1`.
    #[schemars(extend("const" = READINGS_FORMAT))]
    pub format: &'static str,
    /// The position's rules, from which one option at a time is changed.
    pub rules: Rules,
    /// The target explained (a point, a string or a move), if one was given; a move is judged
    /// too (its legality and captures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Text>,
    /// Every reading tried, in the order of the options table.
    pub readings: Vec<Reading>,
    /// The options not varied (numeric: komi, seeds, counts) with why.
    pub not_varied: Vec<NotVaried>,
}

/// An option `--readings` does not vary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct NotVaried {
    pub option: &'static str,
    pub why: &'static str,
}

/// The values of an enumerated option from its `values` text in [`Rules::OPTIONS`]
/// (`stones | upper-layer | none (true = stones, false = none)` → stones, upper-layer, none);
/// `None` for a numeric option (`points, multiple of 0.25`, `integer`, `0..10000`).
pub(crate) fn enumerated_values(values: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = values
        .split('|')
        .map(|v| v.split_whitespace().next().unwrap_or(""))
        .collect();
    let is_word = |w: &&str| {
        w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    (words.len() >= 2 && words.iter().all(is_word)).then_some(words)
}

/// The register entries an option's meaning names (`… (D7, D9)` → D7, D9).
pub(crate) fn register_entries(meaning: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = meaning.as_bytes();
    for (k, w) in meaning.char_indices() {
        if w == 'D' && (k == 0 || !b[k - 1].is_ascii_alphanumeric()) {
            let digits: String = meaning[k + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                out.push(format!("D{digits}"));
            }
        }
    }
    out
}

/// The register entries of `option`: those its meaning in [`Rules::OPTIONS`] names, and those of
/// `register` — (id, the entry's **Option.** text) pairs of the disputed-points register —
/// whose option text names it (`` `tigers-mouth: stones | …` `` or `` `tigers-mouth` ``); in the
/// register's order.
pub(crate) fn entries_of(
    option: &str,
    meaning: &str,
    register: &[(String, String)],
) -> Vec<String> {
    let from_meaning = register_entries(meaning);
    let named =
        |text: &str| text.contains(&format!("`{option}:")) || text.contains(&format!("`{option}`"));
    let mut out: Vec<String> = register
        .iter()
        .filter(|(id, text)| named(text) || from_meaning.contains(id))
        .map(|(id, _)| id.clone())
        .collect();
    for id in from_meaning {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// `rules` with `option` set to `value` (the option's YAML key and one of its values), checked
/// like a rules file.
pub(crate) fn with_option(rules: &Rules, option: &str, value: &str) -> Result<Rules, InputError> {
    let mut v = serde_json::to_value(rules).map_err(InputError::internal)?;
    let written = match value {
        "true" => serde_json::Value::Bool(true),
        "false" => serde_json::Value::Bool(false),
        _ => serde_json::Value::String(value.to_string()),
    };
    match v.as_object_mut() {
        Some(m) if m.contains_key(option) => {
            m.insert(option.to_string(), written);
        }
        _ => {
            return Err(InputError::new("not a rule option")
                .key(option)
                .expected("one of the options `m3go rules` lists"))
        }
    }
    let r: Rules = serde_json::from_value(v)
        .map_err(|e| InputError::new(e.to_string()).key(format!("{option}: {value}")))?;
    r.check().map_err(|e| InputError::from(e).key(option))?;
    Ok(r)
}

/// The verdicts of `pos` (and `mv`) under `rules`: `invalid` set if the position is not one under
/// them.
fn verdicts_under(pos: &Position, rules: &Rules, mv: Option<&str>) -> Verdicts {
    let p = match pos.with_rules(rules, "the reading") {
        Ok(p) => p,
        Err(e) => {
            return Verdicts {
                invalid: Some(e.text()),
                ..Verdicts::default()
            }
        }
    };
    let m = mv.and_then(|t| Move::parse_in(t, p.rules(), p.board().size()).ok());
    match (mv, &m) {
        (Some(t), None) => {
            let mut v = Verdicts::of(&p, None);
            let subject = Text::from("the move");
            v.by_kind.entry("move").or_default().insert(
                subject.to_string(),
                (
                    subject,
                    text!(
                        "not a move under these rules: `",
                        Trace::target_text(pos, t),
                        "`"
                    ),
                ),
            );
            v
        }
        _ => Verdicts::of(&p, m.as_ref()),
    }
}

/// The clause trace of `target` on `pos` under `rules` (`None` if the position is not one there
/// or the target cannot be read there).
fn trace_under(pos: &Position, rules: &Rules, target: &str) -> Option<Text> {
    let p = pos.with_rules(rules, "the reading").ok()?;
    Trace::explain(&p, target).ok().map(|t| t.text())
}

/// The readings of `pos`: every enumerated option of [`Rules::OPTIONS`] set in turn to each of its
/// values other than the position's, and the verdicts that change. `target` (as `explain` reads
/// it: a point, a string or a move in the documents' notation) is explained under each reading
/// too, and a move is judged (its legality and its captures); it must be a valid target on the
/// position under its own rules. `register` is the disputed-points register as (id, the
/// entry's **Option.** text) pairs, for naming the entries of each option (`entries_of`):
/// the caller passes it in (`conform::register::option_entries`), so that this module, below the
/// conformance layer, does not reach up for it.
/// The legal moves of every reading are listed on the position's engine.
pub fn readings(
    pos: &Position,
    target: Option<&str>,
    register: &[(String, String)],
) -> Result<Readings, InputError> {
    let base_trace = target
        .map(|t| Trace::explain(pos, t).map(|t| t.text()))
        .transpose()?;
    let mv = target.filter(|t| Trace::is_move_target(t));
    let base = verdicts_under(pos, pos.rules(), mv);
    let base_json = serde_json::to_value(pos.rules()).map_err(InputError::internal)?;
    let mut out = Vec::new();
    let mut not_varied = Vec::new();
    for &(option, values, meaning) in Rules::OPTIONS {
        let Some(values) = enumerated_values(values) else {
            not_varied.push(NotVaried {
                option,
                why: "numeric: not enumerable (set it in the position's rules to compare)",
            });
            continue;
        };
        let current = match base_json.get(option) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        for value in values {
            if value == current {
                continue;
            }
            let rules = with_option(pos.rules(), option, value)?;
            let changes = verdicts_under(pos, &rules, mv).changes_from(&base);
            let trace = target
                .and_then(|t| trace_under(pos, &rules, t))
                .filter(|t| Some(t) != base_trace.as_ref());
            out.push(Reading {
                option,
                base_value: current.clone(),
                value: value.to_string(),
                register: entries_of(option, meaning, register),
                changes,
                trace,
            });
        }
    }
    Ok(Readings {
        format: READINGS_FORMAT,
        rules: pos.rules().clone(),
        target: target.map(|t| Trace::target_text(pos, t)),
        readings: out,
        not_varied,
    })
}

impl Readings {
    /// The readings that change some verdict.
    pub fn deciding(&self) -> impl Iterator<Item = &Reading> {
        self.readings
            .iter()
            .filter(|r| !r.changes.is_empty() || r.trace.is_some())
    }

    /// The human-readable form: each reading that changes a verdict, with the verdicts; then the
    /// readings that change none, on one line (points in the Chinese system).
    pub fn to_text(&self) -> String {
        self.to_text_in(Labels::Chinese)
    }

    /// [`Readings::to_text`] with every point in `labels`.
    pub fn to_text_in(&self, labels: Labels) -> String {
        let mut o = String::from("Readings (one rule option changed at a time):\n");
        let mut unchanged = Vec::new();
        for r in &self.readings {
            let name = format!("{}: {} (was {})", r.option, r.value, r.base_value);
            if r.changes.is_empty() && r.trace.is_none() {
                unchanged.push(format!("{}: {}", r.option, r.value));
                continue;
            }
            let reg = if r.register.is_empty() {
                String::new()
            } else {
                format!(" — register {}", r.register.join(", "))
            };
            o.push_str(&format!(
                "  {name}{reg}: {} verdict(s) change\n",
                r.changes.len()
            ));
            for c in r.changes.iter().take(TEXT_CHANGES) {
                o.push_str(&format!(
                    "    {} {}: {} -> {}\n",
                    c.kind,
                    c.subject.format(labels),
                    c.base.format(labels),
                    c.reading.format(labels)
                ));
            }
            if r.changes.len() > TEXT_CHANGES {
                o.push_str(&format!(
                    "    … and {} more (all in --format json)\n",
                    r.changes.len() - TEXT_CHANGES
                ));
            }
            if let Some(t) = &r.trace {
                o.push_str("    the trace of the target under this reading:\n");
                for line in t.format(labels).lines() {
                    o.push_str(&format!("      {line}\n"));
                }
            }
        }
        if self.deciding().next().is_none() {
            o.push_str("  no reading changes any verdict: the dispute is about the position, not the rules text\n");
        }
        if !unchanged.is_empty() {
            o.push_str(&format!("  no change: {}\n", unchanged.join(", ")));
        }
        let nv: Vec<&str> = self.not_varied.iter().map(|n| n.option).collect();
        if !nv.is_empty() {
            o.push_str(&format!("  not varied (numeric): {}\n", nv.join(", ")));
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_enumerated_and_numeric_options() {
        assert_eq!(
            enumerated_values("stones | upper-layer | none (true = stones, false = none)"),
            Some(vec!["stones", "upper-layer", "none"])
        );
        assert_eq!(
            enumerated_values("true | false"),
            Some(vec!["true", "false"])
        );
        assert_eq!(enumerated_values("points, multiple of 0.25"), None);
        assert_eq!(enumerated_values("integer"), None);
        assert_eq!(enumerated_values("0..10000 (default 3)"), None);
    }

    #[test]
    fn entries_of_an_option_from_its_meaning_and_the_register() {
        let reg = vec![
            ("D17".to_string(), "`tigers-mouth` and others".to_string()),
            ("D28".to_string(), "none".to_string()),
            (
                "D29".to_string(),
                "`tigers-mouth: stones | upper-layer`".to_string(),
            ),
        ];
        assert_eq!(
            entries_of("tigers-mouth", "which … (D29)", &reg),
            vec!["D17", "D29"]
        );
        assert_eq!(entries_of("ko", "repeated (D11)", &reg), vec!["D11"]);
    }

    #[test]
    fn register_entries_named_in_a_meaning() {
        assert_eq!(
            register_entries("capture point judged … (D7, D9)"),
            vec!["D7", "D9"]
        );
        assert!(register_entries("who plays which stone when").is_empty());
    }

    #[test]
    fn every_enumerated_value_of_every_option_is_a_valid_rule_set() {
        let base = Rules::m3go_2020();
        for &(option, values, _) in Rules::OPTIONS {
            for v in enumerated_values(values).unwrap_or_default() {
                let r = with_option(&base, option, v).expect("a value the table lists");
                assert_ne!(
                    serde_json::to_value(&r)
                        .ok()
                        .and_then(|j| j.get(option).cloned()),
                    None
                );
            }
        }
        assert!(with_option(&base, "no-such-option", "x").is_err());
        assert!(with_option(&base, "ko", "sometimes").is_err());
    }
}
