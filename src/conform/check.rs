//! The comparison of a case's expectations with an implementation's answer
//! (spec/README.md, the table of `expect` keys and answer fields): one step per kind of
//! expectation, each pushing its differences.

use crate::conform::case::{AttrExpect, Case, EventExpect, Expect, EyeExpect, ForPlayers};
use m3go_engine::{Colour, Point, Refusal, StoneKind};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// A point written in a case or an answer, normalised (Chinese labels), or the text itself.
pub(crate) fn norm(p: &str, size: usize) -> String {
    let t = p.trim().trim_end_matches('*');
    Point::parse(t, size)
        .map(|q| q.to_string())
        .unwrap_or_else(|_| t.to_string())
}

/// An answer's value read as the engine's type (a refusal, a winner, a stone kind), or the
/// answer's text when it is not one of that type's values (shown as what was got).
fn typed<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T, String> {
    serde_json::from_value(v.clone()).map_err(|_| match v.as_str() {
        Some(s) => s.to_string(),
        None if v.is_null() => "?".to_string(),
        None => v.to_string(),
    })
}

/// A value of the engine's type written as its JSON name (`tigers-mouth`, `draw`, `flower`).
fn named<T: serde::Serialize>(t: &T) -> String {
    match serde_json::to_value(t) {
        Ok(Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => "?".to_string(),
    }
}

/// What an answer gave, as read by [`typed`], written as the answer wrote it.
fn got<T: serde::Serialize>(r: &Result<T, String>) -> String {
    match r {
        Ok(t) => named(t),
        Err(text) => text.clone(),
    }
}

/// The strings of a JSON array (other elements skipped).
pub(crate) fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn set(v: &[String], size: usize) -> BTreeSet<String> {
    v.iter().map(|p| norm(p, size)).collect()
}

/// The entry of `list` (an array of objects with `points`) whose points include `p`.
fn find_by_point<'a>(list: &'a Value, p: &str, size: usize) -> Option<&'a Value> {
    let p = norm(p, size);
    list.as_array()?
        .iter()
        .find(|e| strs(&e["points"]).iter().any(|q| norm(q, size) == p))
}

/// A set of normalised points.
type Points = BTreeSet<String>;

/// An answer's private eye as (region points, empty points): `m3go-analysis/2` gives
/// `{points, empty}`; a bare list (`m3go-analysis/1`) is the empty points, the region unknown.
fn answered_eye(eye: &Value, size: usize) -> (Option<Points>, Points) {
    if eye.is_array() {
        (None, set(&strs(eye), size))
    } else {
        (
            Some(set(&strs(&eye["points"]), size)),
            set(&strs(&eye["empty"]), size),
        )
    }
}

/// M20-EYE-REGION / M20-EYE-FIG6 — compares a string's expected private eyes with the
/// answer's (order free): each expected eye must match a distinct answered eye on the fields it
/// names (a list: the empty points; a mapping: `points`, the whole closed region, and/or
/// `empty`), and there must be as many answered eyes as expected. `None` when they agree.
fn compare_private_eyes(want: &[EyeExpect], got: &Value, size: usize) -> Option<String> {
    let got: Vec<(Option<Points>, Points)> = got
        .as_array()
        .map(|v| v.iter().map(|eye| answered_eye(eye, size)).collect())
        .unwrap_or_default();
    let want: Vec<(Option<Points>, Option<Points>)> = want
        .iter()
        .map(|w| match w {
            EyeExpect::Empty(e) => (None, Some(set(e, size))),
            EyeExpect::Region(r) => (
                r.points.as_ref().map(|p| set(p, size)),
                r.empty.as_ref().map(|e| set(e, size)),
            ),
        })
        .collect();
    let matches = |(wp, we): &(Option<Points>, Option<Points>),
                   (gp, ge): &(Option<Points>, Points)| {
        we.as_ref().is_none_or(|we| we == ge)
            && wp.as_ref().is_none_or(|wp| gp.as_ref() == Some(wp))
    };
    let mut used = vec![false; got.len()];
    let all_matched =
        want.iter().all(
            |w| match (0..got.len()).find(|&k| !used[k] && matches(w, &got[k])) {
                Some(k) => {
                    used[k] = true;
                    true
                }
                None => false,
            },
        );
    if all_matched && want.len() == got.len() {
        return None;
    }
    let fw = |(p, e): &(Option<Points>, Option<Points>)| match (p, e) {
        (Some(p), Some(e)) => format!("region {} empty {}", fmt_set(p), fmt_set(e)),
        (Some(p), None) => format!("region {}", fmt_set(p)),
        (None, Some(e)) => fmt_set(e),
        (None, None) => "any eye".into(),
    };
    let fg = |(p, e): &(Option<Points>, Points)| match p {
        Some(p) => format!("region {} empty {}", fmt_set(p), fmt_set(e)),
        None => fmt_set(e),
    };
    Some(format!(
        "expected {{{}}}, got {{{}}}",
        want.iter().map(fw).collect::<Vec<_>>().join(", "),
        got.iter().map(fg).collect::<Vec<_>>().join(", ")
    ))
}

