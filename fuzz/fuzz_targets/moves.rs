//! Sequences of moves on settled positions under every working preset, played on the fast
//! engine (`Position::advance`) with the clause-by-clause reference as the checked oracle: no
//! panic; each checked move satisfies the invariants of m3go::testing::check_move (played by the
//! reference: settled board, cascade ends and removes no neutral flower, captures reported,
//! score sums, replay gives the same), and `advance` reaches the same position or refuses it
//! too. Every move is checked on boards up to 9×9, where the reference is cheap; on larger
//! boards the moves before the last are only advanced, and the last is checked. On small boards
//! the final position is also checked against legal_moves, the eight symmetries and the colour
//! swap. The smoke bounds the input (-max_len), and with it the board and the game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go::testing::{
    check_colour_swap_of_analysis, check_legal_moves, check_move, check_settled,
    check_symmetry_of_analysis, ArbGame, CheckedMove,
};

/// Largest board on which every move is checked against the reference.
const CHECK_EVERY_MOVE_UP_TO: usize = 9;

fuzz_target!(|game: ArbGame| {
    let mut pos = game.start;
    if let Err(e) = check_settled(&pos) {
        panic!("generator: {e}");
    }
    let size = pos.board().size();
    let n = game.moves.len();
    for (k, m) in game.moves.iter().enumerate() {
        let mv = m.to_move(size);
        let fast = pos.advance(&mv);
        if size > CHECK_EVERY_MOVE_UP_TO && k + 1 < n {
            if let Ok(next) = fast {
                pos = next;
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
    if size <= 7 {
        for r in [
            check_legal_moves(&pos).map(|_| ()),
            check_symmetry_of_analysis(&pos),
            check_colour_swap_of_analysis(&pos),
        ] {
            if let Err(e) = r {
                panic!("{e}");
            }
        }
    }
});
