//! Sequences of moves on settled positions under every preset, played on the fast engine
//! (`Position::advance`) with the clause-by-clause reference as the checked oracle on a sample:
//! - every move is advanced on the fast engine (whose consistency checks run under the fuzz
//!   build's debug assertions); a refusal carries its reason, clause and message, and the final
//!   position is settled;
//! - in one game of [`SAMPLE`] (chosen by the input), one move, also chosen by the input, is
//!   played by the reference and checked by m3go_engine::testing::check_move (settled board, the cascade
//!   re-read round by round ends and removes no neutral flower, captures reported, score sums,
//!   playing again gives the same), and `advance` must reach the same position or refuse it for
//!   the same reason; on boards up to 7×7 the final position's analysis must commute with the
//!   eight symmetries and the colour swap.
//!
//! The reference's checks cost tens of analyses (the score's above all), the fast engine's moves
//! a few: checking every game gave 147 exec/s, every move of every game 109 (30-s smokes). The
//! smoke bounds the input (-max_len), and with it the board and the game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::testing::{
    check_colour_swap_of_analysis, check_move, check_settled, check_symmetry_of_analysis, ArbGame,
    CheckedMove, MoveChoice,
};

/// One game in this many is checked by the reference.
const SAMPLE: usize = 4;
/// Largest board whose final position is checked against the symmetries and the colour swap.
const SYMMETRIES_UP_TO: usize = 7;

fuzz_target!(|game: ArbGame| {
    assert!(
        cfg!(debug_assertions),
        "the fuzz build must have debug assertions on (fuzz/Cargo.toml's release profile)"
    );
    // the generator's position is settled (`testing::position` validates it)
    let mut pos = game.start;
    let size = pos.board().size();
    // The game and the move checked by the reference: picked by the moves themselves, so that
    // the fuzzer reaches every place in a game.
    let sum = game
        .moves
        .iter()
        .map(|m| match m {
            MoveChoice::Point(i) => *i,
            MoveChoice::Pass => 1,
        })
        .sum::<usize>();
    let sampled = (sum / game.moves.len().max(1)) % SAMPLE == 0;
    let checked = sampled.then(|| sum % game.moves.len().max(1));
    for (k, m) in game.moves.iter().enumerate() {
        let mv = m.to_move(size);
        let fast = pos.play(mv);
        if checked != Some(k) {
            match fast {
                Ok(next) => pos = next,
                Err(e) => assert!(
                    e.clause == e.reason.clause() && !e.message.to_string().trim().is_empty(),
                    "refusal without a proper reason: {e:?}"
                ),
            }
            continue;
        }
        match (check_move(&pos, &mv), fast) {
            (Ok(CheckedMove::Played(next)), Ok(fast_next)) => {
                assert!(
                    fast_next == *next,
                    "advance differs from play after {mv:?}:\n{}vs\n{}",
                    fast_next.board().to_diagram(),
                    next.board().to_diagram()
                );
                pos = *next;
            }
            (Ok(CheckedMove::Refused(r)), Err(e)) => {
                assert_eq!(r, e.reason, "reason for refusing {mv:?}")
            }
            (Ok(CheckedMove::Played(_)), Err(e)) => {
                panic!("{mv:?}: play accepts it, advance refuses it: {e}")
            }
            (Ok(CheckedMove::Refused(r)), Ok(_)) => {
                panic!("{mv:?}: play refuses it ({r}), advance plays it")
            }
            (Err(e), _) => panic!("{e}"),
        }
    }
    let mut checks = vec![check_settled(&pos)];
    if sampled && size <= SYMMETRIES_UP_TO {
        checks.push(check_symmetry_of_analysis(&pos));
        checks.push(check_colour_swap_of_analysis(&pos));
    }
    for r in checks {
        if let Err(e) = r {
            panic!("final position: {e}");
        }
    }
});
