//! [`FastPosition`]: a position on the fast engine (play, legal moves, perft, random games).

use super::analysis::padded_cells;
use super::*;
use crate::board::grid::{Board, Stone};
use crate::game::moves::Action;
use crate::game::order::{game_over_by_passes, turn_of_move, Kind, Turn};
use crate::judge::forbidden::{flower_forbidden_reason, is_one_liberty_eye};

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
            an: FastAnalysis::empty(geom, rules),
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
