//! [`FastAnalysis`]: one direct board analysed on the padded byte board (lower strings, private
//! eyes, flower attributes, the upper layer and its strings).

use super::*;
use crate::board::grid::{Board, Stone};
use crate::board::layers::{lower_layer, upper_cell, Attribute, Cell, Layer};
use crate::board::strings::{strings_of, Strings};
use crate::judge::attribute::{attribute_under, counts, stone_counts};
use crate::judge::eyes::{condition_1, condition_2, verdict, LowerView, Region, RegionVerdict};
use crate::judge::eyes2016::{
    condition_a, condition_b, is_outer_part_2016, judge_all_regions_2016, Verdict2016,
};
use crate::judge::forbidden::{flower_forbidden_reason, Forbidden, UpperView};
use crate::judge::freeze::FrozenString;
use std::sync::Arc;

/// The reference lower layer with its strings and the 2016 verdicts of every region (built once
/// per analysis when a 2016 region needs the opponent conditions).
type Judged2016 = (Layer, Strings, Vec<Vec<(Region, Verdict2016)>>);

/// The classes of a cell in the flood of a component of S_c ([`FastAnalysis::private_eyes`]):
/// a c-stone, a point of S_c not yet visited, and the mark of a visited point in the copy of
/// the board.
const OWN: u8 = 1;
const IN: u8 = 2;
const VISITED: u8 = 5;

/// The analysis of one direct board on the fast path: lower strings and their private eyes,
/// flower attributes, the upper layer with its strings and liberty counts.
#[derive(Clone, Debug)]
pub struct FastAnalysis {
    pub(super) geom: Geom,
    /// `geom.dirs()`, kept to be iterated by reference (cheaper than by value).
    pub(super) dirs: [usize; 4],
    /// The private-eye rule and the closed-region reading the eyes are judged under.
    pub(super) eye: EyeRule,
    pub(super) closed_region: ClosedRegion,
    pub(super) closed_region_2016: ClosedRegion2016,
    /// Lower-layer string through each point (black/white stones), else [`NONE`].
    pub(super) lower_of: [u16; MAXN],
    pub(super) lower_colour: [u8; MAXS],
    pub(super) has_eye: [bool; MAXS],
    /// Whether `has_eye` was computed (it is skipped when no flower needs it).
    pub(super) eyes_done: bool,
    pub(super) lower_count: usize,
    pub(super) flower_of: [u16; MAXN],
    pub(super) flower_attr: [Attribute; MAXS],
    pub(super) flower_count: usize,
    /// The upper layer: EMPTY, BLACK, WHITE, NEUTRAL (off-board), BORDER.
    pub(super) upper: [u8; MAXN],
    pub(super) upper_of: [u16; MAXN],
    pub(super) upper_colour: [u8; MAXS],
    pub(super) upper_libs: [u16; MAXS],
    /// One liberty of each upper string (its only one when `upper_libs` is 1).
    pub(super) upper_lib: [u16; MAXS],
    pub(super) upper_count: usize,
    /// M13-FREEZE (`grey-freeze: kept`, D21): the grey strings whose attribute is frozen, in
    /// reference indices (the position's, [`crate::judge::freeze`]); empty under other rules.
    pub(super) frozen: Arc<[FrozenString]>,
    // Scratch.
    pub(super) stack: [u16; MAXN],
    pub(super) mark: [u16; MAXN],
}

impl FastAnalysis {
    /// An analysis of nothing yet on a board of `geom`, for `rules`' private-eye rule and
    /// closed-region reading (the attribute rule is given to each [`FastAnalysis::run`]).
    pub(super) fn empty(geom: Geom, rules: &Rules) -> FastAnalysis {
        FastAnalysis {
            geom,
            dirs: geom.dirs(),
            eye: rules.private_eye,
            closed_region: rules.closed_region,
            closed_region_2016: rules.closed_region_2016,
            lower_of: [NONE; MAXN],
            lower_colour: [0; MAXS],
            has_eye: [false; MAXS],
            eyes_done: false,
            lower_count: 0,
            flower_of: [NONE; MAXN],
            flower_attr: [Attribute::Neutral; MAXS],
            flower_count: 0,
            upper: [BORDER; MAXN],
            upper_of: [NONE; MAXN],
            upper_colour: [0; MAXS],
            upper_libs: [0; MAXS],
            upper_lib: [0; MAXS],
            upper_count: 0,
            frozen: Arc::from(Vec::new()),
            stack: [0; MAXN],
            mark: [0; MAXN],
        }
    }

