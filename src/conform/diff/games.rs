//! The random games: each played by m3go and put, move by move, to the program under test on
//! the workers, stopping at the first disagreement (of the lowest-numbered game), shrunk.

use super::compare::{compare, differences, Summary};
use super::shrink::{shrink, stones, Judge};
use super::{
    compared, game_checks, game_seed, make_case, request, request_setup, DiffOptions, DiffOutcome,
    DiffRun, Difference, Disagreement, GameResult, GameVerdict, SplitMix64, Terms,
};
use crate::conform::answer::{case_answer, AnswerParts};
use crate::conform::capabilities::SkippedCheck;
use crate::conform::protocol::Request;
use crate::conform::runner::{
    ask_checked_while, declined_by_answer, negotiate_in, screen, thread_pool, MakeOracle, Oracle,
    OraclePool,
};
use m3go_engine::rules::RulesField;
use m3go_engine::{Action, Move, Notation, Position, Setup};
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
) -> Result<Asked, GamesError> {
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
    let notation = Notation::format_move(pos.turn(), pos.move_number(), action);
    let before = request_setup(pos);
    let moves = vec![notation.clone()];
    let id = format!("diff-{}-g{g}-m{}", opts.seed, pos.move_number());
    let req = request(&id, &before, &moves, terms);
    // the same request typed, as m3go's own answer reads it
    let typed: Request = serde_json::from_value(req.clone()).map_err(GamesError::OwnRequest)?;
    Ok(Asked {
        action,
        notation,
        before,
        moves,
        req,
        typed,
    })
}

/// Why a differential run could not go on: m3go failing itself (its own request, its own
/// legal move, an internal inconsistency), the workers, or the program under test failing
/// outside a game.
#[derive(Debug)]
pub enum GamesError {
    /// m3go cannot read its own request.
    OwnRequest(serde_json::Error),
    /// The empty board of the run's size.
    Board(m3go_engine::board::BoardError),
    /// The start position of a game.
    Start(m3go_engine::game::PositionError),
    /// The other program answered, m3go did not.
    NoOwnAnswer,
    /// m3go refused a move it listed as legal (the move, the refusal).
    OwnMoveRefused {
        notation: String,
        source: m3go_engine::Illegal,
    },
    /// The workers could not be started.
    Workers(crate::conform::runner::WorkersError),
    /// A game cancelled although no game failed.
    CancelledFirst,
    /// A game that agreed where one that failed was expected.
    GoodAmongBad,
    /// The shrunk case could not be answered by both programs.
    ShrunkUnanswered,
    /// The case of the shrunk disagreement could not be made.
    Case(super::shrink::CaseError),
    /// The program under test failed while the disagreement was shrunk.
    Program(crate::conform::failure::ProgramFailure),
}

impl std::fmt::Display for GamesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GamesError::OwnRequest(e) => {
                write!(f, "internal: m3go cannot read its own request: {e}")
            }
            GamesError::Board(e) => write!(f, "{e}"),
            GamesError::Start(e) => write!(f, "{e}"),
            GamesError::NoOwnAnswer => {
                f.write_str("internal: the other program answered without m3go answering")
            }
            GamesError::OwnMoveRefused { notation, source } => {
                write!(f, "m3go refused its own legal move {notation}: {source}")
            }
            GamesError::Workers(e) => write!(f, "{e}"),
            GamesError::CancelledFirst => {
                f.write_str("internal: a game cancelled before any game failed")
            }
            GamesError::GoodAmongBad => f.write_str("internal: a good game among the bad ones"),
            GamesError::ShrunkUnanswered => {
                f.write_str("m3go and the other program could not both answer the shrunk case")
            }
            GamesError::Case(e) => write!(f, "{e}"),
            GamesError::Program(e) => write!(f, "{e}"),
        }
    }
}

/// As a bad input (the message only), for `m3go diff`, whose errors are [`InputError`]s.
///
/// [`InputError`]: m3go_engine::InputError
impl From<GamesError> for m3go_engine::InputError {
    fn from(e: GamesError) -> Self {
        m3go_engine::InputError::new(e.to_string())
    }
}

