//! The analysis report: the versioned JSON contract other implementations are compared on
//! (`m3go analyze --format json`, format `m3go-analysis/4`); its text rendering is `text`.

use crate::board::coord::{Point, StringName};
use crate::board::grid::Colour;
use crate::board::layers::holographic;
use crate::game::notation::Notation;
use crate::game::play::Position;
use crate::judge::analysis::Analysis;
use crate::judge::eyes::{Region, VerdictCode};
use crate::judge::forbidden::{flower_forbidden_reason, Forbidden};
use crate::judge::scoring::Score;
use crate::rules::Rules;
use serde::Serialize;
use std::collections::HashMap;

mod text;

pub(crate) use text::verdict_text;
pub use text::TextOptions;

/// What `m3go play --format json` prints: what each move did, then the analysis of the position
/// after the last one.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct PlayReport {
    /// `m3go-play/1`
    #[schemars(extend("const" = PlayReport::FORMAT))]
    pub format: &'static str,
    /// One per move, in order.
    pub reports: Vec<crate::game::play::Report>,
    /// The position after the last move.
    pub analysis: AnalysisReport,
}

impl PlayReport {
    /// Version tag of `m3go play --format json` (schema: spec/schema/play.schema.json). `/1`: the
    /// first versioned form; a report's `action` is the point's label (`七A`) or `pass`, no longer
    /// `{x, y}`.
    pub const FORMAT: &str = "m3go-play/1";

    /// The moves' reports and the final position's analysis (its legal moves listed on the
    /// position's engine).
    pub fn new(reports: Vec<crate::game::play::Report>, pos: &Position) -> PlayReport {
        PlayReport {
            format: PlayReport::FORMAT,
            reports,
            analysis: AnalysisReport::new(pos),
        }
    }
}

/// A private eye: the closed region (M20-EYE-REGION, "封闭区域R——空点串六九*（5个空点）+白棋串七九……
/// 所以封闭区域R是黑棋串五九*的私眼", 003 figure 6) — every point, the opponent stones inside
/// included — and its empty points. Written out in full: the conformance answers compare it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PrivateEyeReport {
    /// Every point of the closed region: empty points and the stones of the other strings in it.
    pub points: Vec<Point>,
    /// The empty points of the region.
    pub empty: Vec<Point>,
}

/// An empty string of the lower layer (flowers are walls there): the empty points the closed
/// regions are made of, named by its first point (003 "空点串六九*").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct EmptyStringReport {
    pub name: StringName,
    pub points: Vec<Point>,
}

/// A closed region (M20-EYE-REGION), listed once however many strings it is a region of. A
/// region is made of whole strings — empty strings, the other strings inside, and (under the
/// 2016 region, where grey stones lie inside) flower strings — so it is given by their indices:
/// those it is made of (`of`), or, when that is shorter, those of the board it leaves out
/// (`except`: the region is every empty string and every black or white string but these, and
/// no flower — the large region around a string is the whole board but the string itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ClosedRegionReport {
    /// How many points the region has (empty points and stones).
    pub size: usize,
    /// The strings the region is made of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<RegionParts>,
    /// The empty strings and black or white strings of the board the region does not hold (it
    /// holds every other one, and no flower).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub except: Option<RegionParts>,
}

/// Strings of the report, by index, that make up (or are left out of) a closed region.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RegionParts {
    /// Indices into `empty_strings`.
    pub empty_strings: Vec<usize>,
    /// Indices into `strings` (the black and white strings of the lower layer).
    pub strings: Vec<usize>,
    /// Indices into `flowers` (2016 region only; never in `except`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<usize>,
}

