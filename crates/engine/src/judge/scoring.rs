//! Area scoring (数子法) of a finished game (003 选摘五: M20-SCORE-AREA, M20-SCORE-SEKI,
//! M20-SCORE-NEUTRAL-ADJ, M20-SCORE-NEUTRAL-ENCLOSED, M20-SCORE-DEAD, M20-SCORE-KOMI). All
//! scores are integer half-points: one point is 2.

use crate::board::coord::Point;
use crate::board::grid::{neighbours, Board, Colour, Stone};
use crate::board::layers::{Cell, Layer};
use crate::board::strings::{empty_strings, flood_marking};
use crate::judge::analysis::Analysis;
use crate::judge::eyes::Region;
use crate::judge::longlife::long_living_strings;
use crate::judge::units::{HalfPoints, QuarterPoints};
use crate::rules::{FlowerEnclosed, LongLifeEyes, Rules};
use serde::Serialize;

/// The count of a finished position, in half-points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Score {
    pub black: HalfPoints,
    pub white: HalfPoints,
    pub neutral: HalfPoints,
    /// Komi in quarter points (the margin black must exceed).
    pub komi_quarters: QuarterPoints,
    /// 2·(black − white) − komi, in quarter points: > 0 black wins, < 0 white wins.
    pub margin_quarters: QuarterPoints,
    pub winner: Winner,
    /// The clause that decided each point.
    pub points: Vec<ScorePoint>,
}

/// Who owns one point at scoring, and the clause that decided it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ScorePoint {
    pub point: Point,
    pub owner: Owner,
    pub clause: &'static str,
}

/// Who owns a point at scoring: written `black`, `white`, `neutral` or `seki` (halved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    Black,
    White,
    Neutral,
    /// Between black and white in seki: half a point to each.
    Seki,
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Owner::Black => "black",
            Owner::White => "white",
            Owner::Neutral => "neutral",
            Owner::Seki => "seki",
        })
    }
}

/// Who wins the count: written `black`, `white` or `draw`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    Black,
    White,
    Draw,
}

impl std::fmt::Display for Winner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Winner::Black => "black",
            Winner::White => "white",
            Winner::Draw => "draw",
        })
    }
}

/// Why scoring was refused: a point given as a dead stone that cannot be one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError {
    /// The point listed in `dead`.
    pub point: Point,
    pub problem: DeadStoneProblem,
}

/// Why a point cannot be a dead stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadStoneProblem {
    /// The point is empty.
    Empty,
    /// The point holds a neutral flower, which is never dead (M20-LIFE-1).
    NeutralFlower,
}

impl std::fmt::Display for ScoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.point;
        match self.problem {
            DeadStoneProblem::Empty => write!(f, "dead stone at {p}: the point is empty"),
            DeadStoneProblem::NeutralFlower => write!(
                f,
                "dead stone at {p}: a neutral flower string is never dead (M20-LIFE-1)"
            ),
        }
    }
}

impl std::error::Error for ScoreError {}

/// M20-SCORE-DEAD — "将黑、白两方逻辑死子清理出棋盘后" (003): removes from the board of `a` (its
/// analysis) the upper strings through the dead points. A neutral flower is never dead
/// (M20-LIFE-1). D3-SCORE-DEAD: the same in Dullstone.
fn remove_dead(a: &Analysis, dead: &[Point]) -> Result<Board, ScoreError> {
    let board = &a.board;
    let mut out = board.clone();
    for &p in dead {
        let i = board.index(p);
        match a.upper.cells[i] {
            Cell::Stone(_) => {
                if let Some(s) = a.upper_strings.at(i) {
                    for &j in &s.points {
                        out.set(j, None);
                    }
                }
            }
            Cell::Empty => {
                return Err(ScoreError {
                    point: p,
                    problem: DeadStoneProblem::Empty,
                });
            }
            Cell::OffBoard => {
                return Err(ScoreError {
                    point: p,
                    problem: DeadStoneProblem::NeutralFlower,
                });
            }
        }
    }
    Ok(out)
}

