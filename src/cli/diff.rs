//! `m3go diff`: random games against another implementation (`crate::conform::diff`), the first
//! disagreement shrunk and printed as a conformance case.

use crate::cli::common::Format;
use crate::cli::common::{parse_rules, progress_bar, write_file};
use crate::conform::diff::{DiffOptions, DiffOutcome, DiffRun, GameVerdict};
use crate::conform::diff_summary;
use crate::conform::failure::ProgramFailure;
use crate::conform::junit::{TestCase, TestSuite, Verdict};
use crate::conform::runner::{stop_children_on_signal, External, Oracle};
use m3go_engine::{InputError, Rules};

/// Random games against another implementation; the first disagreement, shrunk, as a case.
///
/// Plays seeded random games (SplitMix64, one stream per game), asks the other program about
/// every move through the conformance protocol, compares private eyes, attributes, forbidden
/// points, legal moves, captures, report events and the score, and shrinks the first
/// disagreement (of the lowest-numbered game) to a minimal position and move, printed as a
/// ready-to-add conformance case. The program is first asked for its capabilities, as by
/// `m3go conform`: the requests are sent in the newest version both speak, and the checks the
/// program declines under the rules (`by_preset.declines`, or an answer's `declined`) are left
/// out, with the fields that depend on them (a declined `score` is not compared); moves it
/// answers `unsupported` are not compared. Exits 1 on a disagreement, when nothing was compared
/// (unless --allow-empty) or when moves or checks were skipped (unless --allow-skips); exits 2 when the
/// program under test fails (cannot start, crashes, hangs past --timeout, writes something that
/// is not an answer) — that is never reported as a disagreement, and no case is written.
/// --junit FILE also writes a JUnit XML report (one testcase per game), --format json prints a
/// JSON summary instead of the text.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The other program (a shell command speaking m3go-conform/2, or /1: the version and the checks it declines are negotiated as `m3go conform` negotiates them).
    #[arg(long = "impl", value_name = "COMMAND")]
    pub implementation: String,
    /// The number of games (0 to 1000000).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub games: u32,
    /// The seed of the random games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The board size (odd, 3 to 19).
    #[arg(long, value_name = "SIZE", default_value_t = 9)]
    pub size: usize,
    /// The rules: a preset (m3go-2020, m3go-2016, m3go-2013, dullstone, flystone) or a YAML
    /// mapping.
    #[arg(long, value_name = "PRESET", value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// The most moves per game (default: the number of points; at most 10 per point).
    #[arg(long, value_name = "M")]
    pub max_moves: Option<u32>,
    #[command(flatten)]
    pub program: crate::cli::common::ProgramArgs,
    #[command(flatten)]
    pub spread: crate::cli::common::SpreadArgs,
    /// Write the shrunk case to DIR/ID.yaml (`-`: to standard output, and the text report goes
    /// to standard error). DIR is opened (created if missing) before the first game; the case
    /// is created new in it and renamed over its name, never written through a link there.
    #[arg(short = 'o', value_name = "DIR")]
    pub out: Option<String>,
    /// Also write the run as a JUnit XML report to FILE (`-`: standard output, and the text
    /// report goes to standard error): one `testcase` per game, the first disagreement a
    /// failure with the differences and the shrunk case, for the test reports of CI systems.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<String>,
    /// The report on standard output: text, or a JSON summary (`m3go-diff-summary/1`: the
    /// games and moves compared, the first disagreement with the shrunk case).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

pub(crate) fn run(args: DiffArgs) -> i32 {
    match diff_run(args) {
        Ok(code) => code,
        Err(e) => crate::cli::fail(&e),
    }
}