impl std::error::Error for GamesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GamesError::OwnRequest(e) => Some(e),
            GamesError::Board(e) => Some(e),
            GamesError::Start(e) => Some(e),
            GamesError::OwnMoveRefused { source, .. } => Some(source),
            GamesError::Workers(e) => Some(e),
            GamesError::Case(e) => Some(e),
            GamesError::Program(e) => Some(e),
            GamesError::NoOwnAnswer
            | GamesError::CancelledFirst
            | GamesError::GoodAmongBad
            | GamesError::ShrunkUnanswered => None,
        }
    }
}

/// The start of every game: the empty board of the run's size under its rules.
fn start_position(opts: &DiffOptions) -> Result<Position, GamesError> {
    let empty = m3go_engine::Board::empty(opts.size).map_err(GamesError::Board)?;
    let start = Setup {
        rules: RulesField::of(&opts.rules),
        size: Some(opts.size),
        diagram: empty.to_diagram(),
        ..Setup::default()
    };
    Ok(start
        .to_position("diff")
        .map_err(GamesError::Start)?
        .with_engine(opts.engine))
}

/// The position after a move (or m3go's refusal), and the next move with its request (none
/// when the game ends there).
type After = (
    Result<Position, m3go_engine::Illegal>,
    Option<Result<Asked, GamesError>>,
);

/// m3go's side of a move, worked out while the other program answers it: its own answer
/// (summarised), the position after the move and the next move drawn, and the request of that
/// next move to send ahead.
fn our_side(
    sh: &Shared,
    g: u32,
    pos: &Position,
    now: &Asked,
    played: u64,
    rng: &mut SplitMix64,
) -> (Summary, After, Option<Value>) {
    let opts = sh.opts;
    let answered = case_answer(&now.typed, opts.engine, AnswerParts::Compared);
    let ours = match &answered {
        Ok(a) => Summary::of_answer(a, opts.size),
        Err(e) => Summary::of(e, opts.size),
    };
    // the answer lists the legal moves of the position after the move, the next one: listed
    // once, not again on it (a move drawn from the list that the next position refuses ends
    // the game as m3go refusing its own legal move)
    let listed: Option<Vec<Action>> = answered
        .ok()
        .map(|a| a.analysis.legal_moves.iter().map(|n| n.action).collect());
    let after = pos.play(Move {
        action: now.action,
        number: None,
        turn: None,
    });
    // the move after it, unless the game ends here
    let ahead = match &after {
        Ok(p) if !p.game_over() && played + 1 < u64::from(opts.max_moves) => {
            let legal =
                listed.unwrap_or_else(|| p.legal_moves().into_iter().map(|m| m.action).collect());
            Some(next_move(opts, sh.terms, g, p, &legal, rng))
        }
        _ => None,
    };
    let send = ahead
        .as_ref()
        .and_then(|a| a.as_ref().ok())
        .map(|a| a.req.clone());
    (ours, (after, ahead), send)
}

