//! The fast engine of the hot loops (legal-move lists, perft, random games): the same rules as
//! the clause-by-clause functions, computed on a padded byte board with fixed buffers, the
//! private eyes found in closed form per component, and a local legality test where no flower
//! can be involved. `Position::legal_moves` (and through it `analyze`, `explain`, `diff`, the
//! conformance answers) and `tools::perft::perft` run on it wherever [`supports`] accepts the
//! rules; the clause-by-clause path ([`Analysis::new`](crate::Analysis::new), `Position::play`,
//! `Position::legal_moves_reference`) stays the specification and runnable:
//! `tests/fast_equals_reference.rs` checks, on random positions and move sequences, that this
//! module agrees with it ("fast equals reference"). This module does not import the position
//! (`game::play`, which builds on it): a position is handed over as its parts
//! ([`FastPosition::from_state`]).
//!
//! Supported rules ([`supports`]): private eye m2020 with single-string closed regions;
//! attribute m2020, m2016 or always-neutral; ko none or simple; schedule cycle10 or alternate;
//! the emergency conversion on or off. Anything else is refused by [`FastPosition::from_state`]
//! (the reference decides there). The emergency conversion (D3-EMERGENCY) is a special move that
//! takes a turn other than the schedule's: it changes no move of the schedule's turn, which is
//! all this engine plays and lists, so its lists are the reference's; the conversions
//! themselves are `Position::special_moves`, on the reference, and [`FastPosition::perft`],
//! which would have to count them, refuses those rules.
//!
//! Why the closed form of the private eye is the same judgement (M20-EYE-REGION, M20-EYE-1,
//! M20-EYE-2, M20-EYE-SIM): let A be a string of colour c, F the flowers. A closed region R of A
//! is a component of the points outside A ∪ F adjacent to A. If R holds a stone of colour c it
//! fails condition 1. Otherwise R lies in one component C of S_c = (empty points and opponent
//! stones); C itself lies outside A ∪ F and is connected, so C ⊆ R and R = C; every c-stone next
//! to C is then in A. Conversely a component C of S_c whose c-neighbours all belong to one string
//! A is a closed region of A without c-stones. On such a region, condition 1 ("an empty string
//! adjacent to A that touches no other c-string") is "some empty point of C touches a c-stone"
//! (all c-stones around C are A's), and condition 2 with the fill simulation is "C holds no
//! opponent stone, or every empty point of C touches a c-stone" (see
//! [`eyes::fill_simulation_makes_eye`](crate::judge::eyes::fill_simulation_makes_eye)). So one pass over
//! the components of S_black and one over S_white decide every string's private eyes.

use crate::board::grid::{Board, Colour, Stone};
use crate::board::layers::Attribute;
use crate::board::layers::Cell;
use crate::game::moves::Action;
use crate::game::order::{game_over_by_passes, turn_of_move, Kind, Turn};
use crate::judge::attribute::{attribute_2016, attribute_2020, Counts};
use crate::judge::forbidden::{flower_forbidden_reason, is_one_liberty_eye, Forbidden, UpperView};
use crate::rules::{
    AttributeRule, CaptureTiming, ClosedRegion, EyeRule, FlowerCaptureCheck, Ko, Rules, Schedule,
    Suicide, SuicideTiming,
};

/// Length of the per-point arrays: a power of two above the largest padded board (21 × 21), so
/// that indexing with `p & MASK` is visibly in bounds and the compiler drops the bounds check
/// (this crate forbids `unsafe`). Every padded point `p` is below 441, so `p & MASK == p`.
const MAXN: usize = 512;
const MASK: usize = MAXN - 1;
/// "No string" in the per-point string maps.
const NONE: u16 = u16::MAX;
/// Most strings a board can hold.
const MAXS: usize = 19 * 19;

// Cell values of the direct board; the upper layer uses NEUTRAL for neutral flowers.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const FLOWER: u8 = 3;
const NEUTRAL: u8 = 3;
const BORDER: u8 = 4;

fn opp(c: u8) -> u8 {
    3 - c
}

