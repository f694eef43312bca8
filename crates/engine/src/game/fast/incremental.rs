//! The incremental state of [`FastAnalysis`]: after a black or white stone, the upper strings and
//! their liberties updated where the move changed them, and — where the flower attributes stay —
//! the lower strings and the private eyes of the strings the stone can change; the flower
//! attributes those can change recomputed with the clause functions, to decide that every
//! attribute stays. Why every other string, region and attribute is untouched:
//! `notes/incremental.md`. [`FastPosition::check_consistency`](super::FastPosition::check_consistency)
//! recomputes everything from scratch and compares, under `debug_assert!`, after every move.

use super::analysis::{upper_code, view_cell, view_neighbours};
use super::*;
use crate::judge::attribute::{attribute_under, counts, stone_counts};
use crate::judge::eyes::{verdict, LowerView, RegionVerdict};
use smallvec::SmallVec;

/// A short list of points (the flower strings next to a string, one point each), on the stack
/// while it is short: the local decision allocates nothing in the common case.
type Points = SmallVec<[usize; 8]>;

/// Most strings besides the stone's whose private eyes [`FastAnalysis::local_change`] judges
/// again; a move that changes the regions of more is left to the whole-board analysis.
const MAX_JUDGED: usize = 8;

/// Most flower strings whose attribute changes that [`Local`] lists; past that the recomputed
/// round is left to the whole-board analysis.
const MAX_FLIPPED: usize = 8;

/// A flower string whose attribute a move changes: its number in the analysis before the move
/// ([`NONE`] for the string a placed flower makes), one of its points, its upper-layer code
/// after the move ([`upper_code`]) and its attribute after the move.
type Flip = (u16, u16, u8, crate::board::layers::Attribute);

/// No [`Flip`] (the unused entries of [`Local::flipped`]).
const NO_FLIP: Flip = (NONE, 0, 0, crate::board::layers::Attribute::Neutral);

/// What a black or white stone at `p` changes in the lower layer, with the opponent strings
/// next to it that its fresh round removed (if any): the strings joined into the stone's string
/// `j`, the private eyes of `j` and of the other strings whose regions the stone or the removal
/// changes, and whether every flower attribute stays as it is. For a flower at `p`
/// (`new_flower`): the private eyes of the strings whose regions it splits, the new flower
/// string's attribute, the lower strings it touches, and whether the upper layer changes at `p`
/// alone (the flower neutral there, as held, every other attribute staying).
#[derive(Clone, Copy, Debug)]
pub(super) struct Local {
    pub(super) p: usize,
    pub(super) j: u16,
    merged: [u16; 4],
    merged_count: usize,
    eye_j: bool,
    /// The other strings judged again, with their private eyes after the move: the string of
    /// the stone's colour that alone bounded the component of S_c through `p` (when the stone
    /// joins no string), and the opponent strings that alone bound a component of S_o through
    /// `p` or next to a removed point, before or after the move.
    judged: [(u16, bool); MAX_JUDGED],
    judged_count: usize,
    /// Whether the stone's string touches a flower.
    pub(super) j_by_flower: bool,
    /// Whether every flower attribute stays.
    pub(super) stays: bool,
    /// The flower strings whose attribute changes (their numbers in the analysis before the
    /// move, one point of each) with their upper-layer code after it ([`upper_code`]), where
    /// `flips_known`.
    flipped: [Flip; MAX_FLIPPED],
    flipped_count: usize,
    /// Whether `flipped` lists every flower string whose attribute changes (at most
    /// [`MAX_FLIPPED`]).
    pub(super) flips_known: bool,
    /// For a flower: the attribute of the flower string through `p` (the flower and the flower
    /// strings next to it, numbered anew).
    new_flower: Option<crate::board::layers::Attribute>,
    /// For a flower: the lower strings next to `p`, which now touch a flower.
    touched: [u16; 4],
    touched_count: usize,
}

impl Local {
    /// The lower strings whose per-string entries [`FastAnalysis::apply_local`] writes besides
    /// those of the points it renumbers: the stone's string, the joined strings and the strings
    /// whose private eyes were judged again.
    pub(super) fn strings(&self) -> impl Iterator<Item = u16> + '_ {
        std::iter::once(self.j)
            .filter(|&j| j != NONE)
            .chain(self.merged[..self.merged_count].iter().copied())
            .chain(self.judged[..self.judged_count].iter().map(|&(s, _)| s))
            .chain(self.touched[..self.touched_count].iter().copied())
    }

    /// For a flower: the lower strings next to it.
    pub(super) fn touched(&self) -> &[u16] {
        &self.touched[..self.touched_count]
    }

    /// Whether this is a flower's change.
    pub(super) fn is_flower(&self) -> bool {
        self.new_flower.is_some()
    }
}

/// What [`FastAnalysis::local_removal`] decided of a removal: the strings whose private eyes
/// were judged again, with their eyes after it, and the flower strings whose attribute changes.
pub(super) struct Removal {
    judged: [(u16, bool); MAX_JUDGED],
    judged_count: usize,
    flipped: [Flip; MAX_FLIPPED],
    flipped_count: usize,
}

/// The lower layer after a black or white stone at `p` (nothing removed) as the private-eye
/// clauses read it: the fast board's lower strings, the strings `merged` and `p` read as one
/// string `j`.
struct AfterLower<'a> {
    cells: &'a [u8; MAXN],
    lower_of: &'a [u16; MAXN],
    dirs: &'a [usize; 4],
    p: usize,
    merged: &'a [u16],
    j: u16,
}

