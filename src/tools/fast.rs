//! The fast engine as the tools and tests know it (`m3go_engine::game::FastPosition` and its kin, re-exported), and the
//! random game on the reference path that the benches compare it with.

/// SplitMix64, the seeded generator of the random games (benches and tests).
pub use m3go_engine::game::SplitMix64;
pub use m3go_engine::game::{
    random_game_fast, random_move, FastAnalysis, FastPosition, Inconsistency, UndoLog,
};
use m3go_engine::{Position, StoneKind};

/// The same random game on the reference path ([`Position::play`], and the policy's eye test
/// by [`m3go_engine::judge::is_one_liberty_eye`]). Slow; for tests and the baseline bench.
pub fn random_game_reference(start: &Position, seed: u64, max_moves: u32) -> (Position, u32) {
    let mut rng = SplitMix64(seed);
    let mut pos = start.clone();
    let mut played = 0;
    while played < max_moves && !pos.game_over() {
        let mut empty: Vec<usize> = (0..pos.board().len())
            .filter(|&i| pos.board().get(i).is_none())
            .collect();
        let turn = pos.turn();
        let a = pos.analysis();
        let mut next = None;
        random_move(&mut rng, &mut empty, |i| {
            if turn.kind == StoneKind::Own
                && m3go_engine::judge::is_one_liberty_eye(&a, i) == Some(turn.player)
            {
                return false;
            }
            match pos.play(&m3go_engine::Move::place(pos.board().point(i))) {
                Ok((p, _)) => {
                    next = Some(p);
                    true
                }
                Err(_) => false,
            }
        });
        pos = match next {
            Some(p) => p,
            None => match pos.play(&m3go_engine::Move::pass()) {
                Ok((p, _)) => p,
                Err(_) => break,
            },
        };
        played += 1;
    }
    (pos, played)
}
