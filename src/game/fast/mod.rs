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
//! attribute m2020, m2016 or always-neutral; every ko rule (none, simple, and positional and
//! situational over the game's earlier boards, hashed); every schedule (the ten-move cycle,
//! alternation, the 2016 team rounds, Flystone with its state), the turns coming from
//! `game::order` ([`game_turn`](crate::game::order::game_turn)); the special moves — the
//! emergency conversion (D3-EMERGENCY) and the chosen flystones (S3-ROUND) — listed by
//! [`FastPosition::special_moves`] and counted by [`FastPosition::perft`] as
//! `Position::special_moves` and `perft_reference` do. Anything else is refused by
//! [`FastPosition::from_state`] (the reference decides there). The rules of a move are written
//! once, in the layers below, over either board: the cascade, ko and the conversion's condition
//! P in `game::cascade`, the turns in `game::order`, the forbidden points in
//! `judge::forbidden`.
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

mod analysis;
mod position;

pub use analysis::FastAnalysis;
pub use position::{random_game_fast, random_move, FastPosition, Refusal};

use crate::board::grid::Colour;
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
        && matches!(
            rules.ko,
            Ko::None | Ko::Simple | Ko::Positional | Ko::Situational
        )
        && matches!(
            rules.schedule,
            Schedule::Cycle10 | Schedule::Alternate | Schedule::Team2016 | Schedule::Flystone
        )
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