impl AfterLower<'_> {
    #[inline]
    fn id(&self, q: usize) -> u16 {
        let v = self.cells[q & MASK];
        if v != BLACK && v != WHITE {
            return NONE;
        }
        if q & MASK == self.p & MASK {
            return self.j;
        }
        let s = self.lower_of[q & MASK];
        if self.merged.contains(&s) {
            self.j
        } else {
            s
        }
    }

    /// The stones of string `s` through `start`, into `out`; their number.
    fn stones(&self, s: u16, start: usize, seen: &mut Marks<'_>, out: &mut [u16; MAXN]) -> usize {
        seen.set(start, STONE);
        out[0] = start as u16;
        let (mut n, mut k) = (1usize, 0usize);
        let c = self.cells[start & MASK];
        while k < n {
            let q = out[k & MASK] as usize;
            k += 1;
            for &d in self.dirs {
                let m = q.wrapping_add(d) & MASK;
                if seen.get(m) == 0 && self.cells[m] == c && self.id(m) == s {
                    seen.set(m, STONE);
                    out[n & MASK] = m as u16;
                    n += 1;
                }
            }
        }
        n
    }

    /// Whether string `s` (through `start`) has a private eye on this board: a component of
    /// S_c (c its colour; empty points and opponent stones, flowers are walls under the 2020
    /// rule) next to it that no other string of colour c bounds and that passes the clause
    /// functions' [`verdict`]. Also returns the flower strings next to `s`, as one point each
    /// (`None` when there are more than `flowers` holds).
    fn has_eye(&self, s: u16, start: usize, flowers: &mut Points, flower_of: &[u16; MAXN]) -> bool {
        let c = self.cells[start & MASK];
        let o = opp(c);
        let colour = if c == BLACK {
            Colour::Black
        } else {
            Colour::White
        };
        SCRATCH.with_borrow_mut(|sc| {
            let (mut seen, stones, region) = sc.parts();
            let n = self.stones(s, start, &mut seen, stones);
            let mut eye = false;
            for &q in &stones[..n & MASK] {
                for &d in self.dirs {
                    let m = (q as usize).wrapping_add(d) & MASK;
                    let u = self.cells[m];
                    if u == FLOWER {
                        let f = flower_of[m];
                        if !flowers.iter().any(|&x| flower_of[x & MASK] == f) {
                            flowers.push(m);
                        }
                        continue;
                    }
                    if eye || seen.get(m) != 0 || (u != EMPTY && u != o) {
                        continue;
                    }
                    // The component of S_c through m; abandoned (ABORTED) at a second string of
                    // colour c or at a point of a component abandoned before (the same component).
                    seen.set(m, OPEN);
                    region[0] = m as u16;
                    let (mut r, mut t) = (1usize, 0usize);
                    let mut aborted = false;
                    'flood: while t < r {
                        let x = region[t & MASK] as usize;
                        t += 1;
                        for &d2 in self.dirs {
                            let y = x.wrapping_add(d2) & MASK;
                            let w = self.cells[y];
                            if w == c {
                                if self.id(y) != s {
                                    aborted = true;
                                    break 'flood;
                                }
                            } else if w == EMPTY || w == o {
                                match seen.get(y) {
                                    0 => {
                                        seen.set(y, OPEN);
                                        region[r & MASK] = y as u16;
                                        r += 1;
                                    }
                                    ABORTED => {
                                        aborted = true;
                                        break 'flood;
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                    let mark = if aborted { ABORTED } else { DONE };
                    for &x in &region[..r & MASK] {
                        seen.set(x as usize, mark);
                    }
                    if !aborted {
                        let points = region[..r & MASK].iter().map(|&x| x as usize);
                        if verdict(self, s as usize, colour, points) == RegionVerdict::PrivateEye {
                            eye = true;
                        }
                    }
                }
            }
            eye
        })
    }
}

/// The marks of one flood over the per-thread [`Scratch`]: a point's state is its stamp above
/// the flood's base (0, unvisited, for a stamp of an earlier flood).
struct Marks<'a> {
    stamp: &'a mut [u32; MAXN],
    base: u32,
}

impl Marks<'_> {
    #[inline]
    fn get(&self, p: usize) -> u8 {
        let v = self.stamp[p & MASK];
        if v > self.base {
            (v - self.base) as u8
        } else {
            0
        }
    }
    #[inline]
    fn set(&mut self, p: usize, state: u8) {
        self.stamp[p & MASK] = self.base + u32::from(state);
    }
}

/// The arrays of the local decision's floods, kept per thread so that no flood zeroes them:
/// each flood takes a new base for its marks (generation stamps; the stamps are zeroed only
/// when the base wraps), and two stacks.
struct Scratch {
    stamp: [u32; MAXN],
    base: u32,
    a: [u16; MAXN],
    b: [u16; MAXN],
    /// Per string number, stamps as `stamp` per point (with their own base): the strings
    /// [`FastAnalysis::upper_update`] queued and recounted.
    string_stamp: [u32; MAXS],
    string_base: u32,
    /// The start points of the strings [`FastAnalysis::upper_update`] recounts.
    starts: [u16; MAXN],
}

impl Scratch {
    /// The marks of a new flood (every point unvisited) and the two stacks.
    fn parts(&mut self) -> (Marks<'_>, &mut [u16; MAXN], &mut [u16; MAXN]) {
        (
            new_marks(&mut self.stamp, &mut self.base),
            &mut self.a,
            &mut self.b,
        )
    }

    /// A new base for the per-string stamps (every string unmarked).
    fn string_marks(&mut self) -> u32 {
        if self.string_base >= u32::MAX - 8 {
            self.string_stamp.fill(0);
            self.string_base = 0;
        }
        self.string_base += 8;
        self.string_base
    }
}

/// New marks over `stamp`: the base moved past every stamp given before (the stamps zeroed
/// when it would wrap), so every point reads unvisited.
fn new_marks<'a>(stamp: &'a mut [u32; MAXN], base: &mut u32) -> Marks<'a> {
    if *base >= u32::MAX - 8 {
        stamp.fill(0);
        *base = 0;
    }
    *base += 8;
    Marks { stamp, base: *base }
}

thread_local! {
    /// The floods never nest (each runs to its end before the next begins), so one per thread.
    static SCRATCH: std::cell::RefCell<Scratch> = const {
        std::cell::RefCell::new(Scratch {
            stamp: [0; MAXN],
            base: 0,
            a: [0; MAXN],
            b: [0; MAXN],
            string_stamp: [0; MAXS],
            string_base: 0,
            starts: [0; MAXN],
        })
    };
}

// The states of a point in [`AfterLower::has_eye`]'s floods.
const STONE: u8 = 1;
const OPEN: u8 = 2;
const ABORTED: u8 = 3;
const DONE: u8 = 4;

impl LowerView for AfterLower<'_> {
    fn cell(&self, p: usize) -> crate::board::layers::Cell {
        view_cell(self.cells[p & MASK])
    }
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        view_neighbours(self.dirs, self.cells, p)
    }
    fn string_of(&self, p: usize) -> Option<usize> {
        match self.id(p) {
            NONE => None,
            s => Some(s as usize),
        }
    }
}

