//! The `m3go` command line, a thin layer over the library: the parser is clap's derive API, one
//! `Args` struct per subcommand in its own module, with doc comments as help text (so `--help`
//! and the parser never drift apart). Each module turns its arguments into library calls and
//! prints the result; no rule is decided here.
//!
//! Exit codes: 0 success, 1 conformance failures (and a disagreement found by `diff`), 2 bad
//! input — usage errors found by clap included.

use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// `print!` through [`common::write_out`]: a closed pipe ends m3go quietly.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::common::write_out(format_args!($($arg)*)) };
}

/// `println!` through [`common::write_out`]: a closed pipe ends m3go quietly.
macro_rules! outln {
    () => { $crate::cli::common::write_out(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::common::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analyze;
mod clause;
pub(crate) mod common;
mod completions;
mod conform;
mod convert;
mod diff;
mod explain;
mod match_clock;
mod match_cmd;
mod match_watch;
pub(crate) mod output;
mod perft;
mod play;
mod player;
mod player_gtp;
pub mod protocol;
mod render;
mod replay;
mod rules;
mod schema;
mod serve;
mod usage_junit;

/// `perft --max-nodes` by default, on the fast engine and with `--reference`.
pub use perft::{FAST_NODES as PERFT_FAST_NODES, REFERENCE_NODES as PERFT_REFERENCE_NODES};

/// m3go — reference rules interpreter for three-colour Go.
///
/// Meng three-colour Go (M3Go, the 2016 and 2020 texts), Dullstone Go and Flystone Go: the three
/// boards, private eyes, flower attributes, forbidden points, legal moves and the score of a
/// position, each with the clause of the rules that decided it; the conformance suite and its
/// protocol; game records, diagrams, perft and differential testing.
#[derive(Debug, Parser)]
#[command(
    name = "m3go",
    version,
    arg_required_else_help = true,
    after_help = "Exit codes: 0 success, 1 conformance failures, 2 bad input.",
    after_long_help = "Exit codes: 0 success, 1 conformance failures (or a disagreement found by \
                       `diff`), 2 bad input (the message names the file, row, column, key or \
                       move number and what was expected)."
)]
pub struct Cli {
    /// Colour on standard output: `auto` on a terminal unless NO_COLOR is set (CLICOLOR_FORCE
    /// forces it), `always`, `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`: when standard output gets ANSI colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    /// Always, into a pipe or a file too.
    Always,
    /// Never.
    Never,
}

impl ColorArg {
    /// Makes this the choice of every stream m3go writes through anstream.
    fn apply(self) {
        let choice = match self {
            ColorArg::Auto => anstream::ColorChoice::Auto,
            ColorArg::Always => anstream::ColorChoice::Always,
            ColorArg::Never => anstream::ColorChoice::Never,
        };
        choice.write_global();
    }
}

/// The exit status of the commands that succeed or fail on their input alone (each command's
/// `--help` ends with its own).
const EXIT_PLAIN: &str = "Exit status: 0 success; 2 bad input or a failure (the message names \
                          the file, key or move and what was expected).";
const EXIT_CONFORM: &str = "Exit status: 0 every case tested passed; 1 a case failed or \
    errored, a case or check was skipped (unless --allow-skips), or nothing was tested (unless \
    --allow-empty); 2 bad input, a program under test that cannot start or answer at all, or a \
    report that cannot be written (--junit then holds the run's error); 130 stopped by Ctrl-C or \
    SIGTERM.";
const EXIT_DIFF: &str = "Exit status: 0 the programs agree; 1 a disagreement, nothing compared \
    (unless --allow-empty), or moves or checks skipped (unless --allow-skips); 2 bad input or a \
    program under test that fails; 130 stopped by Ctrl-C or SIGTERM.";
const EXIT_MATCH: &str = "Exit status: 0 every game played and recorded (a forfeit is a \
    result); 1 a game forfeited, with --fail-on-forfeit; 2 bad input, or a game that could not \
    be played or recorded (--junit then holds the run's error); 130 stopped by Ctrl-C or SIGTERM.";

/// The subcommands, one module each.
#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(after_help = EXIT_PLAIN)]
    Analyze(analyze::AnalyzeArgs),
    #[command(after_help = EXIT_PLAIN)]
    Play(play::PlayArgs),
    #[command(after_help = EXIT_PLAIN)]
    Explain(explain::ExplainArgs),
    #[command(after_help = EXIT_CONFORM)]
    Conform(conform::ConformArgs),
    #[command(after_help = EXIT_PLAIN)]
    Protocol(protocol::ProtocolArgs),
    #[command(after_help = EXIT_PLAIN)]
    Rules(rules::RulesArgs),
    #[command(after_help = EXIT_PLAIN)]
    Clause(clause::ClauseArgs),
    #[command(after_help = EXIT_PLAIN)]
    Schema(schema::SchemaArgs),
    #[command(after_help = EXIT_PLAIN)]
    Replay(replay::ReplayArgs),
    #[command(after_help = EXIT_PLAIN)]
    Convert(convert::ConvertArgs),
    #[command(after_help = EXIT_PLAIN)]
    Render(render::RenderArgs),
    #[command(after_help = EXIT_PLAIN)]
    Perft(perft::PerftArgs),
    #[command(after_help = EXIT_DIFF)]
    Diff(diff::DiffArgs),
    #[command(after_help = EXIT_MATCH)]
    Match(match_cmd::MatchArgs),
    #[command(after_help = EXIT_PLAIN)]
    Player(player::PlayerArgs),
    #[command(after_help = EXIT_PLAIN)]
    Serve(serve::ServeArgs),
    #[command(after_help = EXIT_PLAIN)]
    Completions(completions::CompletionsArgs),
    #[command(after_help = EXIT_PLAIN)]
    Manpage(completions::ManpageArgs),
}

