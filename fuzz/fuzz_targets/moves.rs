//! Sequences of moves on settled positions under every working preset: no panic, and after
//! each move the invariants of m3go::testing::check_move hold (settled board, cascade ends and
//! removes no neutral flower, captures reported, score sums, replay gives the same). On small
//! boards the final position is also checked against legal_moves, the eight symmetries and the
//! colour swap.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go::testing::{
    check_colour_swap_of_analysis, check_legal_moves, check_move, check_settled,
    check_symmetry_of_analysis, ArbGame, CheckedMove,
};

fuzz_target!(|game: ArbGame| {
    let mut pos = game.start;
    if let Err(e) = check_settled(&pos) {
        panic!("generator: {e}");
    }
    let size = pos.board().size();
    for m in &game.moves {
        match check_move(&pos, &m.to_move(size)) {
            Ok(CheckedMove::Played(next)) => pos = *next,
            Ok(CheckedMove::Refused(_)) => {}
            Err(e) => panic!("{e}"),
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
