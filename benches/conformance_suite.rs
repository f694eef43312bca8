//! The conformance suite (every case of `spec/cases`, the committed inputs) run against m3go's
//! built-in implementation on one core, one case after another: the library work of
//! `cargo test --test conformance` without the test harness, the case loading and the protocol
//! tests that drive the binary. The first bench gives the time of the whole suite directly; the
//! second the loading of the case files alone (YAML and the records that `start:` cases replay).
//! Every case is checked to pass before timing.
//! `cargo bench --bench conformance_suite -- --warm-up-time 1 --measurement-time 5`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go::conform::case::Case;
use m3go::conform::runner::{run_case, Builtin, Outcome};
use m3go::conform::suite::case_files;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/cases");

fn load_cases(files: &[String]) -> Vec<Case> {
    files
        .iter()
        .map(|f| Case::load(f, None).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

fn conformance(c: &mut Criterion) {
    let files = case_files(CASES).unwrap_or_else(|e| panic!("{CASES}: {e}"));
    let cases = load_cases(&files);
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    for case in &cases {
        match run_case(case, &mut Builtin) {
            Outcome::Passed => {}
            Outcome::Failed(d) => panic!("case {}: failed: {}", case.id, d.join("; ")),
            Outcome::Errored(e) => panic!("case {}: errored: {e}", case.id),
            Outcome::Skipped(w) => panic!("case {}: skipped: {w}", case.id),
        }
    }
    println!("conformance: {} cases, every one passes", cases.len());
    let mut g = c.benchmark_group("conformance");
    g.sample_size(10);
    g.bench_function(format!("builtin/all-{}-cases", cases.len()), |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .filter(|case| matches!(run_case(case, &mut Builtin), Outcome::Passed))
                .count()
        })
    });
    g.bench_function(format!("load/all-{}-case-files", files.len()), |b| {
        b.iter(|| load_cases(black_box(&files)).len())
    });
    g.finish();
}

criterion_group!(benches, conformance);
criterion_main!(benches);
