//! What several subcommands share: the `--format` value, the `--rules` parser, writing files
//! and records.

use clap::ValueEnum;
use m3go_engine::game::from_yaml;
use m3go_engine::rules::RulesField;
use m3go_engine::{InputError, Labels, Rules};

pub(crate) use crate::cli::output::{flush_out, write_out};
pub(crate) use crate::io::write_err;

/// Whether standard output gets ANSI colours (a terminal, no `NO_COLOR`, or `CLICOLOR_FORCE`;
/// the decision is anstream's).
pub(crate) fn stdout_in_colour() -> bool {
    !matches!(
        anstream::AutoStream::choice(&std::io::stdout()),
        anstream::ColorChoice::Never
    )
}

/// The board of `p` as standard output should get it: in colour ([`m3go_engine::formats::render::View::ansi`])
/// or, without colour, in glyphs that keep every distinction
/// ([`m3go_engine::formats::render::View::plain`]).
pub(crate) fn board_for_stdout(
    p: &m3go_engine::Position,
    view: m3go_engine::formats::render::View,
    labels: m3go_engine::Labels,
) -> String {
    if stdout_in_colour() {
        view.ansi(p, labels)
    } else {
        view.plain(p, labels)
    }
}

/// `--labels` of the commands that print points in text.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct LabelsArgs {
    /// The label system of the points in the text (JSON always writes the Chinese one).
    #[arg(long, value_enum, default_value_t = Labels::Chinese)]
    pub labels: Labels,
}

impl LabelsArgs {
    pub(crate) fn labels(self) -> Labels {
        self.labels
    }
}

/// `--labels` and `--verbose` of the commands that print a text report.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct TextArgs {
    #[command(flatten)]
    pub labels: LabelsArgs,
    /// List every closed region of each string, not only its private eyes.
    #[arg(long)]
    pub verbose: bool,
}

impl TextArgs {
    pub(crate) fn options(self) -> m3go_engine::formats::report::TextOptions {
        m3go_engine::formats::report::TextOptions {
            labels: self.labels.labels(),
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
pub(crate) fn parse_rules(v: &str) -> Result<Rules, RulesArgError> {
    let f: RulesField = from_yaml(v, "--rules").map_err(RulesArgError::Yaml)?;
    f.resolve().map_err(RulesArgError::Rules)
}

/// Why `--rules` does not read: not a preset name or YAML rules mapping, or rules that do not
/// resolve.
#[derive(Debug)]
pub(crate) enum RulesArgError {
    Yaml(InputError),
    Rules(m3go_engine::rules::RulesError),
}

impl std::fmt::Display for RulesArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesArgError::Yaml(e) => write!(f, "{e}"),
            RulesArgError::Rules(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RulesArgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RulesArgError::Yaml(e) => Some(e),
            RulesArgError::Rules(e) => Some(e),
        }
    }
}

/// Writes one file: [`write_files`] with one entry.
pub(crate) fn write_file(path: &str, text: &str) -> Result<(), crate::errors::Error> {
    crate::outputs::write_one(path, text)
}

/// Writes files so that no failure destroys data and no output replaces what is not a regular
/// file it may write: every file m3go writes goes through here, and so through
/// [`crate::outputs::write_all`] (its module's doc has the table of targets: a regular file
/// or new path is replaced by a temporary file renamed over it; a device, a FIFO, `-` and
/// `/dev/stdout` are written into as the shell's `>` would). Callers compute everything first
/// and write last, so a command that fails writes nothing.
pub(crate) fn write_files(files: &[(&str, &str)]) -> Result<(), crate::errors::Error> {
    crate::outputs::write_all(files)
}

/// The text of a record written to `path` (given with `flag`): SGF for `.sgf`, else a game file
/// (`-`, standard output, included).
pub(crate) fn record_text(
    path: &str,
    flag: &str,
    record: &m3go_engine::formats::record::Record,
    rules: &Rules,
    labels: m3go_engine::Labels,
) -> Result<String, InputError> {
    check_extension(path, flag, &RECORD_EXTENSIONS)?;
    if path.to_ascii_lowercase().ends_with(".sgf") {
        record.to_sgf(rules)
    } else {
        record.to_game_text(rules, labels)
    }
}

/// A progress bar of `len` steps on standard error, drawn only when standard error is a
/// terminal (hidden in pipes, files and CI logs); `what` names the steps ("cases", "games").
pub(crate) fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(len),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{{bar:30}} {{pos}}/{{len}} {what} {{msg}} [{{elapsed_precise}}, {{eta}} left]"
    ))
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    pb.set_style(style);
    pb
}

