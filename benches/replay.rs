//! The cost of one move of a replay at its start and at its end (issue 38: a replay's cost per
//! move must be flat): the Ke Jie vs AlphaGo game 1 record replayed mechanically under M3Go 2020
//! to move 10 and to move 280, then the next move of the record advanced on the fast engine
//! ([`Position::advance`], what `replay --quiet`, the protocol and the page's record loading
//! run) and played on the reference with its report ([`Position::play`], the logged replay).
//! The two sizes of the same measure should be about equal.
//! `cargo bench --bench replay -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go::game::play::{Action, Move};
use m3go::tools::replay;
use m3go::{Position, Rules};

const RECORD: &str = "spec/records/kejie-alphago-2017-g1.sgf";

/// The position after move `to` of the mechanical replay, and the record's next move.
fn at(to: u32) -> (Position, Move) {
    let path = format!("{}/{RECORD}", env!("CARGO_MANIFEST_DIR"));
    let record = m3go::formats::load::load(&path).expect("the Ke Jie record");
    let rules = Rules::preset("m3go-2020").expect("preset");
    let rep = replay::mechanical(&record, &rules, Some(to), Default::default()).expect("replays");
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
    (rep.position, m)
}

fn replay_move(c: &mut Criterion) {
    let mut g = c.benchmark_group("replay_move");
    for to in [10u32, 280] {
        let (pos, m) = at(to);
        // a refused record move is replaced by a pass, as the replay does
        let m = if pos.advance(&m).is_ok() {
            m
        } else {
            Move::pass()
        };
        assert!(matches!(m.action, Action::Place(_) | Action::Pass));
        g.bench_function(format!("advance-fast/move-{}", to + 1), |b| {
            b.iter(|| black_box(&pos).advance(black_box(&m)))
        });
        g.bench_function(format!("play-reference/move-{}", to + 1), |b| {
            b.iter(|| black_box(&pos).play(black_box(&m)))
        });
    }
    g.finish();
}

criterion_group!(benches, replay_move);
criterion_main!(benches);
