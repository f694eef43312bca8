//! `m3go play`: moves played on a position, each reported step by step.

use crate::cli::common::write_file;
use crate::cli::common::Format;
use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::{InputError, Labels};

/// Play moves (黑291.七A, 华289.H九, 七A, pass) and report each one.
///
/// Moves are in the documents' notation (`华289.H九`, `花290.六三`, `黑291.七A`, `黑291.pass`) or
/// plain (`七A`, `7a`, `pass`: the next move, with the stone the schedule gives). Prints per move
/// the cascade step by step, captures, private eyes made or lost, strings put in atari and
/// attribute changes, then the analysis of the resulting position. An illegal move is an error
/// naming its number and the clause that refuses it.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The position file (YAML, spec/README.md).
    #[arg(value_name = "POS.yaml")]
    pub pos: String,
    /// The moves, in order.
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Write the resulting position to this file.
    #[arg(short = 'o', value_name = "OUT.yaml")]
    pub out: Option<String>,
    /// Output format (JSON: the reports and the final analysis).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub text: crate::cli::common::TextArgs,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// One move's text: its notation, the cascade step by step, the captures, the private eyes made
/// and lost, the ataris and the attribute changes, every point in `labels`.
fn print_report(r: &m3go_engine::Report, labels: Labels) {
    let pt = |s: &m3go_engine::board::StringName| s.format(labels);
    let pts = |v: &[m3go_engine::Point]| {
        v.iter()
            .map(|q| q.format(labels))
            .collect::<Vec<_>>()
            .join(" ")
    };
    outln!("{}", r.notation.format(labels));
    for s in &r.steps {
        outln!("    {}", s.format(labels));
    }
    if !r.captured.is_empty() {
        outln!("    captured: {}", pts(&r.captured));
    }
    for e in &r.eyes_made {
        let eyes: Vec<String> = e.eyes.iter().map(|x| pts(x)).collect();
        outln!(
            "    private eye made: {} (its private eyes: [{}])",
            pt(&e.string),
            eyes.join("], [")
        );
    }
    for e in &r.eyes_lost {
        outln!("    private eye lost: {}", pt(&e.string));
    }
    for a in &r.ataris {
        outln!("    put in atari: {}", pt(&a.string));
    }
    for c in &r.attribute_changes {
        outln!(
            "    flower {}: {} -> {}",
            pt(&c.string),
            c.from.name(),
            c.to.name()
        );
    }
    if r.game_over {
        outln!("    the game is over");
    }
}

pub fn run(args: PlayArgs) -> Result<(), crate::errors::Error> {
    if let Some(out) = &args.out {
        crate::cli::common::check_extension(out, "-o", &crate::cli::common::POSITION_EXTENSIONS)?;
        // refused before the moves are played (a folder, a dangling link), not after the report
        crate::cli::output::decide(out)?;
    }
    let fmt = args.format;
    let start = crate::input::load_position(&args.pos)?.with_engine(args.engine.engine());
    let labels = args.text.options().labels;
    let (p, reports) = crate::tools::replay::play_listed(&start, &args.moves, "MOVE", true, |r| {
        if fmt == Format::Text {
            print_report(r, labels);
        }
    })
    // a refusal names its points in the labels asked for (JSON's errors stay Chinese)
    .map_err(|e| {
        e.input_error_in(if fmt == Format::Text {
            labels
        } else {
            Labels::Chinese
        })
    })?;
    if fmt == Format::Json {
        let v = m3go_engine::formats::report::PlayReport::new(reports, &p);
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(InputError::internal)?
        );
        crate::cli::json_printed();
    } else {
        outln!();
        out!(
            "{}",
            AnalysisReport::new(&p).to_text_with(args.text.options())
        );
    }
    if let Some(out) = &args.out {
        let text = serde_yaml::to_string(&p.to_setup()).map_err(InputError::internal)?;
        write_file(out, &text)?;
    }
    Ok(())
}
