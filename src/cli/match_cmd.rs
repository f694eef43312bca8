//! `m3go match`: programs play whole games under m3go's refereeing (`crate::referee`).

use crate::cli::common::{parse_rules, progress_bar, write_file};
use crate::cli::match_clock::parse_clock;
use crate::cli::match_watch;
use crate::conform::junit::TestSuite;
use crate::conform::play_protocol::GameLine;
use crate::conform::play_protocol::ResultsHeader;
use crate::conform::runner::{stop_children_on_signal, thread_pool};
use crate::conform::shard::Shard;
use crate::outputs::{check_outputs, Folder};
use crate::referee::game::GameWatcher;
use crate::referee::game::{Clock, Played};
use crate::referee::results;
use crate::referee::stats::{Pairing, Sprt, SprtVerdict};
use crate::referee::{
    check_starts_told, game_line, pairings, run_game_watched, table, tally, MatchSpec, PlayerSpec,
};
use crate::serve::watch::Live;
use m3go_engine::{InputError, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Play games between programs, refereed by m3go (the play protocol, spec/play-protocol.md).
///
/// Each player is a command (`NAME=COMMAND`, run with `sh -c` in its own process group, one
/// process per game, stopped with everything it started when the game ends) that speaks m3go-player/1. Every two players
/// meet in --games games, the seats swapped each game. Every move is checked by m3go: an illegal
/// move, a timeout, a crash, an unreadable answer, a protocol error or a move of another stone
/// kind forfeits the game (`--illegal pass`: an illegal move becomes a pass), with the clause and
/// the refusal in the record. The game ends by the rules' game end and is counted by m3go. Writes
/// an SGF per game to DIR (`m3go replay` replays it to the same result), prints the results table
/// per pairing (wins, losses, draws, mean margin in half-points, Elo with a 95 % interval), and
/// with --results a header line (the match's selection) and one JSON line per game. --openings
/// starts the games from records or positions (each played twice, the seats swapped); --sprt
/// stops the match once the test has
/// decided; --shard plays part of the games and --merge joins the parts' --results; --junit
/// writes a JUnit XML report (a forfeit is a failure of the player that forfeited). Every output
/// is checked before the first game; a failure (a record that cannot be written) starts no
/// further game and still writes the table, --results and --junit of the games recorded, the
/// error naming the games missing.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// A player: NAME=COMMAND (`a='m3go player --strategy mcts --seed 1'`), speaking the play
    /// protocol m3go-player/1; NAME=gtp:COMMAND for a player speaking GTP version 2 with m3go's
    /// three-colour extension (spec/play-protocol.md "GTP"), taken to play what its
    /// `m3go-capabilities` answers, or m3go-2020 only without it; NAME=gtp[RULES;…]:COMMAND
    /// for a GTP player declared to play exactly RULES (each a preset or a YAML mapping, as --rules)
    /// instead: `gnugo=gtp[{preset: flystone, flystones: 0}]:gnugo --mode gtp` (Flystone
    /// without flystones is plain Go, which GNU Go plays). At least two; a NAME holds no
    /// line break, tab or other control character. What a player writes is read within bounds:
    /// a JSON line of 16 MiB, a GTP line of 64 KiB and answer of 1 MiB, and lines written ahead
    /// of what was asked up to 33 MiB (JSON) or 1 MiB (GTP); past them the player forfeits
    /// (`unreadable` for a line, `protocol` otherwise).
    #[arg(long = "player", value_name = "NAME=COMMAND", required_unless_present = "merge",
          value_parser = parse_player)]
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
    /// The folder the SGF records are written to (game-001.sgf, …), created if missing.
    /// Nothing outside it is written: each file is created new under a temporary name and
    /// renamed over its name. Before the first game: a regular file of the same name is to be
    /// replaced (its mode kept); a symbolic link, a folder, a device or a FIFO there is refused.
    #[arg(short = 'o', value_name = "DIR", required_unless_present = "merge")]
    pub out: Option<String>,
    /// Games played at once (1 to 256).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// A time control per player: BASE+INCREMENT in seconds (`60+1`, `10+0.5`); BASE at least
    /// 0.001.
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
    /// A gauntlet: the first player given meets each of the others, who do not meet one
    /// another (without it, every two players meet: a round robin).
    #[arg(long, conflicts_with = "team")]
    pub gauntlet: bool,
    /// Write the results to FILE: a header line recording the match (its players and their
    /// commands' hash, rules, size, seed, games, openings' hash, shard;
    /// spec/schema/match-results.schema.json), then one JSON line per game
    /// (spec/schema/match-game.schema.json). Checked before the first game, as --junit:
    /// writable, its folder existing, not the other report nor a record of the match.
    #[arg(long, value_name = "FILE")]
    pub results: Option<String>,
    /// Openings: record files (SGF, game file) or position files (.yaml), or folders of them
    /// (their files in name order). Game g of a pairing (from 0) begins with opening g/2
    /// (cycling), so each is played twice in a row with the seats swapped. Each is checked
    /// first: the match's board size, every move legal under its rules, the game not over.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub openings: Vec<String>,
    /// Stop the match once the sequential probability ratio test between ELO0 and ELO1 (the
    /// first player's logistic Elo over the second's) has decided, with error rates ALPHA and
    /// BETA (0.05 each unless given): `--sprt 0,10`. Two players (or two sides) only; the
    /// games already started are finished. With --merge: the test on the merged results.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Play only part K of N of the match's games (those whose number is K modulo N; `auto`
    /// as `conform --shard`): the games, names and seeds are those of the whole match, so
    /// that the parts' --results files merge (--merge) into the whole match's table.
    #[arg(long, value_name = "K/N|auto[/N]", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Join the --results files of the shards of one match and print its results table
    /// (and the SPRT's verdict with --sprt); no game is played. The files (read line by line,
    /// of any size) must be exactly the shards of one match: one selection in their headers,
    /// every shard of one split once, every game of the match once (unless the SPRT stopped
    /// it), and every game line in agreement with the match's schedule and with itself (its
    /// number, players, winner, result, margin, forfeit and times); else nothing is merged
    /// (exit 2).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = [
        "players", "out", "shard", "openings", "team", "gauntlet", "final_analysis", "time",
        "move_time", "illegal", "concurrency", "games", "size", "rules", "seed", "serve",
    ])]
    pub merge: Option<Vec<String>>,
    /// Write a JUnit XML report to FILE: a test case per game, a forfeit as a failure of the
    /// player that forfeited (its kind, clause and message), other games passed.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<String>,
    /// Write beside each game's SGF the analysis of its final position (game-001.final.txt:
    /// the three boards, private eyes, flower attributes, forbidden points and the score, each
    /// with the clause that decided it), as `m3go analyze` prints it.
    #[arg(long)]
    pub final_analysis: bool,
    /// Exit 1 when a game was forfeited (the results still written): a CI job that runs a
    /// match sees a player's forfeits. Without it, forfeits are results and the match exits 0.
    #[arg(long, conflicts_with = "merge")]
    pub fail_on_forfeit: bool,
    /// Watch the match live on the page at http://ADDR/watch (printed on stderr; ADDR:
    /// HOST:PORT or a PORT, by default 127.0.0.1 on any free port): every game with its state,
    /// its board after each move, forfeits with their clause, the results table with Elo as it
    /// grows, a finished game opened as a record in the page. When the match is over the page
    /// stays until the command is interrupted (Ctrl-C).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, require_equals = true,
          default_missing_value = crate::cli::match_watch::DEFAULT_ADDR,
          value_parser = crate::cli::match_watch::ServeAddr::parse)]
    pub serve: Option<crate::cli::match_watch::ServeAddr>,
}