impl FastAnalysis {
    /// Makes this analysis a copy of `src` (an analysis of a board of the same size) as far
    /// as anything reads it, cheaper than `clone_from`: the per-point arrays up to the last
    /// padded point (`w * w`; every point and neighbour read is below it), the per-string
    /// arrays up to their counts (a number at or above a count is read only after it is
    /// written: a new string is numbered by the count), the lower layer only where `src`
    /// computed it (`eyes_done`; else nothing reads it). A board of another size is cloned whole.
    pub(super) fn copy_from(&mut self, src: &FastAnalysis) {
        if self.geom != src.geom {
            self.clone_from(src);
            return;
        }
        // Every field named, so that a new field is not forgotten here.
        let FastAnalysis {
            geom,
            dirs,
            eye,
            closed_region,
            closed_region_2016,
            lower_of,
            lower_colour,
            has_eye,
            eyes_done,
            lower_count,
            flower_of,
            flower_attr,
            flower_count,
            upper,
            upper_of,
            upper_colour,
            upper_libs,
            upper_lib,
            upper_count,
            frozen,
        } = src;
        self.frozen.clone_from(frozen);
        let n = (geom.w * geom.w).min(MAXN);
        self.dirs = *dirs;
        self.eye = *eye;
        self.closed_region = *closed_region;
        self.closed_region_2016 = *closed_region_2016;
        self.eyes_done = *eyes_done;
        self.lower_count = *lower_count;
        if *eyes_done {
            let l = (*lower_count).min(MAXS);
            self.lower_of[..n].copy_from_slice(&lower_of[..n]);
            self.lower_colour[..l].copy_from_slice(&lower_colour[..l]);
            self.has_eye[..l].copy_from_slice(&has_eye[..l]);
        }
        let f = (*flower_count).min(MAXS);
        self.flower_count = *flower_count;
        self.flower_of[..n].copy_from_slice(&flower_of[..n]);
        self.flower_attr[..f].copy_from_slice(&flower_attr[..f]);
        let u = (*upper_count).min(MAXS);
        self.upper_count = *upper_count;
        self.upper[..n].copy_from_slice(&upper[..n]);
        self.upper_of[..n].copy_from_slice(&upper_of[..n]);
        self.upper_colour[..u].copy_from_slice(&upper_colour[..u]);
        self.upper_libs[..u].copy_from_slice(&upper_libs[..u]);
        self.upper_lib[..u].copy_from_slice(&upper_lib[..u]);
    }

    /// The one string of colour `x` that bounds the component of S_x (the points that are
    /// neither x-stones nor flowers) through `p` on `cells`, with one of its stones: `None` when
    /// no string or two or more bound it (the flood stops at the second).
    fn sole_bound(&self, cells: &[u8; MAXN], p: usize, x: u8) -> Option<(u16, usize)> {
        SCRATCH.with_borrow_mut(|sc| {
            let (mut seen, stack, _) = sc.parts();
            seen.set(p, OPEN);
            stack[0] = p as u16;
            let (mut n, mut k) = (1usize, 0usize);
            let mut bound: Option<(u16, usize)> = None;
            while k < n {
                let q = stack[k & MASK] as usize;
                k += 1;
                for &d in &self.dirs {
                    let m = q.wrapping_add(d) & MASK;
                    let v = cells[m];
                    if v == x {
                        let s = self.lower_of[m];
                        match bound {
                            None => bound = Some((s, m)),
                            Some((b, _)) if b != s => return None,
                            _ => {}
                        }
                    } else if v != BORDER && v != FLOWER && seen.get(m) == 0 {
                        seen.set(m, OPEN);
                        stack[n & MASK] = m as u16;
                        n += 1;
                    }
                }
            }
            bound
        })
    }

    /// What a black or white `stone` at the empty point `p` changes, nothing removed yet
    /// (`before`: the board this analysis is of; `after`: the same with the stone), under the
    /// 2020 private eye with single-string regions and the 2020 or 2016 attribute rule (the
    /// caller checks the rules; `None` where this is not decided locally). The strings whose
    /// private eyes can change are the stone's string, the string that alone bounded the
    /// component of S_c through `p` and the one that alone bounds the component of S_o through
    /// it (notes/incremental.md); the flower strings whose counts can change are those next to
    /// the stone's string and next to a string whose private eye changed, and each is decided
    /// again by [`attribute_under`] on its counts.
    pub(super) fn local_change(
        &self,
        before: &[u8; MAXN],
        after: &[u8; MAXN],
        p: usize,
        stone: u8,
        rule: AttributeRule,
        removed: &[u16],
    ) -> Option<Local> {
        if !self.eyes_done || self.lower_count + 1 >= MAXS {
            return None;
        }
        if stone == FLOWER && removed.is_empty() {
            return self.local_flower(before, after, p, rule);
        }
        if stone != BLACK && stone != WHITE {
            return None;
        }
        let c = stone;
        let (merged, k) = self.joined_strings(before, p, c)?;
        let j = self.lower_count as u16;
        let view = AfterLower {
            cells: after,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
            p,
            merged: &merged[..k],
            j,
        };
        let (bounds, nb) = self.bounds_to_judge(before, after, p, c, k == 0, removed)?;
        let mut flowers = Points::new();
        let eye_j = view.has_eye(j, p, &mut flowers, &self.flower_of);
        let j_by_flower = !flowers.is_empty();
        let judged = self.judge_bounds(&view, before, &bounds[..nb], removed, &mut flowers);
        let judged_count = nb;
        let eye_of = |s: u16| -> bool {
            if s == j {
                return eye_j;
            }
            for &(b, e) in &judged[..judged_count] {
                if b == s {
                    return e;
                }
            }
            self.has_eye[s as usize]
        };
        // Every candidate is decided (not only up to the first change): the recomputed round of
        // a move that changes attributes is read off the flipped strings
        // ([`FastAnalysis::without_liberty_after`]).
        let mut flipped = [NO_FLIP; MAX_FLIPPED];
        let (mut flipped_count, mut flips_known) = (0usize, true);
        for &f in &flowers {
            let a = self.flower_attribute_after(&view, f, rule, &eye_of);
            let g = self.flower_of[f & MASK];
            if a != self.flower_attr[g as usize] {
                if flipped_count == MAX_FLIPPED {
                    flips_known = false;
                    break;
                }
                flipped[flipped_count] = (g, f as u16, upper_code(a), a);
                flipped_count += 1;
            }
        }
        let stays = flips_known && flipped_count == 0;
        Some(Local {
            p,
            j,
            merged,
            merged_count: k,
            eye_j,
            judged,
            judged_count,
            j_by_flower,
            stays,
            flipped,
            flipped_count,
            flips_known,
            new_flower: None,
            touched: [NONE; 4],
            touched_count: 0,
        })
    }