fn fmt_set(s: &BTreeSet<String>) -> String {
    format!("[{}]", s.iter().cloned().collect::<Vec<_>>().join(" "))
}

/// Compares a case's expectations with an answer; returns the differences (empty = pass). One
/// step per kind of expectation, in the order of spec/README.md's `expect` keys; each pushes
/// its differences.
pub fn check(case: &Case, ans: &Value) -> Vec<String> {
    check_only(case, ans, None)
}

/// One step of the comparison: the differences of one kind of expectation.
type Step = fn(&Expect, &AnswerView, &mut Vec<String>);

/// The checks of a case, by their `expect` key (the `checks` of a request,
/// spec/README.md "Partial support"), in the order they are made.
const STEPS: [(&str, Step); 16] = [
    ("private_eyes", check_private_eyes),
    ("attributes", check_attributes),
    ("other_flowers", check_other_flowers),
    ("forbidden", check_forbidden),
    ("playable", check_playable),
    ("legal", check_legal),
    ("illegal", check_illegal),
    ("events", check_events),
    ("score", check_score),
    ("to_move", check_to_move),
    ("common_eyes", check_common_eyes),
    ("flystone", check_flystone),
    ("messages", check_messages),
    ("notations", check_notations),
    ("views", check_views),
    ("m2016", check_m2016),
];

/// The message of an error answer (`error.message`, or `error` itself when a program writes
/// a bare string), or `None` when the answer is not an error.
pub(crate) fn error_message(ans: &Value) -> Option<String> {
    let e = ans.get("error")?;
    if e.is_null() {
        return None;
    }
    Some(match e {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let msg = o.get("message").and_then(Value::as_str).unwrap_or("");
            match (o.get("code").and_then(Value::as_str), o.get("field")) {
                (Some(c), Some(Value::String(f))) => format!("{c} ({f}): {msg}"),
                (Some(c), _) => format!("{c}: {msg}"),
                _ => msg.to_string(),
            }
        }
        other => other.to_string(),
    })
}

/// What a program said when it refused a request rather than judge it (an error answer whose
/// code says the request was not read: `bad-request`, `unsupported-protocol`,
/// `unsupported-action`, `bad-position`, `too-large`), as [`error_message`] writes it; `None`
/// for an answer or an error about the moves (`bad-move`, `illegal-move`: a judgement).
pub(crate) fn refusal(ans: &Value) -> Option<String> {
    use crate::conform::protocol::code;
    let c = ans.get("error")?.get("code")?.as_str()?;
    [
        code::BAD_REQUEST,
        code::UNSUPPORTED_PROTOCOL,
        code::UNSUPPORTED_ACTION,
        code::BAD_POSITION,
        code::TOO_LARGE,
    ]
    .contains(&c)
    .then(|| error_message(ans))
    .flatten()
}

/// The text a case's details start with when the program answered it with an error.
pub(crate) const ANSWERED_AN_ERROR: &str = "the implementation answered an error: ";

/// Every check (an `expect` key), in the order they are made.
pub(crate) fn all_checks() -> impl Iterator<Item = &'static str> {
    STEPS.iter().map(|(k, _)| *k)
}

/// Whether `name` is a check ([`all_checks`]).
pub(crate) fn is_check(name: &str) -> bool {
    all_checks().any(|k| k == name)
}

/// The checks a case makes: the `expect` keys it gives, in the order they are made.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn checks_of(case: &Case) -> Vec<&'static str> {
    let given = serde_json::to_value(&case.expect).unwrap_or(Value::Null);
    all_checks().filter(|k| given.get(*k).is_some()).collect()
}

/// [`check`] restricted to the checks named in `only` (all when `None`): the runner leaves out
/// the checks the implementation declined.
pub(crate) fn check_only(case: &Case, ans: &Value, only: Option<&BTreeSet<String>>) -> Vec<String> {
    if let Some(e) = error_message(ans) {
        return vec![format!("{ANSWERED_AN_ERROR}{e}")];
    }
    let answer = AnswerView::of(ans, case_size(case));
    let mut d = Vec::new();
    for (key, step) in STEPS {
        if only.is_none_or(|o| o.contains(key)) {
            step(&case.expect, &answer, &mut d);
        }
    }
    d
}

/// The board size of a case: `size:`, or the rows of its diagram.
fn case_size(case: &Case) -> usize {
    case.position.size.unwrap_or_else(|| {
        case.position
            .diagram
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count()
    })
}

/// An implementation's answer to a case, as the checks read it.
struct AnswerView<'a> {
    /// The analysis of the position after the moves.
    analysis: &'a Value,
    /// What the analysis report does not carry (see [`extras`]).
    extras: &'a Value,
    /// The move-number diagram.
    numbered: &'a Value,
    /// One answer per probe.
    probes: &'a [Value],
    /// One report per move.
    reports: &'a [Value],
    size: usize,
}

