//! Settling a move on the fast engine: [`FastPosition::place`] puts the stone and runs the
//! capture cascade (`game::cascade::cascade`) over [`Settle`], the fast board as the cascade
//! sees it, whose rounds are read off the held analysis where no attribute can change or the
//! local decision ([`FastAnalysis::local_change`]) finds every attribute staying, and analyse the
//! whole board otherwise; then ko (`game::cascade::repeats_earlier`) and the bookkeeping of the
//! next position. Why the held and updated state is the board's: `notes/incremental.md`.

use super::earlier::{earlier_boards, zobrist, Earlier};
use super::incremental::Local;
use super::*;
use crate::game::cascade::{
    cascade, flower_capture_refused, repeats_earlier, CascadeBoard, UpperStrings,
};
use crate::game::order::{after_move, StoneKind, Turn};
use crate::judge::forbidden::flower_forbidden_reason;
use std::sync::Arc;

impl FastPosition {
    /// Whether the rules decide private eyes per component of S_c (the closed form of the
    /// 2020 eye with single-string regions, see the module documentation) and attributes from
    /// the counts of the neighbouring lower strings: then a stone changes only the eyes of the
    /// strings next to the components through its point ([`FastPosition::attributes_stay`]).
    pub(super) fn local_attributes(&self) -> bool {
        self.rules.private_eye == crate::rules::EyeRule::M2020
            && self.rules.closed_region == crate::rules::ClosedRegion::SingleString
            && matches!(
                self.choices.attribute,
                AttributeRule::M2020 | AttributeRule::M2016
            )
    }