impl Command {
    /// Whether the command was given `--format json`: its errors are then also printed as the
    /// JSON error object ([`crate::conform::outputs::ErrorReport`]) on standard output.
    fn wants_json(&self) -> bool {
        use common::Format::Json;
        match self {
            Command::Analyze(a) => a.format == analyze::AnalyzeFormat::Json,
            Command::Play(a) => a.format == Json,
            Command::Explain(a) => a.format == Json,
            Command::Conform(a) => a.format == Json,
            Command::Rules(a) => a.format == Json,
            Command::Clause(a) => a.format == Json,
            Command::Replay(a) => a.format == Json,
            Command::Perft(a) => a.format == Json,
            Command::Diff(a) => a.format == Json,
            Command::Protocol(_)
            | Command::Schema(_)
            | Command::Convert(_)
            | Command::Render(_)
            | Command::Serve(_)
            | Command::Completions(_)
            | Command::Manpage(_)
            | Command::Match(_)
            | Command::Player(_) => false,
        }
    }

    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> i32 {
        if self.wants_json() {
            JSON_ERRORS.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        match self {
            Command::Analyze(a) => exit_code(analyze::run(a)),
            Command::Play(a) => exit_code(play::run(a)),
            Command::Explain(a) => exit_code(explain::run(a)),
            Command::Conform(a) => conform::run(a),
            Command::Protocol(a) => exit_code(protocol::run(a)),
            Command::Rules(a) => exit_code(rules::run(a)),
            Command::Clause(a) => exit_code(clause::run(a)),
            Command::Schema(a) => exit_code(schema::run(a)),
            Command::Replay(a) => exit_code(replay::run(a)),
            Command::Convert(a) => exit_code(convert::run(a)),
            Command::Render(a) => exit_code(render::run(a)),
            Command::Perft(a) => exit_code(perft::run(a)),
            Command::Diff(a) => diff::run(a),
            Command::Match(a) => match_cmd::run(a),
            Command::Player(a) => exit_code(player::run(a)),
            Command::Serve(a) => exit_code(serve::run(a)),
            Command::Completions(a) => exit_code(completions::run(a)),
            Command::Manpage(a) => exit_code(completions::manpage(a)),
        }
    }
}

/// The longest line of a usage error, in characters (a refused value is quoted up to it).
const MAX_USAGE_LINE: usize = 300;

/// Runs the CLI on the program's arguments (the program name first, as `std::env::args_os`
/// gives them); returns the exit code. Usage errors print clap's message (with a suggestion
/// where one is close) and exit 2; `--help` and `--version` exit 0.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    match Cli::try_parse_from(&args) {
        Ok(cli) => {
            cli.color.apply();
            cli.command.run()
        }
        Err(e) => {
            if e.exit_code() == 2 {
                usage_junit::write(&args, &usage_message(&e));
            }
            if args_want_json(&args) && e.exit_code() == 2 {
                let mut report = crate::conform::outputs::ErrorReport::new(
                    crate::conform::outputs::ErrorCode::Usage,
                    usage_message(&e),
                    2,
                );
                report.place = usage_place(&e);
                print_error_json(&report);
            }
            if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
                // clap names only a close one; list them all, before the usage line
                let list = format!("  commands: {}\n\n", subcommands_at(&args).join(", "));
                let text = e.render().to_string();
                let at = text.find("Usage:").unwrap_or(text.len());
                common::write_err(format_args!("{}{list}{}", &text[..at], &text[at..]));
            } else if e.exit_code() == 2 {
                // clap quotes the value it refused whole: each line is clipped, so that the
                // message stays short however long the argument
                let text = e.render().to_string();
                let lines: Vec<String> = text
                    .lines()
                    .map(|l| crate::io::clip(l, MAX_USAGE_LINE))
                    .collect();
                common::write_err(format_args!("{}\n", lines.join("\n")));
            } else {
                let _ = e.print();
            }
            e.exit_code()
        }
    }
}

