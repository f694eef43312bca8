//! The contract and the output for people, through the built binary: the clause register inside
//! the binary (`m3go clause`).

use std::process::Command;

/// Runs m3go in `dir` (the crate's folder if `None`); returns the exit code, stdout and stderr.
fn m3go_in(dir: Option<&std::path::Path>, args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m3go"));
    cmd.args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("run m3go: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh empty directory under the target folder.
fn empty_dir(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

#[test]
fn clause_prints_quote_seed_reading_function_and_cases_from_any_directory() {
    let dir = empty_dir("clause");
    let (code, out, err) = m3go_in(Some(&dir), &["clause", "M20-EYE-SIM"]);
    assert_eq!(code, Some(0), "{err}");
    for want in [
        "M20-EYE-SIM (normative, seed 003",
        "quote:    「在此封闭区域内连续补充白色棋子",
        "reading:  The fill adds opponent stones",
        "function: judge::eyes::fill_simulation_makes_eye",
        "cases:    m20-eye-fig6",
    ] {
        assert!(out.contains(want), "no `{want}` in\n{out}");
    }
    let (code, out, err) = m3go_in(Some(&dir), &["clause", "d29", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["id"], "D29");
    assert!(
        v["option"].as_str().unwrap_or("").contains("tigers-mouth"),
        "{v}"
    );
    let (code, _, err) = m3go_in(Some(&dir), &["clause", "M20-EYE-SIMX"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("closest: M20-EYE-SIM"), "{err}");
    let (code, out, _) = m3go_in(Some(&dir), &["clause", "--list"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l.starts_with("M20-EYE-SIM ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("D29 ")), "{out}");
}
