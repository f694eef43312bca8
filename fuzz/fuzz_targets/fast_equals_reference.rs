//! Fast equals reference: on arbitrary settled positions and move sequences (m3go_engine::testing's
//! ArbGame), under the game's preset or one of the single-option variants of
//! `m3go_engine::testing::fast_rule_sets` (chosen by the moves), the fast path (m3go_engine::testing::fast)
//! must list the same legal and special moves as `Position::legal_moves` on `Engine::Reference` and
//! `Position::special_moves`, accept and refuse the same moves as `Position::play` with the
//! same reason, and reach the same boards. A move that names the point of a listed special move
//! is played as that special move. Positions whose rules the fast path does not support are
//! skipped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::testing::fast::FastPosition;
use m3go_engine::testing::{fast_rule_sets, ArbGame, MoveChoice};
use m3go_engine::Action;

fuzz_target!(|game: ArbGame| {
    let sets = fast_rule_sets();
    let pick = game
        .moves
        .iter()
        .map(|m| match m {
            MoveChoice::Point(i) => *i,
            MoveChoice::Pass => 0,
        })
        .sum::<usize>()
        % (sets.len() + 1);
    let mut pos = match sets.get(pick) {
        // a variant of the game's rules: the same board, if it is settled under them
        Some(rules) => match game.start.with_rules(rules, "fuzz") {
            Ok(p) => p,
            Err(_) => return,
        },
        None => game.start,
    };
    let mut fast = FastPosition::new(&pos);
    let size = pos.board().size();
    for m in &game.moves {
        let mut mv = m.to_move(size);
        if size <= 9 {
            assert_eq!(
                fast.legal_moves(),
                pos.clone()
                    .with_engine(m3go_engine::Engine::Reference)
                    .legal_moves()
                    .into_iter()
                    .map(|m| m.action)
                    .collect::<Vec<_>>(),
                "legal moves before {mv:?}"
            );
            let specials = pos.special_moves();
            let listed: Vec<_> = specials
                .iter()
                .map(|s| (s.turn.unwrap_or(pos.turn()), s.action))
                .collect();
            assert_eq!(fast.special_moves(), listed, "special moves before {mv:?}");
            if let Some(s) = specials
                .iter()
                .find(|s| s.action == mv.action && mv.action != Action::Pass)
            {
                mv = *s;
            }
        }
        let turn = mv.turn.unwrap_or(fast.turn());
        // the same move played in place (play/undo, as perft and the random games play): it is
        // refused or played as the copy is, and its undo gives back the position before it
        let mut in_place = fast.clone();
        let mut log = m3go_engine::testing::fast::UndoLog::new();
        let placed = in_place.play_in_place(mv.action, turn, &mut log);
        match (pos.play_reported(&mv), fast.play_as(mv.action, turn)) {
            (Ok((next, _)), Ok(fast_next)) => {
                assert_eq!(placed, Ok(()), "played in place: {mv:?}");
                assert_eq!(
                    in_place.state_difference(&fast_next, false),
                    None,
                    "played in place against the copy: {mv:?}"
                );
                assert!(in_place.undo(&mut log), "undo of {mv:?}");
                assert_eq!(
                    in_place.state_difference(&fast, true),
                    None,
                    "undo of {mv:?}"
                );
                assert_eq!(fast_next.board(), *next.board(), "board after {mv:?}");
                assert_eq!(
                    fast_next.game_over(),
                    next.game_over(),
                    "game over after {mv:?}"
                );
                assert_eq!(fast_next.turn(), next.turn(), "turn after {mv:?}");
                pos = next;
                fast = fast_next;
            }
            (Err(e), Err(f)) => {
                assert_eq!(e.reason, f, "reason for refusing {mv:?}");
                assert_eq!(placed, Err(f), "refused in place: {mv:?}");
                assert!(log.is_empty(), "a refused move logs nothing: {mv:?}");
            }
            (r, f) => panic!(
                "{mv:?}: reference {:?}, fast {:?}",
                r.map(|_| ()).map_err(|e| e.reason),
                f.map(|_| ())
            ),
        }
    }
});