    /// Analyses a direct board under `rules`; every part is computed, private eyes included.
    /// Total: every private-eye rule, closed-region reading and attribute rule is implemented
    /// (the ko and the schedule, which the fast position implements for every value, do not
    /// enter an analysis).
    pub fn new(board: &Board, rules: &Rules) -> FastAnalysis {
        let geom = Geom {
            size: board.size(),
            w: board.size() + 2,
        };
        let cells = padded_cells(board, geom);
        let mut out = FastAnalysis::empty(geom, rules);
        out.run(&cells, Choices::of(rules).attribute, true);
        out
    }

    /// The whole pipeline. `want_eyes` forces the private eyes even where no flower needs them.
    pub(super) fn run(&mut self, cells: &[u8; MAXN], attribute: AttributeRule, want_eyes: bool) {
        let geom = self.geom;
        let any_flower = geom.points().any(|p| cells[p & MASK] == FLOWER);
        let eyes_counted = matches!(attribute, AttributeRule::M2020 | AttributeRule::M2016);
        let need_eyes = want_eyes || (any_flower && eyes_counted);
        if need_eyes {
            self.lower_strings(cells);
            self.private_eyes(cells);
        } else {
            self.eyes_done = false;
            self.lower_count = 0;
        }
        self.attributes(cells, attribute, any_flower);
        self.upper_layer(cells);
    }

    /// Floods the component of `start` over points whose value satisfies `member`, writing `id`
    /// into `map`; returns the number of points (they are `self.stack[..n]`).
    fn flood_into(
        stack: &mut [u16; MAXN],
        map: &mut [u16; MAXN],
        cells: &[u8; MAXN],
        dirs: [usize; 4],
        start: usize,
        id: u16,
        member: impl Fn(u8) -> bool,
    ) -> usize {
        map[start & MASK] = id;
        stack[0] = start as u16;
        let mut n = 1;
        let mut k = 0;
        while k < n {
            let q = stack[k & MASK] as usize;
            k += 1;
            for d in dirs {
                let m = q.wrapping_add(d);
                if map[m & MASK] == NONE && member(cells[m & MASK]) {
                    map[m & MASK] = id;
                    stack[n & MASK] = m as u16;
                    n += 1;
                }
            }
        }
        n
    }

    fn lower_strings(&mut self, cells: &[u8; MAXN]) {
        let geom = self.geom;
        let dirs = geom.dirs();
        self.lower_of.fill(NONE);
        let mut count = 0usize;
        for p in geom.points() {
            let v = cells[p & MASK];
            if (v == BLACK || v == WHITE) && self.lower_of[p & MASK] == NONE {
                Self::flood_into(
                    &mut self.stack,
                    &mut self.lower_of,
                    cells,
                    dirs,
                    p,
                    count as u16,
                    |u| u == v,
                );
                self.lower_colour[count] = v;
                count += 1;
            }
        }
        self.lower_count = count;
    }

