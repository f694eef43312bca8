//! `m3go perft`: the number of legal move sequences of a given length.

use crate::errors::OfKind;
use crate::tools::perft::{divide_within, perft_within, NodeBudget};
use m3go_engine::InputError;

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
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
    /// Stop with an error (exit 2) after visiting this many nodes (positions made and move
    /// sequences counted), so that a deep perft on a large board cannot run for hours. Default:
    /// 10000000 on the fast engine, 20000 with --reference: under a minute of CPU on a dense
    /// 19x19 position on a 2-core machine (measured: 170,000 to 600,000 nodes a second on the
    /// fast engine, about 370 on the reference); a loaded machine may take 2 to 4 times as long
    /// in wall time. The progress bar shows the nodes visited and their rate.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Output format (JSON `m3go-perft/1`: the depth, the total and, with --divide, the count
    /// under each first move).
    #[arg(long, value_enum, default_value_t = crate::cli::common::Format::Text)]
    pub format: crate::cli::common::Format,
}

/// `perft --max-nodes` by default on the fast engine: under a minute of CPU. Measured on the
/// slowest machine class we know (2 cores, release build, 2026-12-05, the machine loaded by
/// other builds): a 1,000,000-node budget ran out after 4.2 s of CPU on
/// `spec/positions/example.yaml` at depth 3 (10.5 s of wall time), 2.0 s on Lee Sedol game 5 at
/// move 150 and on `benches/data/worst-flower-walls.yaml`; so 10,000,000 nodes are at most
/// about 42 s of CPU there, and two to four times that in wall time on a loaded machine (a
/// hostile trial saw 8 minutes of wall time for the 30,000,000 of the earlier default).
pub const FAST_NODES: u64 = 10_000_000;
/// `perft --max-nodes` by default with `--reference`: under a minute of CPU. Measured: the
/// reference spent 54 s of CPU on the first 20,000 nodes of a perft of Lee Sedol game 5 at move
/// 150 (19x19, about 370 nodes a second: a legal-move list by the reference takes about 0.8 s
/// there); its subtrees are counted whole only to depth 1, so the budget is checked after every
/// legal-move list.
pub const REFERENCE_NODES: u64 = 20_000;

pub fn run(args: PerftArgs) -> Result<(), crate::errors::Error> {
    let depth = args.depth;
    let p = crate::input::load_position(&args.pos)?.with_engine(args.engine.engine());
    let mut budget = NodeBudget::new(args.max_nodes.unwrap_or(if args.engine.reference {
        REFERENCE_NODES
    } else {
        FAST_NODES
    }));
    let exceeded = |b: NodeBudget| {
        InputError::new(format!(
            "perft {depth} visits more than {} nodes: stopped",
            b.max
        ))
        .key("--max-nodes")
        .expected("a smaller depth, or a larger --max-nodes")
        .limit_exceeded()
    };
    // a progress bar over the first moves (on a terminal only)
    let pb = crate::cli::common::progress_bar(0, "first moves");
    let progress = |done: usize, of: usize, nodes: u64| {
        pb.set_length(of as u64);
        pb.set_position(done as u64);
        let seconds = pb.elapsed().as_secs_f64();
        if seconds > 0.0 {
            pb.set_message(format!(
                "({nodes} nodes, {:.0} a second)",
                nodes as f64 / seconds
            ));
        }
    };
    let json = args.format == crate::cli::common::Format::Json;
    if args.divide || depth >= 2 {
        let d = divide_within(&p, depth, &mut budget, &progress);
        pb.finish_and_clear();
        let d = d.map_err(exceeded)?;
        let total = d.iter().map(|(_, n)| n).sum::<u64>();
        if json {
            let divide = args.divide.then(|| {
                d.iter()
                    .map(|(m, n)| crate::conform::outputs::DivideLine {
                        mv: m.to_string(),
                        count: *n,
                    })
                    .collect()
            });
            print_json(depth, total, divide)?;
        } else if args.divide {
            for (m, n) in &d {
                outln!("{m} {n}");
            }
            outln!("total {total}");
        } else {
            outln!("perft {depth} {total}");
        }
    } else {
        let n = perft_within(&p, depth, &mut budget).map_err(exceeded)?;
        if json {
            // --divide always takes the branch above
            print_json(depth, n, None)?;
        } else {
            outln!("perft {depth} {n}");
        }
    }
    Ok(())
}

/// `--format json`: the report (`m3go-perft/1`).
fn print_json(
    depth: u32,
    total: u64,
    divide: Option<Vec<crate::conform::outputs::DivideLine>>,
) -> Result<(), InputError> {
    let v = crate::conform::outputs::PerftReport {
        format: crate::conform::outputs::PERFT_FORMAT.to_string(),
        depth,
        total,
        divide,
    };
    outln!(
        "{}",
        serde_json::to_string_pretty(&v).map_err(InputError::internal)?
    );
    Ok(())
}
