//! The command line stays thin: no file of `src/cli/` over 600 lines (the library logic lives in
//! the library's modules, `src/cli/*` parses arguments and prints).

/// The most lines a file of `src/cli/` may have.
const MAX_CLI_LINES: usize = 600;

#[test]
fn no_file_of_the_command_line_exceeds_600_lines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    assert!(
        files.len() > 10,
        "expected the command line's files in {}, found {}",
        dir.display(),
        files.len()
    );
    let too_long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let text =
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let lines = text.lines().count();
            (lines > MAX_CLI_LINES).then(|| format!("{} ({lines} lines)", p.display()))
        })
        .collect();
    assert!(
        too_long.is_empty(),
        "files of src/cli/ over {MAX_CLI_LINES} lines (move their library logic into the library): {}",
        too_long.join(", ")
    );
}
