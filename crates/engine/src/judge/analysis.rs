//! The one-way pipeline from the direct board to the upper layer: direct board → lower layer →
//! strings → closed regions and private eyes → flower attributes → upper layer → upper strings.
//! Legality, captures and the score read an [`Analysis`]; nothing here reaches back.

use crate::board::grid::{neighbours, Board, Colour, Stone};
use crate::board::layers::{self, Attribute, Layer};
use crate::board::strings::{self, Strings};
use crate::judge::attribute::{self, Counts};
use crate::judge::eyes::{self, Region, RegionVerdict};
use crate::judge::freeze::{frozen_attribute, FrozenString};
use crate::rules::{EyeRule, Rules};

/// A flower string of the direct board with its counts and upper attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowerInfo {
    pub points: Vec<usize>,
    /// Distinct adjacent black/white strings of the lower layer (indices into `lower_strings`).
    pub adjacent: Vec<usize>,
    pub counts: Counts,
    pub attribute: Attribute,
    /// The clause (branch of the attribute rule) that decided the attribute.
    pub clause: &'static str,
}

/// Everything the rules derive from one direct board.
///
/// ```
/// use m3go_engine::{Analysis, Board, Colour, Rules};
///
/// let rules = Rules::m3go_2020();
/// let empty = Board::empty(5)?;
/// let analysis = Analysis::new(&empty, &rules);
/// // no string on an empty board, so none without a liberty: nothing to capture
/// assert!(analysis.strings_without_liberty(Colour::Black).is_empty());
/// assert!(analysis.strings_without_liberty(Colour::White).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Analysis {
    pub board: Board,
    pub lower: Layer,
    /// Black and white strings of the lower layer (= of the direct board).
    pub lower_strings: Strings,
    /// For each lower string, its closed regions with the verdict on each.
    pub regions: Vec<Vec<(Region, RegionVerdict)>>,
    pub flowers: Vec<FlowerInfo>,
    /// `flower_of[i]` = index into `flowers` of the flower string through point `i`.
    pub flower_of: Vec<Option<usize>>,
    /// Per point: the attribute of the flower string there.
    pub attribute_at: Vec<Option<Attribute>>,
    pub upper: Layer,
    /// Black and white strings of the upper layer (attributed flowers joined in).
    pub upper_strings: Strings,
    /// The frozen grey strings the attributes were read with (M13-FREEZE; empty unless
    /// [`Analysis::with_frozen`] was given some).
    pub frozen: Vec<FrozenString>,
}

impl Analysis {
    /// Runs the pipeline under `rules`. Q20-LOWER-PARAMS: private eyes and the four counts are
    /// computed on the lower layer. No grey string is frozen beyond what this board shows
    /// (M13-FREEZE: a position's freeze comes from its history, [`Analysis::with_frozen`]).
    pub fn new(board: &Board, rules: &Rules) -> Analysis {
        Analysis::with_frozen(board, rules, &[])
    }

    /// [`Analysis::new`] with the grey strings of `frozen` keeping their frozen attribute
    /// (M13-FREEZE under `grey-freeze: kept`, `crate::judge::freeze`): a flower string of
    /// `board` with exactly the points of a frozen string has its attribute; the others are
    /// decided by the attribute rule.
    pub fn with_frozen(board: &Board, rules: &Rules, frozen: &[FrozenString]) -> Analysis {
        let size = board.size();
        let lower = layers::lower_layer(board);
        let lower_strings = strings::strings_of(&lower);
        let regions: Vec<Vec<(Region, RegionVerdict)>> = match rules.private_eye {
            EyeRule::M2020 => {
                let bits = eyes::LayerBits::new(&lower);
                (0..lower_strings.groups.len())
                    .map(|a| {
                        eyes::judge_regions(&lower, &bits, &lower_strings, a, rules.closed_region)
                    })
                    .collect()
            }
            // 2016: judged for every string at once (condition c weighs strings against each
            // other)
            EyeRule::M2016 => crate::judge::eyes2016::judge_regions_2016(
                &lower,
                &lower_strings,
                rules.closed_region_2016,
            ),
        };
        let has_eye: Vec<bool> = regions
            .iter()
            .map(|rs| rs.iter().any(|(_, v)| *v == RegionVerdict::PrivateEye))
            .collect();
        let mut flower_of = vec![None; size * size];
        let mut attribute_at = vec![None; size * size];
        let mut flowers = Vec::new();
        for points in strings::flower_strings(board) {
            let adjacent = strings::adjacent_strings(size, &points, &lower_strings);
            let counts = attribute::counts(adjacent.iter().map(|&g| {
                (
                    lower_strings.groups[g].colour == Some(Colour::Black),
                    has_eye[g],
                )
            }));
            let kept = if frozen.is_empty() {
                None
            } else {
                let mut sorted = points.clone();
                sorted.sort_unstable();
                frozen_attribute(frozen, &sorted)
            };
            let (attribute, clause) = match kept {
                // M13-FREEZE: "灰棋串的属性也就被定格，失去了再变化的可能" (grey-freeze: kept, D21).
                Some(attribute) => (attribute, "M13-FREEZE"),
                None => attribute::attribute_under(
                    rules.attribute,
                    || counts,
                    || attribute::stone_counts(adjacent_stones(board, &points)),
                ),
            };
            let f = flowers.len();
            for &i in &points {
                flower_of[i] = Some(f);
                attribute_at[i] = Some(attribute);
            }
            flowers.push(FlowerInfo {
                points,
                adjacent,
                counts,
                attribute,
                clause,
            });
        }
        let upper = layers::upper_layer(board, &attribute_at);
        let upper_strings = strings::strings_of(&upper);
        Analysis {
            board: board.clone(),
            lower,
            lower_strings,
            regions,
            flowers,
            flower_of,
            attribute_at,
            upper,
            upper_strings,
            frozen: frozen.to_vec(),
        }
    }

