//! The workloads of the instruction-count guard (`benches/instructions.sh`): each is run once,
//! under callgrind, which counts the instructions executed inside [`measured`] alone (its
//! `--toggle-collect`), so that loading the input is not counted. An instruction count is the
//! same on every machine for one binary, unlike a time; the script compares it with the
//! committed baseline.
//!
//! `cargo run --example instructions -- WORKLOAD` runs one natively (a check that it runs);
//! without a workload it lists them.

use m3go::conform::answer::answer_line_text;
use m3go::conform::capabilities::Capabilities;
use m3go_engine::testing::fast::FastAnalysis;
use m3go_engine::{Board, Colour, Engine, Position, Setup};
use std::hint::black_box;

/// The workloads: name and what it measures.
const WORKLOADS: [(&str, &str); 5] = [
    (
        "dense-analysis",
        "the fast analysis and both flowers' forbidden points of the dense 19x19 position \
         (Lee Sedol vs AlphaGo game 5 at move 150 under M3Go)",
    ),
    (
        "random-game-19",
        "one complete random M3Go 2020 game on 19x19 from the empty board (seed 1)",
    ),
    (
        "random-game-9",
        "ten complete random M3Go 2020 games on 9x9 from the empty board (seeds 1 to 10)",
    ),
    (
        "perft-2",
        "perft depth 2 of the random 19x19 position at move 120 on the fast engine",
    ),
    (
        "protocol-answer",
        "one conformance protocol answer (every field) for the dense 19x19 position",
    ),
];

/// The function callgrind counts: `work` run once, its result kept from the optimiser.
#[inline(never)]
fn measured<T>(work: impl FnOnce() -> T) -> T {
    black_box(work())
}

fn load(name: &str) -> Position {
    let path = format!("{}/benches/data/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
    m3go::input::load_position(&path).unwrap_or_else(|e| panic!("input {path}: {e}"))
}

/// The position of an empty board, its fast state built (outside the measured work).
fn empty(size: usize) -> Position {
    let setup = Setup {
        size: Some(size),
        diagram: Board::empty(size).expect("odd size").to_diagram(),
        ..Default::default()
    };
    warm(setup.to_position("empty board").expect("empty board"))
}

/// `pos` with its fast state built: perft(0) reads it (and counts nothing), so that the
/// measured work does not include building it.
fn warm(pos: Position) -> Position {
    assert_eq!(pos.perft(0), 1);
    pos
}

fn main() {
    let Some(name) = std::env::args().nth(1) else {
        for (name, what) in WORKLOADS {
            println!("{name}\t{what}");
        }
        return;
    };
    match name.as_str() {
        "dense-analysis" => {
            let pos = load("alphago-lee-sedol-2016-g5-150");
            let (board, rules) = (pos.board(), pos.rules());
            measured(|| {
                let a = FastAnalysis::new(board, rules);
                let black = a.forbidden_points(rules, Colour::Black);
                let white = a.forbidden_points(rules, Colour::White);
                (black.len(), white.len())
            });
        }
        "random-game-19" => {
            let start = empty(19);
            measured(|| start.random_game(1, 1000).1);
        }
        "random-game-9" => {
            let start = empty(9);
            measured(|| (1..=10).map(|s| start.random_game(s, 1000).1).sum::<u32>());
        }
        "perft-2" => {
            let pos = warm(load("random-19x19-m3go-120"));
            measured(|| pos.perft(2));
        }
        "protocol-answer" => {
            let pos = load("alphago-lee-sedol-2016-g5-150");
            let request = serde_json::json!({
                "protocol": "m3go-conform/2",
                "id": "instructions",
                "position": pos.to_setup(),
            })
            .to_string();
            let caps = Capabilities::m3go();
            measured(|| answer_line_text(&request, &caps, Engine::Fast).len());
        }
        other => {
            eprintln!(
                "error: unknown workload `{other}`: expected one of {}",
                WORKLOADS.map(|w| w.0).join(", ")
            );
            std::process::exit(2);
        }
    }
}
