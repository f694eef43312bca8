//! Analysis of dense 19x19 positions: strings, private eyes, attributes, upper layer and the
//! forbidden points of both players' flowers — the reference pipeline (`Analysis::new` plus
//! `report::forbidden_points`) and the fast path (`fast::FastAnalysis`).
//! `cargo bench --bench analysis -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go::formats::report::forbidden_points;
use m3go::tools::fast::FastAnalysis;
use m3go::{Analysis, Colour};

fn analysis(c: &mut Criterion) {
    let mut g = c.benchmark_group("analysis");
    for name in common::DENSE {
        let pos = common::load(name);
        g.bench_function(format!("reference/{name}"), |b| {
            b.iter(|| {
                let a = Analysis::new(black_box(pos.board()), pos.rules());
                let black = forbidden_points(&a, pos.rules(), Colour::Black);
                let white = forbidden_points(&a, pos.rules(), Colour::White);
                (a, black, white)
            })
        });
        g.bench_function(format!("fast/{name}"), |b| {
            b.iter(|| {
                let a = FastAnalysis::new(black_box(pos.board()), pos.rules())
                    .expect("m3go-2020 is supported");
                let black = a.forbidden_points(pos.rules(), Colour::Black);
                let white = a.forbidden_points(pos.rules(), Colour::White);
                (a, black, white)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, analysis);
criterion_main!(benches);
