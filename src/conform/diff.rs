//! Differential testing: random legal games played by m3go, every move put to another
//! implementation through the conformance protocol (`m3go-conform/1`), the answers compared on
//! the fields that matter, and the first disagreement shrunk to a minimal position and move and
//! written as a ready-to-add conformance case (spec/README.md).
//!
//! Random games are reproducible: game `g` (1-based) is driven by its own SplitMix64 stream,
//! seeded with the `g`-th output of SplitMix64 seeded with `--seed` ([`game_seed`]), so that
//! games can be played in any order and on any number of workers (`--jobs`, `--shard`) with the
//! same moves. Each move draws one number `r`: if `r % 16 == 0` and passing is legal, the side
//! passes; otherwise it places at legal point number `(r >> 4) % count` (board order, top row
//! first). A game stops after `max_moves` moves or when passes end it. The disagreement
//! reported is the one of the lowest-numbered game that has one.

use crate::conform::case::Case;
use crate::conform::protocol::PROTOCOL_1;
use crate::conform::runner::{
    ask_checked, negotiate, thread_pool, Declared, MakeOracle, Oracle, OraclePool,
};
use crate::formats::record::rules_field;
use crate::game::advance::Engine;
use crate::game::notation::{format_move, parse_move};
use crate::game::play::{Action, Move, Position};
use crate::game::setup::Setup;
use crate::rules::Rules;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// SplitMix64 (Steele, Lea, Flood 2014): the documented generator of the random games.
pub use crate::game::order::SplitMix64;

/// The options of a differential run.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    pub games: u32,
    pub seed: u64,
    pub size: usize,
    pub rules: Rules,
    pub max_moves: u32,
    /// The engine m3go plays its games and answers on (`--reference`: the clause-by-clause
    /// reference).
    pub engine: Engine,
}

/// One difference between two answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// error | board | captured | private_eyes | attributes | forbidden | legal_moves | events | score
    pub field: &'static str,
    pub detail: String,
}

/// The first disagreement, before and after shrinking.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub game: u32,
    pub move_number: u32,
    pub notation: String,
    pub differences: Vec<Difference>,
    /// Stones on the board where it was found, and after shrinking.
    pub stones_before: usize,
    pub stones_after: usize,
    /// The shrunk case.
    pub case: Case,
}

/// What a run found.
#[derive(Clone, Debug)]
pub enum DiffOutcome {
    /// Every move compared agreed; `skipped` moves were answered `unsupported`.
    Agree {
        games: u32,
        moves: u64,
        skipped: u64,
    },
    /// The first disagreement (of the lowest-numbered game), shrunk.
    Disagree(Box<Disagreement>),
    /// The program under test failed (it could not be started, crashed, hung, wrote something
    /// that is not an answer, or answered another id): not a rules disagreement.
    Errored {
        game: u32,
        move_number: u32,
        message: String,
    },
    /// The program declares capabilities that do not include these rules: nothing was played.
    Unsupported(String),
}

/// The request for `moves` played from `setup`, in `m3go-conform/1`: a game compares whole
/// answers, so it needs none of `/2`'s `checks`, and every program reads it.
pub fn request(id: &str, setup: &Setup, moves: &[String]) -> Value {
    json!({
        "protocol": PROTOCOL_1,
        "id": id,
        "position": setup,
        "moves": moves,
        "probes": [],
    })
}

use crate::conform::check::{norm as norm_point, strs};

fn point_set(v: &Value, size: usize) -> BTreeSet<String> {
    strs(v).iter().map(|p| norm_point(p, size)).collect()
}

fn key_of(points: &BTreeSet<String>) -> String {
    points.iter().cloned().collect::<Vec<_>>().join(" ")
}

/// The key of one answered private eye: its empty points (`m3go-analysis/2` `{points, empty}`,
/// or a bare list of empty points from a `/1` program), so that both shapes compare.
fn eye_key(e: &Value, size: usize) -> String {
    if e.is_array() {
        key_of(&point_set(e, size))
    } else {
        key_of(&point_set(&e["empty"], size))
    }
}