fn diff_run(args: DiffArgs) -> Result<i32, crate::errors::Error> {
    let cmd = args.implementation.clone();
    let opts_d = diff_options(&args)?;
    let max_moves = opts_d.max_moves;
    let games: Vec<u32> = (1..=opts_d.games)
        .filter(|g| args.spread.shard.is_none_or(|s| s.takes(*g as usize - 1)))
        .collect();
    stop_children_on_signal();
    let timeout = std::time::Duration::from_secs(args.program.timeout);
    let make = move || -> Result<Box<dyn Oracle>, ProgramFailure> {
        // the parts of its answers nothing compares are read past
        Ok(Box::new(External::skipping(
            &cmd,
            timeout,
            crate::conform::diff::UNREAD,
        )?))
    };
    let reports = DiffReports::of(&args).map_err(InputError::from)?;
    // the case's folder checked before the first game (an existing one opened and a file made
    // in it; a missing one made only when a case is written): the case is written into it
    // new, never through a link planted there
    if let Some(dir) = args.out.as_deref().filter(|d| *d != "-") {
        crate::outputs::Folder::check_creatable(dir)?;
    }
    let started = std::time::Instant::now();
    let pb = progress_bar(games.len() as u64 * u64::from(max_moves), "moves");
    let run = crate::conform::diff::run_games(
        &opts_d,
        args.spread.jobs as usize,
        Some(&games),
        &make,
        &|n| pb.inc(n),
    )
    .map_err(InputError::from)?;
    pb.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    // the shrunk case as YAML, and where -o writes it
    let mut case_yaml = String::new();
    let mut case_path: Option<String> = None;
    let mut case_name = String::new();
    if let DiffOutcome::Disagree(d) = &run.outcome {
        case_yaml = serde_yaml::to_string(&d.case).map_err(InputError::internal)?;
        case_name = format!("{}.yaml", d.case.id);
        case_path = args.out.as_ref().map(|dir| {
            if dir == "-" {
                return dir.clone();
            }
            std::path::Path::new(dir)
                .join(&case_name)
                .to_string_lossy()
                .into_owned()
        });
    }
    let say = |text: &str| {
        if reports.text_to_stderr {
            crate::cli::common::write_err(format_args!("{text}"));
        } else {
            out!("{text}");
        }
    };
    if !reports.json {
        let mut text = text_report(&opts_d, &run, &case_yaml);
        checks_skipped_text(&run, &mut text);
        say(&text);
    }
    // a case that cannot be written (late in the run) still leaves the summary and the JUnit
    // report written, without its path, then the error
    let mut unwritten = None;
    if let Some(path) = &case_path {
        let written = match args.out.as_deref().filter(|d| *d != "-") {
            Some(dir) => crate::outputs::Folder::open(dir)
                .and_then(|folder| folder.write(&case_name, &case_yaml)),
            None => write_file(path, &case_yaml),
        };
        match written {
            Ok(()) if !reports.json => say(&format!("written to {path}\n")),
            Ok(()) => {}
            Err(e) => unwritten = Some(e),
        }
    }
    if unwritten.is_some() {
        case_path = None;
    }
    if reports.json {
        let summary = diff_summary::summary_of(&opts_d, &run, case_path.clone());
        let j = serde_json::to_string_pretty(&summary).map_err(InputError::internal)?;
        outln!("{j}");
        crate::cli::json_printed();
    }
    if let Some(path) = &reports.junit {
        let suite = junit_suite(&args, &opts_d, &run, case_path.as_deref(), seconds);
        crate::conform::junit::xml(&suite)
            .map_err(|e| crate::errors::Error::from(InputError::from(e)))
            .and_then(|x| write_file(path, &x))?;
    }
    if let Some(e) = unwritten {
        return Err(e);
    }
    Ok(exit_code(&args, &run))
}

/// The options of the run: `--size` a board size, `--max-moves` within a record's limit.
fn diff_options(args: &DiffArgs) -> Result<DiffOptions, InputError> {
    let size = args.size;
    m3go_engine::Board::check_size(size).map_err(|e| InputError::from(e).key("--size"))?;
    let limit = m3go_engine::Notation::max_moves(size);
    let max_moves = args.max_moves.unwrap_or((size * size) as u32);
    if max_moves as usize > limit {
        return Err(InputError::new(format!(
            "`{max_moves}` is too many moves per game on {size}x{size}"
        ))
        .key("--max-moves")
        .expected(format!(
            "at most {limit} (10 per point, the limit of a record)"
        )));
    }
    Ok(DiffOptions {
        games: args.games,
        seed: args.seed,
        size,
        rules: args.rules.clone().unwrap_or_else(Rules::m3go_2020),
        max_moves,
        engine: args.engine.engine(),
    })
}

/// The text report of the outcome (nothing for an error, which goes to standard error): the
/// games and moves compared, or the disagreement with the shrunk case (`case_yaml`).
fn text_report(opts: &DiffOptions, run: &DiffRun, case_yaml: &str) -> String {
    use std::fmt::Write;
    let (seed, size, preset) = (opts.seed, opts.size, &opts.rules.preset);
    let mut text = String::new();
    let o = &mut text;
    match &run.outcome {
        DiffOutcome::Agree {
            games,
            moves,
            skipped,
        } => {
            let _ = writeln!(o, "diff: {games} games, {moves} moves compared (seed {seed}, {size}x{size}, {preset}): no disagreement");
            if *skipped > 0 {
                let _ = writeln!(
                    o,
                    "diff: {skipped} moves skipped: the program answered `unsupported`"
                );
            }
        }
        DiffOutcome::Unsupported(why) => {
            let _ = writeln!(o, "diff: 0 moves compared: the program's declared capabilities exclude {preset}: {why}");
        }
        DiffOutcome::Errored { .. } => {}
        DiffOutcome::Disagree(d) => {
            let _ = writeln!(
                o,
                "diff: disagreement in game {} at move {} ({}):",
                d.game, d.move_number, d.notation
            );
            for x in &d.differences {
                let _ = writeln!(o, "  - {}: {}", x.field, x.detail.replace('\n', "\n    "));
            }
            let _ = writeln!(
                o,
                "shrunk from {} stones to {} stone(s) and {} move(s); conformance case {}:",
                d.stones_before,
                d.stones_after,
                d.case.moves.len(),
                d.case.id
            );
            let _ = writeln!(o, "---\n{case_yaml}");
        }
    }
    text
}