/// `--illegal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IllegalArg {
    /// The player forfeits the game.
    Forfeit,
    /// The move becomes a pass.
    Pass,
}

fn parse_player(v: &str) -> Result<PlayerSpec, crate::referee::PlayerSpecError> {
    PlayerSpec::parse(v)
}

/// The exit status: 0, 1 on a forfeit under --fail-on-forfeit, 2 on an error (with --junit,
/// written as an `<error>` when no report was and the reports' paths are usable).
pub(crate) fn run(args: MatchArgs) -> i32 {
    let mut junit_done = false;
    let mut watch = None;
    let result = play(&args, &mut junit_done, &mut watch);
    if let Some(w) = watch {
        w.linger(&result);
    }
    match result {
        Ok(forfeits) if forfeits > 0 && args.fail_on_forfeit => {
            errln!("error: {forfeits} forfeited: exit 1 (--fail-on-forfeit)");
            1
        }
        Ok(_) => 0,
        Err(e) => {
            let usable = !junit_done && check_outputs(&reports_of(&args), None).is_ok();
            if let (Some(file), true) = (&args.junit, usable) {
                let suite = crate::conform::junit::run_error("m3go-match", &e.to_string());
                if let Err(w) = write_junit(file, &suite) {
                    errln!("error: --junit {file}: {w}");
                }
            }
            crate::cli::fail(&e)
        }
    }
}

