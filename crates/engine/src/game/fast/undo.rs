//! Play/undo on the fast engine: [`FastPosition::play_in_place`] applies a move to the position
//! itself and records in an [`UndoLog`] what it changed; [`FastPosition::undo`] takes the move
//! back from the log. The game tree walks (perft, [`FastPosition::count_leaves`]) and the random
//! games ([`super::random_game_fast`]) play on one position this way instead of copying the
//! analysis into a child per move. What the log holds and why it restores the position exactly:
//! `notes/incremental.md`, "Play and undo".

use super::earlier::Earlier;
use super::incremental::Local;
use super::settle::{copy_cells, update_analysis, Buffer, Held, Settled};
use super::*;
use crate::board::layers::Attribute;
use crate::game::moves::Action;
use crate::game::order::{after_move, FlystoneState, Turn};
use crate::judge::freeze::FrozenString;
use std::sync::Arc;

/// The moves played in place on a position ([`FastPosition::play_in_place`]), newest last, each
/// with what it changed; taken back by [`FastPosition::undo`]. One log serves one game (its
/// rules and board size); it keeps its buffers across moves, so a search that plays and undoes
/// allocates nothing once warm.
#[derive(Debug, Default)]
pub struct UndoLog {
    entries: Vec<Entry>,
    /// Entries taken back, kept for their buffers.
    spare: Vec<Entry>,
    /// The board after the move being settled (the cascade reads the position before the move
    /// while it writes this one), a position of the same game.
    scratch: Option<FastPosition>,
    /// Moves whose analysis was updated and logged entry by entry, and moves whose analysis
    /// was saved whole (the whole-board analysis ran).
    local: u64,
    whole: u64,
}

impl UndoLog {
    /// An empty log.
    pub fn new() -> UndoLog {
        UndoLog::default()
    }

    /// The number of moves that can be taken back.
    #[cfg(any(test, feature = "testing"))]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no move can be taken back.
    #[cfg(any(test, feature = "testing"))]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every logged move (they can no longer be taken back), keeping the buffers.
    pub fn clear(&mut self) {
        self.spare.append(&mut self.entries);
    }

    /// How many stones played so far had their analysis updated and logged entry by entry,
    /// and how many saved the analysis whole because the board was analysed again (passes are
    /// in neither).
    #[cfg(any(test, feature = "testing"))]
    pub fn paths(&self) -> (u64, u64) {
        (self.local, self.whole)
    }
}

/// How the analysis of a logged move is restored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Kind {
    /// A pass: the analysis did not change.
    #[default]
    Pass,
    /// The entries in [`Entry::patch`].
    Patch,
    /// The whole analysis in [`Entry::whole`].
    Whole,
}

/// One logged move: everything it changed besides the board (the board before it is the
/// position's `last` after it) and the analysis, as it was.
#[derive(Debug, Default)]
struct Entry {
    kind: Kind,
    hash: u64,
    /// The board before the previous move, as it was (the move overwrites it).
    last: Option<([u8; MAXN], u64)>,
    earlier: Option<Arc<Earlier>>,
    move_number: u32,
    trailing_passes: u32,
    flystone: Option<FlystoneState>,
    turn: Option<Turn>,
    any_flower: bool,
    frozen: Option<Arc<[FrozenString]>>,
    patch: Patch,
    whole: Option<Box<(FastAnalysis, [bool; MAXS])>>,
}

/// Entries of an analysis saved before a local update, in the order saved: the per-point
/// entries at some points and the per-string entries of some lower and upper strings, with
/// the counts. Written back in the reverse order, so a point or string saved twice gets its
/// first (oldest) value.
#[derive(Clone, Debug, Default)]
struct Patch {
    /// Point, lower string, flower string, upper cell, upper string.
    points: Vec<(u16, u16, u16, u8, u16)>,
    /// Lower string, its colour, its private eye, whether it touches a flower.
    lower: Vec<(u16, u8, bool, bool)>,
    /// Upper string, its colour, liberty count, one liberty.
    upper: Vec<(u16, u8, u16, u16)>,
    /// Flower string and its attribute.
    flower: Vec<(u16, Attribute)>,
    counts: (usize, usize, usize, bool),
    /// Scratch: the points to save, and a mark per point.
    todo: Vec<u16>,
    seen: Vec<bool>,
}

