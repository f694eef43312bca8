//! Test support for `tests/` and `fuzz/`: generators of settled positions, move sequences and
//! eye-simulation cases (`arbitrary::Arbitrary`, invertible so that seed corpora can be written
//! from `spec/cases`), the eight board symmetries and the colour swap, a literal re-reading of the
//! capture cascade, the LITERAL fill-simulation oracle of 003's private eye, and one checker per
//! invariant (each returns `Err(description)` naming the position and the failing part).
//!
//! Nothing here is a rule of the game: the engine never calls this module.

use crate::board::coord::{half, Point};
use crate::board::grid::{Board, Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::board::strings::Strings;
use crate::game::order::turn_of_move;
use crate::game::play::{Action, Move, Parts, Position, Refusal};
use crate::judge::analysis::Analysis;
use crate::judge::eyes::{Region, RegionVerdict};
use crate::judge::forbidden::flower_forbidden_reason;
use crate::judge::scoring::score;
use crate::rules::{CaptureTiming, ClosedRegion, Rules, Schedule, Suicide, SuicideTiming, PRESETS};
use arbitrary::{Arbitrary, Unstructured};
use std::collections::BTreeSet;

/// The board sizes: odd, 3 to 19.
pub const ODD_SIZES: [usize; 9] = [3, 5, 7, 9, 11, 13, 15, 17, 19];

/// Regions with more empty points than this are not enumerated by the literal oracle
/// (2^12 = 4096 fillings each).
pub const LITERAL_MAX_EMPTY: usize = 12;

/// The literal oracle's bound in the eye-simulation fuzz target: regions up to 2^6 = 64
/// fillings, so that one execution stays cheap; larger regions are the engine-only target's
/// (`eye_engine`, [`compare_eyes_with_fast`]).
pub const FUZZ_LITERAL_MAX_EMPTY: usize = 6;

/// The presets that `Rules::preset` currently builds (all five while they all work).
pub fn working_presets() -> Vec<Rules> {
    PRESETS
        .iter()
        .filter_map(|p| Rules::preset(p).ok())
        .collect()
}

/// The stone of a cell code: 0 empty, 1 black, 2 white, 3 flower (codes taken modulo 4).
pub fn stone_of_code(code: u8) -> Option<Stone> {
    match code % 4 {
        1 => Some(Stone::Black),
        2 => Some(Stone::White),
        3 => Some(Stone::Flower),
        _ => None,
    }
}

/// The code of a stone (inverse of [`stone_of_code`]).
pub fn code_of_stone(s: Option<Stone>) -> u8 {
    match s {
        None => 0,
        Some(Stone::Black) => 1,
        Some(Stone::White) => 2,
        Some(Stone::Flower) => 3,
    }
}

/// A direct board of `size` from cell codes, top row first (missing codes are empty).
pub fn board_from_codes(size: usize, codes: &[u8]) -> Board {
    let mut b = match Board::empty(size) {
        Ok(b) => b,
        Err(_) => return fallback_board(),
    };
    for (i, &c) in codes.iter().enumerate().take(size * size) {
        b.set(i, stone_of_code(c));
    }
    b
}

fn fallback_board() -> Board {
    // 3 is always a valid size; this cannot fail.
    Board::from_diagram(". . .\n. . .\n. . .\n", 3).unwrap_or_else(|_| unreachable!())
}

/// The board's cell codes, top row first.
pub fn codes_of_board(b: &Board) -> Vec<u8> {
    b.cells().iter().map(|&c| code_of_stone(c)).collect()
}

/// Makes a board settled: removes every black or white upper string without a liberty (stones
/// and attributed flowers alike), recomputing the analysis, until none is left.
pub fn settle(mut board: Board, rules: &Rules) -> Board {
    loop {
        let a = Analysis::new(&board, rules);
        let dead: Vec<usize> = a
            .upper_strings
            .groups
            .iter()
            .filter(|s| s.colour.is_some() && s.liberties.is_empty())
            .flat_map(|s| s.points.iter().copied())
            .collect();
        if dead.is_empty() {
            return board;
        }
        for i in dead {
            board.set(i, None);
        }
    }
}

/// Whether no black or white upper string is without a liberty.
pub fn is_settled(board: &Board, rules: &Rules) -> bool {
    Analysis::new(board, rules)
        .upper_strings
        .groups
        .iter()
        .all(|s| s.colour.is_none() || !s.liberties.is_empty())
}

/// A fresh position (no history, no passes, no dead stones), validated as a position file is.
/// Under the Flystone schedule the move number is 1: a later one would need the record of the
/// flystones thrown before it.
///
/// # Panics
/// When the board is not settled under `rules` (see [`settle`]); the message lists every
/// problem.
pub fn position(board: Board, rules: Rules, move_number: u32) -> Position {
    let move_number = if rules.schedule == Schedule::Flystone {
        1
    } else {
        move_number.max(1)
    };
    Parts {
        rules,
        board,
        move_number,
        history: Vec::new(),
        trailing_passes: 0,
        dead: Vec::new(),
        flystone: None,
    }
    .validate("testing::position")
    .unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------------------------
// Generators (arbitrary)
// ---------------------------------------------------------------------------------------------

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn decode_position(u: &mut Unstructured<'_>, sizes: &[usize]) -> Position {
    let size = sizes[byte(u) as usize % sizes.len()];
    let presets = working_presets();
    let rules = presets
        .get(byte(u) as usize % presets.len().max(1))
        .cloned()
        .unwrap_or_default();
    let move_number = 1 + u32::from(byte(u) % 10);
    let mut codes = vec![0u8; size * size];
    for c in codes.iter_mut() {
        *c = byte(u);
    }
    let board = settle(board_from_codes(size, &codes), &rules);
    position(board, rules, move_number)
}

/// A settled position of any odd size 3–19 with black, white and flower stones, under one of the
/// working presets, with a move number 1–10 (every turn of the ten-move cycle). Bytes: size
/// index, preset index, move number − 1, then one cell code per point (see [`encode_position`]).
#[derive(Clone, Debug)]
pub struct ArbPosition(pub Position);

impl<'a> Arbitrary<'a> for ArbPosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ArbPosition(decode_position(u, &ODD_SIZES)))
    }
}

/// The bytes [`ArbPosition`] (and [`ArbGame`]) decode to `pos` (history and dead stones are not
/// written; the move number is kept modulo 10, which keeps the turn of the ten-move cycle).
pub fn encode_position(pos: &Position) -> Vec<u8> {
    let size_index = ODD_SIZES
        .iter()
        .position(|&s| s == pos.board().size())
        .unwrap_or(0) as u8;
    let preset_index = PRESETS
        .iter()
        .position(|&p| p == pos.rules().preset)
        .unwrap_or(0) as u8;
    let mut out = vec![
        size_index,
        preset_index,
        ((pos.move_number() + 9) % 10) as u8,
    ];
    out.extend(codes_of_board(pos.board()));
    out
}

/// One move of a generated sequence: a point index (row-major, top row first) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveChoice {
    Point(usize),
    Pass,
}

impl MoveChoice {
    /// The move on a board of `size`.
    pub fn to_move(self, size: usize) -> Move {
        match self {
            MoveChoice::Pass => Move::pass(),
            MoveChoice::Point(i) => {
                let h = half(size);
                let p = Point::new((i % size) as i32 - h, h - (i / size) as i32);
                Move::place(p)
            }
        }
    }
}

/// Most moves an [`ArbGame`] holds.
pub const MAX_GAME_MOVES: usize = 24;

