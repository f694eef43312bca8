//! [`FastPosition`]: a position on the fast engine (play, legal moves, special moves, perft,
//! random games). The rules of a move are not written here: the turn and the end of the game
//! are `game::order`'s ([`game_turn`], [`game_over_in`], [`FlystoneState::after`]), the flower's
//! forbidden points `judge::forbidden`'s, the capture cascade, the ko rules and the emergency
//! conversion's condition P `game::cascade`'s, each over this engine's board.

use super::analysis::padded_cells;
use super::incremental::Local;
use super::*;
use crate::board::grid::{Board, Stone};
use crate::game::cascade::{
    cascade, conversion_ataris, conversion_q, flower_capture_refused, repeats_earlier,
    CascadeBoard, UpperStrings,
};
use crate::game::moves::Action;
use crate::game::order::{
    after_move, chosen_flystones_left, game_over_in, game_turn, FlystoneState, Kind, Turn,
};
use crate::judge::forbidden::{flower_forbidden_reason, is_one_liberty_eye};
use std::sync::Arc;

/// Why the fast path refuses a move: the reference's reasons.
pub use crate::game::refusal::Refusal;

/// An earlier board of the game (positional and situational ko): its cells, a hash of them,
/// the number of the move played on it, and the board before it.
#[derive(Debug)]
struct Earlier {
    cells: [u8; MAXN],
    hash: u64,
    number: u32,
    prev: Option<Arc<Earlier>>,
}

/// The earlier boards, newest first.
fn earlier_boards(mut e: Option<&Arc<Earlier>>) -> impl Iterator<Item = &Earlier> {
    std::iter::from_fn(move || {
        let here = e?;
        e = here.prev.as_ref();
        Some(here.as_ref())
    })
}

/// The Zobrist keys (GO-KO's board comparisons, positional and situational): one random key per
/// padded point and stone (black, white, flower), SplitMix64 from a fixed seed, built at compile
/// time. The hash of a board is the XOR of the keys of its stones, kept as stones are placed and
/// removed; a match is confirmed by comparing the boards.
static ZOBRIST: [[u64; MAXN]; 3] = {
    let mut t = [[0u64; MAXN]; 3];
    let mut state = 0x6d33_676f_2023_u64;
    let mut v = 0;
    while v < 3 {
        let mut p = 0;
        while p < MAXN {
            // SplitMix64 (game::order::splitmix64), written out: a const item calls no fn of
            // another module that is not const.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[v][p] = z ^ (z >> 31);
            p += 1;
        }
        v += 1;
    }
    t
};

/// The Zobrist key of cell value `v` at padded point `p` (0 for an empty point or the frame).
#[inline]
fn zobrist(p: usize, v: u8) -> u64 {
    match v {
        BLACK | WHITE | FLOWER => ZOBRIST[usize::from(v - 1)][p & MASK],
        _ => 0,
    }
}

/// The Zobrist hash of a whole board, from scratch.
fn board_hash(geom: Geom, cells: &[u8; MAXN]) -> u64 {
    geom.points()
        .fold(0, |h, p| h ^ zobrist(p, cells[p & MASK]))
}

/// A position on the fast path: the direct board, the earlier boards the ko rule needs, the
/// move number, the trailing passes, the Flystone state and the analysis of the board.
#[derive(Clone, Debug)]
pub struct FastPosition {
    rules: Rules,
    choices: Choices,
    geom: Geom,
    cells: [u8; MAXN],
    /// The Zobrist hash of `cells` ([`board_hash`]), kept as stones are placed and removed.
    hash: u64,
    /// The board before the previous move, if there was a previous move, with its hash.
    last: Option<([u8; MAXN], u64)>,
    /// Every earlier board, newest first, under positional and situational ko (else `None`).
    earlier: Option<Arc<Earlier>>,
    move_number: u32,
    trailing_passes: u32,
    /// The Flystone state (random timings, flystones thrown) under the `flystone` schedule.
    flystone: Option<FlystoneState>,
    /// The turn of the next move.
    turn: Turn,
    /// Whether a flower stone stands on the board (else the upper layer is the direct board).
    any_flower: bool,
    an: FastAnalysis,
    /// Per lower string of `an`: whether it touches a flower (kept where
    /// [`FastPosition::local_attributes`] holds; else all `false`).
    by_flower: [bool; MAXS],
    /// An empty board of the size, to write the direct board back.
    blank: Board,
    /// The points the move being settled into this position removed (scratch of
    /// [`FastPosition::place`], kept to keep its capacity; `p`, the stone's own point, is not
    /// listed).
    removed: Vec<u16>,
}

