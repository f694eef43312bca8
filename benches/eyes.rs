//! Private-eye determination on worst cases (`benches/data/worst-*.yaml`): a very large region
//! (a black ring around a 15x15 interior with white stones), many strings (100 one-stone
//! strings, each region the rest of the board) and long flower walls. Reference: the lower
//! layer, its strings and `m3go_engine::judge::eyes::judge_regions` for every string; fast: `FastAnalysis::new`
//! (which also does the attributes and the upper layer).
//! `cargo bench --bench eyes -- --warm-up-time 1 --measurement-time 2`

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go_engine::testing::fast::FastAnalysis;

fn eyes(c: &mut Criterion) {
    let mut g = c.benchmark_group("eyes");
    for name in common::WORST {
        let pos = common::load(name);
        g.bench_function(format!("reference/{name}"), |b| {
            b.iter(|| {
                let lower = m3go_engine::board::layers::lower_layer(black_box(pos.board()));
                let s = m3go_engine::board::strings::strings_of(&lower);
                let bits = m3go_engine::judge::eyes::LayerBits::new(&lower);
                (0..s.groups.len())
                    .map(|a| {
                        m3go_engine::judge::eyes::judge_regions(
                            &lower,
                            &bits,
                            &s,
                            a,
                            pos.rules().closed_region,
                        )
                        .iter()
                        .filter(|(_, v)| *v == m3go_engine::judge::RegionVerdict::PrivateEye)
                        .count()
                    })
                    .sum::<usize>()
            })
        });
        g.bench_function(format!("fast/{name}"), |b| {
            b.iter(|| FastAnalysis::new(black_box(pos.board()), pos.rules()))
        });
    }
    g.finish();
}

criterion_group!(benches, eyes);
criterion_main!(benches);