/// One closed region of a string and the verdict on it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RegionReport {
    /// The region (index into `regions`).
    pub region: usize,
    /// private-eye | same-colour-inside | no-adjacent-empty-string | opponent-can-make-eye
    #[schemars(with = "String")]
    pub verdict: VerdictCode,
    /// Where the opponent can make a one-liberty eye, for that verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eye_at: Option<Point>,
    pub clause: &'static str,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(
    doc,
    doc = "One string of the lower layer in the analysis: its points, liberties and private eyes."
)]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct StringReport {
    pub name: StringName,
    pub colour: Colour,
    pub points: Vec<Point>,
    pub lower_liberties: Vec<Point>,
    /// The upper string this string belongs to.
    pub upper_string: StringName,
    /// Each private eye: the closed region and its empty points (M20-EYE-FIG6).
    pub private_eyes: Vec<PrivateEyeReport>,
    /// Each closed region of the string (an index into `regions`) with the verdict on it.
    pub regions: Vec<RegionReport>,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(
    doc,
    doc = "One string of the upper layer in the analysis, with its liberties."
)]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct UpperStringReport {
    pub name: StringName,
    pub colour: Colour,
    pub points: Vec<Point>,
    pub liberties: Vec<Point>,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(
    doc,
    doc = "One flower string: its attribute, the counts that decided it and its neighbours."
)]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct FlowerReport {
    pub name: StringName,
    pub points: Vec<Point>,
    pub attribute: crate::board::layers::Attribute,
    pub hs: u32,
    pub hw: u32,
    pub bs: u32,
    pub bw: u32,
    /// Adjacent black/white strings, each once.
    pub adjacent: Vec<StringName>,
    pub clause: &'static str,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(doc, doc = "One forbidden point of a player, why, and the clause.")]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ForbiddenReport {
    pub point: Point,
    pub reason: &'static str,
    /// Whose one-liberty eye or tiger's mouth (absent for a capture point).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Colour>,
    pub clause: &'static str,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(doc, doc = "The forbidden points of each player.")]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ForbiddenByPlayer {
    pub black: Vec<ForbiddenReport>,
    pub white: Vec<ForbiddenReport>,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(
    doc,
    doc = "The board diagrams of the analysis: direct, holographic and upper."
)]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Boards {
    pub direct: Vec<String>,
    pub holographic: Vec<String>,
    pub upper: Vec<String>,
    /// The star points (M16-STAR), tengen first.
    pub star_points: Vec<Point>,
}

// Not a `///` comment: the JSON schema, derived from the type, would carry it.
#[cfg_attr(doc, doc = "Whose turn it is and with which stone.")]
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct TurnReport {
    pub player: Colour,
    pub kind: crate::game::order::StoneKind,
    pub symbol: String,
}

/// The whole report of `m3go analyze`.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct AnalysisReport {
    /// `m3go-analysis/4`
    #[schemars(extend("const" = AnalysisReport::FORMAT))]
    pub format: &'static str,
    pub rules: Rules,
    pub size: usize,
    #[serde(rename = "move")]
    pub move_number: u32,
    pub to_move: TurnReport,
    pub game_over: bool,
    pub boards: Boards,
    /// The black and white strings of the lower layer.
    pub strings: Vec<StringReport>,
    /// The empty strings of the lower layer, which the closed regions are made of.
    pub empty_strings: Vec<EmptyStringReport>,
    /// Every closed region of every string, each once (the strings refer to them by index).
    pub regions: Vec<ClosedRegionReport>,
    pub upper_strings: Vec<UpperStringReport>,
    pub flowers: Vec<FlowerReport>,
    /// Points closed to each player's flower, with the reason (judged on the upper layer).
    pub forbidden: ForbiddenByPlayer,
    /// Legal moves of the side to move, in notation.
    #[schemars(with = "Vec<String>")]
    pub legal_moves: Vec<Notation>,
    /// Legal moves that take a turn other than the schedule's: Dullstone's emergency conversions
    /// (D3-EMERGENCY) and Flystone's chosen flystones (S3-ROUND), in notation.
    #[schemars(with = "Vec<String>")]
    pub special_moves: Vec<Notation>,
    /// The count if the game ended now (after the position's dead stones are removed).
    pub score: Option<Score>,
    /// Why the score could not be computed, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_error: Option<String>,
    /// 000's 2016 concepts (true and false eyes, conditions a–d, chains, groups, long life,
    /// seki, dead strings); present only when the rules' private-eye rule is `m2016` (presets
    /// m3go-2016, m3go-2013) and the whole report is asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m2016: Option<M2016Report>,
}