    /// The private eyes of every lower string, by the clause functions of
    /// [`crate::judge::eyes`] (2020) or [`crate::judge::eyes2016`] (2016) called on the fast
    /// board (a [`LowerView`]); only the enumeration of the regions differs from the reference,
    /// which floods each string's closed regions: here one pass over the components of S_c
    /// (the points that are not stones of colour c: empty points and opponent stones, and under
    /// the 2016 rule also flowers) per colour decides every string's regions, for the reasons
    /// the module documentation gives.
    fn private_eyes(&mut self, cells: &[u8; MAXN]) {
        let geom = self.geom;
        self.has_eye[..self.lower_count].fill(false);
        let m2016 = self.eye == EyeRule::M2016;
        let same_colour = !m2016 && self.closed_region == ClosedRegion::SameColour;
        // The reference lower layer with the 2016 verdicts of every region, built once if a
        // 2016 region needs the opponent conditions.
        let mut reference: Option<Option<Judged2016>> = None;
        let mut judged = [0u32; MAXS];
        let mut component = 0u32;
        for c in [BLACK, WHITE] {
            let colour = colour_of(c);
            // The class of each cell value: a c-stone (OWN), a point of S_c not yet visited
            // (IN), anything else; a visited point is written VISITED in `work`.
            let mut class = [0u8; 8];
            class[c as usize] = OWN;
            class[EMPTY as usize] = IN;
            class[opp(c) as usize] = IN;
            if m2016 {
                class[FLOWER as usize] = IN;
            }
            let mut work = *cells;
            for p in geom.points() {
                if class[(work[p & MASK] & 7) as usize] != IN {
                    continue;
                }
                let (n, first, first_at, multi) = self.flood_component(&mut work, &class, p);
                if first == NONE || (multi && !same_colour) {
                    continue;
                }
                if same_colour {
                    self.judge_shared_component(cells, c, n, &mut judged, &mut component);
                } else if !m2016 {
                    let view = FastLower {
                        cells,
                        lower_of: &self.lower_of,
                        dirs: &self.dirs,
                    };
                    let region = self.stack[..n & MASK].iter().map(|&q| q as usize);
                    if verdict(&view, first as usize, colour, region) == RegionVerdict::PrivateEye {
                        self.has_eye[first as usize] = true;
                    }
                } else {
                    let eye = self.eye_2016(cells, c, n, (first, first_at), &mut reference);
                    self.has_eye[first as usize] |= eye;
                }
            }
        }
        self.eyes_done = true;
    }

    /// Floods the component of S_c through `p` (the points of class IN, marked VISITED in
    /// `work`) into `self.stack`: its size, the first string of colour c around it with one of
    /// its stones, and whether other strings of colour c are around it too.
    #[inline]
    fn flood_component(
        &mut self,
        work: &mut [u8; MAXN],
        class: &[u8; 8],
        p: usize,
    ) -> (usize, u16, usize, bool) {
        work[p & MASK] = VISITED;
        self.stack[0] = p as u16;
        let (mut n, mut k) = (1usize, 0usize);
        let (mut first, mut first_at, mut multi) = (NONE, 0usize, false);
        while k < n {
            let q = self.stack[k & MASK] as usize;
            k += 1;
            for &d in &self.dirs {
                let m = q.wrapping_add(d);
                let u = work[m & MASK];
                let kind = class[(u & 7) as usize];
                if kind == OWN {
                    let s = self.lower_of[m & MASK];
                    if first == NONE {
                        (first, first_at) = (s, m);
                    } else if s != first {
                        multi = true;
                    }
                } else if kind == IN {
                    work[m & MASK] = VISITED;
                    self.stack[n & MASK] = m as u16;
                    n += 1;
                }
            }
        }
        (n, first, first_at, multi)
    }

    /// Under `closed-region: same-colour` the component in `self.stack[..n]` is a closed region
    /// of every string of colour `c` around it; condition 2 does not depend on which. Each
    /// string around it is judged once (`judged[s]` = the number of the component that judged
    /// it, `component` counting the components that meet condition 2).
    #[inline]
    fn judge_shared_component(
        &mut self,
        cells: &[u8; MAXN],
        c: u8,
        n: usize,
        judged: &mut [u32; MAXS],
        component: &mut u32,
    ) {
        let colour = colour_of(c);
        let view = FastLower {
            cells,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
        };
        let region = self.stack[..n & MASK].iter().map(|&q| q as usize);
        if condition_2(&view, colour, region.clone()).is_err() {
            return;
        }
        *component += 1;
        for q in region.clone() {
            for &d in &self.dirs {
                let s = self.lower_of[q.wrapping_add(d) & MASK];
                if s == NONE
                    || self.lower_colour[s as usize] != c
                    || judged[s as usize] == *component
                {
                    continue;
                }
                judged[s as usize] = *component;
                if !self.has_eye[s as usize]
                    && condition_1(&view, s as usize, colour, region.clone()).is_ok()
                {
                    self.has_eye[s as usize] = true;
                }
            }
        }
    }