/// --results and --junit, with their paths.
fn reports_of(args: &MatchArgs) -> Vec<(&str, &str)> {
    [("--results", &args.results), ("--junit", &args.junit)]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
        .collect()
}

/// Plays the match (or merges its shards): the number of games forfeited, or the error;
/// `junit_done` once no error report is to be written (a report written, or refused); `watch`:
/// its live view, started before the first game with --serve.
fn play(
    args: &MatchArgs,
    junit_done: &mut bool,
    watch: &mut Option<crate::cli::match_watch::Watch>,
) -> Result<usize, crate::errors::Error> {
    if let Some(files) = &args.merge {
        *junit_done = true;
        return merge(files, args);
    }
    let m = spec_of(args)?;
    let out = args.out.clone().unwrap_or_default();
    if m.entrants().len() != 2 && args.sprt.is_some() {
        return Err(InputError::new(format!("{} players", m.entrants().len()))
            .key("--sprt")
            .expected("two players (or two sides in the team format)")
            .into());
    }
    if args.sprt.is_some() && args.shard.is_some() {
        return Err(InputError::new("given with --shard")
            .key("--sprt")
            .expected("the whole match (the test decides over all its games): merge the shards' --results with --merge --sprt").into());
    }
    let games: Vec<_> = m
        .schedule()
        .into_iter()
        .filter(|g| args.shard.is_none_or(|s| s.takes(g.number - 1)))
        .collect();
    // every output checked before the first game: the folder (opened, a file made in it), the
    // names of the files written into it, --results and --junit (distinct, their folders
    // writable)
    let folder = Folder::open(&out)?;
    let mut names = Vec::new();
    for g in &games {
        names.push(game_name(g.number, "sgf"));
        if args.final_analysis {
            names.push(game_name(g.number, "final.txt"));
        }
    }
    folder.check(&names)?;
    check_outputs(&reports_of(args), Some((&folder, &names)))
        .inspect_err(|_| *junit_done = true)?;
    // a plain GTP player scheduled to meet a set-up opening it cannot be told: refused now
    check_starts_told(&m, &games).map_err(|e| InputError::from(e).key("--openings"))?;
    if let Some(addr) = &args.serve {
        *watch = Some(match_watch::Watch::start(addr, &m, &games, &out)?);
    }
    let live = watch.as_ref().map(|w| Arc::clone(&w.live));
    stop_children_on_signal();
    let started = Instant::now();
    let (played, failed) = play_all(args, &m, &games, &folder, live.as_deref())?;
    let lines: Vec<GameLine> = played
        .iter()
        .map(|p| game_line(p, &game_path(&out, p.spec.number, "sgf")))
        .collect();
    // a failure late in the run: what was recorded is still written, and what is missing named
    let recorded: std::collections::HashSet<usize> = played
        .iter()
        .map(|p| p.spec.number)
        .chain(failed.iter().map(|(n, _)| *n))
        .collect();
    let not_started: Vec<usize> = games
        .iter()
        .map(|g| g.number)
        .filter(|n| !recorded.contains(n))
        .collect();
    let mut problems: Vec<crate::errors::Error> = failed.iter().map(|(_, e)| e.clone()).collect();
    if let Some(file) = &args.results {
        // stopped early by the SPRT only: a run cut short by a failure is not a whole match,
        // and its merge is refused for the games missing
        let stopped = failed.is_empty() && games.len() > played.len();
        let header = results::header(results::selection(&m), args.shard, lines.len(), stopped);
        if let Err(e) = write_lines(file, &header, &lines) {
            problems.push(e.key("--results"));
        }
    }
    if let Some(file) = &args.junit {
        let mut suite = results::junit_suite(
            &lines,
            started.elapsed().as_secs_f64(),
            match_properties(args),
        );
        if !failed.is_empty() {
            suite
                .cases
                .extend(results::missing_cases(&failed, &not_started));
        }
        *junit_done = true;
        if let Err(e) = write_junit(file, &suite) {
            problems.push(e.key("--junit"));
        }
    }
    if !failed.is_empty() {
        print_results(&m.entrants(), &lines, args.sprt);
        return Err(results::late_failure(
            &failed,
            &not_started,
            lines.len(),
            problems,
        ));
    }
    if let Some(first) = problems.into_iter().next() {
        print_results(&m.entrants(), &lines, args.sprt);
        return Err(first);
    }
    if games.len() > played.len() {
        outln!(
            "the SPRT decided after {} games: {} not played",
            played.len(),
            games.len() - played.len()
        );
    }
    print_results(&m.entrants(), &lines, args.sprt);
    Ok(lines.iter().filter(|g| g.forfeit.is_some()).count())
}