/// 000's 2016 concepts on the position (`judge::concepts2016`, register D31).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct M2016Report {
    /// The black and white strings of the upper layer with their 2016 verdicts.
    pub strings: Vec<M2016StringReport>,
    /// Every eye: the 2016 private eyes (all true) and the common eyes, true or false.
    pub eyes: Vec<M2016EyeReport>,
    /// The conditions a, b, capture, c, d of every closed region of every string of `strings`
    /// of the analysis (lower layer), each judged on its own.
    pub conditions: Vec<M2016ConditionsReport>,
    /// The chains (棋链): strings linked through common eyes, at least two.
    pub chains: Vec<M2016ChainReport>,
    /// The groups (棋群), each a list of upper strings.
    pub groups: Vec<Vec<StringName>>,
    /// Strings in seki (双活).
    pub seki: Vec<StringName>,
    /// Dead strings (死棋状态).
    pub dead: Vec<StringName>,
}

/// An upper black or white string and its 2016 verdicts.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct M2016StringReport {
    pub name: StringName,
    pub colour: Colour,
    pub points: Vec<Point>,
    /// Its true eyes: the private eyes of its stones and the true common eyes it closes.
    pub true_eyes: usize,
    /// Long-living (长活) as the score judges it (register D14).
    pub long_living: bool,
    pub seki: bool,
    pub dead: bool,
}

/// One eye (000 九.2–5).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct M2016EyeReport {
    /// private | common
    pub kind: crate::judge::concepts2016::EyeKind,
    /// True eye (真眼) or false eye (假眼).
    pub true_eye: bool,
    /// The upper strings it belongs to.
    pub owners: Vec<StringName>,
    /// The region's points (a private eye: the closed region, stones inside included).
    pub points: Vec<Point>,
    pub empty: Vec<Point>,
    pub clause: &'static str,
}

/// The conditions of 000 九.2 on one closed region of a lower string.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct M2016ConditionsReport {
    /// The string (of the analysis' `strings`).
    pub string: StringName,
    /// The region (index into `regions`).
    pub region: usize,
    /// a: at least one inner liberty (M16-EYE-A).
    pub a: bool,
    /// b: no other string of its colour inside (M16-EYE-B).
    pub b: bool,
    /// The opponent strings inside can be captured by filling inside (M16-EYE-CAPTURE); null
    /// when b fails.
    pub capture: Option<bool>,
    /// c: no opponent string inside has a private eye (M16-EYE-C).
    pub c: bool,
    /// d: no opponent string inside is long-living (M16-EYE-D).
    pub d: bool,
}

/// A chain and its long-living sub-chain.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct M2016ChainReport {
    pub strings: Vec<StringName>,
    /// The common eyes linking them (indices into `eyes`).
    pub common_eyes: Vec<usize>,
    /// The largest sub-chain each of whose strings has two true eyes (empty: the chain is dying,
    /// 将死状态).
    pub sub_chain: Vec<StringName>,
    /// The strings outside it, to be split off and captured (会被分割提吃).
    pub split_off: Vec<StringName>,
}

/// The words of a region's key: one bit a point of the largest board.
const REGION_KEY_WORDS: usize =
    (crate::board::coord::MAX_SIZE * crate::board::coord::MAX_SIZE).div_ceil(64);

/// How much of an [`AnalysisReport`] is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportScope {
    /// Every field.
    Whole,
    /// The verdicts: the direct board, the strings with their private eyes, the flowers, the
    /// forbidden points, the legal and special moves and the score; the closed regions (and
    /// each string's list of them), the empty and upper strings and the holographic and upper
    /// boards are left empty. What `m3go diff` compares of m3go's own answer.
    Verdicts,
}

/// The closed regions of a report, each once: a region met again (the region of two strings)
/// gets the index it was given first.
#[derive(Default)]
struct RegionList {
    list: Vec<ClosedRegionReport>,
    /// The regions listed so far by their points, as a bitset of the board (exact and cheap to
    /// hash: six words, however many points a region has).
    seen: HashMap<[u64; REGION_KEY_WORDS], usize>,
    /// Which empty strings, strings and flower strings the region being listed holds (reused).
    held: [Vec<bool>; 3],
    /// Per point of the board: the kind (0 empty string, 1 string, 2 flower string) and index of
    /// the string it belongs to, made with the first region listed (the same for every region).
    part: Vec<Option<(usize, usize)>>,
}