    /// Whether a black or white `stone` at the empty point `p`, before anything is removed,
    /// leaves every flower attribute of the board as it is, so that the recomputed upper layer
    /// is the held one with the stone (a sufficient test, `false` when unsure). A flower
    /// string's attribute is read off the lower strings next to it and their private eyes, and
    /// a component of S_x (x black or white) is a private eye of a string of colour x only if
    /// that string alone bounds it. The stone (colour c, opponent o) joins the c-strings next
    /// to it into one; S_c loses `p`, which splits the component through it into parts that
    /// are each bounded by the joined string; in S_o the component through `p` keeps its
    /// points and its o-strings, `p` turning from empty to a stone. So the strings whose
    /// private eyes can change are the joined string and the one string, if only one, that
    /// bounds the component of S_c or of S_o through `p` before the move. If none of them
    /// touches a flower and `p` does not, no count of any flower string changes.
    ///
    /// With `bounds` (the sole bounds of every component of this position,
    /// [`SoleBounds::of`]) the bound of each component through `p` is read off the table
    /// instead of flooded; the table holds what the flood finds, for components of every size.
    pub(super) fn attributes_stay(&self, p: usize, stone: u8, bounds: Option<&SoleBounds>) -> bool {
        /// A component not settled within this many points is left to the full analysis.
        const MAX_COMPONENT: usize = 128;
        if stone == FLOWER || !self.local_attributes() || !self.an.eyes_done {
            return false;
        }
        let dirs = self.geom.dirs();
        for d in dirs {
            let m = p.wrapping_add(d) & MASK;
            match self.cells[m] {
                FLOWER => return false,
                v if v == stone => {
                    let s = self.an.lower_of[m];
                    if s == NONE || self.by_flower[s as usize] {
                        return false;
                    }
                }
                _ => {}
            }
        }
        if let Some(b) = bounds {
            return [0, 1].into_iter().all(|i| {
                match b.bound[i][usize::from(b.comp[i][p & MASK])] {
                    UNKNOWN => false,
                    NONE => true,
                    s => !self.by_flower[s as usize],
                }
            });
        }
        for x in [BLACK, WHITE] {
            let o = opp(x);
            let mut seen = [false; MAXN];
            let mut stack = [0u16; MAX_COMPONENT];
            seen[p & MASK] = true;
            stack[0] = p as u16;
            let (mut n, mut k) = (1usize, 0usize);
            let mut bound = NONE;
            'flood: while k < n {
                let q = stack[k] as usize;
                k += 1;
                for d in dirs {
                    let m = q.wrapping_add(d) & MASK;
                    let v = self.cells[m];
                    if v == x {
                        let s = self.an.lower_of[m];
                        if s == NONE {
                            return false;
                        }
                        if bound == NONE {
                            bound = s;
                        } else if s != bound {
                            // bounded by two strings: no string's private eye, before or after
                            bound = NONE;
                            break 'flood;
                        }
                    } else if (v == EMPTY || v == o) && !seen[m] {
                        if n == MAX_COMPONENT {
                            return false;
                        }
                        seen[m] = true;
                        stack[n] = m as u16;
                        n += 1;
                    }
                }
            }
            if bound != NONE && self.by_flower[bound as usize] {
                return false;
            }
        }
        true
    }

    /// Whether no flower attribute can change whatever is played with `stone` (no flower on
    /// the board and none placed, or every flower neutral by rule): the upper layer is then the
    /// direct board with the flowers off-board, held or recomputed.
    pub(super) fn plain(&self, stone: u8) -> bool {
        self.choices.attribute == AttributeRule::AlwaysNeutral
            || (!self.any_flower && stone != FLOWER)
    }

    /// Places the stone of `turn` (its colour, or a flower) at padded point `p`, `self`
    /// unchanged. With `play`, the position after the move is left in `scratch` (cloned from
    /// `self` when empty; any position of the same game will do as the buffer); without, only
    /// legality is decided, and no board is written where none is needed (no attribute can
    /// change and the ko rule asks for no board). The steps and their precedence are
    /// `Position::play`'s: the point, the flower's forbidden points (M20-FORBID-UPPER), the
    /// cascade with its suicide refusal (`game::cascade::cascade`), the flower's capture
    /// (M20-FORBID-CAPTURE, D9), ko (`game::cascade::repeats_earlier`).
    pub(super) fn place(
        &self,
        p: usize,
        turn: Turn,
        scratch: &mut Option<FastPosition>,
        play: bool,
    ) -> Result<(), Refusal> {
        self.place_in(p, turn, Buffer::Scratch(scratch), play)
    }

    /// Whether the stone of `turn` may be placed at padded point `p` ([`Self::place`] without
    /// playing), the components' sole bounds read off `bounds` (this position's).
    pub(super) fn legal_with(
        &self,
        p: usize,
        turn: Turn,
        scratch: &mut Option<FastPosition>,
        bounds: Option<&SoleBounds>,
    ) -> bool {
        self.settle(p, turn, Buffer::Scratch(scratch), false, bounds)
            .is_ok()
    }

    /// The position after the stone of `turn` is placed at padded point `p` ([`Self::place`]
    /// played, into a copy of this position).
    pub(super) fn placed(&self, p: usize, turn: Turn) -> Result<FastPosition, Refusal> {
        let mut out = self.clone();
        self.place_in(p, turn, Buffer::Given(&mut out), true)?;
        Ok(out)
    }

    /// [`Self::place`], the board written into `buffer`.
    fn place_in(
        &self,
        p: usize,
        turn: Turn,
        buffer: Buffer<'_>,
        play: bool,
    ) -> Result<(), Refusal> {
        let (settled, mut buffer) = self.settle(p, turn, buffer, play, None)?;
        if play {
            let out = buffer.get_or_clone(self);
            if !settled.analysed
                && !self.update_into(out, p, settled.stone, settled.local, settled.captured)
            {
                out.refresh();
            }
            // M13-FREEZE: the strings frozen on the board the move leaves (grey-freeze: kept).
            if crate::judge::freeze::freezes(&self.rules) {
                let frozen =
                    crate::judge::freeze::frozen_after(&self.rules, &self.an.frozen, &out.board());
                out.an.frozen = Arc::from(frozen);
            }
            self.advance_into(turn, out, false);
            debug_assert_eq!(out.check_consistency(), Ok(()), "after a move at {p}");
        }
        Ok(())
    }

    /// The move of [`Self::place_in`] up to its bookkeeping: the point, the flower's forbidden
    /// points, the cascade, the flower's capture and ko decided, and with `play` the board
    /// after the move written into the buffer (its cells, hash and removed points; its
    /// analysis too where [`Settled::analysed`]). The buffer is handed back.
    pub(super) fn settle<'a>(
        &self,
        p: usize,
        turn: Turn,
        buffer: Buffer<'a>,
        play: bool,
        bounds: Option<&SoleBounds>,
    ) -> Result<(Settled, Buffer<'a>), Refusal> {
        if self.cells[p & MASK] != EMPTY {
            return Err(Refusal::Occupied);
        }
        let stone = match turn.kind {
            StoneKind::Flower => FLOWER,
            StoneKind::Own => colour_code(turn.player),
        };
        if turn.kind == StoneKind::Flower {
            if let Some(f) = flower_forbidden_reason(&self.an, &self.rules, p, turn.player) {
                return Err(Refusal::from(f));
            }
        }
        let plain = self.plain(stone);
        let mut settled = Settled {
            stone,
            analysed: false,
            local: None,
            captured: false,
        };
        if !play && self.legal_at_once(p, stone) {
            return Ok((settled, buffer));
        }
        let fresh = Fresh::at(&self.an, self.geom, p, stone);
        let mut board = Settle {
            before: self,
            out: buffer,
            p,
            stone,
            plain,
            written: false,
            round: Round::Fresh,
            dead: [NONE; 4],
            dead_count: 0,
            stone_dies: false,
            fresh,
            captured: false,
            analysed: false,
            play,
            local: None,
            full: false,
            bounds,
            dead_local: [false; 2],
            dead_points: [Vec::new(), Vec::new()],
            after_local: None,
        };
        // Without `play` the board is written when a round needs it (`Settle::write`).
        if play {
            board.write();
        }
        cascade(&mut board, &self.rules, turn.player)?;
        let captured = board.captured;
        // M20-FORBID-CAPTURE, register D9: a flower whose cascade removes stones is refused.
        if flower_capture_refused(&self.rules, turn, captured) {
            return Err(Refusal::CapturePoint);
        }
        // GO-KO on the resulting board. Without a removal the board gains a stone and cannot be
        // the board before the previous move (which lacks the previous move's stone or, after a
        // pass, is the current board): simple ko needs no board then.
        // A board that differs from the one before the previous move at p is not it: simple ko
        // needs no board then either (the result at p is the stone, or empty where the fresh
        // round removed the stone's own string; a board not written is the fresh round's).
        let ko_board = match self.choices.ko {
            Ko::None => false,
            Ko::Simple => {
                captured
                    && self
                        .last
                        .as_ref()
                        .is_some_and(|(l, _)| l[p & MASK] == board.result_at_p())
            }
            Ko::Positional | Ko::Situational => true,
        };
        if ko_board || play {
            board.write();
        }
        if ko_board {
            let out = board.out();
            if self.repeats(&out.cells, out.hash) {
                return Err(Refusal::Ko);
            }
        }
        settled.analysed = board.analysed;
        settled.local = board.local;
        settled.captured = captured;
        Ok((settled, board.out))
    }

    /// The analysis of the board `out` holds after a move of `stone` at `p` that changed no
    /// flower attribute, updated from this position's instead of recomputed: where no
    /// attribute can change ([`FastPosition::plain`], removals included), the upper strings
    /// and their liberties; where the stone removed nothing and `local` found every attribute
    /// staying, also the lower strings and the private eyes it changes
    /// ([`FastAnalysis::local_change`]). `false` when neither holds (the caller analyses the
    /// board).
    #[inline(never)]
    pub(super) fn update_into(
        &self,
        out: &mut FastPosition,
        p: usize,
        stone: u8,
        local: Option<Local>,
        captured: bool,
    ) -> bool {
        let Some(local) = self
            .updatable(p, stone, local)
            .or_else(|| Self::flips_local(p, local).map(Some))
        else {
            return false;
        };
        self.copy_analysis_into(out);
        let FastPosition {
            an,
            by_flower,
            any_flower,
            cells,
            removed,
            ..
        } = out;
        let removed: &[u16] = if captured { removed } else { &[] };
        update_analysis(
            Held {
                an,
                by_flower,
                any_flower,
            },
            &self.cells,
            cells,
            p,
            local.as_ref(),
            removed,
        )
    }

    /// Whether the analysis after a move of `stone` at `p` is updated rather than recomputed
    /// ([`FastPosition::update_into`]): `Some` where no attribute can change
    /// ([`FastPosition::plain`]) or `local` found every attribute staying, with the local
    /// change to apply, if any; `None` where the board is analysed.
    #[inline]
    pub(super) fn updatable(
        &self,
        p: usize,
        stone: u8,
        local: Option<Local>,
    ) -> Option<Option<Local>> {
        let plain = self.plain(stone) && stone != FLOWER;
        let local = local.filter(|l| l.stays && l.p == p);
        (plain || local.is_some()).then_some(local)
    }

    /// The local decision `local` of a move at `p` that found flower attributes changing and
    /// every changing one listed (`flips_known`), where the cascade ended on its recomputed
    /// round without removing anything more ([`Settle`] keeps it only then): the analysis
    /// after the move is updated from it ([`update_analysis`]) instead of recomputed.
    #[inline]
    pub(super) fn flips_local(p: usize, local: Option<Local>) -> Option<Local> {
        local.filter(|l| l.flips_known && !l.stays && l.p == p)
    }

    /// GO-CASCADE's fixpoint at once: where no attribute can change, every round of the
    /// cascade sees the held upper layer with the stone; when the stone (black, white or a
    /// flower off its forbidden points) leaves no string without liberty there, the cascade
    /// ends removing nothing, and without a removal the simple ko rule asks for no board (see
    /// [`FastPosition::place`]): the move is legal.
    #[inline]
    pub(super) fn legal_at_once(&self, p: usize, stone: u8) -> bool {
        self.plain(stone)
            && matches!(self.choices.ko, Ko::None | Ko::Simple)
            && Fresh::nothing_dies_at(&self.an, self.geom, p, stone)
    }

    /// GO-KO: whether the board `result` (Zobrist hash `hash`) of a move repeats a board the ko
    /// rule forbids ([`repeats_earlier`] over this game's earlier boards): the boards are
    /// compared where the hashes match.
    pub(super) fn repeats(&self, result: &[u8; MAXN], hash: u64) -> bool {
        let ko = self.choices.ko;
        let next = || self.turn_of(self.move_number + 1);
        match ko {
            Ko::Positional | Ko::Situational => repeats_earlier(
                ko,
                earlier_boards(self.earlier.as_ref()),
                |e| i64::from(e.number),
                |e| e.hash == hash && e.cells == *result,
                |m| self.turn_of(m),
                next(),
            ),
            Ko::None | Ko::Simple => repeats_earlier(
                ko,
                self.last.iter(),
                |_| 0,
                |(l, h)| *h == hash && *l == *result,
                |m| self.turn_of(m),
                self.turn,
            ),
        }
    }

    /// The bookkeeping of a move of `turn` whose board (and analysis) `out` already holds: the
    /// earlier boards, the move number, the trailing passes, the Flystone state, the turn.
    pub(super) fn advance_into(&self, turn: Turn, out: &mut FastPosition, pass: bool) {
        match &mut out.last {
            Some((l, h)) => {
                copy_cells(self.geom, l, &self.cells);
                *h = self.hash;
            }
            None => out.last = Some((self.cells, self.hash)),
        }
        out.earlier = matches!(self.choices.ko, Ko::Positional | Ko::Situational).then(|| {
            Arc::new(Earlier {
                cells: self.cells,
                hash: self.hash,
                number: self.move_number,
                prev: self.earlier.clone(),
            })
        });
        (out.move_number, out.trailing_passes, out.flystone) = after_move(
            self.move_number,
            self.trailing_passes,
            self.flystone.as_ref(),
            turn,
            pass,
        );
        out.turn = out.turn_of(out.move_number);
    }

    /// This position's analysis, flower flag and per-string flower marks into `out` (a
    /// position of the same game): [`FastAnalysis::copy_from`], the marks up to the number of
    /// lower strings (a higher number is written before it is read, as there).
    pub(super) fn copy_analysis_into(&self, out: &mut FastPosition) {
        out.an.copy_from(&self.an);
        out.any_flower = self.any_flower;
        let l = self.an.lower_count.min(MAXS);
        out.by_flower[..l].copy_from_slice(&self.by_flower[..l]);
    }

    /// GO-PASS: a pass of `turn` into `out`.
    pub(super) fn pass_into(&self, turn: Turn, out: &mut FastPosition) {
        copy_cells(self.geom, &mut out.cells, &self.cells);
        out.hash = self.hash;
        self.copy_analysis_into(out);
        self.advance_into(turn, out, true);
        debug_assert_eq!(out.check_consistency(), Ok(()), "after a pass");
    }
}