impl Patch {
    /// Saves what [`update_analysis`] can write on `an` for a stone `stone` at `p` (empty after
    /// the move where its own string was removed) with the points `removed` emptied and the
    /// local change `local`: the per-point entries of `p`, of the removed points and of the
    /// upper string of the stone's colour through `p` (the strings the stone joins, which the
    /// update renumbers); the per-string entries of every string at these points and next to
    /// `p` or a removed point (their liberties are counted again), of the new upper string's
    /// number (`upper_count`), and of the lower strings `local` writes (the stone's string,
    /// the joined ones, those whose eyes are judged again); the counts.
    fn save(
        &mut self,
        an: &FastAnalysis,
        by_flower: &[bool; MAXS],
        p: usize,
        stone: u8,
        removed: &[u16],
        local: Option<&Local>,
    ) {
        self.points.clear();
        self.lower.clear();
        self.upper.clear();
        self.flower.clear();
        self.todo.clear();
        self.seen.clear();
        self.seen.resize(MAXN, false);
        self.counts = (
            an.lower_count,
            an.upper_count,
            an.flower_count,
            an.eyes_done,
        );
        let p = p & MASK;
        self.todo.push(p as u16);
        self.seen[p] = true;
        for &q in removed {
            let q = q as usize & MASK;
            if !self.seen[q] {
                self.seen[q] = true;
                self.todo.push(q as u16);
            }
        }
        // The upper string of the stone's colour through p: p's neighbours of that colour on
        // the upper layer and everything connected to them.
        if stone == BLACK || stone == WHITE {
            let mut k = 0;
            while k < self.todo.len() {
                let q = self.todo[k] as usize;
                k += 1;
                if q != p && an.upper[q] != stone {
                    continue;
                }
                for d in an.dirs {
                    let m = q.wrapping_add(d) & MASK;
                    if !self.seen[m] && an.upper[m] == stone {
                        self.seen[m] = true;
                        self.todo.push(m as u16);
                    }
                }
            }
        }
        // A flower: the flower strings it joins, which the update renumbers, and the new number.
        if stone == FLOWER {
            let mut k = 0;
            while k < self.todo.len() {
                let q = self.todo[k] as usize;
                k += 1;
                if q != p && an.flower_of[q] == NONE {
                    continue;
                }
                for d in an.dirs {
                    let m = q.wrapping_add(d) & MASK;
                    if !self.seen[m] && an.flower_of[m] != NONE {
                        self.seen[m] = true;
                        self.todo.push(m as u16);
                    }
                }
            }
            self.save_flower(an, an.flower_count as u16);
        }
        for i in 0..self.todo.len() {
            let q = self.todo[i] as usize & MASK;
            self.points.push((
                q as u16,
                an.lower_of[q],
                an.flower_of[q],
                an.upper[q],
                an.upper_of[q],
            ));
            self.save_lower(an, by_flower, an.lower_of[q]);
            self.save_upper(an, an.upper_of[q]);
            self.save_flower(an, an.flower_of[q]);
        }
        for &q in std::iter::once(&(p as u16)).chain(removed) {
            for d in an.dirs {
                let m = (q as usize).wrapping_add(d) & MASK;
                self.save_upper(an, an.upper_of[m]);
            }
        }
        self.save_upper(an, an.upper_count as u16);
        if let Some(l) = local {
            for s in l.strings() {
                self.save_lower(an, by_flower, s);
            }
        }
    }

    fn save_lower(&mut self, an: &FastAnalysis, by_flower: &[bool; MAXS], s: u16) {
        if let Some(&c) = an.lower_colour.get(s as usize) {
            let i = s as usize;
            self.lower.push((s, c, an.has_eye[i], by_flower[i]));
        }
    }

    fn save_upper(&mut self, an: &FastAnalysis, s: u16) {
        if let Some(&c) = an.upper_colour.get(s as usize) {
            let i = s as usize;
            self.upper.push((s, c, an.upper_libs[i], an.upper_lib[i]));
        }
    }

    fn save_flower(&mut self, an: &FastAnalysis, f: u16) {
        if let Some(&a) = an.flower_attr.get(f as usize) {
            self.flower.push((f, a));
        }
    }

