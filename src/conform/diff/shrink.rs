//! A disagreement shrunk to a minimal position and move (the move played into the position,
//! history and passes forgotten, the move number lowered, stones removed one at a time while
//! the same field still differs) and written as a ready-to-add conformance case.

use super::compare::{
    compare, eye_key, eyes_by_string, flowers_by_string, forbidden_set, key_of, legal_set,
    point_set,
};
use super::{compared, request, setup_of, Terms};
use crate::conform::case::Case;
use crate::conform::check::{norm as norm_point, strs};
use crate::conform::runner::{ask_checked, declined_by_answer, Oracle};
use m3go_engine::{Move, Notation, Rules, Setup};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The number of stones on a setup's board.
pub(super) fn stones(s: &Setup) -> usize {
    s.diagram
        .chars()
        .filter(|c| matches!(c, 'X' | 'O' | '#'))
        .count()
}

/// A checker: asks both implementations and says whether `field` still differs.
pub(super) struct Judge<'a> {
    pub(super) reference: &'a mut dyn Oracle,
    pub(super) other: &'a mut dyn Oracle,
    /// The run's version and checks: the requests of the shrinking are the game's.
    pub(super) terms: &'a Terms,
    pub(super) field: &'static str,
    pub(super) size: usize,
    pub(super) asked: u32,
}

impl Judge<'_> {
    pub(super) fn answers(&mut self, setup: &Setup, moves: &[String]) -> Option<(Value, Value)> {
        self.asked += 1;
        let req = request(&format!("shrink-{}", self.asked), setup, moves, self.terms);
        let ours = self.reference.ask(&req).ok()?;
        // a failure of the program (crash, hang) is not the disagreement being shrunk
        let theirs = ask_checked(self.other, &req).ok()?;
        if theirs.get("unsupported").is_some_and(|u| u == true) {
            return None;
        }
        Some((ours, theirs))
    }

    /// Whether the disagreement on `field` persists (m3go itself must accept the request).
    fn persists(&mut self, setup: &Setup, moves: &[String]) -> bool {
        let Some((ours, theirs)) = self.answers(setup, moves) else {
            return false;
        };
        if ours.get("error").is_some() {
            return false;
        }
        // an answer that declines a check the field depends on says nothing of it
        let declined = declined_by_answer(&theirs, &self.terms.checks.asked);
        if !compared(self.field, &declined) {
            return false;
        }
        compare(&ours, &theirs, self.size)
            .iter()
            .any(|d| d.field == self.field)
    }
}

/// The smallest move number with the same turn under a cycle of 10 (1..=10) or 2.
pub(super) fn smallest_equivalent(n: u32, rules: &Rules) -> Vec<u32> {
    let mut v = Vec::new();
    for m in 1..n.min(21) {
        if m3go_engine::Turn::of_move(rules, m) == m3go_engine::Turn::of_move(rules, n)
            && m3go_engine::Turn::of_move(rules, m + 1) == m3go_engine::Turn::of_move(rules, n + 1)
        {
            v.push(m);
        }
    }
    v
}

