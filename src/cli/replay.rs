//! `m3go replay`: a game record replayed strictly, or mechanically (003's 机械式排局).

use crate::cli::common::{parse_rules, save_record, write_file, Format};
use crate::game::setup::InputError;
use crate::rules::Rules;

/// Replay a record (SGF or game file); with --mechanical, 003's 机械式排局 of a Go record.
///
/// A strict replay plays every move of the record under its rules (an illegal move is an
/// error, with its number). `--mechanical` replays an ordinary Go record the way 003 does: move
/// n keeps its point but takes the stone the 10-move cycle gives it, and a move the rules
/// forbid becomes a pass; every move is narrated.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game record: SGF, or a game file in the move-number notation.
    #[arg(value_name = "GAME")]
    pub game: String,
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
    /// Print only the summary line.
    #[arg(long)]
    pub quiet: bool,
    /// Output format (JSON: the entries, the replaced moves by reason and the final position).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the game actually played: SGF for OUT.sgf, else a game file.
    #[arg(long, value_name = "OUT.sgf|OUT.txt")]
    pub save: Option<String>,
}

pub fn run(args: ReplayArgs) -> Result<(), InputError> {
    let path = &args.game;
    let fmt = args.format;
    let to = args.to;
    if let Some(out) = &args.save {
        crate::cli::common::check_extension(out, "--save", &crate::cli::common::RECORD_EXTENSIONS)?;
    }
    let record = crate::formats::load::load(path)?;
    let mechanical = args.mechanical;
    let given_rules = args.rules.is_some();
    let rules = match args.rules {
        Some(r) => r,
        None if mechanical => Rules::m3go_2020(),
        None => record.resolve_rules(None)?,
    };
    let note = (!mechanical && !given_rules)
        .then(|| record.assumed_rules_note(None))
        .flatten();
    let rep = if mechanical {
        crate::tools::replay::mechanical(&record, &rules, to)
    } else {
        crate::tools::replay::strict(&record, &rules, to)
    }
    .map_err(|e| match (&note, e.kind) {
        (Some(n), crate::error::Kind::IllegalMove) => e.during(n.clone()),
        _ => e,
    })?;
    if fmt == Format::Json {
        let v = serde_json::json!({
            "entries": rep.entries,
            "replaced": rep.replaced_by_reason(),
            "position": crate::tools::replay::position_setup(&rep.position),
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| InputError::new(e.to_string()))?
        );
    } else if args.quiet {
        let (zh, en) = rep.summary();
        outln!("{zh}");
        if args.gloss {
            outln!("    {en}");
        }
    } else {
        out!("{}", crate::tools::replay::log_text(&rep, args.gloss));
    }
    if let Some(out) = &args.out {
        let setup = crate::tools::replay::position_setup(&rep.position);
        let text = serde_yaml::to_string(&setup).map_err(|e| InputError::new(e.to_string()))?;
        write_file(out, &text)?;
    }
    if let Some(out) = &args.save {
        let mut rec = crate::formats::record::record_of(&rep.start, &rep.reports);
        rec.info = record.info.clone();
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
        save_record(out, &rec, &rules, crate::board::coord::Labels::Chinese)?;
    }
    Ok(())
}