impl RegionList {
    /// The index of region `r` of analysis `a` (`empties` the empty strings of its lower layer),
    /// listed as the whole strings it is made of or, when shorter, those it leaves out.
    fn index(
        &mut self,
        r: &Region,
        a: &Analysis,
        empties: &crate::board::strings::Strings,
    ) -> usize {
        let mut key = [0u64; REGION_KEY_WORDS];
        for &i in &r.points {
            key[i / 64] |= 1 << (i % 64);
        }
        if let Some(&k) = self.seen.get(&key) {
            return k;
        }
        let counts = [
            empties.groups.len(),
            a.lower_strings.groups.len(),
            a.flowers.len(),
        ];
        for (held, n) in self.held.iter_mut().zip(counts) {
            held.clear();
            held.resize(n, false);
        }
        if self.part.is_empty() {
            self.part = (0..empties.of.len())
                .map(|i| {
                    if let Some(e) = empties.of[i] {
                        Some((0, e))
                    } else if let Some(g) = a.lower_strings.of[i] {
                        Some((1, g))
                    } else {
                        a.flower_of[i].map(|f| (2, f))
                    }
                })
                .collect();
        }
        let mut held_count = [0usize; 3];
        for &i in &r.points {
            if let Some((kind, j)) = self.part[i] {
                if !self.held[kind][j] {
                    self.held[kind][j] = true;
                    held_count[kind] += 1;
                }
            }
        }
        // in index order, as the strings are listed
        let pick = |held: &[bool], want: bool| -> Vec<usize> {
            (0..held.len()).filter(|&j| held[j] == want).collect()
        };
        let [he, hs, hf] = &self.held;
        // the region as the strings it holds or, when that is shorter and it holds no flower,
        // as those it leaves out (their counts known before either list is made)
        let held_len = held_count.iter().sum::<usize>();
        let left_len = (he.len() - held_count[0]) + (hs.len() - held_count[1]);
        let (of, except) = if held_count[2] == 0 && left_len < held_len {
            let except = RegionParts {
                empty_strings: pick(he, false),
                strings: pick(hs, false),
                flowers: Vec::new(),
            };
            (None, Some(except))
        } else {
            let of = RegionParts {
                empty_strings: pick(he, true),
                strings: pick(hs, true),
                flowers: pick(hf, true),
            };
            (Some(of), None)
        };
        let k = self.list.len();
        self.list.push(ClosedRegionReport {
            size: r.points.len(),
            of,
            except,
        });
        self.seen.insert(key, k);
        k
    }
}

/// The [`M2016Report`] of a position, `regions` the report's closed regions (the conditions
/// name theirs by index).
fn m2016_report(
    pos: &Position,
    a: &Analysis,
    regions: &mut RegionList,
    empties: &crate::board::strings::Strings,
) -> M2016Report {
    let c = crate::judge::concepts2016::concepts_2016(a, pos.rules());
    let b = pos.board();
    let names = |v: &[usize]| -> Vec<Point> { v.iter().map(|&i| b.point(i)).collect() };
    let up = |u: usize| StringName(b.point(a.upper_strings.groups[u].points[0]));
    let ups = |v: &[usize]| -> Vec<StringName> { v.iter().map(|&u| up(u)).collect() };
    let colours: Vec<usize> = (0..a.upper_strings.groups.len())
        .filter(|&u| a.upper_strings.groups[u].colour.is_some())
        .collect();
    let flagged = |f: &[bool]| -> Vec<StringName> {
        colours.iter().copied().filter(|&u| f[u]).map(up).collect()
    };
    let mut conditions = Vec::new();
    for (g, s) in a.lower_strings.groups.iter().enumerate() {
        for ((r, _), k) in a.regions[g]
            .iter()
            .zip(c.conditions.get(g).into_iter().flatten())
        {
            conditions.push(M2016ConditionsReport {
                string: StringName(b.point(s.points[0])),
                region: regions.index(r, a, empties),
                a: k.a,
                b: k.b,
                capture: k.capture,
                c: k.c,
                d: k.d,
            });
        }
    }
    M2016Report {
        strings: colours
            .iter()
            .map(|&u| {
                let s = &a.upper_strings.groups[u];
                M2016StringReport {
                    name: up(u),
                    colour: s.colour.unwrap_or(Colour::Black),
                    points: names(&s.points),
                    true_eyes: c.true_eyes[u],
                    long_living: c.long_living[u],
                    seki: c.seki[u],
                    dead: c.dead[u],
                }
            })
            .collect(),
        eyes: c
            .eyes
            .iter()
            .map(|e| M2016EyeReport {
                kind: e.kind,
                true_eye: e.true_eye,
                owners: ups(&e.owners),
                points: names(&e.points),
                empty: names(&e.empty),
                clause: e.clause,
            })
            .collect(),
        conditions,
        chains: c
            .chains
            .iter()
            .map(|ch| M2016ChainReport {
                strings: ups(&ch.strings),
                common_eyes: ch.eyes.clone(),
                sub_chain: ups(&ch.sub_chain),
                split_off: ups(&ch.split_off),
            })
            .collect(),
        groups: c.groups.iter().map(|g| ups(g)).collect(),
        seki: flagged(&c.seki),
        dead: flagged(&c.dead),
    }
}