/// Shrinks (setup, moves) while the disagreement on the judge's field persists: play the move
/// into the position when the field does not need it, forget history and passes, lower the
/// move number to the first equivalent one, and remove stones one at a time.
pub(super) fn shrink(
    judge: &mut Judge,
    rules: &Rules,
    mut setup: Setup,
    mut moves: Vec<String>,
) -> (Setup, Vec<String>) {
    let size = judge.size;
    loop {
        let mut changed = false;
        if !moves.is_empty() && !matches!(judge.field, "captured" | "events" | "error") {
            // the position after the move, without the move
            if let Ok(p) = setup.to_position("shrink") {
                let after = moves.iter().try_fold(p, |p, m| {
                    Move::parse(m, size)
                        .ok()
                        .and_then(|mv| p.play_reported(&mv).ok().map(|(n, _)| n))
                });
                if let Some(after) = after {
                    let s = setup_of(&after);
                    if judge.persists(&s, &[]) {
                        setup = s;
                        moves.clear();
                        changed = true;
                    }
                }
            }
            if !changed && judge.persists(&setup, &[]) {
                moves.clear();
                changed = true;
            }
        }
        if !setup.history.is_empty() || setup.trailing_passes != 0 {
            let s = Setup {
                history: Vec::new(),
                trailing_passes: 0,
                ..setup.clone()
            };
            if judge.persists(&s, &renumber(&moves, s.move_number, size)) {
                moves = renumber(&moves, s.move_number, size);
                setup = s;
                changed = true;
            }
        }
        let n = setup.move_number.unwrap_or(1);
        for m in smallest_equivalent(n, rules) {
            let s = Setup {
                move_number: Some(m),
                history: Vec::new(),
                ..setup.clone()
            };
            let mv = renumber(&moves, Some(m), size);
            if judge.persists(&s, &mv) {
                setup = s;
                moves = mv;
                changed = true;
                break;
            }
        }
        // remove stones one at a time
        let rows: Vec<Vec<char>> = setup
            .diagram
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        'stones: for r in 0..rows.len() {
            for c in 0..rows[r].len() {
                if rows[r][c] == '.' || rows[r][c] == '+' {
                    continue;
                }
                let mut g = rows.clone();
                g[r][c] = '.';
                let diagram = diagram_of(&g);
                let s = Setup {
                    diagram,
                    dead: Vec::new(),
                    ..setup.clone()
                };
                if judge.persists(&s, &moves) {
                    setup = s;
                    changed = true;
                    break 'stones;
                }
            }
        }
        if !changed {
            return (setup, moves);
        }
    }
}

fn diagram_of(rows: &[Vec<char>]) -> String {
    let mut o = String::new();
    for r in rows {
        let row: Vec<String> = r.iter().map(|c| c.to_string()).collect();
        o.push_str(&row.join(" "));
        o.push('\n');
    }
    o
}

/// Moves renumbered to start at `first` (their turn symbols kept; the schedule checks them).
fn renumber(moves: &[String], first: Option<u32>, size: usize) -> Vec<String> {
    let first = first.unwrap_or(1);
    moves
        .iter()
        .enumerate()
        .map(|(k, m)| match Move::parse(m, size) {
            Ok(Move {
                action,
                turn: Some(t),
                ..
            }) => Notation::format_move(t, first + k as u32, action),
            _ => m.clone(),
        })
        .collect()
}

/// Where a clause's sentence comes from: (seed file, quote), both from the clause register
/// (rules.md, [`crate::conform::register`]): the row of the clause the case cites.
fn source_of(clause: &str) -> Result<(&'static str, String), CaseError> {
    let c = crate::conform::register::clause(clause)
        .ok_or_else(|| CaseError::NotInRegister(clause.to_string()))?;
    let seed =
        crate::conform::register::seed_file(&c.seed).ok_or_else(|| CaseError::UnknownSeed {
            clause: clause.to_string(),
            seed: c.seed.clone(),
        })?;
    Ok((seed, c.quote))
}

/// A case's `expect` keys, built as JSON.
type ExpectMap = serde_json::Map<String, Value>;

/// Why the case of a shrunk disagreement could not be made ([`make_case`]).
#[derive(Debug)]
pub enum CaseError {
    /// The clause cited is not in the clause register.
    NotInRegister(String),
    /// The clause's seed is not one of the source documents.
    UnknownSeed { clause: String, seed: String },
    /// The case built does not read as a case.
    Format(serde_json::Error),
}

impl std::fmt::Display for CaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CaseError::NotInRegister(clause) => {
                write!(
                    f,
                    "clause {clause} is not in the clause register (rules.md)"
                )
            }
            CaseError::UnknownSeed { clause, seed } => write!(
                f,
                "clause {clause}: seed {seed} is not one of the four source documents"
            ),
            CaseError::Format(e) => {
                write!(f, "the shrunk case does not fit the case format: {e}")
            }
        }
    }
}

impl std::error::Error for CaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CaseError::Format(e) => Some(e),
            CaseError::NotInRegister(_) | CaseError::UnknownSeed { .. } => None,
        }
    }
}