impl FastPosition {
    /// The fast form of a position given as its parts: the rules, the direct board, the earlier
    /// boards (oldest first, the last one the board before the previous move), the number of
    /// the next move, the trailing passes and the Flystone state (`None` under other
    /// schedules). `None` when [`supports`] refuses the rules.
    pub fn from_state(
        rules: &Rules,
        board: &Board,
        history: &[Board],
        move_number: u32,
        trailing_passes: u32,
        flystone: Option<FlystoneState>,
    ) -> Option<FastPosition> {
        if !supports(rules) {
            return None;
        }
        let geom = Geom {
            size: board.size(),
            w: board.size() + 2,
        };
        let cells = padded_cells(board, geom);
        let mut earlier = None;
        if matches!(rules.ko, Ko::Positional | Ko::Situational) {
            let len = history.len() as i64;
            for (j, b) in history.iter().enumerate() {
                let c = padded_cells(b, geom);
                let number = i64::from(move_number) - (len - j as i64);
                earlier = Some(Arc::new(Earlier {
                    cells: c,
                    hash: board_hash(geom, &c),
                    // A board before move 1 or earlier never matches a situational turn.
                    number: u32::try_from(number).unwrap_or(0),
                    prev: earlier,
                }));
            }
        }
        let flystone = flystone.filter(|_| rules.schedule == Schedule::Flystone);
        let mut fp = FastPosition {
            rules: rules.clone(),
            choices: Choices::of(rules),
            geom,
            cells,
            hash: board_hash(geom, &cells),
            last: history.last().map(|b| {
                let c = padded_cells(b, geom);
                (c, board_hash(geom, &c))
            }),
            earlier,
            move_number,
            trailing_passes,
            turn: game_turn(rules, flystone.as_ref(), move_number),
            flystone,
            any_flower: false,
            an: FastAnalysis::empty(geom, rules),
            by_flower: [false; MAXS],
            blank: board.clone(),
            removed: Vec::new(),
        };
        for i in 0..fp.blank.len() {
            fp.blank.set(i, None);
        }
        fp.refresh();
        Some(fp)
    }

    /// Analyses `cells` under the rules into `an`.
    fn analyse_into(an: &mut FastAnalysis, cells: &[u8; MAXN], choices: Choices) {
        an.run(cells, choices.attribute, false);
    }

    fn refresh(&mut self) {
        self.any_flower = self.geom.points().any(|p| self.cells[p & MASK] == FLOWER);
        Self::analyse_into(&mut self.an, &self.cells, self.choices);
        self.by_flower.fill(false);
        if self.any_flower && self.local_attributes() && self.an.eyes_done {
            let an = &self.an;
            for p in self.geom.points() {
                if self.cells[p & MASK] != FLOWER {
                    continue;
                }
                for d in self.geom.dirs() {
                    let s = an.lower_of[p.wrapping_add(d) & MASK];
                    if s != NONE {
                        self.by_flower[s as usize] = true;
                    }
                }
            }
        }
    }

