//! The flower stone's forbidden points (花子的特别禁着), judged in the upper layer (003 选摘四:
//! M20-FORBID-UPPER, M20-FORBID-CAPTURE, M20-FORBID-EYE, M20-FORBID-TIGER, M20-TIGER-DEF).

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::Cell;
use crate::judge::analysis::Analysis;

/// What the forbidden-point clauses read of an upper layer, whatever stores it: the cell at a
/// point, the point's on-board neighbours, and the liberty count of the upper string through a
/// point. The clause-by-clause [`Analysis`] and the fast engine (`game::fast::FastAnalysis`, on
/// its padded board) both provide it, so each clause below is written once for both. Points
/// are the provider's own indices.
pub trait UpperView {
    /// The upper-layer cell at `i` (a neutral flower is [`Cell::OffBoard`]).
    fn cell(&self, i: usize) -> Cell;
    /// The on-board neighbours of `i` (the edge has none).
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize>;
    /// The number of liberties of the black or white upper string through `i`, if there is one.
    fn liberty_count(&self, i: usize) -> Option<usize>;
}

impl UpperView for Analysis {
    fn cell(&self, i: usize) -> Cell {
        self.upper.cells[i]
    }
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        neighbours(self.upper.size, i)
    }
    fn liberty_count(&self, i: usize) -> Option<usize> {
        self.upper_strings.at(i).map(|s| s.liberties.len())
    }
}

/// Whether a string next to the empty point `i` has `i` as its only liberty: an empty point
/// next to a string is one of its liberties, so that is a neighbouring string with one liberty
/// (and a string whose only liberty is `i` is next to `i`).
fn takes_last_liberty(a: &impl UpperView, i: usize) -> bool {
    a.neighbours(i).any(|j| a.liberty_count(j) == Some(1))
}
use crate::rules::{ForbiddenOwner, Rules, TigersMouth};
use serde::Serialize;

/// Why a point is closed to a flower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "reason", content = "of")]
pub enum Forbidden {
    /// 提吃点: the only liberty of a black or white upper string.
    CapturePoint,
    /// 一气眼 of the given colour.
    OneLibertyEye(Colour),
    /// 虎口 of the given colour.
    TigersMouth(Colour),
}

impl Forbidden {
    /// Reason code (as in conformance cases and refused moves).
    pub fn code(self) -> &'static str {
        match self {
            Forbidden::CapturePoint => "capture-point",
            Forbidden::OneLibertyEye(_) => "one-liberty-eye",
            Forbidden::TigersMouth(_) => "tigers-mouth",
        }
    }
    /// The clause that forbids.
    pub fn clause(self) -> &'static str {
        match self {
            Forbidden::CapturePoint => "M20-FORBID-CAPTURE",
            Forbidden::OneLibertyEye(_) => "M20-FORBID-EYE",
            Forbidden::TigersMouth(_) => "M20-FORBID-TIGER",
        }
    }
    /// The colour whose eye or tiger's mouth it is.
    pub fn owner(self) -> Option<Colour> {
        match self {
            Forbidden::CapturePoint => None,
            Forbidden::OneLibertyEye(c) | Forbidden::TigersMouth(c) => Some(c),
        }
    }
}

/// M20-FORBID-CAPTURE — "提吃黑棋或白棋的提吃点是花子的禁着点，也即花子不具有提吃功能" (003): point `i`
/// (empty) is the only liberty of some black or white upper string. M16-GREY-NO-CAPTURE (2016
/// grey) and D3-FORBID-CAPTURE (either colour's string, both players' flowers) are the same test.
pub(crate) fn is_capture_point(a: &impl UpperView, i: usize) -> bool {
    a.cell(i) == Cell::Empty && takes_last_liberty(a, i)
}

/// M20-FORBID-EYE — "黑棋或白棋的“一气眼”是花子的禁着点" (003): `i` is empty and every neighbour is
/// an upper stone of one colour, the edge or a neutral flower, with at least one such stone.
/// M16-GREY-EYE (2016 grey) and D3-FORBID-EYE (Dullstone) use the same eye.
/// A one-point region touching both colours (003's k, "一气封闭区域") is not an eye.
pub fn is_one_liberty_eye(a: &impl UpperView, i: usize) -> Option<Colour> {
    if a.cell(i) != Cell::Empty {
        return None;
    }
    let mut colour = None;
    for j in a.neighbours(i) {
        match a.cell(j) {
            Cell::Empty => return None,
            Cell::OffBoard => {}
            Cell::Stone(c) => match colour {
                None => colour = Some(c),
                Some(d) if d != c => return None,
                Some(_) => {}
            },
        }
    }
    colour
}