impl<'a> AnswerView<'a> {
    fn of(ans: &'a Value, size: usize) -> AnswerView<'a> {
        let list = |k: &str| ans[k].as_array().map(Vec::as_slice).unwrap_or(&[]);
        AnswerView {
            analysis: &ans["analysis"],
            extras: &ans["extras"],
            numbered: &ans["numbered"],
            probes: list("probes"),
            reports: list("reports"),
            size,
        }
    }

    /// The answer to the probe of move `m`.
    fn probe(&self, m: &str) -> Option<&'a Value> {
        self.probes.iter().find(|x| x["move"].as_str() == Some(m))
    }

    /// Why `p` is forbidden to `player`'s flower, if it is: the refusal, or the answer's text
    /// when it is not a refusal code.
    fn forbidden_reason(&self, player: Colour, p: &str) -> Option<Result<Refusal, String>> {
        let size = self.size;
        self.analysis["forbidden"][player.name()]
            .as_array()
            .and_then(|v| {
                v.iter()
                    .find(|f| {
                        f["point"]
                            .as_str()
                            .is_some_and(|q| norm(q, size) == norm(p, size))
                    })
                    .map(|f| typed(&f["reason"]))
            })
    }
}

/// `private_eyes`: each named black or white string's private eyes.
fn check_private_eyes(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(pe) = &e.private_eyes {
        for (s, eyes) in pe {
            match find_by_point(&a["strings"], s, size) {
                None => d.push(format!(
                    "private_eyes {s}: expected a black or white string there, found none"
                )),
                Some(st) => {
                    if let Some(diff) = compare_private_eyes(eyes, &st["private_eyes"], size) {
                        d.push(format!("private_eyes {s}: {diff}"));
                    }
                }
            }
        }
    }
}

/// `attributes`: each named flower string's attribute and counts.
fn check_attributes(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(attrs) = &e.attributes {
        for (s, want) in attrs {
            match find_by_point(&a["flowers"], s, size) {
                None => d.push(format!(
                    "attributes {s}: expected a flower string there, found none"
                )),
                Some(f) => compare_attribute(&format!("attributes {s}"), want, f, d),
            }
        }
    }
}

/// One flower string of the answer (`f`) against an attribute expectation: the attribute and
/// each count the expectation names.
fn compare_attribute(label: &str, want: &AttrExpect, f: &Value, d: &mut Vec<String>) {
    let got = f["attribute"].as_str().unwrap_or("?");
    if got != want.attribute.name() {
        d.push(format!(
            "{label}: expected {}, got {got}",
            want.attribute.name()
        ));
    }
    for (k, w) in [
        ("hs", want.hs),
        ("hw", want.hw),
        ("bs", want.bs),
        ("bw", want.bw),
    ] {
        if let Some(w) = w {
            let g = f[k].as_u64().map(|x| x as i64).unwrap_or(-1);
            if g != i64::from(w) {
                d.push(format!("{label}: expected {k}={w}, got {k}={g}"));
            }
        }
    }
}

/// `other_flowers`: what every flower string not named in `attributes` must have.
fn check_other_flowers(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(want) = &e.other_flowers {
        let named: Vec<String> = e
            .attributes
            .iter()
            .flat_map(|m| m.keys().cloned())
            .collect();
        for f in a["flowers"].as_array().into_iter().flatten() {
            let pts = strs(&f["points"]);
            if named
                .iter()
                .any(|s| pts.iter().any(|q| norm(q, size) == norm(s, size)))
            {
                continue;
            }
            let name = pts.first().cloned().unwrap_or_default();
            compare_attribute(&format!("other_flowers {name}*"), want, f, d);
        }
    }
}

/// `forbidden`: each named point forbidden to the flower of the players named, for the reason
/// named.
fn check_forbidden(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    if let Some(fb) = &e.forbidden {
        for (p, want) in fb {
            for &pl in ForPlayers::colours(want.for_player) {
                match ans.forbidden_reason(pl, p) {
                    Some(Ok(r)) if r == want.reason => {}
                    Some(r) => d.push(format!(
                        "forbidden {p} ({}'s flower): expected {}, got {}",
                        pl.name(),
                        want.reason,
                        got(&r)
                    )),
                    None => d.push(format!(
                        "forbidden {p} ({}'s flower): expected {}, got playable",
                        pl.name(),
                        want.reason
                    )),
                }
            }
        }
    }
}

/// `playable`: each named point open to both players' flowers.
fn check_playable(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    if let Some(pl) = &e.playable {
        for p in pl {
            for who in [Colour::Black, Colour::White] {
                if let Some(r) = ans.forbidden_reason(who, p) {
                    d.push(format!(
                        "playable {p}: expected open to {}'s flower, got forbidden ({})",
                        who.name(),
                        got(&r)
                    ));
                }
            }
        }
    }
}

