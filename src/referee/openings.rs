//! The openings of a match (`m3go match --openings`): records (SGF, game file) or position files
//! read from the files and folders given, each checked against the match's rules and board.

use super::game::Opening;
use m3go_engine::formats::record::Record;
use m3go_engine::{InputError, Rules};
use std::sync::Arc;

/// `--openings`: the openings read from the files and folders given, each checked against the
/// match's rules and board.
pub(crate) fn openings(
    paths: &[String],
    rules: &Rules,
    size: usize,
) -> Result<Vec<Arc<Opening>>, InputError> {
    let mut files = Vec::new();
    for p in paths {
        let path = std::path::Path::new(p);
        if path.is_dir() {
            let mut inside: Vec<String> = std::fs::read_dir(path)
                .map_err(|e| InputError::new(format!("cannot read the folder: {e}")).file(p))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file()
                        && f.extension().is_some_and(|x| {
                            ["sgf", "txt", "yaml", "yml"]
                                .contains(&x.to_string_lossy().to_ascii_lowercase().as_str())
                        })
                })
                .map(|f| f.to_string_lossy().into_owned())
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(InputError::new("no opening in the folder")
                    .file(p)
                    .expected("record (.sgf, .txt) or position (.yaml, .yml) files"));
            }
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    files
        .iter()
        .map(|f| opening(f, rules, size).map(Arc::new))
        .collect()
}

/// One opening: a record (SGF or game file) or a position file (`.yaml`, `.yml`), checked:
/// the match's board size, every move legal under the match's rules, the game not over.
fn opening(file: &str, rules: &Rules, size: usize) -> Result<Opening, InputError> {
    let lower = file.to_ascii_lowercase();
    let record = if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        let text = crate::input::read_text(file)?;
        let setup: m3go_engine::Setup = m3go_engine::game::from_yaml(&text, file)?;
        let pos = setup.to_position(file)?;
        let mut r = Record::new(pos.board().size(), None);
        r.first_move = pos.move_number();
        r.start = Some(setup);
        r.start_place = Some(file.to_string());
        r
    } else {
        crate::input::load_record(file)?
    };
    if record.size != size {
        return Err(InputError::new(format!("a {0}×{0} board", record.size))
            .file(file)
            .expected(format!("an opening on the match's {size}×{size} board")));
    }
    // the record's own errors name the file, its line and the move
    let (end, _) = record.replay_strict(rules, None)?;
    if end.game_over() {
        return Err(InputError::new("the game is over after the opening")
            .file(file)
            .expected("an opening that leaves a move to play"));
    }
    Ok(Opening {
        name: file.to_string(),
        record,
    })
}