    /// Whether the component in `self.stack[..n]`, bounded by the one string `first` of colour
    /// `c` (with its stone), is a 2016 private eye of that string: conditions a and b, not the
    /// outer part under `inside`, and the opponent conditions from the reference verdicts of
    /// the same board (built once into `reference`) when an opponent stone is inside.
    #[inline]
    fn eye_2016(
        &self,
        cells: &[u8; MAXN],
        c: u8,
        n: usize,
        (first, first_at): (u16, usize),
        reference: &mut Option<Option<Judged2016>>,
    ) -> bool {
        let geom = self.geom;
        let inside_only = self.closed_region_2016 == ClosedRegion2016::Inside;
        let view = FastLower {
            cells,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
        };
        let region = self.stack[..n & MASK].iter().map(|&q| q as usize);
        let o = opp(c);
        if !(condition_a(&view, first as usize, region.clone())
            && condition_b(&view, colour_of(c), region.clone())
            // M16-REGION: under `inside` the outer part is no closed region
            && !(inside_only && is_outer_part_2016(&view, first as usize, region.clone())))
        {
            return false;
        }
        if !region.clone().any(|q| cells[q & MASK] == o) {
            return true;
        }
        // M16-EYE-CAPTURE, -C, -D: no closed form, and c weighs strings against each other; the
        // reference verdicts of the same board.
        let Some((_, strings, verdicts)) = reference
            .get_or_insert_with(|| {
                reference_lower(cells, geom).map(|(layer, strings)| {
                    let v = judge_all_regions_2016(&layer, &strings, self.closed_region_2016);
                    (layer, strings, v)
                })
            })
            .as_ref()
        else {
            return false;
        };
        let at = geom.unpad(self.stack[0] as usize);
        match strings.of[geom.unpad(first_at)] {
            Some(a) => verdicts.get(a).is_some_and(|rs| {
                rs.iter().any(|(r, v)| {
                    *v == Verdict2016::PrivateEye && r.points.binary_search(&at).is_ok()
                })
            }),
            None => false,
        }
    }

    /// The flower attributes: M20-ATTR-COUNT's counts ([`counts`]) over the distinct adjacent
    /// lower strings, or 2013's ([`stone_counts`]) over the distinct adjacent stones, decided by
    /// [`attribute_under`] — the functions [`crate::judge::analysis::Analysis::new`] calls.
    fn attributes(&mut self, cells: &[u8; MAXN], rule: AttributeRule, any_flower: bool) {
        let geom = self.geom;
        let dirs = geom.dirs();
        self.flower_of.fill(NONE);
        self.flower_count = 0;
        if !any_flower {
            return;
        }
        // `mark[s]` = 1 + the flower string that last counted lower string `s` (2013: point `s`).
        if rule == AttributeRule::M2013 {
            self.mark.fill(0);
        } else {
            self.mark[..self.lower_count].fill(0);
        }
        let mut f = 0usize;
        for p in geom.points() {
            if cells[p & MASK] != FLOWER || self.flower_of[p & MASK] != NONE {
                continue;
            }
            let n = Self::flood_into(
                &mut self.stack,
                &mut self.flower_of,
                cells,
                dirs,
                p,
                f as u16,
                |u| u == FLOWER,
            );
            // M13-FREEZE: a frozen grey string (these very points) keeps its attribute.
            let kept = self
                .frozen
                .iter()
                .find(|fs| {
                    fs.points.len() == n
                        && fs
                            .points
                            .iter()
                            .all(|&i| self.flower_of[geom.pad(i) & MASK] == f as u16)
                })
                .map(|fs| fs.attribute);
            if let Some(attribute) = kept {
                self.flower_attr[f] = attribute;
                f += 1;
                continue;
            }
            let tag = f as u16 + 1;
            let stack = &self.stack;
            let mark = std::cell::Cell::from_mut(&mut self.mark[..]).as_slice_of_cells();
            let around = || {
                stack[..n & MASK]
                    .iter()
                    .flat_map(move |&q| dirs.map(|d| (q as usize).wrapping_add(d)))
            };
            let (lower_of, lower_colour, has_eye) =
                (&self.lower_of, &self.lower_colour, &self.has_eye);
            let (attribute, _) = attribute_under(
                rule,
                || {
                    counts(around().filter_map(|m| {
                        let s = lower_of[m & MASK];
                        if s == NONE || mark[s as usize & MASK].get() == tag {
                            return None;
                        }
                        mark[s as usize & MASK].set(tag);
                        Some((lower_colour[s as usize] == BLACK, has_eye[s as usize]))
                    }))
                },
                || {
                    stone_counts(around().filter_map(|m| {
                        let u = cells[m & MASK];
                        if !(u == BLACK || u == WHITE) || mark[m & MASK].get() == tag {
                            return None;
                        }
                        mark[m & MASK].set(tag);
                        Some(colour_of(u))
                    }))
                },
            );
            self.flower_attr[f] = attribute;
            f += 1;
        }
        self.flower_count = f;
    }

