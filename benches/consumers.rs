//! Every consumer on the one position (issue 50, item 9): each consumer of the engine beside the
//! engine's own loop for the same work, in one criterion group per pair, so that the ratio
//! (consumer / engine) of one run says what the consumer adds. The work is the Ke Jie vs AlphaGo
//! game 1 record (`spec/records/kejie-alphago-2017-g1.sgf`, 289 moves) replayed mechanically
//! under M3Go 2020 (a refused move is a pass):
//!
//! - `play_reported`: `m3go play` of the record's moves (all 289: the record has fewer than
//!   300) as the command runs it ([`replay::play_listed`] on the moves written in the
//!   documents' notation, `黑1.…`) vs a loop of [`Position::play_reported`] on the same moves;
//! - `play_fast`: `m3go replay --quiet` of the record ([`replay::mechanical_tally`] on the fast
//!   engine) vs a loop of [`Position::play`] on the moves it plays, and vs the engine doing the
//!   replay's work (each record move tried, a refused one replaced by a pass);
//! - `page_step`: one step of the page (`POST /api/play` with one move and `analysis: true`, as
//!   `src/serve/page/edit.js` sends it, through the server's router [`m3go::serve::route`] to the
//!   answer's bytes) at move 150 vs the engine doing that work directly (the setup read from the
//!   same JSON, the move read and played with its report, the analysis report with its text,
//!   the score trace, the figure and the next position written as YAML and JSON);
//! - `mcts_playout`: the baseline player's playout ([`strategy::playout`]) from the empty board
//!   and from move 150 vs the engine's own random game (`random_game_fast` on the position's fast
//!   form, the same seed and cap) counted the same way ([`Score::of_board`]).
//!
//! `cargo bench --bench consumers -- --warm-up-time 1 --measurement-time 3`; the figures of one
//! run are in docs/src/performance.md ("Every consumer on the one position").

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use m3go::referee::strategy;
use m3go::tools::replay;
use m3go_engine::formats::render::View;
use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::formats::score_trace::ScoreTrace;
use m3go_engine::testing::random_game_fast;
use m3go_engine::{Engine, Labels, Move, Position, Rules, Score, Setup};

const RECORD: &str = "spec/records/kejie-alphago-2017-g1.sgf";

/// The step of the page and the mcts playout start here.
const MIDDLE: usize = 150;

/// The record's mechanical replay: its start, the moves it plays written in the documents'
/// notation (a refused move as the pass played instead), the same moves read back, and the
/// rules.
struct Game {
    start: Position,
    texts: Vec<String>,
    moves: Vec<Move>,
    rules: Rules,
    record: m3go_engine::formats::record::Record,
}

fn game() -> Game {
    let path = format!("{}/{RECORD}", env!("CARGO_MANIFEST_DIR"));
    let record = m3go::input::load_record(&path).expect("the Ke Jie record");
    let rules = Rules::preset("m3go-2020").expect("preset");
    let replayed = replay::mechanical(&record, &rules, Some(300), Engine::Fast).expect("replays");
    let texts: Vec<String> = replayed
        .reports
        .iter()
        .map(|r| r.notation.format(Labels::Chinese))
        .collect();
    let mut p = replayed.start.clone();
    let mut moves = Vec::new();
    for t in &texts {
        let m = Move::parse_in(t, p.rules(), p.board().size()).expect("reads");
        p = p.play(m).expect("legal");
        moves.push(m);
    }
    assert_eq!(p.board(), replayed.position.board());
    Game {
        start: replayed.start,
        texts,
        moves,
        rules,
        record,
    }
}

/// The position after the first `n` moves.
fn after(g: &Game, n: usize) -> Position {
    g.moves[..n]
        .iter()
        .try_fold(g.start.clone(), |p, m| p.play(*m))
        .expect("legal")
}

fn play_reported(c: &mut Criterion, g: &Game) {
    let mut group = c.benchmark_group("play_reported");
    group.sample_size(10);
    group.bench_function("m3go-play", |b| {
        b.iter(|| replay::play_listed(black_box(&g.start), &g.texts, "MOVE", true, |_| ()))
    });
    group.bench_function("engine-loop", |b| {
        b.iter(|| {
            let mut p = black_box(&g.start).clone();
            let mut reports = Vec::with_capacity(g.moves.len());
            for m in &g.moves {
                let (next, r) = p.play_reported(m).expect("legal");
                reports.push(r);
                p = next;
            }
            (p, reports)
        })
    });
    group.finish();
}

