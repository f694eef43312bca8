//! Fast equals reference: on arbitrary settled positions and move sequences (m3go::testing's
//! ArbGame), the fast path (m3go::tools::fast) must list the same legal moves as
//! `Position::legal_moves`, accept and refuse the same moves as `Position::play` and reach the
//! same boards. Positions whose rules the fast path does not support are skipped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go::testing::ArbGame;
use m3go::tools::fast::FastPosition;

fuzz_target!(|game: ArbGame| {
    let mut pos = game.start;
    let Some(mut fast) = FastPosition::new(&pos) else {
        return;
    };
    let size = pos.board().size();
    for m in &game.moves {
        let mv = m.to_move(size);
        if size <= 9 {
            assert_eq!(
                fast.legal_moves(),
                pos.legal_moves_reference(),
                "legal moves before {mv:?}"
            );
        }
        match (pos.play(&mv), fast.play(mv.action)) {
            (Ok((next, _)), Ok(fast_next)) => {
                assert_eq!(fast_next.board(), *next.board(), "board after {mv:?}");
                assert_eq!(
                    fast_next.game_over(),
                    next.game_over(),
                    "game over after {mv:?}"
                );
                pos = next;
                fast = fast_next;
            }
            (Err(e), Err(f)) => assert_eq!(e.reason, f, "reason for refusing {mv:?}"),
            (r, f) => panic!(
                "{mv:?}: reference {:?}, fast {:?}",
                r.map(|_| ()).map_err(|e| e.reason),
                f.map(|_| ())
            ),
        }
    }
});