/// A settled position and a sequence of moves to try on it (some legal, some refused). Bytes:
/// those of [`ArbPosition`], then two bytes a move (little-endian `v`: `v % (n + 1)`, where
/// `n` = points, `n` itself is a pass).
#[derive(Clone, Debug)]
pub struct ArbGame {
    pub start: Position,
    pub moves: Vec<MoveChoice>,
}

fn decode_moves(u: &mut Unstructured<'_>, size: usize) -> Vec<MoveChoice> {
    let n = size * size;
    let mut moves = Vec::new();
    while !u.is_empty() && moves.len() < MAX_GAME_MOVES {
        let v = u16::from_le_bytes([byte(u), byte(u)]) as usize % (n + 1);
        moves.push(if v == n {
            MoveChoice::Pass
        } else {
            MoveChoice::Point(v)
        });
    }
    moves
}

impl<'a> Arbitrary<'a> for ArbGame {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let start = decode_position(u, &ODD_SIZES);
        let moves = decode_moves(u, start.board().size());
        Ok(ArbGame { start, moves })
    }
}

/// The bytes [`ArbGame`] decodes to `pos` followed by `moves`.
pub fn encode_game(pos: &Position, moves: &[MoveChoice]) -> Vec<u8> {
    let mut out = encode_position(pos);
    let n = pos.board().len();
    for m in moves {
        let v = match m {
            MoveChoice::Pass => n,
            MoveChoice::Point(i) => *i,
        } as u16;
        out.extend(v.to_le_bytes());
    }
    out
}

/// A dense direct board for the eye simulation (sizes 3–9; a quarter of the points empty on
/// average, so that many closed regions are small enough for the literal oracle), and the
/// closed-region reading to judge it under. Bytes: size index (of 3, 5, 7, 9), reading (even:
/// single-string, odd: same-colour), then one cell code per point. The board is not settled:
/// private eyes are judged in the lower layer of any board.
#[derive(Clone, Debug)]
pub struct ArbEyeCase {
    pub board: Board,
    pub closed_region: ClosedRegion,
}

impl<'a> Arbitrary<'a> for ArbEyeCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let size = [3, 5, 7, 9][byte(u) as usize % 4];
        let closed_region = if byte(u) % 2 == 0 {
            ClosedRegion::SingleString
        } else {
            ClosedRegion::SameColour
        };
        let mut codes = vec![0u8; size * size];
        for c in codes.iter_mut() {
            *c = byte(u);
        }
        Ok(ArbEyeCase {
            board: board_from_codes(size, &codes),
            closed_region,
        })
    }
}

/// A direct board of any odd size 3–19 for the engine-only private-eye check (large regions):
/// size index, then one cell code per point (missing codes are empty). Not settled.
#[derive(Clone, Debug)]
pub struct ArbLargeEyeCase {
    pub board: Board,
}

impl<'a> Arbitrary<'a> for ArbLargeEyeCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let size = ODD_SIZES[byte(u) as usize % ODD_SIZES.len()];
        let codes: Vec<u8> = (0..size * size).map(|_| byte(u)).collect();
        Ok(ArbLargeEyeCase {
            board: board_from_codes(size, &codes),
        })
    }
}

/// The lower strings of `b` and, for each, its closed regions with the clause-by-clause verdict
/// on each (`judge::eyes::judge_regions` on the lower layer, under the 2020 eye with `rule`):
/// the reference private eyes, as [`Analysis::new`] computes them, without the attributes and
/// the upper layer that the eye checks do not read.
pub fn reference_eye_verdicts(
    b: &Board,
    rule: ClosedRegion,
) -> (Strings, Vec<Vec<(Region, RegionVerdict)>>) {
    let lower = crate::board::layers::lower_layer(b);
    let strings = crate::board::strings::strings_of(&lower);
    let regions = (0..strings.groups.len())
        .map(|g| crate::judge::eyes::judge_regions(&lower, &strings, g, rule))
        .collect();
    (strings, regions)
}

/// The clause-by-clause private-eye verdicts ([`reference_eye_verdicts`]: closed regions,
/// conditions 1 and 2 and the closed form of the fill) against the fast engine's per-component
/// closed form (`game::fast`), string by string, under the 2020 eye with single-string regions:
/// whether each string has a private eye. Also checks the regions' shape: each touches its
/// string, holds none of its stones and no flower, and its empty points are its empty points.
/// Returns the number of strings compared.
pub fn compare_eyes_with_fast(b: &Board) -> Result<usize, String> {
    let rules = Rules::m3go_2020();
    let (strings, regions) = reference_eye_verdicts(b, rules.closed_region);
    let fast = crate::game::fast::FastAnalysis::new(b, &rules)
        .ok_or("the fast engine supports m3go-2020")?;
    let place = || format!("board:\n{}", b.to_diagram());
    for (g, s) in strings.groups.iter().enumerate() {
        let i = s.points[0];
        let eyed = regions[g]
            .iter()
            .any(|(_, v)| *v == RegionVerdict::PrivateEye);
        if fast.has_private_eye(i) != Some(eyed) {
            return Err(format!(
                "string {}: reference private eye {}, fast {:?}; {}",
                b.point(i),
                eyed,
                fast.has_private_eye(i),
                place()
            ));
        }
        let of_s = |q: usize| strings.of[q] == Some(g);
        for (r, _) in &regions[g] {
            let touches = r
                .points
                .iter()
                .any(|&p| crate::board::grid::neighbours(b.size(), p).any(of_s));
            let inside_ok = r
                .points
                .iter()
                .all(|&p| !of_s(p) && b.get(p) != Some(Stone::Flower));
            let empty: Vec<usize> = r
                .points
                .iter()
                .copied()
                .filter(|&p| b.get(p).is_none())
                .collect();
            if !touches || !inside_ok || empty != r.empty {
                return Err(format!(
                    "string {}: malformed region {:?}; {}",
                    b.point(i),
                    r.points,
                    place()
                ));
            }
        }
    }
    Ok(strings.groups.len())
}

/// The bytes [`ArbEyeCase`] decodes to `board` (sizes above 9 are not representable: `None`).
pub fn encode_eye_case(board: &Board, rule: ClosedRegion) -> Option<Vec<u8>> {
    let size_index = [3, 5, 7, 9].iter().position(|&s| s == board.size())? as u8;
    let mut out = vec![
        size_index,
        match rule {
            ClosedRegion::SingleString => 0,
            ClosedRegion::SameColour => 1,
        },
    ];
    out.extend(codes_of_board(board));
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// Symmetries and the colour swap
// ---------------------------------------------------------------------------------------------

/// One of the eight symmetries of the square board: `k % 4` quarter turns, then a mirror
/// (x → −x) when `k >= 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry(pub u8);

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of a point (tengen-origin coordinates).
    pub fn point(self, p: Point) -> Point {
        let (mut x, mut y) = (p.x, p.y);
        for _ in 0..self.0 % 4 {
            (x, y) = (-y, x);
        }
        if self.0 % 8 >= 4 {
            x = -x;
        }
        Point::new(x, y)
    }

    /// The image of an index on a board of `size`.
    pub fn index(self, b: &Board, i: usize) -> usize {
        b.index(self.point(b.point(i)))
    }

    /// The image of a board.
    pub fn board(self, b: &Board) -> Board {
        let mut out = b.clone();
        for i in 0..b.len() {
            out.set(self.index(b, i), b.get(i));
        }
        out
    }

    /// The image of a move.
    pub fn action(self, a: Action) -> Action {
        match a {
            Action::Place(p) => Action::Place(self.point(p)),
            Action::Pass => Action::Pass,
        }
    }
}