fn lines(s: &str) -> Vec<String> {
    s.lines().map(str::to_string).collect()
}

/// The forbidden points of `player`'s flower.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn forbidden_points(
    a: &Analysis,
    rules: &Rules,
    player: Colour,
) -> Vec<(usize, Forbidden)> {
    (0..a.board.len())
        .filter_map(|i| flower_forbidden_reason(a, rules, i, player).map(|f| (i, f)))
        .collect()
}

/// The labels of points given by index.
fn point_names(b: &crate::board::grid::Board, v: &[usize]) -> Vec<Point> {
    v.iter().map(|&i| b.point(i)).collect()
}

/// The strings of the lower layer with their private eyes and (`whole`) their closed regions
/// with the verdicts, each region listed once in `regions`.
fn string_reports(
    pos: &Position,
    a: &Analysis,
    whole: bool,
    regions: &mut RegionList,
    empties: &crate::board::strings::Strings,
) -> Vec<StringReport> {
    let b = pos.board();
    let names = |v: &[usize]| point_names(b, v);
    let name = |v: &[usize]| b.string_name(v);
    a.lower_strings
        .groups
        .iter()
        .enumerate()
        .map(|(g, s)| StringReport {
            name: name(&s.points),
            colour: s.colour.unwrap_or(Colour::Black),
            points: names(&s.points),
            lower_liberties: names(&s.liberties),
            upper_string: name(
                a.upper_strings
                    .at(s.points[0])
                    .map_or(&s.points, |u| &u.points),
            ),
            private_eyes: a
                .private_eyes(g)
                .map(|r| PrivateEyeReport {
                    points: names(&r.points),
                    empty: names(&r.empty),
                })
                .collect(),
            regions: a.regions[g]
                .iter()
                .filter(|_| whole)
                .map(|(r, v)| RegionReport {
                    region: regions.index(r, a, empties),
                    verdict: v.code(),
                    eye_at: v.point().map(|p| b.point(p)),
                    clause: v.clause_under(pos.rules().private_eye),
                })
                .collect(),
        })
        .collect()
}

/// The flower strings with their attribute, its counts and clause, and the strings beside them.
fn flower_reports(b: &crate::board::grid::Board, a: &Analysis) -> Vec<FlowerReport> {
    a.flowers
        .iter()
        .map(|f| FlowerReport {
            name: b.string_name(&f.points),
            points: point_names(b, &f.points),
            attribute: f.attribute,
            hs: f.counts.hs,
            hw: f.counts.hw,
            bs: f.counts.bs,
            bw: f.counts.bw,
            adjacent: f
                .adjacent
                .iter()
                .map(|&g| b.string_name(&a.lower_strings.groups[g].points))
                .collect(),
            clause: f.clause,
        })
        .collect()
}

