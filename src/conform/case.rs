//! The case file (spec/README.md "Conformance case"): what a case is, what it expects, where
//! it starts (a position or a game record). The request it becomes is built in `request`.

use crate::conform::suite::{suite_text, BUILTIN};
use m3go_engine::game::{from_yaml, Seat};
use m3go_engine::judge::Winner;
use m3go_engine::{Attribute, Colour, InputError, Place, Refusal, Setup, StoneKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a case's rule text comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub seed: String,
    pub quote: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttrExpect {
    #[schemars(with = "String")]
    pub attribute: Attribute,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hw: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForbidExpect {
    // capture-point | one-liberty-eye | tigers-mouth (checked by `Case::load`); a comment, not
    // a doc comment, so that the schema stays as published
    #[schemars(with = "String")]
    pub reason: Refusal,
    /// black | white | both (default both)
    #[serde(default, rename = "for", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub for_player: Option<ForPlayers>,
}

/// Whose flowers a `forbidden` expectation names: `for: black | white | both`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ForPlayers {
    Black,
    White,
    Both,
}

impl ForPlayers {
    /// The players named (`both` when the key is absent).
    pub fn colours(of: Option<ForPlayers>) -> &'static [Colour] {
        match of {
            Some(ForPlayers::Black) => &[Colour::Black],
            Some(ForPlayers::White) => &[Colour::White],
            None | Some(ForPlayers::Both) => &[Colour::Black, Colour::White],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IllegalExpect {
    #[serde(rename = "move")]
    pub mv: String,
    #[schemars(with = "String")]
    pub reason: Refusal,
}

/// Whose turn it is after `moves`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToMoveExpect {
    /// The next move's number.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// black | white
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub player: Option<Colour>,
    /// own | flower
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub kind: Option<StoneKind>,
    /// 黑 | 白 | 华 | 花
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Team format: the round and the seat (A | B | C | D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub seat: Option<Seat>,
}

/// The Flystone state after `moves`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlystoneExpect {
    /// Random flystone turns (ordinals of the side's own-colour turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_black: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_white: Option<Vec<u32>>,
    /// Move numbers of the flystone moves made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thrown: Option<Vec<u32>>,
    /// Chosen flystones left before the next move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_left_black: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_left_white: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventExpect {
    pub index: usize,
    /// The sentence of the source this event checks (shown in failures, not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes_made: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes_lost: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub attributes: Option<BTreeMap<String, Attribute>>,
    /// String (any point) -> private eyes it must have after the move, each as the empty points
    /// of its closed region ("为白棋串A七*做出私眼O六*"); the string must be among `eyes_made`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes: Option<BTreeMap<String, Vec<Vec<String>>>>,
    /// Strings (any point) the move put in atari (叫吃); others may be too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ataris: Option<Vec<String>>,
    /// A colour (black | white) at least one of whose strings the move put in atari, when the
    /// text does not name the string ("花290.六三叫吃黑棋串").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub atari_of: Option<Colour>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neutral: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub winner: Option<Winner>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewsExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holographic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<String>,
    /// The star points of the board (order free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub star_points: Option<Vec<String>>,
    /// The move-number diagram of the case's `moves` (tokens compared row by row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numbered: Option<String>,
}

/// One expected private eye (M20-EYE-REGION, M20-EYE-FIG6): a list of points is the eye's empty
/// points (as in cases written for `m3go-analysis/1`); a mapping names the closed region's
/// `points` (every point, the stones inside included) and/or its `empty` points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EyeExpect {
    Empty(Vec<String>),
    Region(EyeRegionExpect),
}

/// The mapping form of [`EyeExpect`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EyeRegionExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<Vec<String>>,
}

