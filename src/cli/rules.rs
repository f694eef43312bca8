//! `m3go rules`: the presets and rule options; `m3go rules check FILE` validates a rules file.

use crate::input::read_text;
use m3go_engine::game::from_yaml;
use m3go_engine::rules::RulesSpec;
use m3go_engine::{InputError, Rules};

/// List the presets and every rule option, or validate a rules file.
///
/// Without a subcommand: each preset with its rules as JSON, then every option a position's
/// `rules:` mapping accepts, with its values and what they mean (rules.md's disputed-points
/// register says which reading each value selects).
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: Option<RulesAction>,
    /// Output format (JSON `m3go-rules/1`: the presets with their rules and the options; with
    /// `check`, the file and the rules it resolves to).
    #[arg(long, global = true, value_enum, default_value_t = crate::cli::common::Format::Text)]
    pub format: crate::cli::common::Format,
}

#[derive(Debug, clap::Subcommand)]
pub enum RulesAction {
    /// Validate a rules file (a YAML mapping of options, with `preset:`) and print what it
    /// resolves to.
    Check {
        /// The rules file (YAML).
        #[arg(value_name = "FILE")]
        file: String,
    },
}

pub fn run(args: RulesArgs) -> Result<(), InputError> {
    use crate::conform::outputs::{OptionLine, RulesReport, RULES_FORMAT};
    let json = args.format == crate::cli::common::Format::Json;
    let print = |v: &RulesReport| -> Result<(), InputError> {
        outln!(
            "{}",
            serde_json::to_string_pretty(v).map_err(InputError::internal)?
        );
        Ok(())
    };
    match args.action {
        None if json => {
            let mut presets = std::collections::BTreeMap::new();
            for p in Rules::PRESETS {
                let r = Rules::preset(p)?;
                presets.insert(p.to_string(), r);
            }
            let options = Rules::OPTIONS
                .iter()
                .map(|(name, values, meaning)| OptionLine {
                    name: name.to_string(),
                    values: values.to_string(),
                    meaning: meaning.to_string(),
                })
                .collect();
            print(&RulesReport::List {
                format: RULES_FORMAT.to_string(),
                presets,
                options,
            })
        }
        None => {
            outln!("presets:");
            for p in Rules::PRESETS {
                let r = Rules::preset(p)?;
                outln!(
                    "  {p}: {}",
                    serde_json::to_string(&r).map_err(InputError::internal)?
                );
            }
            outln!("\noptions (in a position's `rules:` mapping, with `preset:`):");
            for (name, values, meaning) in Rules::OPTIONS {
                outln!("  {name:<22} {values:<42} {meaning}");
            }
            Ok(())
        }
        Some(RulesAction::Check { file }) => {
            let path = &file;
            let text = read_text(path)?;
            let spec: RulesSpec = from_yaml(&text, path).map_err(|e| at_option_line(e, &text))?;
            let r = spec
                .resolve()
                .map_err(|e| at_option_line(InputError::from(e).file(path), &text))?;
            if json {
                return print(&RulesReport::Check {
                    format: RULES_FORMAT.to_string(),
                    file: path.clone(),
                    rules: r,
                });
            }
            outln!(
                "{path}: valid; resolves to {}",
                serde_json::to_string(&r).map_err(InputError::internal)?
            );
            Ok(())
        }
    }
}

/// An error about one option (`komi 0.3 is not allowed`, `flystones 99999 is out of range`),
/// which the YAML reader cannot place (the value is checked after it is read), placed at the
/// line of the file that sets the option.
fn at_option_line(mut e: InputError, text: &str) -> InputError {
    let option = e.what.split([' ', ':']).next().unwrap_or("");
    if !Rules::OPTIONS.iter().any(|(name, _, _)| *name == option) {
        return e;
    }
    let line = text.lines().position(|l| {
        l.trim_start()
            .strip_prefix(option)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    });
    match line {
        Some(k) if e.place.line.is_none_or(|l| l != k + 1) => {
            e.place.column = None;
            e.line(k + 1)
        }
        _ => e,
    }
}