/// The subcommands of the deepest command `args` name (`m3go rules …`: check), for the message
/// about an unknown one: clap's names only the closest, if any is close.
fn subcommands_at(args: &[OsString]) -> Vec<String> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    for a in args.iter().skip(1) {
        let Some(next) = a.to_str().and_then(|a| cmd.find_subcommand(a)).cloned() else {
            break;
        };
        cmd = next;
    }
    cmd.get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// 0 for success; a bad-input error is printed and gives 2.
fn exit_code(r: Result<(), impl Into<crate::errors::Error>>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => fail(&e.into()),
    }
}

/// Set when the command runs with `--format json`: errors are then also written as the JSON
/// error object on standard output.
static JSON_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Reports a command's error: its message on standard error and, under `--format json`, the
/// JSON error object ([`crate::conform::outputs::ErrorReport`], `m3go-error/1`, its code the
/// error's kind's) on standard output. Returns 2, the exit code of bad input.
pub(crate) fn fail(e: &crate::errors::Error) -> i32 {
    common::write_err(format_args!("error: {e}\n"));
    if json_error_wanted() {
        print_error_json(&crate::conform::outputs::ErrorReport::of_error(e));
    }
    2
}

/// Reports a failure that is not an [`InputError`](m3go_engine::InputError) (`code` says what it is) as [`fail`] does;
/// returns `exit`.
pub(crate) fn fail_with(
    code: crate::conform::outputs::ErrorCode,
    message: impl std::fmt::Display,
    exit: i32,
) -> i32 {
    let message = message.to_string();
    common::write_err(format_args!("error: {message}\n"));
    if json_error_wanted() {
        print_error_json(&crate::conform::outputs::ErrorReport::new(
            code, message, exit,
        ));
    }
    exit
}

/// Set once a command has printed its JSON output: standard output then holds one JSON document
/// already, which says what failed (a replay of several records, one of them failing; a
/// summary), and an error after it gets its message on standard error only.
static JSON_PRINTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks the command's JSON output as printed ([`JSON_PRINTED`]).
pub(crate) fn json_printed() {
    JSON_PRINTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether a failure now gets the JSON error object on standard output: under `--format json`,
/// when no JSON output was printed before it.
fn json_error_wanted() -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    JSON_ERRORS.load(Relaxed) && !JSON_PRINTED.load(Relaxed)
}

/// The JSON error object on standard output, pretty-printed as the other JSON outputs.
fn print_error_json(report: &crate::conform::outputs::ErrorReport) {
    if let Ok(text) = serde_json::to_string_pretty(report) {
        common::write_out(format_args!("{text}\n"));
        common::flush_out();
    }
}

/// The words of a command line after the program's name and before a `--` (not UTF-8: empty),
/// as the error paths read a command line clap refused.
pub(crate) fn option_words(args: &[OsString]) -> Vec<&str> {
    args.iter()
        .skip(1)
        .map(|a| a.to_str().unwrap_or(""))
        .take_while(|a| *a != "--")
        .collect()
}

/// Whether a command line that clap refused asks for JSON (`--format json` or
/// `--format=json`, before a `--`).
fn args_want_json(args: &[OsString]) -> bool {
    let words = option_words(args);
    words.contains(&"--format=json")
        || words
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
}

/// clap's message without its `error: ` lead, its usage lines and its help hint: the problem.
fn usage_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text
        .split("\n\n")
        .next()
        .unwrap_or(&text)
        .trim()
        .trim_start_matches("error: ");
    crate::io::clip(first, MAX_USAGE_LINE)
}

/// The flag or argument a usage error names, with the value refused.
fn usage_place(e: &clap::Error) -> Option<crate::conform::outputs::ErrorPlace> {
    use clap::error::{ContextKind, ContextValue};
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let key = text(ContextKind::InvalidArg).map(|a| {
        // `--max-nodes <N>` → `--max-nodes`
        a.split([' ', '=']).next().unwrap_or(&a).to_string()
    });
    let value = text(ContextKind::InvalidValue).map(|v| crate::io::clip(&v, MAX_USAGE_LINE));
    if key.is_none() && value.is_none() {
        return None;
    }
    Some(crate::conform::outputs::ErrorPlace {
        key,
        text: value,
        ..Default::default()
    })
}