    /// The analysis of `board` seen on the holographic board as it stood before the last move:
    /// the flower attributes are `held` (per point; a flower without one, just placed, is
    /// neutral), not recomputed. Used for the first capture of a move under
    /// `capture-timing: holographic-first` (register D8); everything else is as in [`Analysis::new`].
    pub fn with_held_attributes(
        board: &Board,
        rules: &Rules,
        held: &[Option<Attribute>],
    ) -> Analysis {
        let mut a = Analysis::new(board, rules);
        for (i, at) in a.attribute_at.iter_mut().enumerate() {
            if at.is_some() {
                *at = Some(held[i].unwrap_or(Attribute::Neutral));
            }
        }
        a.upper = layers::upper_layer(board, &a.attribute_at);
        a.upper_strings = strings::strings_of(&a.upper);
        a
    }

    /// This analysis read with the frozen grey strings `frozen`, where every one of them that
    /// stands on the board already has its frozen attribute (those a move just froze, whose
    /// attribute is the one this board gave them): the list is kept, and their clause becomes
    /// M13-FREEZE, as [`Analysis::with_frozen`] would write it.
    pub fn mark_frozen(&mut self, frozen: &[FrozenString]) {
        for f in &mut self.flowers {
            let mut sorted = f.points.clone();
            sorted.sort_unstable();
            if frozen_attribute(frozen, &sorted).is_some() {
                f.clause = "M13-FREEZE";
            }
        }
        self.frozen = frozen.to_vec();
    }

    /// Whether lower string `g` has at least one private eye.
    pub fn has_private_eye(&self, g: usize) -> bool {
        self.regions[g]
            .iter()
            .any(|(_, v)| *v == RegionVerdict::PrivateEye)
    }

    /// The private eyes of lower string `g`.
    pub fn private_eyes(&self, g: usize) -> impl Iterator<Item = &Region> {
        self.regions[g]
            .iter()
            .filter(|(_, v)| *v == RegionVerdict::PrivateEye)
            .map(|(r, _)| r)
    }

    /// Black and white upper strings without a liberty.
    pub fn strings_without_liberty(&self, colour: Colour) -> Vec<usize> {
        (0..self.upper_strings.groups.len())
            .filter(|&g| {
                let s = &self.upper_strings.groups[g];
                s.colour == Some(colour) && s.liberties.is_empty()
            })
            .collect()
    }
}

/// The colours of the black and white stones adjacent to a flower string, each stone once
/// (what the 2013 rule counts, [`attribute::stone_counts`]).
fn adjacent_stones<'a>(board: &'a Board, points: &[usize]) -> impl Iterator<Item = Colour> + 'a {
    let mut seen: Vec<usize> = points
        .iter()
        .flat_map(|&i| neighbours(board.size(), i))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.into_iter().filter_map(|j| match board.get(j) {
        Some(Stone::Black) => Some(Colour::Black),
        Some(Stone::White) => Some(Colour::White),
        _ => None,
    })
}