/// What a case expects; every key optional, at least one present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_eyes: Option<BTreeMap<String, Vec<EyeExpect>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributes: Option<BTreeMap<String, AttrExpect>>,
    /// What every flower string not named in `attributes` must have ("其它花棋串仍保持中性").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_flowers: Option<AttrExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<BTreeMap<String, ForbidExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<Vec<IllegalExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<ViewsExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<ToMoveExpect>,
    /// 2016 common eyes (公眼) of black/white upper strings: string -> its common eyes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub common_eyes: Option<BTreeMap<String, Vec<Vec<String>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flystone: Option<FlystoneExpect>,
    /// Refused moves -> text their message must contain (e.g. whose turn it is). Each move is
    /// also probed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<BTreeMap<String, String>>,
    /// The notation the engine writes for each move of `moves`, in order (`黑19.一B`, `33B.H九`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notations: Option<Vec<String>>,
    /// 000's 2016 concepts (`analysis.m2016`): eyes true and false, conditions a–d, chains,
    /// groups, long life, seki, dead strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub m2016: Option<M2016Expect>,
}

/// What a case expects of `analysis.m2016`; every key optional. Strings are named by any of
/// their points.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct M2016Expect {
    /// Upper string -> every eye it has (private and common); each expected eye must match a
    /// distinct answered eye on the fields it names, and the counts must agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes: Option<BTreeMap<String, Vec<Eye2016Expect>>>,
    /// Upper string -> how many true eyes it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub true_eyes: Option<BTreeMap<String, usize>>,
    /// String (lower layer) -> closed regions, each named by its empty points, with the
    /// conditions named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<BTreeMap<String, Vec<ConditionsExpect>>>,
    /// Chains: each must be an answered chain (same strings), with the sub-chain and the
    /// strings split off if named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chains: Option<Vec<ChainExpect>>,
    /// Groups: each must be an answered group (same strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<Vec<String>>>,
    /// Upper string -> long-living or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_living: Option<BTreeMap<String, bool>>,
    /// Every string in seki (compared whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seki: Option<Vec<String>>,
    /// Every dead string (compared whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead: Option<Vec<String>>,
}

/// One eye in [`M2016Expect::eyes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Eye2016Expect {
    /// Its empty points (order free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<Vec<String>>,
    /// private | common
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// True eye (真眼) or false eye (假眼).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub true_eye: Option<bool>,
}

/// One closed region in [`M2016Expect::conditions`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionsExpect {
    /// The region's empty points (order free).
    pub empty: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<bool>,
}

/// One chain in [`M2016Expect::chains`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainExpect {
    pub strings: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_chain: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_off: Option<Vec<String>>,
}

impl Expect {
    fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

/// One conformance case file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub clauses: Vec<String>,
    pub source: Source,
    #[serde(default)]
    pub reconstructed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The position the moves start from. With `start`, the record's start position (filled in
    /// by [`Case::load`]); without it, required.
    #[serde(default)]
    pub position: Setup,
    /// A game record replayed to give the start: the case then begins on the record's start
    /// position, replays its first `to` moves (`replay`), then plays `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<RecordStart>,
    /// The record's moves to replay (points or `pass`), filled in by [`Case::load`] from `start`.
    #[serde(skip)]
    pub replay_moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    pub expect: Expect,
}

/// How a replay is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReplayMode {
    /// 003's 机械式排局 (M20-REPLAY): a move the rules refuse becomes a pass.
    Mechanical,
    /// Every move must be legal.
    Strict,
}

/// A case's start from a game record: `start: { record: ../records/x.sgf, replay: mechanical,
/// to: 288, rules: m3go-2020 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordStart {
    /// The record (SGF or game file), relative to the case file's folder.
    pub record: String,
    pub replay: ReplayMode,
    /// Replay the moves numbered up to this one (default: every move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u32>,
    /// The rules of the replay (default m3go-2020).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<m3go_engine::rules::RulesField>,
}