/// What a position holds of its board besides the cells, as an update writes it: the analysis,
/// the per-string flower marks and the flower flag.
pub(super) struct Held<'a> {
    pub(super) an: &'a mut FastAnalysis,
    pub(super) by_flower: &'a mut [bool; MAXS],
    pub(super) any_flower: &'a mut bool,
}

/// The update of [`FastPosition::update_into`] on the analysis `held` (with its per-string flower
/// marks and flower flag) of the board `before`, the board now `after` (the stone at `p`, the
/// points `removed` emptied): the local change, if any, then the upper strings. `false` when
/// the upper strings cannot be updated (the caller analyses the board; `an` is then partly
/// written).
pub(super) fn update_analysis(
    held: Held<'_>,
    before: &[u8; MAXN],
    after: &[u8; MAXN],
    p: usize,
    local: Option<&Local>,
    removed: &[u16],
) -> bool {
    let Held {
        an,
        by_flower,
        any_flower,
    } = held;
    if let Some(l) = local {
        an.apply_local(after, l, removed);
        if !l.stays {
            an.apply_flips(l);
        }
        if l.is_flower() {
            for &s in l.touched() {
                by_flower[s as usize] = true;
            }
            *any_flower = true;
        } else {
            by_flower[l.j as usize] = l.j_by_flower;
        }
    }
    match local {
        Some(l) if !l.stays => an.flip_upper(after, l, removed),
        _ => an.upper_update(before, after, p, removed),
    }
}

