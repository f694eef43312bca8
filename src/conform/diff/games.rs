//! The random games: each played by m3go and put, move by move, to the program under test on
//! the workers, stopping at the first disagreement (of the lowest-numbered game), shrunk.

use super::compare::{compare, differences, Summary};
use super::shrink::{shrink, stones, Judge};
use super::{
    compared, game_checks, game_seed, make_case, request, request_setup, DiffOptions, DiffOutcome,
    DiffRun, Difference, Disagreement, GameResult, GameVerdict, SplitMix64, Terms,
};
use crate::conform::answer::{case_answer, Parts};
use crate::conform::capabilities::SkippedCheck;
use crate::conform::protocol::Request;
use crate::conform::runner::{
    ask_checked_while, declined_by_answer, negotiate_in, screen, thread_pool, MakeOracle, Oracle,
    OraclePool,
};
use crate::formats::record::rules_field;
use crate::game::notation::format_move;
use crate::game::play::Position;
use crate::game::play::{Action, Move};
use crate::game::setup::Setup;
use serde_json::Value;
use std::collections::BTreeMap;

/// How one game ended.
enum Game {
    /// Every move agreed (or was answered `unsupported`).
    Agree,
    /// A game after an earlier bad one: not played to the end.
    Cancelled,
    /// A disagreement at this move (before shrinking).
    Disagree {
        move_number: u32,
        notation: String,
        before: Box<Setup>,
        moves: Vec<String>,
        diffs: Vec<Difference>,
    },
    /// The program under test failed at this move.
    Errored { move_number: u32, message: String },
}

/// The moves of one game compared, those answered `unsupported`, and the checks left out of
/// the moves compared (each with its reason, and in how many moves).
#[derive(Clone, Debug, Default)]
struct Counted {
    compared: u64,
    skipped: u64,
    checks: BTreeMap<SkippedCheck, u64>,
}

/// Counters shared by the workers.
struct Shared<'a> {
    opts: &'a DiffOptions,
    /// The version, the checks asked and those declined by capability, for every request.
    terms: &'a Terms,
    compared: std::sync::atomic::AtomicU64,
    skipped: std::sync::atomic::AtomicU64,
    /// The lowest game with a disagreement or an error so far (games after it stop).
    first_bad: std::sync::atomic::AtomicU32,
    progress: &'a (dyn Fn(u64) + Sync),
}

/// One move of a game put to both programs: the move, the position before it as the request
/// carries it, and the request (as JSON for the other program, typed for m3go).
struct Asked {
    action: Action,
    notation: String,
    before: Setup,
    moves: Vec<String>,
    req: Value,
    typed: Request,
}

/// The next move of game `g` at `pos`, drawn from `legal` with `rng`, and its request.
fn next_move(
    opts: &DiffOptions,
    terms: &Terms,
    g: u32,
    pos: &Position,
    legal: &[Action],
    rng: &mut SplitMix64,
) -> Result<Asked, String> {
    let places: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| *a != Action::Pass)
        .collect();
    let r = rng.next_u64();
    let action = if places.is_empty() || (r % 16 == 0 && legal.contains(&Action::Pass)) {
        Action::Pass
    } else {
        places[((r >> 4) % places.len() as u64) as usize]
    };
    let notation = format_move(pos.turn(), pos.move_number(), action);
    let before = request_setup(pos);
    let moves = vec![notation.clone()];
    let id = format!("diff-{}-g{g}-m{}", opts.seed, pos.move_number());
    let req = request(&id, &before, &moves, terms);
    // the same request typed, as m3go's own answer reads it
    let typed: Request = serde_json::from_value(req.clone())
        .map_err(|e| format!("internal: m3go cannot read its own request: {e}"))?;
    Ok(Asked {
        action,
        notation,
        before,
        moves,
        req,
        typed,
    })
}

