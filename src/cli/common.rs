//! What several subcommands share: the `--format` value, the `--rules` parser, writing files
//! and records.

use crate::game::setup::{from_yaml, InputError};
use crate::rules::{Rules, RulesField};
use clap::ValueEnum;
use std::io::Write;

/// Writes to standard output. A closed pipe (`m3go analyze POS | head -1`) ends m3go quietly with
/// exit 0, as a Unix filter does; any other write error ends it with a message and exit 2. Every
/// line the CLI prints goes through here (the `out!` and `outln!` macros), so no output
/// condition can panic.
pub fn write_out(args: std::fmt::Arguments<'_>) {
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args) {
        end_on_write_error(&e);
    }
}

/// Flushes standard output, with [`write_out`]'s handling of errors.
pub fn flush_out() {
    if let Err(e) = std::io::stdout().lock().flush() {
        end_on_write_error(&e);
    }
}

fn end_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: standard output: cannot write: {e}");
    std::process::exit(2);
}

/// `text` as standard output should get it: with its ANSI colours on a terminal, without them
/// into a pipe or a file and whenever `NO_COLOR` is set (`CLICOLOR_FORCE` keeps them; the
/// decision is anstream's).
pub fn for_stdout(text: String) -> String {
    match anstream::AutoStream::choice(&std::io::stdout()) {
        anstream::ColorChoice::Never => anstream::adapter::strip_str(&text).to_string(),
        _ => text,
    }
}

/// `--labels` and `--verbose` of the commands that print a text report.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct TextArgs {
    /// The label system of the points in the text (JSON always writes the Chinese one).
    #[arg(long, value_enum, default_value_t = super::convert::LabelsArg::Chinese)]
    pub labels: super::convert::LabelsArg,
    /// List every closed region of each string, not only its private eyes.
    #[arg(long)]
    pub verbose: bool,
}

impl TextArgs {
    pub fn options(self) -> crate::formats::report::TextOptions {
        crate::formats::report::TextOptions {
            labels: match self.labels {
                super::convert::LabelsArg::Chinese => crate::board::coord::Labels::Chinese,
                super::convert::LabelsArg::Latin => crate::board::coord::Labels::Latin,
            },
            verbose: self.verbose,
        }
    }
}

/// `--format` of the commands that print text or JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (pretty-printed).
    Json,
}

/// `--rules`: a preset name or a YAML rules mapping, resolved to the rules.
pub fn parse_rules(v: &str) -> Result<Rules, String> {
    let f: RulesField = from_yaml(v, "--rules").map_err(|e| e.to_string())?;
    f.resolve().map_err(|e| e.to_string())
}

pub fn write_file(path: &str, text: &str) -> Result<(), InputError> {
    std::fs::write(path, text).map_err(|e| InputError::new(format!("cannot write: {e}")).file(path))
}

/// Writes a record to `path`: SGF for `.sgf`, else a game file.
pub fn save_record(
    path: &str,
    record: &crate::formats::record::Record,
    rules: &Rules,
    labels: crate::board::coord::Labels,
) -> Result<(), InputError> {
    let text = if path.to_ascii_lowercase().ends_with(".sgf") {
        crate::formats::sgf::write_record(record, rules)?
    } else {
        record.to_game_text(rules, labels)?
    };
    write_file(path, &text)
}