    /// Fast form of M20-UPPER and M20-STRING on the upper layer: upper strings and their
    /// liberty counts.
    fn upper_layer(&mut self, cells: &[u8; MAXN]) {
        let n = self.geom.w * self.geom.w;
        for p in 0..n {
            let v = cells[p & MASK];
            self.upper[p & MASK] = if v == FLOWER {
                upper_code(self.flower_attr[self.flower_of[p & MASK] as usize])
            } else {
                v
            };
        }
        self.upper_strings();
    }

    /// The upper layer of `cells` seen with the attributes `held` had (a flower `held` does not
    /// know, just placed, is neutral), not recomputed: the first captures under
    /// `capture-timing: holographic-first` (reference: [`crate::Analysis::with_held_attributes`]).
    /// Only the upper layer and its strings are valid afterwards.
    pub(super) fn run_held(&mut self, cells: &[u8; MAXN], held: &FastAnalysis) {
        let n = self.geom.w * self.geom.w;
        for p in 0..n {
            let v = cells[p & MASK];
            self.upper[p & MASK] = if v == FLOWER {
                match held.flower_of[p & MASK] {
                    NONE => NEUTRAL,
                    f => upper_code(held.flower_attr[f as usize]),
                }
            } else {
                v
            };
        }
        self.eyes_done = false;
        self.upper_strings();
    }

    /// The black and white strings of the upper layer with their liberty counts.
    fn upper_strings(&mut self) {
        let geom = self.geom;
        let dirs = geom.dirs();
        self.upper_of.fill(NONE);
        self.mark.fill(NONE);
        let mut count = 0usize;
        for p in geom.points() {
            let v = self.upper[p & MASK];
            if !(v == BLACK || v == WHITE) || self.upper_of[p & MASK] != NONE {
                continue;
            }
            let id = count as u16;
            let size = Self::flood_into(
                &mut self.stack,
                &mut self.upper_of,
                &self.upper,
                dirs,
                p,
                id,
                |u| u == v,
            );
            let mut libs = 0u16;
            let mut lib = 0u16;
            for k in 0..size {
                let q = self.stack[k & MASK] as usize;
                for d in dirs {
                    let m = q.wrapping_add(d);
                    if self.upper[m & MASK] == EMPTY && self.mark[m & MASK] != id {
                        self.mark[m & MASK] = id;
                        libs += 1;
                        lib = m as u16;
                    }
                }
            }
            self.upper_colour[count] = v;
            self.upper_libs[count] = libs;
            self.upper_lib[count] = lib;
            count += 1;
        }
        self.upper_count = count;
    }

    /// Whether the lower string through reference index `i` has a private eye (`None` where
    /// there is no black or white stone).
    pub fn has_private_eye(&self, i: usize) -> Option<bool> {
        let s = self.lower_of[self.geom.pad(i)];
        (s != NONE && self.eyes_done).then(|| self.has_eye[s as usize])
    }

