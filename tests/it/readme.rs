//! The README's and the guide's shell examples run as written, from a fresh clone, against the
//! built binary.
//!
//! The extractor reads README.md and every page of the guide (`docs/src/*.md`) and takes each
//! fenced block whose info string is `sh`. Each block runs as one bash script (`set -euxo
//! pipefail`, so the trace names the command that failed) with the test's `m3go` binary first on
//! `PATH`, in a new temporary folder that holds a symbolic link to each top-level entry of the
//! checkout (`spec`, `docs`, `rules.md`, …; not `target` or `.git`): the examples read the
//! repository's files by the paths a user types, and the files they write (`-o g5.yaml`) land in
//! the temporary folder, not in the checkout. A block that exits non-zero, or runs longer than
//! [`TIMEOUT`], fails the test with the block, the file and line, and its output.
//!
//! What does not run:
//! - `console` blocks: commands shown but never run by this test. The README keeps them few:
//!   installing (`cargo install`, `pip install`: they build m3go, minutes each, and write outside
//!   the folder), `m3go serve` (it runs until stopped) and the test commands themselves (`cargo
//!   test` inside `cargo test`);
//! - an `sh` block right after a line `<!-- not run: REASON -->` (the reason is required). Used
//!   for the README's first two commands (`cargo run` and `cargo test`: they build the binary this
//!   test runs; CI runs both as written) and for the scheduler examples of the guide (Slurm,
//!   Kubernetes, GNU parallel, which this machine has not);
//! - `text` blocks (transcripts and output) and every other language.
//!
//! An `sh` block may not call cargo or pip without that marker, and no page may name a file
//! outside the repository (`../shared/…`, `/work/…`): a fresh clone has none.

use crate::common::{BIN, ROOT};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one block may run (the slowest runs the whole suite against `m3go protocol`).
const TIMEOUT: Duration = Duration::from_secs(600);

/// One fenced block of a page: where it starts, its info string, its text, and the reason it is
/// not run (the `<!-- not run: … -->` line before it).
struct Block {
    file: String,
    line: usize,
    info: String,
    text: String,
    not_run: Option<String>,
}

/// The pages the examples are taken from: README.md and the guide's pages.
pub fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    let src = Path::new(ROOT).join("docs/src");
    let mut book: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", src.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    book.sort();
    pages.extend(book);
    pages
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Every fenced block of a page (```` ``` ```` fences, as the pages write them).
fn blocks(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    let mut previous = "";
    for (k, line) in text.lines().enumerate() {
        match open.take() {
            Some(mut b) => {
                if line.trim_start().starts_with("```") {
                    out.push(b);
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                    open = Some(b);
                }
            }
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    let not_run = previous
                        .trim()
                        .strip_prefix("<!-- not run:")
                        .and_then(|r| r.strip_suffix("-->"))
                        .map(|r| r.trim().to_string());
                    if let Some(reason) = &not_run {
                        assert!(
                            !reason.is_empty(),
                            "{}:{}: a `not run` marker needs its reason",
                            relative(path),
                            k
                        );
                    }
                    open = Some(Block {
                        file: relative(path),
                        line: k + 1,
                        info: info.trim().to_string(),
                        text: String::new(),
                        not_run,
                    });
                }
            }
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    assert!(
        open.is_none(),
        "{}: a code block is not closed",
        relative(path)
    );
    out
}

/// A temporary folder with a link to each top-level entry of the checkout but `target` and
/// `.git`: the examples read the repository by its paths and write beside it.
fn workdir(n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("m3go-readme-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in std::fs::read_dir(ROOT).expect("the checkout").flatten() {
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), dir.join(&name))
            .unwrap_or_else(|e| panic!("link {name:?}: {e}"));
    }
    dir
}

/// Runs one block; `Err` with what it printed when it fails or runs past [`TIMEOUT`].
fn run(block: &Block, n: usize) -> Result<Duration, String> {
    use std::os::unix::process::CommandExt;
    let dir = workdir(n);
    let bin_dir = Path::new(BIN).parent().expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = dir.join(".stdout");
    let err = dir.join(".stderr");
    let script = format!("set -euxo pipefail\n{}", block.text);
    let start = Instant::now();
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("bash: {e}"));
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for bash") {
            break Some(s);
        }
        if start.elapsed() > TIMEOUT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    let printed = |p: &Path| {
        let t = std::fs::read_to_string(p).unwrap_or_default();
        let t: String = t
            .chars()
            .rev()
            .take(6000)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        t
    };
    let result = match status {
        Some(s) if s.success() => Ok(took),
        Some(s) => Err(format!(
            "exit {s}\n--- stdout (the end)\n{}\n--- stderr (the end)\n{}",
            printed(&out),
            printed(&err)
        )),
        None => Err(format!(
            "still running after {TIMEOUT:?}: stopped\n--- stderr (the end)\n{}",
            printed(&err)
        )),
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn readme_and_guide_shell_examples_run_against_the_built_binary() {
    let mut to_run = Vec::new();
    for page in pages() {
        for b in blocks(&page) {
            if b.info != "sh" || b.not_run.is_some() {
                continue;
            }
            for line in b.text.lines() {
                let first = line.split_whitespace().next().unwrap_or("");
                assert!(
                    !matches!(first, "cargo" | "pip" | "pip3"),
                    "{}:{}: `{line}` in an `sh` block builds or installs: a `console` block, or \
                     a `<!-- not run: REASON -->` line before it",
                    b.file,
                    b.line
                );
            }
            to_run.push(b);
        }
    }
    let in_readme = to_run.iter().filter(|b| b.file == "README.md").count();
    assert!(
        in_readme >= 6,
        "README.md has {in_readme} runnable `sh` blocks: the extractor found too few"
    );
    let mut failures = Vec::new();
    for (n, b) in to_run.iter().enumerate() {
        match run(b, n) {
            Ok(took) => eprintln!("{}:{}: ok ({took:.1?})", b.file, b.line),
            Err(why) => failures.push(format!(
                "{}:{}: the block\n{}failed: {why}",
                b.file, b.line, b.text
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shell examples failed:\n\n{}",
        failures.len(),
        to_run.len(),
        failures.join("\n\n")
    );
}

/// The blocks kept from the test are few, and each says why.
#[test]
fn readme_blocks_not_run_say_why_and_are_few() {
    let mut not_run = Vec::new();
    for page in pages() {
        for b in blocks(&page) {
            if let Some(reason) = b.not_run {
                assert_eq!(
                    b.info, "sh",
                    "{}:{}: a marker before a non-sh block",
                    b.file, b.line
                );
                not_run.push(format!("{}:{} ({reason})", b.file, b.line));
            }
        }
    }
    assert!(
        not_run.len() <= 4,
        "more `not run` blocks than the few the extractor documents: {not_run:#?}"
    );
}

/// No page names a file outside the repository: a fresh clone has no `../shared/` or `/work/`.
#[test]
fn readme_and_guide_name_no_file_outside_the_repository() {
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        for (k, line) in text.lines().enumerate() {
            assert!(
                !line.contains("../shared") && !line.contains("/work/"),
                "{}:{}: names a file outside the repository: {line}",
                relative(&page),
                k + 1
            );
        }
    }
}