fn colour_code(c: Colour) -> u8 {
    match c {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

/// Whether the fast path implements `rules` exactly (see the module documentation).
pub fn supports(rules: &Rules) -> bool {
    rules.private_eye == EyeRule::M2020
        && rules.closed_region == ClosedRegion::SingleString
        && matches!(
            rules.attribute,
            AttributeRule::M2020 | AttributeRule::M2016 | AttributeRule::AlwaysNeutral
        )
        && matches!(rules.ko, Ko::None | Ko::Simple)
        && matches!(rules.schedule, Schedule::Cycle10 | Schedule::Alternate)
}

/// The rule choices the fast path reads, copied out of [`Rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choices {
    attribute: AttributeRule,
    flower_capture_check: FlowerCaptureCheck,
    capture_timing: CaptureTiming,
    suicide: Suicide,
    suicide_timing: SuicideTiming,
    ko: Ko,
}

impl Choices {
    fn of(r: &Rules) -> Choices {
        Choices {
            attribute: r.attribute,
            flower_capture_check: r.flower_capture_check,
            capture_timing: r.capture_timing,
            suicide: r.suicide,
            suicide_timing: r.suicide_timing,
            ko: r.ko,
        }
    }
}

/// The geometry of a padded board: `w = size + 2`, point (row r, column c) of the reference
/// index `r * size + c` is `(r + 1) * w + c + 1`; the frame is [`BORDER`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geom {
    size: usize,
    w: usize,
}

impl Geom {
    fn pad(self, i: usize) -> usize {
        (i / self.size + 1) * self.w + i % self.size + 1
    }
    fn unpad(self, p: usize) -> usize {
        (p / self.w - 1) * self.size + p % self.w - 1
    }
    fn dirs(self) -> [usize; 4] {
        // Added with wrapping arithmetic: +1, -1, -w, +w.
        [1, usize::MAX, self.w.wrapping_neg(), self.w]
    }
    /// The span from the first to the last on-board point, in reference order. The two frame
    /// cells between rows lie inside it: every caller skips them by their value (BORDER, or
    /// NONE in the string maps).
    fn points(self) -> std::ops::Range<usize> {
        self.w + 1..self.w * (self.size + 1) - 1
    }
}

/// The analysis of one direct board on the fast path: lower strings and their private eyes,
/// flower attributes, the upper layer with its strings and liberty counts.
#[derive(Clone, Debug)]
pub struct FastAnalysis {
    geom: Geom,
    /// Lower-layer string through each point (black/white stones), else [`NONE`].
    lower_of: [u16; MAXN],
    lower_colour: [u8; MAXS],
    has_eye: [bool; MAXS],
    /// Whether `has_eye` was computed (it is skipped when no flower needs it).
    eyes_done: bool,
    lower_count: usize,
    flower_of: [u16; MAXN],
    flower_attr: [Attribute; MAXS],
    flower_count: usize,
    /// The upper layer: EMPTY, BLACK, WHITE, NEUTRAL (off-board), BORDER.
    upper: [u8; MAXN],
    upper_of: [u16; MAXN],
    upper_colour: [u8; MAXS],
    upper_libs: [u16; MAXS],
    /// One liberty of each upper string (its only one when `upper_libs` is 1).
    upper_lib: [u16; MAXS],
    upper_count: usize,
    // Scratch.
    stack: [u16; MAXN],
    mark: [u16; MAXN],
}