/// The exit status of a run (with its message on standard error): 0 when the programs agree,
/// 1 on a disagreement, when nothing was compared (unless `--allow-empty`) or when moves or
/// checks were skipped (unless `--allow-skips`), 2 when the program under test failed.
fn exit_code(args: &DiffArgs, run: &DiffRun) -> i32 {
    match &run.outcome {
        DiffOutcome::Agree { moves, skipped, .. } => {
            let (moves, skipped) = (*moves, *skipped);
            if moves == 0 && !args.program.allow_empty {
                errln!("error: nothing was compared: exit 1 (--allow-empty accepts it)");
                return 1;
            }
            let checks: u64 = run.checks_skipped.values().sum();
            if (skipped > 0 || checks > 0) && !args.program.allow_skips {
                let what = match (skipped, checks) {
                    (n, 0) => format!("{n} moves skipped"),
                    (0, k) => format!("{k} checks skipped"),
                    (n, k) => format!("{n} moves and {k} checks skipped"),
                };
                errln!("error: {what}: exit 1 (--allow-skips accepts skipped moves and checks)");
                return 1;
            }
            0
        }
        DiffOutcome::Unsupported(_) => {
            if args.program.allow_empty {
                0
            } else {
                errln!("error: nothing was compared: exit 1 (--allow-empty accepts it)");
                1
            }
        }
        DiffOutcome::Errored {
            game,
            move_number,
            message,
        } => {
            if *game == 0 {
                errln!("error: the program under test failed before the first game: {message}");
            } else {
                errln!(
                    "error: the program under test failed in game {game} at move {move_number}: {message}"
                );
            }
            2
        }
        DiffOutcome::Disagree(_) => 1,
    }
}

/// The checks left out of the moves compared, as `m3go conform` counts them: the total, then
/// one line a reason with each check and in how many moves.
fn checks_skipped_text(run: &DiffRun, o: &mut String) {
    use std::fmt::Write;
    let total: u64 = run.checks_skipped.values().sum();
    if total == 0 {
        return;
    }
    let _ = writeln!(
        o,
        "diff: checks skipped: {total} in the moves compared (the fields that depend on them were not compared, the others were)"
    );
    for (why, checks) in diff_summary::by_reason(run) {
        let checks: Vec<String> = checks.iter().map(|(c, n)| format!("{n} × {c}")).collect();
        let _ = writeln!(o, "    {}: {why}", checks.join(", "));
    }
}

/// Where the reports of a run go: `--junit`, `--format`.
struct DiffReports {
    junit: Option<String>,
    json: bool,
    /// `--junit` writes to standard output: the text report goes to standard error.
    text_to_stderr: bool,
}

impl DiffReports {
    /// Refused before any game when `--junit` names nothing m3go may write, or when it and
    /// `--format json` both want standard output.
    fn of(args: &DiffArgs) -> Result<DiffReports, DiffReportsError> {
        let json = args.format == Format::Json;
        let mut text_to_stderr = false;
        if let Some(path) = &args.junit {
            let target = crate::outputs::decide(path).map_err(DiffReportsError::Output)?;
            crate::outputs::check_outputs(&[("--junit", path)], None)
                .map_err(DiffReportsError::Output)?;
            if target == crate::outputs::Target::Stdout {
                if json {
                    return Err(DiffReportsError::JunitAndJson(path.clone()));
                }
                text_to_stderr = true;
            }
        }
        if args.out.as_deref() == Some("-") {
            if json || text_to_stderr {
                return Err(DiffReportsError::CaseAndReport { json });
            }
            text_to_stderr = true;
        }
        Ok(DiffReports {
            junit: args.junit.clone(),
            json,
            text_to_stderr,
        })
    }
}

/// Why the reports asked for cannot be written.
#[derive(Debug)]
enum DiffReportsError {
    /// `--junit` names nothing m3go may write.
    Output(crate::errors::Error),
    /// `--junit -` (the path given) with `--format json`.
    JunitAndJson(String),
    /// `-o -` with `--format json` (`json`) or `--junit -`.
    CaseAndReport { json: bool },
}

