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
use crate::judge::forbidden::UpperView;
#[cfg(any(test, feature = "testing"))]
use crate::judge::forbidden::{flower_forbidden_reason, Forbidden};
use crate::judge::freeze::FrozenString;
use std::sync::Arc;

/// The reference lower layer with its strings and the 2016 verdicts of every region (built once
/// per analysis when a 2016 region needs the opponent conditions).
type Judged2016 = (Layer, Strings, Vec<Vec<(Region, Verdict2016)>>);

/// The most contacts a board has: each is recorded from a stone's side, at most four a stone.
const EDGES: usize = 4 * MAXS;

/// What the one flood of [`FastAnalysis::flood_parts`] finds: the nodes (the atoms, then the
/// lower strings) with their points, and the contacts of the strings.
struct Parts {
    /// The number of atoms; string `s` is node `atoms + s`.
    atoms: usize,
    /// The points of node `x`: `points[start[x]..start[x + 1]]`.
    points: [u16; MAXN],
    start: [u16; MAXN],
    /// (string, node): the string touches the atom or the string of the other colour.
    edges: Vec<(u16, u16)>,
}

impl Parts {
    fn new() -> Parts {
        Parts {
            atoms: 0,
            points: [0; MAXN],
            start: [0; MAXN],
            edges: Vec::with_capacity(EDGES),
        }
    }
}

/// The root of node `x` in the union-find forest `parent` (paths halved on the way).
fn find(parent: &mut [u16; MAXN], mut x: u16) -> u16 {
    while parent[x as usize & MASK] != x {
        let up = parent[parent[x as usize & MASK] as usize & MASK];
        parent[x as usize & MASK] = up;
        x = up;
    }
    x
}

/// Joins the trees of nodes `x` and `y` (the smaller root under the larger's).
fn union(parent: &mut [u16; MAXN], x: u16, y: u16) {
    let (a, b) = (find(parent, x), find(parent, y));
    if a != b {
        parent[a.min(b) as usize & MASK] = a.max(b);
    }
}

/// The words of a bit set of the padded points.
#[cfg(any(test, feature = "testing"))]
const WORDS: usize = MAXN / 64;