/// The board with black and white stones exchanged (flowers stay).
pub fn swap_colours(b: &Board) -> Board {
    let mut out = b.clone();
    for i in 0..b.len() {
        out.set(
            i,
            match b.get(i) {
                Some(Stone::Black) => Some(Stone::White),
                Some(Stone::White) => Some(Stone::Black),
                other => other,
            },
        );
    }
    out
}

/// A move number near `n` whose turn is the same kind of stone for the other player (the
/// schedules are colour-asymmetric: black's stone on move 1 corresponds to white's on move 2).
pub fn swapped_move_number(rules: &Rules, n: u32) -> Option<u32> {
    let t = turn_of_move(rules, n);
    (1..=20u32)
        .flat_map(|d| [n.checked_add(d), n.checked_sub(d)])
        .flatten()
        .filter(|&m| m >= 1)
        .find(|&m| {
            let u = turn_of_move(rules, m);
            u.player == t.player.opponent() && u.kind == t.kind
        })
}

fn swap_cell(c: Cell) -> Cell {
    match c {
        Cell::Stone(k) => Cell::Stone(k.opponent()),
        other => other,
    }
}

fn swap_attribute(a: Attribute) -> Attribute {
    match a {
        Attribute::Black => Attribute::White,
        Attribute::White => Attribute::Black,
        Attribute::Neutral => Attribute::Neutral,
    }
}

// ---------------------------------------------------------------------------------------------
// Facts of an analysis, point by point, for comparisons under symmetries and the colour swap
// ---------------------------------------------------------------------------------------------

/// What the analysis says about one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointFacts {
    pub upper: Cell,
    pub attribute: Option<Attribute>,
    /// (hs, hw, bs, bw) of the flower string here.
    pub counts: Option<(u32, u32, u32, u32)>,
    /// Whether the lower string here has a private eye.
    pub eyed: Option<bool>,
    /// Number of upper liberties of the upper string here.
    pub upper_liberties: Option<usize>,
    /// Forbidden reason code (and owner) for black's and white's flower.
    pub forbidden: [Option<(&'static str, Option<Colour>)>; 2],
}

/// The closed regions of the analysis: (string's points, region's points, verdict code), with
/// the points mapped through `map`, each list sorted.
pub fn region_facts(
    a: &Analysis,
    map: impl Fn(usize) -> usize,
) -> BTreeSet<(Vec<usize>, Vec<usize>, &'static str)> {
    let sorted = |v: &[usize]| {
        let mut w: Vec<usize> = v.iter().map(|&i| map(i)).collect();
        w.sort_unstable();
        w
    };
    let mut out = BTreeSet::new();
    for (g, rs) in a.regions.iter().enumerate() {
        for (r, v) in rs {
            out.insert((
                sorted(&a.lower_strings.groups[g].points),
                sorted(&r.points),
                v.code(),
            ));
        }
    }
    out
}

/// The facts of every point.
pub fn point_facts(a: &Analysis, rules: &Rules) -> Vec<PointFacts> {
    (0..a.board.len())
        .map(|i| {
            let counts = a.flower_of[i].map(|f| {
                let c = a.flowers[f].counts;
                (c.hs, c.hw, c.bs, c.bw)
            });
            let forbidden = [Colour::Black, Colour::White].map(|c| {
                if a.board.get(i).is_some() {
                    None
                } else {
                    flower_forbidden_reason(a, rules, i, c).map(|f| (f.code(), f.owner()))
                }
            });
            PointFacts {
                upper: a.upper.cells[i],
                attribute: a.attribute_at[i],
                counts,
                eyed: a.lower_strings.of[i].map(|g| a.has_private_eye(g)),
                upper_liberties: a.upper_strings.at(i).map(|s| s.liberties.len()),
                forbidden,
            }
        })
        .collect()
}

/// The facts with black and white exchanged (what the colour-swapped board must give).
pub fn swap_facts(f: &PointFacts) -> PointFacts {
    let sw =
        |x: Option<(&'static str, Option<Colour>)>| x.map(|(c, o)| (c, o.map(Colour::opponent)));
    PointFacts {
        upper: swap_cell(f.upper),
        attribute: f.attribute.map(swap_attribute),
        counts: f.counts.map(|(hs, hw, bs, bw)| (bs, bw, hs, hw)),
        eyed: f.eyed,
        upper_liberties: f.upper_liberties,
        forbidden: [sw(f.forbidden[1]), sw(f.forbidden[0])],
    }
}

// ---------------------------------------------------------------------------------------------
// The capture cascade, re-read step by step
// ---------------------------------------------------------------------------------------------

/// One round of the cascade: the analysis it judged and the points it removed.
#[derive(Clone, Debug)]
pub struct Round {
    pub analysis: Analysis,
    pub removed: Vec<usize>,
}

/// The cascade after a stone is placed (GO-CASCADE, as written in notes/semantics.md 8 and
/// register D8): each round analyses the board — with the flower attributes `held` from before
/// the move while they are held (`capture-timing: holographic-first`: until a round removes
/// nothing), recomputed after — and removes the opponent's upper strings without a liberty;
/// if there is none, the mover's (suicide: `Err` when forbidden; under `suicide-timing:
/// fixpoint`, register D10, not while the attributes are held). Gives the settled board and
/// the rounds, or `Err("suicide")`, or `Err("no end")` when `limit` rounds were not enough.
pub fn trace_cascade(
    mut board: Board,
    rules: &Rules,
    mover: Colour,
    mut held: Option<&[Option<Attribute>]>,
    limit: usize,
) -> Result<(Board, Vec<Round>), &'static str> {
    let mut rounds = Vec::new();
    for _ in 0..limit {
        let a = match held {
            Some(h) => Analysis::with_held_attributes(&board, rules, h),
            None => Analysis::new(&board, rules),
        };
        let without = |c: Colour| -> Vec<usize> {
            a.upper_strings
                .groups
                .iter()
                .filter(|s| s.colour == Some(c) && s.liberties.is_empty())
                .flat_map(|s| s.points.iter().copied())
                .collect()
        };
        let mut removed = without(mover.opponent());
        if removed.is_empty() {
            removed = without(mover);
            if !removed.is_empty()
                && held.is_some()
                && rules.suicide_timing == SuicideTiming::Fixpoint
            {
                // register D10: the mover's strings are judged at the fixpoint
                held = None;
                continue;
            }
            if !removed.is_empty() && rules.suicide == Suicide::Forbidden {
                return Err("suicide");
            }
        }
        if removed.is_empty() {
            if held.take().is_some() {
                continue;
            }
            return Ok((board, rounds));
        }
        removed.sort_unstable();
        for &i in &removed {
            board.set(i, None);
        }
        rounds.push(Round {
            analysis: a,
            removed,
        });
    }
    Err("no end")
}

/// The attributes a move's first captures are judged with: those of the position before the
/// move under `capture-timing: holographic-first`, none (recomputed) otherwise.
pub fn held_attributes(pos: &Position) -> Option<Vec<Option<Attribute>>> {
    (pos.rules().capture_timing == CaptureTiming::HolographicFirst)
        .then(|| Analysis::new(pos.board(), pos.rules()).attribute_at)
}

// ---------------------------------------------------------------------------------------------
// The literal fill-simulation oracle (003 选摘二)
// ---------------------------------------------------------------------------------------------

/// What the literal reading says about one closed region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralVerdict {
    /// Conditions 1 and 2 hold.
    PrivateEye,
    /// Condition 1 fails.
    Condition1Fails,
    /// Condition 2 fails: the opponent has, or can fill into, a one-liberty eye.
    Condition2Fails,
    /// Condition 1 holds, the region holds opponent stones, and it has too many empty points to
    /// try every filling.
    TooLarge,
}

