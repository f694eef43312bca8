//! Differential testing: random legal games played by m3go, every move put to another
//! implementation through the conformance protocol (`m3go-conform/2`, or `/1` to a program
//! that speaks nothing newer), the answers compared on the fields that matter and that the
//! program does not decline (`FIELD_CHECKS`, negotiated as `m3go conform` negotiates), and the first disagreement shrunk to a minimal position and move and
//! written as a ready-to-add conformance case (spec/README.md).
//!
//! Random games are reproducible: game `g` (1-based) is driven by its own SplitMix64 stream,
//! seeded with the `g`-th output of SplitMix64 seeded with `--seed` (`game_seed`), so that
//! games can be played in any order and on any number of workers (`--jobs`, `--shard`) with the
//! same moves. Each move draws one number `r`: if `r % 16 == 0` and passing is legal, the side
//! passes; otherwise it places at legal point number `(r >> 4) % count` (board order, top row
//! first). A game stops after `max_moves` moves or when passes end it. The disagreement
//! reported is the one of the lowest-numbered game that has one.
//!
//! The parts: the comparison of two answers (`compare`), shrinking a disagreement and the case
//! made of it (`shrink`), and the games played on the workers (`games`).

mod compare;
mod games;
mod shrink;

#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) use compare::UNREAD;
#[cfg(feature = "testing")]
pub use compare::{compare, Summary};
pub use games::run;
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) use games::run_games;
pub(crate) use shrink::make_case;

use crate::conform::capabilities::SkippedCheck;
use crate::conform::case::Case;
use crate::conform::protocol::PROTOCOL;
use crate::conform::runner::Screened;
use m3go_engine::rules::RulesField;
use m3go_engine::{Engine, Position, Rules, Setup};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// SplitMix64 (Steele, Lea, Flood 2014): the documented generator of the random games.
pub use m3go_engine::game::SplitMix64;

/// The options of a differential run.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    pub games: u32,
    pub seed: u64,
    pub size: usize,
    pub rules: Rules,
    pub max_moves: u32,
    /// The engine m3go plays its games and answers on (`--reference`: the clause-by-clause
    /// reference).
    pub engine: Engine,
}

/// One difference between two answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// error | board | captured | private_eyes | attributes | forbidden | legal_moves | events | score
    pub field: &'static str,
    pub detail: String,
}

/// The first disagreement, before and after shrinking.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub game: u32,
    pub move_number: u32,
    pub notation: String,
    pub differences: Vec<Difference>,
    /// Stones on the board where it was found, and after shrinking.
    pub stones_before: usize,
    pub stones_after: usize,
    /// The shrunk case.
    pub case: Case,
}

/// What a run found.
#[derive(Clone, Debug)]
pub enum DiffOutcome {
    /// Every move compared agreed; `skipped` moves were answered `unsupported`.
    Agree {
        games: u32,
        moves: u64,
        skipped: u64,
    },
    /// The first disagreement (of the lowest-numbered game), shrunk.
    Disagree(Box<Disagreement>),
    /// The program under test failed (it could not be started, crashed, hung, wrote something
    /// that is not an answer, or answered another id): not a rules disagreement.
    Errored {
        game: u32,
        move_number: u32,
        message: String,
    },
    /// The program declares capabilities that do not include these rules: nothing was played.
    Unsupported(String),
}

/// How one game of a run ended, for the reports (`diff --junit`).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum GameVerdict {
    /// Every move compared agreed (or was answered `unsupported`).
    Agree,
    /// The first disagreement of the game (before shrinking; the run's first is shrunk).
    Disagree {
        move_number: u32,
        notation: String,
        differences: Vec<Difference>,
    },
    /// The program under test failed at this move.
    Errored { move_number: u32, message: String },
    /// Not played, or not to its end: why (the run stops at its first failing game; the
    /// program's capabilities exclude the rules; it failed before the first game).
    NotPlayed(String),
}

/// One game of a run.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct GameResult {
    /// The game (from 1) and its own seed ([`game_seed`]).
    pub game: u32,
    pub seed: u64,
    pub verdict: GameVerdict,
    /// Its moves compared, and those answered `unsupported`.
    pub compared: u64,
    pub skipped: u64,
    /// Seconds it took, when it was played.
    pub seconds: Option<f64>,
}