/// A bound of [`SoleBounds`] not known: an x-stone next to the component has no lower string.
const UNKNOWN: u16 = NONE - 1;

/// For each colour x (black, white), the components of S_x (the points that are neither
/// x-stones, flowers nor the frame) of one position and each component's sole bounding x-string:
/// the string, [`NONE`] when none or two or more bound it, [`UNKNOWN`] when an x-stone next to
/// it has no lower string. What [`FastPosition::attributes_stay`] floods at one point, for every
/// point at once: the last level of perft and the legal-move list ask it at every empty point
/// of the same position.
pub(super) struct SoleBounds {
    comp: [[u16; MAXN]; 2],
    bound: [Vec<u16>; 2],
}

impl SoleBounds {
    /// The table of `pos`, where [`FastPosition::attributes_stay`] reads components at all
    /// (else `None`).
    pub(super) fn of(pos: &FastPosition) -> Option<SoleBounds> {
        if !pos.local_attributes() || !pos.an.eyes_done || !pos.any_flower {
            return None;
        }
        let dirs = pos.geom.dirs();
        let mut t = SoleBounds {
            comp: [[NONE; MAXN]; 2],
            bound: [Vec::new(), Vec::new()],
        };
        let mut stack = Vec::with_capacity(MAXS);
        for (i, x) in [BLACK, WHITE].into_iter().enumerate() {
            let o = opp(x);
            let inside = |v: u8| v == EMPTY || v == o;
            for start in pos.geom.points() {
                let start = start & MASK;
                if !inside(pos.cells[start]) || t.comp[i][start] != NONE {
                    continue;
                }
                let id = t.bound[i].len() as u16;
                let mut bound = NONE;
                let mut two = false;
                t.comp[i][start] = id;
                stack.clear();
                stack.push(start);
                while let Some(q) = stack.pop() {
                    for d in dirs {
                        let m = q.wrapping_add(d) & MASK;
                        let v = pos.cells[m];
                        if v == x {
                            match pos.an.lower_of[m] {
                                NONE => bound = UNKNOWN,
                                _ if bound == UNKNOWN || two => {}
                                s if bound == NONE => bound = s,
                                s if s != bound => two = true,
                                _ => {}
                            }
                        } else if inside(v) && t.comp[i][m] == NONE {
                            t.comp[i][m] = id;
                            stack.push(m);
                        }
                    }
                }
                t.bound[i].push(if two && bound != UNKNOWN { NONE } else { bound });
            }
        }
        Some(t)
    }
}