/// The match `args` describe, checked, with its openings read.
fn spec_of(args: &MatchArgs) -> Result<MatchSpec, InputError> {
    if args.team
        && (args.players.len() != 4
            || args.rules.schedule != m3go_engine::rules::Schedule::Team2016)
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
    // a player declared to play some rules (`gtp[RULES]:`) plays exactly those: the presets'
    // own values are not implied, as a program's capabilities would imply them
    if let Some(p) = args
        .players
        .iter()
        .find(|p| !p.declared.is_empty() && !p.declared.contains(&args.rules))
    {
        return Err(InputError::new(format!(
            "`{}` is declared to play other rules than the match's",
            p.name
        ))
        .key("--player")
        .expected("the match's rules (--rules) among the rules declared in gtp[…]"));
    }
    m3go_engine::Board::empty(args.size).map_err(|e| InputError::from(e).key("--size"))?;
    if !(args.move_time > 0.0 && args.move_time <= 86400.0) {
        return Err(InputError::new(format!("{}", args.move_time))
            .key("--move-time")
            .expected("a positive number of seconds, at most 86400"));
    }
    Ok(MatchSpec {
        players: args.players.clone(),
        games: args.games as usize,
        size: args.size,
        rules: args.rules.clone(),
        seed: args.seed,
        clock: args.time,
        move_time: Duration::from_secs_f64(args.move_time),
        illegal_pass: args.illegal == IllegalArg::Pass,
        team: args.team,
        gauntlet: args.gauntlet,
        openings: crate::referee::openings::openings(&args.openings, &args.rules, args.size)?,
    })
}

/// The path of game `n`'s file with extension `ext` in the folder `out`.
fn game_path(out: &str, n: usize, ext: &str) -> String {
    std::path::Path::new(out)
        .join(game_name(n, ext))
        .to_string_lossy()
        .into_owned()
}

/// The name of game `n`'s file with extension `ext` in the output folder.
fn game_name(n: usize, ext: &str) -> String {
    format!("game-{n:03}.{ext}")
}

/// Plays `games` on --concurrency workers, writing each game's SGF (and final analysis) as it
/// ends and showing the running score; with --sprt, no game starts once the test has decided.
fn play_all(
    args: &MatchArgs,
    m: &MatchSpec,
    games: &[crate::referee::game::GameSpec],
    folder: &Folder,
    live: Option<&Live>,
) -> Result<PlayedAll, crate::errors::Error> {
    let workers = thread_pool(args.concurrency as usize).map_err(InputError::from)?;
    let pb = progress_bar(games.len() as u64, "games");
    // the running tally, a game added as it ends (the progress bar's score, the SPRT)
    let running: Mutex<Vec<Pairing>> = Mutex::new(pairings(&m.entrants()));
    let decided = AtomicBool::new(false);
    let results: Vec<Option<Result<Played, (usize, crate::errors::Error)>>> =
        workers.install(|| {
            games
                .par_iter()
                .map(|g| {
                    if decided.load(Ordering::SeqCst) {
                        return None;
                    }
                    let one = || -> Result<Played, crate::errors::Error> {
                        let watcher = live.map(match_watch::Watcher);
                        let watcher = watcher.as_ref().map(|w| w as &dyn GameWatcher);
                        let played = run_game_watched(m, g, watcher)
                            .map_err(|e| InputError::from(e).key(format!("game {}", g.number)))?;
                        let sgf = folder.path_of(&game_name(g.number, "sgf"));
                        let text = played.record.to_sgf(&m.rules)?;
                        folder.write(&game_name(g.number, "sgf"), &text)?;
                        if args.final_analysis {
                            let report =
                                m3go_engine::formats::report::AnalysisReport::new(&played.position);
                            folder.write(&game_name(g.number, "final.txt"), &report.to_text())?;
                        }
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
                        let mut tallied = running.lock().unwrap_or_else(|e| e.into_inner());
                        let line = game_line(&played, &sgf);
                        tally(&mut tallied, &line);
                        if let Some(l) = live {
                            let name = game_name(g.number, "sgf");
                            match_watch::finished(l, &played, &line, name, &tallied);
                        }
                        pb.set_message(results::running_score(&tallied));
                        if let (Some(t), Some(first)) = (args.sprt, tallied.first()) {
                            if t.verdict(first.wins, first.losses, first.draws)
                                != SprtVerdict::Continue
                            {
                                decided.store(true, Ordering::SeqCst);
                            }
                        }
                        pb.inc(1);
                        Ok(played)
                    };
                    let result = one();
                    if let Err(e) = &result {
                        // no game starts after a failure
                        decided.store(true, Ordering::SeqCst);
                        if let Some(l) = live {
                            match_watch::failed(l, g.number, e);
                        }
                    }
                    Some(result.map_err(|e| (g.number, e)))
                })
                .collect()
        });
    pb.finish_and_clear();
    let mut played = Vec::new();
    let mut failed = Vec::new();
    for r in results.into_iter().flatten() {
        match r {
            Ok(p) => played.push(p),
            Err(f) => failed.push(f),
        }
    }
    failed.sort_by_key(|(n, _)| *n);
    Ok((played, failed))
}