/// Owner of an empty string by the colours it touches: M20-SCORE-AREA (one colour: its
/// territory), M20-SCORE-NEUTRAL-ADJ ("黑棋串或白棋串与保持中性分隔串状态的花棋串之间的空点串，全归黑棋串
/// 或白棋串所有": neutral flowers and the edge do not count against it), M20-SCORE-SEKI
/// ("双活状态下的黑棋串和白棋串之间的空点串，双方各得一半": both colours, split), or neutral
/// (touching only neutral flowers and the edge). D3-SCORE-SEKI, D3-SCORE-NEUTRAL-ADJ: Dullstone's
/// rules are the same; cited at their arms with 000's seki (M16-LIFE-5).
pub(crate) fn empty_string_owner(
    touches_black: bool,
    touches_white: bool,
    touches_neutral: bool,
) -> (Owner, &'static str) {
    match (touches_black, touches_white) {
        // M20-SCORE-SEKI, D3-SCORE-SEKI, M16-LIFE-5: points between black and white are halved.
        (true, true) => (Owner::Seki, "M20-SCORE-SEKI"),
        // M20-SCORE-NEUTRAL-ADJ, D3-SCORE-NEUTRAL-ADJ
        (true, false) if touches_neutral => (Owner::Black, "M20-SCORE-NEUTRAL-ADJ"),
        (false, true) if touches_neutral => (Owner::White, "M20-SCORE-NEUTRAL-ADJ"),
        (true, false) => (Owner::Black, "M20-SCORE-AREA"),
        (false, true) => (Owner::White, "M20-SCORE-AREA"),
        (false, false) => (Owner::Neutral, "M20-SCORE-NEUTRAL-ENCLOSED"),
    }
}

/// M16-LIFE-3 / M16-LIFE-5 — "一个黑棋串或白棋串具有至少2个真眼，则此棋串处于长活状态" and "此种活棋方式又
/// 称为双活" (000), with 4 "私眼皆是真眼". Per upper string: whether it is long-living for scoring:
/// pass-alive or in seki on the upper layer
/// ([`long_living`](crate::judge::longlife::long_living)), or holding a black/white string of
/// the lower layer with at least two private eyes under the rule set's private-eye definition,
/// each counted only where [`eye_holds_on_holographic_board`] (under `long-life-eyes:
/// holographic`; every private eye under `lower`; register D14).
pub(crate) fn long_living_upper(a: &Analysis, rules: &Rules) -> Vec<bool> {
    let mut alive = long_living_strings(&a.upper, &a.upper_strings);
    for g in 0..a.regions.len() {
        let eyes = a
            .private_eyes(g)
            .filter(|r| match rules.long_life_eyes {
                LongLifeEyes::Holographic => eye_holds_on_holographic_board(a, g, r),
                LongLifeEyes::Lower => true,
            })
            .count();
        if eyes >= 2 {
            let p = a.lower_strings.groups[g].points[0];
            if let Some(u) = a.upper_strings.of[p] {
                alive[u] = true;
            }
        }
    }
    alive
}

/// M16-LIFE-3 with Q20-UPPER — "一个黑棋串或白棋串具有至少2个真眼，则此棋串处于长活状态" (000) judged where
/// 001 says: "判断禁着点、判断棋串生死和判定棋局胜负，都在全息棋局中进行". Whether the private eye
/// `eye` of lower string `g` (judged on the lower layer, every flower a wall) is still closed on
/// the holographic board: no flower touching it has the opponent's attribute. Such a flower is an
/// opponent stone there, joined to the eye, through which the opponent can fill it; the eye is
/// then not the string's own true eye (000 九.4: a true eye is one where the opponent "不能…下白子
/// （或黑子）来提吃此黑棋串", and the private eye is the true eye "由一个棋串独享") and does not count
/// for long life (register D14).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn eye_holds_on_holographic_board(a: &Analysis, g: usize, eye: &Region) -> bool {
    let Some(colour) = a.lower_strings.groups[g].colour else {
        return false;
    };
    let size = a.upper.size;
    !eye.points.iter().any(|&p| {
        neighbours(size, p).any(|k| {
            a.board.get(k) == Some(Stone::Flower)
                && a.upper.cells[k] == Cell::Stone(colour.opponent())
        })
    })
}