/// Private eyes by string (its sorted points) -> set of eyes (sorted empty points).
fn eyes_by_string(a: &Value, size: usize) -> BTreeMap<String, BTreeSet<String>> {
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

fn flowers_by_string(a: &Value, size: usize) -> BTreeMap<String, String> {
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

fn forbidden_set(a: &Value, size: usize) -> BTreeSet<String> {
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

fn legal_set(a: &Value, size: usize) -> BTreeSet<String> {
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

/// The number of stones on a setup's board.
fn stones(s: &Setup) -> usize {
    s.diagram
        .chars()
        .filter(|c| matches!(c, 'X' | 'O' | '#'))
        .count()
}

/// A checker: asks both implementations and says whether `field` still differs.
struct Judge<'a> {
    reference: &'a mut dyn Oracle,
    other: &'a mut dyn Oracle,
    field: &'static str,
    size: usize,
    asked: u32,
}

impl Judge<'_> {
    fn answers(&mut self, setup: &Setup, moves: &[String]) -> Option<(Value, Value)> {
        self.asked += 1;
        let req = request(&format!("shrink-{}", self.asked), setup, moves);
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
        compare(&ours, &theirs, self.size)
            .iter()
            .any(|d| d.field == self.field)
    }
}

/// The smallest move number with the same turn under a cycle of 10 (1..=10) or 2.
fn smallest_equivalent(n: u32, rules: &Rules) -> Vec<u32> {
    let mut v = Vec::new();
    for m in 1..n.min(21) {
        if crate::game::order::turn_of_move(rules, m) == crate::game::order::turn_of_move(rules, n)
            && crate::game::order::turn_of_move(rules, m + 1)
                == crate::game::order::turn_of_move(rules, n + 1)
        {
            v.push(m);
        }
    }
    v
}

/// Shrinks (setup, moves) while the disagreement on the judge's field persists: play the move
/// into the position when the field does not need it, forget history and passes, lower the
/// move number to the first equivalent one, and remove stones one at a time.
fn shrink(
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
                    parse_move(m, size)
                        .ok()
                        .and_then(|mv| p.play(&mv).ok().map(|(n, _)| n))
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
        .map(|(k, m)| match parse_move(m, size) {
            Ok(Move {
                action,
                turn: Some(t),
                ..
            }) => format_move(t, first + k as u32, action),
            _ => m.clone(),
        })
        .collect()
}

/// The position a game's request carries: [`setup_of`], with the earlier boards the ko rule
/// does not read left out. Under `ko: none` and `simple` only the board before the previous
/// move is read (GO-KO, [`crate::game::cascade::repeats_earlier`]), so the request keeps that one
/// board and every answer stays the same, while a request of move 300 no longer carries 299
/// boards for both programs to read and validate; `positional` and `situational` keep them all.
pub fn request_setup(p: &Position) -> Setup {
    if !matches!(
        p.rules().ko,
        crate::rules::Ko::None | crate::rules::Ko::Simple
    ) {
        return setup_of(p);
    }
    let (mut s, _) = p.to_setup_without_history();
    s.rules = rules_field(p.rules());
    s.history = p
        .history()
        .last()
        .map(|b| b.to_diagram())
        .into_iter()
        .collect();
    s
}

/// The setup of a position (rules by preset name when exact).
pub fn setup_of(p: &Position) -> Setup {
    let mut s = p.to_setup();
    s.rules = rules_field(p.rules());
    s
}

/// Where a clause's sentence comes from: (seed file, quote), both from the clause register
/// (rules.md, [`crate::conform::register`]): the row of the clause the case cites.
fn source_of(clause: &str) -> Result<(&'static str, String), String> {
    let c = crate::conform::register::clause(clause)
        .ok_or_else(|| format!("clause {clause} is not in the clause register (rules.md)"))?;
    let seed = crate::conform::register::seed_file(&c.seed).ok_or_else(|| {
        format!(
            "clause {clause}: seed {} is not one of the four source documents",
            c.seed
        )
    })?;
    Ok((seed, c.quote))
}

/// The conformance case of a shrunk disagreement: what m3go (the reference) answers, on the
/// field that differs. Built through serde, so that new optional keys of the case format do
/// not concern it.
pub fn make_case(
    id: &str,
    setup: &Setup,
    moves: &[String],
    ours: &Value,
    theirs: &Value,
    field: &'static str,
    notes: String,
) -> Result<Case, String> {
    let size = setup.size.unwrap_or(19);
    let a = &ours["analysis"];
    let r0 = &ours["reports"][0];
    let mut e = serde_json::Map::new();
    let mut clause = "GO-CASCADE".to_string();
    match field {
        "private_eyes" => {
            let theirs_eyes = eyes_by_string(&theirs["analysis"], size);
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
            clause = "M20-EYE".into();
            e.insert("private_eyes".into(), Value::Object(m));
        }
        "attributes" => {
            let (mine, tf) = (
                flowers_by_string(a, size),
                flowers_by_string(&theirs["analysis"], size),
            );
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
        }
        "forbidden" => {
            let theirs_set = forbidden_set(&theirs["analysis"], size);
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
        }
        "legal_moves" => {
            let (la, lb) = (legal_set(a, size), legal_set(&theirs["analysis"], size));
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
                    parse_move(m, size)
                        .ok()
                        .and_then(|mv| p.play(&mv).ok().map(|(n, _)| n))
                });
                if let Some(after) = after {
                    for p in lb.difference(&la) {
                        let mv = format!("{prefix}.{p}");
                        if let Ok(m) = parse_move(&mv, size) {
                            if let Err(err) = after.play(&m) {
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
        }
        "captured" => {
            e.insert(
                "events".into(),
                json!([{"index": 0, "captured": r0["captured"]}]),
            );
            clause = "GO-CAPTURE".into();
        }
        "events" => {
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
            clause = "M20-ATTR-COUNT".into();
        }
        "score" => {
            let s = &a["score"];
            e.insert(
                "score".into(),
                json!({"black": s["black"], "white": s["white"], "neutral": s["neutral"], "winner": s["winner"]}),
            );
            clause = "M20-SCORE-AREA".into();
        }
        _ => {
            // board or error: the resulting board, as the holographic view shows it
            e.insert(
                "views".into(),
                json!({"holographic": strs(&a["boards"]["holographic"]).join("\n") + "\n"}),
            );
        }
    }
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
    serde_json::from_value(case)
        .map_err(|e| format!("the shrunk case does not fit the case format: {e}"))
}

/// A string's name as a case key (`七九*`).
fn string_key(v: &Value) -> String {
    format!("{}*", v.as_str().unwrap_or("?").trim_end_matches('*'))
}

/// The seed of game `g` (1-based): the `g`-th output of SplitMix64 seeded with `seed`.
pub fn game_seed(seed: u64, g: u32) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    SplitMix64(seed.wrapping_add(u64::from(g - 1).wrapping_mul(GAMMA))).next_u64()
}

/// How one game ended.
enum Game {
    /// Every move agreed (or was answered `unsupported`).
    Agree,
    /// A game after an earlier bad one: not played to the end.
    Cancelled,
    /// A disagreement at this move (before shrinking).
    Disagree {
        move_number: u32,
        notation: String,
        before: Box<Setup>,
        moves: Vec<String>,
        diffs: Vec<Difference>,
    },
    /// The program under test failed at this move.
    Errored { move_number: u32, message: String },
}

/// Counters shared by the workers.
struct Shared<'a> {
    opts: &'a DiffOptions,
    compared: std::sync::atomic::AtomicU64,
    skipped: std::sync::atomic::AtomicU64,
    /// The lowest game with a disagreement or an error so far (games after it stop).
    first_bad: std::sync::atomic::AtomicU32,
    progress: &'a (dyn Fn(u64) + Sync),
}

/// Plays game `g`, asking `other` after every move.
fn play_game(sh: &Shared, g: u32, other: &mut dyn Oracle) -> Result<Game, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let opts = sh.opts;
    let mut rng = SplitMix64(game_seed(opts.seed, g));
    let empty = crate::board::grid::Board::empty(opts.size).map_err(|e| e.to_string())?;
    let start = Setup {
        rules: rules_field(&opts.rules),
        size: Some(opts.size),
        diagram: empty.to_diagram(),
        ..Setup::default()
    };
    let mut pos = start
        .to_position("diff")
        .map_err(|e| e.to_string())?
        .with_engine(opts.engine);
    let mut played = 0u64;
    let mut reference = crate::conform::runner::BuiltinOn(opts.engine);
    let done = |played: u64| (sh.progress)(u64::from(opts.max_moves).saturating_sub(played));
    for _ in 0..opts.max_moves {
        if pos.game_over() {
            break;
        }
        if sh.first_bad.load(Relaxed) < g {
            done(played);
            return Ok(Game::Cancelled);
        }
        let legal = pos.legal_moves();
        let places: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| *a != Action::Pass)
            .collect();
        let r = rng.next_u64();
        let action = if places.is_empty() || (r % 16 == 0 && legal.contains(&Action::Pass)) {
            Action::Pass
        } else {
            places[((r >> 4) % places.len() as u64) as usize]
        };
        let notation = format_move(pos.turn(), pos.move_number(), action);
        let before = request_setup(&pos);
        let moves = vec![notation.clone()];
        let req = request(
            &format!("diff-{}-g{g}-m{}", opts.seed, pos.move_number()),
            &before,
            &moves,
        );
        let ours = reference.ask(&req)?;
        let theirs = match ask_checked(other, &req) {
            Ok(t) => t,
            Err(message) => {
                sh.first_bad.fetch_min(g, Relaxed);
                done(played);
                return Ok(Game::Errored {
                    move_number: pos.move_number(),
                    message,
                });
            }
        };
        if theirs.get("unsupported").is_some_and(|u| u == true) {
            sh.skipped.fetch_add(1, Relaxed);
        } else {
            sh.compared.fetch_add(1, Relaxed);
            let diffs = compare(&ours, &theirs, opts.size);
            if !diffs.is_empty() {
                sh.first_bad.fetch_min(g, Relaxed);
                done(played);
                return Ok(Game::Disagree {
                    move_number: pos.move_number(),
                    notation,
                    before: Box::new(before),
                    moves,
                    diffs,
                });
            }
        }
        let next = pos
            .advance(&Move {
                action,
                number: None,
                turn: None,
            })
            .map_err(|e| format!("m3go refused its own legal move {notation}: {e}"))?;
        pos = next;
        played += 1;
        (sh.progress)(1);
    }
    done(played);
    Ok(Game::Agree)
}