/// A closed region as the literal reading finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralRegion {
    /// The string's points (indices, ascending).
    pub string: Vec<usize>,
    /// The region's points (ascending).
    pub points: Vec<usize>,
    /// The region's empty points (ascending).
    pub empty: Vec<usize>,
    pub verdict: LiteralVerdict,
}

/// On-board neighbours of index `i`, computed from coordinates (not with the engine's tables).
fn nbrs(b: &Board, i: usize) -> impl Iterator<Item = usize> + '_ {
    let p = b.point(i);
    let size = b.size();
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .map(|(dx, dy)| Point::new(p.x + dx, p.y + dy))
        .into_iter()
        .filter(move |q| q.on_board(size))
        .map(move |q| b.index(q))
}

/// "中性花棋串视同边界外区域": in the lower layer a flower is like the outside of the board.
fn off_board(b: &Board, i: usize) -> bool {
    b.get(i) == Some(Stone::Flower)
}

/// The on-board neighbours of every point of a board, from coordinates ([`nbrs`]), in one
/// vector.
struct Table {
    flat: Vec<usize>,
    /// The neighbours of `i` are `flat[start[i]..start[i + 1]]`.
    start: Vec<usize>,
}

impl Table {
    fn new(b: &Board) -> Table {
        let mut flat = Vec::with_capacity(4 * b.len());
        let mut start = Vec::with_capacity(b.len() + 1);
        for i in 0..b.len() {
            start.push(flat.len());
            flat.extend(nbrs(b, i));
        }
        start.push(flat.len());
        Table { flat, start }
    }

    fn around(&self, i: usize) -> &[usize] {
        &self.flat[self.start[i]..self.start[i + 1]]
    }
}

/// No string or empty string here (a label of [`LiteralBoard`]).
const NONE: usize = usize::MAX;

/// The direct board as the literal reading sees it, read once per board so that the reading of
/// each closed region costs only the region: the neighbours of every point (from coordinates,
/// [`nbrs`]), the black and white strings and the empty strings as labelled 4-connected
/// components (each with its points ascending), and what touches each empty string. The
/// definitions are the literal ones; only the bookkeeping is shared between regions.
struct LiteralBoard<'a> {
    b: &'a Board,
    /// The on-board neighbours of every point, in [`nbrs`] order ([`Table::around`]).
    table: Table,
    /// `string_of[i]`: the black or white string through `i` (a stone of that colour), or NONE.
    string_of: Vec<usize>,
    strings: Vec<Vec<usize>>,
    /// `empty_of[i]`: the empty string through `i`, or NONE.
    empty_of: Vec<usize>,
    /// Per empty string: the distinct black and white strings next to it.
    empty_touches: Vec<Vec<usize>>,
    /// Per empty string: its points (ascending).
    empty_strings: Vec<Vec<usize>>,
}