/// M20-SCORE-NEUTRAL-ENCLOSED — "处于中性分隔串状态的花棋串围住的封闭区域空点串或非长活黑棋串/白棋串视同
/// 花子" (003); D3-SCORE-NEUTRAL-ENCLOSED, M16-GREY-ENCLOSED. Per point: whether it lies in a
/// region enclosed by neutral flowers that holds no long-living string ([`long_living_upper`]);
/// such a region counts whole as flower. The regions are the 4-connected components of the upper
/// layer's points that are not neutral flowers. Which of them the flowers enclose is the
/// `flower-enclosed` option (register D27): `inner` (default), the regions on the inner side of a
/// flower wall ([`inner_sides`]: 000 九.1 "此内部区域即为封闭区域" — the part a ring of flowers,
/// with the edge, cuts off, not the rest of the board); `split`, every region when the flowers
/// and the edge split those points into two or more regions, none otherwise; `touching`, every
/// region touching a neutral flower; `any`, every region.
pub(crate) fn neutral_enclosed_regions(a: &Analysis, rules: &Rules) -> Vec<bool> {
    neutral_enclosure(a, rules)
        .into_iter()
        .map(|e| e == Enclosure::Enclosed)
        .collect()
}

/// Where a point stands towards the walls of neutral flowers at scoring (the score's clause
/// trace tells the three apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Enclosure {
    /// Not in a region the flowers enclose (or a neutral flower itself).
    Open,
    /// In an enclosed region holding no long-living string: counts as flower
    /// (M20-SCORE-NEUTRAL-ENCLOSED).
    Enclosed,
    /// In an enclosed region that holds a long-living string (M16-LIFE-3): counted as anywhere
    /// else.
    LongLiving,
}

/// [`neutral_enclosed_regions`], telling the enclosed regions kept by a long-living string
/// apart: M20-SCORE-NEUTRAL-ENCLOSED, M16-LIFE-3.
pub(crate) fn neutral_enclosure(a: &Analysis, rules: &Rules) -> Vec<Enclosure> {
    let size = a.upper.size;
    let n = size * size;
    let alive = long_living_upper(a, rules);
    let on = |j: usize| a.upper.cells[j] != Cell::OffBoard;
    let mut comps: Vec<Vec<usize>> = Vec::new();
    let mut done = vec![false; n];
    for i in 0..n {
        if done[i] || !on(i) {
            continue;
        }
        let comp = flood_marking(size, i, on, &mut done);
        comps.push(comp);
    }
    let split = comps.len() >= 2;
    let inner = match rules.flower_enclosed {
        FlowerEnclosed::Inner => inner_sides(&a.upper),
        _ => Vec::new(),
    };
    let mut out = vec![Enclosure::Open; n];
    for comp in &comps {
        let enclosed = match rules.flower_enclosed {
            // a region lies whole on one side of every wall: its first point decides
            FlowerEnclosed::Inner => inner[comp[0]],
            FlowerEnclosed::Split => split,
            FlowerEnclosed::Touching => comp
                .iter()
                .any(|&j| neighbours(size, j).any(|k| a.upper.cells[k] == Cell::OffBoard)),
            FlowerEnclosed::Any => true,
        };
        let holds_long_living = comp
            .iter()
            .any(|&j| a.upper_strings.of[j].is_some_and(|g| alive[g]));
        let e = match (enclosed, holds_long_living) {
            (true, false) => Enclosure::Enclosed,
            (true, true) => Enclosure::LongLiving,
            _ => Enclosure::Open,
        };
        for &j in comp {
            out[j] = e;
        }
    }
    out
}