/// `legal`: each probed move legal.
fn check_legal(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    for m in e.legal.iter().flatten() {
        match ans.probe(m) {
            Some(p) if p["legal"] == json!(true) => {}
            Some(p) => d.push(format!(
                "legal {m}: expected legal, got refused ({})",
                p["reason"].as_str().unwrap_or("?")
            )),
            None => d.push(format!("legal {m}: no answer for this probe")),
        }
    }
}

/// `illegal`: each probed move refused for the reason named.
fn check_illegal(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    for il in e.illegal.iter().flatten() {
        match ans.probe(&il.mv) {
            Some(p) if p["legal"] == json!(true) => d.push(format!(
                "illegal {}: expected {}, got legal",
                il.mv, il.reason
            )),
            Some(p) => {
                let r = typed::<Refusal>(&p["reason"]);
                if r.as_ref().ok() != Some(&il.reason) {
                    d.push(format!(
                        "illegal {}: expected {}, got {}",
                        il.mv,
                        il.reason,
                        got(&r)
                    ));
                }
            }
            None => d.push(format!("illegal {}: no answer for this probe", il.mv)),
        }
    }
}

/// `events`: what each move did, against its report; every difference of an event with a
/// `quote` ends with the quote.
fn check_events(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let size = ans.size;
    for ev in e.events.iter().flatten() {
        let Some(r) = ans.reports.get(ev.index) else {
            d.push(format!("events[{}]: no report for that move", ev.index));
            continue;
        };
        let before = d.len();
        check_event_captured(ev, r, size, d);
        check_event_eyes_made_and_lost(ev, r, size, d);
        check_event_attributes(ev, r, size, d);
        check_event_eyes_and_ataris(ev, r, size, d);
        if let Some(q) = &ev.quote {
            for line in &mut d[before..] {
                line.push_str(&format!(" (「{q}」)"));
            }
        }
    }
}

/// The stones a move captured (`events[].captured`).
fn check_event_captured(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    if let Some(c) = &ev.captured {
        let want = set(c, size);
        let got = set(&strs(&r["captured"]), size);
        if want != got {
            d.push(format!(
                "events[{}].captured: expected {}, got {}",
                ev.index,
                fmt_set(&want),
                fmt_set(&got)
            ));
        }
    }
}

/// The strings that gained or lost a private eye (`events[].eyes_made`, `events[].eyes_lost`):
/// each named, and no other.
fn check_event_eyes_made_and_lost(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    for (key, list) in [("eyes_made", &ev.eyes_made), ("eyes_lost", &ev.eyes_lost)] {
        if let Some(list) = list {
            let entries = &r[key];
            for s in list {
                if find_by_point(entries, s, size).is_none() {
                    d.push(format!(
                        "events[{}].{key}: expected {s}, got [{}]",
                        ev.index,
                        names_of(entries)
                    ));
                }
            }
            let n = entries.as_array().map(|v| v.len()).unwrap_or(0);
            if n != list.len() {
                d.push(format!(
                    "events[{}].{key}: expected {} string(s), got {n} [{}]",
                    ev.index,
                    list.len(),
                    names_of(entries)
                ));
            }
        }
    }
}

/// The flower strings whose attribute a move changed (`events[].attributes`): each named, to
/// the attribute named, and no other.
fn check_event_attributes(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    if let Some(attrs) = &ev.attributes {
        let changes = &r["attribute_changes"];
        for (s, want) in attrs {
            match find_by_point(changes, s, size) {
                Some(c) if c["to"].as_str() == Some(want.name()) => {}
                Some(c) => d.push(format!(
                    "events[{}].attributes {s}: expected {}, got {}",
                    ev.index,
                    want.name(),
                    c["to"].as_str().unwrap_or("?")
                )),
                None => d.push(format!(
                    "events[{}].attributes {s}: expected a change to {}, got no change",
                    ev.index,
                    want.name()
                )),
            }
        }
        let n = changes.as_array().map(|v| v.len()).unwrap_or(0);
        if n != attrs.len() {
            d.push(format!(
                "events[{}].attributes: expected {} change(s), got {n} [{}]",
                ev.index,
                attrs.len(),
                names_of(changes)
            ));
        }
    }
}

