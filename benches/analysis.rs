//! Analysis of dense 19x19 positions: strings, private eyes, attributes, upper layer and the
//! forbidden points of both players' flowers — the reference pipeline (`Analysis::new` plus
//! `report::forbidden_points`) and the fast path (`fast::FastAnalysis`).
//! The same position is also analysed under the other analysis presets (`m3go-2016`: the 2016
//! private eye and conversion; `m3go-2013`: the 2013 conversion; `dullstone`: neutral flowers,
//! forbidden points against the opponent only), reference and fast side by side.
//! `cargo bench --bench analysis -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go_engine::formats::report::forbidden_points;
use m3go_engine::testing::fast::FastAnalysis;
use m3go_engine::{Analysis, Colour, Rules};

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
                let a = FastAnalysis::new(black_box(pos.board()), pos.rules());
                let black = a.forbidden_points(pos.rules(), Colour::Black);
                let white = a.forbidden_points(pos.rules(), Colour::White);
                (a, black, white)
            })
        });
    }
    let pos = common::load(common::DENSE[1]);
    for preset in ["m3go-2016", "m3go-2013", "dullstone"] {
        let rules = Rules::preset(preset).expect("preset");
        g.bench_function(format!("reference-{preset}/{}", common::DENSE[1]), |b| {
            b.iter(|| {
                let a = Analysis::new(black_box(pos.board()), &rules);
                let black = forbidden_points(&a, &rules, Colour::Black);
                let white = forbidden_points(&a, &rules, Colour::White);
                (a, black, white)
            })
        });
        g.bench_function(format!("fast-{preset}/{}", common::DENSE[1]), |b| {
            b.iter(|| {
                let a = FastAnalysis::new(black_box(pos.board()), &rules);
                let black = a.forbidden_points(&rules, Colour::Black);
                let white = a.forbidden_points(&rules, Colour::White);
                (a, black, white)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, analysis);
criterion_main!(benches);