/// Refuses an output file whose extension is not one of `allowed` (lower case, without the
/// dot), before any work: `render --svg x.png` would write SVG into a `.png`. `-` (standard
/// output) and a node that is not a regular file (`/dev/null`, a FIFO) pass.
pub(crate) fn check_extension(path: &str, flag: &str, allowed: &[&str]) -> Result<(), InputError> {
    if crate::outputs::is_stream(path) {
        return Ok(());
    }
    let ext = std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if ext.as_deref().is_some_and(|e| allowed.contains(&e)) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(|e| format!(".{e}")).collect();
    Err(InputError::new(format!(
        "`{}` does not end in {}",
        m3go_engine::InputError::quote(path),
        list.join(" or ")
    ))
    .key(flag)
    .expected(format!("an output file ending in {}", list.join(" or "))))
}

/// Refuses to write `out` (given with `flag`) when it is the file `input` the command reads
/// (the same file by any path or link), unless `force`: `convert GAME GAME` would replace the
/// record with what the conversion keeps, `replay GAME --save GAME` with the game as played.
/// Compared by device and inode, without opening either (opening a FIFO would block).
pub(crate) fn refuse_own_input(
    out: &str,
    flag: &str,
    input: &str,
    force: bool,
) -> Result<(), InputError> {
    use std::os::unix::fs::MetadataExt;
    let same = match (std::fs::metadata(out), std::fs::metadata(input)) {
        (Ok(o), Ok(i)) => o.file_type().is_file() && (o.dev(), o.ino()) == (i.dev(), i.ino()),
        _ => false,
    };
    if force || input == "-" || out == "-" || !same {
        return Ok(());
    }
    Err(InputError::new(format!(
        "`{}` is the record being read: writing it would replace the record",
        m3go_engine::InputError::quote(out)
    ))
    .key(flag)
    .expected("another file (or --force to overwrite the record)"))
}

/// Says on standard error what the record read from `path` holds that the record written to
/// `out` does not (SGF variations, properties m3go does not keep, a collection's further games).
pub(crate) fn tell_dropped(
    command: &str,
    path: &str,
    out: &str,
    dropped: &m3go_engine::formats::record::Dropped,
) {
    let notes = dropped.notes();
    if !notes.is_empty() {
        write_err(format_args!(
            "{command}: dropped from {path} (not written to {out}): {}\n",
            notes.join("; ")
        ));
    }
}

/// The extensions of a position file written by `-o`.
pub(crate) const POSITION_EXTENSIONS: [&str; 2] = ["yaml", "yml"];

/// The extensions of a written record: SGF, or a game file.
pub(crate) const RECORD_EXTENSIONS: [&str; 2] = ["sgf", "txt"];

/// `--jobs` and `--shard`: spreading the work items of a run (cases, games, records) over the
/// cores of one machine, and over processes or machines.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct SpreadArgs {
    /// Work items (cases, games, records) run at once; with a program under test, each worker
    /// has its own (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Run only part K of N of the work items (those whose index is K-1 modulo N): the items
    /// are the same as in the whole run, so the N parts spread one run over processes or
    /// machines. `auto` (or `auto/N`) reads the part from the array-job environment: Slurm
    /// (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT), Kubernetes indexed Jobs
    /// (JOB_COMPLETION_INDEX) or GNU parallel (PARALLEL_SEQ), with N or M3GO_SHARD_COUNT
    /// where the scheduler does not give the count.
    #[arg(long, value_name = "K/N|auto[/N]", value_parser = crate::conform::shard::Shard::parse)]
    pub shard: Option<crate::conform::shard::Shard>,
}

/// `--timeout`, `--allow-empty` and `--allow-skips` of the commands that drive a program under
/// test (`conform`, `diff`).
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct ProgramArgs {
    /// Seconds the program has for each answer before it is stopped (1 to 86400); a request
    /// that replays a record of N moves gets this × (1 + N/100) (spec/README.md "Time budgets").
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub timeout: u64,
    /// Exit 0 although nothing was tested (no case selected or every one skipped; no move
    /// compared).
    #[arg(long)]
    pub allow_empty: bool,
    /// Exit 0 although work was skipped (outside the declared capabilities, or answered
    /// `unsupported`).
    #[arg(long)]
    pub allow_skips: bool,
}

/// `--reference` of the commands that play or list moves: the engine they run on.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct EngineArgs {
    /// Run on the clause-by-clause reference alone (slow), not the fast engine: every legal
    /// move, move and perft count decided as rules.md writes the clauses. The output is the same.
    #[arg(long)]
    pub reference: bool,
}

impl EngineArgs {
    pub(crate) fn engine(self) -> m3go_engine::Engine {
        m3go_engine::Engine::from_flag(self.reference)
    }
}
