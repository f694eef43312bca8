//! [`FastAnalysis`]: one direct board analysed on the padded byte board (lower strings, private
//! eyes, flower attributes, the upper layer and its strings).

use super::*;
use crate::board::grid::{Board, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::judge::attribute::{attribute_2016, attribute_2020, Counts};
use crate::judge::forbidden::{flower_forbidden_reason, Forbidden, UpperView};

/// The analysis of one direct board on the fast path: lower strings and their private eyes,
/// flower attributes, the upper layer with its strings and liberty counts.
#[derive(Clone, Debug)]
pub struct FastAnalysis {
    pub(super) geom: Geom,
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
    // Scratch.
    pub(super) stack: [u16; MAXN],
    pub(super) mark: [u16; MAXN],
}

impl FastAnalysis {
    pub(super) fn empty(geom: Geom) -> FastAnalysis {
        FastAnalysis {
            geom,
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
            stack: [0; MAXN],
            mark: [0; MAXN],
        }
    }

    /// Analyses a direct board under `rules` (which [`supports`] must accept); every part is
    /// computed, private eyes included.
    pub fn new(board: &Board, rules: &Rules) -> Option<FastAnalysis> {
        if !supports(rules) {
            return None;
        }
        let geom = Geom {
            size: board.size(),
            w: board.size() + 2,
        };
        let cells = padded_cells(board, geom);
        let mut a = FastAnalysis::empty(geom);
        a.run(&cells, Choices::of(rules).attribute, true);
        Some(a)
    }

    /// The whole pipeline. `want_eyes` forces the private eyes even where no flower needs them.
    pub(super) fn run(&mut self, cells: &[u8; MAXN], attribute: AttributeRule, want_eyes: bool) {
        let geom = self.geom;
        let any_flower = geom.points().any(|p| cells[p & MASK] == FLOWER);
        let need_eyes = want_eyes || (any_flower && attribute != AttributeRule::AlwaysNeutral);
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

    /// Fast form of M20-EYE (reference: [`crate::judge::eyes::judge_regions`]); see the module
    /// documentation for why the components of S_c decide the same private eyes.
    fn private_eyes(&mut self, cells: &[u8; MAXN]) {
        let geom = self.geom;
        let dirs = geom.dirs();
        self.has_eye[..self.lower_count].fill(false);
        for c in [BLACK, WHITE] {
            let o = opp(c);
            // `mark` doubles as the visited map of this colour's components.
            self.mark.fill(NONE);
            for p in geom.points() {
                let v = cells[p & MASK];
                if !(v == EMPTY || v == o) || self.mark[p & MASK] != NONE {
                    continue;
                }
                self.mark[p & MASK] = 0;
                self.stack[0] = p as u16;
                let (mut n, mut k) = (1usize, 0usize);
                let mut first = NONE;
                let mut multi = false;
                let mut any_adj = false;
                let mut all_adj = true;
                let mut has_opp = false;
                while k < n {
                    let q = self.stack[k & MASK] as usize;
                    k += 1;
                    let vq = cells[q & MASK];
                    let mut adj = false;
                    for d in dirs {
                        let m = q.wrapping_add(d);
                        let u = cells[m & MASK];
                        if u == c {
                            adj = true;
                            let s = self.lower_of[m & MASK];
                            if first == NONE {
                                first = s;
                            } else if s != first {
                                multi = true;
                            }
                        } else if (u == EMPTY || u == o) && self.mark[m & MASK] == NONE {
                            self.mark[m & MASK] = 0;
                            self.stack[n & MASK] = m as u16;
                            n += 1;
                        }
                    }
                    if vq == EMPTY {
                        any_adj |= adj;
                        all_adj &= adj;
                    } else {
                        has_opp = true;
                    }
                }
                if !multi && first != NONE && any_adj && (!has_opp || all_adj) {
                    self.has_eye[first as usize] = true;
                }
            }
        }
        self.eyes_done = true;
    }

    /// Fast form of M20-ATTR-COUNT and the attribute rules (reference:
    /// [`crate::judge::analysis::Analysis::new`] with [`crate::judge::attribute`]).
    fn attributes(&mut self, cells: &[u8; MAXN], rule: AttributeRule, any_flower: bool) {
        let geom = self.geom;
        let dirs = geom.dirs();
        self.flower_of.fill(NONE);
        self.flower_count = 0;
        if !any_flower {
            return;
        }
        // `mark[s]` = 1 + the flower string that last counted lower string `s`.
        self.mark[..self.lower_count].fill(0);
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
            let attribute = if rule == AttributeRule::AlwaysNeutral {
                Attribute::Neutral
            } else {
                let mut counts = Counts::default();
                for k in 0..n {
                    let q = self.stack[k & MASK] as usize;
                    for d in dirs {
                        let s = self.lower_of[q.wrapping_add(d) & MASK];
                        if s == NONE || self.mark[s as usize] == f as u16 + 1 {
                            continue;
                        }
                        self.mark[s as usize] = f as u16 + 1;
                        match (
                            self.lower_colour[s as usize] == BLACK,
                            self.has_eye[s as usize],
                        ) {
                            (true, true) => counts.hs += 1,
                            (true, false) => counts.hw += 1,
                            (false, true) => counts.bs += 1,
                            (false, false) => counts.bw += 1,
                        }
                    }
                }
                match rule {
                    AttributeRule::M2016 => attribute_2016(counts).0,
                    _ => attribute_2020(counts).0,
                }
            };
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

    /// Number of black and white upper strings.
    pub fn upper_string_count(&self) -> usize {
        self.upper_count
    }

    /// The points closed to `player`'s flower with the reason, in board order: the clauses of
    /// [`crate::judge::forbidden`] (M20-FORBID-UPPER) on this analysis's upper layer.
    pub fn forbidden_points(&self, rules: &Rules, player: Colour) -> Vec<(usize, Forbidden)> {
        self.geom
            .points()
            .filter(|&p| self.upper[p & MASK] == EMPTY)
            .filter_map(|p| {
                flower_forbidden_reason(self, rules, p, player).map(|f| (self.geom.unpad(p), f))
            })
            .collect()
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
        match self.upper[p & MASK] {
            EMPTY => Cell::Empty,
            BLACK => Cell::Stone(Colour::Black),
            WHITE => Cell::Stone(Colour::White),
            _ => Cell::OffBoard,
        }
    }
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        self.geom
            .dirs()
            .into_iter()
            .map(move |d| p.wrapping_add(d))
            .filter(|&q| self.upper[q & MASK] != BORDER)
    }
    fn liberty_count(&self, p: usize) -> Option<usize> {
        match self.upper_of[p & MASK] {
            NONE => None,
            s => Some(self.upper_libs[s as usize] as usize),
        }
    }
}

pub(super) fn upper_code(a: Attribute) -> u8 {
    match a {
        Attribute::Black => BLACK,
        Attribute::White => WHITE,
        Attribute::Neutral => NEUTRAL,
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
