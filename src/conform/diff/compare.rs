//! Two answers to the same request compared on the fields that matter, in the order of the
//! pipeline: the board, the captures, private eyes, attributes, forbidden points, legal moves,
//! the report's events and the score.

use super::Difference;
use crate::conform::answer::CaseAnswer;
use crate::conform::check::{norm as norm_point, strs};
use m3go_engine::game::{NamedString, Prefix};
use m3go_engine::{Action, Move, Notation, Point};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn point_set(v: &Value, size: usize) -> BTreeSet<String> {
    strs(v).iter().map(|p| norm_point(p, size)).collect()
}

pub(super) fn key_of(points: &BTreeSet<String>) -> String {
    points.iter().cloned().collect::<Vec<_>>().join(" ")
}

/// The key of one answered private eye: its empty points (`m3go-analysis/2` `{points, empty}`,
/// or a bare list of empty points from a `/1` program), so that both shapes compare.
pub(super) fn eye_key(e: &Value, size: usize) -> String {
    if e.is_array() {
        key_of(&point_set(e, size))
    } else {
        key_of(&point_set(&e["empty"], size))
    }
}

/// Private eyes by string (its sorted points) -> set of eyes (sorted empty points).
pub(super) fn eyes_by_string(a: &Value, size: usize) -> BTreeMap<String, BTreeSet<String>> {
    let mut m = BTreeMap::new();
    for s in a["strings"].as_array().into_iter().flatten() {
        let eyes: BTreeSet<String> = s["private_eyes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| eye_key(e, size))
            .collect();
        m.insert(key_of(&point_set(&s["points"], size)), eyes);
    }
    m
}

pub(super) fn flowers_by_string(a: &Value, size: usize) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for f in a["flowers"].as_array().into_iter().flatten() {
        let v = flower_line(
            f["attribute"].as_str().unwrap_or("?"),
            [&f["hs"], &f["hw"], &f["bs"], &f["bw"]],
        );
        m.insert(key_of(&point_set(&f["points"], size)), v);
    }
    m
}

pub(super) fn forbidden_set(a: &Value, size: usize) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for who in ["black", "white"] {
        for f in a["forbidden"][who].as_array().into_iter().flatten() {
            s.insert(forbidden_line(
                who,
                &norm_point(f["point"].as_str().unwrap_or("?"), size),
                f["reason"].as_str().unwrap_or("?"),
            ));
        }
    }
    s
}

fn norm_move(m: &str, size: usize) -> String {
    match Move::parse(m, size) {
        Ok(mv) => match mv.action {
            Action::Pass => "pass".into(),
            Action::Place(p) => p.to_string(),
        },
        Err(_) => m.to_string(),
    }
}

/// [`norm_move`] of a notation's text, read from the notation: its action, for a move
/// numbered by move number (`黑19.一B` reads back as the move it writes); a team-format move is
/// read from its text, as [`legal_set`] reads it (with the grey players joining in round 31, a
/// seat may not read: the text is then kept whole).
fn legal_key(n: &Notation, size: usize) -> String {
    match (n.prefix, n.action) {
        (Prefix::Numbered(..), Action::Pass) => "pass".into(),
        (Prefix::Numbered(..), Action::Place(p)) => p.to_string(),
        (Prefix::Round(_), _) => norm_move(&n.to_string(), size),
    }
}

pub(super) fn legal_set(a: &Value, size: usize) -> BTreeSet<String> {
    strs(&a["legal_moves"])
        .iter()
        .map(|m| norm_move(m, size))
        .collect()
}

fn named_sets(v: &Value, size: usize) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|e| key_of(&point_set(&e["points"], size)))
        .collect()
}

fn changes_set(v: &Value, size: usize) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            change_line(
                &key_of(&point_set(&e["points"], size)),
                e["to"].as_str().unwrap_or("?"),
            )
        })
        .collect()
}

/// A flower string's attribute and counts as a summary compares them.
fn flower_line(attribute: &str, [hs, hw, bs, bw]: [&dyn std::fmt::Display; 4]) -> String {
    format!("{attribute} (Hs={hs} Hw={hw} Bs={bs} Bw={bw})")
}

/// A forbidden point as a summary compares it.
fn forbidden_line(who: &str, point: &str, reason: &str) -> String {
    format!("{who}'s flower at {point}: {reason}")
}

/// An attribute change (the flower string's key, the attribute after) as a summary compares it.
fn change_line(key: &str, to: &str) -> String {
    format!("{key} -> {to}")
}

/// A score as a summary compares it.
fn score_line(
    black: &dyn std::fmt::Display,
    white: &dyn std::fmt::Display,
    neutral: &dyn std::fmt::Display,
    winner: &dyn std::fmt::Display,
) -> String {
    format!("black {black} white {white} neutral {neutral} winner {winner}")
}

/// Board lines without whitespace (compared; the lines themselves are shown).
fn squashed(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
        .collect()
}