    /// Writes the saved entries back.
    fn restore(&self, an: &mut FastAnalysis, by_flower: &mut [bool; MAXS]) {
        for &(q, lower, flower, upper, upper_of) in self.points.iter().rev() {
            let q = q as usize & MASK;
            an.lower_of[q] = lower;
            an.flower_of[q] = flower;
            an.upper[q] = upper;
            an.upper_of[q] = upper_of;
        }
        for &(s, c, eye, touches) in self.lower.iter().rev() {
            let i = s as usize;
            an.lower_colour[i] = c;
            an.has_eye[i] = eye;
            by_flower[i] = touches;
        }
        for &(s, c, libs, lib) in self.upper.iter().rev() {
            let i = s as usize;
            an.upper_colour[i] = c;
            an.upper_libs[i] = libs;
            an.upper_lib[i] = lib;
        }
        for &(f, a) in self.flower.iter().rev() {
            an.flower_attr[f as usize] = a;
        }
        (
            an.lower_count,
            an.upper_count,
            an.flower_count,
            an.eyes_done,
        ) = self.counts;
    }
}

impl FastPosition {
    /// Plays `action` of `turn` (the schedule's turn or one of [`FastPosition::special_turns`])
    /// on this position itself, as [`FastPosition::play_as`] would into a copy, and logs what
    /// changed in `log` for [`FastPosition::undo`]. A refused move leaves the position and the
    /// log as they were.
    pub fn play_in_place(
        &mut self,
        action: Action,
        turn: Turn,
        log: &mut UndoLog,
    ) -> Result<(), Refusal> {
        let p = self.checked_point(action, turn)?;
        self.place_in_place(p, turn, log)
    }

    /// Takes back the last move logged in `log` (played on this position by
    /// [`FastPosition::play_in_place`]): the position is again the one before it, field by
    /// field. `false` when the log is empty.
    pub fn undo(&mut self, log: &mut UndoLog) -> bool {
        let Some(mut e) = log.entries.pop() else {
            return false;
        };
        // The board before the move is the board before the previous move after it.
        if let Some((l, _)) = &self.last {
            copy_cells(self.geom, &mut self.cells, l);
        }
        self.hash = e.hash;
        std::mem::swap(&mut self.last, &mut e.last);
        self.earlier = e.earlier.take();
        self.move_number = e.move_number;
        self.trailing_passes = e.trailing_passes;
        std::mem::swap(&mut self.flystone, &mut e.flystone);
        if let Some(t) = e.turn {
            self.turn = t;
        }
        self.any_flower = e.any_flower;
        match e.kind {
            Kind::Pass => {}
            Kind::Patch => e.patch.restore(&mut self.an, &mut self.by_flower),
            Kind::Whole => {
                if let Some(w) = &e.whole {
                    self.an.clone_from(&w.0);
                    self.by_flower = w.1;
                }
            }
        }
        if let Some(f) = e.frozen.take() {
            self.an.frozen = f;
        }
        log.spare.push(e);
        // No `check_consistency` here: the position is the one before the move, which was
        // checked after it was reached; that undo restores it field by field is what
        // tests/it/fast_equals_reference.rs compares (`state_difference`, exact).
        true
    }