/// Plays game `g`, asking `other` after every move. While the other program works on a move
/// (on two cores, side by side), m3go works out its own answer to the same request, with the
/// fields [`differences`] reads (no numbered diagram, no extras) and summarised, the position
/// after the move with its legal moves, and the next move with its request, which the other
/// program is sent at once ([`Oracle::ask_while`]): a move then costs the slower of the two,
/// not their sum, the other program starts on the next move as soon as it has answered this
/// one, and nothing waits on a thread of its own. A move is compared before the game goes on
/// from it; when a game stops, the answer to the move sent ahead is set aside.
fn play_game(
    sh: &Shared,
    g: u32,
    other: &mut dyn Oracle,
    counted: &mut Counted,
) -> Result<Game, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let opts = sh.opts;
    let mut rng = SplitMix64(game_seed(opts.seed, g));
    let empty = crate::board::grid::Board::empty(opts.size).map_err(|e| e.to_string())?;
    let start = Setup {
        rules: rules_field(&opts.rules),
        size: Some(opts.size),
        diagram: empty.to_diagram(),
        ..Setup::default()
    };
    let mut pos = start
        .to_position("diff")
        .map_err(|e| e.to_string())?
        .with_engine(opts.engine);
    let mut played = 0u64;
    let done = |played: u64| (sh.progress)(u64::from(opts.max_moves).saturating_sub(played));
    let mut asked = if pos.game_over() || opts.max_moves == 0 {
        None
    } else {
        Some(next_move(
            opts,
            sh.terms,
            g,
            &pos,
            &pos.legal_moves(),
            &mut rng,
        )?)
    };
    while let Some(now) = asked.take() {
        if sh.first_bad.load(Relaxed) < g {
            done(played);
            return Ok(Game::Cancelled);
        }
        let mut ours = None;
        let mut next = None;
        let theirs = ask_checked_while(other, &now.req, &mut || {
            let answered = case_answer(&now.typed, opts.engine, Parts::Compared);
            ours = Some(match &answered {
                Ok(a) => Summary::of_answer(a, opts.size),
                Err(e) => Summary::of(e, opts.size),
            });
            // the answer lists the legal moves of the position after the move, the next
            // one: listed once, not again on it (a move drawn from the list that the next
            // position refuses ends the game as m3go refusing its own legal move)
            let listed: Option<Vec<Action>> = answered
                .ok()
                .map(|a| a.analysis.legal_moves.iter().map(|n| n.action).collect());
            let after = pos.advance(&Move {
                action: now.action,
                number: None,
                turn: None,
            });
            // the move after it, unless the game ends here
            let ahead = match &after {
                Ok(p) if !p.game_over() && played + 1 < u64::from(opts.max_moves) => {
                    let legal = listed.unwrap_or_else(|| p.legal_moves());
                    Some(next_move(opts, sh.terms, g, p, &legal, &mut rng))
                }
                _ => None,
            };
            let send = ahead
                .as_ref()
                .and_then(|a| a.as_ref().ok())
                .map(|a| a.req.clone());
            next = Some((after, ahead));
            send
        });
        let theirs = match theirs {
            Ok(t) => t,
            Err(e) => {
                sh.first_bad.fetch_min(g, Relaxed);
                done(played);
                return Ok(Game::Errored {
                    move_number: pos.move_number(),
                    message: e.to_string(),
                });
            }
        };
        let (Some(ours), Some((after, ahead))) = (ours, next) else {
            return Err("internal: the other program answered without m3go answering".into());
        };
        if theirs.get("unsupported").is_some_and(|u| u == true) {
            sh.skipped.fetch_add(1, Relaxed);
            counted.skipped += 1;
        } else {
            sh.compared.fetch_add(1, Relaxed);
            counted.compared += 1;
            // the checks left out of this move: those the capabilities decline, and those the
            // answer declines itself; the fields that depend on them are not compared
            let mut left_out = sh.terms.checks.declined.clone();
            left_out.extend(declined_by_answer(&theirs, &sh.terms.checks.asked));
            for d in &left_out {
                *counted.checks.entry(d.clone()).or_default() += 1;
            }
            let diffs: Vec<Difference> = differences(&ours, &Summary::of(&theirs, opts.size))
                .into_iter()
                .filter(|d| compared(d.field, &left_out))
                .collect();
            if !diffs.is_empty() {
                sh.first_bad.fetch_min(g, Relaxed);
                done(played);
                return Ok(Game::Disagree {
                    move_number: pos.move_number(),
                    notation: now.notation,
                    before: Box::new(now.before),
                    moves: now.moves,
                    diffs,
                });
            }
        }
        pos =
            after.map_err(|e| format!("m3go refused its own legal move {}: {e}", now.notation))?;
        asked = ahead.transpose()?;
        played += 1;
        (sh.progress)(1);
    }
    done(played);
    Ok(Game::Agree)
}