    /// [`FastAnalysis::local_change`] of a flower at the empty point `p`, nothing removed. No
    /// lower string changes. For each colour x, S_x loses `p` (a flower is a wall of S_x): the
    /// component through `p` splits into parts, each containing a neighbour of `p`, and every
    /// other component keeps its points, cells, neighbours' cells and bounds (none is next to
    /// `p`). A component is a private eye only of the string that alone bounds it, so the
    /// strings whose private eyes can change are the sole bound of the component before and
    /// the sole bound of each part after; each is judged again over all its components. The
    /// flower strings whose counts can change are the new one through `p` (its lower strings
    /// are new) and those next to a string whose private eye changed.
    fn local_flower(
        &self,
        before: &[u8; MAXN],
        after: &[u8; MAXN],
        p: usize,
        rule: AttributeRule,
    ) -> Option<Local> {
        if self.flower_count + 1 >= MAXS {
            return None;
        }
        let view = AfterLower {
            cells: after,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
            p,
            merged: &[],
            j: NONE,
        };
        let mut bounds: [(u16, usize); MAX_JUDGED] = [(NONE, 0); MAX_JUDGED];
        let mut nb = 0usize;
        for x in [BLACK, WHITE] {
            let parts = std::iter::once(self.sole_bound(before, p, x)).chain(
                self.dirs
                    .iter()
                    .map(|&d| p.wrapping_add(d) & MASK)
                    .filter(|&m| after[m] == EMPTY || after[m] == opp(x))
                    .map(|m| self.sole_bound(after, m, x)),
            );
            for (s, at) in parts.flatten() {
                if bounds[..nb].iter().any(|b| b.0 == s) {
                    continue;
                }
                if nb == MAX_JUDGED {
                    return None;
                }
                bounds[nb] = (s, at);
                nb += 1;
            }
        }
        // The lower strings next to the flower: its black and its white neighbours' strings
        // (four neighbours, so at most four in all).
        let (black, nb_black) = self.joined_strings(before, p, BLACK)?;
        let (white, nb_white) = self.joined_strings(before, p, WHITE)?;
        let mut touched = [NONE; 4];
        touched[..nb_black].copy_from_slice(&black[..nb_black]);
        touched[nb_black..nb_black + nb_white].copy_from_slice(&white[..nb_white]);
        let touched_count = nb_black + nb_white;
        let mut joined: [(u16, u16); 4] = [(NONE, 0); 4];
        let mut joined_count = 0usize;
        for &d in &self.dirs {
            let m = p.wrapping_add(d) & MASK;
            let g = self.flower_of[m];
            if before[m] == FLOWER && !joined[..joined_count].iter().any(|x| x.0 == g) {
                joined[joined_count] = (g, m as u16);
                joined_count += 1;
            }
        }
        let mut flowers = Points::new();
        let judged = self.judge_bounds(&view, before, &bounds[..nb], &[], &mut flowers);
        let judged_count = nb;
        let eye_of = |s: u16| -> bool {
            for &(b, e) in &judged[..judged_count] {
                if b == s {
                    return e;
                }
            }
            self.has_eye[s as usize]
        };
        let a = self.flower_attribute_after(&view, p, rule, &eye_of);
        let code = upper_code(a);
        // The new string's points take its code: `p` (no number before the move) and the
        // joined strings.
        let mut flipped = [NO_FLIP; MAX_FLIPPED];
        flipped[0] = (NONE, p as u16, code, a);
        let mut flipped_count = 1usize;
        let mut stays = code == NEUTRAL;
        for &(g, at) in &joined[..joined_count] {
            stays &= upper_code(self.flower_attr[g as usize]) == NEUTRAL;
            flipped[flipped_count] = (g, at, code, a);
            flipped_count += 1;
        }
        let mut flips_known = true;
        for &f in &flowers {
            let g = self.flower_of[f & MASK];
            if f & MASK == p & MASK || joined[..joined_count].iter().any(|x| x.0 == g) {
                continue;
            }
            let af = self.flower_attribute_after(&view, f, rule, &eye_of);
            if af != self.flower_attr[g as usize] {
                stays = false;
                if flipped_count == MAX_FLIPPED {
                    flips_known = false;
                    break;
                }
                flipped[flipped_count] = (g, f as u16, upper_code(af), af);
                flipped_count += 1;
            }
        }
        Some(Local {
            p,
            j: NONE,
            merged: [NONE; 4],
            merged_count: 0,
            eye_j: false,
            judged,
            judged_count,
            j_by_flower: false,
            stays: stays && flips_known,
            flipped,
            flipped_count,
            flips_known,
            new_flower: Some(a),
            touched,
            touched_count,
        })
    }

    /// The strings of colour `c` next to `p` (those a stone of that colour at `p` joins; each
    /// once, at most four) and their count; `None` where a neighbour of that colour has no
    /// string in this analysis.
    #[inline]
    fn joined_strings(&self, before: &[u8; MAXN], p: usize, c: u8) -> Option<([u16; 4], usize)> {
        let mut merged = [NONE; 4];
        let mut k = 0;
        for &d in &self.dirs {
            let m = p.wrapping_add(d) & MASK;
            if before[m] == c {
                let s = self.lower_of[m];
                if s == NONE {
                    return None;
                }
                if !merged[..k].contains(&s) {
                    merged[k] = s;
                    k += 1;
                }
            }
        }
        Some((merged, k))
    }

    /// The strings whose private eyes are judged again besides the stone's own (one stone of
    /// each, at most [`MAX_JUDGED`]: `None` past that), a stone of colour `c` at `p` joining no
    /// string when `alone`, the strings at `removed` captured.
    #[inline]
    fn bounds_to_judge(
        &self,
        before: &[u8; MAXN],
        after: &[u8; MAXN],
        p: usize,
        c: u8,
        alone: bool,
        removed: &[u16],
    ) -> Option<([(u16, usize); MAX_JUDGED], usize)> {
        let o = opp(c);
        let mut bounds: [(u16, usize); MAX_JUDGED] = [(NONE, 0); MAX_JUDGED];
        let mut nb = 0usize;
        let mut add = |b: Option<(u16, usize)>| -> bool {
            let Some((s, at)) = b else {
                return true;
            };
            // A removed string is gone (its stone is empty after the move).
            if after[at & MASK] != o && after[at & MASK] != c
                || bounds[..nb].iter().any(|x| x.0 == s)
            {
                return true;
            }
            if nb == MAX_JUDGED {
                return false;
            }
            bounds[nb] = (s, at);
            nb += 1;
            true
        };
        // S_c loses p: the one string that bounded its component through p, if the stone joins
        // none (else that string is among the joined ones, or two strings bounded it). The
        // removed points were in that component (each removed string is next to p).
        if alone {
            add(self.sole_bound(before, p, c));
        }
        // S_o keeps its component through p (p turns from empty to a c-stone) and gains the
        // removed points, which join it with the components of S_o next to them (their
        // neighbours in S_o are c-stones and p: a removed string had no empty neighbour): the
        // sole bound of the joined component after the move, and the sole bound before of each
        // component it joined.
        if !add(self.sole_bound(after, p, o)) {
            return None;
        }
        if !removed.is_empty() {
            if !add(self.sole_bound(before, p, o)) {
                return None;
            }
            for &q in removed {
                for &d in &self.dirs {
                    let m = (q as usize).wrapping_add(d) & MASK;
                    if before[m] == c && !add(self.sole_bound(before, m, o)) {
                        return None;
                    }
                }
            }
        }
        Some((bounds, nb))
    }

