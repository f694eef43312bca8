//! `m3go explain`: the clause trace of a point, a string or a move (`crate::formats::explain`).

use crate::formats::explain::explain_target;
use crate::game::setup::{InputError, Setup};

/// The clause trace for a point, a string (七九*) or a move (黑291.七A).
///
/// A point (`六四`): is it a capture point, a one-liberty eye, a tiger's mouth, and may each
/// player's flower be played there. A string (`七九*`): each closed region and its verdict, its
/// upper string; a flower string: its neighbours and the counts Hs, Hw, Bs, Bw that decide its
/// attribute. A move (`华289.一九`): legal, with its cascade, or the clause that refuses it.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The position file (YAML, spec/README.md).
    #[arg(value_name = "POS.yaml")]
    pub pos: String,
    /// A point (六四), a string (七九*) or a move (华289.一九, pass).
    #[arg(value_name = "TARGET")]
    pub target: String,
}

pub fn run(args: ExplainArgs) -> Result<(), InputError> {
    let p = Setup::load(&args.pos)?;
    let target = &args.target;
    out!("{}", explain_target(&p, target)?);
    Ok(())
}