/// The private eyes a move made (`events[].eyes`) and the strings it put in atari
/// (`events[].ataris`, `events[].atari_of`).
fn check_event_eyes_and_ataris(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    for (s, eyes) in ev.eyes.iter().flatten() {
        let Some(made) = find_by_point(&r["eyes_made"], s, size) else {
            d.push(format!(
                "events[{}].eyes {s}: expected the string among eyes_made, got [{}]",
                ev.index,
                names_of(&r["eyes_made"])
            ));
            continue;
        };
        let got: BTreeSet<BTreeSet<String>> = made["eyes"]
            .as_array()
            .map(|v| v.iter().map(|eye| set(&strs(eye), size)).collect())
            .unwrap_or_default();
        for eye in eyes {
            let want = set(eye, size);
            if !got.contains(&want) {
                d.push(format!(
                    "events[{}].eyes {s}: expected a private eye {}, got {{{}}}",
                    ev.index,
                    fmt_set(&want),
                    got.iter().map(fmt_set).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    for s in ev.ataris.iter().flatten() {
        if find_by_point(&r["ataris"], s, size).is_none() {
            d.push(format!(
                "events[{}].ataris: expected {s} put in atari, got [{}]",
                ev.index,
                names_of(&r["ataris"])
            ));
        }
    }
    if let Some(colour) = &ev.atari_of {
        let n = r["ataris"].as_array().map(|v| v.len()).unwrap_or(0);
        if n == 0 {
            d.push(format!(
                "events[{}].atari_of: expected a {} string put in atari, got none",
                ev.index,
                colour.name()
            ));
        }
    }
}

/// `score`: the areas in half-points and the winner.
fn check_score(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let a = ans.analysis;
    if let Some(s) = &e.score {
        let sc = &a["score"];
        if sc.is_null() {
            d.push(format!(
                "score: expected a score, got none ({})",
                a["score_error"].as_str().unwrap_or("no reason given")
            ));
        } else {
            for (k, w) in [
                ("black", s.black),
                ("white", s.white),
                ("neutral", s.neutral),
            ] {
                if let Some(w) = w {
                    let g = sc[k].as_i64().unwrap_or(i64::MIN);
                    if g != i64::from(w) {
                        d.push(format!("score.{k}: expected {w} half-points, got {g}"));
                    }
                }
            }
            if let Some(w) = s.winner {
                let g = typed::<m3go_engine::judge::Winner>(&sc["winner"]);
                if g.as_ref().ok() != Some(&w) {
                    d.push(format!("score.winner: expected {w}, got {}", got(&g)));
                }
            }
        }
    }
}

/// One field of `to_move`: its key, the expected value written and whether the answer agrees
/// (if expected), the answer written.
type ToMoveField = (&'static str, Option<(String, bool)>, String);

/// `to_move`: the number, player, kind and symbol of the next move, its team round and seat.
fn check_to_move(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (a, x) = (ans.analysis, ans.extras);
    if let Some(t) = &e.to_move {
        let tm = &a["to_move"];
        let text = |v: &Value, absent: &str| v.as_str().unwrap_or(absent).to_string();
        let kind = typed::<StoneKind>(&tm["kind"]);
        let fields: [ToMoveField; 6] = [
            {
                let g = a["move"].as_u64();
                let w = t.number.map(|n| (n.to_string(), g == Some(u64::from(n))));
                ("move", w, g.map(|n| n.to_string()).unwrap_or_default())
            },
            (
                "player",
                t.player
                    .map(|c| (c.name().to_string(), Some(c) == typed(&tm["player"]).ok())),
                text(&tm["player"], "?"),
            ),
            (
                "kind",
                t.kind.map(|k| (named(&k), kind.as_ref().ok() == Some(&k))),
                got(&kind),
            ),
            {
                let g = text(&tm["symbol"], "?");
                ("symbol", t.symbol.clone().map(|w| (w.clone(), w == g)), g)
            },
            {
                let g = x["team"]["round"].as_u64();
                let w = t.round.map(|n| (n.to_string(), g == Some(u64::from(n))));
                (
                    "round",
                    w,
                    g.map(|n| n.to_string()).unwrap_or_else(|| "none".into()),
                )
            },
            (
                "seat",
                t.seat
                    .map(|s| (s.to_string(), Some(s) == typed(&x["team"]["seat"]).ok())),
                text(&x["team"]["seat"], "none"),
            ),
        ];
        for (k, want, got) in fields {
            if let Some((w, false)) = want {
                d.push(format!("to_move.{k}: expected {w}, got {got}"));
            }
        }
    }
}

/// `common_eyes`: the 2016 common eyes of each named black or white upper string.
fn check_common_eyes(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (x, size) = (ans.extras, ans.size);
    if let Some(ce) = &e.common_eyes {
        for (s, eyes) in ce {
            let want: BTreeSet<BTreeSet<String>> = eyes.iter().map(|eye| set(eye, size)).collect();
            match find_by_point(&x["common_eyes"], s, size) {
                None => d.push(format!(
                    "common_eyes {s}: expected a black or white upper string there, found none"
                )),
                Some(st) => {
                    let got: BTreeSet<BTreeSet<String>> = st["common_eyes"]
                        .as_array()
                        .map(|v| {
                            v.iter()
                                .map(|eye| set(&strs(&eye["points"]), size))
                                .collect()
                        })
                        .unwrap_or_default();
                    if got != want {
                        let f = |x: &BTreeSet<BTreeSet<String>>| {
                            x.iter().map(fmt_set).collect::<Vec<_>>().join(", ")
                        };
                        d.push(format!(
                            "common_eyes {s}: expected {{{}}}, got {{{}}}",
                            f(&want),
                            f(&got)
                        ));
                    }
                }
            }
        }
    }
}

/// The answered name (normalised) of the string of `list` (objects with `points`, `name`)
/// through the point `p`.
fn string_named(list: &Value, p: &str, size: usize) -> Option<String> {
    find_by_point(list, p, size).map(|s| norm(s["name"].as_str().unwrap_or(""), size))
}

/// The empty points of region `k` of an answered analysis (`regions[k]`: the empty strings it
/// is made of, or every one but those it leaves out).
fn region_empty(analysis: &Value, k: usize, size: usize) -> Points {
    let empties = analysis["empty_strings"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let r = &analysis["regions"][k];
    let idx = |v: &Value| -> Vec<usize> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_u64())
                    .map(|n| n as usize)
                    .collect()
            })
            .unwrap_or_default()
    };
    let held: Vec<usize> = if r["of"].is_object() {
        idx(&r["of"]["empty_strings"])
    } else {
        let but = idx(&r["except"]["empty_strings"]);
        (0..empties.len()).filter(|j| !but.contains(j)).collect()
    };
    held.iter()
        .filter_map(|&j| empties.get(j))
        .flat_map(|e| strs(&e["points"]))
        .map(|p| norm(&p, size))
        .collect()
}

/// An answer's 2016 concepts as the `m2016` steps read them: the analysis, its `m2016` section
/// and that section's upper strings.
struct Concepts<'a> {
    analysis: &'a Value,
    c: &'a Value,
    upper: &'a Value,
    size: usize,
}

impl Concepts<'_> {
    /// A list of case strings -> the set of answered names; `None` (with a difference) when one
    /// names no string.
    fn names(&self, v: &[String], what: &str, d: &mut Vec<String>) -> Option<Points> {
        let mut out = Points::new();
        for s in v {
            match string_named(self.upper, s, self.size) {
                Some(n) => {
                    out.insert(n);
                }
                None => {
                    d.push(format!(
                        "m2016.{what}: no black or white upper string at {s}"
                    ));
                    return None;
                }
            }
        }
        Some(out)
    }

    /// An answered list of points or names, normalised.
    fn answered(&self, v: &Value) -> Points {
        strs(v).iter().map(|p| norm(p, self.size)).collect()
    }
}

/// `m2016`: 000's 2016 concepts (`analysis.m2016`), each key named compared.
fn check_m2016(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let Some(m) = &e.m2016 else { return };
    let (a, size) = (ans.analysis, ans.size);
    let c = &a["m2016"];
    if c.is_null() {
        d.push("m2016: expected the 2016 concepts, got none (not the m2016 eye rule?)".into());
        return;
    }
    let cx = Concepts {
        analysis: a,
        c,
        upper: &c["strings"],
        size,
    };
    if let Some(eyes) = &m.eyes {
        for (s, want) in eyes {
            check_m2016_eyes(&cx, s, want, d);
        }
    }
    check_m2016_strings(&cx, m, d);
    if let Some(groups) = &m.groups {
        for g in groups {
            let Some(w) = cx.names(g, "groups", d) else {
                continue;
            };
            let found = c["groups"]
                .as_array()
                .is_some_and(|v| v.iter().any(|x| cx.answered(x) == w));
            if !found {
                d.push(format!(
                    "m2016.groups: expected a group {}, got none",
                    fmt_set(&w)
                ));
            }
        }
    }
    if let Some(chains) = &m.chains {
        for ch in chains {
            check_m2016_chain(&cx, ch, d);
        }
    }
    if let Some(conds) = &m.conditions {
        for (s, regions) in conds {
            check_m2016_conditions(&cx, s, regions, d);
        }
    }
}

/// `m2016.eyes`: the eyes of upper string `s`, each expected one matching a distinct answered
/// eye on the fields it names, and as many.
fn check_m2016_eyes(
    cx: &Concepts,
    s: &String,
    want: &[crate::conform::case::Eye2016Expect],
    d: &mut Vec<String>,
) {
    let size = cx.size;
    let Some(n) = cx
        .names(std::slice::from_ref(s), "eyes", d)
        .and_then(|x| x.into_iter().next())
    else {
        return;
    };
    let got: Vec<&Value> = cx.c["eyes"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter(|e| cx.answered(&e["owners"]).contains(&n))
                .collect()
        })
        .unwrap_or_default();
    let matches = |w: &crate::conform::case::Eye2016Expect, g: &Value| {
        w.empty
            .as_ref()
            .is_none_or(|p| set(p, size) == cx.answered(&g["empty"]))
            && w.kind
                .as_deref()
                .is_none_or(|k| g["kind"].as_str() == Some(k))
            && w.true_eye
                .is_none_or(|t| g["true_eye"].as_bool() == Some(t))
    };
    let mut used = vec![false; got.len()];
    let all = want.iter().all(
        |w| match (0..got.len()).find(|&k| !used[k] && matches(w, got[k])) {
            Some(k) => {
                used[k] = true;
                true
            }
            None => false,
        },
    );
    if !all || want.len() != got.len() {
        let g: Vec<String> = got
            .iter()
            .map(|g| {
                format!(
                    "{} {} {}",
                    g["kind"].as_str().unwrap_or("?"),
                    if g["true_eye"].as_bool() == Some(true) {
                        "true"
                    } else {
                        "false"
                    },
                    fmt_set(&cx.answered(&g["empty"]))
                )
            })
            .collect();
        d.push(format!(
            "m2016.eyes {s}: expected {} eye(s) as listed, got {{{}}}",
            want.len(),
            g.join(", ")
        ));
    }
}