    /// The attribute of the flower string through reference index `i`.
    pub fn attribute_at(&self, i: usize) -> Option<Attribute> {
        let f = self.flower_of[self.geom.pad(i)];
        (f != NONE).then(|| self.flower_attr[f as usize])
    }

    /// The upper-layer colour at reference index `i`: `Some(Some(colour))` for an upper stone,
    /// `Some(None)` for an empty point, `None` for a neutral flower (off-board).
    pub fn upper_at(&self, i: usize) -> Option<Option<Colour>> {
        match self.upper[self.geom.pad(i)] {
            EMPTY => Some(None),
            BLACK => Some(Some(Colour::Black)),
            WHITE => Some(Some(Colour::White)),
            _ => None,
        }
    }

    /// The number of liberties of the upper string through reference index `i`.
    pub fn upper_liberties_at(&self, i: usize) -> Option<usize> {
        let s = self.upper_of[self.geom.pad(i)];
        (s != NONE).then(|| self.upper_libs[s as usize] as usize)
    }

    /// Number of black and white upper strings (a string number the incremental update
    /// retired has no colour).
    pub fn upper_string_count(&self) -> usize {
        self.upper_colour[..self.upper_count]
            .iter()
            .filter(|&&c| c == BLACK || c == WHITE)
            .count()
    }

    /// The points closed to `player`'s flower with the reason, in board order: the clauses of
    /// [`crate::judge::forbidden`] (M20-FORBID-UPPER) on this analysis's upper layer.
    /// Only the points the private `may_be_forbidden` filter keeps are asked; the others no
    /// clause can forbid.
    pub fn forbidden_points(&self, rules: &Rules, player: Colour) -> Vec<(usize, Forbidden)> {
        let mut out = Vec::new();
        for p in self.geom.points() {
            if self.may_be_forbidden(p) {
                if let Some(f) = flower_forbidden_reason(self, rules, p, player) {
                    out.push((self.geom.unpad(p), f));
                }
            }
        }
        out
    }

    /// A cheap necessary condition for [`flower_forbidden_reason`] to forbid padded point `p`
    /// to anyone's flower, read off the upper layer without the view: `p` is empty and either
    /// has at most one empty neighbour or is next to an upper string with one liberty. The
    /// clause functions of [`crate::judge::forbidden`] justify it, each returning nothing
    /// otherwise:
    /// - `is_capture_point` (M20-FORBID-CAPTURE) asks whether a neighbouring string has one
    ///   liberty (`takes_last_liberty`);
    /// - `is_one_liberty_eye` (M20-FORBID-EYE) returns `None` at the first empty neighbour, so
    ///   it needs none;
    /// - `is_tigers_mouth` (M20-FORBID-TIGER) needs exactly one empty neighbour.
    ///
    /// So a point with two or more empty neighbours and no one-liberty string beside it is
    /// forbidden by none of them, under any rule option. `tests/it/fast_equals_reference.rs`
    /// compares the filtered list with the reference's (`report::forbidden_points`, which asks
    /// the clause functions at every point) on random boards, bench positions, conformance
    /// positions and held analyses of long random games.
    fn may_be_forbidden(&self, p: usize) -> bool {
        let upper = &self.upper;
        if upper[p & MASK] != EMPTY {
            return false;
        }
        let empty: u8 = self
            .dirs
            .iter()
            .map(|&d| u8::from(upper[p.wrapping_add(d) & MASK] == EMPTY))
            .sum();
        empty <= 1
            || self.dirs.iter().any(|&d| {
                let s = self.upper_of[p.wrapping_add(d) & MASK];
                s != NONE && self.upper_libs[s as usize % MAXS] == 1
            })
    }

    /// Why reference index `i` is closed to `player`'s flower
    /// ([`crate::judge::forbidden::flower_forbidden_reason`] on this analysis).
    pub fn flower_forbidden_reason(
        &self,
        rules: &Rules,
        i: usize,
        player: Colour,
    ) -> Option<Forbidden> {
        flower_forbidden_reason(self, rules, self.geom.pad(i), player)
    }
}