    /// The move of [`FastPosition::play_in_place`] at padded point `p` (`None`: a pass), its
    /// turn already checked.
    pub(super) fn place_in_place(
        &mut self,
        p: Option<usize>,
        turn: Turn,
        log: &mut UndoLog,
    ) -> Result<(), Refusal> {
        if log
            .scratch
            .as_ref()
            .is_some_and(|s| s.geom != self.geom || s.rules != self.rules)
        {
            log.scratch = None;
        }
        let settled = match p {
            Some(p) => Some(
                self.settle(p, turn, Buffer::Scratch(&mut log.scratch), true, None)?
                    .0,
            ),
            None => None,
        };
        let mut e = self.entry_before(log);
        let out = log.scratch.as_ref();
        let analyse = match (p, settled, out) {
            (Some(p), Some(s), Some(out)) => self.log_analysis(p, s, out, &mut e),
            _ => false,
        };
        // The board: the one before the move becomes the board before the previous move.
        std::mem::swap(&mut self.last, &mut e.last);
        match &mut self.last {
            Some((l, h)) => {
                copy_cells(self.geom, l, &self.cells);
                *h = self.hash;
            }
            None => self.last = Some((self.cells, self.hash)),
        }
        if let (Some(_), Some(out)) = (p, out) {
            copy_cells(self.geom, &mut self.cells, &out.cells);
            self.hash = out.hash;
        }
        if analyse {
            self.refresh();
        }
        match e.kind {
            Kind::Patch => log.local += 1,
            Kind::Whole => log.whole += 1,
            Kind::Pass => {}
        }
        if p.is_some() && crate::judge::freeze::freezes(&self.rules) {
            // M13-FREEZE: the strings frozen on the board the move leaves (grey-freeze: kept).
            let was = e.frozen.clone().unwrap_or_else(|| Arc::from(Vec::new()));
            let frozen = crate::judge::freeze::frozen_after(&self.rules, &was, &self.board());
            self.an.frozen = Arc::from(frozen);
        }
        // The bookkeeping (`advance_into`'s, on this position).
        self.earlier = matches!(self.choices.ko, Ko::Positional | Ko::Situational).then(|| {
            let (cells, hash) = self.last.unwrap_or((self.cells, self.hash));
            Arc::new(Earlier {
                cells,
                hash,
                number: e.move_number,
                prev: e.earlier.clone(),
            })
        });
        (self.move_number, self.trailing_passes, self.flystone) = after_move(
            e.move_number,
            e.trailing_passes,
            e.flystone.as_ref(),
            turn,
            p.is_none(),
        );
        self.turn = self.turn_of(self.move_number);
        log.entries.push(e);
        debug_assert_eq!(
            self.check_consistency(),
            Ok(()),
            "after a move played in place"
        );
        Ok(())
    }

    /// The log entry of the move about to be played: the bookkeeping as it is now (the
    /// analysis is logged by [`Self::log_analysis`]), in a spare entry when the log has one.
    fn entry_before(&mut self, log: &mut UndoLog) -> Entry {
        let mut e = log.spare.pop().unwrap_or_default();
        e.hash = self.hash;
        e.earlier = self.earlier.take();
        e.move_number = self.move_number;
        e.trailing_passes = self.trailing_passes;
        e.flystone.clone_from(&self.flystone);
        e.turn = Some(self.turn);
        e.any_flower = self.any_flower;
        e.frozen = Some(self.an.frozen.clone());
        e.kind = Kind::Pass;
        e
    }

    /// The analysis after the stone settled at `p` (`out`: the board after it), logged in `e`:
    /// updated in place with the entries it changes saved (a patch) when the move is decided
    /// locally, else saved whole and copied from `out` when the settle analysed it. `true`
    /// when the whole board must still be analysed, once the board is written.
    fn log_analysis(&mut self, p: usize, s: Settled, out: &FastPosition, e: &mut Entry) -> bool {
        let updatable = if s.analysed {
            None
        } else {
            self.updatable(p, s.stone, s.local)
        };
        let removed: &[u16] = if s.captured { &out.removed } else { &[] };
        if let Some(local) = updatable {
            e.patch.save(
                &self.an,
                &self.by_flower,
                p,
                s.stone,
                removed,
                local.as_ref(),
            );
            e.kind = Kind::Patch;
            let FastPosition {
                an,
                by_flower,
                any_flower,
                cells,
                ..
            } = self;
            if update_analysis(
                Held {
                    an,
                    by_flower,
                    any_flower,
                },
                cells,
                &out.cells,
                p,
                local.as_ref(),
                removed,
            ) {
                return false;
            }
            e.patch.restore(an, by_flower);
        }
        let w = e
            .whole
            .get_or_insert_with(|| Box::new((self.an.clone(), self.by_flower)));
        w.0.clone_from(&self.an);
        w.1 = self.by_flower;
        e.kind = Kind::Whole;
        if s.analysed {
            out.copy_analysis_into(self);
            return false;
        }
        // Attributes changed and were decided locally: the analysis updated, saved whole.
        let Some(l) = Self::flips_local(p, s.local) else {
            return true;
        };
        let FastPosition {
            an,
            by_flower,
            any_flower,
            cells,
            ..
        } = self;
        !update_analysis(
            Held {
                an,
                by_flower,
                any_flower,
            },
            cells,
            &out.cells,
            p,
            Some(&l),
            removed,
        )
    }