/// Compares the other program's answer with m3go's (`ours`), counting the move as compared or
/// answered `unsupported`: the differences on the fields compared (none when it agrees).
fn compare_move(
    sh: &Shared,
    counted: &mut Counted,
    ours: &Summary,
    theirs: &Value,
) -> Vec<Difference> {
    use std::sync::atomic::Ordering::Relaxed;
    if theirs.get("unsupported").is_some_and(|u| u == true) {
        sh.skipped.fetch_add(1, Relaxed);
        counted.skipped += 1;
        return Vec::new();
    }
    sh.compared.fetch_add(1, Relaxed);
    counted.compared += 1;
    // the checks left out of this move: those the capabilities decline, and those the answer
    // declines itself; the fields that depend on them are not compared
    let mut left_out = sh.terms.checks.declined.clone();
    left_out.extend(declined_by_answer(theirs, &sh.terms.checks.asked));
    for d in &left_out {
        *counted.checks.entry(d.clone()).or_default() += 1;
    }
    differences(ours, &Summary::of(theirs, sh.opts.size))
        .into_iter()
        .filter(|d| compared(d.field, &left_out))
        .collect()
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
) -> Result<Game, GamesError> {
    use std::sync::atomic::Ordering::Relaxed;
    let opts = sh.opts;
    let mut rng = SplitMix64(game_seed(opts.seed, g));
    let mut pos = start_position(opts)?;
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
            &pos.legal_moves()
                .into_iter()
                .map(|m| m.action)
                .collect::<Vec<_>>(),
            &mut rng,
        )?)
    };
    while let Some(now) = asked.take() {
        if sh.first_bad.load(Relaxed) < g {
            done(played);
            return Ok(Game::Cancelled);
        }
        let mut mine = None;
        let theirs = ask_checked_while(other, &now.req, &mut || {
            let (ours, next, send) = our_side(sh, g, &pos, &now, played, &mut rng);
            mine = Some((ours, next));
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
        let Some((ours, (after, ahead))) = mine else {
            return Err(GamesError::NoOwnAnswer);
        };
        // a request the program did not read is no disagreement on the rules to shrink
        if let Some(said) = crate::conform::check::refusal(&theirs) {
            sh.first_bad.fetch_min(g, Relaxed);
            done(played);
            return Ok(Game::Errored {
                move_number: pos.move_number(),
                message: format!(
                    "it refused the request, answering the error `{said}`: a request it did not \
                     read, not a disagreement on the rules (does it speak the version of the \
                     contract m3go sends? spec/README.md \"Compatibility\")"
                ),
            });
        }
        let diffs = compare_move(sh, counted, &ours, &theirs);
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
        pos = after.map_err(|source| GamesError::OwnMoveRefused {
            notation: now.notation,
            source,
        })?;
        asked = ahead.transpose()?;
        played += 1;
        (sh.progress)(1);
    }
    done(played);
    Ok(Game::Agree)
}

/// Plays the random games of `opts` (those of `games`, default all) on `jobs` workers, each
/// asking its own program under test (made by `make_other`) after every move, and stops at the
/// first disagreement with m3go, shrunk: `run_games`'s outcome.
pub fn run(
    opts: &DiffOptions,
    jobs: usize,
    games: Option<&[u32]>,
    make_other: &MakeOracle,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DiffOutcome, GamesError> {
    run_games(opts, jobs, games, make_other, progress).map(|r| r.outcome)
}

/// A game played: its number, how it ended, what was counted, the seconds it took.
type Played = (u32, Game, Counted, f64);

/// [`run`], with how each game ended (for the reports, `diff --junit`). The program is first
/// asked for its capabilities: rules outside them are [`DiffOutcome::Unsupported`], and no game
/// is played. The games after the first that failed are [`GameVerdict::NotPlayed`] whatever
/// the workers got to, so that the report is the same on any number of them.
/// `progress(n)` is called as `n` more of the `games × max_moves` steps are done.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn run_games(
    opts: &DiffOptions,
    jobs: usize,
    games: Option<&[u32]>,
    make_other: &MakeOracle,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<DiffRun, GamesError> {
    use std::sync::atomic::Ordering::Relaxed;
    let all: Vec<u32> = match games {
        Some(g) => g.to_vec(),
        None => (1..=opts.games).collect(),
    };
    let pool = OraclePool::new(make_other);
    let terms = match negotiate_terms(opts, &all, &pool) {
        Ok(t) => t,
        Err(run) => return Ok(run),
    };
    let sh = Shared {
        opts,
        terms: &terms,
        compared: 0.into(),
        skipped: 0.into(),
        first_bad: u32::MAX.into(),
        progress,
    };
    let played = play_all(&sh, &pool, &all, jobs)?;
    let first_bad = played
        .iter()
        .filter(|(_, x, _, _)| !matches!(x, Game::Agree | Game::Cancelled))
        .map(|(g, _, _, _)| *g)
        .min();
    let (results, first, checks_skipped) = tally(opts, played, first_bad)?;
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
        } => DiffOutcome::Errored {
            game: g,
            move_number,
            message,
        },
        Game::Disagree {
            move_number,
            notation,
            before,
            moves,
            diffs,
        } => pool
            .with(|other| {
                shrunk(
                    opts,
                    &terms,
                    other,
                    Disagreed {
                        g,
                        move_number,
                        notation,
                        before,
                        moves,
                        diffs,
                    },
                )
            })
            .map_err(GamesError::Program)??,
        Game::Agree | Game::Cancelled => return Err(GamesError::GoodAmongBad),
    };
    Ok(DiffRun {
        outcome,
        games: results,
        checks_skipped,
    })
}

