//! `m3go match`: programs play whole games under m3go's refereeing (`crate::referee`).

use crate::cli::common::{parse_rules, progress_bar, write_file};
use crate::conform::runner::{stop_children_on_signal, thread_pool};
use crate::game::setup::InputError;
use crate::referee::game::{Clock, Played};
use crate::referee::{game_line, run_game, table, MatchSpec, PlayerSpec};
use crate::rules::Rules;
use rayon::prelude::*;
use std::time::Duration;

/// Play games between programs, refereed by m3go (the play protocol, spec/play-protocol.md).
///
/// Each player is a command (`NAME=COMMAND`, run with `sh -c` in its own process group, one
/// process per game, stopped when the game ends) that speaks m3go-player/1. Every two players
/// meet in --games games, the seats swapped each game. Every move is checked by m3go: an illegal
/// move, a timeout, a crash, an unreadable answer, a protocol error or a move of another stone
/// kind forfeits the game (`--illegal pass`: an illegal move becomes a pass), with the clause and
/// the refusal in the record. The game ends by the rules' game end and is counted by m3go. Writes
/// an SGF per game to DIR (`m3go replay` replays it to the same result), prints the results table
/// per pairing (wins, losses, draws, mean margin in half-points, Elo with a 95 % interval), and
/// with --results one JSON line per game.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// A player: NAME=COMMAND (`a='m3go player --strategy mcts --seed 1'`), speaking the play
    /// protocol m3go-player/1; NAME=gtp:COMMAND for a player speaking GTP version 2 with m3go's
    /// three-colour extension (spec/play-protocol.md "GTP"). At least two.
    #[arg(long = "player", value_name = "NAME=COMMAND", required = true, value_parser = parse_player)]
    pub players: Vec<PlayerSpec>,
    /// Games per pairing.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// The board size (odd, 3 to 19).
    #[arg(long, value_name = "S", default_value_t = 9)]
    pub size: usize,
    /// The rules: a preset (m3go-2020, m3go-2016, m3go-2013, dullstone, flystone) or a YAML
    /// mapping (`{ preset: dullstone, ko: positional }`).
    #[arg(long, value_name = "PRESET", value_parser = parse_rules, default_value = "m3go-2020")]
    pub rules: Rules,
    /// The match's seed: each game's name (`s1-g3`) carries it, and the players mix the name
    /// into their own seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The folder the SGF records are written to (game-001.sgf, …).
    #[arg(short = 'o', value_name = "DIR")]
    pub out: String,
    /// Games played at once (1 to 256).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// A time control per player: BASE+INCREMENT in seconds (`60+1`, `10+0.5`).
    #[arg(long, value_name = "BASE+INC", value_parser = parse_clock)]
    pub time: Option<Clock>,
    /// The longest a player has for one move, in seconds.
    #[arg(long, value_name = "T", default_value_t = 60.0)]
    pub move_time: f64,
    /// What an illegal move costs: the game (`forfeit`) or the move (`pass`: it becomes a pass
    /// that does not count towards the end, 003's M20-REPLAY-PASS).
    #[arg(long, value_enum, default_value_t = IllegalArg::Forfeit)]
    pub illegal: IllegalArg,
    /// The 2016 team format of 000: four players, seated A (black stones), B (grey for A's
    /// side: black's flowers), C (white stones), D (grey for C's side: white's flowers); each
    /// move is asked of the seat the rules' team schedule names (B and D from round
    /// team-grey-start, 31). The rules must have `schedule: team2016` (m3go-2016). The first two
    /// players form one side, the last two the other; the sides swap colours each game.
    #[arg(long)]
    pub team: bool,
    /// Write one JSON line per game to FILE (spec/schema/match-game.schema.json).
    #[arg(long, value_name = "FILE")]
    pub results: Option<String>,
}

/// `--illegal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IllegalArg {
    /// The player forfeits the game.
    Forfeit,
    /// The move becomes a pass.
    Pass,
}

fn parse_player(v: &str) -> Result<PlayerSpec, String> {
    PlayerSpec::parse(v)
}

fn seconds(v: &str) -> Result<Duration, String> {
    let s: f64 = v
        .trim()
        .parse()
        .map_err(|_| format!("`{v}` is not a number of seconds"))?;
    if !(0.0..=86400.0 * 365.0).contains(&s) {
        return Err(format!("`{v}`: expected 0 to a year of seconds"));
    }
    Ok(Duration::from_secs_f64(s))
}

