//! `m3go replay`: a game record replayed strictly, or mechanically (003's 机械式排局).

use crate::cli::common::{parse_rules, progress_bar, record_text, write_files, Format};
use crate::conform::runner::thread_pool;
use m3go_engine::{InputError, Rules};
use rayon::prelude::*;

/// Replay a record (SGF or game file); with --mechanical, 003's 机械式排局 of a Go record.
///
/// A strict replay plays every move of the record under its rules (an illegal move is an
/// error, with its number). `--mechanical` replays an ordinary Go record the way 003 does: move
/// n keeps its point but takes the stone the 10-move cycle gives it, and a move the rules
/// forbid becomes a pass; every move is narrated. Given several records, m3go replays each on
/// its own (`--jobs` at once, `--shard` one part of them) and prints one summary line per record
/// and a total; a record that fails to replay is listed with its error and makes the exit 2.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game records: SGF, or game files in the move-number notation.
    #[arg(value_name = "GAME", required = true, num_args = 1..)]
    pub games: Vec<String>,
    #[command(flatten)]
    pub spread: crate::cli::common::SpreadArgs,
    /// 003's mechanical replay: the cycle's stones, forbidden moves become passes.
    #[arg(long)]
    pub mechanical: bool,
    /// The rules: a preset (m3go-2020, m3go-2016, m3go-2013, dullstone, flystone) or a YAML
    /// mapping (`{ preset: dullstone, ko: positional }`). Default: the record's (m3go-2020 with
    /// --mechanical).
    #[arg(long, value_name = "PRESET", value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Stop after move N.
    #[arg(long, value_name = "N")]
    pub to: Option<u32>,
    /// Write the final position to this file.
    #[arg(short = 'o', value_name = "POS.yaml")]
    pub out: Option<String>,
    /// Add an English gloss under each Chinese line.
    #[arg(long)]
    pub gloss: bool,
    /// Print only the summary line: Chinese (with --gloss, its English under it), or with
    /// `--labels latin` the English alone (ASCII, as the labels).
    #[arg(long)]
    pub quiet: bool,
    /// Output format (JSON: the entries, the replaced moves by reason and the final position).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the game actually played: SGF for OUT.sgf, else a game file. With --mechanical, the
    /// Go record's own result, rules, komi and handicap (RE, RU, KM, HA) are left out (the
    /// rules written are m3go's), and stderr says so.
    #[arg(long, value_name = "OUT.sgf|OUT.txt")]
    pub save: Option<String>,
    /// Let --save or -o overwrite the record being replayed.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub labels: crate::cli::common::LabelsArgs,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// What a replay made: the log (narrated), or only its summary and the final position.
enum Replayed {
    Log(Box<crate::tools::replay::Replay>),
    Summary(Box<(crate::tools::replay::Tally, m3go_engine::Position)>),
}

/// Replays one record under the arguments' rules (default: the record's; m3go-2020 with
/// --mechanical): the whole log, or (`summary_only`) only the summary, each move advanced
/// without a report.
fn replay_one(
    path: &str,
    args: &ReplayArgs,
    summary_only: bool,
) -> Result<(Replayed, Rules, m3go_engine::formats::record::Record), InputError> {
    let record = crate::input::load_record(path)?;
    if let Some(note) = record.dropped.games_note() {
        errln!("replay: {path}: not replayed: {note}");
    }
    let given_rules = args.rules.is_some();
    let rules = match &args.rules {
        Some(r) => r.clone(),
        None if args.mechanical => Rules::m3go_2020(),
        None => record.resolve_rules(None)?,
    };
    let note = (!args.mechanical && !given_rules)
        .then(|| record.assumed_rules_note(None))
        .flatten();
    let engine = args.engine.engine();
    use crate::tools::replay::{mechanical, mechanical_tally, strict, strict_tally};
    let rep = match (summary_only, args.mechanical) {
        (false, true) => {
            mechanical(&record, &rules, args.to, engine).map(|r| Replayed::Log(Box::new(r)))
        }
        (false, false) => {
            strict(&record, &rules, args.to, engine).map(|r| Replayed::Log(Box::new(r)))
        }
        (true, true) => mechanical_tally(&record, &rules, args.to, engine)
            .map(|tp| Replayed::Summary(Box::new(tp))),
        (true, false) => {
            strict_tally(&record, &rules, args.to, engine).map(|tp| Replayed::Summary(Box::new(tp)))
        }
    }
    .map_err(|e| match (&note, e.kind) {
        (Some(n), m3go_engine::ErrorKind::IllegalMove) => e.during(n.clone()),
        _ => e,
    })?;
    Ok((rep, rules, record))
}

