//! The adjudication page's ES modules (src/serve/page/*.js): each one is served by the binary as
//! JavaScript and none is over 450 lines (a newcomer reads one module at a time). Their unit
//! tests (src/serve/page/tests/*.test.mjs) run under node in `tests/page_units.rs`, a harness of
//! its own that reports them `ignored` when node is missing.

use m3go::serve::{read_request, Routed};
use std::path::{Path, PathBuf};

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