/// Word `i` of the bit set `x` with every point moved by `k` points, towards higher points
/// (`up`: bit `p` is bit `p - k` of `x`) or lower (bit `p` is bit `p + k`); `k` is below 64.
#[cfg(any(test, feature = "testing"))]
fn shifted(x: &[u64; WORDS], i: usize, k: usize, up: bool) -> u64 {
    let get = |j: usize| x.get(j).copied().unwrap_or(0);
    let k = k as u32;
    if up {
        let low = if i == 0 { 0 } else { get(i - 1) >> (64 - k) };
        get(i) << k | low
    } else {
        get(i) >> k | get(i + 1) << (64 - k)
    }
}

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
            self.lower_strings_and_eyes(cells);
        } else {
            self.eyes_done = false;
            self.lower_count = 0;
        }
        self.attributes(cells, attribute, any_flower);
        self.upper_layer(cells);
    }

    /// Floods the component of `start` over points whose value satisfies `member`, writing `id`
    /// into `map` (a point already `id` is not visited again, so a map of old numbers is
    /// renumbered too); returns the number of points (they are `stack[..n]`).
    pub(super) fn flood_into(
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
                if map[m & MASK] != id && member(cells[m & MASK]) {
                    map[m & MASK] = id;
                    stack[n & MASK] = m as u16;
                    n += 1;
                }
            }
        }
        n
    }

    /// The lower strings and the private eyes of every lower string, by the clause functions
    /// of [`crate::judge::eyes`] (2020) or [`crate::judge::eyes2016`] (2016) called on the fast
    /// board (a [`LowerView`]); only the enumeration of the regions differs from the reference,
    /// which floods each string's closed regions: here the components of S_c (the points that
    /// are not stones of colour c: empty points and opponent stones, and under the 2016 rule
    /// also flowers) decide every string's regions, for the reasons the module documentation
    /// gives. One flood of the board serves both colours: it labels the lower strings and the
    /// atoms (the components of the empty points, 2016: of the empty points and flowers) and
    /// records which atoms and opposite strings each string touches; a component of S_c is then
    /// a component of the graph of the atoms and the strings of the opponent of c joined by
    /// those contacts (`notes/fast-engine.md`, "One flood for both colours").
    fn lower_strings_and_eyes(&mut self, cells: &[u8; MAXN]) {
        let m2016 = self.eye == EyeRule::M2016;
        let mut parts = Parts::new();
        self.flood_parts(cells, m2016, &mut parts);
        self.has_eye[..self.lower_count].fill(false);
        let same_colour = !m2016 && self.closed_region == ClosedRegion::SameColour;
        // The reference lower layer with the 2016 verdicts of every region, built once if a
        // 2016 region needs the opponent conditions.
        let mut reference: Option<Option<Judged2016>> = None;
        let mut judged = [0u32; MAXS];
        let mut component = 0u32;
        let nodes = parts.atoms + self.lower_count;
        let mut stack = [0u16; MAXN];
        let mut parent = [0u16; MAXN];
        let (mut first, mut multi) = ([NONE; MAXN], [false; MAXN]);
        let (mut head, mut next) = ([NONE; MAXN], [NONE; MAXN]);
        for c in [BLACK, WHITE] {
            let colour = colour_of(c);
            // The components of S_c: the atoms joined through the strings of the opponent.
            for (x, p) in parent[..nodes].iter_mut().enumerate() {
                *p = x as u16;
            }
            for &(s, x) in &parts.edges {
                if self.lower_colour[s as usize] != c && (x as usize) < parts.atoms {
                    union(&mut parent, parts.atoms as u16 + s, x);
                }
            }
            // Every node straight under its root: a parent is above its child (`union`), so
            // from the top down each parent already is.
            for x in (0..nodes).rev() {
                parent[x] = parent[parent[x] as usize & MASK];
            }
            // The strings of colour c around each component: the first (with a stone) and
            // whether there is another.
            first[..nodes].fill(NONE);
            multi[..nodes].fill(false);
            for &(s, x) in &parts.edges {
                let (own, other) = if self.lower_colour[s as usize] == c {
                    (s, x)
                } else if (x as usize) >= parts.atoms {
                    // A contact of two strings, recorded once: here the opponent string is `s`.
                    (x - parts.atoms as u16, parts.atoms as u16 + s)
                } else {
                    continue;
                };
                let r = parent[other as usize & MASK] as usize & MASK;
                if first[r] == NONE {
                    first[r] = own;
                } else if first[r] != own {
                    multi[r] = true;
                }
            }
            // The nodes of each judged component, linked from its root (`head`, `next`).
            head[..nodes].fill(NONE);
            for x in 0..nodes {
                let r = parent[x] as usize & MASK;
                let in_sc = x < parts.atoms || self.lower_colour[(x - parts.atoms) % MAXS] != c;
                if in_sc && first[r] != NONE && (!multi[r] || same_colour) {
                    next[x] = head[r];
                    head[r] = x as u16;
                }
            }
            for r in 0..nodes {
                if head[r] == NONE {
                    continue;
                }
                // The component's points into `stack`.
                let mut n = 0usize;
                let mut x = head[r];
                while x != NONE {
                    let x0 = x as usize & MASK;
                    let range = parts.start[x0] as usize..parts.start[(x0 + 1) & MASK] as usize;
                    for &q in &parts.points[range] {
                        stack[n & MASK] = q;
                        n += 1;
                    }
                    x = next[x0];
                }
                let own = first[r];
                let points = &stack[..n & MASK];
                if same_colour {
                    self.judge_shared_component(cells, c, points, &mut judged, &mut component);
                } else if !m2016 {
                    let view = FastLower {
                        cells,
                        lower_of: &self.lower_of,
                        dirs: &self.dirs,
                    };
                    let region = points.iter().map(|&q| q as usize);
                    if verdict(&view, own as usize, colour, region) == RegionVerdict::PrivateEye {
                        self.has_eye[own as usize] = true;
                    }
                } else {
                    let own_at = parts.points[parts.start[parts.atoms + own as usize] as usize];
                    let at = (own, own_at as usize);
                    let eye = self.eye_2016(cells, c, points, at, &mut reference);
                    self.has_eye[own as usize] |= eye;
                }
            }
        }
        self.eyes_done = true;
    }

    /// The one flood of the board behind [`FastAnalysis::lower_strings_and_eyes`]: the atoms
    /// (the components of the empty points, and under 2016 of the flowers with them) numbered
    /// from 0, then the lower strings (into `lower_of`, numbered from 0, node `atoms + s`), the
    /// points of each node in `parts.points`, and each contact of a string with an atom or
    /// with a string of the other colour, once (a contact of two strings by the one flooded
    /// second).
    fn flood_parts(&mut self, cells: &[u8; MAXN], m2016: bool, parts: &mut Parts) {
        let geom = self.geom;
        let dirs = self.dirs;
        self.lower_of.fill(NONE);
        let mut atom_of = [NONE; MAXN];
        let is_atom = |v: u8| v == EMPTY || (m2016 && v == FLOWER);
        let mut n = 0usize;
        let mut node = 0usize;
        for p in geom.points() {
            if !is_atom(cells[p & MASK]) || atom_of[p & MASK] != NONE {
                continue;
            }
            parts.start[node & MASK] = n as u16;
            atom_of[p & MASK] = node as u16;
            parts.points[n & MASK] = p as u16;
            let mut k = n;
            n += 1;
            while k < n {
                let q = parts.points[k & MASK] as usize;
                k += 1;
                for &d in &dirs {
                    let m = q.wrapping_add(d);
                    if atom_of[m & MASK] == NONE && is_atom(cells[m & MASK]) {
                        atom_of[m & MASK] = node as u16;
                        parts.points[n & MASK] = m as u16;
                        n += 1;
                    }
                }
            }
            node += 1;
        }
        parts.atoms = node;
        // `seen[x]` = 1 + the string that last recorded a contact with node `x`.
        let mut seen = [0u16; MAXN];
        let mut count = 0usize;
        for p in geom.points() {
            let v = cells[p & MASK];
            if !(v == BLACK || v == WHITE) || self.lower_of[p & MASK] != NONE {
                continue;
            }
            let id = count as u16;
            let tag = id + 1;
            let o = opp(v);
            parts.start[node & MASK] = n as u16;
            self.lower_of[p & MASK] = id;
            parts.points[n & MASK] = p as u16;
            let mut k = n;
            n += 1;
            while k < n {
                let q = parts.points[k & MASK] as usize;
                k += 1;
                for &d in &dirs {
                    let m = q.wrapping_add(d) & MASK;
                    let u = cells[m];
                    let x = if u == v {
                        if self.lower_of[m] == NONE {
                            self.lower_of[m] = id;
                            parts.points[n & MASK] = m as u16;
                            n += 1;
                        }
                        continue;
                    } else if u == o {
                        match self.lower_of[m] {
                            NONE => continue,
                            t => parts.atoms + t as usize,
                        }
                    } else {
                        match atom_of[m] {
                            NONE => continue,
                            a => a as usize,
                        }
                    };
                    if seen[x & MASK] != tag {
                        seen[x & MASK] = tag;
                        parts.edges.push((id, x as u16));
                    }
                }
            }
            self.lower_colour[count % MAXS] = v;
            count += 1;
            node += 1;
        }
        parts.start[node & MASK] = n as u16;
        self.lower_count = count;
    }

    /// Under `closed-region: same-colour` the component `points` is a closed region
    /// of every string of colour `c` around it; condition 2 does not depend on which. Each
    /// string around it is judged once (`judged[s]` = the number of the component that judged
    /// it, `component` counting the components that meet condition 2).
    #[inline]
    fn judge_shared_component(
        &mut self,
        cells: &[u8; MAXN],
        c: u8,
        points: &[u16],
        judged: &mut [u32; MAXS],
        component: &mut u32,
    ) {
        let colour = colour_of(c);
        let view = FastLower {
            cells,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
        };
        let region = points.iter().map(|&q| q as usize);
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

    /// Whether the component `points`, bounded by the one string `first` of colour
    /// `c` (with its stone), is a 2016 private eye of that string: conditions a and b, not the
    /// outer part under `inside`, and the opponent conditions from the reference verdicts of
    /// the same board (built once into `reference`) when an opponent stone is inside.
    #[inline]
    fn eye_2016(
        &self,
        cells: &[u8; MAXN],
        c: u8,
        points: &[u16],
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
        let region = points.iter().map(|&q| q as usize);
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
        let at = geom.unpad(points.first().copied().unwrap_or_default() as usize);
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
        let mut mark = [0u16; MAXN];
        let mut stack = [0u16; MAXN];
        let mut f = 0usize;
        for p in geom.points() {
            if cells[p & MASK] != FLOWER || self.flower_of[p & MASK] != NONE {
                continue;
            }
            let n = Self::flood_into(
                &mut stack,
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
            let stack = &stack;
            let mark = std::cell::Cell::from_mut(&mut mark[..]).as_slice_of_cells();
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
        let mut mark = [NONE; MAXN];
        let mut stack = [0u16; MAXN];
        let mut count = 0usize;
        for p in geom.points() {
            let v = self.upper[p & MASK];
            if !(v == BLACK || v == WHITE) || self.upper_of[p & MASK] != NONE {
                continue;
            }
            let id = count as u16;
            let size = Self::flood_into(
                &mut stack,
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
                let q = stack[k & MASK] as usize;
                for d in dirs {
                    let m = q.wrapping_add(d);
                    if self.upper[m & MASK] == EMPTY && mark[m & MASK] != id {
                        mark[m & MASK] = id;
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
    #[cfg(any(test, feature = "testing"))]
    pub fn has_private_eye(&self, i: usize) -> Option<bool> {
        let s = self.lower_of[self.geom.pad(i)];
        (s != NONE && self.eyes_done).then(|| self.has_eye[s as usize])
    }

    /// The attribute of the flower string through reference index `i`.
    #[cfg(any(test, feature = "testing"))]
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
    #[cfg(any(test, feature = "testing"))]
    pub fn upper_string_count(&self) -> usize {
        self.upper_colour[..self.upper_count]
            .iter()
            .filter(|&&c| c == BLACK || c == WHITE)
            .count()
    }

    /// The points closed to `player`'s flower with the reason, in board order: the clauses of
    /// `crate::judge::forbidden` (M20-FORBID-UPPER) on this analysis's upper layer.
    /// Only the points of `FastAnalysis::forbidden_candidates` are asked; the others no
    /// clause can forbid.
    #[cfg(any(test, feature = "testing"))]
    pub fn forbidden_points(&self, rules: &Rules, player: Colour) -> Vec<(usize, Forbidden)> {
        let candidates = self.forbidden_candidates();
        let count = candidates.iter().map(|w| w.count_ones() as usize).sum();
        let mut out = Vec::with_capacity(count);
        for (w, &word) in candidates.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let p = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if let Some(f) = flower_forbidden_reason(self, rules, p, player) {
                    out.push((self.geom.unpad(p), f));
                }
            }
        }
        out
    }

    /// A cheap necessary condition for [`flower_forbidden_reason`] to forbid a padded point to
    /// anyone's flower, as a bit set of the padded points (bit `p % 64` of word `p / 64`), read
    /// off the upper layer without the view: the point is empty and either has at most one
    /// empty neighbour or is next to an upper string with one liberty. The clause functions of
    /// [`crate::judge::forbidden`] justify it, each returning nothing otherwise:
    /// - `is_capture_point` (M20-FORBID-CAPTURE) asks whether a neighbouring string has one
    ///   liberty (`takes_last_liberty`);
    /// - `is_one_liberty_eye` (M20-FORBID-EYE) returns `None` at the first empty neighbour, so
    ///   it needs none;
    /// - `is_tigers_mouth` (M20-FORBID-TIGER) needs exactly one empty neighbour.
    ///
    /// So a point with two or more empty neighbours and no one-liberty string beside it is
    /// forbidden by none of them, under any rule option. Both halves are computed for the whole
    /// board at once: the empty points with two or more empty neighbours by shifting the bit set
    /// of the empty points one step each way (the frame is never empty, so a shift across a row
    /// end lands on the frame), and the empty points next to a one-liberty string are those
    /// strings' recorded liberties (`upper_lib`: an empty point next to a string is one of its
    /// liberties, so next to a one-liberty string it is the only one; the string numbers that
    /// still name a point are checked, so that a number an incremental update retired counts
    /// for nothing). The tests compare the filtered list with the
    /// reference's (`report::forbidden_points`, which asks the clause functions at every point)
    /// on random boards, bench positions, conformance positions and held analyses of long
    /// random games.
    #[cfg(any(test, feature = "testing"))]
    fn forbidden_candidates(&self) -> [u64; WORDS] {
        let n = (self.geom.w * self.geom.w).min(MAXN);
        let mut empty = [0u64; WORDS];
        // Eight cells at a time: a cell (0 to 4) is empty when its three low bits are clear;
        // bit 0 of each byte of `any` holds whether they are not, and the multiplication
        // gathers the eight flags into the top byte (bit `i` for byte `i`).
        for (k, chunk) in self.upper.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or([BORDER; 8]));
            let any = x | x >> 1 | x >> 2;
            let flags = !any & 0x0101_0101_0101_0101;
            let byte = flags.wrapping_mul(0x0102_0408_1020_4080) >> 56;
            empty[(k / 8) % WORDS] |= byte << (8 * (k % 8));
        }
        // The cells past the last padded point are no points.
        for (i, word) in empty.iter_mut().enumerate() {
            let below = n.saturating_sub(64 * i).min(64);
            *word &= if below == 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
        }
        let w = self.geom.w;
        let [a, b, c, d] = [(1, true), (1, false), (w, true), (w, false)]
            .map(|(k, up)| std::array::from_fn::<u64, WORDS, _>(|i| shifted(&empty, i, k, up)));
        let mut out = [0u64; WORDS];
        for i in 0..WORDS {
            let two = (a[i] & b[i]) | (c[i] & d[i]) | ((a[i] | b[i]) & (c[i] | d[i]));
            out[i] = empty[i] & !two;
        }
        for s in 0..self.upper_count.min(MAXS) {
            if self.upper_libs[s] != 1 {
                continue;
            }
            let p = self.upper_lib[s] as usize & MASK;
            if self.upper[p] == EMPTY
                && self
                    .dirs
                    .iter()
                    .any(|&d| self.upper_of[p.wrapping_add(d) & MASK] == s as u16)
            {
                out[(p / 64) % WORDS] |= 1 << (p % 64);
            }
        }
        out
    }

    /// Why reference index `i` is closed to `player`'s flower
    /// (`crate::judge::forbidden::flower_forbidden_reason` on this analysis).
    #[cfg(any(test, feature = "testing"))]
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
    // Row by row: the padded point of reference index `i` without a division a point.
    for r in 0..geom.size {
        for c in 0..geom.size {
            cells[((r + 1) * geom.w + c + 1) & MASK] = match board.get(r * geom.size + c) {
                None => EMPTY,
                Some(Stone::Black) => BLACK,
                Some(Stone::White) => WHITE,
                Some(Stone::Flower) => FLOWER,
            };
        }
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