/// What a run found ([`DiffOutcome`]) and how each of its games ended, in game order.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct DiffRun {
    pub outcome: DiffOutcome,
    pub games: Vec<GameResult>,
    /// The checks left out of the moves compared (declined by capability or by an answer):
    /// each check with its reason, and in how many moves.
    pub checks_skipped: BTreeMap<SkippedCheck, u64>,
}

/// The fields a game compares ([`Difference::field`]) and the checks (`expect` keys, the
/// table of spec/README.md "Answers") each depends on: a field is compared while none of its
/// checks is declined, by capability or by the answer, as `m3go conform` leaves out a declined
/// check; `error` always. `board` is `analysis.boards` (`views`), `legal_moves` the legality of
/// the moves (`legal`, `illegal`), `captured` and `events` the move's report (`events`).
pub(crate) const FIELD_CHECKS: [(&str, &[&str]); 9] = [
    ("error", &[]),
    ("board", &["views"]),
    ("captured", &["events"]),
    ("private_eyes", &["private_eyes"]),
    ("attributes", &["attributes", "other_flowers"]),
    ("forbidden", &["forbidden", "playable"]),
    ("legal_moves", &["legal", "illegal"]),
    ("events", &["events"]),
    ("score", &["score"]),
];

/// The checks a game compares on ([`FIELD_CHECKS`]), in the order checks are made: what a
/// `/2` request of a game names in `checks`, less those the capabilities decline.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn game_checks() -> Vec<&'static str> {
    crate::conform::check::all_checks()
        .filter(|c| FIELD_CHECKS.iter().any(|(_, cs)| cs.contains(c)))
        .collect()
}

/// Whether `field` is compared when the checks `left_out` are declined.
pub(crate) fn compared(field: &str, left_out: &[SkippedCheck]) -> bool {
    FIELD_CHECKS
        .iter()
        .find(|(f, _)| *f == field)
        .is_none_or(|(_, cs)| !cs.iter().any(|c| left_out.iter().any(|d| d.check == *c)))
}

/// What the capabilities request settled for a run's requests
/// ([`crate::conform::runner::negotiate`], [`crate::conform::runner::screen`], as for
/// `m3go conform`): the version they are sent in (`m3go-conform/2` to a program that speaks
/// it, `/1` to one that declares nothing), the checks they name (`/2`) and those the
/// capabilities decline under the run's rules, which are not compared.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Terms {
    pub protocol: &'static str,
    pub checks: Screened,
}

/// The request for `moves` played from `setup`, in the version negotiated: under
/// `m3go-conform/2` naming the checks asked ([`Terms`]), so that a program may leave out the
/// fields of the others; under `/1` without them.
pub(crate) fn request(id: &str, setup: &Setup, moves: &[String], terms: &Terms) -> Value {
    let mut r = json!({
        "protocol": terms.protocol,
        "id": id,
        "position": setup,
        "moves": moves,
        "probes": [],
    });
    if terms.protocol == PROTOCOL {
        r["checks"] = json!(terms.checks.asked);
    }
    r
}

/// The position a game's request carries: [`setup_of`], with the earlier boards the ko rule
/// does not read left out. Under `ko: none` and `simple` only the board before the previous
/// move is read (GO-KO, the engine's `game::cascade::repeats_earlier`), so the request keeps that one
/// board and every answer stays the same, while a request of move 300 no longer carries 299
/// boards for both programs to read and validate; `positional` and `situational` keep them all.
pub(crate) fn request_setup(p: &Position) -> Setup {
    if !matches!(
        p.rules().ko,
        m3go_engine::rules::Ko::None | m3go_engine::rules::Ko::Simple
    ) {
        return setup_of(p);
    }
    let (mut s, _) = p.to_setup_without_history();
    s.rules = RulesField::of(p.rules());
    s.history = p
        .history()
        .last()
        .map(|b| b.to_diagram())
        .into_iter()
        .collect();
    s
}

/// The setup of a position (rules by preset name when exact).
pub(crate) fn setup_of(p: &Position) -> Setup {
    let mut s = p.to_setup();
    s.rules = RulesField::of(p.rules());
    s
}

/// The seed of game `g` (1-based): the `g`-th output of SplitMix64 seeded with `seed`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn game_seed(seed: u64, g: u32) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    SplitMix64(seed.wrapping_add(u64::from(g - 1).wrapping_mul(GAMMA))).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // first outputs of SplitMix64 seeded with 0 (the published reference values)
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