/// M20-SCORE-NEUTRAL-ENCLOSED (and D3-SCORE-NEUTRAL-ENCLOSED, M16-GREY-ENCLOSED) under
/// `flower-enclosed: inner` (register D27) — 000 九.1 "此环状带
/// 可以将棋盘分成内部区域和外部区域…则此内部区域即为封闭区域": per point of `upper`, whether it lies
/// on the inner side of a wall of neutral flowers. A wall is a set of neutral flowers joined
/// side by side or corner to corner (a ring band: no path of adjacent points crosses it between
/// two of its stones). Its parts are the 4-connected components of the board's other points
/// (other flowers included, so that a part's size does not change when flowers are placed in it).
/// A wall with one part cuts off nothing. Otherwise its outer part is the part touching the edge
/// that is strictly larger than every other part touching the edge (for a wall that does not
/// reach the edge, the one part outside the ring); every other part is inner. When no part
/// touching the edge is strictly the largest (a wall halving the board), every part is inner:
/// no side is the rest of the board. If no part touches the edge (the wall covers the whole edge
/// line), the parts are compared all together in the same way.
pub(crate) fn inner_sides(upper: &Layer) -> Vec<bool> {
    let size = upper.size;
    let n = size * size;
    let wall_point = |j: usize| upper.cells[j] == Cell::OffBoard;
    let on_edge: Vec<bool> = (0..n)
        .map(|j| {
            let (x, y) = (j % size, j / size);
            x == 0 || y == 0 || x + 1 == size || y + 1 == size
        })
        .collect();
    let mut inner = vec![false; n];
    // The wall each neutral flower belongs to (walls numbered from 1; 0: not reached yet).
    let mut wall_of = vec![0u32; n];
    // The part of the board, cut by the current wall, each point lies in (numbered from 1, in
    // the order of their lowest points; 0: the wall itself). Reused from wall to wall, like the
    // flood's stack and the parts' (size, touches the edge).
    let mut part_of = vec![0u32; n];
    let mut stack: Vec<usize> = Vec::with_capacity(n);
    let mut sides: Vec<(usize, bool)> = Vec::new();
    let mut walls = 0u32;
    for start in 0..n {
        if wall_of[start] != 0 || !wall_point(start) {
            continue;
        }
        // the wall through `start`: neutral flowers joined orthogonally or diagonally
        walls += 1;
        let id = walls;
        wall_of[start] = id;
        stack.push(start);
        let mut wall_len = 0;
        while let Some(p) = stack.pop() {
            wall_len += 1;
            let (x, y) = ((p % size) as isize, (p / size) as isize);
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (u, v) = (x + dx, y + dy);
                if u < 0 || v < 0 || u >= size as isize || v >= size as isize {
                    continue;
                }
                let j = v as usize * size + u as usize;
                if wall_of[j] == 0 && wall_point(j) {
                    wall_of[j] = id;
                    stack.push(j);
                }
            }
        }
        // A wall of one stone cuts off nothing: a board's grid has no cut point (without any one
        // point the rest is still connected), so it leaves one part, the outside.
        if wall_len == 1 {
            continue;
        }
        // its parts: the 4-connected components of every other point (other walls included)
        part_of.fill(0);
        sides.clear();
        for i in 0..n {
            if part_of[i] != 0 || wall_of[i] == id {
                continue;
            }
            sides.push((0, false));
            let part = sides.len() as u32;
            let (mut len, mut edge) = (0, false);
            part_of[i] = part;
            stack.push(i);
            while let Some(j) = stack.pop() {
                len += 1;
                edge |= on_edge[j];
                for k in neighbours(size, j) {
                    if part_of[k] == 0 && wall_of[k] != id {
                        part_of[k] = part;
                        stack.push(k);
                    }
                }
            }
            sides[part as usize - 1] = (len, edge);
        }
        let outer = crate::judge::eyes::outer_part(&sides);
        for (j, &part) in part_of.iter().enumerate() {
            if part != 0 && Some(part as usize - 1) != outer {
                inner[j] = true;
            }
        }
    }
    inner
}