    /// Each string of `bounds` with whether it has a private eye after the move; `flowers` gains
    /// (each flower string once) the flowers next to a removed string, which lose it from their
    /// counts, and those next to a string whose private eye changed.
    #[inline]
    fn judge_bounds(
        &self,
        view: &AfterLower<'_>,
        before: &[u8; MAXN],
        bounds: &[(u16, usize)],
        removed: &[u16],
        flowers: &mut Points,
    ) -> [(u16, bool); MAX_JUDGED] {
        let push_new = |flowers: &mut Points, f: usize| {
            if !flowers
                .iter()
                .any(|&x| self.flower_of[x & MASK] == self.flower_of[f & MASK])
            {
                flowers.push(f);
            }
        };
        for &q in removed {
            for &d in &self.dirs {
                let m = (q as usize).wrapping_add(d) & MASK;
                if before[m] == FLOWER {
                    push_new(flowers, m);
                }
            }
        }
        let mut judged = [(NONE, false); MAX_JUDGED];
        for (i, &(s, at)) in bounds.iter().enumerate() {
            let mut fl = Points::new();
            let eye = view.has_eye(s, at, &mut fl, &self.flower_of);
            if eye != self.has_eye[s as usize] {
                for f in fl {
                    push_new(flowers, f);
                }
            }
            judged[i] = (s, eye);
        }
        judged
    }

    /// The private eyes and flower attributes after the strings at `removed` are taken off the
    /// board `mid` (this analysis is `mid`'s; `after` is `mid` with `removed` emptied): the
    /// strings judged again with their private eyes and the flower strings whose attribute
    /// changes; `None` when the change is not decided here (more than [`MAX_JUDGED`] strings
    /// or [`MAX_FLIPPED`] flower strings). `removed` must be whole lower strings of
    /// black or white stones of one colour o without an empty neighbour (upper strings of the
    /// recomputed round without liberty and without a flower); c is the other colour. Why only
    /// these strings' regions change (notes/incremental.md, "A removal after a flipped
    /// attribute"): S_c keeps its points, its cells change at `removed`, so the sole bound of
    /// each component holding a removed string is judged again; S_o gains `removed`, whose
    /// neighbours in S_o are c-stones, so the sole bound after of the component through each
    /// removed string and the sole bound before of each component through a c-stone next to
    /// one are judged again. The flower strings next to a removed point (they lose it from
    /// their counts) and next to a string whose private eye changed are decided again by
    /// [`attribute_under`] (M20-ATTR-COUNT).
    pub(super) fn local_removal(
        &self,
        mid: &[u8; MAXN],
        after: &[u8; MAXN],
        removed: &[u16],
        rule: AttributeRule,
    ) -> Option<Removal> {
        let first = *removed.first()? as usize & MASK;
        let o = mid[first];
        if o != BLACK && o != WHITE {
            return None;
        }
        let c = opp(o);
        let mut bounds: [(u16, usize); MAX_JUDGED] = [(NONE, 0); MAX_JUDGED];
        let mut nb = 0usize;
        let mut add = |b: Option<(u16, usize)>| -> bool {
            let Some((s, at)) = b else {
                return true;
            };
            // A removed string is gone (its stone is empty after the removal).
            if after[at & MASK] == EMPTY || bounds[..nb].iter().any(|x| x.0 == s) {
                return true;
            }
            if nb == MAX_JUDGED {
                return false;
            }
            bounds[nb] = (s, at);
            nb += 1;
            true
        };
        // One flood per removed string and per c-string next to one (a c-string lies in one
        // component of S_o; a removed string in one of S_c and, after, in one of S_o).
        let mut strings: SmallVec<[u16; 8]> = SmallVec::new();
        for &q in removed {
            let q = q as usize & MASK;
            let s = self.lower_of[q];
            if mid[q] != o || after[q] != EMPTY || s == NONE {
                return None;
            }
            for &d in &self.dirs {
                let m = q.wrapping_add(d) & MASK;
                match mid[m] {
                    EMPTY => return None,
                    v if v == c => {
                        let t = self.lower_of[m];
                        if t == NONE {
                            return None;
                        }
                        if !strings.contains(&t) {
                            strings.push(t);
                            if !add(self.sole_bound(mid, m, o)) {
                                return None;
                            }
                        }
                    }
                    _ => {}
                }
            }
            if !strings.contains(&s) {
                strings.push(s);
                if !add(self.sole_bound(after, q, c)) || !add(self.sole_bound(after, q, o)) {
                    return None;
                }
            }
        }
        let view = AfterLower {
            cells: after,
            lower_of: &self.lower_of,
            dirs: &self.dirs,
            p: 0,
            merged: &[],
            j: NONE,
        };
        let mut flowers = Points::new();
        let judged = self.judge_bounds(&view, mid, &bounds[..nb], removed, &mut flowers);
        let eye_of = |s: u16| -> bool {
            for &(b, e) in &judged[..nb] {
                if b == s {
                    return e;
                }
            }
            self.has_eye[s as usize]
        };
        let mut flipped = [NO_FLIP; MAX_FLIPPED];
        let mut nf = 0usize;
        for &f in &flowers {
            let a = self.flower_attribute_after(&view, f, rule, &eye_of);
            let g = self.flower_of[f & MASK];
            if a != self.flower_attr[g as usize] {
                if nf == MAX_FLIPPED {
                    return None;
                }
                flipped[nf] = (g, f as u16, upper_code(a), a);
                nf += 1;
            }
        }
        Some(Removal {
            judged,
            judged_count: nb,
            flipped,
            flipped_count: nf,
        })
    }

    /// Applies [`FastAnalysis::local_removal`]'s answer `r` to this analysis (the analysis
    /// before the move with the lower layer and attributes of the local decision `l` applied,
    /// [`FastAnalysis::apply_local`] and [`FastAnalysis::apply_flips`]; its upper layer still
    /// the one before the move), the board now `after`: the strings at `taken` retired from the
    /// lower layer, the private eyes of `r` written, its flips applied, then the upper layer
    /// updated once from the one before the move ([`FastAnalysis::flip_upper`]) with every
    /// point whose code changed: `l.p`, `removed` (the fresh round's and `taken`) and the flower
    /// strings either step flipped (`r`'s listed first: its code is the one after). `false`
    /// when the flips are more than [`MAX_FLIPPED`] together or the numbers run out (the caller
    /// analyses the board; the analysis is then partly written).
    pub(super) fn apply_removal(
        &mut self,
        after: &[u8; MAXN],
        l: &Local,
        r: &Removal,
        removed: &[u16],
        taken: &[u16],
    ) -> bool {
        let n = r.flipped_count + l.flipped_count;
        if n > MAX_FLIPPED {
            return false;
        }
        for &q in taken {
            let q = q as usize & MASK;
            let s = self.lower_of[q];
            if s != NONE {
                self.lower_colour[s as usize] = 0;
            }
            self.lower_of[q] = NONE;
        }
        for &(s, e) in &r.judged[..r.judged_count] {
            self.has_eye[s as usize] = e;
        }
        let mut both = *l;
        both.flipped[..r.flipped_count].copy_from_slice(&r.flipped[..r.flipped_count]);
        both.flipped[r.flipped_count..n].copy_from_slice(&l.flipped[..l.flipped_count]);
        both.flipped_count = n;
        for &(g, _, _, a) in &r.flipped[..r.flipped_count] {
            if let Some(x) = self.flower_attr.get_mut(usize::from(g)) {
                *x = a;
            }
        }
        self.flip_upper(after, &both, removed)
    }