impl Case {
    /// Reads and checks a case file: the id must match the file name, the expectation must say
    /// something, and (if given) every clause id must exist in rules.md.
    pub fn load(path: &str, known_clauses: Option<&BTreeSet<String>>) -> Result<Case, InputError> {
        let text = suite_text(path)?;
        let case: Case = from_yaml(&text, path)?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if case.id != stem {
            return Err(
                InputError::new(format!("id `{}` does not match the file name", case.id))
                    .file(path)
                    .expected(format!("`{stem}`")),
            );
        }
        if !case
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(InputError::expecting("lowercase letters, digits and `-`")
                .file(path)
                .key(format!("id `{}`", case.id)));
        }
        if case.expect.is_empty() {
            return Err(InputError::new("`expect` is empty")
                .file(path)
                .expected("at least one check"));
        }
        for (p, f) in case.expect.forbidden.iter().flatten() {
            if !FLOWER_REFUSALS.contains(&f.reason) {
                return Err(InputError::new(format!(
                    "forbidden {p}: `{}` is not why a point is closed to a flower",
                    f.reason
                ))
                .file(path)
                .expected(FLOWER_REFUSALS.map(Refusal::code).join(", ")));
            }
        }
        if case.clauses.is_empty() {
            return Err(InputError::new("`clauses` is empty")
                .file(path)
                .expected("clause ids from rules.md"));
        }
        let mut case = case;
        if let Some(start) = case.start.clone() {
            if case.position != Setup::default() {
                return Err(InputError::new("both `position` and `start` are given")
                    .file(path)
                    .expected("one of them"));
            }
            let dir = std::path::Path::new(path)
                .parent()
                .map(|d| d.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = std::path::Path::new(&dir).join(&start.record);
            let file = file.to_string_lossy().into_owned();
            let (setup, moves) = record_start(&file, &start)
                .map_err(|e| e.within(Place::default().file(path).key("start")))?;
            case.position = setup;
            case.replay_moves = moves;
        } else if case.position == Setup::default() {
            return Err(InputError::new("missing `position`")
                .file(path)
                .expected("a position or a `start` record"));
        }
        if let Some(known) = known_clauses {
            for c in &case.clauses {
                if !known.contains(c) {
                    return Err(
                        InputError::new(format!("clause `{c}` is not in rules.md")).file(path)
                    );
                }
            }
        }
        Ok(case)
    }

    /// The probes: moves tried one by one on the position after `moves`.
    pub fn probes(&self) -> Vec<String> {
        let mut p: Vec<String> = self.expect.legal.clone().unwrap_or_default();
        p.extend(self.expect.illegal.iter().flatten().map(|i| i.mv.clone()));
        for m in self.expect.messages.iter().flat_map(|m| m.keys()) {
            if !p.contains(m) {
                p.push(m.clone());
            }
        }
        p
    }
}

/// The refusals of a flower's forbidden points, the reasons `forbidden` may name.
const FLOWER_REFUSALS: [Refusal; 3] = [
    Refusal::CapturePoint,
    Refusal::OneLibertyEye,
    Refusal::TigersMouth,
];

/// The start position (the record's, under the start's rules) and the moves to replay (its
/// moves numbered up to `to`, as points or `pass`).
fn record_start(file: &str, start: &RecordStart) -> Result<(Setup, Vec<String>), InputError> {
    let record = if file.starts_with(BUILTIN) {
        m3go_engine::formats::record::Record::parse(
            &suite_text(file)?,
            file,
            &crate::input::read_text,
        )?
    } else {
        crate::input::load_record(file)?
    };
    let rules = match &start.rules {
        Some(r) => r.resolve().map_err(|e| InputError::from(e).key("rules"))?,
        None => m3go_engine::Rules::m3go_2020(),
    };
    let pos = record.start_position(&rules)?;
    let mut setup = pos.to_setup();
    setup.rules = m3go_engine::rules::RulesField::of(&rules);
    let mut moves = Vec::new();
    for m in &record.moves {
        if start.to.is_some_and(|t| m.number > t) {
            break;
        }
        moves.push(match m.action {
            m3go_engine::Action::Pass => "pass".to_string(),
            m3go_engine::Action::Place(p) => p.to_string(),
        });
    }
    if let Some(t) = start.to {
        let last = record.moves.last().map(|m| m.number).unwrap_or(0);
        if t > last {
            return Err(InputError::new(format!(
                "`to: {t}` is past the record's last move {last}"
            ))
            .file(file));
        }
    }
    Ok((setup, moves))
}