/// `m2016.true_eyes`, `long_living`, `seki` and `dead`: what the concepts say of the upper
/// strings.
fn check_m2016_strings(cx: &Concepts, m: &crate::conform::case::M2016Expect, d: &mut Vec<String>) {
    let (upper, size) = (cx.upper, cx.size);
    if let Some(t) = &m.true_eyes {
        for (s, want) in t {
            match find_by_point(upper, s, size) {
                None => d.push(format!(
                    "m2016.true_eyes: no black or white upper string at {s}"
                )),
                Some(st) => {
                    let got = &st["true_eyes"];
                    if got.as_u64() != Some(*want as u64) {
                        d.push(format!("m2016.true_eyes {s}: expected {want}, got {got}"));
                    }
                }
            }
        }
    }
    if let Some(l) = &m.long_living {
        for (s, want) in l {
            match find_by_point(upper, s, size) {
                None => d.push(format!(
                    "m2016.long_living: no black or white upper string at {s}"
                )),
                Some(st) => {
                    if st["long_living"].as_bool() != Some(*want) {
                        d.push(format!("m2016.long_living {s}: expected {want}"));
                    }
                }
            }
        }
    }
    for (what, want, got) in [
        ("seki", &m.seki, &cx.c["seki"]),
        ("dead", &m.dead, &cx.c["dead"]),
    ] {
        if let Some(w) = want {
            if let Some(w) = cx.names(w, what, d) {
                let g = cx.answered(got);
                if w != g {
                    d.push(format!(
                        "m2016.{what}: expected {}, got {}",
                        fmt_set(&w),
                        fmt_set(&g)
                    ));
                }
            }
        }
    }
}