impl<'a> LiteralBoard<'a> {
    fn new(b: &'a Board) -> LiteralBoard<'a> {
        let n = b.len();
        let table = Table::new(b);
        // Components of equal cells: black with black, white with white, empty with empty.
        let mut label = vec![NONE; n];
        let mut count = 0;
        let mut queue = Vec::new();
        for start in 0..n {
            if label[start] != NONE || b.get(start) == Some(Stone::Flower) {
                continue;
            }
            let cell = b.get(start);
            label[start] = count;
            queue.clear();
            queue.push(start);
            while let Some(i) = queue.pop() {
                for &j in table.around(i) {
                    if label[j] == NONE && b.get(j) == cell {
                        label[j] = count;
                        queue.push(j);
                    }
                }
            }
            count += 1;
        }
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (i, &l) in label.iter().enumerate() {
            if l != NONE {
                members[l].push(i);
            }
        }
        let (mut strings, mut empty_strings) = (Vec::new(), Vec::new());
        let mut renumber = vec![NONE; count];
        for (l, points) in members.into_iter().enumerate() {
            if b.get(points[0]).is_none() {
                renumber[l] = empty_strings.len();
                empty_strings.push(points);
            } else {
                renumber[l] = strings.len();
                strings.push(points);
            }
        }
        let mut string_of = vec![NONE; n];
        let mut empty_of = vec![NONE; n];
        for i in 0..n {
            if label[i] == NONE {
                continue;
            }
            if b.get(i).is_none() {
                empty_of[i] = renumber[label[i]];
            } else {
                string_of[i] = renumber[label[i]];
            }
        }
        let empty_touches = empty_strings
            .iter()
            .map(|es| {
                let mut t: Vec<usize> = es
                    .iter()
                    .flat_map(|&q| table.around(q).iter().map(|&j| string_of[j]))
                    .filter(|&s| s != NONE)
                    .collect();
                t.sort_unstable();
                t.dedup();
                t
            })
            .collect();
        LiteralBoard {
            b,
            table,
            string_of,
            strings,
            empty_of,
            empty_touches,
            empty_strings,
        }
    }

    /// The colour of string `s`.
    fn colour(&self, s: usize) -> Option<Stone> {
        self.b.get(self.strings[s][0])
    }

    /// The distinct empty strings that meet `empty` (points of one region), in first-met order.
    fn empty_strings_in(&self, empty: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &p in empty {
            let e = self.empty_of[p];
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }
}

/// Whether the point `p` of `stones` (what stands on each point during the simulation: the direct
/// board with the filled stones) is a one-liberty eye of `opp`: empty, and every neighbour is an
/// `opp` stone, the edge (no neighbour) or a flower ("眼含真眼和假眼": true or false eye alike).
/// `table` lists the on-board neighbours of `p`.
fn one_liberty_eye(table: &Table, stones: &[Option<Stone>], p: usize, opp: Stone) -> bool {
    stones[p].is_none()
        && table
            .around(p)
            .iter()
            .all(|&n| stones[n] == Some(opp) || stones[n] == Some(Stone::Flower))
}

/// 003 condition 2, literally: "这些白色棋串不能具有1气及1气以上的眼，或者模拟推演：在此封闭区域内连续补充
/// 白色棋子（补充白色棋子的过程中不能提子）也无法做出一个1气眼". First the opponent's existing eyes
/// (an empty string of the region all of whose neighbours are opponent stones or flowers); then
/// every filling: for every subset of the region's empty points, opponent stones are placed on
/// it (nothing is captured) and every remaining empty point of the region is looked at. `None`
/// when the region has more than `max_empty` empty points.
pub fn literal_condition_2(
    b: &Board,
    colour: Colour,
    region: &[usize],
    empty: &[usize],
    max_empty: usize,
) -> Option<bool> {
    let lb = LiteralBoard::new(b);
    let mut in_region = vec![false; b.len()];
    for &p in region {
        in_region[p] = true;
    }
    let mut stones = b.cells().to_vec();
    condition_2_on(&lb, colour, &in_region, empty, max_empty, &mut stones)
}

/// [`literal_condition_2`] on a board read once: `in_region` marks the region's points;
/// `stones` holds the direct board and is restored before returning.
fn condition_2_on(
    lb: &LiteralBoard<'_>,
    colour: Colour,
    in_region: &[bool],
    empty: &[usize],
    max_empty: usize,
    stones: &mut [Option<Stone>],
) -> Option<bool> {
    let b = lb.b;
    let opp = colour.opponent().stone();
    // The opponent's existing eyes of one or more liberties: an empty string of the region whose
    // every neighbour is empty (its own points), an opponent stone or a flower.
    for e in lb.empty_strings_in(empty) {
        let es = &lb.empty_strings[e];
        let closed = es.iter().all(|&q| {
            lb.table
                .around(q)
                .iter()
                .all(|&n| b.get(n).is_none() || b.get(n) == Some(opp) || off_board(b, n))
        });
        let inside = es.iter().all(|&q| in_region[q]);
        if closed && inside {
            return Some(false);
        }
    }
    if empty.len() > max_empty {
        return None;
    }
    let mut eye = false;
    for mask in 0u64..(1u64 << empty.len()) {
        for (k, &p) in empty.iter().enumerate() {
            stones[p] = if mask >> k & 1 == 1 { Some(opp) } else { None };
        }
        if empty
            .iter()
            .any(|&p| one_liberty_eye(&lb.table, stones, p, opp))
        {
            eye = true;
            break;
        }
    }
    for &p in empty {
        stones[p] = None;
    }
    Some(!eye)
}

/// 003's private-eye rule read literally on the direct board, for every black and white string:
/// the closed regions (the string's stones and every flower removed — and, in the same-colour
/// reading, every stone of its colour — the components touching the string), condition 1
/// ("黑棋串私眼内至少有一个空点串与这个黑棋串紧邻，而且此空点串不与其它黑棋串紧邻，黑棋串私眼内也不能具有
/// 其它黑棋串") and condition 2 ([`literal_condition_2`], only when the region holds opponent
/// stones: "可以具有其它白色棋串 … 但是这些白色棋串不能 …").
pub fn literal_private_eyes(b: &Board, rule: ClosedRegion, max_empty: usize) -> Vec<LiteralRegion> {
    let n = b.len();
    let lb = LiteralBoard::new(b);
    let mut out = Vec::new();
    // `taken[j] == s + 1`: `j` lies in a region of string `s` found already.
    let mut taken = vec![0usize; n];
    let mut in_region = vec![false; n];
    let mut stones = b.cells().to_vec();
    let mut queue = Vec::new();
    for (s, string) in lb.strings.iter().enumerate() {
        let own = lb.colour(s).unwrap_or(Stone::Flower);
        // Not the string, not a flower, and (same-colour reading) not a stone of its colour.
        let inside = |j: usize| {
            let wall = rule == ClosedRegion::SameColour && b.get(j) == Some(own);
            lb.string_of[j] != s && !off_board(b, j) && !wall
        };
        for &i in string {
            for &j in lb.table.around(i) {
                if taken[j] == s + 1 || !inside(j) {
                    continue;
                }
                // The region: the component of `j` among the inside points.
                taken[j] = s + 1;
                queue.clear();
                queue.push(j);
                let mut k = 0;
                while k < queue.len() {
                    for &q in lb.table.around(queue[k]) {
                        if taken[q] != s + 1 && inside(q) {
                            taken[q] = s + 1;
                            queue.push(q);
                        }
                    }
                    k += 1;
                }
                for &p in &queue {
                    in_region[p] = true;
                }
                // Ascending: a small region sorted, a large one read from the marks in board order.
                let points: Vec<usize> = if queue.len() * 8 < n {
                    let mut v = queue.clone();
                    v.sort_unstable();
                    v
                } else {
                    (0..n).filter(|&p| in_region[p]).collect()
                };
                let empty: Vec<usize> = points
                    .iter()
                    .copied()
                    .filter(|&p| b.get(p).is_none())
                    .collect();
                let verdict =
                    literal_verdict(&lb, s, &points, &empty, max_empty, &in_region, &mut stones);
                for &p in &points {
                    in_region[p] = false;
                }
                out.push(LiteralRegion {
                    string: string.clone(),
                    points,
                    empty,
                    verdict,
                });
            }
        }
    }
    out
}

fn literal_verdict(
    lb: &LiteralBoard<'_>,
    s: usize,
    points: &[usize],
    empty: &[usize],
    max_empty: usize,
    in_region: &[bool],
    stones: &mut [Option<Stone>],
) -> LiteralVerdict {
    let b = lb.b;
    let Some(colour) = lb.colour(s).and_then(Stone::colour) else {
        return LiteralVerdict::Condition1Fails;
    };
    let own = colour.stone();
    // Condition 1: no other string of the colour inside ...
    if points.iter().any(|&p| b.get(p) == Some(own)) {
        return LiteralVerdict::Condition1Fails;
    }
    // ... and an empty string touching the string and no other string of its colour.
    let good_empty_string = lb.empty_strings_in(empty).into_iter().any(|e| {
        let mut own_strings = lb.empty_touches[e]
            .iter()
            .filter(|&&t| lb.colour(t) == Some(own));
        own_strings.clone().any(|&t| t == s) && own_strings.all(|&t| t == s)
    });
    if !good_empty_string {
        return LiteralVerdict::Condition1Fails;
    }
    let opp = colour.opponent().stone();
    if !points.iter().any(|&p| b.get(p) == Some(opp)) {
        return LiteralVerdict::PrivateEye;
    }
    match condition_2_on(lb, colour, in_region, empty, max_empty, stones) {
        Some(true) => LiteralVerdict::PrivateEye,
        Some(false) => LiteralVerdict::Condition2Fails,
        None => LiteralVerdict::TooLarge,
    }
}

/// Compares the engine's closed regions and private-eye verdicts ([`reference_eye_verdicts`],
/// 2020 private eye with `rule`) with the literal oracle. Returns how many verdicts were compared
/// (regions too large for the oracle are compared on their points only).
pub fn compare_eyes_with_oracle(
    b: &Board,
    rule: ClosedRegion,
    max_empty: usize,
) -> Result<usize, String> {
    let (strings, regions) = reference_eye_verdicts(b, rule);
    // (string's points, region's points, region's empty points, verdict)
    type EngineRegion<'a> = (Vec<usize>, Vec<usize>, Vec<usize>, &'a RegionVerdict);
    let mut engine: Vec<EngineRegion> = Vec::new();
    for (g, rs) in regions.iter().enumerate() {
        for (r, v) in rs {
            engine.push((
                strings.groups[g].points.clone(),
                r.points.clone(),
                r.empty.clone(),
                v,
            ));
        }
    }
    engine.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    let mut oracle = literal_private_eyes(b, rule, max_empty);
    oracle.sort_by(|x, y| (&x.string, &x.points).cmp(&(&y.string, &y.points)));
    let place = || format!("board ({rule:?}):\n{}", b.to_diagram());
    if engine.len() != oracle.len() {
        return Err(format!(
            "engine finds {} closed regions, the literal reading {}; {}",
            engine.len(),
            oracle.len(),
            place()
        ));
    }
    let mut compared = 0;
    for (e, o) in engine.iter().zip(&oracle) {
        let name = |v: &[usize]| {
            v.iter()
                .map(|&i| b.point(i).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if e.0 != o.string || e.1 != o.points || e.2 != o.empty {
            return Err(format!(
                "regions differ: engine string [{}] region [{}], literal string [{}] region [{}]; {}",
                name(&e.0),
                name(&e.1),
                name(&o.string),
                name(&o.points),
                place()
            ));
        }
        let engine_kind = match e.3 {
            RegionVerdict::PrivateEye => LiteralVerdict::PrivateEye,
            RegionVerdict::SameColourInside | RegionVerdict::NoAdjacentEmptyString => {
                LiteralVerdict::Condition1Fails
            }
            RegionVerdict::OpponentCanMakeEye(_) | RegionVerdict::Rule2016 { .. } => {
                LiteralVerdict::Condition2Fails
            }
        };
        if o.verdict == LiteralVerdict::TooLarge {
            // Condition 1 held for the oracle: it must for the engine too.
            if engine_kind == LiteralVerdict::Condition1Fails {
                return Err(format!(
                    "string [{}] region [{}]: engine says condition 1 fails ({}), the literal reading says it holds; {}",
                    name(&e.0), name(&e.1), e.3.code(), place()
                ));
            }
            continue;
        }
        if engine_kind != o.verdict {
            return Err(format!(
                "string [{}] region [{}]: engine verdict {} ({:?}), literal fill simulation {:?}; {}",
                name(&e.0),
                name(&e.1),
                e.3.code(),
                e.3,
                o.verdict,
                place()
            ));
        }
        if let RegionVerdict::OpponentCanMakeEye(p) = e.3 {
            // The engine's witness must be an empty point of the region that no stone of the
            // string's colour touches (filling its empty neighbours makes the eye).
            let colour = b.get(e.0[0]).and_then(Stone::colour);
            let ok = e.2.contains(p)
                && nbrs(b, *p)
                    .into_iter()
                    .all(|n| b.get(n).and_then(Stone::colour) != colour);
            if !ok {
                return Err(format!(
                    "string [{}]: the engine's eye point {} is no eye the opponent can fill; {}",
                    name(&e.0),
                    b.point(*p),
                    place()
                ));
            }
        }
        compared += 1;
    }
    Ok(compared)
}

// ---------------------------------------------------------------------------------------------
// Invariant checkers
// ---------------------------------------------------------------------------------------------

fn describe(pos: &Position) -> String {
    format!(
        "position ({}, move {}):\n{}",
        pos.rules().preset,
        pos.move_number(),
        pos.board().to_diagram()
    )
}

fn act(a: Action) -> String {
    match a {
        Action::Place(p) => p.to_string(),
        Action::Pass => "pass".into(),
    }
}

/// No black or white upper string without a liberty.
pub fn check_settled(pos: &Position) -> Result<(), String> {
    let a = Analysis::new(pos.board(), pos.rules());
    for s in &a.upper_strings.groups {
        if s.colour.is_some() && s.liberties.is_empty() {
            return Err(format!(
                "the {:?} upper string at {} has no liberty; {}",
                s.colour,
                pos.board().point(s.points[0]),
                describe(pos)
            ));
        }
    }
    Ok(())
}

/// Black + white + neutral = 2·size² half-points, none negative nor above 2·size².
pub fn check_score(pos: &Position) -> Result<(), String> {
    let total = 2 * pos.board().len() as i32;
    let s = score(pos.board(), pos.rules(), &[]).map_err(|e| format!("score refused: {}", e))?;
    if s.black + s.white + s.neutral != total {
        return Err(format!(
            "black {} + white {} + neutral {} != {total} half-points; {}",
            s.black,
            s.white,
            s.neutral,
            describe(pos)
        ));
    }
    for (name, v) in [
        ("black", s.black),
        ("white", s.white),
        ("neutral", s.neutral),
    ] {
        if !(0..=total).contains(&v) {
            return Err(format!(
                "{name} = {v} half-points, outside 0..={total}; {}",
                describe(pos)
            ));
        }
    }
    Ok(())
}

/// A move checked by [`check_move`]: played (the position after it) or refused (the reason).
#[derive(Clone, Debug)]
pub enum CheckedMove {
    Played(Box<Position>),
    Refused(Refusal),
}

/// Plays `m` on `pos` and checks: a refusal carries a reason code, a clause and a message; a
/// played move leaves a settled board (no black/white upper string without liberty), is
/// reproduced by [`trace_cascade`] (which ends), removes no neutral flower in any round, changes
/// no stone's colour, reports as captured exactly the removed points, keeps the score sums, and
/// gives the same result when played again.
pub fn check_move(pos: &Position, m: &Move) -> Result<CheckedMove, String> {
    let first = pos.play(m);
    let again = pos.play(m);
    let here = || {
        format!(
            "move {} ({}) on {}",
            pos.move_number(),
            act(m.action),
            describe(pos)
        )
    };
    let (next, report) = match first {
        Err(e) => {
            if e.clause != e.reason.clause() || e.message.trim().is_empty() {
                return Err(format!(
                    "refusal without a proper reason: {e:?}; {}",
                    here()
                ));
            }
            if again.as_ref().err() != Some(&e) {
                return Err(format!(
                    "playing again gives {again:?}, first {e:?}; {}",
                    here()
                ));
            }
            return Ok(CheckedMove::Refused(e.reason));
        }
        Ok(x) => x,
    };
    match &again {
        Ok((n2, r2)) if *n2 == next && *r2 == report => {}
        _ => {
            return Err(format!(
                "playing again gives a different result; {}",
                here()
            ))
        }
    }
    if next.move_number() != pos.move_number() + 1 {
        return Err(format!("the move number did not advance; {}", here()));
    }
    check_settled(&next).map_err(|e| format!("after {}: {e}", here()))?;
    check_score(&next).map_err(|e| format!("after {}: {e}", here()))?;
    let turn = m.turn.unwrap_or_else(|| pos.turn());
    let Action::Place(p) = m.action else {
        if next.board() != pos.board() {
            return Err(format!("a pass changed the board; {}", here()));
        }
        return Ok(CheckedMove::Played(Box::new(next)));
    };
    let i = pos.board().index(p);
    let placed = match turn.kind {
        crate::game::order::Kind::Own => turn.player.stone(),
        crate::game::order::Kind::Flower => Stone::Flower,
    };
    let mut board = pos.board().clone();
    board.set(i, Some(placed));
    let limit = board.len() + 2;
    let (traced, rounds) = trace_cascade(
        board.clone(),
        pos.rules(),
        turn.player,
        held_attributes(pos).as_deref(),
        limit,
    )
    .map_err(|e| {
        format!(
            "the traced cascade says `{e}` for a move play accepted; {}",
            here()
        )
    })?;
    if traced != *next.board() {
        return Err(format!(
            "play's board differs from the traced cascade:\n{}vs\n{}; {}",
            next.board().to_diagram(),
            traced.to_diagram(),
            here()
        ));
    }
    for r in &rounds {
        for &j in &r.removed {
            if r.analysis.upper.cells[j] == Cell::OffBoard
                || (r.analysis.board.get(j) == Some(Stone::Flower)
                    && r.analysis.attribute_at[j] == Some(Attribute::Neutral))
            {
                return Err(format!(
                    "a neutral flower at {} was removed; {}",
                    pos.board().point(j),
                    here()
                ));
            }
        }
    }
    let mut removed: Vec<String> = Vec::new();
    for j in 0..board.len() {
        match (board.get(j), next.board().get(j)) {
            (Some(_), None) => removed.push(pos.board().point(j).to_string()),
            (Some(s), Some(t)) if s != t => {
                return Err(format!(
                    "the stone at {} changed colour; {}",
                    pos.board().point(j),
                    here()
                ))
            }
            (None, Some(_)) => {
                return Err(format!(
                    "a stone appeared at {}; {}",
                    pos.board().point(j),
                    here()
                ))
            }
            _ => {}
        }
    }
    let mut reported: Vec<String> = report.captured.iter().map(|p| p.to_string()).collect();
    reported.sort();
    removed.sort();
    if reported != removed {
        return Err(format!(
            "reported captures {reported:?}, removed {removed:?}; {}",
            here()
        ));
    }
    Ok(CheckedMove::Played(Box::new(next)))
}

/// Every empty point and the pass, played one by one, against `legal_moves`: a move is listed
/// exactly when `play` accepts it, and every refusal carries a reason. Returns the results, in
/// board order then the pass.
pub fn check_legal_moves(pos: &Position) -> Result<Vec<(Action, CheckedMove)>, String> {
    let listed: BTreeSet<(i32, i32, bool)> = pos
        .legal_moves()
        .into_iter()
        .map(|a| match a {
            Action::Place(p) => (p.x, p.y, false),
            Action::Pass => (0, 0, true),
        })
        .collect();
    let mut out = Vec::new();
    let mut actions: Vec<Action> = (0..pos.board().len())
        .map(|i| Action::Place(pos.board().point(i)))
        .collect();
    actions.push(Action::Pass);
    for a in actions {
        let key = match a {
            Action::Place(p) => (p.x, p.y, false),
            Action::Pass => (0, 0, true),
        };
        let outcome = check_move(
            pos,
            &Move {
                action: a,
                number: None,
                turn: None,
            },
        )?;
        let accepted = matches!(outcome, CheckedMove::Played(_));
        if accepted != listed.contains(&key) {
            return Err(format!(
                "{} is {} by play but {} by legal_moves; {}",
                act(a),
                if accepted { "accepted" } else { "refused" },
                if listed.contains(&key) {
                    "listed"
                } else {
                    "not listed"
                },
                describe(pos)
            ));
        }
        if let (Action::Place(p), CheckedMove::Refused(r)) = (a, &outcome) {
            if pos.board().at(p).is_some() && !pos.game_over() && *r != Refusal::Occupied {
                return Err(format!(
                    "occupied point {p} refused as `{r}`; {}",
                    describe(pos)
                ));
            }
        }
        out.push((a, outcome));
    }
    Ok(out)
}

/// The analysis of every symmetric image of the board is the image of the analysis: point
/// facts, closed regions with their verdicts, and the score.
pub fn check_symmetry_of_analysis(pos: &Position) -> Result<(), String> {
    let a = Analysis::new(pos.board(), pos.rules());
    let facts = point_facts(&a, pos.rules());
    let s0 = score(pos.board(), pos.rules(), &[]).map_err(|e| e.to_string())?;
    for s in Symmetry::ALL {
        let b2 = s.board(pos.board());
        let a2 = Analysis::new(&b2, pos.rules());
        let facts2 = point_facts(&a2, pos.rules());
        for i in 0..pos.board().len() {
            if facts2[s.index(pos.board(), i)] != facts[i] {
                return Err(format!(
                    "symmetry {s:?}: facts at {} are {:?}, at its image {:?}; {}",
                    pos.board().point(i),
                    facts[i],
                    facts2[s.index(pos.board(), i)],
                    describe(pos)
                ));
            }
        }
        if region_facts(&a, |i| s.index(pos.board(), i)) != region_facts(&a2, |i| i) {
            return Err(format!(
                "symmetry {s:?}: closed regions / verdicts differ; {}",
                describe(pos)
            ));
        }
        let s2 = score(&b2, pos.rules(), &[]).map_err(|e| e.to_string())?;
        if (s2.black, s2.white, s2.neutral) != (s0.black, s0.white, s0.neutral) {
            return Err(format!("symmetry {s:?}: score differs; {}", describe(pos)));
        }
    }
    Ok(())
}

/// Playing the image of a move on the image of the position gives the image of the result (or
/// the same refusal code), for the eight symmetries.
pub fn check_symmetry_of_move(pos: &Position, action: Action) -> Result<(), String> {
    let r = pos.play(&Move {
        action,
        number: None,
        turn: None,
    });
    for s in Symmetry::ALL {
        let p2 = Parts {
            board: s.board(pos.board()),
            history: pos.history().iter().map(|b| s.board(b)).collect(),
            ..pos.to_parts()
        }
        .validate(&format!("symmetry {s:?}"))
        .map_err(|e| e.to_string())?;
        let r2 = p2.play(&Move {
            action: s.action(action),
            number: None,
            turn: None,
        });
        match (&r, &r2) {
            (Ok((n, _)), Ok((n2, _))) if s.board(n.board()) == *n2.board() => {}
            (Err(e), Err(e2)) if e.reason == e2.reason => {}
            _ => {
                return Err(format!(
                    "symmetry {s:?}, move {}: {:?} vs image {:?}; {}",
                    act(action),
                    r.as_ref()
                        .map(|x| x.0.board().to_diagram())
                        .map_err(|e| e.reason),
                    r2.as_ref()
                        .map(|x| x.0.board().to_diagram())
                        .map_err(|e| e.reason),
                    describe(pos)
                ))
            }
        }
    }
    Ok(())
}

/// Swapping black and white swaps every analysis result: point facts (upper layer, attributes,
/// counts, eyes, forbidden points of the other player's flower), closed regions and the score.
pub fn check_colour_swap_of_analysis(pos: &Position) -> Result<(), String> {
    let a = Analysis::new(pos.board(), pos.rules());
    let b2 = swap_colours(pos.board());
    let a2 = Analysis::new(&b2, pos.rules());
    let facts = point_facts(&a, pos.rules());
    let facts2 = point_facts(&a2, pos.rules());
    for i in 0..pos.board().len() {
        if facts2[i] != swap_facts(&facts[i]) {
            return Err(format!(
                "colour swap: facts at {} are {:?}, swapped board gives {:?}; {}",
                pos.board().point(i),
                facts[i],
                facts2[i],
                describe(pos)
            ));
        }
    }
    if region_facts(&a, |i| i) != region_facts(&a2, |i| i) {
        return Err(format!(
            "colour swap: closed regions / verdicts differ; {}",
            describe(pos)
        ));
    }
    let s = score(pos.board(), pos.rules(), &[]).map_err(|e| e.to_string())?;
    let s2 = score(&b2, pos.rules(), &[]).map_err(|e| e.to_string())?;
    if (s2.black, s2.white, s2.neutral) != (s.white, s.black, s.neutral) {
        return Err(format!(
            "colour swap: score ({}, {}, {}) becomes ({}, {}, {}); {}",
            s.black,
            s.white,
            s.neutral,
            s2.black,
            s2.white,
            s2.neutral,
            describe(pos)
        ));
    }
    Ok(())
}

/// The move played by the other colour on the colour-swapped board (the move number shifted so
/// the turn is the same kind of stone for the other player) gives the colour-swapped result, or
/// the same refusal code. Not checked under the Flystone schedule, whose random flystone
/// timings differ between the sides (the analysis-level swap still holds there).
pub fn check_colour_swap_of_move(pos: &Position, action: Action) -> Result<(), String> {
    if pos.rules().schedule == Schedule::Flystone {
        return Ok(());
    }
    let Some(n2) = swapped_move_number(pos.rules(), pos.move_number()) else {
        return Ok(());
    };
    let fresh_parts = Parts {
        history: Vec::new(),
        trailing_passes: 0,
        ..pos.to_parts()
    };
    let swapped = Parts {
        board: swap_colours(pos.board()),
        move_number: n2,
        ..fresh_parts.clone()
    }
    .validate("colour swap")
    .map_err(|e| e.to_string())?;
    let fresh = fresh_parts.validate("fresh").map_err(|e| e.to_string())?;
    let m = Move {
        action,
        number: None,
        turn: None,
    };
    let r = fresh.play(&m);
    let r2 = swapped.play(&m);
    match (&r, &r2) {
        (Ok((n, _)), Ok((nn, _))) if swap_colours(n.board()) == *nn.board() => Ok(()),
        (Err(e), Err(e2)) if e.reason == e2.reason => Ok(()),
        _ => Err(format!(
            "colour swap, move {}: {:?} vs swapped {:?}; {}",
            act(action),
            r.as_ref()
                .map(|x| x.0.board().to_diagram())
                .map_err(|e| e.reason),
            r2.as_ref()
                .map(|x| x.0.board().to_diagram())
                .map_err(|e| e.reason),
            describe(pos)
        )),
    }
}

/// `Position::to_setup` written as YAML and read back gives the same position; the setup's
/// JSON round trip is lossless.
pub fn check_round_trips(pos: &Position) -> Result<(), String> {
    let setup = pos.to_setup();
    let yaml = serde_yaml::to_string(&setup).map_err(|e| format!("to YAML: {e}"))?;
    let back: crate::game::setup::Setup =
        crate::game::setup::from_yaml(&yaml, "round trip").map_err(|e| e.to_string())?;
    if back != setup {
        return Err(format!("YAML round trip changed the setup:\n{yaml}"));
    }
    let p2 = back
        .to_position("round trip")
        .map_err(|e| format!("{}; YAML:\n{yaml}", e))?;
    // Under Flystone, `flystone: None` means "the timings drawn from the seed, nothing thrown";
    // the file writes them out, so compare the state the position stands for.
    let norm = |p: &Position| Parts {
        flystone: p.flystone_state(),
        ..p.to_parts()
    };
    if norm(&p2) != norm(pos) {
        return Err(format!("YAML round trip changed the position:\n{yaml}"));
    }
    if p2.to_setup() != setup {
        return Err(format!(
            "a second YAML round trip changed the setup:\n{yaml}"
        ));
    }
    let json = serde_json::to_string(&setup).map_err(|e| format!("to JSON: {e}"))?;
    let back: crate::game::setup::Setup =
        serde_json::from_str(&json).map_err(|e| format!("from JSON: {e}; {json}"))?;
    if back != setup {
        return Err(format!("JSON round trip changed the setup: {json}"));
    }
    Ok(())
}

/// Whether two records hold the same moves: numbers, actions, refusals kept as replaced moves
/// with their comments, and the claimed turn where the first record names one (a record read
/// back after writing may name turns the original left implicit).
pub fn same_record_moves(
    a: &crate::formats::record::Record,
    b: &crate::formats::record::Record,
) -> bool {
    a.moves.len() == b.moves.len()
        && a.moves.iter().zip(&b.moves).all(|(x, y)| {
            x.number == y.number
                && x.action == y.action
                && (x.claimed.is_none() || x.claimed == y.claimed)
                && x.replaced == y.replaced
                && x.comment == y.comment
        })
}

/// A record's game information but the komi (which a writer writes once, as the rules' komi),
/// in key order (a writer may put `RU` first): what a round trip must keep.
pub fn record_info_but_komi(r: &crate::formats::record::Record) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = r
        .info
        .iter()
        .filter(|(k, _)| k != "komi")
        .cloned()
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// Rule sets for "fast equals reference"
// ---------------------------------------------------------------------------------------------

/// The rule sets "fast equals reference" compares on (tests/it/fast_equals_reference.rs, the fuzz
/// target): every preset, then single-option variants that reach every ko rule, schedule and
/// special move and the cascade's options — each a preset with one or two options changed.
pub fn fast_rule_sets() -> Vec<Rules> {
    use crate::rules::{AttributeRule, FlowerCaptureCheck, FlystoneMode, GameEnd, Ko, TigersMouth};
    let base = Rules::m3go_2020();
    let preset = |name: &str| Rules::preset(name).unwrap_or_else(|_| base.clone());
    let mut out = working_presets();
    // The analysis options on the 2020 rules (the eye, the regions, the attribute).
    out.extend([
        Rules {
            private_eye: crate::rules::EyeRule::M2016,
            ..base.clone()
        },
        Rules {
            closed_region: crate::rules::ClosedRegion::SameColour,
            ..base.clone()
        },
        Rules {
            attribute: AttributeRule::M2013,
            private_eye: crate::rules::EyeRule::M2016,
            ..base.clone()
        },
    ]);
    out.extend([
        Rules {
            ko: Ko::Positional,
            ..base.clone()
        },
        Rules {
            ko: Ko::Situational,
            ..base.clone()
        },
        Rules {
            ko: Ko::None,
            suicide: Suicide::Allowed,
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Team2016,
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Flystone,
            ..base.clone()
        },
        Rules {
            emergency_conversion: true,
            ..base.clone()
        },
        Rules {
            attribute: AttributeRule::M2016,
            tigers_mouth: TigersMouth::None,
            ..base.clone()
        },
        Rules {
            tigers_mouth: TigersMouth::UpperLayer,
            ..base.clone()
        },
        Rules {
            flower_capture_check: FlowerCaptureCheck::Static,
            game_end: GameEnd::TwoPasses,
            ..base.clone()
        },
        Rules {
            suicide_timing: SuicideTiming::FirstRound,
            ..base.clone()
        },
        Rules {
            suicide_timing: SuicideTiming::FirstRound,
            suicide: Suicide::Allowed,
            ..base.clone()
        },
        Rules {
            capture_timing: match base.capture_timing {
                CaptureTiming::HolographicFirst => CaptureTiming::RecomputeFirst,
                CaptureTiming::RecomputeFirst => CaptureTiming::HolographicFirst,
            },
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Alternate,
            attribute: AttributeRule::AlwaysNeutral,
            ..base.clone()
        },
        Rules {
            ko: Ko::Situational,
            ..preset("dullstone")
        },
        Rules {
            attribute: AttributeRule::M2020,
            ..preset("dullstone")
        },
        Rules {
            flystone_mode: FlystoneMode::C,
            ko: Ko::Positional,
            ..preset("flystone")
        },
        Rules {
            flystone_mode: FlystoneMode::B,
            ko: Ko::Situational,
            ..preset("flystone")
        },
        Rules {
            ko: Ko::Positional,
            ..preset("m3go-2016")
        },
    ]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_the_eight_distinct_maps_of_the_square() {
        let p = Point::new(2, 1);
        let images: BTreeSet<Point> = Symmetry::ALL.iter().map(|s| s.point(p)).collect();
        assert_eq!(images.len(), 8);
        let b = board_from_codes(5, &[1, 2, 3, 0, 1, 0, 0, 2]);
        for s in Symmetry::ALL {
            assert_eq!(s.board(&b).cells().iter().flatten().count(), 5);
        }
    }

    #[test]
    fn encoders_invert_the_generators() {
        let b = board_from_codes(5, &[1, 2, 3, 0, 1, 0, 0, 2, 3, 3, 1]);
        let pos = position(settle(b, &Rules::m3go_2020()), Rules::m3go_2020(), 7);
        let bytes = encode_game(&pos, &[MoveChoice::Point(3), MoveChoice::Pass]);
        let g = ArbGame::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(g.start, pos);
        assert_eq!(g.moves, vec![MoveChoice::Point(3), MoveChoice::Pass]);
        let e = encode_eye_case(pos.board(), ClosedRegion::SameColour).unwrap();
        let c = ArbEyeCase::arbitrary(&mut Unstructured::new(&e)).unwrap();
        assert_eq!(c.board, *pos.board());
        assert_eq!(c.closed_region, ClosedRegion::SameColour);
    }

    #[test]
    fn literal_oracle_figure_7_corner_is_no_private_eye() {
        // 003 figures 7/8 on a 5x5 corner: white 九八 inside black's corner region, 九九 not
        // touching black: filling 八九 makes 九九 a one-liberty eye of white.
        let b = Board::from_diagram(". X . . .\n. X . . O\n. X . . .\n. X X X X\n. . . . .\n", 5)
            .unwrap();
        let regions = literal_private_eyes(&b, ClosedRegion::SingleString, LITERAL_MAX_EMPTY);
        let corner = regions
            .iter()
            .find(|r| r.points.contains(&b.index(Point::new(2, 2))))
            .unwrap();
        assert_eq!(corner.verdict, LiteralVerdict::Condition2Fails);
        assert!(compare_eyes_with_oracle(&b, ClosedRegion::SingleString, 12).is_ok());
    }
}