fn show<T: std::fmt::Debug>(x: &T) -> String {
    format!("{x:?}")
}

/// The parts of an answer neither [`Summary::of`] nor the case a disagreement makes
/// ([`super::make_case`]) reads: the bulk of a 9×9 answer (the closed regions and each string's
/// list of them, the lower liberties, the empty and upper strings, the holographic and upper
/// boards, the per-point score, a report's steps, the numbered diagram, the extras). `m3go
/// diff` reads the other program's answers without them
/// ([`crate::conform::runner::External::skipping`]).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const UNREAD: crate::conform::pruned::Paths = &[
    &["analysis", "regions"],
    &["analysis", "empty_strings"],
    &["analysis", "upper_strings"],
    &["analysis", "boards", "holographic"],
    &["analysis", "boards", "upper"],
    &["analysis", "score", "points"],
    &["analysis", "strings", "*", "regions"],
    &["analysis", "strings", "*", "lower_liberties"],
    &["reports", "*", "steps"],
    &["numbered"],
    &["extras"],
];

/// What [`compare`] reads of one answer, normalised (points in one notation, sets sorted): made
/// once per answer, so that in a game m3go's own half is made while the other program answers,
/// and the two compared with [`differences`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Summary {
    /// `None` for an answer, `Some(what it said)` for an error answer: its code, field and
    /// message ([`crate::conform::check::error_message`]).
    error: Option<String>,
    /// The direct board's lines, and the same without whitespace (compared).
    board: Vec<String>,
    board_squashed: Vec<String>,
    /// Whether the answer reports a move (`reports[0]`), and what that report says.
    reported: bool,
    captured: BTreeSet<String>,
    eyes_made: BTreeSet<String>,
    eyes_lost: BTreeSet<String>,
    attribute_changes: BTreeSet<String>,
    eyes: BTreeMap<String, BTreeSet<String>>,
    flowers: BTreeMap<String, String>,
    forbidden: BTreeSet<String>,
    legal: BTreeSet<String>,
    score: String,
}

impl Summary {
    /// The summary of `answer` on a board of `size`.
    pub fn of(answer: &Value, size: usize) -> Summary {
        let a = &answer["analysis"];
        let r = &answer["reports"][0];
        let score = if a["score"].is_null() {
            "none".to_string()
        } else {
            let s = &a["score"];
            score_line(&s["black"], &s["white"], &s["neutral"], &s["winner"])
        };
        let board = strs(&a["boards"]["direct"]);
        Summary {
            error: crate::conform::check::error_message(answer),
            board_squashed: squashed(&board),
            board,
            reported: !r.is_null(),
            captured: point_set(&r["captured"], size),
            eyes_made: named_sets(&r["eyes_made"], size),
            eyes_lost: named_sets(&r["eyes_lost"], size),
            attribute_changes: changes_set(&r["attribute_changes"], size),
            eyes: eyes_by_string(a, size),
            flowers: flowers_by_string(a, size),
            forbidden: forbidden_set(a, size),
            legal: legal_set(a, size),
            score,
        }
    }

    /// [`Summary::of`] the JSON of `answer`, on a board of `size`, read from the typed answer
    /// without making its JSON tree (m3go's own half of a `diff` move): the same summary, as
    /// `tests/it/diff.rs` checks on every suite case.
    pub fn of_answer(answer: &CaseAnswer, size: usize) -> Summary {
        let a = &answer.analysis;
        let r = answer.reports.first();
        let points = |v: &[Point]| -> BTreeSet<String> { v.iter().map(Point::to_string).collect() };
        let key = |v: &[Point]| key_of(&points(v));
        let named = |v: &[NamedString]| v.iter().map(|n| key(&n.points)).collect();
        let forbidden = [("black", &a.forbidden.black), ("white", &a.forbidden.white)]
            .into_iter()
            .flat_map(|(who, list)| {
                list.iter()
                    .map(move |f| forbidden_line(who, &f.point.to_string(), f.reason))
            })
            .collect();
        let score = match &a.score {
            None => "none".to_string(),
            Some(s) => {
                let winner = serde_json::to_string(&s.winner).unwrap_or_default();
                score_line(&s.black, &s.white, &s.neutral, &winner)
            }
        };
        Summary {
            error: None,
            board: a.boards.direct.clone(),
            board_squashed: squashed(&a.boards.direct),
            reported: r.is_some(),
            captured: r.map(|r| points(&r.captured)).unwrap_or_default(),
            eyes_made: r.map(|r| named(&r.eyes_made)).unwrap_or_default(),
            eyes_lost: r.map(|r| named(&r.eyes_lost)).unwrap_or_default(),
            attribute_changes: r
                .into_iter()
                .flat_map(|r| &r.attribute_changes)
                .map(|c| change_line(&key(&c.points), c.to.name()))
                .collect(),
            eyes: a
                .strings
                .iter()
                .map(|s| {
                    let eyes = s.private_eyes.iter().map(|e| key(&e.empty)).collect();
                    (key(&s.points), eyes)
                })
                .collect(),
            flowers: a
                .flowers
                .iter()
                .map(|f| {
                    let line = flower_line(f.attribute.name(), [&f.hs, &f.hw, &f.bs, &f.bw]);
                    (key(&f.points), line)
                })
                .collect(),
            forbidden,
            legal: a.legal_moves.iter().map(|n| legal_key(n, size)).collect(),
            score,
        }
    }
}

