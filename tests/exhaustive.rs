//! Exhaustive 3×3: every diagram of the 3×3 board (4^9 = 262,144: empty, black, white or flower on
//! each point), the unsettled ones (a black/white upper string without a liberty) counted and
//! skipped; from each settled one, every point and the pass for each of the four turns of the
//! ten-move cycle (black stone, white stone, black's flower, white's flower: moves 1, 2, 9, 10),
//! checked with `m3go_engine::testing::check_legal_moves` (legal_moves = what play accepts, reasons on
//! refusals, settled result, traced cascade that ends and removes no neutral flower, reported
//! captures, score sums, deterministic replay). Then, from the stored results, the eight
//! symmetries and the colour swap: the analysis of the image is the image of the analysis, the
//! result of the image move is the image of the result.
//!
//! Slow: marked #[ignore], run by .ci/run from the test build (the dev profile at opt-level 1,
//! Cargo.toml): `cargo test --test exhaustive -- --ignored --nocapture`.

use m3go_engine::testing::{
    board_from_codes, check_legal_moves, check_score, codes_of_board, is_settled, point_facts,
    position, swap_colours, CheckedMove, Symmetry,
};
use m3go_engine::{Action, Analysis, Attribute, Board, Cell, Colour, Rules};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

const N: usize = 9;
const DIAGRAMS: usize = 1 << (2 * N);
/// Move numbers of the four turns of the ten-move cycle, and the colour-swapped partner of each.
const TURNS: [u32; 4] = [1, 2, 9, 10];
const SWAPPED_TURN: [usize; 4] = [1, 0, 3, 2];
/// Reason codes of refusals, in the order of their ids (unknown codes get `OTHER`).
const REASONS: [&str; 12] = [
    "occupied",
    "off-board",
    "wrong-turn",
    "suicide",
    "ko",
    "capture-point",
    "one-liberty-eye",
    "tigers-mouth",
    "game-over",
    "conversion-p",
    "conversion-q",
    "no-flystone",
];
const OTHER: u32 = 31;
const REFUSED: u32 = 1 << 31;
const UNSETTLED: u128 = u128::MAX;

fn code_of(b: &Board) -> usize {
    codes_of_board(b)
        .iter()
        .fold(0usize, |acc, &c| acc * 4 + c as usize)
}

fn board_of(code: usize) -> Board {
    let codes: Vec<u8> = (0..N)
        .map(|k| ((code >> (2 * (N - 1 - k))) & 3) as u8)
        .collect();
    board_from_codes(3, &codes)
}

fn reason_id(r: &str) -> u32 {
    REASONS
        .iter()
        .position(|&x| x == r)
        .map(|k| k as u32)
        .unwrap_or(OTHER)
}

/// The analysis facts of every point packed into 14 bits a point: upper cell (2 bits),
/// attribute (2), private eye of the lower string (2), and the forbidden reason for black's and
/// for white's flower (4 each: reason 2, owner 2).
fn signature(b: &Board, rules: &Rules) -> u128 {
    let a = Analysis::new(b, rules);
    let facts = point_facts(&a, rules);
    let mut sig = 0u128;
    for f in facts.iter() {
        let upper = match f.upper {
            Cell::Empty => 0,
            Cell::Stone(Colour::Black) => 1,
            Cell::Stone(Colour::White) => 2,
            Cell::OffBoard => 3,
        };
        let attr = match f.attribute {
            None => 0,
            Some(Attribute::Neutral) => 1,
            Some(Attribute::Black) => 2,
            Some(Attribute::White) => 3,
        };
        let eyed = match f.eyed {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        };
        let forb = |x: Option<(&'static str, Option<Colour>)>| -> u128 {
            match x {
                None => 0,
                Some((code, owner)) => {
                    let c = match code {
                        "capture-point" => 1,
                        "one-liberty-eye" => 2,
                        "tigers-mouth" => 3,
                        _ => 3,
                    };
                    let o = match owner {
                        None => 0,
                        Some(Colour::Black) => 1,
                        Some(Colour::White) => 2,
                    };
                    c | (o << 2)
                }
            }
        };
        let v: u128 = upper
            | (attr << 2)
            | (eyed << 4)
            | (forb(f.forbidden[0]) << 6)
            | (forb(f.forbidden[1]) << 10);
        sig = (sig << 14) | v;
    }
    sig
}

fn point_sig(sig: u128, i: usize) -> u128 {
    (sig >> (14 * (N - 1 - i))) & 0x3fff
}

fn swap_point_sig(v: u128) -> u128 {
    let sw2 = |x: u128| match x {
        1 => 2,
        2 => 1,
        other => other,
    };
    let upper = sw2(v & 3);
    let attr = match (v >> 2) & 3 {
        2 => 3,
        3 => 2,
        other => other,
    };
    let eyed = (v >> 4) & 3;
    let fb = (v >> 6) & 15;
    let fw = (v >> 10) & 15;
    let swf = |f: u128| (f & 3) | (sw2(f >> 2) << 2);
    upper | (attr << 2) | (eyed << 4) | (swf(fw) << 6) | (swf(fb) << 10)
}

struct Results {
    sig: Vec<u128>,
    /// results[code][turn * 10 + action]: the resulting board code, or REFUSED | reason id.
    results: Vec<[u32; 40]>,
}