/// The points forbidden to `player`'s flower, with their reason, owner and clause.
fn forbidden_report(pos: &Position, a: &Analysis, player: Colour) -> Vec<ForbiddenReport> {
    let b = pos.board();
    forbidden_points(a, pos.rules(), player)
        .into_iter()
        .map(|(i, f)| ForbiddenReport {
            point: b.point(i),
            reason: f.code(),
            owner: f.owner(),
            clause: f.clause(),
        })
        .collect()
}

/// The legal moves of the player to move and the special moves, in notation.
fn move_lists(pos: &Position) -> (Vec<Notation>, Vec<Notation>) {
    let legal_moves = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.notation(&m))
        .collect();
    let special_moves = pos
        .special_moves()
        .into_iter()
        .map(|m| pos.notation(&m))
        .collect();
    (legal_moves, special_moves)
}

impl AnalysisReport {
    /// Version tag of the analysis JSON (schema: spec/schema/analysis.schema.json). `/2`: a private
    /// eye is reported as its closed region (`points`) with its empty points (`empty`), not by its
    /// empty points alone. `/3`: `score.points` is a list of objects `{point, owner, clause}`, not of
    /// `[point, owner, clause]` arrays. `/4`: each closed region is listed once, in `regions`, as the
    /// empty strings (`empty_strings`), strings and flower strings it is made of; a string's
    /// `regions` give the index of each of its regions with the verdict. The optional section
    /// `m2016` (000's concepts, under the 2016 eye rule only) was added within `/4`: absent under
    /// the other presets, it changes no earlier field.
    pub const FORMAT: &str = "m3go-analysis/4";

    /// Builds the report of a position, its legal moves listed on the position's engine (the
    /// same list on both, [`Position::legal_moves`]).
    pub fn new(pos: &Position) -> AnalysisReport {
        AnalysisReport::of(pos, &pos.analysis())
    }

    /// The report of a position from its analysis `a` (`Analysis::new` of the position's board
    /// and rules), for a caller that needs the analysis too: one analysis per board.
    pub fn of(pos: &Position, a: &Analysis) -> AnalysisReport {
        AnalysisReport::of_scope(pos, a, ReportScope::Whole)
    }