/// `m2016.chains`: an answered chain of the same strings, with the sub-chain and the strings
/// split off where named.
fn check_m2016_chain(cx: &Concepts, ch: &crate::conform::case::ChainExpect, d: &mut Vec<String>) {
    let Some(w) = cx.names(&ch.strings, "chains", d) else {
        return;
    };
    let got = cx.c["chains"]
        .as_array()
        .and_then(|v| v.iter().find(|x| cx.answered(&x["strings"]) == w));
    let Some(got) = got else {
        d.push(format!(
            "m2016.chains: expected a chain {}, got none",
            fmt_set(&w)
        ));
        return;
    };
    for (k, want) in [("sub_chain", &ch.sub_chain), ("split_off", &ch.split_off)] {
        if let Some(want) = want {
            if let Some(want) = cx.names(want, "chains", d) {
                let g = cx.answered(&got[k]);
                if want != g {
                    d.push(format!(
                        "m2016.chains {}: {k} expected {}, got {}",
                        fmt_set(&w),
                        fmt_set(&want),
                        fmt_set(&g)
                    ));
                }
            }
        }
    }
}

/// `m2016.conditions`: the conditions a–d of the closed regions of string `s`, each region
/// named by its empty points.
fn check_m2016_conditions(
    cx: &Concepts,
    s: &String,
    regions: &[crate::conform::case::ConditionsExpect],
    d: &mut Vec<String>,
) {
    let (a, size) = (cx.analysis, cx.size);
    let Some(n) = string_named(&a["strings"], s, size) else {
        d.push(format!("m2016.conditions: no black or white string at {s}"));
        return;
    };
    for w in regions {
        let empty = set(&w.empty, size);
        let got = cx.c["conditions"].as_array().and_then(|v| {
            v.iter().find(|k| {
                k["string"].as_str().map(|x| norm(x, size)) == Some(n.clone())
                    && k["region"]
                        .as_u64()
                        .is_some_and(|r| region_empty(a, r as usize, size) == empty)
            })
        });
        let Some(got) = got else {
            d.push(format!(
                "m2016.conditions {s}: no closed region with the empty points {}",
                fmt_set(&empty)
            ));
            continue;
        };
        for (k, want) in [
            ("a", w.a),
            ("b", w.b),
            ("capture", w.capture),
            ("c", w.c),
            ("d", w.d),
        ] {
            if let Some(want) = want {
                if got[k].as_bool() != Some(want) {
                    d.push(format!(
                        "m2016.conditions {s} {}: {k} expected {want}, got {}",
                        fmt_set(&empty),
                        got[k]
                    ));
                }
            }
        }
    }
}

