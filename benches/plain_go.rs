//! Plain Go side by side: perft on positions without flower stones (m3go-2020 with schedule
//! alternate and attribute always-neutral — plain Go), by m3go's reference (`perft::perft` on `Engine::Reference`), by
//! m3go's fast path, and by the `goban` crate (its move generation `Game::legals` and its
//! `Game::play`, in the perft of its own benches, with the pass added as m3go counts it) on the
//! same positions in the same run. goban runs with its JAPANESE rule (simple ko, no suicide), the
//! same legality as m3go's `ko: simple`, `suicide: forbidden`; the node counts are checked equal
//! before timing. The ratio is goban's median over m3go's (> 1: m3go faster).
//! `cargo bench --bench plain_go -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use goban::pieces::stones::{Color, Stone as GStone};
use goban::rules::game::Game;
use goban::rules::{Move as GMove, JAPANESE};
use m3go_engine::testing::fast::FastPosition;
use m3go_engine::{Position, Stone};

/// The same position as a goban `Game` (coordinates: (row from the top, column)).
fn to_goban(pos: &Position) -> Game {
    let size = pos.board().size();
    let mut builder = Game::builder();
    builder.size((size as u8, size as u8)).rule(JAPANESE);
    for i in 0..pos.board().len() {
        let color = match pos.board().get(i) {
            Some(Stone::Black) => Color::Black,
            Some(Stone::White) => Color::White,
            Some(Stone::Flower) => panic!("plain Go positions have no flowers"),
            None => continue,
        };
        builder.add(GStone {
            coord: ((i / size) as u8, (i % size) as u8),
            color,
        });
    }
    builder.turn(if pos.turn().player == m3go_engine::Colour::Black {
        Color::Black
    } else {
        Color::White
    });
    builder.build().expect("goban game")
}

/// goban's perft (as in its benches/perft.rs), counting the pass as m3go does.
fn goban_perft(g: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if g.is_over() {
        return 0;
    }
    if depth == 1 {
        return g.legals().count() as u64 + 1;
    }
    let mut n = 0;
    for m in g.legals() {
        let mut child = g.clone();
        child.play(GMove::Play(m.0, m.1));
        n += goban_perft(&child, depth - 1);
    }
    let mut child = g.clone();
    child.play(GMove::Pass);
    n + goban_perft(&child, depth - 1)
}

fn plain_go(c: &mut Criterion) {
    let mut g = c.benchmark_group("plain_go");
    g.sample_size(10);
    // (position, depth for goban and the fast path, depth the reference can afford)
    for (name, depth, rdepth) in [("plain-9x9-20", 3u32, 2u32), ("plain-19x19-120", 2, 1)] {
        let pos = common::load(name);
        let fast = FastPosition::new(&pos);
        let on_reference = pos.clone().with_engine(m3go_engine::Engine::Reference);
        let game = to_goban(&pos);
        let n = fast.count_leaves(depth);
        assert_eq!(
            goban_perft(&game, depth),
            n,
            "{name}: goban and m3go perft({depth})"
        );
        assert_eq!(
            m3go::tools::perft::perft(&on_reference, rdepth),
            fast.count_leaves(rdepth),
            "{name}: fast equals reference at depth {rdepth}"
        );
        println!("plain_go {name}: perft({depth}) = {n}");
        g.bench_function(format!("goban/{name}/depth-{depth}"), |b| {
            b.iter(|| goban_perft(black_box(&game), depth))
        });
        g.bench_function(format!("m3go-fast/{name}/depth-{depth}"), |b| {
            b.iter(|| black_box(&fast).count_leaves(depth))
        });
        g.bench_function(format!("goban/{name}/depth-{rdepth}"), |b| {
            b.iter(|| goban_perft(black_box(&game), rdepth))
        });
        g.bench_function(format!("m3go-fast/{name}/depth-{rdepth}"), |b| {
            b.iter(|| black_box(&fast).count_leaves(rdepth))
        });
        g.bench_function(format!("m3go-reference/{name}/depth-{rdepth}"), |b| {
            b.iter(|| m3go::tools::perft::perft(black_box(&on_reference), rdepth))
        });
    }
    g.finish();
}

criterion_group!(benches, plain_go);
criterion_main!(benches);
