//! The instructions of a played move and of a refused try on the fast engine, counted under
//! callgrind (`--toggle-collect='*measured*'`): random M3Go 2020 games (the random games'
//! policy: empty points drawn in a seeded order, never a stone into its own one-liberty eye, a
//! pass when none is accepted) are recorded outside the measured work, then
//!
//! - `replayed SIZE GAMES`: only the moves played, on a fresh start (`play_in_place`);
//! - `played SIZE GAMES`: every point tried, as the game tried it (the refused tries, then the
//!   move), so that the difference is the refused tries.
//!
//! `cargo build -p m3go-engine --release --features testing --example move_cost`, then
//! `valgrind --tool=callgrind --toggle-collect='*measured*' target/release/examples/move_cost replayed 19 20`;
//! the program prints the moves and tries measured, to divide the count by.

use m3go_engine::testing::fast::{FastPosition, SplitMix64, UndoLog};
use m3go_engine::{Action, Board, Point, Rules};
use std::hint::black_box;

#[inline(never)]
fn measured<T>(work: impl FnOnce() -> T) -> T {
    black_box(work())
}

/// One move of a recorded game: the points refused before it, then the action played.
struct Turned {
    refused: Vec<Point>,
    played: Action,
}

fn record(start: &FastPosition, points: &[Point], seed: u64) -> Vec<Turned> {
    let mut rng = SplitMix64(seed);
    let mut pos = start.clone();
    let mut log = UndoLog::new();
    let mut moves = Vec::new();
    while moves.len() < 1000 && !pos.game_over() {
        let board = pos.board();
        let mut empty: Vec<usize> = (0..points.len())
            .filter(|&i| board.get(i).is_none())
            .collect();
        let turn = pos.turn();
        let mut refused = Vec::new();
        let mut played = Action::Pass;
        while !empty.is_empty() {
            let k = rng.below(empty.len());
            let pt = points[empty.swap_remove(k)];
            if pos.fills_own_eye(pt) {
                continue;
            }
            if pos.play_in_place(Action::Place(pt), turn, &mut log).is_ok() {
                played = Action::Place(pt);
                break;
            }
            refused.push(pt);
        }
        if played == Action::Pass {
            let _ = pos.play_in_place(Action::Pass, turn, &mut log);
        }
        log.clear();
        moves.push(Turned { refused, played });
    }
    moves
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(what), Some(size), Some(games)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("usage: move_cost replayed|played SIZE GAMES");
        std::process::exit(2);
    };
    let size: usize = size.parse().expect("a size");
    let games: u64 = games.parse().expect("a number of games");
    let board = Board::empty(size).expect("an odd size");
    let points: Vec<Point> = (0..board.len()).map(|i| board.point(i)).collect();
    let start = FastPosition::from_state(&Rules::m3go_2020(), &board, &[], 1, 0, None);
    let recorded: Vec<Vec<Turned>> = (0..games).map(|s| record(&start, &points, s)).collect();
    let with_tries = what == "played";
    let (moves, tries) = measured(|| {
        let mut log = UndoLog::new();
        let (mut moves, mut tries) = (0u64, 0u64);
        for game in &recorded {
            let mut pos = start.clone();
            for t in game {
                let turn = pos.turn();
                if with_tries {
                    for &pt in &t.refused {
                        tries += 1;
                        assert!(pos
                            .play_in_place(Action::Place(pt), turn, &mut log)
                            .is_err());
                    }
                }
                assert!(pos.play_in_place(t.played, turn, &mut log).is_ok());
                log.clear();
                moves += 1;
            }
        }
        (moves, tries)
    });
    println!("{what} {size}x{size}, {games} games: {moves} moves, {tries} refused tries");
}
