//! The fast engine of the hot loops (legal-move lists, perft, random games): the same rules as
//! the clause-by-clause functions, computed on a padded byte board with fixed buffers, the
//! private eyes found in closed form per component, and a local legality test where no flower
//! can be involved. `Position::legal_moves` (and through it `analyze`, `explain`, `diff`, the
//! conformance answers) and `tools::perft::perft` run on it under every rule set; the clause-by-clause path ([`Analysis::new`](crate::Analysis::new), `Position::play`,
//! `Position::legal_moves_reference`) stays the specification and runnable:
//! `tests/it/fast_equals_reference.rs` checks, on random positions and move sequences, that this
//! module agrees with it ("fast equals reference"). This module does not import the position
//! (`game::play`, which builds on it): a position is handed over as its parts
//! ([`FastPosition::from_state`]).
//!
//! Supported rules: every private-eye rule (m2020, m2016), closed-region
//! reading (single-string, same-colour) and attribute rule (m2020, m2016, m2013,
//! always-neutral) — [`FastAnalysis::new`] is total; every ko rule (none, simple, and
//! positional and situational over the game's earlier boards, hashed); every schedule (the
//! ten-move cycle, alternation, the 2016 team rounds, Flystone with its state), the turns coming
//! from `game::order` ([`game_turn`](crate::game::order::game_turn)); the special moves — the
//! emergency conversion (D3-EMERGENCY) and the chosen flystones (S3-ROUND) — listed by
//! [`FastPosition::special_moves`] and counted by [`FastPosition::count_leaves`] as
//! `Position::special_moves` and `perft_reference` do. So every preset and option is on this
//! engine, and [`FastPosition::from_state`] is total. The rules of a move are written
//! once, in the layers below, over either board: the cascade, ko and the conversion's condition
//! P in `game::cascade`, the turns in `game::order`, the forbidden points in
//! `judge::forbidden`, the private-eye conditions in `judge::eyes` and `judge::eyes2016`, the
//! attribute counts and rules in `judge::attribute`.
//!
//! The private eyes are the same judgement as the reference's (M20-EYE-REGION, M20-EYE-1,
//! M20-EYE-2, M20-EYE-SIM; M16-REGION, M16-EYE-A, M16-EYE-B): the conditions are the clause
//! functions themselves, only the enumeration of the closed regions differs (per component of
//! S_c here, per string there). The proof is in `notes/fast-engine.md`; the incremental state
//! and why a move leaves the untouched components as they were, in `notes/incremental.md`.
//!
//! Perft and the random games play on one position, each move applied in place and taken back
//! from an [`UndoLog`] ([`FastPosition::play_in_place`], [`FastPosition::undo`]) instead of
//! copied into a child; why undo restores the position exactly: `notes/incremental.md`,
//! "Play and undo".

mod analysis;
mod earlier;
mod incremental;
mod position;
mod settle;
mod undo;
mod walk;

pub use analysis::FastAnalysis;
#[cfg(any(test, feature = "testing"))]
pub use position::Inconsistency;
pub use position::{FastPosition, Refusal};
pub use undo::UndoLog;
pub use walk::random_game_fast;
#[cfg(any(test, feature = "testing"))]
pub use walk::random_move;

use crate::board::grid::Colour;
use crate::rules::{
    AttributeRule, CaptureTiming, ClosedRegion, ClosedRegion2016, EyeRule, FlowerCaptureCheck, Ko,
    Rules, Schedule, Suicide, SuicideTiming,
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

impl FastPosition {
    /// Starts the count of trailing passes again at 0, as the position's own count
    /// (M20-REPLAY-PASS: a pass replacing a refused move never ends the game); the rest of the
    /// state is unchanged, so the position keeps this form rather than building it again.
    pub(crate) fn forget_trailing_passes(&mut self) {
        self.trailing_passes = 0;
    }
}