/// Every game of `all` not played, for `why`.
fn none_played(opts: &DiffOptions, all: &[u32], why: &str) -> Vec<GameResult> {
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
}

/// The terms of every request, negotiated as `m3go conform` negotiates: the version, and the
/// checks the capabilities decline under the run's rules (one function for both, `screen`);
/// or the run, when no game can be played (the program failed, or the rules are outside its
/// capabilities).
fn negotiate_terms(opts: &DiffOptions, all: &[u32], pool: &OraclePool) -> Result<Terms, DiffRun> {
    let negotiated = match negotiate_in(pool) {
        Ok(n) => n,
        Err(e) => {
            return Err(DiffRun {
                outcome: DiffOutcome::Errored {
                    game: 0,
                    move_number: 0,
                    message: e.to_string(),
                },
                games: none_played(
                    opts,
                    all,
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
            let games = none_played(
                opts,
                all,
                &format!(
                    "not played: the program's declared capabilities exclude {}: {why}",
                    opts.rules.preset
                ),
            );
            return Err(DiffRun {
                outcome: DiffOutcome::Unsupported(why.to_string()),
                games,
                checks_skipped: BTreeMap::new(),
            });
        }
    };
    Ok(Terms {
        protocol: negotiated.protocol,
        checks,
    })
}

/// Plays the games of `all` on `jobs` workers; a game after one that failed is cancelled.
fn play_all(
    sh: &Shared,
    pool: &OraclePool,
    all: &[u32],
    jobs: usize,
) -> Result<Vec<Played>, GamesError> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering::Relaxed;
    let workers = thread_pool(jobs).map_err(GamesError::Workers)?;
    workers.install(|| {
        all.par_iter()
            .map(|&g| {
                let began = std::time::Instant::now();
                let mut counted = Counted::default();
                let r = if sh.first_bad.load(Relaxed) < g {
                    Ok(Game::Cancelled)
                } else {
                    pool.with(|o| play_game(sh, g, o, &mut counted))
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
            .collect::<Result<Vec<_>, GamesError>>()
    })
}

/// What a run reports of its games: each game's result (those after the first that failed
/// not played), how the first that failed ended, and the checks skipped up to it.
type Tally = (Vec<GameResult>, Option<Game>, BTreeMap<SkippedCheck, u64>);

/// Each game's result, the first that failed, and the checks skipped in the games up to it.
fn tally(
    opts: &DiffOptions,
    played: Vec<Played>,
    first_bad: Option<u32>,
) -> Result<Tally, GamesError> {
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
            (Game::Cancelled, _) => return Err(GamesError::CancelledFirst),
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
    Ok((results, first, checks_skipped))
}

/// The first disagreement of a run: game `g`, the move, the position before it and the moves
/// asked, the differences.
struct Disagreed {
    g: u32,
    move_number: u32,
    notation: String,
    before: Box<Setup>,
    moves: Vec<String>,
    diffs: Vec<Difference>,
}

/// The disagreement shrunk (on its first field) into a conformance case.
fn shrunk(
    opts: &DiffOptions,
    terms: &Terms,
    other: &mut dyn Oracle,
    d: Disagreed,
) -> Result<DiffOutcome, GamesError> {
    let Disagreed {
        g,
        move_number,
        notation,
        before,
        moves,
        diffs,
    } = d;
    let field = diffs[0].field;
    let mut reference = crate::conform::runner::BuiltinOn(opts.engine);
    let mut judge = Judge {
        reference: &mut reference,
        other,
        terms,
        field,
        size: opts.size,
        asked: 0,
    };
    let (s, m) = shrink(&mut judge, &opts.rules, (*before).clone(), moves.clone());
    let (o2, t2) = judge.answers(&s, &m).ok_or(GamesError::ShrunkUnanswered)?;
    let id = format!("diff-{field}-s{}-g{g}-m{move_number}", opts.seed).replace('_', "-");
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
    let case = make_case(&id, &s, &m, &o2, &t2, field, notes).map_err(GamesError::Case)?;
    Ok(DiffOutcome::Disagree(Box::new(Disagreement {
        game: g,
        move_number,
        notation,
        differences: diffs,
        stones_before: stones(&before),
        stones_after: stones(&s),
        case,
    })))
}