impl std::fmt::Display for DiffReportsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffReportsError::Output(e) => write!(f, "{e}"),
            DiffReportsError::JunitAndJson(path) => write!(
                f,
                "--junit {path} and --format json both write to standard output: expected --junit FILE (a file) with --format json"
            ),
            DiffReportsError::CaseAndReport { json } => write!(
                f,
                "-o - and {} both write to standard output: expected -o DIR (a folder) with it",
                if *json { "--format json" } else { "--junit -" }
            ),
        }
    }
}

impl std::error::Error for DiffReportsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DiffReportsError::Output(e) => Some(e),
            DiffReportsError::JunitAndJson(_) | DiffReportsError::CaseAndReport { .. } => None,
        }
    }
}

/// As a bad input carrying the message alone (an unwritable `--junit` is refused as bad input
/// before any game, as it always was).
impl From<DiffReportsError> for InputError {
    fn from(e: DiffReportsError) -> Self {
        InputError::new(e.to_string())
    }
}

/// The JUnit report (`--junit`): one `testcase` per game (`game-N (seed S)`, S the game's own
/// seed; classname the rules' preset), the first disagreement a `<failure>` with the
/// differences and the shrunk case (and its path with `-o`), a program's failure an `<error>`
/// (before the first game: a testcase `capabilities`), the games not played `<skipped>`.
fn junit_suite(
    args: &DiffArgs,
    opts: &DiffOptions,
    run: &DiffRun,
    case_path: Option<&str>,
    seconds: f64,
) -> TestSuite {
    let preset = opts.rules.preset.to_string();
    let mut cases = Vec::new();
    if let DiffOutcome::Errored {
        game: 0, message, ..
    } = &run.outcome
    {
        cases.push(TestCase {
            name: "capabilities".to_string(),
            classname: preset.clone(),
            file: None,
            time: None,
            verdict: Verdict::Errored {
                message: format!("the program under test failed before the first game: {message}"),
                text: message.clone(),
            },
            system_out: None,
        });
    }
    for g in &run.games {
        let moves = format!(
            "{} move(s) compared, {} answered `unsupported`",
            g.compared, g.skipped
        );
        let verdict = match &g.verdict {
            GameVerdict::Agree => Verdict::Passed,
            GameVerdict::NotPlayed(why) => Verdict::Skipped {
                message: why.clone(),
            },
            GameVerdict::Errored {
                move_number,
                message,
            } => Verdict::Errored {
                message: format!("the program under test failed at move {move_number}: {message}"),
                text: message.clone(),
            },
            GameVerdict::Disagree {
                move_number,
                notation,
                differences,
            } => {
                let fields: Vec<&str> = differences.iter().map(|d| d.field).collect();
                let mut text = String::new();
                for d in differences {
                    text.push_str(&format!(
                        "- {}: {}\n",
                        d.field,
                        d.detail.replace('\n', "\n  ")
                    ));
                }
                let mut message = format!(
                    "disagreement at move {move_number} ({notation}) on {}",
                    fields.join(", ")
                );
                if let DiffOutcome::Disagree(d) = &run.outcome {
                    if d.game == g.game {
                        let clauses = d.case.clauses.join(", ");
                        message.push_str(&format!("; shrunk to case {} ({clauses})", d.case.id));
                        text.push_str(&format!(
                            "shrunk from {} stones to {} stone(s) and {} move(s): conformance case {}, clauses {clauses}\n",
                            d.stones_before,
                            d.stones_after,
                            d.case.moves.len(),
                            d.case.id
                        ));
                        match case_path {
                            Some(p) => text.push_str(&format!("written to {p}\n")),
                            None => text.push_str("not written (-o DIR writes it)\n"),
                        }
                        if let Ok(yaml) = serde_yaml::to_string(&d.case) {
                            text.push_str(&format!("---\n{yaml}"));
                        }
                    }
                }
                Verdict::Failed { message, text }
            }
        };
        cases.push(TestCase {
            name: format!("game-{} (seed {})", g.game, g.seed),
            classname: preset.clone(),
            file: None,
            time: g.seconds,
            verdict,
            system_out: (!matches!(g.verdict, GameVerdict::NotPlayed(_))).then_some(moves),
        });
    }
    let mut properties = vec![
        ("implementation".to_string(), args.implementation.clone()),
        ("seed".to_string(), opts.seed.to_string()),
        ("size".to_string(), opts.size.to_string()),
        ("rules".to_string(), preset),
        ("max-moves".to_string(), opts.max_moves.to_string()),
    ];
    if let Some(sh) = args.spread.shard {
        properties.push(("shard".to_string(), sh.to_string()));
    }
    TestSuite {
        name: "m3go-diff".to_string(),
        time: Some(seconds),
        properties,
        cases,
    }
}
