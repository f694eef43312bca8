//! Complete random M3Go 2020 games from the empty board (SplitMix64 seeds 1..=10; each move a
//! random empty point the rules accept, never a stone into its own one-liberty eye; the game
//! stops when it is over by passes or after 1000 moves). One iteration plays the ten games, so
//! games per second = 10 / time per iteration. The reference plays complete 9x9 games and the
//! first 40 moves of the 19x19 games (a complete 19x19 game takes it seconds).
//! `cargo bench --bench random_games -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use m3go_engine::testing::fast::{random_game_fast, random_game_reference, FastPosition};
use m3go_engine::{Board, Position};

const GAMES: u64 = 10;
const MAX_MOVES: u32 = 1000;

fn empty(size: usize) -> Position {
    let setup = m3go_engine::Setup {
        size: Some(size),
        diagram: Board::empty(size).expect("odd size").to_diagram(),
        ..Default::default()
    };
    setup.to_position("empty board").expect("empty board")
}

fn random_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_games");
    g.throughput(Throughput::Elements(GAMES));
    for size in [9usize, 19] {
        let start = FastPosition::new(&empty(size));
        let moves: u32 = (1..=GAMES)
            .map(|s| random_game_fast(&start, s, MAX_MOVES).1)
            .sum();
        println!("random_games/fast/{size}x{size}: {moves} moves in {GAMES} games");
        g.bench_function(format!("fast/{size}x{size}"), |b| {
            b.iter(|| {
                (1..=GAMES)
                    .map(|s| random_game_fast(black_box(&start), s, MAX_MOVES).1)
                    .sum::<u32>()
            })
        });
    }
    g.sample_size(10);
    let start = empty(9);
    g.bench_function("reference/9x9", |b| {
        b.iter(|| {
            (1..=GAMES)
                .map(|s| random_game_reference(black_box(&start), s, MAX_MOVES).1)
                .sum::<u32>()
        })
    });
    let start = empty(19);
    g.bench_function("reference/19x19-first-40-moves", |b| {
        b.iter(|| {
            (1..=GAMES)
                .map(|s| random_game_reference(black_box(&start), s, 40).1)
                .sum::<u32>()
        })
    });
    g.finish();
}

criterion_group!(benches, random_games);
criterion_main!(benches);