/// The conformance case of a shrunk disagreement: what m3go (the reference) answers, on the
/// field that differs. Built through serde, so that new optional keys of the case format do
/// not concern it.
pub(crate) fn make_case(
    id: &str,
    setup: &Setup,
    moves: &[String],
    ours: &Value,
    theirs: &Value,
    field: &'static str,
    notes: String,
) -> Result<Case, CaseError> {
    let size = setup.size.unwrap_or(19);
    let (a, ta) = (&ours["analysis"], &theirs["analysis"]);
    let r0 = &ours["reports"][0];
    let mut e = ExpectMap::new();
    let clause: String = match field {
        "private_eyes" => expect_private_eyes(a, ta, size, &mut e),
        "attributes" => expect_attributes(a, ta, size, &mut e),
        "forbidden" => expect_forbidden(a, ta, size, &mut e),
        "legal_moves" => expect_legal(setup, moves, a, ta, &mut e),
        "captured" => {
            e.insert(
                "events".into(),
                json!([{"index": 0, "captured": r0["captured"]}]),
            );
            "GO-CAPTURE".into()
        }
        "events" => expect_events(r0, &mut e),
        "score" => {
            let s = &a["score"];
            e.insert(
                "score".into(),
                json!({"black": s["black"], "white": s["white"], "neutral": s["neutral"], "winner": s["winner"]}),
            );
            "M20-SCORE-AREA".into()
        }
        _ => {
            // board or error: the resulting board, as the holographic view shows it
            e.insert(
                "views".into(),
                json!({"holographic": strs(&a["boards"]["holographic"]).join("\n") + "\n"}),
            );
            "GO-CASCADE".into()
        }
    };
    let (seed, quote) = source_of(&clause)?;
    let case = json!({
        "id": id,
        "title": format!("differential testing: the other implementation disagrees on {field}"),
        "clauses": [clause],
        "source": {"seed": seed, "quote": quote},
        "reconstructed": false,
        "notes": notes,
        "position": setup,
        "moves": moves,
        "expect": Value::Object(e),
    });
    serde_json::from_value(case).map_err(CaseError::Format)
}