    /// The attribute of the flower string through `f` on `view`'s board, the private eyes
    /// given by `eye_of`: M20-ATTR-COUNT's counts ([`counts`]) over the distinct adjacent lower
    /// strings (2013's [`stone_counts`] over the distinct adjacent stones), decided by
    /// [`attribute_under`] — the functions [`FastAnalysis::run`] calls.
    fn flower_attribute_after(
        &self,
        view: &AfterLower<'_>,
        f: usize,
        rule: AttributeRule,
        eye_of: &dyn Fn(u16) -> bool,
    ) -> crate::board::layers::Attribute {
        let cells = view.cells;
        SCRATCH.with_borrow_mut(|sc| {
            let (mut seen, stack, _) = sc.parts();
            seen.set(f, STONE);
            stack[0] = f as u16;
            let (mut n, mut k) = (1usize, 0usize);
            while k < n {
                let q = stack[k & MASK] as usize;
                k += 1;
                for &d in &self.dirs {
                    let m = q.wrapping_add(d) & MASK;
                    if cells[m] == FLOWER && seen.get(m) == 0 {
                        seen.set(m, STONE);
                        stack[n & MASK] = m as u16;
                        n += 1;
                    }
                }
            }
            let around = || {
                stack[..n & MASK]
                    .iter()
                    .flat_map(|&q| self.dirs.map(|d| (q as usize).wrapping_add(d) & MASK))
            };
            let (attribute, _) = attribute_under(
                rule,
                || {
                    let mut counted: SmallVec<[u16; 8]> = SmallVec::new();
                    counts(around().filter_map(|m| {
                        let s = view.id(m);
                        if s == NONE || counted.contains(&s) {
                            return None;
                        }
                        counted.push(s);
                        Some((cells[m] == BLACK, eye_of(s)))
                    }))
                },
                || {
                    let mut counted: Points = Points::new();
                    stone_counts(around().filter_map(|m| {
                        let u = cells[m];
                        if !(u == BLACK || u == WHITE) || counted.contains(&m) {
                            return None;
                        }
                        counted.push(m);
                        Some(if u == BLACK {
                            Colour::Black
                        } else {
                            Colour::White
                        })
                    }))
                },
            );
            attribute
        })
    }

    /// Applies `l` to this analysis (a copy of the analysis `l` was computed on), the board
    /// now `after` (the stone at `l.p`, nothing removed): the stone's string numbered `l.j`,
    /// the joined strings gone, the private eyes of `l` written. The upper layer is
    /// [`FastAnalysis::upper_update`]'s.
    pub(super) fn apply_local(&mut self, after: &[u8; MAXN], l: &Local, removed: &[u16]) {
        if let Some(a) = l.new_flower {
            self.apply_flower(after, l, a);
            return;
        }
        let (p, j) = (l.p, l.j);
        let c = after[p & MASK];
        for &s in &l.merged[..l.merged_count] {
            self.lower_colour[s as usize] = 0;
        }
        // The removed strings (black or white stones only, see `local_change`) are gone.
        for &q in removed {
            let q = q as usize & MASK;
            let s = self.lower_of[q];
            if s != NONE {
                self.lower_colour[s as usize] = 0;
            }
            self.lower_of[q] = NONE;
        }
        let mut stack = [0u16; MAXN];
        Self::flood_into(
            &mut stack,
            &mut self.lower_of,
            after,
            self.dirs,
            p,
            j,
            |v| v == c,
        );
        self.lower_colour[j as usize] = c;
        self.has_eye[j as usize] = l.eye_j;
        for &(s, e) in &l.judged[..l.judged_count] {
            self.has_eye[s as usize] = e;
        }
        self.lower_count = j as usize + 1;
    }

    /// [`FastAnalysis::apply_local`] of a flower: the private eyes judged again written, the
    /// flower string through `l.p` numbered anew with its attribute `a` (the joined strings'
    /// numbers retired: no point refers to them).
    fn apply_flower(&mut self, after: &[u8; MAXN], l: &Local, a: crate::board::layers::Attribute) {
        for &(s, e) in &l.judged[..l.judged_count] {
            self.has_eye[s as usize] = e;
        }
        let f = self.flower_count as u16;
        let mut stack = [0u16; MAXN];
        let dirs = self.dirs;
        Self::flood_into(&mut stack, &mut self.flower_of, after, dirs, l.p, f, |v| {
            v == FLOWER
        });
        self.flower_attr[f as usize] = a;
        self.flower_count += 1;
    }

    /// The upper strings and their liberties after a move that changed no flower attribute
    /// (this analysis a copy of the one of `before`, the board now `after`): the points the
    /// move emptied leave their strings, the stone at `p` (if it stays) joins its upper
    /// neighbours of its colour into a new string, and the liberties are counted again for the
    /// strings next to a changed point — no other string gains or loses a liberty. `false`
    /// (nothing decided, the caller analyses the board) when a flower was removed or the
    /// string numbers are used up. `removed`: the points the move removed besides `p` (none:
    /// only `p` changed).
    pub(super) fn upper_update(
        &mut self,
        before: &[u8; MAXN],
        after: &[u8; MAXN],
        p: usize,
        removed: &[u16],
    ) -> bool {
        SCRATCH.with_borrow_mut(|sc| self.upper_update_with(sc, before, after, p, removed))
    }

