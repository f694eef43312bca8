//! M3Go 2020 perft on 9x9 and 19x19 positions (random games of `benches/data/`), reference
//! (`perft::perft` on `Engine::Reference`) and fast (`FastPosition::count_leaves`); the counts are checked equal first.
//! `cargo bench --bench perft -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go_engine::testing::fast::FastPosition;

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    // (position, depth of the reference, depth of the fast path)
    for (name, rdepth, fdepth) in [
        ("random-9x9-m3go-30", 2u32, 3u32),
        ("random-19x19-m3go-120", 1, 2),
    ] {
        let pos = common::load(name);
        let fast = FastPosition::new(&pos);
        let on_reference = pos.clone().with_engine(m3go_engine::Engine::Reference);
        let n = m3go::tools::perft::perft(&on_reference, rdepth);
        assert_eq!(
            fast.count_leaves(rdepth),
            n,
            "{name}: fast equals reference"
        );
        println!(
            "perft {name}: perft({rdepth}) = {n}, perft({fdepth}) = {}",
            fast.count_leaves(fdepth)
        );
        g.bench_function(format!("reference/{name}/depth-{rdepth}"), |b| {
            b.iter(|| m3go::tools::perft::perft(black_box(&on_reference), rdepth))
        });
        g.bench_function(format!("fast/{name}/depth-{rdepth}"), |b| {
            b.iter(|| black_box(&fast).count_leaves(rdepth))
        });
        g.bench_function(format!("fast/{name}/depth-{fdepth}"), |b| {
            b.iter(|| black_box(&fast).count_leaves(fdepth))
        });
    }
    g.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