impl FastAnalysis {
    fn empty(geom: Geom) -> FastAnalysis {
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
    fn run(&mut self, cells: &[u8; MAXN], attribute: AttributeRule, want_eyes: bool) {
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
    fn run_held(&mut self, cells: &[u8; MAXN], held: &FastAnalysis) {
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

fn upper_code(a: Attribute) -> u8 {
    match a {
        Attribute::Black => BLACK,
        Attribute::White => WHITE,
        Attribute::Neutral => NEUTRAL,
    }
}

fn padded_cells(board: &Board, geom: Geom) -> [u8; MAXN] {
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

/// Why the fast path refuses a move: the reference's reasons.
pub use crate::game::refusal::Refusal;

/// A position on the fast path: the direct board, the board before the previous move (all the
/// simple ko rule needs), the move number, the trailing passes, and the analysis of the board.
#[derive(Clone, Debug)]
pub struct FastPosition {
    rules: Rules,
    choices: Choices,
    geom: Geom,
    cells: [u8; MAXN],
    /// The board before the previous move, if there was a previous move.
    last: Option<[u8; MAXN]>,
    move_number: u32,
    trailing_passes: u32,
    /// Whether a flower stone stands on the board (else the upper layer is the direct board).
    any_flower: bool,
    an: FastAnalysis,
    /// An empty board of the size, to write the direct board back.
    blank: Board,
}

impl FastPosition {
    /// The fast form of a position given as its parts: the rules, the direct board, the board
    /// before the previous move (`last`, what the simple ko rule needs), the number of the next
    /// move and the trailing passes. `None` when [`supports`] refuses the rules.
    pub fn from_state(
        rules: &Rules,
        board: &Board,
        last: Option<&Board>,
        move_number: u32,
        trailing_passes: u32,
    ) -> Option<FastPosition> {
        if !supports(rules) {
            return None;
        }
        let geom = Geom {
            size: board.size(),
            w: board.size() + 2,
        };
        let cells = padded_cells(board, geom);
        let mut fp = FastPosition {
            rules: rules.clone(),
            choices: Choices::of(rules),
            geom,
            cells,
            last: last.map(|b| padded_cells(b, geom)),
            move_number,
            trailing_passes,
            any_flower: false,
            an: FastAnalysis::empty(geom),
            blank: board.clone(),
        };
        for i in 0..fp.blank.len() {
            fp.blank.set(i, None);
        }
        fp.refresh();
        Some(fp)
    }

    fn refresh(&mut self) {
        self.any_flower = self.geom.points().any(|p| self.cells[p & MASK] == FLOWER);
        self.an.run(&self.cells, self.choices.attribute, false);
    }

    /// The direct board.
    pub fn board(&self) -> Board {
        let mut b = self.blank.clone();
        for i in 0..b.len() {
            b.set(
                i,
                match self.cells[self.geom.pad(i)] {
                    BLACK => Some(Stone::Black),
                    WHITE => Some(Stone::White),
                    FLOWER => Some(Stone::Flower),
                    _ => None,
                },
            );
        }
        b
    }

    /// Number of the next move.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The analysis of the current board.
    pub fn analysis(&self) -> &FastAnalysis {
        &self.an
    }

    /// The turn of the next move.
    pub fn turn(&self) -> Turn {
        turn_of_move(&self.rules, self.move_number)
    }

    /// Whether the game is over by passes ([`game_over_by_passes`], GO-END).
    pub fn game_over(&self) -> bool {
        game_over_by_passes(&self.rules, self.move_number, self.trailing_passes, |m| {
            turn_of_move(&self.rules, m)
        })
    }

    /// What a black/white stone of `mover` at `p` finds on the current upper layer: whether its
    /// string would keep a liberty (an empty neighbour, or a neighbouring string of its colour
    /// with another liberty) and whether it takes the last liberty of an opponent string.
    fn local(&self, p: usize, mover: u8) -> (bool, bool) {
        let an = &self.an;
        let mut liberty = false;
        let mut captures = false;
        for d in self.geom.dirs() {
            let m = p.wrapping_add(d);
            match an.upper[m & MASK] {
                EMPTY => liberty = true,
                c @ (BLACK | WHITE) => {
                    let libs = an.upper_libs[an.upper_of[m & MASK] as usize];
                    if c == mover {
                        if libs >= 2 {
                            liberty = true;
                        }
                    } else if libs == 1 {
                        captures = true;
                    }
                }
                _ => {}
            }
        }
        (liberty, captures)
    }

    /// Whether a black/white stone of `mover` at `p` is legal, decided locally: valid when no
    /// flower can take part (no flower on the board, or every flower neutral by rule), so that
    /// the upper layer is the direct board with flowers off-board and nothing but the
    /// neighbouring strings can change. `None` when the full path must decide (a suicide under
    /// `suicide: allowed`).
    fn quick_stone_legal(&self, p: usize, mover: u8) -> Option<bool> {
        let (liberty, captures) = self.local(p, mover);
        if captures {
            // A capture is legal unless it recreates the board before the previous move.
            return Some(match (&self.last, self.choices.ko) {
                (Some(last), Ko::Simple) => self.plain_capture_result(p, mover) != *last,
                _ => true,
            });
        }
        if !liberty {
            // Suicide: refused, or (suicide allowed) decided by the full path.
            return (self.choices.suicide == Suicide::Forbidden).then_some(false);
        }
        // No capture: the board gains a stone and loses none, so it cannot repeat the board
        // before the previous move (that board lacks the previous move's stone, or, after a
        // pass, equals the current board).
        Some(true)
    }

    /// The direct board after a capturing stone of `mover` at `p`, judged on the current upper
    /// layer: the stone placed, the opponent upper strings whose last liberty it took removed
    /// with their attributed flowers (then the stone's string has the freed points as
    /// liberties). Where no flower takes part this is the whole move; under holographic-first
    /// it is the first round of the cascade.
    fn plain_capture_result(&self, p: usize, mover: u8) -> [u8; MAXN] {
        let an = &self.an;
        let mut dead = [NONE; 4];
        let mut k = 0;
        for d in self.geom.dirs() {
            let m = p.wrapping_add(d) & MASK;
            if an.upper[m] == opp(mover) {
                let s = an.upper_of[m];
                if an.upper_libs[s as usize] == 1 && !dead[..k].contains(&s) {
                    dead[k] = s;
                    k += 1;
                }
            }
        }
        let mut out = self.cells;
        out[p & MASK] = mover;
        for q in self.geom.points() {
            let s = an.upper_of[q & MASK];
            if s != NONE && dead[..k].contains(&s) {
                out[q & MASK] = EMPTY;
            }
        }
        out
    }

    /// Plays the stone or flower of the side to move at reference index `i` into `out` (a
    /// buffer that must be a clone of a position with the same rules); `self` is unchanged.
    fn place_into(&self, p: usize, out: &mut FastPosition) -> Result<(), Refusal> {
        let turn = self.turn();
        let mover = colour_code(turn.player);
        if self.cells[p & MASK] != EMPTY {
            return Err(Refusal::Occupied);
        }
        if turn.kind == Kind::Flower {
            if let Some(f) = flower_forbidden_reason(&self.an, &self.rules, p, turn.player) {
                return Err(Refusal::from(f));
            }
        } else if self.choices.capture_timing == CaptureTiming::HolographicFirst
            && self.choices.suicide == Suicide::Forbidden
            && self.local(p, mover) == (false, false)
            && (self.choices.suicide_timing == SuicideTiming::FirstRound
                || !self.any_flower
                || self.choices.attribute == AttributeRule::AlwaysNeutral)
        {
            // The cascade's first round sees the upper layer as it stands plus the stone: the
            // stone captures nothing there and has no liberty. Under `suicide-timing:
            // first-round` that is a suicide before any attribute is recomputed; under the
            // default `fixpoint` (D10) it is final only when no attribute can change (no flower
            // on the board, or every flower neutral by rule); otherwise the cascade decides
            // (GO-SUICIDE in `crate::game::play::cascade`).
            return Err(Refusal::Suicide);
        }
        let holographic_first = self.choices.capture_timing == CaptureTiming::HolographicFirst;
        let stone = if turn.kind == Kind::Flower {
            FLOWER
        } else {
            mover
        };
        let mut captured = false;
        let held = if holographic_first && self.choices.suicide == Suicide::Forbidden {
            // The first rounds under holographic-first, done directly: they see the upper layer
            // as it stands plus the new stone. A flower there is neutral and, not being on a
            // capture point, takes no string's last liberty; a black/white stone removes the
            // opponent strings whose last liberty it takes (attributed flowers with them) and
            // then has a liberty, or (`suicide-timing: fixpoint`, D10) has none and waits for
            // the recomputed attributes (a first-round suicide was refused above). Nothing else
            // changes, so the cascade goes on with recomputed attributes.
            if turn.kind == Kind::Own && self.local(p, mover).1 {
                out.cells = self.plain_capture_result(p, mover);
                captured = true;
            } else {
                out.cells = self.cells;
                out.cells[p & MASK] = stone;
            }
            None
        } else {
            out.cells = self.cells;
            out.cells[p & MASK] = stone;
            holographic_first.then_some(&self.an)
        };
        captured |= out.cascade(mover, held)?;
        // M20-FORBID-CAPTURE, register D9: a flower whose cascade removes stones is refused.
        if turn.kind == Kind::Flower
            && self.choices.flower_capture_check == FlowerCaptureCheck::Cascade
            && captured
        {
            return Err(Refusal::CapturePoint);
        }
        if self.choices.ko == Ko::Simple && self.last.as_ref() == Some(&out.cells) {
            return Err(Refusal::Ko);
        }
        out.last = Some(self.cells);
        out.move_number = self.move_number + 1;
        out.trailing_passes = 0;
        Ok(())
    }

    /// GO-CASCADE on the fast path (reference: `crate::game::play::cascade`); returns whether any
    /// stone was removed. `held`: the analysis before the move, whose attributes the first
    /// rounds use under `capture-timing: holographic-first`.
    fn cascade(&mut self, mover: u8, mut held: Option<&FastAnalysis>) -> Result<bool, Refusal> {
        let mut captured = false;
        loop {
            match held {
                Some(h) => self.an.run_held(&self.cells, h),
                None => self.refresh(),
            }
            let an = &self.an;
            let victim = opp(mover);
            let mut remove = None;
            if (0..an.upper_count).any(|s| an.upper_colour[s] == victim && an.upper_libs[s] == 0) {
                remove = Some(victim);
            } else if (0..an.upper_count)
                .any(|s| an.upper_colour[s] == mover && an.upper_libs[s] == 0)
            {
                if held.is_some() && self.choices.suicide_timing == SuicideTiming::Fixpoint {
                    // D10: the mover's strings are judged when the cascade ends.
                    held = None;
                    continue;
                }
                if self.choices.suicide == Suicide::Forbidden {
                    return Err(Refusal::Suicide);
                }
                remove = Some(mover);
            }
            let Some(colour) = remove else {
                if held.take().is_some() {
                    continue;
                }
                return Ok(captured);
            };
            for p in self.geom.points() {
                let s = an.upper_of[p & MASK];
                if s != NONE
                    && an.upper_colour[s as usize] == colour
                    && an.upper_libs[s as usize] == 0
                {
                    self.cells[p & MASK] = EMPTY;
                }
            }
            captured = true;
        }
    }

    fn pass_into(&self, out: &mut FastPosition) {
        out.cells = self.cells;
        out.last = Some(self.cells);
        out.move_number = self.move_number + 1;
        out.trailing_passes = self.trailing_passes + 1;
        out.any_flower = self.any_flower;
        out.an.clone_from(&self.an);
    }

    /// Whether placing at padded point `p` is legal; `scratch` is a clone used as the buffer.
    fn is_legal_padded(&self, p: usize, scratch: &mut FastPosition) -> bool {
        if self.cells[p & MASK] != EMPTY {
            return false;
        }
        let turn = self.turn();
        let plain = !self.any_flower || self.choices.attribute == AttributeRule::AlwaysNeutral;
        if plain && turn.kind == Kind::Own {
            if let Some(ok) = self.quick_stone_legal(p, colour_code(turn.player)) {
                return ok;
            }
        }
        self.place_into(p, scratch).is_ok()
    }

    /// Plays a move (as `Position::play`, without the report); `self` is unchanged.
    pub fn play(&self, action: Action) -> Result<FastPosition, Refusal> {
        if self.game_over() {
            return Err(Refusal::GameOver);
        }
        let mut out = self.clone();
        match action {
            Action::Pass => self.pass_into(&mut out),
            Action::Place(pt) => {
                if !pt.on_board(self.geom.size) {
                    return Err(Refusal::OffBoard);
                }
                let i = self.board_index(pt);
                self.place_into(self.geom.pad(i), &mut out)?;
            }
        }
        Ok(out)
    }

    fn board_index(&self, pt: crate::board::coord::Point) -> usize {
        let h = crate::board::coord::half(self.geom.size);
        ((h - pt.y) as usize) * self.geom.size + (pt.x + h) as usize
    }

    fn point(&self, p: usize) -> crate::board::coord::Point {
        let i = self.geom.unpad(p);
        let h = crate::board::coord::half(self.geom.size);
        crate::board::coord::Point::new(
            (i % self.geom.size) as i32 - h,
            h - (i / self.geom.size) as i32,
        )
    }

    /// Every legal move of the side to move (passes included), in board order, as
    /// `Position::legal_moves`.
    pub fn legal_moves(&self) -> Vec<Action> {
        if self.game_over() {
            return Vec::new();
        }
        let mut scratch = self.clone();
        let mut out: Vec<Action> = self
            .geom
            .points()
            .filter(|&p| self.is_legal_padded(p, &mut scratch))
            .map(|p| Action::Place(self.point(p)))
            .collect();
        out.push(Action::Pass);
        out
    }

    /// Perft: the number of move sequences of length `depth` from this position (every legal
    /// move, passes included, as `Position::legal_moves` lists them); the reference is
    /// `crate::tools::perft::perft_reference`. `None` under the emergency conversion, whose
    /// special moves perft counts and this engine does not generate.
    pub fn perft(&self, depth: u32) -> Option<u64> {
        if self.rules.emergency_conversion {
            return None;
        }
        // One buffer per level, cloned only when first needed (a depth-1 perft of a plain
        // position decides every move locally and needs none).
        let mut bufs: Vec<Option<FastPosition>> = (0..depth).map(|_| None).collect();
        Some(perft_rec(self, depth, &mut bufs))
    }
}

fn perft_rec(pos: &FastPosition, depth: u32, bufs: &mut [Option<FastPosition>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.game_over() {
        return 0;
    }
    let Some((slot, rest)) = bufs.split_first_mut() else {
        return 0;
    };
    let mut n = 0;
    if depth == 1 {
        let turn = pos.turn();
        let quick = turn.kind == Kind::Own
            && (!pos.any_flower || pos.choices.attribute == AttributeRule::AlwaysNeutral);
        let mover = colour_code(turn.player);
        for p in pos.geom.points() {
            if pos.cells[p & MASK] != EMPTY {
                continue;
            }
            let legal = match quick.then(|| pos.quick_stone_legal(p, mover)).flatten() {
                Some(ok) => ok,
                None => pos
                    .place_into(p, slot.get_or_insert_with(|| pos.clone()))
                    .is_ok(),
            };
            n += u64::from(legal);
        }
        return n + 1;
    }
    for p in pos.geom.points() {
        if pos.cells[p & MASK] != EMPTY {
            continue;
        }
        let child = slot.get_or_insert_with(|| pos.clone());
        if pos.place_into(p, child).is_ok() {
            n += perft_rec(child, depth - 1, rest);
        }
    }
    let child = slot.get_or_insert_with(|| pos.clone());
    pos.pass_into(child);
    n + perft_rec(child, depth - 1, rest)
}

use crate::game::order::SplitMix64;

/// The random-game policy, shared by both paths: empty points are tried in random order; a
/// black/white stone is not put into a one-liberty eye of its own colour (upper layer, as
/// M20-FORBID-EYE sees it) — the usual playout rule that lets random games end; the first move
/// the rules accept is played, else a pass. `try_point(i)` applies the eye test and the rules to
/// reference index `i`.
pub fn random_move(
    rng: &mut SplitMix64,
    empty: &mut Vec<usize>,
    mut try_point: impl FnMut(usize) -> bool,
) -> Option<usize> {
    while !empty.is_empty() {
        let k = rng.below(empty.len());
        let i = empty.swap_remove(k);
        if try_point(i) {
            return Some(i);
        }
    }
    None
}

/// A complete random game on the fast path from `start`: at most `max_moves` moves, or until the
/// game is over. Returns the final position and the number of moves played.
pub fn random_game_fast(start: &FastPosition, seed: u64, max_moves: u32) -> (FastPosition, u32) {
    let mut rng = SplitMix64(seed);
    let mut pos = start.clone();
    let mut next = start.clone();
    let mut empty = Vec::with_capacity(MAXS);
    let mut played = 0;
    while played < max_moves && !pos.game_over() {
        empty.clear();
        empty.extend(
            pos.geom
                .points()
                .filter(|&p| pos.cells[p & MASK] == EMPTY)
                .map(|p| pos.geom.unpad(p)),
        );
        let turn = pos.turn();
        let chosen = random_move(&mut rng, &mut empty, |i| {
            let p = pos.geom.pad(i);
            if turn.kind == Kind::Own && is_one_liberty_eye(&pos.an, p) == Some(turn.player) {
                return false;
            }
            pos.place_into(p, &mut next).is_ok()
        });
        if chosen.is_none() {
            pos.pass_into(&mut next);
        }
        std::mem::swap(&mut pos, &mut next);
        played += 1;
    }
    (pos, played)
}