/// The board `src` into `dst`, both boards of `geom`: the points up to the last padded one
/// (`w * w`); the cells above it are the frame's in every board of the geometry
/// ([`padded_cells`](super::analysis::padded_cells) writes them, nothing else does).
#[inline]
pub(super) fn copy_cells(geom: Geom, dst: &mut [u8; MAXN], src: &[u8; MAXN]) {
    let n = (geom.w * geom.w).min(MAXN);
    dst[..n].copy_from_slice(&src[..n]);
}

/// Where a [`Settle`] writes the board after the move.
pub(super) enum Buffer<'a> {
    /// A scratch position, cloned from the position before the move when it is first written
    /// (a position of the same game, reused, will do).
    Scratch(&'a mut Option<FastPosition>),
    /// A position given (a copy of the position before the move).
    Given(&'a mut FastPosition),
}

impl Buffer<'_> {
    /// The position, if there is one yet.
    pub(super) fn get(&self) -> Option<&FastPosition> {
        match self {
            Buffer::Scratch(s) => s.as_ref(),
            Buffer::Given(o) => Some(o),
        }
    }

    /// The position, a scratch one cloned from `before` when there is none yet.
    pub(super) fn get_or_clone(&mut self, before: &FastPosition) -> &mut FastPosition {
        match self {
            Buffer::Scratch(s) => s.get_or_insert_with(|| before.clone()),
            Buffer::Given(o) => o,
        }
    }
}

/// What [`FastPosition::settle`] decided of a legal move besides the board it wrote.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settled {
    /// The stone placed (black, white or a flower).
    pub(super) stone: u8,
    /// Whether the buffer's analysis is the recomputed analysis of the board after the move.
    pub(super) analysed: bool,
    /// What the stone changes where every attribute stays ([`FastAnalysis::local_change`]).
    pub(super) local: Option<Local>,
    /// Whether the cascade removed stones.
    pub(super) captured: bool,
}

/// Where a [`Settle`] stands in the cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Round {
    /// Nothing removed yet, and the board is the one before the move plus the stone, seen with
    /// the held attributes (or, where no attribute can change, either way): its upper strings
    /// are those of the analysis before the move, the stone's neighbours changed.
    Fresh,
    /// Stones were removed since the last analysis.
    Removed,
    /// The recomputed round where the local decision found flower attributes changing: which
    /// colours have a string without liberty ([`Settle::dead`]), read off the held analysis at
    /// the strings the change touches ([`FastAnalysis::without_liberty_after`]); no board was
    /// analysed. A removal analyses the board first.
    Local,
    /// `out.an` holds the analysis of `out.cells` (held or recomputed).
    Full,
}

