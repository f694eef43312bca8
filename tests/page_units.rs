//! The adjudication page's JavaScript unit tests (src/serve/page/tests/*.test.mjs, node's
//! built-in runner, no package installed), as one trial of a harness of its own
//! (libtest-mimic), so that a machine without `node` reports the trial `ignored` in the summary
//! line, with why, rather than `ok` having run nothing; `M3GO_NODE_REQUIRED=1` (CI) makes a
//! missing node a failure. A second trial runs this binary again with a PATH that holds no node
//! and checks both.

use libtest_mimic::{Arguments, Failed, Trial};
use std::process::Command;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/page");
const TRIAL: &str = "page_module_unit_tests";
const NO_NODE: &str = "no `node` on PATH for the page's unit tests (install node 20 or later; Debian: apt-get install nodejs)";

fn node_found() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("node").is_file()))
}

/// `node --test` on the page's test folder: every file passes, at least 20 tests in all.
fn unit_tests() -> Result<(), Failed> {
    let out = Command::new("node")
        .arg("--test")
        .arg(format!("{PAGE}/tests/"))
        .current_dir(PAGE)
        .output()
        .map_err(|e| {
            format!("node --test {PAGE}/tests/: {e} (expected node 20 or later on PATH)")
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "node --test failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let passed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    if passed < 20 {
        return Err(format!("{passed} node tests passed (expected at least 20):\n{stdout}").into());
    }
    Ok(())
}

/// This binary run again on the unit-test trial alone, with no node on PATH: its summary.
fn without_node(required: bool) -> Result<(bool, String), Failed> {
    let exe = std::env::current_exe().map_err(|e| format!("this test binary: {e}"))?;
    let empty = std::env::temp_dir().join(format!("m3go-no-node-{}", std::process::id()));
    std::fs::create_dir_all(&empty).map_err(|e| format!("{}: {e}", empty.display()))?;
    let mut cmd = Command::new(exe);
    cmd.args([TRIAL, "--exact", "--test-threads=1"])
        .env("PATH", &empty)
        .env_remove("M3GO_NODE_REQUIRED");
    if required {
        cmd.env("M3GO_NODE_REQUIRED", "1");
    }
    let out = cmd.output().map_err(|e| format!("the test binary: {e}"))?;
    let _ = std::fs::remove_dir(&empty);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok((out.status.success(), text))
}

/// Without node the unit tests are reported ignored, with why, and fail when required.
fn missing_node_is_visible() -> Result<(), Failed> {
    let (ok, text) = without_node(false)?;
    if !ok || !text.contains("1 ignored") || !text.contains(NO_NODE) {
        return Err(format!("without node, expected an ignored trial and why:\n{text}").into());
    }
    let (ok, text) = without_node(true)?;
    if ok || !text.contains("1 failed") || !text.contains("M3GO_NODE_REQUIRED=1") {
        return Err(format!(
            "without node under M3GO_NODE_REQUIRED=1, expected a failure:\n{text}"
        )
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let required = std::env::var("M3GO_NODE_REQUIRED").is_ok_and(|v| v == "1");
    let missing = !node_found();
    let units = Trial::test(TRIAL, move || {
        if missing {
            return Err(format!("M3GO_NODE_REQUIRED=1 but {NO_NODE}").into());
        }
        unit_tests()
    })
    .with_ignored_flag(missing && !required);
    if missing && !required && !args.list {
        eprintln!("{TRIAL} ignored: {NO_NODE}");
    }
    let visible = Trial::test("missing_node_is_reported", missing_node_is_visible);
    libtest_mimic::run(&args, vec![units, visible]).exit();
}
