//! The adjudication page's ES modules (src/serve/page/*.js): each one is served by the binary as
//! JavaScript, none is over 450 lines (a newcomer reads one module at a time), and their unit
//! tests (src/serve/page/tests/*.test.mjs, node's built-in runner, no package installed) pass.
//! Without `node` on PATH the unit-test test fails, saying how to install node or how to leave
//! it out (`-- --skip page_module_unit_tests`, which the harness's summary counts as
//! `filtered out`): a skip the summary shows, never an `ok` that ran nothing.

use m3go::serve::{read_request, Routed};
use std::path::{Path, PathBuf};
use std::process::Command;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/page");
const MAX_LINES: usize = 450;

fn modules() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(PAGE)
        .expect("src/serve/page")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    out.sort();
    out
}

fn name(p: &Path) -> String {
    p.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn page_modules_are_short_and_all_served() {
    let modules = modules();
    assert!(modules.len() >= 8, "{modules:?}");
    for p in &modules {
        let text = std::fs::read_to_string(p).expect("a module's text");
        let lines = text.lines().count();
        assert!(
            lines <= MAX_LINES,
            "{}: {lines} lines, expected at most {MAX_LINES}: split it",
            name(p)
        );
        let path = format!("/{}", name(p));
        let Ok(Routed::Page(reply)) = read_request("GET", &path, Some(b"")) else {
            panic!("{path} is not served: add it to PAGES in src/serve/mod.rs");
        };
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply.content_type.starts_with("text/javascript"),
            "{path}: {}",
            reply.content_type
        );
        assert_eq!(reply.body, text.as_bytes(), "{path}: not the file's text");
    }
    // the page loads its entry module as a module
    let index = std::fs::read_to_string(format!("{PAGE}/index.html")).expect("index.html");
    assert!(index.contains("<script type=\"module\" src=\"/main.js\">"));
}

/// What the unit-test test says when `node` is not on PATH (the test below checks it is shown).
const NO_NODE: &str = "no `node` on PATH for the page's unit tests";

#[test]
fn page_module_unit_tests_pass_under_node() {
    let out = match Command::new("node")
        .arg("--test")
        .arg(format!("{PAGE}/tests/"))
        .current_dir(PAGE)
        .output()
    {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "{NO_NODE}: install node 20 or later (Debian: apt-get install nodejs), or leave this \
             test out with `cargo test -- --skip page_module_unit_tests` (counted as filtered out)"
        ),
        Err(e) => panic!("node --test {PAGE}/tests/: {e} (expected node 20 or later on PATH)"),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // every test file ran: each names at least one passing test
    let passed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    assert!(passed >= 20, "{passed} node tests passed:\n{stdout}");
}

/// Without node the unit-test test fails, with why, rather than passing having run nothing (it
/// once printed a note seen only under `--nocapture` and reported `ok`): this test binary is run
/// again on that one test with a PATH that holds no node.
#[test]
fn page_module_unit_tests_fail_visibly_without_node() {
    let empty = tempfile::tempdir().expect("a temporary folder");
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "page_modules::page_module_unit_tests_pass_under_node",
            "--exact",
            "--test-threads=1",
        ])
        .env("PATH", empty.path())
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "passed without node:\n{stdout}");
    assert!(stdout.contains("1 failed"), "{stdout}");
    assert!(stdout.contains(NO_NODE), "{stdout}");
    assert!(stdout.contains("--skip page_module_unit_tests"), "{stdout}");
}