/// Plays the random games of `opts` (those of `games`, default all) on `jobs` workers, each
/// asking its own program under test (made by `make_other`) after every move, and stops at the
/// first disagreement with m3go, shrunk. The program is first asked for its capabilities: rules
/// outside them are [`DiffOutcome::Unsupported`]. `progress(n)` is called as `n` more of the
/// `games × max_moves` steps are done.
pub fn run(
    opts: &DiffOptions,
    jobs: usize,
    games: Option<&[u32]>,
    make_other: &MakeOracle,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DiffOutcome, String> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering::Relaxed;
    let pool = OraclePool::new(make_other);
    let declared = pool
        .with(|o| negotiate(o))
        .and_then(|d| d)
        .map(|n| n.declared);
    match declared {
        Err(message) => {
            return Ok(DiffOutcome::Errored {
                game: 0,
                move_number: 0,
                message,
            })
        }
        Ok(Declared::Capabilities(c)) => {
            if let Some(why) = c.refuses(&opts.rules, None) {
                return Ok(DiffOutcome::Unsupported(why));
            }
        }
        Ok(Declared::Nothing(_)) => {}
    }
    let all: Vec<u32> = match games {
        Some(g) => g.to_vec(),
        None => (1..=opts.games).collect(),
    };
    let sh = Shared {
        opts,
        compared: 0.into(),
        skipped: 0.into(),
        first_bad: u32::MAX.into(),
        progress,
    };
    let workers = thread_pool(jobs)?;
    let bad: Vec<(u32, Game)> = workers.install(|| {
        all.par_iter()
            .map(|&g| {
                let r = if sh.first_bad.load(Relaxed) < g {
                    Ok(Game::Cancelled)
                } else {
                    pool.with(|o| play_game(&sh, g, o))
                        .unwrap_or_else(|message| {
                            sh.first_bad.fetch_min(g, Relaxed);
                            Ok(Game::Errored {
                                move_number: 1,
                                message,
                            })
                        })
                };
                r.map(|x| (g, x))
            })
            .filter(|r| !matches!(r, Ok((_, Game::Agree | Game::Cancelled))))
            .collect::<Result<Vec<_>, String>>()
    })?;
    let Some((g, first)) = bad.into_iter().min_by_key(|(g, _)| *g) else {
        return Ok(DiffOutcome::Agree {
            games: all.len() as u32,
            moves: sh.compared.load(Relaxed),
            skipped: sh.skipped.load(Relaxed),
        });
    };
    match first {
        Game::Errored {
            move_number,
            message,
        } => Ok(DiffOutcome::Errored {
            game: g,
            move_number,
            message,
        }),
        Game::Disagree {
            move_number,
            notation,
            before,
            moves,
            diffs,
        } => pool
            .with(|other| {
                let field = diffs[0].field;
                let mut reference = crate::conform::runner::BuiltinOn(opts.engine);
                let mut judge = Judge {
                    reference: &mut reference,
                    other,
                    field,
                    size: opts.size,
                    asked: 0,
                };
                let (s, m) = shrink(&mut judge, &opts.rules, (*before).clone(), moves.clone());
                let (o2, t2) = judge
                    .answers(&s, &m)
                    .ok_or("m3go and the other program could not both answer the shrunk case")?;
                let id = format!("diff-{field}-s{}-g{g}-m{move_number}", opts.seed)
                    .replace('_', "-");
                let notes = format!(
                    "Found by `m3go diff --seed {} --size {} --rules {}` in game {g} at move {notation}; shrunk from {} stones and the move to {} stones and {} move(s). The other implementation answered differently on {field}: {}",
                    opts.seed,
                    opts.size,
                    opts.rules.preset,
                    stones(&before),
                    stones(&s),
                    m.len(),
                    compare(&o2, &t2, opts.size)
                        .iter()
                        .filter(|d| d.field == field)
                        .map(|d| d.detail.clone())
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                let case = make_case(&id, &s, &m, &o2, &t2, field, notes)?;
                Ok(DiffOutcome::Disagree(Box::new(Disagreement {
                    game: g,
                    move_number,
                    notation,
                    differences: diffs,
                    stones_before: stones(&before),
                    stones_after: stones(&s),
                    case,
                })))
            })
            .and_then(|r| r),
        Game::Agree | Game::Cancelled => Err("internal: a good game among the bad ones".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // first outputs of SplitMix64 seeded with 0 (the published reference values)
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