/// The upper layer of the fast engine as the forbidden-point clauses read it: padded points,
/// the frame skipped (the edge has no neighbour), a neutral flower off-board.
impl UpperView for FastAnalysis {
    fn cell(&self, p: usize) -> Cell {
        view_cell(self.upper[p & MASK])
    }
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        view_neighbours(&self.dirs, &self.upper, p)
    }
    fn liberty_count(&self, p: usize) -> Option<usize> {
        match self.upper_of[p & MASK] {
            NONE => None,
            s => Some(self.upper_libs[s as usize] as usize),
        }
    }
}

/// A padded cell as the clause views read it (lower or upper layer): a flower or neutral flower,
/// and the frame, off-board.
pub(super) fn view_cell(v: u8) -> Cell {
    match v {
        EMPTY => Cell::Empty,
        BLACK => Cell::Stone(Colour::Black),
        WHITE => Cell::Stone(Colour::White),
        _ => Cell::OffBoard,
    }
}

/// The on-board neighbours of padded point `p` (the frame skipped: the edge has no neighbour).
pub(super) fn view_neighbours<'a>(
    dirs: &'a [usize; 4],
    cells: &'a [u8; MAXN],
    p: usize,
) -> impl Iterator<Item = usize> + 'a {
    dirs.iter()
        .map(move |&d| p.wrapping_add(d))
        .filter(move |&q| cells[q & MASK] != BORDER)
}

/// The upper-layer code of a flower of attribute `a` ([`upper_cell`], M20-UPPER, written once
/// for both boards): its colour's, or NEUTRAL (off-board).
pub(super) fn upper_code(a: Attribute) -> u8 {
    match upper_cell(Some(Stone::Flower), Some(a)) {
        Cell::Stone(Colour::Black) => BLACK,
        Cell::Stone(Colour::White) => WHITE,
        Cell::Empty => EMPTY,
        Cell::OffBoard => NEUTRAL,
    }
}

pub(super) fn padded_cells(board: &Board, geom: Geom) -> [u8; MAXN] {
    let mut cells = [BORDER; MAXN];
    for i in 0..board.len() {
        cells[geom.pad(i)] = match board.get(i) {
            None => EMPTY,
            Some(Stone::Black) => BLACK,
            Some(Stone::White) => WHITE,
            Some(Stone::Flower) => FLOWER,
        };
    }
    cells
}

/// The lower layer of the fast board as the private-eye clauses read it: padded points, the
/// frame skipped, a flower off-board, the lower strings of [`FastAnalysis::lower_strings`].
struct FastLower<'a> {
    cells: &'a [u8; MAXN],
    lower_of: &'a [u16; MAXN],
    dirs: &'a [usize; 4],
}

impl LowerView for FastLower<'_> {
    fn cell(&self, p: usize) -> Cell {
        view_cell(self.cells[p & MASK])
    }
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        view_neighbours(self.dirs, self.cells, p)
    }
    fn string_of(&self, p: usize) -> Option<usize> {
        match self.lower_of[p & MASK] {
            NONE => None,
            s => Some(s as usize),
        }
    }
}

fn colour_of(c: u8) -> Colour {
    if c == BLACK {
        Colour::Black
    } else {
        Colour::White
    }
}

/// The reference lower layer and its strings of the fast board `cells` (`None` only for a
/// size no board has, which the fast engine never holds: its geometry came from a board).
fn reference_lower(cells: &[u8; MAXN], geom: Geom) -> Option<(Layer, Strings)> {
    let mut board = Board::empty(geom.size).ok()?;
    for i in 0..board.len() {
        board.set(
            i,
            match cells[geom.pad(i) & MASK] {
                BLACK => Some(Stone::Black),
                WHITE => Some(Stone::White),
                FLOWER => Some(Stone::Flower),
                _ => None,
            },
        );
    }
    let layer = lower_layer(&board);
    let strings = strings_of(&layer);
    Some((layer, strings))
}
