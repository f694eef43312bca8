//! `m3go perft`: the number of legal move sequences of a given length.

use crate::game::setup::{InputError, Setup};

/// Count legal move sequences (passes included).
///
/// Every legal point of the side to move plus the pass, plus the special moves (Dullstone's
/// emergency conversions, Flystone's chosen flystones), to the given depth.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The position file (YAML, spec/README.md).
    #[arg(value_name = "POS.yaml")]
    pub pos: String,
    /// The number of moves, 0 to 8.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=8))]
    pub depth: u32,
    /// Print the count under each first move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Count with the clause-by-clause reference alone (slow), not the fast engine.
    #[arg(long)]
    pub reference: bool,
}

pub fn run(args: PerftArgs) -> Result<(), InputError> {
    let depth = args.depth;
    let p = Setup::load(&args.pos)?;
    // a progress bar over the first moves (on a terminal only)
    let pb = crate::cli::common::progress_bar(0, "first moves");
    let progress = |done: usize, of: usize| {
        pb.set_length(of as u64);
        pb.set_position(done as u64);
    };
    if args.divide {
        let d = crate::tools::perft::divide_with(&p, depth, args.reference, &progress);
        pb.finish_and_clear();
        for (m, n) in &d {
            outln!("{m} {n}");
        }
        outln!("total {}", d.iter().map(|(_, n)| n).sum::<u64>());
    } else if depth >= 2 {
        let d = crate::tools::perft::divide_with(&p, depth, args.reference, &progress);
        pb.finish_and_clear();
        outln!("perft {depth} {}", d.iter().map(|(_, n)| n).sum::<u64>());
    } else {
        let n = if args.reference {
            crate::tools::perft::perft_reference(&p, depth)
        } else {
            crate::tools::perft::perft(&p, depth)
        };
        outln!("perft {depth} {n}");
    }
    Ok(())
}