/// The fast board as the cascade settles it ([`CascadeBoard`]): the position before the move
/// and the stone at `p`. The first, held round is read off the analysis before the move at the
/// stone's neighbours (no board is analysed); where no attribute can change ([`FastPosition::plain`])
/// the rounds after a removal have nothing left without liberty (a removal only frees points
/// next to the strings that took them), so a plain move is settled without any analysis.
/// Otherwise each round analyses `out`.
struct Settle<'a, 'b, 'c> {
    before: &'a FastPosition,
    out: Buffer<'b>,
    p: usize,
    stone: u8,
    plain: bool,
    /// Whether `out.cells` holds the board (else it is described by `dead` and `stone_dies`).
    written: bool,
    round: Round,
    /// The strings of `before.an` removed in the fresh round.
    dead: [u16; 4],
    dead_count: usize,
    /// Whether the fresh round removed the stone's own string (suicide allowed).
    stone_dies: bool,
    /// The fresh round's strings without liberty.
    fresh: Fresh,
    captured: bool,
    /// Whether `out.an` is the recomputed analysis of the board.
    analysed: bool,
    /// Whether the move is played (else only its legality is decided).
    play: bool,
    /// What the stone changes where the fresh round found every attribute staying
    /// ([`FastAnalysis::local_change`]).
    local: Option<Local>,
    /// Whether a board was analysed (then the removals since are not the fresh round's).
    full: bool,
    /// The sole bounds of the components of `before`, where known ([`SoleBounds`]).
    bounds: Option<&'c SoleBounds>,
    /// In [`Round::Local`]: whether a black and whether a white string is without liberty.
    dead_local: [bool; 2],
    /// In [`Round::Local`]: the points of the black and of the white strings without liberty.
    dead_points: [Vec<u16>; 2],
    /// After [`Round::Local`] removed opponent strings of black or white stones only: its local
    /// decision and how many points `out.removed` held before that removal (the fresh round's).
    after_local: Option<(Local, usize)>,
}

impl Settle<'_, '_, '_> {
    /// What the stone changes on the board as written (the fresh round, with the opponent
    /// strings it removed, if any), where the rules let the eyes and attributes be decided
    /// locally: not after a suicide, a removed flower or an analysed board.
    #[inline(never)]
    fn local_change(&self) -> Option<Local> {
        let before = self.before;
        if !before.local_attributes() || !self.written || self.stone_dies || self.full {
            return None;
        }
        let out = self.out.get()?;
        if out
            .removed
            .iter()
            .any(|&q| before.cells[q as usize & MASK] == FLOWER)
        {
            return None;
        }
        before.an.local_change(
            &before.cells,
            &out.cells,
            self.p,
            self.stone,
            before.choices.attribute,
            &out.removed,
        )
    }

    /// Writes the board and analyses it, held or recomputed.
    #[inline(never)]
    fn analyse_board(&mut self, held: bool) {
        // A local decision whose attributes change describes the board before this analysis.
        if self.local.is_some_and(|l| !l.stays) {
            self.local = None;
        }
        self.write();
        let before = self.before;
        let out = self.out();
        if held {
            out.an.run_held(&out.cells, &before.an);
        } else {
            out.refresh();
        }
        self.analysed = !held;
        self.full = true;
        self.round = Round::Full;
    }

    fn out(&mut self) -> &mut FastPosition {
        self.out.get_or_clone(self.before)
    }

    /// The round after [`Round::Local`] removed opponent strings, analysed without the whole
    /// board: the analysis after the stone updated from the local decision (as
    /// [`FastPosition::update_into`] does when nothing is removed), then the removal decided
    /// locally ([`FastAnalysis::local_removal`]) and applied. `true` when `out.an` is then the
    /// analysis of `out.cells` (the round is [`Round::Full`]); `false` when the board must be
    /// analysed (notes/incremental.md, "A removal after a flipped attribute").
    #[inline(never)]
    fn analyse_after_local(&mut self) -> bool {
        let Some((l, r0)) = self.after_local.take() else {
            return false;
        };
        let before = self.before;
        let stone = self.stone;
        let rule = before.choices.attribute;
        let out = self.out();
        if out.removed.len() <= r0 {
            return false;
        }
        // The board after the stone and the fresh round, before the local round's removal.
        let mut mid = out.cells;
        for &q in &out.removed[r0..] {
            mid[q as usize & MASK] = opp(stone);
        }
        before.copy_analysis_into(out);
        let FastPosition {
            an,
            by_flower,
            cells,
            removed,
            ..
        } = out;
        let (fresh, taken) = removed.split_at(r0);
        // The lower layer and attributes after the stone (`update_analysis` without its upper
        // layer, which is updated once below).
        an.apply_local(&mid, &l, fresh);
        an.apply_flips(&l);
        by_flower[l.j as usize] = l.j_by_flower;
        let Some(r) = an.local_removal(&mid, cells, taken, rule) else {
            return false;
        };
        if !an.apply_removal(cells, &l, &r, removed, taken) {
            return false;
        }
        self.analysed = true;
        self.full = true;
        self.round = Round::Full;
        true
    }

    /// The cell of the resulting board at `p`: `out.cells`' once written, else the fresh
    /// round's (the stone, or empty if its own string was removed).
    fn result_at_p(&self) -> u8 {
        match self.out.get() {
            Some(out) if self.written => out.cells[self.p & MASK],
            _ if self.stone_dies => EMPTY,
            _ => self.stone,
        }
    }

    /// Writes the board into `out.cells` (once).
    fn write(&mut self) {
        if self.written {
            return;
        }
        self.written = true;
        let before = self.before;
        let (p, stone) = (self.p, self.stone);
        let dead = self.dead;
        let (k, stone_dies) = (self.dead_count, self.stone_dies);
        let out = self.out();
        copy_cells(before.geom, &mut out.cells, &before.cells);
        // M13-FREEZE: the strings frozen before the move keep their attribute in every round.
        out.an.frozen.clone_from(&before.an.frozen);
        out.cells[p & MASK] = stone;
        out.hash = before.hash ^ zobrist(p, stone);
        out.removed.clear();
        if k > 0 || stone_dies {
            // The strings removed in the fresh round are next to p: flooded from p's
            // neighbours, each point emptied as it is listed (no scan of the board).
            let an = &before.an;
            let dirs = before.geom.dirs();
            let mut i = 0;
            let mut from = p;
            loop {
                for d in dirs {
                    let m = from.wrapping_add(d) & MASK;
                    let s = an.upper_of[m];
                    if s != NONE && out.cells[m] != EMPTY && dead[..k].contains(&s) {
                        out.hash ^= zobrist(m, out.cells[m]);
                        out.cells[m] = EMPTY;
                        out.removed.push(m as u16);
                    }
                }
                let Some(&q) = out.removed.get(i) else {
                    break;
                };
                from = q as usize;
                i += 1;
            }
            if stone_dies {
                out.hash ^= zobrist(p, stone);
                out.cells[p & MASK] = EMPTY;
            }
        }
    }

    /// The fresh round's strings of `colour` without liberty and whether the stone's own
    /// string is among them.
    #[inline]
    fn fresh_dead(&self, colour: u8) -> ([u16; 4], usize, bool) {
        let f = &self.fresh;
        if colour == self.stone {
            if f.own_dies {
                (f.own, f.own_count, true)
            } else {
                ([NONE; 4], 0, false)
            }
        } else {
            let c = usize::from(colour == WHITE);
            (f.other[c], f.other_count[c], false)
        }
    }
}