    /// [`AnalysisReport::of`] with the fields `scope` asks for.
    pub fn of_scope(pos: &Position, a: &Analysis, scope: ReportScope) -> AnalysisReport {
        let whole = scope == ReportScope::Whole;
        let b = pos.board();
        let empties = crate::board::strings::empty_strings(&a.lower);
        let mut regions = RegionList::default();
        let strings = string_reports(pos, a, whole, &mut regions, &empties);
        let empty_strings = empties
            .groups
            .iter()
            .filter(|_| whole)
            .map(|e| EmptyStringReport {
                name: b.string_name(&e.points),
                points: point_names(b, &e.points),
            })
            .collect();
        let upper_strings = a
            .upper_strings
            .groups
            .iter()
            .filter(|_| whole)
            .map(|s| UpperStringReport {
                name: b.string_name(&s.points),
                colour: s.colour.unwrap_or(Colour::Black),
                points: point_names(b, &s.points),
                liberties: point_names(b, &s.liberties),
            })
            .collect();
        let turn = pos.turn();
        let (legal_moves, special_moves) = move_lists(pos);
        // the score counts this analysis again unless dead stones are removed first
        let (score, score_error) = match Score::of(a, pos.rules(), pos.dead()) {
            Ok(s) => (Some(s), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let m2016 = (whole && pos.rules().private_eye == crate::rules::EyeRule::M2016)
            .then(|| m2016_report(pos, a, &mut regions, &empties));
        AnalysisReport {
            format: AnalysisReport::FORMAT,
            rules: pos.rules().clone(),
            size: b.size(),
            move_number: pos.move_number(),
            to_move: TurnReport {
                player: turn.player,
                kind: turn.kind,
                symbol: turn.symbol().to_string(),
            },
            game_over: pos.game_over(),
            // Q20-VIEWS: the three equivalent boards; Q20-TWO-DATA: the lower layer (in `a`) and
            // the holographic board are both derived here; Q20-VIEW-DIRECT: the direct board
            // shows flowers without attributes.
            boards: Boards {
                direct: lines(&b.to_diagram()),
                holographic: if whole {
                    lines(&holographic(b, &a.attribute_at))
                } else {
                    Vec::new()
                },
                upper: if whole {
                    lines(&a.upper.to_diagram())
                } else {
                    Vec::new()
                },
                star_points: b.star_points(),
            },
            strings,
            empty_strings,
            regions: regions.list,
            upper_strings,
            flowers: flower_reports(b, a),
            forbidden: ForbiddenByPlayer {
                black: forbidden_report(pos, a, Colour::Black),
                white: forbidden_report(pos, a, Colour::White),
            },
            legal_moves,
            special_moves,
            score,
            score_error,
            m2016,
        }
    }

    /// The points and the empty points of region `k` of [`AnalysisReport::regions`], top row
    /// first (as the board lists them): the union of the strings it is made of.
    pub fn region_points(&self, k: usize) -> (Vec<Point>, Vec<Point>) {
        let Some(r) = self.regions.get(k) else {
            return (Vec::new(), Vec::new());
        };
        let all_but = |n: usize, but: &[usize]| -> Vec<usize> {
            (0..n).filter(|j| !but.contains(j)).collect()
        };
        let parts = match (&r.of, &r.except) {
            (Some(of), _) => of.clone(),
            (None, Some(e)) => RegionParts {
                empty_strings: all_but(self.empty_strings.len(), &e.empty_strings),
                strings: all_but(self.strings.len(), &e.strings),
                flowers: Vec::new(),
            },
            (None, None) => RegionParts::default(),
        };
        let mut empty: Vec<Point> = parts
            .empty_strings
            .iter()
            .filter_map(|&j| self.empty_strings.get(j))
            .flat_map(|e| e.points.iter().copied())
            .collect();
        let mut points = empty.clone();
        points.extend(
            parts
                .strings
                .iter()
                .filter_map(|&j| self.strings.get(j))
                .flat_map(|s| s.points.iter().copied()),
        );
        points.extend(
            parts
                .flowers
                .iter()
                .filter_map(|&j| self.flowers.get(j))
                .flat_map(|f| f.points.iter().copied()),
        );
        let board_order = |p: &Point| (std::cmp::Reverse(p.y), p.x);
        points.sort_by_key(board_order);
        empty.sort_by_key(board_order);
        (points, empty)
    }

    /// The human-readable rendering with the default options (Chinese labels, private eyes
    /// only).
    pub fn to_text(&self) -> String {
        self.to_text_with(TextOptions::default())
    }

    /// The human-readable rendering: the three boards with coordinate labels on all four edges,
    /// the strings with their private eyes (every closed region with `verbose`), the upper
    /// strings, the flowers, the forbidden points, the legal moves and the score; points in
    /// the label system of `opts`.
    pub fn to_text_with(&self, opts: TextOptions) -> String {
        text::render(self, opts)
    }
}

impl AnalysisReport {
    /// D3-NOTATION-DIAGRAM — "手数图示记谱法，如上图，同传统两色围棋的手数图示记谱法" (004): the move-number
    /// diagram of moves played from a position: each stone placed by one of the `reports` and still on
    /// `board` shows the number of the last move played there; other stones show their diagram
    /// character (`X`, `O`, `#`), empty points `.`. Columns are right-aligned, top row first.
    pub fn numbered_diagram(
        board: &crate::board::grid::Board,
        reports: &[crate::game::play::Report],
    ) -> String {
        use crate::game::moves::Action;
        let mut label: Vec<String> = board
            .cells()
            .iter()
            .map(|c| c.map(|s| s.diagram_char()).unwrap_or('.').to_string())
            .collect();
        for r in reports {
            if let Action::Place(p) = r.action {
                let i = board.index(p);
                if board.get(i).is_some() {
                    label[i] = r.number.to_string();
                }
            }
        }
        let width = label.iter().map(|l| l.chars().count()).max().unwrap_or(1);
        let n = board.size();
        let mut out = String::with_capacity(n * n * (width + 1));
        for row in 0..n {
            for c in 0..n {
                if c > 0 {
                    out.push(' ');
                }
                // writing into a String cannot fail
                let _ = std::fmt::Write::write_fmt(
                    &mut out,
                    format_args!("{:>width$}", label[row * n + c]),
                );
            }
            out.push('\n');
        }
        out
    }
}
