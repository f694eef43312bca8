//! The full legal-move list of the side to move on the dense 19x19 positions, reference
//! (`Position::legal_moves` on `Engine::Reference`), fast (`FastPosition::legal_moves`), and
//! `Position::legal_moves` as the commands call it (the position converted, then the fast list). The last position of the
//! replay ended by passes, so it is measured with its pass count cleared (the side to move then
//! has moves).
//! `cargo bench --bench legal_moves -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go_engine::testing::fast::FastPosition;

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    g.sample_size(10);
    for name in common::DENSE {
        // the last position ended the game; the move generator is measured as if play went on
        let mut setup = common::load(name).to_setup();
        setup.trailing_passes = 0;
        let pos = setup.to_position(name).unwrap_or_else(|e| panic!("{e}"));
        let fast = FastPosition::new(&pos);
        let reference = pos.clone().with_engine(m3go_engine::Engine::Reference);
        assert_eq!(
            fast.legal_moves(),
            reference
                .legal_moves()
                .into_iter()
                .map(|m| m.action)
                .collect::<Vec<_>>(),
            "{name}: fast equals reference"
        );
        assert_eq!(pos.engine(), m3go_engine::Engine::Fast, "{name}");
        g.bench_function(format!("reference/{name}"), |b| {
            b.iter(|| black_box(&reference).legal_moves())
        });
        g.bench_function(format!("fast/{name}"), |b| {
            b.iter(|| black_box(&fast).legal_moves())
        });
        // What the commands call: the position handed to the fast engine, then its list.
        g.bench_function(format!("position/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves())
        });
    }
    g.finish();
}

criterion_group!(benches, legal_moves);
criterion_main!(benches);