pub fn run(args: ReplayArgs) -> Result<(), crate::errors::Error> {
    use crate::cli::common::{check_extension, refuse_own_input};
    for out in [&args.save, &args.out].into_iter().flatten() {
        // refused before the replay (a folder, a dangling link), not after its output
        crate::cli::output::decide(out)?;
    }
    if let Some(out) = &args.save {
        check_extension(out, "--save", &crate::cli::common::RECORD_EXTENSIONS)?;
        refuse_own_input(out, "--save", &args.games[0], args.force)?;
    }
    if let Some(out) = &args.out {
        check_extension(out, "-o", &crate::cli::common::POSITION_EXTENSIONS)?;
        refuse_own_input(out, "-o", &args.games[0], args.force)?;
    }
    if args.games.len() > 1 || args.spread.shard.is_some() {
        return Ok(run_many(&args)?);
    }
    let path = &args.games[0];
    let fmt = args.format;
    if args.quiet && fmt == Format::Text && args.save.is_none() {
        // only the summary is printed: no move's report is needed
        let (Replayed::Summary(summary), _, _) = replay_one(path, &args, true)? else {
            return Err(InputError::new("the replay gave a log where a summary was asked").into());
        };
        let (tally, position) = *summary;
        let written = position_file(&args, &position)?;
        outln!("{}", summary_text(tally.summary(), &args, ""));
        return write_outputs(written.into_iter().collect());
    }
    let (Replayed::Log(rep), rules, record) = replay_one(path, &args, false)? else {
        return Err(InputError::new("the replay gave a summary where the log was asked").into());
    };
    // everything is computed before anything is printed or written
    let mut written: Vec<(String, String)> =
        position_file(&args, &rep.position)?.into_iter().collect();
    let mut go_only = Vec::new();
    if let Some(out) = &args.save {
        let mut rec = m3go_engine::formats::record::Record::from_reports(&rep.start, &rep.reports);
        rec.info = record.info.clone();
        // a mechanical replay plays a three-colour game from a Go record: the record's Go
        // result, rules and komi are not this game's (told on stderr below, with what else is
        // dropped)
        if args.mechanical {
            go_only = m3go_engine::formats::record::Record::take_go_only(&mut rec.info);
        }
        // M20-REPLAY-PASS: a refused move is saved as the record's point, marked replaced,
        // with its reason as the comment, so that the saved record replays to the same position
        for ((saved, entry), original) in rec.moves.iter_mut().zip(&rep.entries).zip(&record.moves)
        {
            if let crate::tools::replay::Status::Replaced {
                reason, message, ..
            } = &entry.status
            {
                saved.replaced = true;
                saved.action = original.action;
                saved.claimed = None;
                saved.comment = Some(format!("m3go: refused ({}): {message}", reason.code()));
            }
        }
        let text = record_text(out, "--save", &rec, &rules, args.labels.labels())?;
        written.push((out.clone(), text));
    }
    if fmt == Format::Json {
        let v = crate::conform::outputs::ReplayReport {
            format: crate::conform::outputs::REPLAY_FORMAT.to_string(),
            replaced: rep
                .replaced_by_reason()
                .into_iter()
                .map(|(k, n)| (k.to_string(), n))
                .collect(),
            position: crate::tools::replay::position_setup(&rep.position),
            entries: rep.entries,
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(InputError::internal)?
        );
    } else if args.quiet {
        outln!("{}", summary_text(rep.summary(), &args, ""));
    } else {
        out!(
            "{}",
            crate::tools::replay::log_text_in(&rep, args.gloss, args.labels.labels())
        );
    }
    write_outputs(written)?;
    if let Some(out) = &args.save {
        // the collection's further games were told when the record was read
        let dropped = m3go_engine::formats::record::Dropped {
            further_games: 0,
            go_only,
            ..record.dropped.clone()
        };
        crate::cli::common::tell_dropped("replay --save", path, out, &dropped);
    }
    Ok(())
}

