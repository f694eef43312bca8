//! `m3go convert`: a game record written as SGF or as a move-number game file.

use crate::cli::common::{parse_rules, record_text, write_file};
use m3go_engine::{Labels, Rules};

/// Write a record as SGF (OUT.sgf) or game file.
///
/// The whole record is replayed strictly under its rules before anything is written, so an
/// illegal move is an error (with its number) and no file is written.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The game record: SGF, or a game file in the move-number notation.
    #[arg(value_name = "GAME")]
    pub input: String,
    /// The output: SGF if it ends in .sgf, a game file if it ends in .txt.
    #[arg(value_name = "OUT")]
    pub output: String,
    /// The rules, when the record names none: a preset (m3go-2020, m3go-2016, m3go-2013,
    /// dullstone, flystone) or a YAML mapping.
    #[arg(long, value_name = "PRESET", value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// The label system of a written game file.
    #[arg(long, value_enum, default_value_t = Labels::Chinese)]
    pub labels: Labels,
    /// Write OUT even when it is GAME itself (the record is replaced by what the conversion
    /// keeps).
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: ConvertArgs) -> Result<(), crate::errors::Error> {
    let (input, output) = (&args.input, &args.output);
    let labels = args.labels;
    crate::cli::common::check_extension(output, "OUT", &crate::cli::common::RECORD_EXTENSIONS)?;
    crate::cli::common::refuse_own_input(output, "OUT", input, args.force)?;
    let record = crate::input::load_record(input)?;
    let rules = record.resolve_rules(args.rules.as_ref())?;
    // check the whole record before writing it
    let note = record.assumed_rules_note(args.rules.as_ref());
    crate::tools::replay::strict(&record, &rules, None, m3go_engine::Engine::Fast).map_err(
        |e| match (note, e.kind) {
            (Some(n), m3go_engine::ErrorKind::IllegalMove) => e.during(n),
            (_, _) => e,
        },
    )?;
    let text = record_text(output, "OUT", &record, &rules, labels)?;
    write_file(output, &text)?;
    crate::cli::common::tell_dropped("convert", input, output, &record.dropped);
    Ok(())
}
