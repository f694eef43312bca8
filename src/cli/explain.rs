//! `m3go explain`: the clause trace of a point, a string or a move (`m3go_engine::formats::explain`).

use crate::cli::common::Format;
use crate::tools::readings::readings;
use m3go_engine::formats::explain::Trace;
use m3go_engine::InputError;

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
    /// Also judge the position (and the move, if TARGET is one) under every value of every rule
    /// option: the verdicts that change, with the register entries, and the trace of TARGET under
    /// each reading that changes it.
    #[arg(long)]
    pub readings: bool,
    /// Output format (JSON `m3go-explain/1`: the target, the trace's text and its steps, each
    /// with its clause, subject and verdict, and `readings` with `--readings`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub labels: crate::cli::common::LabelsArgs,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

pub fn run(args: ExplainArgs) -> Result<(), InputError> {
    let p = crate::input::load_position(&args.pos)?.with_engine(args.engine.engine());
    let target = &args.target;
    let trace = Trace::explain(&p, target)?;
    let readings = if args.readings {
        Some(readings(
            &p,
            Some(target),
            &crate::conform::register::option_entries(),
        )?)
    } else {
        None
    };
    match args.format {
        Format::Text => {
            let labels = args.labels.labels();
            out!("{}", trace.format(labels));
            if let Some(rd) = &readings {
                outln!();
                out!("{}", rd.to_text_in(labels));
            }
        }
        Format::Json => {
            let v = crate::conform::outputs::ExplainReport {
                format: m3go_engine::formats::explain::Trace::FORMAT.to_string(),
                target: m3go_engine::formats::explain::Trace::target_text(&p, target),
                trace: trace.text(),
                steps: trace.steps,
                readings,
            };
            outln!(
                "{}",
                serde_json::to_string_pretty(&v).map_err(InputError::internal)?
            );
        }
    }
    Ok(())
}