    fn upper_update_with(
        &mut self,
        sc: &mut Scratch,
        before: &[u8; MAXN],
        after: &[u8; MAXN],
        p: usize,
        removed: &[u16],
    ) -> bool {
        let dirs = self.dirs;
        let p = p & MASK;
        let stone = after[p];
        if (stone == BLACK || stone == WHITE) && self.upper_count >= MAXS {
            return false;
        }
        // The start points of the strings whose liberties are counted again, one per string
        // (a string queued and then joined into the stone's is found again by its point);
        // a string's stamp is QUEUED once queued, RECOUNTED once counted.
        const QUEUED: u32 = 1;
        const RECOUNTED: u32 = 2;
        let base = sc.string_marks();
        let mut ns = 0usize;
        let mut queue = |an: &FastAnalysis, sc: &mut Scratch, m: usize| {
            let s = an.upper_of[m & MASK];
            if s == NONE || ns >= MAXS {
                return;
            }
            if let Some(st) = sc.string_stamp.get_mut(s as usize) {
                if *st <= base {
                    *st = base + QUEUED;
                    sc.starts[ns & MASK] = m as u16;
                    ns += 1;
                }
            }
        };
        // Only p and the removed points changed: no scan of the board.
        let changed = removed.iter().map(|&q| q as usize);
        for q in changed.clone() {
            let q = q & MASK;
            if q == p || before[q] == after[q] {
                continue;
            }
            if before[q] == FLOWER || after[q] != EMPTY {
                return false;
            }
            let s = self.upper_of[q];
            if s != NONE {
                self.upper_colour[s as usize] = 0;
            }
            self.upper_of[q] = NONE;
            self.upper[q] = EMPTY;
        }
        for q in changed {
            let q = q & MASK;
            if q == p || before[q] == after[q] {
                continue;
            }
            for d in dirs {
                queue(self, sc, q.wrapping_add(d));
            }
        }
        // A string next to p that is not the stone's and was not queued by a removed point
        // lost exactly the liberty p (p was empty before the move, so a liberty of every
        // string next to it; its other neighbours did not change): with two or more liberties
        // left its count is one less, and its one recorded liberty is not read (only that of a
        // one-liberty string is); else it is counted again.
        let mut lose_p = |an: &mut FastAnalysis, sc: &mut Scratch, m: usize, j: u16| {
            let s = an.upper_of[m & MASK];
            if s != NONE && s != j {
                if let (Some(st), Some(libs)) = (
                    sc.string_stamp.get_mut(usize::from(s)),
                    an.upper_libs.get_mut(usize::from(s)),
                ) {
                    if *st <= base && *libs >= 3 {
                        *libs -= 1;
                        *st = base + RECOUNTED;
                        return;
                    }
                }
            }
            queue(an, sc, m);
        };
        if stone == BLACK || stone == WHITE {
            let j = self.upper_count as u16;
            for d in dirs {
                let m = p.wrapping_add(d) & MASK;
                if self.upper[m] == stone {
                    let s = self.upper_of[m];
                    if s != NONE {
                        self.upper_colour[s as usize] = 0;
                    }
                }
            }
            self.upper[p] = stone;
            Self::flood_into(
                &mut sc.a,
                &mut self.upper_of,
                &self.upper,
                dirs,
                p,
                j,
                |v| v == stone,
            );
            self.upper_colour[j as usize] = stone;
            self.upper_count += 1;
            lose_p(self, sc, p, j);
            for d in dirs {
                lose_p(self, sc, p.wrapping_add(d), j);
            }
        } else if stone == FLOWER {
            // A flower is updated only where it is neutral (`Local::stays`): a wall of the
            // upper layer; its neighbours lose a liberty.
            self.upper[p] = NEUTRAL;
            self.upper_of[p] = NONE;
            for d in dirs {
                lose_p(self, sc, p.wrapping_add(d), NONE);
            }
        }
        for i in 0..ns {
            let m = sc.starts[i & MASK] as usize;
            let s = self.upper_of[m & MASK];
            if s == NONE {
                continue;
            }
            match sc.string_stamp.get_mut(s as usize) {
                Some(st) if *st != base + RECOUNTED => *st = base + RECOUNTED,
                _ => continue,
            }
            let (seen, stack, _) = sc.parts();
            self.recount(seen, stack, s, m);
        }
        true
    }

    /// The attributes of the flower strings `l` found changing (`l.flips_known`, not
    /// `l.stays`), written: [`Local::flipped`] lists every flower string whose counts can
    /// change and whose attribute differs (notes/incremental.md, "Flower attributes"); every
    /// other flower string keeps its lower neighbours and their private eyes, so its attribute.
    /// The string a placed flower makes is numbered by [`FastAnalysis::apply_local`].
    pub(super) fn apply_flips(&mut self, l: &Local) {
        for &(g, _, _, a) in &l.flipped[..l.flipped_count] {
            if let Some(x) = self.flower_attr.get_mut(usize::from(g)) {
                *x = a;
            }
        }
    }

    /// The upper strings and their liberties after a move whose local decision `l` found
    /// flower attributes changing (`l.flips_known`) and whose cascade removed nothing after
    /// that (this analysis a copy of the one before the move, `apply_local` and `apply_flips`
    /// done, the board now `after`, the points `removed` emptied). The upper layer changes
    /// exactly at `l.p`, at the removed points and on the flipped flower strings (the other
    /// attributes stay, [`FastAnalysis::without_liberty_after`]). A string of the layer before
    /// that neither holds nor touches a changed point keeps its points and its neighbours' cells:
    /// the same string with the same liberties, kept. Every string that holds or touches one is
    /// retired, and its points with the changed points are numbered anew by flooding the new
    /// layer: a point of the new layer next to a listed point with its colour is listed too (a
    /// changed point's stone neighbours belong to retired strings; an unchanged listed point's
    /// unchanged same-coloured neighbour was in its string), so the floods stay within the list;
    /// each new string's liberties are counted. `false` when the string numbers are used up
    /// (the caller analyses the board; the upper layer is then partly written).
    pub(super) fn flip_upper(&mut self, after: &[u8; MAXN], l: &Local, removed: &[u16]) -> bool {
        SCRATCH.with_borrow_mut(|sc| self.flip_upper_with(sc, after, l, removed))
    }

    fn flip_upper_with(
        &mut self,
        sc: &mut Scratch,
        after: &[u8; MAXN],
        l: &Local,
        removed: &[u16],
    ) -> bool {
        const LISTED: u8 = 1;
        const FLOODED: u8 = 2;
        fn list(marks: &mut Marks<'_>, starts: &mut [u16; MAXN], n: &mut usize, q: usize) {
            if marks.get(q) == 0 {
                marks.set(q, LISTED);
                starts[*n & MASK] = q as u16;
                *n += 1;
            }
        }
        let dirs = self.dirs;
        let p = l.p & MASK;
        let sbase = sc.string_marks();
        let Scratch {
            stamp,
            base,
            a,
            b,
            string_stamp,
            starts,
            ..
        } = sc;
        let mut marks = new_marks(stamp, base);
        let mut n = 0usize;
        // The changed points, each with its new upper code: the flipped flower strings (for a
        // placed flower, its string through p), the stone at p, the removed points.
        for &(_, at, code, _) in &l.flipped[..l.flipped_count] {
            let at = at as usize & MASK;
            if marks.get(at) != 0 {
                continue;
            }
            let from = n;
            list(&mut marks, starts, &mut n, at);
            let mut k = from;
            while k < n {
                let q = starts[k & MASK] as usize;
                k += 1;
                self.upper[q] = code;
                for d in dirs {
                    let m = q.wrapping_add(d) & MASK;
                    if after[m] == FLOWER {
                        list(&mut marks, starts, &mut n, m);
                    }
                }
            }
        }
        if after[p] == BLACK || after[p] == WHITE {
            self.upper[p] = after[p];
            list(&mut marks, starts, &mut n, p);
        }
        for &q in removed {
            let q = q as usize & MASK;
            if q != p {
                self.upper[q] = EMPTY;
                list(&mut marks, starts, &mut n, q);
            }
        }
        // The strings before the move that hold or touch a changed point: retired, their points
        // listed (flooded on the numbers before the move; a changed point already listed is
        // flooded through).
        let changed = n;
        for i in 0..changed {
            let q = starts[i & MASK] as usize;
            for m in std::iter::once(q).chain(dirs.map(|d| q.wrapping_add(d) & MASK)) {
                let s = self.upper_of[m];
                let Some(st) = string_stamp.get_mut(usize::from(s)) else {
                    continue;
                };
                if *st == sbase + 1 {
                    continue;
                }
                *st = sbase + 1;
                self.upper_colour[usize::from(s)] = 0;
                list(&mut marks, starts, &mut n, m);
                marks.set(m, FLOODED);
                b[0] = m as u16;
                let (mut k, mut nb) = (0usize, 1usize);
                while k < nb {
                    let x = b[k & MASK] as usize;
                    k += 1;
                    for d in dirs {
                        let y = x.wrapping_add(d) & MASK;
                        if self.upper_of[y] == s && marks.get(y) != FLOODED {
                            list(&mut marks, starts, &mut n, y);
                            marks.set(y, FLOODED);
                            b[nb & MASK] = y as u16;
                            nb += 1;
                        }
                    }
                }
            }
        }
        for &q in &starts[..n.min(MAXN)] {
            self.upper_of[q as usize & MASK] = NONE;
        }
        for i in 0..n {
            let x = starts[i & MASK] as usize;
            let v = self.upper[x];
            if (v != BLACK && v != WHITE) || self.upper_of[x] != NONE {
                continue;
            }
            if self.upper_count >= MAXS {
                return false;
            }
            let j = self.upper_count as u16;
            Self::flood_into(a, &mut self.upper_of, &self.upper, dirs, x, j, |c| c == v);
            self.upper_colour[usize::from(j)] = v;
            self.upper_count += 1;
            self.recount(new_marks(stamp, base), b, j, x);
        }
        true
    }