fn play_fast(c: &mut Criterion, g: &Game) {
    let mut group = c.benchmark_group("play_fast");
    group.bench_function("m3go-replay-quiet", |b| {
        b.iter(|| {
            replay::mechanical_tally(black_box(&g.record), &g.rules, Some(300), Engine::Fast)
                .expect("replays")
        })
    });
    group.bench_function("engine-loop", |b| {
        b.iter(|| {
            g.moves
                .iter()
                .try_fold(black_box(&g.start).clone(), |p, m| p.play(*m))
                .expect("legal")
        })
    });
    // the same work as the replay: each of the record's moves tried, a refused one replaced by
    // a pass that does not count towards the end (M20-REPLAY-PASS)
    group.bench_function("engine-mechanical", |b| {
        b.iter(|| {
            let mut p = black_box(&g.start).clone();
            for m in g.record.moves.iter().take(g.moves.len()) {
                p = match p.play(Move::from(m.action)) {
                    Ok(next) => next,
                    Err(_) => {
                        let mut next = p.play(Move::pass()).expect("a pass");
                        next.forget_trailing_passes();
                        next
                    }
                };
            }
            p
        })
    });
    group.finish();
}

fn page_step(c: &mut Criterion, g: &Game) {
    let p = after(g, MIDDLE);
    let setup = serde_json::to_value(p.to_setup()).expect("setup as JSON");
    let text = &g.texts[MIDDLE];
    let body = serde_json::to_vec(&serde_json::json!({
        "position": setup,
        "moves": [text],
        "labels": "chinese",
        "analysis": true,
        "layer": "holographic",
        "numbers": false,
    }))
    .expect("body");
    let setup_bytes = serde_json::to_vec(&setup).expect("setup bytes");
    let reply = m3go::serve::route("POST", "/api/play", Some(&body));
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let mut group = c.benchmark_group("page_step");
    group.bench_function("api-play", |b| {
        b.iter(|| m3go::serve::route("POST", "/api/play", Some(black_box(&body))))
    });
    group.bench_function("engine-direct", |b| {
        b.iter(|| {
            let setup: Setup = serde_json::from_slice(black_box(&setup_bytes)).expect("setup");
            let p = setup.to_position("position").expect("valid");
            let m = Move::parse_in(text, p.rules(), p.board().size()).expect("reads");
            let (next, report) = p.play_reported(&m).expect("legal");
            let analysis = AnalysisReport::new(&next);
            let out = next.to_setup();
            (
                serde_json::to_value(&report).expect("report"),
                serde_json::to_value(&analysis).expect("analysis"),
                analysis.to_text(),
                ScoreTrace::of(&next, Labels::Chinese)
                    .ok()
                    .map(|t| serde_json::to_value(&t).expect("trace")),
                View::parse("holographic")
                    .expect("layer")
                    .svg(&next, Labels::Chinese),
                serde_yaml::to_string(&out).expect("yaml"),
                serde_json::to_value(&out).expect("setup"),
            )
        })
    });
    group.finish();
}

fn mcts_playout(c: &mut Criterion, g: &Game) {
    let cap = m3go_engine::Notation::max_moves(g.start.board().size()) as u32;
    let mut group = c.benchmark_group("mcts_playout");
    for (name, p) in [("start", g.start.clone()), ("move-150", after(g, MIDDLE))] {
        let fast = p.fast();
        let seed = 0x5eed;
        let end = random_game_fast(&fast, seed, cap).0.board();
        assert_eq!(end, p.random_game(seed, cap).0, "the same game");
        group.bench_function(format!("strategy-playout/{name}"), |b| {
            b.iter(|| strategy::playout(black_box(&p), &g.rules, seed, cap))
        });
        group.bench_function(format!("engine-random-game/{name}"), |b| {
            b.iter(|| {
                let (end, _) = random_game_fast(black_box(&fast), seed, cap);
                Score::of_board(&end.board(), &g.rules, &[]).map(|s| s.winner)
            })
        });
    }
    group.finish();
}

fn consumers(c: &mut Criterion) {
    let g = game();
    println!(
        "{} moves played ({} in the record)",
        g.moves.len(),
        g.record.moves.len()
    );
    play_reported(c, &g);
    play_fast(c, &g);
    page_step(c, &g);
    mcts_playout(c, &g);
}

criterion_group!(benches, consumers);
criterion_main!(benches);