/// M20-TIGER-DEF / M20-FORBID-TIGER — "单个白子下在与黑棋串紧邻的X位上，这个白子形成一个一子白棋串，而且
/// 这个一子白棋串只具有一口气，紧接着黑棋方就可以下一个黑子提吃这个一子白棋串，那么这个X位即是黑棋的虎口"
/// (003). `i` is black's tiger's mouth when it is empty, has exactly one empty neighbour (the one
/// liberty of a white stone there, where black captures it at once), every other neighbour
/// closes the mouth, at least one of them a black upper stone, and a white stone there would
/// capture nothing (it would then have more liberties). M20-TIGER-WHITE: the same for white.
/// D3-FORBID-TIGER: Dullstone's tiger's mouth is the same.
///
/// What closes the mouth (register D29, option `tigers-mouth`): under `stones` (default) a black
/// upper stone (a black stone or a black-attributed flower) or the board edge; a neutral flower
/// does not close it — 003's replay of Ke Jie vs AlphaGo plays 花40 G五, 花180 AC, 花220 B九,
/// 花230 四E and 花250 FD, each next to a neutral flower that would otherwise close a mouth, and
/// names the strings they make. Under `upper-layer` a neutral flower, off-board in the upper
/// layer, closes it like the edge. Under `none` there are no tiger's mouths.
pub(crate) fn is_tigers_mouth(a: &impl UpperView, rules: &Rules, i: usize) -> Option<Colour> {
    if a.cell(i) != Cell::Empty || !rules.tigers_mouth.applies() {
        return None;
    }
    let mut empty = 0;
    let mut owner = None;
    for j in a.neighbours(i) {
        match a.cell(j) {
            Cell::Empty => empty += 1,
            // M20-TIGER-DEF (D29): a neutral flower; the board edge has no neighbour here.
            Cell::OffBoard => {
                if rules.tigers_mouth == TigersMouth::Stones {
                    return None;
                }
            }
            Cell::Stone(c) => match owner {
                None => owner = Some(c),
                Some(o) if o != c => return None,
                Some(_) => {}
            },
        }
    }
    let owner = owner?;
    if empty != 1 {
        return None;
    }
    // A stone of the other colour at `i` would capture a neighbouring string whose only
    // liberty is `i`, and then have liberties.
    (!takes_last_liberty(a, i)).then_some(owner)
}

/// M20-FORBID-UPPER — "萌式三色围棋的禁着点判断在上层棋局中进行，也即判断禁着点时的关联花棋串皆采用上层属性"
/// (003). M20-FORBID, D3-LEARN: the three forbidden points, cited at their branches below.
/// Why point `i` is closed to `player`'s flower, if it is: a capture point for anyone; a
/// one-liberty eye or a tiger's mouth of either colour (003, `forbidden-owner: any`) or of the
/// opponent only (004's 彼方, `forbidden-owner: opponent`).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn flower_forbidden_reason(
    a: &impl UpperView,
    rules: &Rules,
    i: usize,
    player: Colour,
) -> Option<Forbidden> {
    let counts = |owner: Colour| match rules.forbidden_owner {
        ForbiddenOwner::Any => true,
        ForbiddenOwner::Opponent => owner == player.opponent(),
    };
    // M20-FORBID-CAPTURE, D3-FORBID-CAPTURE: whoever plays the flower.
    if is_capture_point(a, i) {
        return Some(Forbidden::CapturePoint);
    }
    // M20-FORBID-EYE; D3-FORBID-EYE: under `forbidden-owner: opponent` only the opponent's eye.
    if let Some(c) = is_one_liberty_eye(a, i) {
        if counts(c) {
            return Some(Forbidden::OneLibertyEye(c));
        }
    }
    // M20-FORBID-TIGER; D3-FORBID-TIGER: likewise only the opponent's tiger's mouth in Dullstone.
    if let Some(c) = is_tigers_mouth(a, rules, i) {
        if counts(c) {
            return Some(Forbidden::TigersMouth(c));
        }
    }
    None
}