    /// The consistency check, in the spirit of KataGo's `checkConsistency`: everything this
    /// position holds besides the board — its Zobrist hash, the flower flag, the analysis
    /// (lower strings and their private eyes, flower attributes, the upper layer, its strings
    /// and liberties), the per-string flower marks and the turn — recomputed from the board
    /// from scratch and compared; the first difference is named. String numbers may differ
    /// (the partition into strings must not). Run under `debug_assert!` after every move and
    /// pass, so the test build and the fuzz builds with debug assertions check each one.
    pub fn check_consistency(&self) -> Result<(), String> {
        let geom = self.geom;
        let name = |p: usize| crate::board::coord::point_of(geom.size, geom.unpad(p)).to_string();
        if board_hash(geom, &self.cells) != self.hash {
            return Err("the Zobrist hash is not the board's".into());
        }
        if let Some((l, h)) = &self.last {
            if board_hash(geom, l) != *h {
                return Err("the hash of the board before the previous move is not its".into());
            }
        }
        for e in earlier_boards(self.earlier.as_ref()) {
            if board_hash(geom, &e.cells) != e.hash {
                return Err(format!(
                    "the hash of the earlier board of move {} is not its",
                    e.number
                ));
            }
        }
        if self.turn != self.turn_of(self.move_number) {
            return Err(format!(
                "the turn of move {} is not the schedule's",
                self.move_number
            ));
        }
        let mut fresh = self.clone();
        fresh.refresh();
        if fresh.any_flower != self.any_flower {
            return Err("the flower flag is not the board's".into());
        }
        let (a, f) = (&self.an, &fresh.an);
        if f.eyes_done && !a.eyes_done {
            return Err("the private eyes are not computed, and the attributes need them".into());
        }
        // The partition into strings: a bijection between the held and the fresh numbers.
        let mut upper_map = std::collections::HashMap::new();
        let mut lower_map = std::collections::HashMap::new();
        for p in geom.points() {
            let p = p & MASK;
            if self.cells[p] == BORDER {
                continue;
            }
            if a.upper[p] != f.upper[p] {
                return Err(format!("the upper layer at {}", name(p)));
            }
            if (a.upper_of[p] == NONE) != (f.upper_of[p] == NONE) {
                return Err(format!("the upper string through {}", name(p)));
            }
            if a.upper_of[p] != NONE {
                let (sa, sf) = (a.upper_of[p] as usize, f.upper_of[p] as usize);
                if *upper_map.entry(sa).or_insert(sf) != sf {
                    return Err(format!(
                        "the upper string through {} is not one string",
                        name(p)
                    ));
                }
                if a.upper_libs[sa] != f.upper_libs[sf] || a.upper_colour[sa] != f.upper_colour[sf]
                {
                    return Err(format!(
                        "the upper string through {}: {} liberties held, {} on the board",
                        name(p),
                        a.upper_libs[sa],
                        f.upper_libs[sf]
                    ));
                }
                if f.upper_libs[sf] == 1 && a.upper_lib[sa] != f.upper_lib[sf] {
                    return Err(format!(
                        "the single liberty of the upper string through {}",
                        name(p)
                    ));
                }
            }
            let (fa, ff) = (a.flower_of[p], f.flower_of[p]);
            if (fa == NONE) != (ff == NONE)
                || (fa != NONE && a.flower_attr[fa as usize] != f.flower_attr[ff as usize])
            {
                return Err(format!("the flower attribute at {}", name(p)));
            }
            if f.eyes_done {
                if (a.lower_of[p] == NONE) != (f.lower_of[p] == NONE) {
                    return Err(format!("the lower string through {}", name(p)));
                }
                if a.lower_of[p] != NONE {
                    let (sa, sf) = (a.lower_of[p] as usize, f.lower_of[p] as usize);
                    if *lower_map.entry(sa).or_insert(sf) != sf {
                        return Err(format!(
                            "the lower string through {} is not one string",
                            name(p)
                        ));
                    }
                    if a.has_eye[sa] != f.has_eye[sf] {
                        return Err(format!(
                            "the private eye of the string through {}: {} held, {} on the board",
                            name(p),
                            a.has_eye[sa],
                            f.has_eye[sf]
                        ));
                    }
                    if self.by_flower[sa] != fresh.by_flower[sf] {
                        return Err(format!(
                            "whether the string through {} touches a flower",
                            name(p)
                        ));
                    }
                }
            }
        }
        // Two held strings may not be one fresh string.
        let distinct = |m: &std::collections::HashMap<usize, usize>| {
            let mut v: Vec<usize> = m.values().copied().collect();
            let n = v.len();
            v.sort_unstable();
            v.dedup();
            v.len() == n
        };
        if !distinct(&upper_map) || !distinct(&lower_map) {
            return Err("two held strings are one string on the board".into());
        }
        Ok(())
    }

