//! Two answers to the same request compared on the fields that matter, in the order of the
//! pipeline: the board, the captures, private eyes, attributes, forbidden points, legal moves,
//! the report's events and the score.

use super::Difference;
use crate::conform::check::{norm as norm_point, strs};
use crate::game::notation::parse_move;
use crate::game::play::Action;
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
        let v = format!(
            "{} (Hs={} Hw={} Bs={} Bw={})",
            f["attribute"].as_str().unwrap_or("?"),
            f["hs"],
            f["hw"],
            f["bs"],
            f["bw"]
        );
        m.insert(key_of(&point_set(&f["points"], size)), v);
    }
    m
}

pub(super) fn forbidden_set(a: &Value, size: usize) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for who in ["black", "white"] {
        for f in a["forbidden"][who].as_array().into_iter().flatten() {
            s.insert(format!(
                "{who}'s flower at {}: {}",
                norm_point(f["point"].as_str().unwrap_or("?"), size),
                f["reason"].as_str().unwrap_or("?")
            ));
        }
    }
    s
}

fn norm_move(m: &str, size: usize) -> String {
    match parse_move(m, size) {
        Ok(mv) => match mv.action {
            Action::Pass => "pass".into(),
            Action::Place(p) => p.to_string(),
        },
        Err(_) => m.to_string(),
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
            format!(
                "{} -> {}",
                key_of(&point_set(&e["points"], size)),
                e["to"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

fn squash(v: &Value) -> Vec<String> {
    strs(v)
        .iter()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
        .collect()
}

fn show<T: std::fmt::Debug>(x: &T) -> String {
    format!("{x:?}")
}

/// What [`compare`] reads of one answer, normalised (points in one notation, sets sorted): made
/// once per answer, so that in a game m3go's own half is made while the other program answers,
/// and the two compared with [`differences`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `None` for an answer, `Some(message)` for an error answer (its `error` when a string).
    error: Option<Option<String>>,
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
            format!(
                "black {} white {} neutral {} winner {}",
                a["score"]["black"],
                a["score"]["white"],
                a["score"]["neutral"],
                a["score"]["winner"]
            )
        };
        Summary {
            error: answer.get("error").map(|e| e.as_str().map(str::to_string)),
            board: strs(&a["boards"]["direct"]),
            board_squashed: squash(&a["boards"]["direct"]),
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
}

/// Compares two answers to the same request, field by field, in the order of the pipeline.
pub fn compare(ours: &Value, theirs: &Value, size: usize) -> Vec<Difference> {
    differences(&Summary::of(ours, size), &Summary::of(theirs, size))
}

/// [`compare`] of the two answers' summaries.
pub fn differences(ours: &Summary, theirs: &Summary) -> Vec<Difference> {
    let mut d = Vec::new();
    let push =
        |d: &mut Vec<Difference>, field, detail: String| d.push(Difference { field, detail });
    match (&ours.error, &theirs.error) {
        (None, None) => {}
        (Some(_), Some(_)) => return d,
        (o, t) => {
            let said = |e: &Option<Option<String>>| {
                e.clone()
                    .flatten()
                    .unwrap_or_else(|| "an answer".to_string())
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
    for (k, v) in &a.eyes {
        if b.eyes.get(k) != Some(v) {
            push(
                &mut d,
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
                &mut d,
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
            &mut d,
            "attributes",
            format!("flower string [{k}]: only the other implementation has it"),
        );
    }
    if a.forbidden != b.forbidden {
        push(
            &mut d,
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
            &mut d,
            "legal_moves",
            format!(
                "legal moves: only m3go {}, only other {}",
                show(&a.legal.difference(&b.legal).collect::<Vec<_>>()),
                show(&b.legal.difference(&a.legal).collect::<Vec<_>>())
            ),
        );
    }
    if reported {
        for (key, x, y) in [
            ("eyes_made", &a.eyes_made, &b.eyes_made),
            ("eyes_lost", &a.eyes_lost, &b.eyes_lost),
        ] {
            if x != y {
                push(
                    &mut d,
                    "events",
                    format!("{key}: m3go {}, other {}", show(x), show(y)),
                );
            }
        }
        if a.attribute_changes != b.attribute_changes {
            push(
                &mut d,
                "events",
                format!(
                    "attribute changes: m3go {}, other {}",
                    show(&a.attribute_changes),
                    show(&b.attribute_changes)
                ),
            );
        }
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
