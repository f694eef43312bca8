//! The cost of one move of a replay at its start and at its end (issue 38: a replay's cost per
//! move must not grow with the game): the Ke Jie vs AlphaGo game 1 record replayed mechanically
//! under M3Go 2020 to move 10 and to move 280 on the fast engine (as `replay --quiet` does), then
//! the record's next move played on the fast engine kept inside the position ([`Position::play`])
//! and on the reference with its report ([`Position::play_reported`], the logged replay). Beside each, the same
//! board with its history cut to the one board simple ko reads (`short-history`): a move that
//! costs the same with 280 earlier boards as with one does not depend on the history; what
//! remains between move 11 and move 281 is the board's density (the dense analysis).
//! `cargo bench --bench replay -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go::tools::replay;
use m3go_engine::{Engine, Move, Position, Rules};

const RECORD: &str = "spec/records/kejie-alphago-2017-g1.sgf";

/// The position after move `to` of the mechanical replay on the fast engine, the same board with
/// its history cut to the last board, and the record's next move (a pass where the rules refuse
/// it, as the replay plays it).
fn at(to: u32) -> (Position, Position, Move) {
    let path = format!("{}/{RECORD}", env!("CARGO_MANIFEST_DIR"));
    let record = m3go::input::load_record(&path).expect("the Ke Jie record");
    let rules = Rules::preset("m3go-2020").expect("preset");
    let (_, pos) =
        replay::mechanical_tally(&record, &rules, Some(to), Engine::Fast).expect("replays");
    let mut setup = pos.to_setup();
    replay::trim_history(&rules, &mut setup);
    let short = setup.to_position("short history").expect("valid");
    let next = record
        .moves
        .iter()
        .find(|m| m.number == to + 1)
        .expect("a next move");
    let m = Move {
        action: next.action,
        number: None,
        turn: None,
    };
    let m = if pos.play(m).is_ok() { m } else { Move::pass() };
    (pos, short, m)
}

fn replay_move(c: &mut Criterion) {
    let mut g = c.benchmark_group("replay_move");
    for to in [10u32, 280] {
        let (pos, short, m) = at(to);
        assert_eq!(pos.board(), short.board());
        println!(
            "move {}: {} earlier boards, {} in the short history",
            to + 1,
            pos.history().len(),
            short.history().len()
        );
        for (name, p) in [("replayed", &pos), ("short-history", &short)] {
            g.bench_function(format!("play-fast/move-{}/{name}", to + 1), |b| {
                b.iter(|| black_box(p).play(black_box(m)))
            });
            g.bench_function(format!("play-reference/move-{}/{name}", to + 1), |b| {
                b.iter(|| black_box(p).play_reported(black_box(&m)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, replay_move);
criterion_main!(benches);
