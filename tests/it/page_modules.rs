//! The adjudication page's ES modules (src/serve/page/*.js): each one is served by the binary as
//! JavaScript, none is over 450 lines (a newcomer reads one module at a time), and their unit
//! tests (src/serve/page/tests/*.test.mjs, node's built-in runner, no package installed) pass.
//! Without `node` on PATH the unit tests are skipped with a note, unless `M3GO_NODE_REQUIRED=1`
//! (set by CI), when a missing node fails.

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

#[test]
fn page_module_unit_tests_pass_under_node() {
    let required = std::env::var("M3GO_NODE_REQUIRED").is_ok_and(|v| v == "1");
    let out = match Command::new("node")
        .arg("--test")
        .arg(format!("{PAGE}/tests/"))
        .current_dir(PAGE)
        .output()
    {
        Ok(out) => out,
        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipped: no `node` on PATH for the page's unit tests (M3GO_NODE_REQUIRED=1 makes this a failure)");
            return;
        }
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
