//! `m3go schema`: the JSON Schemas of the contract (`crate::conform::schema`).

use crate::cli::output::Folder;
use crate::conform::schema::{file_text, schemas};
use m3go_engine::InputError;

/// Print or write the JSON Schemas of the contract.
///
/// The analysis (`analyze --format json`, m3go-analysis/4), the play report (`play --format
/// json`, m3go-play/1), the protocol request and answer (m3go-conform/1), the case file and the
/// summaries of `conform` and `diff --format json`, each generated from the Rust types. Without
/// --write: all of them as one JSON object keyed by file name; with NAME (`analysis`, `answer`,
/// … or the file name) that one schema alone. With --write: one file each in DIR (spec/schema/
/// is the committed copy; a test fails when it differs from what the types generate).
#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Print only this schema: its name (`analysis`, `answer`, `case`, …) or its file name
    /// (`analysis.schema.json`).
    #[arg(value_name = "NAME", conflicts_with = "write")]
    pub name: Option<String>,
    /// Write each schema to its file in DIR instead of printing: DIR is created when missing;
    /// a link, folder, device or FIFO at a schema's name is refused before anything is written,
    /// and each file is written new and renamed over its name (never through a link).
    #[arg(long)]
    pub write: bool,
    /// The folder --write writes to.
    #[arg(long, value_name = "DIR", default_value = "spec/schema")]
    pub dir: String,
}

pub fn run(args: SchemaArgs) -> Result<(), crate::errors::Error> {
    let all = schemas();
    if args.write {
        if args.dir.trim().is_empty() {
            return Err(InputError::new("an empty folder name")
                .key("--dir")
                .expected("the folder to write the schemas to (spec/schema by default)")
                .into());
        }
        // the folder opened once and every name checked before the first file is written: a
        // link, folder, device or FIFO planted at a schema's name is refused and left as it is,
        // and each file is written new and renamed over its name, never through a link
        let folder = Folder::open(&args.dir).map_err(|e| e.key("--dir"))?;
        let names: Vec<String> = all.iter().map(|s| s.file.to_string()).collect();
        folder.check(&names)?;
        for s in &all {
            folder.write(s.file, &file_text(&s.schema))?;
            outln!("wrote {}", folder.path_of(s.file));
        }
        return Ok(());
    }
    if let Some(name) = &args.name {
        let stem = |file: &str| file.trim_end_matches(".schema.json").to_string();
        let Some(one) = all
            .iter()
            .find(|s| s.file == name.as_str() || stem(s.file) == *name)
        else {
            let names: Vec<String> = all.iter().map(|s| stem(s.file)).collect();
            return Err(InputError::new(format!("no schema named `{name}`"))
                .key("NAME")
                .expected(format!("one of {}", names.join(", ")))
                .into());
        };
        out!("{}", file_text(&one.schema));
        return Ok(());
    }
    let map: serde_json::Map<String, serde_json::Value> = all
        .into_iter()
        .map(|s| (s.file.to_string(), s.schema))
        .collect();
    outln!(
        "{}",
        serde_json::to_string_pretty(&map).map_err(InputError::internal)?
    );
    Ok(())
}
