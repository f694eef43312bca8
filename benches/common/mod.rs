//! Shared by the benches: the committed inputs under `benches/data/` (written by
//! `examples/gen_bench_positions.rs`).
#![allow(dead_code)]

use m3go_engine::Position;

/// Loads `benches/data/NAME.yaml`.
pub fn load(name: &str) -> Position {
    let path = format!("{}/benches/data/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
    m3go::input::load_position(&path).unwrap_or_else(|e| panic!("bench input {path}: {e}"))
}

/// The dense 19x19 positions: Lee Sedol vs AlphaGo game 5 replayed under M3Go.
pub const DENSE: [&str; 3] = [
    "alphago-lee-sedol-2016-g5-100",
    "alphago-lee-sedol-2016-g5-150",
    "alphago-lee-sedol-2016-g5-last",
];

/// The private-eye worst cases.
pub const WORST: [&str; 3] = [
    "worst-large-region",
    "worst-many-strings",
    "worst-flower-walls",
];