/// The games played and recorded, and those that failed (by number, with the failure).
type PlayedAll = (Vec<Played>, Vec<(usize, crate::errors::Error)>);

/// Writes the results file `file`: the header, then the games' JSON lines
/// ([`results::text`]).
fn write_lines(
    file: &str,
    header: &ResultsHeader,
    lines: &[GameLine],
) -> Result<(), crate::errors::Error> {
    let text = results::text(header, lines).map_err(InputError::internal)?;
    write_file(file, &text)
}

/// Prints the results table, the SPRT's verdict and the forfeits.
fn print_results(entrants: &[String], lines: &[GameLine], sprt: Option<Sprt>) {
    let tally = table(entrants, lines);
    for t in &tally {
        outln!("{}", t.line());
    }
    if let (Some(s), Some(first)) = (sprt, tally.first()) {
        outln!("{}", s.line(first));
    }
    let forfeits = lines.iter().filter(|g| g.forfeit.is_some()).count();
    outln!("forfeits: {forfeits} of {} games", lines.len());
    for g in lines {
        if let Some(f) = &g.forfeit {
            outln!(
                "game {}: {} forfeits at move {} ({}{}): {}",
                g.game,
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
}

/// The JUnit report's properties of a match played: its rules, board, seed, players and shard.
fn match_properties(args: &MatchArgs) -> Vec<(String, String)> {
    let mut properties = vec![
        ("rules".to_string(), args.rules.preset.to_string()),
        ("size".to_string(), args.size.to_string()),
        ("seed".to_string(), args.seed.to_string()),
    ];
    for p in &args.players {
        properties.push((format!("player {}", p.name), p.command.clone()));
    }
    if let Some(sh) = args.shard {
        properties.push(("shard".to_string(), sh.to_string()));
    }
    properties
}

/// Writes the JUnit report `suite` to `file`.
fn write_junit(file: &str, suite: &TestSuite) -> Result<(), crate::errors::Error> {
    crate::conform::junit::xml(suite)
        .map_err(|e| crate::errors::Error::from(InputError::from(e)))
        .and_then(|x| write_file(file, &x))
}

/// `--merge`: the results files of a match's shards read back (as streams), checked to be
/// exactly the shards of one match ([`results::merge`]), joined and reported.
fn merge(files: &[String], args: &MatchArgs) -> Result<usize, crate::errors::Error> {
    // the reports checked before the shards are read, as a match checks them before its first
    // game (writable, distinct)
    check_outputs(&reports_of(args), None)?;
    let merged = results::merge(files).map_err(InputError::from)?;
    let lines = &merged.lines;
    if let Some(file) = &args.results {
        write_lines(file, &merged.header(), lines)?;
    }
    if let Some(file) = &args.junit {
        let seconds = lines
            .iter()
            .map(|g| g.time_ms[0] as f64 / 1000.0 + g.time_ms[1] as f64 / 1000.0)
            .sum();
        // what was merged, not the rules and seed of this command line: its defaults are not
        // the shards' match
        let properties = vec![("merged".to_string(), files.join(", "))];
        write_junit(file, &results::junit_suite(lines, seconds, properties))?;
    }
    let entrants = merged.entrants();
    if args.sprt.is_some() && entrants.len() != 2 {
        return Err(
            InputError::new(format!("{} players in the results", entrants.len()))
                .key("--sprt")
                .expected("two players (or two sides)")
                .into(),
        );
    }
    print_results(&entrants, lines, args.sprt);
    Ok(lines.iter().filter(|g| g.forfeit.is_some()).count())
}
