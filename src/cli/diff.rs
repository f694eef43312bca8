//! `m3go diff`: random games against another implementation (`crate::conform::diff`), the first
//! disagreement shrunk and printed as a conformance case.

use crate::cli::common::{parse_rules, write_file};
use crate::conform::runner::{Builtin, External};
use crate::game::setup::InputError;
use crate::rules::Rules;

/// Random games against another implementation; the first disagreement, shrunk, as a case.
///
/// Plays seeded random games (SplitMix64), asks the other program about every move through the
/// conformance protocol, compares private eyes, attributes, forbidden points, legal moves,
/// captures, report events and the score, and shrinks the first disagreement to a minimal
/// position and move, printed as a ready-to-add conformance case. Exits 1 on a disagreement.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The other program (a shell command speaking m3go-conform/1).
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: String,
    /// The number of games.
    #[arg(long, value_name = "N", default_value_t = 10)]
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
    /// The most moves per game (default: the number of points).
    #[arg(long, value_name = "M")]
    pub max_moves: Option<u32>,
    /// Write the shrunk case to DIR/ID.yaml.
    #[arg(short = 'o', value_name = "DIR")]
    pub out: Option<String>,
}

pub fn run(args: DiffArgs) -> i32 {
    match diff_run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn diff_run(args: DiffArgs) -> Result<i32, InputError> {
    use std::io::IsTerminal;
    let cmd = &args.implementation;
    let size = args.size;
    crate::board::grid::check_size(size)
        .map_err(|e| InputError::new(e.to_string()).key("--size"))?;
    let opts_d = crate::conform::diff::DiffOptions {
        games: args.games,
        seed: args.seed,
        size,
        rules: args.rules.clone().unwrap_or_else(Rules::m3go_2020),
        max_moves: args.max_moves.unwrap_or((size * size) as u32),
    };
    let mut other = External::spawn(cmd).map_err(InputError::new)?;
    let mut reference = Builtin;
    let tty = std::io::stdout().is_terminal();
    let (games, max) = (opts_d.games, opts_d.max_moves);
    let mut progress = |g: u32, m: u32| {
        if tty {
            let done =
                ((g - 1) as f64 + (m as f64 / max.max(1) as f64).min(1.0)) / games.max(1) as f64;
            let w = 30;
            let fill = (done * w as f64) as usize;
            out!(
                "\r[{}{}] game {g}/{games} move {m}   ",
                "#".repeat(fill.min(w)),
                ".".repeat(w - fill.min(w))
            );
            crate::cli::common::flush_out();
        }
    };
    let outcome = crate::conform::diff::run(&opts_d, &mut reference, &mut other, &mut progress)
        .map_err(InputError::new)?;
    if tty {
        out!("\r{}\r", " ".repeat(60));
    }
    match outcome {
        crate::conform::diff::DiffOutcome::Agree { games, moves } => {
            outln!(
                "diff: {games} games, {moves} moves compared (seed {}, {size}x{size}, {}): no disagreement",
                opts_d.seed, opts_d.rules.preset
            );
            Ok(0)
        }
        crate::conform::diff::DiffOutcome::Disagree(d) => {
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