/// The strings without liberty in the fresh round, read off the analysis before the move at
/// the stone's neighbours: a neighbouring string of another colour than the stone whose only
/// liberty the stone took; the stone's own string (the stone and its neighbours of its
/// colour) when neither an empty neighbour nor a neighbouring string of its colour with
/// another liberty is left. A flower (neutral there) is no string.
#[derive(Clone, Copy, Debug)]
struct Fresh {
    /// Per colour (black, white) other than the stone's: the strings in atari at the point.
    other: [[u16; 4]; 2],
    other_count: [usize; 2],
    /// The neighbouring strings of the stone's colour, and whether its string has no liberty.
    own: [u16; 4],
    own_count: usize,
    own_dies: bool,
}

impl Fresh {
    /// Whether no string is without liberty in the fresh round (what [`Fresh::at`] would
    /// find, without listing the strings): the stone keeps an empty neighbour or a
    /// neighbouring string of its colour with another liberty, and takes no other string's
    /// last liberty.
    #[inline]
    fn nothing_dies_at(an: &FastAnalysis, geom: Geom, p: usize, stone: u8) -> bool {
        let mut liberty = stone != BLACK && stone != WHITE;
        for d in geom.dirs() {
            let m = p.wrapping_add(d) & MASK;
            match an.upper[m] {
                EMPTY => liberty = true,
                v @ (BLACK | WHITE) => {
                    let libs = an.upper_libs[an.upper_of[m] as usize];
                    if v != stone && libs == 1 {
                        return false;
                    }
                    if v == stone && libs >= 2 {
                        liberty = true;
                    }
                }
                _ => {}
            }
        }
        liberty
    }

    #[inline]
    fn at(an: &FastAnalysis, geom: Geom, p: usize, stone: u8) -> Fresh {
        let mut f = Fresh {
            other: [[NONE; 4]; 2],
            other_count: [0; 2],
            own: [NONE; 4],
            own_count: 0,
            own_dies: stone == BLACK || stone == WHITE,
        };
        for d in geom.dirs() {
            let m = p.wrapping_add(d) & MASK;
            let v = an.upper[m];
            if v == EMPTY {
                f.own_dies = false;
                continue;
            }
            if v != BLACK && v != WHITE {
                continue;
            }
            let s = an.upper_of[m];
            let libs = an.upper_libs[s as usize];
            if v == stone {
                if libs >= 2 {
                    f.own_dies = false;
                } else if !f.own[..f.own_count].contains(&s) {
                    f.own[f.own_count] = s;
                    f.own_count += 1;
                }
            } else if libs == 1 {
                let c = usize::from(v == WHITE);
                if !f.other[c][..f.other_count[c]].contains(&s) {
                    f.other[c][f.other_count[c]] = s;
                    f.other_count[c] += 1;
                }
            }
        }
        f
    }
}