fn parse_clock(v: &str) -> Result<Clock, String> {
    let (base, inc) = v.split_once('+').unwrap_or((v, "0"));
    Ok(Clock {
        base: seconds(base)?,
        increment: seconds(inc)?,
    })
}

pub fn run(args: MatchArgs) -> Result<(), InputError> {
    if args.team
        && (args.players.len() != 4 || args.rules.schedule != crate::rules::Schedule::Team2016)
    {
        return Err(InputError::new(format!(
            "{} players under schedule {:?}",
            args.players.len(),
            args.rules.schedule
        ))
        .key("--team")
        .expected("four players (A, B, C, D) and rules with `schedule: team2016` (m3go-2016)"));
    }
    if args.players.len() < 2 {
        return Err(InputError::new("one player given")
            .key("--player")
            .expected("at least two players"));
    }
    for (k, p) in args.players.iter().enumerate() {
        if args.players[..k].iter().any(|q| q.name == p.name) {
            return Err(
                InputError::new(format!("two players are named `{}`", p.name))
                    .key("--player")
                    .expected("a name per player"),
            );
        }
    }
    crate::board::grid::Board::empty(args.size)
        .map_err(|e| InputError::new(e.to_string()).key("--size"))?;
    if !(args.move_time > 0.0 && args.move_time <= 86400.0) {
        return Err(InputError::new(format!("{}", args.move_time))
            .key("--move-time")
            .expected("a positive number of seconds, at most 86400"));
    }
    let move_time = Duration::from_secs_f64(args.move_time);
    let m = MatchSpec {
        players: args.players.clone(),
        games: args.games as usize,
        size: args.size,
        rules: args.rules.clone(),
        seed: args.seed,
        clock: args.time,
        move_time,
        illegal_pass: args.illegal == IllegalArg::Pass,
        team: args.team,
    };
    let folder = std::path::Path::new(&args.out);
    if folder.exists() && !folder.is_dir() {
        return Err(InputError::new(
            "not a folder: expected a folder (new or existing) for the games' SGF files",
        )
        .file(&args.out));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| InputError::new(format!("cannot create: {e}")).file(&args.out))?;
    stop_children_on_signal();
    let games = m.schedule();
    let workers = thread_pool(args.concurrency as usize).map_err(InputError::new)?;
    let pb = progress_bar(games.len() as u64, "games");
    let sgf_path = |n: usize| {
        std::path::Path::new(&args.out)
            .join(format!("game-{n:03}.sgf"))
            .to_string_lossy()
            .into_owned()
    };
    let results: Vec<Result<Played, InputError>> = workers.install(|| {
        games
            .par_iter()
            .map(|g| {
                let played = run_game(&m, g)
                    .map_err(|e| InputError::new(e).key(format!("game {}", g.number)))?;
                let text = crate::formats::sgf::write_record(&played.record, &m.rules)?;
                write_file(&sgf_path(g.number), &text)?;
                errln!(
                    "game {}/{}: {} (black) vs {} (white): {} ({}, {} moves)",
                    g.number,
                    games.len(),
                    g.names[0],
                    g.names[1],
                    played.result(),
                    played.ending_name(),
                    played.record.moves.len()
                );
                pb.inc(1);
                Ok(played)
            })
            .collect()
    });
    pb.finish_and_clear();
    let mut played = Vec::new();
    for r in results {
        played.push(r?);
    }
    if let Some(file) = &args.results {
        let mut text = String::new();
        for p in &played {
            let line = game_line(p, &sgf_path(p.spec.number));
            text.push_str(
                &serde_json::to_string(&line).map_err(|e| InputError::new(e.to_string()))?,
            );
            text.push('\n');
        }
        write_file(file, &text)?;
    }
    for t in table(&m, &played) {
        outln!("{}", t.line());
    }
    for p in &played {
        if let crate::referee::game::Ending::Forfeit { forfeit: f, .. } = &p.ending {
            outln!(
                "game {}: {} forfeits at move {} ({}{}): {}",
                p.spec.number,
                f.player,
                f.move_number,
                f.kind.name(),
                f.clause
                    .as_ref()
                    .map_or_else(String::new, |c| format!(", {c}")),
                f.message
            );
        }
    }
    Ok(())
}