/// Counting a board: [`Score::of_board`], or [`Score::of`] an analysis already made.
///
/// ```
/// use m3go_engine::judge::Winner;
/// use m3go_engine::{Board, HalfPoints, Rules, Score};
///
/// // an empty board: nobody owns a point, so komi decides
/// let rules = Rules::m3go_2020();
/// let score = Score::of_board(&Board::empty(5)?, &rules, &[])?;
/// assert_eq!((score.black, score.white), (HalfPoints(0), HalfPoints(0)));
/// assert_eq!(score.points.len(), 25);
/// assert_ne!(score.winner, Winner::Black);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Score {
    /// [`Score::of`] the board, analysed under `rules`.
    pub fn of_board(board: &Board, rules: &Rules, dead: &[Point]) -> Result<Score, ScoreError> {
        Score::of(&Analysis::new(board, rules), rules, dead)
    }

    /// M20-SCORE-AREA — "采用数子法（数点法）计算胜负" (003): counts the board of `before` (its analysis
    /// under `rules`, analysed again only when dead stones are removed) after the `dead` stones are
    /// removed: upper stones (attributed flowers merged into their colour), territories, seki halves,
    /// neutral flowers and flower-enclosed regions; then `result` applies komi.
    /// M16-SCORE, D3-SCORE-AREA: the same area count in 2016 and Dullstone. M16-SCORE-NEUTRAL:
    /// neutral points count for nobody. M20-SCORE-MERGE: attributed flowers count as their colour
    /// (they are stones of the upper layer).
    pub fn of(before: &Analysis, rules: &Rules, dead: &[Point]) -> Result<Score, ScoreError> {
        let cleared_analysis;
        let a = if dead.is_empty() {
            before
        } else {
            cleared_analysis = cleared(before, rules, dead)?;
            &cleared_analysis
        };
        let cleared = &a.board;
        let size = a.upper.size;
        let enclosed = neutral_enclosed_regions(a, rules);
        let mut owner: Vec<(Owner, &'static str)> =
            vec![(Owner::Neutral, "M20-SCORE-NEUTRAL-ENCLOSED"); size * size];
        let empties = empty_strings(&a.upper);
        // the owner of each empty string, judged once for all its points
        let string_owner: Vec<(Owner, &'static str)> = empties
            .groups
            .iter()
            .map(|g| {
                let (mut b, mut w, mut f) = (false, false, false);
                for k in g.points.iter().flat_map(|&j| neighbours(size, j)) {
                    match a.upper.cells[k] {
                        Cell::Stone(Colour::Black) => b = true,
                        Cell::Stone(Colour::White) => w = true,
                        Cell::OffBoard => f = true,
                        Cell::Empty => {}
                    }
                }
                empty_string_owner(b, w, f)
            })
            .collect();
        for i in 0..size * size {
            owner[i] = if enclosed[i] {
                (Owner::Neutral, "M20-SCORE-NEUTRAL-ENCLOSED")
            } else {
                match a.upper.cells[i] {
                    Cell::Stone(Colour::Black) => (Owner::Black, "M20-SCORE-AREA"),
                    Cell::Stone(Colour::White) => (Owner::White, "M20-SCORE-AREA"),
                    Cell::OffBoard => (Owner::Neutral, "M20-SCORE-NEUTRAL-ENCLOSED"),
                    // an empty point is on an empty string of the upper layer
                    Cell::Empty => empties.of[i].map_or_else(
                        || empty_string_owner(false, false, false),
                        |g| string_owner[g],
                    ),
                }
            };
        }
        let (mut black, mut white, mut neutral) = (HalfPoints(0), HalfPoints(0), HalfPoints(0));
        for &(o, _) in &owner {
            match o {
                Owner::Black => black += HalfPoints(2),
                Owner::White => white += HalfPoints(2),
                Owner::Seki => {
                    black += HalfPoints(1);
                    white += HalfPoints(1)
                }
                Owner::Neutral => neutral += HalfPoints(2),
            }
        }
        let points = owner
            .iter()
            .enumerate()
            .map(|(i, &(o, c))| (cleared.point(i), o, c))
            .collect();
        Ok(result(black, white, neutral, rules, points))
    }

    /// M20-SCORE-DEAD / D3-SCORE-DEAD — "将黑、白两方逻辑死子清理出棋盘后" (003, 004): a *proposal*
    /// of the dead stones, for a referee to accept or edit before the count (the count itself
    /// takes the dead stones as given: register D15). The proposal is the engine's one judgement
    /// of death, 000's 死棋状态 as m3go reads it (M16-EX-UL-3, the bounded local reading of
    /// register D31 item 6): a black or white upper string that is not long-living as the count
    /// judges it (M16-LIFE-3, register D14) and that no filling of its small area (at most 8 empty
    /// points) by its own side can make long-living, its walls standing. 003 leaves the rest of
    /// life and death to Go ("其它同围棋"), so a string this reading does not list may still be
    /// dead: the proposal only ever names strings that cannot live where they stand. Each dead
    /// string's stones (attributed flowers with them), strings in board order.
    pub fn proposed_dead(a: &Analysis, rules: &Rules) -> Vec<Vec<Point>> {
        let long_living = long_living_upper(a, rules);
        let dead = crate::judge::concepts2016::dead_2016(&a.upper, &a.upper_strings, &long_living);
        a.upper_strings
            .groups
            .iter()
            .zip(dead)
            .filter(|(_, d)| *d)
            .map(|(g, _)| g.points.iter().map(|&i| a.board.point(i)).collect())
            .collect()
    }
}

/// M20-SCORE-DEAD: the analysis of the board of `before` with the strings through `dead`
/// removed, as [`Score::of`] counts it; the frozen grey strings keep their attribute
/// (M13-FREEZE, grey-freeze: kept).
pub(crate) fn cleared(
    before: &Analysis,
    rules: &Rules,
    dead: &[Point],
) -> Result<Analysis, ScoreError> {
    let cleared = remove_dead(before, dead)?;
    Ok(Analysis::with_frozen(&cleared, rules, &before.frozen))
}

/// M20-SCORE-KOMI — "扣除贴子方的子数（点数）后，子数（点数）多的一方为胜方，子数（点数）相同则为和棋"
/// (003); 004 "黑棋贴还3又3/4子". Black wins when black − white exceeds the komi (register D13).
/// D3-SCORE-KOMI: komi is charged to black. M20-SCORE-DRAW, D3-SCORE-DRAW: equal is a draw.
pub(crate) fn result(
    black: HalfPoints,
    white: HalfPoints,
    neutral: HalfPoints,
    rules: &Rules,
    points: Vec<(Point, Owner, &'static str)>,
) -> Score {
    let komi = QuarterPoints(rules.komi.quarters());
    let margin = (black - white).to_quarters() - komi;
    let winner = match margin.signum() {
        1 => Winner::Black,
        -1 => Winner::White,
        _ => Winner::Draw,
    };
    Score {
        black,
        white,
        neutral,
        komi_quarters: komi,
        margin_quarters: margin,
        winner,
        points: points
            .into_iter()
            .map(|(point, owner, clause)| ScorePoint {
                point,
                owner,
                clause,
            })
            .collect(),
    }
}

#[cfg(test)]
mod proposal_tests {
    use super::*;

    /// The dead strings proposed on a 2020 board: white's lone stone inside black's wall with
    /// its eyes, and nothing of the wall.
    #[test]
    fn m20_score_dead_proposes_the_string_that_cannot_live() {
        let b = Board::from_diagram(
            "
. X . X .
X X X X X
X . O X .
X X X X X
. X . X .
",
            5,
        )
        .expect("diagram");
        let rules = Rules::m3go_2020();
        let a = Analysis::new(&b, &rules);
        let dead = Score::proposed_dead(&a, &rules);
        let white = b.point(2 * 5 + 2);
        assert_eq!(dead, vec![vec![white]], "{dead:?}");
    }
}
