//! `m3go analyze`: the analysis of a position, as text, YAML or JSON.

use clap::ValueEnum;
use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::InputError;

/// The three boards, strings, private eyes, flower attributes, forbidden points, legal moves and
/// the score.
///
/// Prints the direct, holographic and upper boards; every string with its lower and upper
/// liberties; every closed region with its verdict and clause; every flower string with Hs, Hw,
/// Bs, Bw, its attribute and the clause; the forbidden points of each player's flower with
/// reasons; the legal moves of the side to move; and the score if the game ended now. Under the
/// 2016 eye rule (m3go-2016, m3go-2013), also 000's concepts: true and false eyes (private and
/// common), the conditions a–d of each closed region, chains and their long-living sub-chains,
/// groups, the long-living and seki strings, the strings dying by their chain, and the
/// strings dead by the local reading (JSON section `m2016`). The JSON
/// form (`"format": "m3go-analysis/4"`) is the contract implementations are compared on.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The position file (YAML, spec/README.md).
    #[arg(value_name = "POS.yaml")]
    pub pos: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Text)]
    pub format: AnalyzeFormat,
    /// Draw the holographic board above the text report (in ANSI colours as `--color` decides:
    /// on a terminal only, never with NO_COLOR, by default).
    #[arg(long)]
    pub board: bool,
    /// Also judge the position under every value of every rule option and list the verdicts
    /// that change, with the register entries (text, or JSON `m3go-readings/1` in `readings`).
    #[arg(long)]
    pub readings: bool,
    #[command(flatten)]
    pub text: crate::cli::common::TextArgs,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// `analyze --format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AnalyzeFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// YAML.
    Yaml,
    /// JSON, versioned `m3go-analysis/4`.
    Json,
}

/// The JSON of `analyze --readings`: the report's keys, then `readings`.
#[derive(serde::Serialize)]
struct WithReadings<'a> {
    #[serde(flatten)]
    report: &'a AnalysisReport,
    readings: &'a crate::tools::readings::Readings,
}

pub fn run(args: AnalyzeArgs) -> Result<(), InputError> {
    let fmt = args.format;
    let p = crate::input::load_position(&args.pos)?.with_engine(args.engine.engine());
    let report = AnalysisReport::new(&p);
    let readings = if args.readings {
        Some(crate::tools::readings::readings(
            &p,
            None,
            &crate::conform::register::option_entries(),
        )?)
    } else {
        None
    };
    if args.board && fmt == AnalyzeFormat::Text {
        outln!(
            "{}",
            crate::cli::common::board_for_stdout(
                &p,
                m3go_engine::formats::render::View::Holographic,
                m3go_engine::Labels::Chinese
            )
        );
    }
    match fmt {
        // serialized straight from the report (no JSON tree in between), written at once
        AnalyzeFormat::Json => {
            let text = match &readings {
                None => serde_json::to_string_pretty(&report),
                Some(rd) => serde_json::to_string_pretty(&WithReadings {
                    report: &report,
                    readings: rd,
                }),
            }
            .map_err(InputError::internal)?;
            outln!("{text}");
        }
        AnalyzeFormat::Yaml => {
            let mut v = serde_json::to_value(&report).map_err(InputError::internal)?;
            if let (Some(m), Some(rd)) = (v.as_object_mut(), &readings) {
                let rd = serde_json::to_value(rd).map_err(InputError::internal)?;
                m.insert("readings".into(), rd);
            }
            out!(
                "{}",
                serde_yaml::to_string(&v).map_err(InputError::internal)?
            );
        }
        AnalyzeFormat::Text => {
            out!("{}", report.to_text_with(args.text.options()));
            if let Some(rd) = &readings {
                outln!();
                out!("{}", rd.to_text_in(args.text.options().labels));
            }
        }
    }
    Ok(())
}
