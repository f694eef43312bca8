//! `m3go diff`: random games against another implementation (`crate::conform::diff`), the first
//! disagreement shrunk and printed as a conformance case.

use crate::cli::common::{parse_rules, progress_bar, write_file};
use crate::conform::diff::DiffOutcome;
use crate::conform::runner::{stop_children_on_signal, External, Oracle};
use crate::game::setup::InputError;
use crate::rules::Rules;

/// Random games against another implementation; the first disagreement, shrunk, as a case.
///
/// Plays seeded random games (SplitMix64, one stream per game), asks the other program about
/// every move through the conformance protocol, compares private eyes, attributes, forbidden
/// points, legal moves, captures, report events and the score, and shrinks the first
/// disagreement (of the lowest-numbered game) to a minimal position and move, printed as a
/// ready-to-add conformance case. The program is first asked for its capabilities; moves it
/// answers `unsupported` are not compared. Exits 1 on a disagreement, when nothing was compared
/// (unless --allow-empty) or when moves were skipped (unless --allow-skips); exits 2 when the
/// program under test fails (cannot start, crashes, hangs past --timeout, writes something that
/// is not an answer) — that is never reported as a disagreement, and no case is written.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The other program (a shell command speaking m3go-conform/1, which every version of the protocol answers).
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: String,
    /// The number of games (0 to 1000000).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub games: u32,
    /// The seed of the random games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The board size (odd, 3 to 19).
    #[arg(long, value_name = "SIZE", default_value_t = 9)]
    pub size: usize,
    /// The rules: a preset (m3go-2020, m3go-2016, m3go-2013, dullstone, flystone) or a YAML
    /// mapping.
    #[arg(long, value_name = "PRESET", value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// The most moves per game (default: the number of points; at most 10 per point).
    #[arg(long, value_name = "M")]
    pub max_moves: Option<u32>,
    #[command(flatten)]
    pub program: crate::cli::common::ProgramArgs,
    #[command(flatten)]
    pub spread: crate::cli::common::SpreadArgs,
    /// Write the shrunk case to DIR/ID.yaml.
    #[arg(short = 'o', value_name = "DIR")]
    pub out: Option<String>,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

pub fn run(args: DiffArgs) -> i32 {
    match diff_run(args) {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e}");
            2
        }
    }
}

fn diff_run(args: DiffArgs) -> Result<i32, InputError> {
    let cmd = args.implementation.clone();
    let size = args.size;
    crate::board::grid::check_size(size)
        .map_err(|e| InputError::new(e.to_string()).key("--size"))?;
    let limit = crate::formats::record::max_moves(size);
    let max_moves = args.max_moves.unwrap_or((size * size) as u32);
    if max_moves as usize > limit {
        return Err(InputError::new(format!(
            "`{max_moves}` is too many moves per game on {size}x{size}"
        ))
        .key("--max-moves")
        .expected(format!(
            "at most {limit} (10 per point, the limit of a record)"
        )));
    }
    let opts_d = crate::conform::diff::DiffOptions {
        games: args.games,
        seed: args.seed,
        size,
        rules: args.rules.clone().unwrap_or_else(Rules::m3go_2020),
        max_moves,
        engine: args.engine.engine(),
    };
    let games: Vec<u32> = (1..=opts_d.games)
        .filter(|g| args.spread.shard.is_none_or(|s| s.takes(*g as usize - 1)))
        .collect();
    stop_children_on_signal();
    let timeout = std::time::Duration::from_secs(args.program.timeout);
    let make = move || -> Result<Box<dyn Oracle>, String> {
        // the parts of its answers nothing compares are read past
        Ok(Box::new(External::skipping(
            &cmd,
            timeout,
            crate::conform::diff::UNREAD,
        )?))
    };
    let pb = progress_bar(games.len() as u64 * u64::from(max_moves), "moves");
    let outcome = crate::conform::diff::run(
        &opts_d,
        args.spread.jobs as usize,
        Some(&games),
        &make,
        &|n| pb.inc(n),
    )
    .map_err(InputError::new)?;
    pb.finish_and_clear();
    let (seed, preset) = (opts_d.seed, &opts_d.rules.preset);
    match outcome {
        DiffOutcome::Agree {
            games,
            moves,
            skipped,
        } => {
            outln!(
                "diff: {games} games, {moves} moves compared (seed {seed}, {size}x{size}, {preset}): no disagreement"
            );
            if skipped > 0 {
                outln!("diff: {skipped} moves skipped: the program answered `unsupported`");
            }
            if moves == 0 && !args.program.allow_empty {
                errln!("error: nothing was compared: exit 1 (--allow-empty accepts it)");
                return Ok(1);
            }
            if skipped > 0 && !args.program.allow_skips {
                errln!(
                    "error: {skipped} moves skipped: exit 1 (--allow-skips accepts skipped moves)"
                );
                return Ok(1);
            }
            Ok(0)
        }
        DiffOutcome::Unsupported(why) => {
            outln!("diff: 0 moves compared: the program's declared capabilities exclude {preset}: {why}");
            if args.program.allow_empty {
                Ok(0)
            } else {
                errln!("error: nothing was compared: exit 1 (--allow-empty accepts it)");
                Ok(1)
            }
        }
        DiffOutcome::Errored {
            game,
            move_number,
            message,
        } => {
            if game == 0 {
                errln!("error: the program under test failed before the first game: {message}");
            } else {
                errln!(
                    "error: the program under test failed in game {game} at move {move_number}: {message}"
                );
            }
            Ok(2)
        }
        DiffOutcome::Disagree(d) => {
            outln!(
                "diff: disagreement in game {} at move {} ({}):",
                d.game,
                d.move_number,
                d.notation
            );
            for x in &d.differences {
                outln!("  - {}: {}", x.field, x.detail.replace('\n', "\n    "));
            }
            outln!(
                "shrunk from {} stones to {} stone(s) and {} move(s); conformance case {}:",
                d.stones_before,
                d.stones_after,
                d.case.moves.len(),
                d.case.id
            );
            let yaml =
                serde_yaml::to_string(&d.case).map_err(|e| InputError::new(e.to_string()))?;
            outln!("---\n{yaml}");
            if let Some(dir) = &args.out {
                std::fs::create_dir_all(dir)
                    .map_err(|e| InputError::new(format!("cannot create: {e}")).file(dir))?;
                let path = std::path::Path::new(dir).join(format!("{}.yaml", d.case.id));
                write_file(&path.to_string_lossy(), &yaml)?;
                outln!("written to {}", path.display());
            }
            Ok(1)
        }
    }
}