/// Compares two answers to the same request, field by field, in the order of the pipeline.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn compare(ours: &Value, theirs: &Value, size: usize) -> Vec<Difference> {
    differences(&Summary::of(ours, size), &Summary::of(theirs, size))
}

/// [`compare`] of the two answers' summaries.
pub(crate) fn differences(ours: &Summary, theirs: &Summary) -> Vec<Difference> {
    let mut d = Vec::new();
    match (&ours.error, &theirs.error) {
        (None, None) => {}
        (Some(_), Some(_)) => return d,
        (o, t) => {
            let said = |e: &Option<String>| match e {
                Some(e) => format!("the error `{e}`"),
                None => "an answer".to_string(),
            };
            push(
                &mut d,
                "error",
                format!("m3go: {}; other: {}", said(o), said(t)),
            );
            return d;
        }
    }
    let (a, b) = (ours, theirs);
    if a.board_squashed != b.board_squashed {
        push(
            &mut d,
            "board",
            format!(
                "direct board: m3go\n{}\nother\n{}",
                a.board.join("\n"),
                b.board.join("\n")
            ),
        );
    }
    let reported = a.reported || b.reported;
    if reported && a.captured != b.captured {
        push(
            &mut d,
            "captured",
            format!(
                "captured: m3go {}, other {}",
                show(&a.captured),
                show(&b.captured)
            ),
        );
    }
    analysis_differences(&mut d, a, b);
    if reported {
        event_differences(&mut d, a, b);
    }
    if a.score != b.score {
        push(
            &mut d,
            "score",
            format!("score: m3go {}, other {}", a.score, b.score),
        );
    }
    d
}

/// One difference of `field`.
fn push(d: &mut Vec<Difference>, field: &'static str, detail: String) {
    d.push(Difference { field, detail });
}

/// The differences of the analysis: the private eyes of each string, the flower strings'
/// attributes, the forbidden points and the legal moves.
fn analysis_differences(d: &mut Vec<Difference>, a: &Summary, b: &Summary) {
    for (k, v) in &a.eyes {
        if b.eyes.get(k) != Some(v) {
            push(
                d,
                "private_eyes",
                format!(
                    "private eyes of the string [{k}]: m3go {}, other {}",
                    show(v),
                    b.eyes.get(k).map(show).unwrap_or("no such string".into())
                ),
            );
        }
    }
    for (k, v) in &a.flowers {
        if b.flowers.get(k) != Some(v) {
            push(
                d,
                "attributes",
                format!(
                    "flower string [{k}]: m3go {v}, other {}",
                    b.flowers
                        .get(k)
                        .cloned()
                        .unwrap_or("no such flower string".into())
                ),
            );
        }
    }
    for k in b.flowers.keys().filter(|k| !a.flowers.contains_key(*k)) {
        push(
            d,
            "attributes",
            format!("flower string [{k}]: only the other implementation has it"),
        );
    }
    if a.forbidden != b.forbidden {
        push(
            d,
            "forbidden",
            format!(
                "forbidden points: only m3go {}, only other {}",
                show(&a.forbidden.difference(&b.forbidden).collect::<Vec<_>>()),
                show(&b.forbidden.difference(&a.forbidden).collect::<Vec<_>>())
            ),
        );
    }
    if a.legal != b.legal {
        push(
            d,
            "legal_moves",
            format!(
                "legal moves: only m3go {}, only other {}",
                show(&a.legal.difference(&b.legal).collect::<Vec<_>>()),
                show(&b.legal.difference(&a.legal).collect::<Vec<_>>())
            ),
        );
    }
}

/// The differences of the move's events: the eyes made and lost and the attribute changes.
fn event_differences(d: &mut Vec<Difference>, a: &Summary, b: &Summary) {
    for (key, x, y) in [
        ("eyes_made", &a.eyes_made, &b.eyes_made),
        ("eyes_lost", &a.eyes_lost, &b.eyes_lost),
    ] {
        if x != y {
            push(
                d,
                "events",
                format!("{key}: m3go {}, other {}", show(x), show(y)),
            );
        }
    }
    if a.attribute_changes != b.attribute_changes {
        push(
            d,
            "events",
            format!(
                "attribute changes: m3go {}, other {}",
                show(&a.attribute_changes),
                show(&b.attribute_changes)
            ),
        );
    }
}