    /// The first difference between this position and `other` in anything a move or a query
    /// reads, named; `None` when there is none. With `exact`, every entry of every array is
    /// compared (play then undo restores the position field by field); without, the
    /// per-string arrays up to their counts and the lower layer only where the private eyes
    /// are computed, as [`FastAnalysis`]'s copies hold them (a position played by copying
    /// compares equal to the same game played in place). The scratch arrays are not compared.
    #[cfg(any(test, feature = "testing"))]
    pub fn state_difference(&self, other: &FastPosition, exact: bool) -> Option<&'static str> {
        // Every field named, so that a new field is not forgotten here.
        let FastPosition {
            rules,
            choices,
            geom,
            cells,
            hash,
            last,
            earlier,
            move_number,
            trailing_passes,
            flystone,
            turn,
            any_flower,
            an,
            by_flower,
            blank,
            removed: _,
        } = self;
        let n = (geom.w * geom.w).min(MAXN);
        let checks: [(bool, &'static str); 14] = [
            (*rules == other.rules && *choices == other.choices, "rules"),
            (*geom == other.geom && *blank == other.blank, "board size"),
            (cells[..n] == other.cells[..n], "board"),
            (*hash == other.hash, "hash"),
            (
                match (last, &other.last) {
                    (Some((a, h)), Some((b, g))) => a[..n] == b[..n] && h == g,
                    (None, None) => true,
                    _ => false,
                },
                "board before the previous move",
            ),
            (
                super::earlier::earlier_boards(earlier.as_ref())
                    .map(|e| (e.hash, e.number, &e.cells[..n]))
                    .eq(super::earlier::earlier_boards(other.earlier.as_ref())
                        .map(|e| (e.hash, e.number, &e.cells[..n]))),
                "earlier boards",
            ),
            (*move_number == other.move_number, "move number"),
            (*trailing_passes == other.trailing_passes, "trailing passes"),
            (*flystone == other.flystone, "Flystone state"),
            (*turn == other.turn, "turn"),
            (*any_flower == other.any_flower, "flower flag"),
            (
                if exact {
                    by_flower == &other.by_flower
                } else {
                    let l = an.lower_count.min(MAXS);
                    !an.eyes_done || by_flower[..l] == other.by_flower[..l]
                },
                "per-string flower marks",
            ),
            (an.frozen == other.an.frozen, "frozen strings"),
            (analysis_equal(an, &other.an, n, exact), "analysis"),
        ];
        checks.iter().find(|(same, _)| !same).map(|&(_, what)| what)
    }
}

/// Whether two analyses hold the same (see [`FastPosition::state_difference`]; `n`: the
/// per-point entries compared).
#[cfg(any(test, feature = "testing"))]
fn analysis_equal(a: &FastAnalysis, b: &FastAnalysis, n: usize, exact: bool) -> bool {
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
    } = a;
    let (l, f, u) = if exact {
        (MAXS, MAXS, MAXS)
    } else {
        (
            (*lower_count).min(MAXS),
            (*flower_count).min(MAXS),
            (*upper_count).min(MAXS),
        )
    };
    let lower_read = exact || *eyes_done;
    *geom == b.geom
        && *dirs == b.dirs
        && *eye == b.eye
        && *closed_region == b.closed_region
        && *closed_region_2016 == b.closed_region_2016
        && *eyes_done == b.eyes_done
        && *lower_count == b.lower_count
        && (!lower_read
            || (lower_of[..n] == b.lower_of[..n]
                && lower_colour[..l] == b.lower_colour[..l]
                && has_eye[..l] == b.has_eye[..l]))
        && flower_of[..n] == b.flower_of[..n]
        && flower_attr[..f] == b.flower_attr[..f]
        && *flower_count == b.flower_count
        && upper[..n] == b.upper[..n]
        && upper_of[..n] == b.upper_of[..n]
        && upper_colour[..u] == b.upper_colour[..u]
        && upper_libs[..u] == b.upper_libs[..u]
        && upper_lib[..u] == b.upper_lib[..u]
        && *upper_count == b.upper_count
        && *frozen == b.frozen
}
