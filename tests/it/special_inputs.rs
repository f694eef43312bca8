//! Inputs that are not regular files (issue 49): a FIFO, a device, a folder given where m3go
//! reads a position, a record, a rules file or an opening. A stream is read as the shell reads
//! it, bounded in size and in time (`M3GO_INPUT_TIMEOUT`): a FIFO nobody writes is refused at
//! the deadline, not waited on for ever; a FIFO written late is read whole; a folder is refused.

use crate::common::{BIN, ROOT};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-special-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// Runs m3go with `args` and `M3GO_INPUT_TIMEOUT=seconds`; stops it (and fails) if it is still
/// running after two minutes, which only a read waiting for ever would take. Returns the exit
/// code, stdout and stderr.
fn run(args: &[&str], seconds: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .env("M3GO_INPUT_TIMEOUT", seconds)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run m3go");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("m3go {args:?} still running after two minutes: it waits for the input");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A FIFO nobody writes, given as a position, a record, a rules file or a match's opening:
/// refused at the deadline with a message naming it (exit 2), where m3go waited for ever.
#[test]
fn special_inputs_a_fifo_nobody_writes_is_refused_at_the_deadline() {
    let dir = scratch("fifo");
    let out = dir.join("games").to_string_lossy().into_owned();
    for name in [
        "pos.yaml",
        "game.sgf",
        "rules.yaml",
        "opening.yaml",
        "opening.sgf",
    ] {
        let fifo = dir.join(name);
        mkfifo(&fifo);
        let f = fifo.to_string_lossy().into_owned();
        let args: Vec<&str> = match name {
            "pos.yaml" => vec!["analyze", &f],
            "game.sgf" => vec!["replay", &f],
            "rules.yaml" => vec!["rules", "check", &f],
            _ => vec![
                "match",
                "--player",
                "a=false",
                "--player",
                "b=false",
                "--size",
                "5",
                "-o",
                &out,
                "--openings",
                &f,
            ],
        };
        let (code, _, err) = run(&args, "1");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(name) && err.contains("not ended by its writer within 1 s"),
            "{args:?}: {err}"
        );
        assert!(err.lines().count() == 1, "one line: {err}");
    }
    assert!(!Path::new(&out).join("game-001.sgf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A FIFO whose writer comes late (after m3go has opened it) is read whole, as the shell
/// reads it.
#[test]
fn special_inputs_a_fifo_written_late_is_read_whole() {
    let dir = scratch("late");
    let fifo = dir.join("pos.yaml");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            // opening for writing waits for m3go to open the FIFO for reading
            std::fs::write(&fifo, "size: 3\ndiagram: |\n  X . .\n  . . .\n  . . .\n")
        })
    };
    let f = fifo.to_string_lossy().into_owned();
    let (code, out, err) = run(&["analyze", &f, "--format", "json"], "60");
    writer.join().expect("the writer").expect("written");
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("the analysis");
    assert_eq!(v["size"], 3, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder is refused with a clear message; `/dev/null` is an empty input; a bad
/// `M3GO_INPUT_TIMEOUT` is refused by name when a stream is read.
#[test]
fn special_inputs_folders_empty_devices_and_a_bad_deadline() {
    let dir = scratch("folder");
    let d = dir.to_string_lossy().into_owned();
    for args in [
        vec!["analyze", d.as_str()],
        vec!["replay", d.as_str()],
        vec!["rules", "check", d.as_str()],
    ] {
        let (code, _, err) = run(&args, "60");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&d) && err.contains("a folder: expected a file"),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = run(&["analyze", "/dev/null"], "60");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("/dev/null"), "{err}");
    let (code, _, err) = run(&["analyze", "/dev/null"], "soon");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("M3GO_INPUT_TIMEOUT") && err.contains("soon"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The results files `match --merge` and `conform --merge` read as streams of any length: a
/// FIFO nobody writes, a device or a folder is refused at once with a message naming it
/// (exit 2), where the FIFO held m3go for ever and `/dev/zero` was read without end.
#[test]
fn special_inputs_merged_results_files_are_regular_files() {
    let dir = scratch("merge");
    let fifo = dir.join("shard.jsonl");
    mkfifo(&fifo);
    let fifo = fifo.to_string_lossy().into_owned();
    let folder = dir.to_string_lossy().into_owned();
    for command in ["match", "conform"] {
        for (input, what) in [
            (fifo.as_str(), "not a regular file"),
            ("/dev/zero", "not a regular file"),
            (folder.as_str(), "a folder"),
        ] {
            let args = vec![command, "--merge", input];
            let (code, _, err) = run(&args, "60");
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(err.contains(input) && err.contains(what), "{args:?}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