/// `private_eyes`: m3go's private eyes of each string whose eyes differ (analyses `a`, m3go's,
/// and `ta`, the other's); the clause cited.
fn expect_private_eyes(a: &Value, ta: &Value, size: usize, e: &mut ExpectMap) -> String {
    let theirs_eyes = eyes_by_string(ta, size);
    let mut m = serde_json::Map::new();
    for s in a["strings"].as_array().into_iter().flatten() {
        let key = key_of(&point_set(&s["points"], size));
        let mine: BTreeSet<String> = s["private_eyes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| eye_key(e, size))
            .collect();
        if theirs_eyes.get(&key) != Some(&mine) {
            m.insert(string_key(&s["name"]), s["private_eyes"].clone());
        }
    }
    e.insert("private_eyes".into(), Value::Object(m));
    "M20-EYE".into()
}

/// `attributes`: m3go's attribute and counts of each flower string whose attribute differs;
/// the clause of the last one (an attribute clause).
fn expect_attributes(a: &Value, ta: &Value, size: usize, e: &mut ExpectMap) -> String {
    let mut clause = "GO-CASCADE".to_string();
    let (mine, tf) = (flowers_by_string(a, size), flowers_by_string(ta, size));
    let mut m = serde_json::Map::new();
    for f in a["flowers"].as_array().into_iter().flatten() {
        let key = key_of(&point_set(&f["points"], size));
        if mine.get(&key) != tf.get(&key) {
            m.insert(
                string_key(&f["name"]),
                json!({
                    "attribute": f["attribute"],
                    "hs": f["hs"], "hw": f["hw"], "bs": f["bs"], "bw": f["bw"],
                }),
            );
            if let Some(c) = f["clause"].as_str() {
                clause = c.to_string();
            }
        }
    }
    if clause.starts_with("D3") || clause == "GO-CASCADE" {
        clause = "D3-ATTR-FLOWER".into();
    }
    e.insert("attributes".into(), Value::Object(m));
    clause
}

/// `forbidden` and `playable`: m3go's reason at each point whose forbidden verdict differs
/// (for one player or both), the points open in m3go's answer as playable; the clause cited.
fn expect_forbidden(a: &Value, ta: &Value, size: usize, e: &mut ExpectMap) -> String {
    let mut clause = "GO-CASCADE".to_string();
    let theirs_set = forbidden_set(ta, size);
    let mut reasons: BTreeMap<String, Vec<(String, String, String)>> = BTreeMap::new();
    for who in ["black", "white"] {
        for f in a["forbidden"][who].as_array().into_iter().flatten() {
            let p = norm_point(f["point"].as_str().unwrap_or("?"), size);
            reasons.entry(p).or_default().push((
                who.to_string(),
                f["reason"].as_str().unwrap_or("?").to_string(),
                f["clause"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    let ours_set = forbidden_set(a, size);
    let differing: BTreeSet<String> = ours_set
        .symmetric_difference(&theirs_set)
        .filter_map(|s| s.split(" at ").nth(1))
        .filter_map(|s| s.split(':').next())
        .map(str::to_string)
        .collect();
    let mut fb = serde_json::Map::new();
    let mut playable = Vec::new();
    for p in differing {
        match reasons.get(&p) {
            None => playable.push(p),
            Some(v) => {
                let both = v.len() == 2 && v[0].1 == v[1].1;
                let mut x = json!({"reason": v[0].1});
                if !both {
                    x["for"] = json!(v[0].0);
                }
                fb.insert(p, x);
                clause = v[0].2.clone();
            }
        }
    }
    if !fb.is_empty() {
        e.insert("forbidden".into(), Value::Object(fb));
    }
    if !playable.is_empty() {
        e.insert("playable".into(), json!(playable));
        if clause == "GO-CASCADE" {
            clause = "M20-FORBID-UPPER".into();
        }
    }
    clause
}

/// `legal` and `illegal`: the moves m3go allows and the other refuses, and those the other
/// allows with m3go's refusal (played after `moves` from `setup`); the clause cited.
fn expect_legal(
    setup: &Setup,
    moves: &[String],
    a: &Value,
    ta: &Value,
    e: &mut ExpectMap,
) -> String {
    let size = setup.size.unwrap_or(19);
    let mut clause = "GO-CASCADE".to_string();
    let (la, lb) = (legal_set(a, size), legal_set(ta, size));
    let prefix: String = strs(&a["legal_moves"])
        .first()
        .map(|m| m.split('.').next().unwrap_or("").to_string())
        .unwrap_or_default();
    let legal: Vec<String> = la
        .difference(&lb)
        .map(|p| format!("{prefix}.{p}"))
        .collect();
    let mut illegal = Vec::new();
    if let Ok(pos) = setup.to_position("case") {
        let after = moves.iter().try_fold(pos, |p, m| {
            Move::parse(m, size)
                .ok()
                .and_then(|mv| p.play_reported(&mv).ok().map(|(n, _)| n))
        });
        if let Some(after) = after {
            for p in lb.difference(&la) {
                let mv = format!("{prefix}.{p}");
                if let Ok(m) = Move::parse(&mv, size) {
                    if let Err(err) = after.play_reported(&m) {
                        clause = err.clause.to_string();
                        illegal.push(json!({"move": mv, "reason": err.reason}));
                    }
                }
            }
        }
    }
    if !legal.is_empty() {
        e.insert("legal".into(), json!(legal));
        if clause == "GO-CASCADE" {
            clause = "M20-ORDER".into();
        }
    }
    if !illegal.is_empty() {
        e.insert("illegal".into(), json!(illegal));
    }
    clause
}

/// `events`: the eyes made and lost and the attribute changes of the move's report `r0`.
fn expect_events(r0: &Value, e: &mut ExpectMap) -> String {
    let names = |k: &str| -> Vec<String> {
        r0[k]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["string"].as_str().map(str::to_string))
            .collect()
    };
    let attrs: serde_json::Map<String, Value> = r0["attribute_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (string_key(&c["string"]), c["to"].clone()))
        .collect();
    e.insert(
        "events".into(),
        json!([{
            "index": 0,
            "eyes_made": names("eyes_made"),
            "eyes_lost": names("eyes_lost"),
            "attributes": attrs,
        }]),
    );
    "M20-ATTR-COUNT".into()
}

/// A string's name as a case key (`七九*`).
fn string_key(v: &Value) -> String {
    format!("{}*", v.as_str().unwrap_or("?").trim_end_matches('*'))
}