    /// GO-CASCADE's recomputed round where the local decision `l` of a black or white stone
    /// found flower attributes changing (`l.flips_known`), without analysing the board: whether
    /// a black and whether a white string of the recomputed upper layer has no liberty (indexed
    /// black, white). That layer is this analysis's with the cells of `after` (the stone at
    /// `l.p`, the points `removed` emptied) and the flipped flower strings at their new codes:
    /// the lower strings, private eyes and attributes `l` did not list are this analysis's
    /// (notes/incremental.md). So the upper cells change at `l.p`, at the removed points and
    /// on the flipped strings, and only the strings through or next to one of them can differ
    /// from this analysis's: each is flooded on the new layer and its liberties counted. Every
    /// other string is a string of this analysis with the same neighbours and liberties, at
    /// least one (this analysis is of a settled board, where no string is without liberty).
    /// The points of the strings without liberty are added to `dead_points` (indexed black,
    /// white; each string once): what the removal of the colour empties.
    pub(super) fn without_liberty_after(
        &self,
        after: &[u8; MAXN],
        l: &Local,
        removed: &[u16],
        dead_points: &mut [Vec<u16>; 2],
    ) -> [bool; 2] {
        let flipped = &l.flipped[..l.flipped_count];
        let upper = |q: usize| -> u8 {
            let v = after[q & MASK];
            if v != FLOWER {
                return v;
            }
            let g = self.flower_of[q & MASK];
            match flipped.iter().find(|x| x.0 == g) {
                Some(&(_, _, code, _)) => code,
                None => self.upper[q & MASK],
            }
        };
        // The changed points: p, the removed points, the points of the flipped strings.
        // (Each point is listed once: p, the removed points and the flower points differ.)
        let mut changed = [0u16; MAXN];
        changed[0] = l.p as u16;
        let mut nc = 1usize;
        for &q in removed {
            changed[nc & MASK] = q;
            nc += 1;
        }
        let mut in_flipped = [false; MAXN];
        for &(_, at, _, _) in flipped {
            let at = at as usize & MASK;
            if in_flipped[at] {
                continue;
            }
            in_flipped[at] = true;
            let mut k = nc;
            changed[nc & MASK] = at as u16;
            nc += 1;
            while k < nc {
                let q = changed[k & MASK] as usize;
                k += 1;
                for &d in &self.dirs {
                    let m = q.wrapping_add(d) & MASK;
                    if after[m] == FLOWER && !in_flipped[m] {
                        in_flipped[m] = true;
                        changed[nc & MASK] = m as u16;
                        nc += 1;
                    }
                }
            }
        }
        let mut dead = [false; 2];
        let mut flooded = [false; MAXN];
        SCRATCH.with_borrow_mut(|sc| {
            for &q in &changed[..nc & MASK] {
                let q = q as usize & MASK;
                for m in std::iter::once(q).chain(self.dirs.map(|d| q.wrapping_add(d) & MASK)) {
                    let colour = upper(m);
                    if flooded[m] || (colour != BLACK && colour != WHITE) {
                        continue;
                    }
                    let (mut libs, stack, _) = sc.parts();
                    flooded[m] = true;
                    stack[0] = m as u16;
                    let (mut n, mut k, mut liberties) = (1usize, 0usize, 0usize);
                    while k < n {
                        let x = stack[k & MASK] as usize;
                        k += 1;
                        for &d in &self.dirs {
                            let y = x.wrapping_add(d) & MASK;
                            let u = upper(y);
                            if u == EMPTY {
                                if libs.get(y) == 0 {
                                    libs.set(y, 1);
                                    liberties += 1;
                                }
                            } else if u == colour && !flooded[y] {
                                flooded[y] = true;
                                stack[n & MASK] = y as u16;
                                n += 1;
                            }
                        }
                    }
                    if liberties == 0 {
                        let i = usize::from(colour == WHITE);
                        dead[i] = true;
                        dead_points[i].extend_from_slice(&stack[..n & MASK]);
                    }
                }
            }
        });
        dead
    }

    /// Counts the liberties of upper string `s` through `start` again (`seen`: new marks;
    /// `stack`: the flood's).
    fn recount(&mut self, mut seen: Marks<'_>, stack: &mut [u16; MAXN], s: u16, start: usize) {
        const STONE: u8 = 1;
        const LIBERTY: u8 = 2;
        let dirs = self.dirs;
        seen.set(start, STONE);
        stack[0] = start as u16;
        let (mut n, mut k) = (1usize, 0usize);
        let (mut libs, mut lib) = (0u16, 0u16);
        while k < n {
            let q = stack[k & MASK] as usize;
            k += 1;
            for d in dirs {
                let m = q.wrapping_add(d) & MASK;
                if self.upper[m] == EMPTY {
                    if seen.get(m) == 0 {
                        seen.set(m, LIBERTY);
                        libs += 1;
                        lib = m as u16;
                    }
                } else if self.upper_of[m] == s && seen.get(m) == 0 {
                    seen.set(m, STONE);
                    stack[n & MASK] = m as u16;
                    n += 1;
                }
            }
        }
        self.upper_libs[s as usize] = libs;
        self.upper_lib[s as usize] = lib;
    }
}