/// A summary as printed after `prefix`: the Chinese line (with --gloss, the English under it),
/// or with `--labels latin` the English line alone, ASCII as the labels asked for.
fn summary_text((zh, en): (String, String), args: &ReplayArgs, prefix: &str) -> String {
    match (args.labels.labels(), args.gloss) {
        (m3go_engine::Labels::Latin, _) => format!("{prefix}{en}"),
        (_, true) => format!("{prefix}{zh}\n    {en}"),
        (_, false) => format!("{prefix}{zh}"),
    }
}

/// `-o`: the final position as the text of a position file, with its path.
fn position_file(
    args: &ReplayArgs,
    position: &m3go_engine::Position,
) -> Result<Option<(String, String)>, InputError> {
    let Some(out) = &args.out else {
        return Ok(None);
    };
    let setup = crate::tools::replay::position_setup(position);
    let text = serde_yaml::to_string(&setup).map_err(InputError::internal)?;
    Ok(Some((out.clone(), text)))
}

/// The files of `-o` and `--save`, written together at the end ([`write_files`]).
fn write_outputs(files: Vec<(String, String)>) -> Result<(), crate::errors::Error> {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    write_files(&refs)
}

/// Several records: one summary line each (in the order given), then the total; `-o` and
/// `--save` need a single record.
fn run_many(args: &ReplayArgs) -> Result<(), InputError> {
    use crate::conform::outputs::RecordLine;
    for (flag, given) in [("-o", args.out.is_some()), ("--save", args.save.is_some())] {
        if given {
            return Err(InputError::new(format!(
                "{flag} writes one record's result, but {} records are given",
                args.games.len()
            ))
            .key(flag)
            .expected("a single GAME"));
        }
    }
    let files: Vec<&String> = args
        .games
        .iter()
        .enumerate()
        .filter(|(k, _)| args.spread.shard.is_none_or(|s| s.takes(*k)))
        .map(|(_, f)| f)
        .collect();
    let workers = thread_pool(args.spread.jobs as usize).map_err(InputError::from)?;
    let pb = progress_bar(files.len() as u64, "records");
    let results: Vec<Result<crate::tools::replay::Tally, InputError>> = workers.install(|| {
        files
            .par_iter()
            .map(|f| {
                let r = replay_one(f, args, true).map(|(rep, _, _)| match rep {
                    Replayed::Summary(summary) => summary.0,
                    Replayed::Log(rep) => rep.tally(),
                });
                pb.inc(1);
                r
            })
            .collect()
    });
    pb.finish_and_clear();
    let failed = results.iter().filter(|r| r.is_err()).count();
    let (mut moves, mut replaced) = (0usize, 0usize);
    let mut json = Vec::new();
    for (f, r) in files.iter().zip(&results) {
        match r {
            Ok(tally) => {
                moves += tally.moves;
                replaced += tally.replaced_count();
                let (zh, en) = tally.summary();
                if args.format == Format::Json {
                    json.push(RecordLine::Replayed {
                        record: f.to_string(),
                        summary: zh,
                        summary_en: en,
                        moves: tally.moves,
                        replaced: tally
                            .replaced
                            .iter()
                            .map(|(k, n)| (k.to_string(), *n))
                            .collect(),
                    });
                } else {
                    outln!("{}", summary_text((zh, en), args, &format!("{f}: ")));
                }
            }
            Err(e) => {
                if args.format == Format::Json {
                    json.push(RecordLine::Failed {
                        record: f.to_string(),
                        error: e.to_string(),
                    });
                } else {
                    outln!("{f}: error: {e}");
                }
            }
        }
    }
    let total = format!(
        "{} records replayed, {failed} failed; {moves} moves, {replaced} replaced by passes",
        files.len() - failed
    );
    if args.format == Format::Json {
        let v = crate::conform::outputs::ReplaysReport {
            format: crate::conform::outputs::REPLAYS_FORMAT.to_string(),
            records: json,
            total: total.clone(),
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(InputError::internal)?
        );
        crate::cli::json_printed();
    } else {
        outln!("{total}");
    }
    if failed > 0 {
        return Err(InputError::new(format!(
            "{failed} of {} records failed to replay (listed above)",
            files.len()
        )));
    }
    Ok(())
}
