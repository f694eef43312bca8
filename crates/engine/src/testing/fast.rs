//! The fast engine as the tests, benches and fuzz targets compare it with the reference (it is
//! crate-private: users reach it through [`crate::Position`]), and the random game on the
//! reference path that they compare [`random_game_fast`] with.

pub use crate::game::fast::{
    random_game_fast, random_move, FastAnalysis, FastPosition, Inconsistency, UndoLog,
};
use crate::game::moves::Move;
/// SplitMix64, the seeded generator of the random games.
pub use crate::game::order::SplitMix64;
use crate::game::order::StoneKind;
use crate::game::position::Position;

/// The same random game as [`random_game_fast`] on the reference path
/// ([`Position::play_reported`], and the policy's eye test by
/// [`crate::judge::forbidden::is_one_liberty_eye`]). Slow; for tests and the baseline bench.
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
                && crate::judge::forbidden::is_one_liberty_eye(&a, i) == Some(turn.player)
            {
                return false;
            }
            match pos.play_reported(&Move::stone(pos.board().point(i))) {
                Ok((p, _)) => {
                    next = Some(p);
                    true
                }
                Err(_) => false,
            }
        });
        pos = match next {
            Some(p) => p,
            None => match pos.play_reported(&Move::pass()) {
                Ok((p, _)) => p,
                Err(_) => break,
            },
        };
        played += 1;
    }
    (pos, played)
}