/// `flystone`: the random flystone turns, the flystones thrown and the chosen ones left.
fn check_flystone(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let x = ans.extras;
    if let Some(f) = &e.flystone {
        let fs = &x["flystone"];
        if fs.is_null() {
            d.push(
                "flystone: expected a Flystone state, got none (not a flystone schedule)".into(),
            );
            return;
        }
        let nums = |v: &Value| -> Vec<u64> {
            v.as_array()
                .map(|a| a.iter().filter_map(|n| n.as_u64()).collect())
                .unwrap_or_default()
        };
        let lists = [
            (
                "random_black",
                &f.random_black,
                nums(&fs["random"]["black"]),
            ),
            (
                "random_white",
                &f.random_white,
                nums(&fs["random"]["white"]),
            ),
            ("thrown", &f.thrown, nums(&fs["thrown"])),
        ];
        for (k, want, got) in lists {
            if let Some(w) = want {
                let w: Vec<u64> = w.iter().map(|&n| u64::from(n)).collect();
                if w != got {
                    d.push(format!("flystone.{k}: expected {w:?}, got {got:?}"));
                }
            }
        }
        for (k, want, got) in [
            (
                "chosen_left_black",
                f.chosen_left_black,
                &fs["chosen_left"]["black"],
            ),
            (
                "chosen_left_white",
                f.chosen_left_white,
                &fs["chosen_left"]["white"],
            ),
        ] {
            if let Some(w) = want {
                let g = got.as_u64().map(|n| n as i64).unwrap_or(-1);
                if g != i64::from(w) {
                    d.push(format!("flystone.{k}: expected {w}, got {g}"));
                }
            }
        }
    }
}

/// `messages`: each probed move refused with a message containing the text named.
fn check_messages(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    for (m, want) in e.messages.iter().flatten() {
        match ans.probe(m) {
            Some(p) if p["legal"] == json!(true) => d.push(format!(
                "messages {m}: expected a refusal mentioning `{want}`, got legal"
            )),
            Some(p) => {
                let got = p["message"].as_str().unwrap_or("");
                if !got.contains(want.as_str()) {
                    d.push(format!(
                        "messages {m}: expected the message to contain `{want}`, got `{got}`"
                    ));
                }
            }
            None => d.push(format!("messages {m}: no answer for this probe")),
        }
    }
}

/// `notations`: the notation written for each move, in order.
fn check_notations(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    if let Some(want) = &e.notations {
        let got: Vec<String> = ans
            .reports
            .iter()
            .map(|r| r["notation"].as_str().unwrap_or("?").to_string())
            .collect();
        if *want != got {
            d.push(format!(
                "notations: expected [{}], got [{}]",
                want.join(" "),
                got.join(" ")
            ));
        }
    }
}

/// `views`: the holographic and upper boards (whitespace free), the star points and the
/// move-number diagram.
fn check_views(e: &Expect, ans: &AnswerView, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(v) = &e.views {
        for (k, want) in [("holographic", &v.holographic), ("upper", &v.upper)] {
            if let Some(want) = want {
                let squash = |s: &str| -> Vec<String> {
                    s.lines()
                        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
                        .filter(|l| !l.is_empty())
                        .collect()
                };
                let got: Vec<String> = strs(&a["boards"][k])
                    .iter()
                    .flat_map(|l| squash(l))
                    .collect();
                if squash(want) != got {
                    d.push(format!(
                        "views.{k}: expected\n{}\ngot\n{}",
                        squash(want).join("\n"),
                        got.join("\n")
                    ));
                }
            }
        }
        if let Some(want) = &v.star_points {
            let got = set(&strs(&a["boards"]["star_points"]), size);
            if set(want, size) != got {
                d.push(format!(
                    "views.star_points: expected {}, got {}",
                    fmt_set(&set(want, size)),
                    fmt_set(&got)
                ));
            }
        }
        if let Some(want) = &v.numbered {
            let tokens = |s: &str| -> Vec<Vec<String>> {
                s.lines()
                    .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                    .filter(|l| !l.is_empty())
                    .collect()
            };
            let got: Vec<Vec<String>> = strs(ans.numbered).iter().flat_map(|l| tokens(l)).collect();
            if tokens(want) != got {
                let show = |t: &Vec<Vec<String>>| {
                    t.iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")
                };
                d.push(format!(
                    "views.numbered: expected\n{}\ngot\n{}",
                    show(&tokens(want)),
                    show(&got)
                ));
            }
        }
    }
}

fn names_of(v: &Value) -> String {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["string"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}
