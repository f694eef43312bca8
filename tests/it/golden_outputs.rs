//! Every command's output on the suite's positions, the professional records and the Ke Jie
//! replay stays byte-identical unless changed deliberately: tests/golden/outputs.tsv holds, for
//! each command line, the SHA-256 and length of its standard output and its exit code, and this
//! test runs them all again. A refactoring (a module split, a function cut in pieces, a crate
//! moved) must leave every line as it was; a deliberate change of an output rewrites the file in
//! its own commit: `M3GO_UPDATE_GOLDEN=1 cargo test --test it golden_outputs`.
//!
//! The suite's positions go through `m3go protocol`: the request of every case of spec/cases,
//! one line each, on one standard input.
//!
//! `M3GO_GOLDEN_BIN=PATH` runs another build of m3go instead of this one (an older commit's, to
//! show that a change kept every output).

use crate::common::{output, ROOT};
use m3go::conform::case::Case;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

const GOLDEN: &str = "tests/golden/outputs.tsv";
const REGENERATE: &str = "M3GO_UPDATE_GOLDEN=1 cargo test --test it golden_outputs";

/// The files of `dir` (relative to the crate) whose names end with `ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(Path::new(ROOT).join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    out.sort();
    out
}

/// The command lines and standard inputs whose outputs are kept.
fn commands() -> Vec<(Vec<String>, Option<String>)> {
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();
    let requests: String = files("spec/cases", ".yaml")
        .iter()
        .map(|f| {
            let case = Case::load(f, None).unwrap_or_else(|e| panic!("{f}: {e}"));
            format!("{}\n", case.request())
        })
        .collect();
    out.push((s(&["protocol"]), Some(requests)));
    for p in files("spec/positions", ".yaml") {
        for args in [
            vec!["analyze", &p],
            vec!["analyze", "--format", "json", &p],
            vec!["analyze", "--labels", "latin", &p],
            vec!["render", "--svg", "-", &p],
            vec!["render", "--svg", "-", "--layer", "upper", &p],
            vec!["analyze", "--readings", &p],
            vec!["explain", &p, "一一"],
            vec!["explain", &p, "六九*", "--format", "json"],
        ] {
            out.push((s(&args), None));
        }
    }
    for r in files("spec/records", ".sgf") {
        out.push((s(&["replay", &r]), None));
        out.push((s(&["replay", "--format", "json", &r]), None));
    }
    for r in files("spec/records", ".sgf")
        .into_iter()
        .filter(|r| r.contains("alphago"))
    {
        out.push((s(&["replay", "--mechanical", &r]), None));
        out.push((s(&["replay", "--mechanical", "--format", "json", &r]), None));
        out.push((s(&["replay", "--mechanical", "--gloss", &r]), None));
    }
    out
}

/// `exit<TAB>sha256<TAB>bytes` of a command's standard output.
fn fingerprint(args: &[String], stdin: Option<&str>) -> String {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = match std::env::var_os("M3GO_GOLDEN_BIN") {
        Some(bin) => other_build(&bin, &argv, stdin),
        None => output(&argv, None, stdin),
    };
    let digest = Sha256::digest(&out.stdout);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}\t{hex}\t{}",
        out.status
            .code()
            .map_or("signal".to_owned(), |c| c.to_string()),
        out.stdout.len()
    )
}

/// Runs another build of m3go (`M3GO_GOLDEN_BIN`) in the crate's folder.
fn other_build(bin: &std::ffi::OsStr, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("run {} {args:?}: {e}", bin.to_string_lossy()));
    let mut pipe = child.stdin.take().expect("a piped standard input");
    let text = stdin.unwrap_or_default().to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("wait for the other build");
    writer
        .join()
        .expect("the writer of standard input")
        .unwrap_or_else(|e| panic!("write the standard input: {e}"));
    out
}

#[test]
fn every_commands_output_is_the_kept_one() {
    let now: BTreeMap<String, String> = commands()
        .into_iter()
        .map(|(args, stdin)| {
            let line = fingerprint(&args, stdin.as_deref());
            (args.join(" "), line)
        })
        .collect();
    let text: String = now.iter().map(|(k, v)| format!("{k}\t{v}\n")).collect();
    let path = Path::new(ROOT).join(GOLDEN);
    if std::env::var("M3GO_UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().expect("tests/golden")).expect("tests/golden");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{GOLDEN}: {e}"));
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{GOLDEN}: {e}"));
    let kept: BTreeMap<&str, &str> = kept.lines().filter_map(|l| l.split_once('\t')).collect();
    let mut changed = Vec::new();
    for (cmd, line) in &now {
        match kept.get(cmd.as_str()) {
            Some(k) if k == line => {}
            Some(k) => changed.push(format!("m3go {cmd}: kept {k}, now {line}")),
            None => changed.push(format!("m3go {cmd}: not kept (now {line})")),
        }
    }
    for cmd in kept.keys().filter(|k| !now.contains_key(**k)) {
        changed.push(format!("m3go {cmd}: kept, no longer run"));
    }
    assert!(
        changed.is_empty(),
        "outputs differ from {GOLDEN}:\n{}\nif the change is deliberate, rewrite it: {REGENERATE}",
        changed.join("\n")
    );
}
