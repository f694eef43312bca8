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

/// Compares two answers to the same request, field by field, in the order of the pipeline.
pub fn compare(ours: &Value, theirs: &Value, size: usize) -> Vec<Difference> {
    let mut d = Vec::new();
    let push =
        |d: &mut Vec<Difference>, field, detail: String| d.push(Difference { field, detail });
    match (ours.get("error"), theirs.get("error")) {
        (None, None) => {}
        (Some(_), Some(_)) => return d,
        (o, t) => {
            push(
                &mut d,
                "error",
                format!(
                    "m3go: {}; other: {}",
                    o.and_then(|e| e.as_str()).unwrap_or("an answer"),
                    t.and_then(|e| e.as_str()).unwrap_or("an answer")
                ),
            );
            return d;
        }
    }
    let (a, b) = (&ours["analysis"], &theirs["analysis"]);
    if squash(&a["boards"]["direct"]) != squash(&b["boards"]["direct"]) {
        push(
            &mut d,
            "board",
            format!(
                "direct board: m3go\n{}\nother\n{}",
                strs(&a["boards"]["direct"]).join("\n"),
                strs(&b["boards"]["direct"]).join("\n")
            ),
        );
    }
    let (ra, rb) = (&ours["reports"][0], &theirs["reports"][0]);
    if !ra.is_null() || !rb.is_null() {
        let (ca, cb) = (
            point_set(&ra["captured"], size),
            point_set(&rb["captured"], size),
        );
        if ca != cb {
            push(
                &mut d,
                "captured",
                format!("captured: m3go {}, other {}", show(&ca), show(&cb)),
            );
        }
    }
    let (ea, eb) = (eyes_by_string(a, size), eyes_by_string(b, size));
    for (k, v) in &ea {
        if eb.get(k) != Some(v) {
            push(
                &mut d,
                "private_eyes",
                format!(
                    "private eyes of the string [{k}]: m3go {}, other {}",
                    show(v),
                    eb.get(k).map(show).unwrap_or("no such string".into())
                ),
            );
        }
    }
    let (fa, fb) = (flowers_by_string(a, size), flowers_by_string(b, size));
    for (k, v) in &fa {
        if fb.get(k) != Some(v) {
            push(
                &mut d,
                "attributes",
                format!(
                    "flower string [{k}]: m3go {v}, other {}",
                    fb.get(k).cloned().unwrap_or("no such flower string".into())
                ),
            );
        }
    }
    for k in fb.keys().filter(|k| !fa.contains_key(*k)) {
        push(
            &mut d,
            "attributes",
            format!("flower string [{k}]: only the other implementation has it"),
        );
    }
    let (xa, xb) = (forbidden_set(a, size), forbidden_set(b, size));
    if xa != xb {
        push(
            &mut d,
            "forbidden",
            format!(
                "forbidden points: only m3go {}, only other {}",
                show(&xa.difference(&xb).collect::<Vec<_>>()),
                show(&xb.difference(&xa).collect::<Vec<_>>())
            ),
        );
    }
    let (la, lb) = (legal_set(a, size), legal_set(b, size));
    if la != lb {
        push(
            &mut d,
            "legal_moves",
            format!(
                "legal moves: only m3go {}, only other {}",
                show(&la.difference(&lb).collect::<Vec<_>>()),
                show(&lb.difference(&la).collect::<Vec<_>>())
            ),
        );
    }
    if !ra.is_null() || !rb.is_null() {
        for key in ["eyes_made", "eyes_lost"] {
            let (x, y) = (named_sets(&ra[key], size), named_sets(&rb[key], size));
            if x != y {
                push(
                    &mut d,
                    "events",
                    format!("{key}: m3go {}, other {}", show(&x), show(&y)),
                );
            }
        }
        let (x, y) = (
            changes_set(&ra["attribute_changes"], size),
            changes_set(&rb["attribute_changes"], size),
        );
        if x != y {
            push(
                &mut d,
                "events",
                format!("attribute changes: m3go {}, other {}", show(&x), show(&y)),
            );
        }
    }
    let score = |v: &Value| {
        if v["score"].is_null() {
            "none".to_string()
        } else {
            format!(
                "black {} white {} neutral {} winner {}",
                v["score"]["black"],
                v["score"]["white"],
                v["score"]["neutral"],
                v["score"]["winner"]
            )
        }
    };
    if score(a) != score(b) {
        push(
            &mut d,
            "score",
            format!("score: m3go {}, other {}", score(a), score(b)),
        );
    }
    d
}