impl CascadeBoard for Settle<'_, '_, '_> {
    #[inline]
    fn analyse(&mut self, held: bool) {
        // After the local round's removal of opponent strings: decided locally where it can be
        // (else, the board analysed below).
        if self.round == Round::Removed
            && !held
            && self.after_local.is_some()
            && self.analyse_after_local()
        {
            return;
        }
        match self.round {
            Round::Fresh | Round::Removed if self.plain => return,
            Round::Fresh if held => return,
            // Recomputed, the upper layer would be the held one: the fresh answers stand.
            Round::Fresh
                if !self.play && self.before.attributes_stay(self.p, self.stone, self.bounds) =>
            {
                return
            }
            // The fresh round's removal on the held layer: every string of the colour without
            // liberty there went, the others lost no liberty and the stone's string gained the
            // removed points next to it, so no string is without liberty on the held layer
            // (notes/incremental.md, "Removals").
            Round::Removed if held && !self.full => return,
            Round::Fresh | Round::Removed if !self.full => {
                self.write();
                if let Some(l) = self.local_change() {
                    if l.stays {
                        self.local = Some(l);
                        return;
                    }
                    // Attributes change: the recomputed round's question (a string without
                    // liberty?) answered at the strings the change touches.
                    if l.flips_known {
                        if let Some(out) = self.out.get() {
                            self.dead_local = self.before.an.without_liberty_after(
                                &out.cells,
                                &l,
                                &out.removed,
                                &mut self.dead_points,
                            );
                            self.round = Round::Local;
                            // Kept for the update after the move, if the cascade ends here.
                            self.local = Some(l);
                            return;
                        }
                    }
                }
            }
            _ => {}
        }
        self.analyse_board(held);
    }

    #[inline]
    fn any_without_liberty(&self, colour: crate::board::grid::Colour) -> bool {
        let c = colour_code(colour);
        match self.round {
            Round::Fresh => {
                let (_, k, own) = self.fresh_dead(c);
                k > 0 || own
            }
            Round::Removed => false,
            Round::Local => self.dead_local[usize::from(c == WHITE)],
            Round::Full => self.out.get().is_some_and(|o| {
                let an = &o.an;
                (0..an.upper_count).any(|s| an.upper_colour[s] == c && an.upper_libs[s] == 0)
            }),
        }
    }

    fn remove_without_liberty(&mut self, colour: crate::board::grid::Colour) {
        let c = colour_code(colour);
        self.captured = true;
        let local = self.local.take();
        // The local round flooded every string without liberty of the recomputed layer
        // (`FastAnalysis::without_liberty_after`): those of the colour are emptied, as the
        // analysed round below would empty them. The removed strings need not be next to p,
        // which the local decision's argument for removals assumes: the next round is decided
        // by `analyse_after_local` where they are opponent strings of stones only, else the
        // board is analysed (`full`).
        if self.round == Round::Local {
            let points = std::mem::take(&mut self.dead_points[usize::from(c == WHITE)]);
            let p = self.p & MASK;
            let stone = self.stone;
            let out = self.out();
            let after_local = local
                .filter(|_| {
                    (stone == BLACK || stone == WHITE)
                        && c == opp(stone)
                        && points.iter().all(|&q| out.cells[q as usize & MASK] == c)
                })
                .map(|l| (l, out.removed.len()));
            for q in points {
                let q = q as usize & MASK;
                out.hash ^= zobrist(q, out.cells[q]);
                out.cells[q] = EMPTY;
                if q != p {
                    out.removed.push(q as u16);
                }
            }
            self.analysed = false;
            self.full = true;
            self.round = Round::Removed;
            self.after_local = after_local;
            return;
        }
        match self.round {
            Round::Fresh => {
                let (dead, k, own) = self.fresh_dead(c);
                let written = self.written;
                self.written = false;
                self.dead = dead;
                self.dead_count = k;
                self.stone_dies = own;
                if written {
                    self.write();
                }
            }
            Round::Full => {
                let geom = self.before.geom;
                let p = self.p;
                let out = self.out();
                for q in geom.points() {
                    let s = out.an.upper_of[q & MASK];
                    if s != NONE
                        && out.an.upper_colour[s as usize] == c
                        && out.an.upper_libs[s as usize] == 0
                    {
                        out.hash ^= zobrist(q, out.cells[q & MASK]);
                        out.cells[q & MASK] = EMPTY;
                        if q & MASK != p & MASK {
                            out.removed.push(q as u16);
                        }
                    }
                }
                self.analysed = false;
            }
            Round::Removed | Round::Local => {}
        }
        self.round = Round::Removed;
    }
}

/// The upper layer of the fast engine with its strings, for the emergency conversion's
/// condition P ([`conversion_ataris`](crate::game::cascade::conversion_ataris)): padded points.
impl UpperStrings for FastAnalysis {
    fn strings_in_atari(&self, colour: crate::board::grid::Colour) -> Vec<(Vec<usize>, usize)> {
        let c = colour_code(colour);
        (0..self.upper_count)
            .filter(|&s| self.upper_colour[s] == c && self.upper_libs[s] == 1)
            .map(|s| {
                let points = self
                    .geom
                    .points()
                    .filter(|&p| self.upper_of[p & MASK] == s as u16)
                    .collect();
                (points, self.upper_lib[s] as usize)
            })
            .collect()
    }
}