/// Plays the random games of `opts` (those of `games`, default all) on `jobs` workers, each
/// asking its own program under test (made by `make_other`) after every move, and stops at the
/// first disagreement with m3go, shrunk: [`run_games`]'s outcome.
pub fn run(
    opts: &DiffOptions,
    jobs: usize,
    games: Option<&[u32]>,
    make_other: &MakeOracle,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DiffOutcome, String> {
    run_games(opts, jobs, games, make_other, progress).map(|r| r.outcome)
}

/// [`run`], with how each game ended (for the reports, `diff --junit`). The program is first
/// asked for its capabilities: rules outside them are [`DiffOutcome::Unsupported`], and no game
/// is played. The games after the first that failed are [`GameVerdict::NotPlayed`] whatever
/// the workers got to, so that the report is the same on any number of them.
/// `progress(n)` is called as `n` more of the `games × max_moves` steps are done.
pub fn run_games(
    opts: &DiffOptions,
    jobs: usize,
    games: Option<&[u32]>,
    make_other: &MakeOracle,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DiffRun, String> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering::Relaxed;
    let all: Vec<u32> = match games {
        Some(g) => g.to_vec(),
        None => (1..=opts.games).collect(),
    };
    let none_played = |why: &str| -> Vec<GameResult> {
        all.iter()
            .map(|&g| GameResult {
                game: g,
                seed: game_seed(opts.seed, g),
                verdict: GameVerdict::NotPlayed(why.to_string()),
                compared: 0,
                skipped: 0,
                seconds: None,
            })
            .collect()
    };
    let pool = OraclePool::new(make_other);
    // negotiated as `m3go conform` negotiates: the version, and the checks the capabilities
    // decline under the run's rules (one function for both, `screen`)
    let negotiated = match negotiate_in(&pool) {
        Ok(n) => n,
        Err(e) => {
            return Ok(DiffRun {
                outcome: DiffOutcome::Errored {
                    game: 0,
                    move_number: 0,
                    message: e.to_string(),
                },
                games: none_played(
                    "not played: the program under test failed before the first game",
                ),
                checks_skipped: BTreeMap::new(),
            })
        }
    };
    let checks = match screen(
        &game_checks(),
        &opts.rules,
        None,
        &negotiated.declared,
        "a game",
    ) {
        Ok(c) => c,
        Err(why) => {
            let games = none_played(&format!(
                "not played: the program's declared capabilities exclude {}: {why}",
                opts.rules.preset
            ));
            return Ok(DiffRun {
                outcome: DiffOutcome::Unsupported(why),
                games,
                checks_skipped: BTreeMap::new(),
            });
        }
    };
    let terms = Terms {
        protocol: negotiated.protocol,
        checks,
    };
    let sh = Shared {
        opts,
        terms: &terms,
        compared: 0.into(),
        skipped: 0.into(),
        first_bad: u32::MAX.into(),
        progress,
    };
    let workers = thread_pool(jobs)?;
    type Played = (u32, Game, Counted, f64);
    let played: Vec<Played> = workers.install(|| {
        all.par_iter()
            .map(|&g| {
                let began = std::time::Instant::now();
                let mut counted = Counted::default();
                let r = if sh.first_bad.load(Relaxed) < g {
                    Ok(Game::Cancelled)
                } else {
                    pool.with(|o| play_game(&sh, g, o, &mut counted))
                        .unwrap_or_else(|e| {
                            sh.first_bad.fetch_min(g, Relaxed);
                            Ok(Game::Errored {
                                move_number: 1,
                                message: e.to_string(),
                            })
                        })
                };
                r.map(|x| (g, x, counted, began.elapsed().as_secs_f64()))
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let first_bad = played
        .iter()
        .filter(|(_, x, _, _)| !matches!(x, Game::Agree | Game::Cancelled))
        .map(|(g, _, _, _)| *g)
        .min();
    let mut results = Vec::with_capacity(played.len());
    let mut first = None;
    let mut checks_skipped: BTreeMap<SkippedCheck, u64> = BTreeMap::new();
    for (g, x, counted, seconds) in played {
        if first_bad.is_none_or(|b| g <= b) {
            for (d, n) in &counted.checks {
                *checks_skipped.entry(d.clone()).or_default() += n;
            }
        }
        let verdict = match (&x, first_bad) {
            (_, Some(b)) if g > b => GameVerdict::NotPlayed(format!(
                "not played to its end: the run stops at game {b}, the first that failed"
            )),
            (Game::Agree, _) => GameVerdict::Agree,
            (
                Game::Disagree {
                    move_number,
                    notation,
                    diffs,
                    ..
                },
                _,
            ) => GameVerdict::Disagree {
                move_number: *move_number,
                notation: notation.clone(),
                differences: diffs.clone(),
            },
            (
                Game::Errored {
                    move_number,
                    message,
                },
                _,
            ) => GameVerdict::Errored {
                move_number: *move_number,
                message: message.clone(),
            },
            (Game::Cancelled, _) => {
                return Err("internal: a game cancelled before any game failed".into())
            }
        };
        results.push(GameResult {
            game: g,
            seed: game_seed(opts.seed, g),
            verdict,
            compared: counted.compared,
            skipped: counted.skipped,
            seconds: Some(seconds),
        });
        if Some(g) == first_bad {
            first = Some(x);
        }
    }
    let Some(first) = first else {
        return Ok(DiffRun {
            outcome: DiffOutcome::Agree {
                games: all.len() as u32,
                moves: sh.compared.load(Relaxed),
                skipped: sh.skipped.load(Relaxed),
            },
            games: results,
            checks_skipped,
        });
    };
    let g = first_bad.unwrap_or_default();
    let outcome = match first {
        Game::Errored {
            move_number,
            message,
        } => Ok(DiffOutcome::Errored {
            game: g,
            move_number,
            message,
        }),
        Game::Disagree {
            move_number,
            notation,
            before,
            moves,
            diffs,
        } => pool
            .with(|other| -> Result<DiffOutcome, String> {
                let field = diffs[0].field;
                let mut reference = crate::conform::runner::BuiltinOn(opts.engine);
                let mut judge = Judge {
                    reference: &mut reference,
                    other,
                    terms: &terms,
                    field,
                    size: opts.size,
                    asked: 0,
                };
                let (s, m) = shrink(&mut judge, &opts.rules, (*before).clone(), moves.clone());
                let (o2, t2) = judge
                    .answers(&s, &m)
                    .ok_or("m3go and the other program could not both answer the shrunk case")?;
                let id = format!("diff-{field}-s{}-g{g}-m{move_number}", opts.seed)
                    .replace('_', "-");
                let notes = format!(
                    "Found by `m3go diff --seed {} --size {} --rules {}` in game {g} at move {notation}; shrunk from {} stones and the move to {} stones and {} move(s). The other implementation answered differently on {field}: {}",
                    opts.seed,
                    opts.size,
                    opts.rules.preset,
                    stones(&before),
                    stones(&s),
                    m.len(),
                    compare(&o2, &t2, opts.size)
                        .iter()
                        .filter(|d| d.field == field)
                        .map(|d| d.detail.clone())
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                let case = make_case(&id, &s, &m, &o2, &t2, field, notes)?;
                Ok(DiffOutcome::Disagree(Box::new(Disagreement {
                    game: g,
                    move_number,
                    notation,
                    differences: diffs,
                    stones_before: stones(&before),
                    stones_after: stones(&s),
                    case,
                })))
            })
            .map_err(|e| e.to_string())
            .and_then(|r| r),
        Game::Agree | Game::Cancelled => Err("internal: a good game among the bad ones".into()),
    }?;
    Ok(DiffRun {
        outcome,
        games: results,
        checks_skipped,
    })
}