    /// Whether the rules decide private eyes per component of S_c (the closed form of the
    /// 2020 eye with single-string regions, see the module documentation) and attributes from
    /// the counts of the neighbouring lower strings: then a stone changes only the eyes of the
    /// strings next to the components through its point ([`FastPosition::attributes_stay`]).
    fn local_attributes(&self) -> bool {
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
    fn attributes_stay(&self, p: usize, stone: u8) -> bool {
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

    /// The Flystone state (under the `flystone` schedule).
    pub fn flystone(&self) -> Option<&FlystoneState> {
        self.flystone.as_ref()
    }

    /// The turn of the next move.
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The turn of move `n` of this game ([`game_turn`]).
    fn turn_of(&self, n: u32) -> Turn {
        game_turn(&self.rules, self.flystone.as_ref(), n)
    }

    /// Whether the game is over by passes ([`game_over_in`], GO-END).
    pub fn game_over(&self) -> bool {
        game_over_in(
            &self.rules,
            self.flystone.as_ref(),
            self.move_number,
            self.trailing_passes,
        )
    }

    /// Whether no flower attribute can change whatever is played with `stone` (no flower on
    /// the board and none placed, or every flower neutral by rule): the upper layer is then the
    /// direct board with the flowers off-board, held or recomputed.
    fn plain(&self, stone: u8) -> bool {
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
    fn place(
        &self,
        p: usize,
        turn: Turn,
        scratch: &mut Option<FastPosition>,
        play: bool,
    ) -> Result<(), Refusal> {
        if self.cells[p & MASK] != EMPTY {
            return Err(Refusal::Occupied);
        }
        let stone = match turn.kind {
            Kind::Flower => FLOWER,
            Kind::Own => colour_code(turn.player),
        };
        if turn.kind == Kind::Flower {
            if let Some(f) = flower_forbidden_reason(&self.an, &self.rules, p, turn.player) {
                return Err(Refusal::from(f));
            }
        }
        let plain = self.plain(stone);
        if !play && self.legal_at_once(p, stone) {
            return Ok(());
        }
        let fresh = Fresh::at(&self.an, self.geom, p, stone);
        let mut board = Settle {
            before: self,
            out: scratch,
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
        };
        if play || !plain {
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
        let ko_board = match self.choices.ko {
            Ko::None => false,
            Ko::Simple => captured && self.last.is_some(),
            Ko::Positional | Ko::Situational => true,
        };
        if ko_board || play {
            board.write();
        }
        let analysed = board.analysed;
        let local = board.local;
        if ko_board {
            let out = scratch.as_ref().unwrap_or_else(|| unreachable!());
            if self.repeats(&out.cells, out.hash) {
                return Err(Refusal::Ko);
            }
        }
        if play {
            let out = scratch.get_or_insert_with(|| self.clone());
            if !analysed && !self.update_into(out, p, stone, local, captured) {
                out.refresh();
            }
            self.advance_into(turn, out, false);
            debug_assert_eq!(out.check_consistency(), Ok(()), "after a move at {p}");
        }
        Ok(())
    }

    /// The analysis of the board `out` holds after a move of `stone` at `p` that changed no
    /// flower attribute, updated from this position's instead of recomputed: where no
    /// attribute can change ([`FastPosition::plain`], removals included), the upper strings
    /// and their liberties; where the stone removed nothing and `local` found every attribute
    /// staying, also the lower strings and the private eyes it changes
    /// ([`FastAnalysis::local_change`]). `false` when neither holds (the caller analyses the
    /// board).
    #[inline(never)]
    fn update_into(
        &self,
        out: &mut FastPosition,
        p: usize,
        stone: u8,
        local: Option<Local>,
        captured: bool,
    ) -> bool {
        let plain = self.plain(stone) && stone != FLOWER;
        let local = local.filter(|l| l.stays && l.p == p);
        if !plain && local.is_none() {
            return false;
        }
        out.an.clone_from(&self.an);
        out.any_flower = self.any_flower;
        out.by_flower = self.by_flower;
        if let Some(l) = &local {
            out.an.apply_local(&out.cells, l, &out.removed);
            out.by_flower[l.j as usize] = l.j_by_flower;
        }
        let removed: &[u16] = if captured { &out.removed } else { &[] };
        out.an.upper_update(&self.cells, &out.cells, p, removed)
    }

    /// GO-CASCADE's fixpoint at once: where no attribute can change, every round of the
    /// cascade sees the held upper layer with the stone; when the stone (black, white or a
    /// flower off its forbidden points) leaves no string without liberty there, the cascade
    /// ends removing nothing, and without a removal the simple ko rule asks for no board (see
    /// [`FastPosition::place`]): the move is legal.
    #[inline]
    fn legal_at_once(&self, p: usize, stone: u8) -> bool {
        self.plain(stone)
            && matches!(self.choices.ko, Ko::None | Ko::Simple)
            && Fresh::nothing_dies_at(&self.an, self.geom, p, stone)
    }

    /// GO-KO: whether the board `result` (Zobrist hash `hash`) of a move repeats a board the ko
    /// rule forbids ([`repeats_earlier`] over this game's earlier boards): the boards are
    /// compared where the hashes match.
    fn repeats(&self, result: &[u8; MAXN], hash: u64) -> bool {
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
    fn advance_into(&self, turn: Turn, out: &mut FastPosition, pass: bool) {
        out.last = Some((self.cells, self.hash));
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

    /// GO-PASS: a pass of `turn` into `out`.
    fn pass_into(&self, turn: Turn, out: &mut FastPosition) {
        out.cells = self.cells;
        out.hash = self.hash;
        out.any_flower = self.any_flower;
        out.an.clone_from(&self.an);
        out.by_flower = self.by_flower;
        self.advance_into(turn, out, true);
        debug_assert_eq!(out.check_consistency(), Ok(()), "after a pass");
    }

    /// Plays a move of the schedule's turn (as `Position::play`, without the report); `self` is
    /// unchanged.
    pub fn play(&self, action: Action) -> Result<FastPosition, Refusal> {
        self.play_as(action, self.turn)
    }

    /// Plays a move of `turn`, the schedule's or one of [`FastPosition::special_turns`] (a
    /// special move, as `Position::play` of a move claiming that turn); `self` is unchanged.
    pub fn play_as(&self, action: Action, turn: Turn) -> Result<FastPosition, Refusal> {
        if self.game_over() {
            return Err(Refusal::GameOver);
        }
        if turn != self.turn && !self.special_turns().contains(&turn) {
            return Err(Refusal::WrongTurn(self.rules.schedule));
        }
        let p = match action {
            Action::Pass => None,
            Action::Place(pt) => {
                if !pt.on_board(self.geom.size) {
                    return Err(Refusal::OffBoard);
                }
                Some(self.geom.pad(self.board_index(pt)))
            }
        };
        if turn != self.turn && turn.kind == Kind::Own {
            // D3-EMERGENCY-Q: a converted flower is a stone on the single liberty of a string
            // put in atari, never a pass.
            if !conversion_q(self.conversion_points().into_iter(), p) {
                return Err(Refusal::ConversionQ);
            }
        }
        let mut out = None;
        match p {
            None => {
                let mut o = self.clone();
                self.pass_into(turn, &mut o);
                out = Some(o);
            }
            Some(p) => self.place(p, turn, &mut out, true)?,
        }
        Ok(out.unwrap_or_else(|| unreachable!()))
    }

    fn board_index(&self, pt: crate::board::coord::Point) -> usize {
        crate::board::coord::index_of(self.geom.size, pt)
    }

    fn point(&self, p: usize) -> crate::board::coord::Point {
        crate::board::coord::point_of(self.geom.size, self.geom.unpad(p))
    }

    /// Every legal move of the side to move (passes included), in board order, as
    /// `Position::legal_moves`.
    pub fn legal_moves(&self) -> Vec<Action> {
        if self.game_over() {
            return Vec::new();
        }
        let mut scratch = None;
        let mut out: Vec<Action> = self
            .geom
            .points()
            .filter(|&p| {
                self.cells[p & MASK] == EMPTY
                    && self.place(p, self.turn, &mut scratch, false).is_ok()
            })
            .map(|p| Action::Place(self.point(p)))
            .collect();
        out.push(Action::Pass);
        out
    }

    /// The turns the next move may take besides the schedule's
    /// ([`crate::game::order::special_turns`]): an emergency conversion (D3-EMERGENCY) or a
    /// chosen flystone (S3-ROUND) while the player has one left.
    pub fn special_turns(&self) -> Vec<Turn> {
        let n = self.move_number;
        let mut turns = crate::game::order::special_turns(
            &self.rules,
            self.flystone.is_some(),
            self.turn,
            (n >= 2).then(|| self.turn_of(n - 1)),
        );
        turns.retain(|t| match (t.kind, &self.flystone) {
            (Kind::Flower, Some(s)) => chosen_flystones_left(&self.rules, s, t.player, n) > 0,
            _ => true,
        });
        turns
    }

    /// D3-EMERGENCY-P / D3-EMERGENCY-Q: the points where an emergency conversion may go — the
    /// single liberties of the strings the previous move put in atari ([`conversion_ataris`]
    /// on this engine's upper layers), ascending.
    fn conversion_points(&self) -> Vec<usize> {
        let n = self.move_number;
        let found = conversion_ataris(
            self.turn.player,
            (n >= 2).then(|| self.turn_of(n - 1).player),
            self.trailing_passes,
            self.last.as_ref().map(|(l, _)| *l == self.cells),
            || {
                let mut was = self.an.clone();
                if let Some((l, _)) = &self.last {
                    Self::analyse_into(&mut was, l, self.choices);
                }
                (self.an.clone(), was)
            },
        );
        let mut libs: Vec<usize> = found
            .map(|v| v.into_iter().map(|(_, l)| l).collect())
            .unwrap_or_default();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// The candidate special moves: each special turn with its points (a conversion: the
    /// single liberties of P and Q; a chosen flystone: every empty point) and, for a
    /// flystone, the pass (`None`), in `Position::special_moves`' order.
    fn special_candidates(&self) -> Vec<(Turn, Option<usize>)> {
        let mut out = Vec::new();
        for t in self.special_turns() {
            if t.kind == Kind::Own {
                out.extend(self.conversion_points().into_iter().map(|p| (t, Some(p))));
            } else {
                out.extend(
                    self.geom
                        .points()
                        .filter(|&p| self.cells[p & MASK] == EMPTY)
                        .map(|p| (t, Some(p))),
                );
                out.push((t, None));
            }
        }
        out
    }

    /// The legal moves that take a turn other than the schedule's, with their turn, as
    /// `Position::special_moves` lists them: emergency conversions (D3-EMERGENCY) and chosen
    /// flystones (S3-ROUND) with their pass.
    pub fn special_moves(&self) -> Vec<(Turn, Action)> {
        if self.game_over() {
            return Vec::new();
        }
        let mut scratch = None;
        self.special_candidates()
            .into_iter()
            .filter(|&(t, p)| match p {
                None => true,
                Some(p) => self.place(p, t, &mut scratch, false).is_ok(),
            })
            .map(|(t, p)| {
                (
                    t,
                    match p {
                        None => Action::Pass,
                        Some(p) => Action::Place(self.point(p)),
                    },
                )
            })
            .collect()
    }

    /// Perft: the number of move sequences of length `depth` from this position (every legal
    /// move, passes included, as `Position::legal_moves` lists them, and the special moves of
    /// `Position::special_moves`); the reference is `crate::tools::perft::perft_reference`.
    pub fn perft(&self, depth: u32) -> u64 {
        // One buffer per level, cloned only when first needed (a depth-1 perft of a plain
        // position decides every move without a board and needs none).
        let mut bufs: Vec<Option<FastPosition>> = (0..depth).map(|_| None).collect();
        perft_rec(self, depth, &mut bufs)
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
    let specials = pos.special_candidates();
    let mut n = 0;
    if depth == 1 {
        let own = (pos.turn.kind == Kind::Own).then(|| colour_code(pos.turn.player));
        for p in pos.geom.points() {
            if pos.cells[p & MASK] == EMPTY {
                let at_once = own.is_some_and(|stone| pos.legal_at_once(p, stone));
                n += u64::from(at_once || pos.place(p, pos.turn, slot, false).is_ok());
            }
        }
        for (t, p) in specials {
            n += u64::from(p.is_none_or(|p| pos.place(p, t, slot, false).is_ok()));
        }
        return n + 1;
    }
    let mut child = |t: Turn, p: Option<usize>, slot: &mut Option<FastPosition>| -> u64 {
        match p {
            Some(p) => {
                if pos.place(p, t, slot, true).is_err() {
                    return 0;
                }
            }
            None => {
                let out = slot.get_or_insert_with(|| pos.clone());
                pos.pass_into(t, out);
            }
        }
        match slot {
            Some(c) => perft_rec(c, depth - 1, rest),
            None => 0,
        }
    };
    for p in pos.geom.points() {
        if pos.cells[p & MASK] == EMPTY {
            n += child(pos.turn, Some(p), slot);
        }
    }
    n += child(pos.turn, None, slot);
    for (t, p) in specials {
        n += child(t, p, slot);
    }
    n
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
    /// `out.an` holds the analysis of `out.cells` (held or recomputed).
    Full,
}

/// The fast board as the cascade settles it ([`CascadeBoard`]): the position before the move
/// and the stone at `p`. The first, held round is read off the analysis before the move at the
/// stone's neighbours (no board is analysed); where no attribute can change ([`FastPosition::plain`])
/// the rounds after a removal have nothing left without liberty (a removal only frees points
/// next to the strings that took them), so a plain move is settled without any analysis.
/// Otherwise each round analyses `out`.
struct Settle<'a> {
    before: &'a FastPosition,
    out: &'a mut Option<FastPosition>,
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
}

impl Settle<'_> {
    /// What the stone changes on the board as written (the fresh round, with the opponent
    /// strings it removed, if any), where the rules let the eyes and attributes be decided
    /// locally: not after a suicide, a removed flower or an analysed board.
    #[inline(never)]
    fn local_change(&self) -> Option<Local> {
        let before = self.before;
        if !before.local_attributes() || !self.written || self.stone_dies || self.full {
            return None;
        }
        let out = self.out.as_ref()?;
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
        let before = self.before;
        self.out.get_or_insert_with(|| before.clone())
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
        out.cells = before.cells;
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

impl CascadeBoard for Settle<'_> {
    #[inline]
    fn analyse(&mut self, held: bool) {
        match self.round {
            Round::Fresh | Round::Removed if self.plain => return,
            Round::Fresh if held => return,
            // Recomputed, the upper layer would be the held one: the fresh answers stand.
            Round::Fresh if !self.play && self.before.attributes_stay(self.p, self.stone) => return,
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
            Round::Full => self.out.as_ref().is_some_and(|o| {
                let an = &o.an;
                (0..an.upper_count).any(|s| an.upper_colour[s] == c && an.upper_libs[s] == 0)
            }),
        }
    }

    fn remove_without_liberty(&mut self, colour: crate::board::grid::Colour) {
        let c = colour_code(colour);
        self.captured = true;
        self.local = None;
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
            Round::Removed => {}
        }
        self.round = Round::Removed;
    }
}

/// The upper layer of the fast engine with its strings, for the emergency conversion's
/// condition P ([`conversion_ataris`]): padded points.
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
    let mut next = Some(start.clone());
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
        let turn = pos.turn;
        let chosen = random_move(&mut rng, &mut empty, |i| {
            let p = pos.geom.pad(i);
            if turn.kind == Kind::Own && is_one_liberty_eye(&pos.an, p) == Some(turn.player) {
                return false;
            }
            pos.place(p, turn, &mut next, true).is_ok()
        });
        let out = next.get_or_insert_with(|| pos.clone());
        if chosen.is_none() {
            pos.pass_into(turn, out);
        }
        std::mem::swap(&mut pos, out);
        played += 1;
    }
    (pos, played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_consistency_names_a_held_state_that_is_not_the_board() {
        let rules = Rules::m3go_2020();
        let board = Board::empty(5).expect("an odd size");
        let mut pos =
            FastPosition::from_state(&rules, &board, &[], 1, 0, None).expect("supported rules");
        for _ in 0..8 {
            let moves = pos.legal_moves();
            pos = pos.play(moves[moves.len() / 3]).expect("a listed move");
            assert_eq!(pos.check_consistency(), Ok(()));
        }
        let mut bad = pos.clone();
        bad.hash ^= 1;
        let e = bad.check_consistency().expect_err("a wrong hash");
        assert!(e.contains("Zobrist"), "{e}");
        let mut bad = pos.clone();
        let p = pos
            .geom
            .points()
            .find(|&p| pos.an.upper_of[p & MASK] != NONE)
            .expect("a stone on the board");
        bad.an.upper_libs[bad.an.upper_of[p & MASK] as usize] += 1;
        let e = bad.check_consistency().expect_err("a wrong liberty count");
        assert!(e.contains("liberties"), "{e}");
        let mut bad = pos.clone();
        bad.an.upper[p & MASK] = EMPTY;
        let e = bad.check_consistency().expect_err("a wrong upper layer");
        assert!(e.contains("upper layer"), "{e}");
    }
}