fn explore(rules: &Rules) -> (Results, u64, u64) {
    let moves_checked = AtomicU64::new(0);
    let settled = AtomicU64::new(0);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let chunk = DIAGRAMS.div_ceil(threads);
    let mut sig = vec![UNSETTLED; DIAGRAMS];
    let mut results = vec![[0u32; 40]; DIAGRAMS];
    std::thread::scope(|scope| {
        for (k, (sig_part, res_part)) in sig
            .chunks_mut(chunk)
            .zip(results.chunks_mut(chunk))
            .enumerate()
        {
            let moves_checked = &moves_checked;
            let settled = &settled;
            scope.spawn(move || {
                for (j, (s, r)) in sig_part.iter_mut().zip(res_part.iter_mut()).enumerate() {
                    let code = k * chunk + j;
                    let b = board_of(code);
                    if !is_settled(&b, rules) {
                        continue;
                    }
                    settled.fetch_add(1, Ordering::Relaxed);
                    *s = signature(&b, rules);
                    for (t, &n) in TURNS.iter().enumerate() {
                        let pos = position(b.clone(), rules.clone(), n);
                        if t == 0 {
                            check_score(&pos).unwrap_or_else(|e| panic!("{e}"));
                        }
                        let outcomes = check_legal_moves(&pos).unwrap_or_else(|e| panic!("{e}"));
                        assert_eq!(outcomes.len(), N + 1);
                        for (a, (action, outcome)) in outcomes.iter().enumerate() {
                            r[t * 10 + a] = match outcome {
                                CheckedMove::Played(next) => {
                                    if *action == Action::Pass {
                                        assert_eq!(next.board(), &b);
                                    }
                                    code_of(next.board()) as u32
                                }
                                CheckedMove::Refused(reason) => REFUSED | reason_id(reason.code()),
                            };
                        }
                        moves_checked.fetch_add(outcomes.len() as u64, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    (
        Results { sig, results },
        settled.into_inner(),
        moves_checked.into_inner(),
    )
}

/// The symmetries and the colour swap, from the stored results.
fn check_images(res: &Results) -> u64 {
    let mut comparisons = 0u64;
    let b0 = board_of(0);
    for code in 0..DIAGRAMS {
        let sig = res.sig[code];
        if sig == UNSETTLED {
            continue;
        }
        let b = board_of(code);
        for s in Symmetry::ALL {
            let image = code_of(&s.board(&b));
            let isig = res.sig[image];
            assert_ne!(
                isig,
                UNSETTLED,
                "the image of a settled board is settled:\n{}",
                b.to_diagram()
            );
            for i in 0..N {
                let j = s.index(&b0, i);
                assert_eq!(
                    point_sig(isig, j),
                    point_sig(sig, i),
                    "symmetry {s:?} of the analysis at point {i}:\n{}",
                    b.to_diagram()
                );
            }
            for (t, turn) in TURNS.iter().enumerate() {
                for i in 0..=N {
                    let j = if i == N { N } else { s.index(&b0, i) };
                    let r = res.results[code][t * 10 + i];
                    let ri = res.results[image][t * 10 + j];
                    let expected = if r & REFUSED != 0 {
                        r
                    } else {
                        code_of(&s.board(&board_of(r as usize))) as u32
                    };
                    assert_eq!(
                        ri,
                        expected,
                        "symmetry {s:?}, turn {turn}, action {i}:\n{}",
                        b.to_diagram()
                    );
                    comparisons += 1;
                }
            }
        }
        let swapped = code_of(&swap_colours(&b));
        let ssig = res.sig[swapped];
        assert_ne!(ssig, UNSETTLED);
        for i in 0..N {
            assert_eq!(
                point_sig(ssig, i),
                swap_point_sig(point_sig(sig, i)),
                "colour swap of the analysis at point {i}:\n{}",
                b.to_diagram()
            );
        }
        for t in 0..4 {
            for i in 0..=N {
                let r = res.results[code][t * 10 + i];
                let rs = res.results[swapped][SWAPPED_TURN[t] * 10 + i];
                let expected = if r & REFUSED != 0 {
                    r
                } else {
                    code_of(&swap_colours(&board_of(r as usize))) as u32
                };
                assert_eq!(
                    rs,
                    expected,
                    "colour swap, turn {} -> {}, action {i}:\n{}",
                    TURNS[t],
                    TURNS[SWAPPED_TURN[t]],
                    b.to_diagram()
                );
                comparisons += 1;
            }
        }
    }
    comparisons
}

fn run(preset: &str) {
    let start = Instant::now();
    let rules = Rules::preset(preset).expect("preset");
    let (res, settled, moves) = explore(&rules);
    let comparisons = check_images(&res);
    println!(
        "exhaustive 3x3 {preset}: {DIAGRAMS} diagrams, {settled} settled, {} unsettled skipped, {moves} moves checked, {comparisons} symmetry/colour-swap comparisons, {:.1} s",
        DIAGRAMS as u64 - settled,
        start.elapsed().as_secs_f64()
    );
    assert!(settled > 0 && moves >= settled * 4 * (N as u64 + 1));
}

#[test]
#[ignore = "exhaustive: run by .ci/run (cargo test --test exhaustive -- --ignored)"]
fn exhaustive_3x3_m3go_2020_every_position_and_move() {
    run("m3go-2020");
}

#[test]
#[ignore = "exhaustive: run by .ci/run (cargo test --test exhaustive -- --ignored)"]
fn exhaustive_3x3_dullstone_every_position_and_move() {
    run("dullstone");
}

/// The board coding of this file is a bijection (a quick, not ignored, self-check).
#[test]
fn exhaustive_board_coding_round_trips() {
    for code in [0, 1, 4, 12345, DIAGRAMS - 1] {
        assert_eq!(code_of(&board_of(code)), code);
    }
    let _ = swap_colours(&board_of(1));
}
