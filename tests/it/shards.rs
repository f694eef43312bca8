//! Large runs on the schedulers people have (issue 25, item 5): `--shard auto` reads the part
//! from the array-job environment of Slurm, Kubernetes indexed Jobs and GNU parallel, each
//! shard writes its results as JSON lines (`--results`), and `m3go conform --merge` reports
//! them as the whole run.

use crate::common::{BIN, ROOT};
use std::process::Command;

/// The scheduler variables of the environment this test runs in, removed from every run.
const SCHEDULER_VARS: [&str; 8] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "PARALLEL_SEQ",
    "PARALLEL_JOBSLOT",
    "M3GO_SHARD_COUNT",
];

/// Runs m3go with `args` and these environment variables (and no other scheduler's).
fn m3go_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(ROOT);
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c
        .output()
        .unwrap_or_else(|e| panic!("run m3go {args:?}: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn list(shard: &str, env: &[(&str, &str)]) -> String {
    let (code, out, err) = m3go_env(&["conform", "--list", "--shard", shard], env);
    assert_eq!(code, Some(0), "--shard {shard} {env:?}: {err}");
    assert!(!out.is_empty());
    out
}

#[test]
fn shard_auto_reads_slurm_kubernetes_and_gnu_parallel() {
    let second = list("2/3", &[]);
    assert_ne!(second, list("1/3", &[]));
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    assert_eq!(list("auto", &slurm), second, "Slurm");
    let k8s = [("JOB_COMPLETION_INDEX", "1"), ("M3GO_SHARD_COUNT", "3")];
    assert_eq!(list("auto", &k8s), second, "Kubernetes");
    assert_eq!(
        list("auto/3", &[("JOB_COMPLETION_INDEX", "1")]),
        second,
        "Kubernetes, auto/N"
    );
    let parallel = [("PARALLEL_SEQ", "2"), ("PARALLEL_JOBSLOT", "1")];
    assert_eq!(list("auto/3", &parallel), second, "GNU parallel");
    // without a scheduler, or without a count, it says what it expected
    let (code, _, err) = m3go_env(&["conform", "--list", "--shard", "auto"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no array-job environment"), "{err}");
    let (code, _, err) = m3go_env(
        &["conform", "--list", "--shard", "auto"],
        &[("PARALLEL_SEQ", "2")],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("M3GO_SHARD_COUNT=N"), "{err}");
}

fn tmpdir(tag: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shards-{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

#[test]
fn shard_results_merge_into_the_summary_of_the_whole_run() {
    let dir = tmpdir("merge");
    let filter = ["--filter", "M20-EYE"];
    let (code, whole, err) = m3go_env(&["conform", filter[0], filter[1]], &[]);
    assert_eq!(code, Some(0), "{err}");
    let summary = whole.lines().last().expect("summary").to_string();
    let mut files = Vec::new();
    for k in 1..=3 {
        let f = dir
            .join(format!("{k}.jsonl"))
            .to_string_lossy()
            .into_owned();
        let idx = (k - 1).to_string();
        let (code, out, err) = m3go_env(
            &[
                "conform",
                filter[0],
                filter[1],
                "--shard",
                "auto",
                "--results",
                &f,
            ],
            &[("JOB_COMPLETION_INDEX", &idx), ("M3GO_SHARD_COUNT", "3")],
        );
        assert_eq!(code, Some(0), "{out}{err}");
        let text = std::fs::read_to_string(&f).expect("results");
        let header: serde_json::Value =
            serde_json::from_str(text.lines().next().expect("header")).expect("JSON");
        assert_eq!(header["shard"], format!("{k}/3"), "{header}");
        assert_eq!(
            header["cases"].as_u64(),
            Some(text.lines().count() as u64 - 1)
        );
        files.push(f);
    }
    let mut args = vec!["conform", "--merge"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = m3go_env(&args, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out.lines().last(), Some(summary.as_str()), "{out}");
    // a shard missing, or given twice, is refused
    let (code, _, err) = m3go_env(&args[..4], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("shard(s) 3/3 missing"), "{err}");
    let mut twice = args.clone();
    twice.push(files[0].as_str());
    let (code, _, err) = m3go_env(&twice, &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    // a failed case in one shard fails the merged run, with its differences
    let broken = std::fs::read_to_string(&files[1])
        .expect("results")
        .replacen(
            "\"outcome\":\"passed\",\"details\":[]",
            "\"outcome\":\"failed\",\"details\":[\"private_eyes X: expected …\"]",
            1,
        );
    std::fs::write(&files[1], broken).expect("write");
    let (code, out, _) = m3go_env(&args, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("FAILED ") && out.contains("- private_eyes X: expected …"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
