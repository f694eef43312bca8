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
    // the shards missing of a large split are listed in a short line: the first few, and a count
    let many = dir.join("1-of-many.jsonl");
    let text = std::fs::read_to_string(&files[0]).expect("results");
    assert!(text.contains(r#""shard":"1/3""#), "{text}");
    std::fs::write(
        &many,
        text.replacen(r#""shard":"1/3""#, r#""shard":"1/100000""#, 1),
    )
    .expect("write");
    let (code, _, err) = m3go_env(&["conform", "--merge", &many.to_string_lossy()], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("and 99994 more missing"), "{err}");
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
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

/// `conform --filter FILTER --shard K/3 --results DIR/K.jsonl` for each K (and `extra` flags);
/// the files.
fn shard_results(dir: &std::path::Path, filter: &str, extra: &[&str]) -> Vec<String> {
    (1..=3)
        .map(|k| {
            let f = dir
                .join(format!("{k}.jsonl"))
                .to_string_lossy()
                .into_owned();
            let shard = format!("{k}/3");
            let mut args = vec![
                "conform",
                "--filter",
                filter,
                "--shard",
                &shard,
                "--results",
                &f,
            ];
            args.extend(extra);
            let (code, out, err) = m3go_env(&args, &[]);
            assert_eq!(code, Some(0), "{args:?}: {out}{err}");
            f
        })
        .collect()
}

/// `conform --merge FILES` (in an environment that names a scheduler's part, which merging
/// must not read).
fn merge(files: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["conform", "--merge"];
    args.extend(files);
    m3go_env(
        &args,
        &[("JOB_COMPLETION_INDEX", "0"), ("M3GO_SHARD_COUNT", "3")],
    )
}

/// Issue 36, finding 5: shards 1/3 and 3/3 merged with a "2/3" run under another selection (a
/// filter that matched nothing, `--allow-empty`) are refused, naming the two files and what
/// differs, instead of reporting the cases of two shards as the whole run.
#[test]
fn merge_refuses_a_shard_of_another_selection() {
    let dir = tmpdir("selection");
    let files = shard_results(&dir, "M20-EYE", &[]);
    let other = dir.join("other").to_string_lossy().into_owned();
    std::fs::create_dir_all(&other).expect("mkdir");
    let stray = shard_results(
        std::path::Path::new(&other),
        "NO-SUCH-CLAUSE",
        &["--allow-empty"],
    );
    let (code, out, err) = merge(&[&files[0], &stray[1], &files[2]]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(!out.contains(" passed, "), "{out}");
    assert!(
        err.contains(&format!(
            "{} and {} are results of different selections",
            files[0], stray[1]
        )) && err.contains("--filter `M20-EYE` against `NO-SUCH-CLAUSE`"),
        "{err}"
    );
    // the three shards of one selection merge
    let (code, out, err) = merge(&[&files[0], &files[1], &files[2]]);
    assert_eq!(code, Some(0), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The header of a results file, and its lines of results.
fn parts(file: &str) -> (serde_json::Value, Vec<String>) {
    let text = std::fs::read_to_string(file).expect("results");
    let mut lines = text.lines().map(str::to_string);
    let header = serde_json::from_str(&lines.next().expect("header")).expect("JSON header");
    (header, lines.collect())
}

fn write_parts(file: &str, header: &serde_json::Value, lines: &[String]) {
    let mut text = header.to_string();
    text.push('\n');
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(file, text).expect("write");
}

/// The hash of a selection's ids as spec/README.md "Results files" describes it (SHA-256 of
/// each id after its length in 8 little-endian bytes), worked out here on its own.
fn ids_hash(ids: &[String]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for id in ids {
        h.update((id.len() as u64).to_le_bytes());
        h.update(id.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Issue 36, finding 5: a whole run's results of 30,000 cases (more than 4 MiB, which the
/// files of a case or a record may not be) are read line by line and merged. The file is
/// forged from one real line, consistent with its header: each case its own id and place.
#[test]
fn merge_reads_a_results_file_of_30000_cases() {
    let dir = tmpdir("big");
    let f = dir.join("whole.jsonl").to_string_lossy().into_owned();
    let (code, out, err) = m3go_env(&["conform", "--filter", "M20-EYE", "--results", &f], &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (mut header, lines) = parts(&f);
    let line: serde_json::Value = serde_json::from_str(&lines[0]).expect("JSON line");
    assert_eq!(line["outcome"], "passed", "{line}");
    const N: usize = 30_000;
    let ids: Vec<String> = (0..N).map(|k| format!("forged-case-{k:05}")).collect();
    let forged: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(k, id)| {
            let mut l = line.clone();
            l["id"] = id.as_str().into();
            l["index"] = k.into();
            l["file"] =
                format!("spec/cases/forged-cases-of-a-suite-larger-than-4-mib/{id}.yaml").into();
            l.to_string()
        })
        .collect();
    header["cases"] = N.into();
    header["selection"]["cases"] = N.into();
    header["selection"]["ids"] = ids_hash(&ids).into();
    write_parts(&f, &header, &forged);
    let size = std::fs::metadata(&f).expect("size").len();
    assert!(size > 4 << 20, "{size} bytes");
    let (code, out, err) = merge(&[&f]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.lines().last(),
        Some("30000 passed, 0 failed, 0 errored, 0 skipped"),
        "{err}"
    );
    // the same file with one id changed is not the selection its header records
    let mut edited = forged.clone();
    edited[17] = edited[17].replace("forged-case-00017", "forged-case-x");
    write_parts(&f, &header, &edited);
    let (code, _, err) = merge(&[&f]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not those of the selection"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, finding 5: a header's `shard: auto/3` is refused as malformed, not resolved from
/// the merging process's environment (which names part 1 of 3 here).
#[test]
fn merge_refuses_a_header_shard_of_auto() {
    let dir = tmpdir("auto");
    let files = shard_results(&dir, "M20-EYE", &[]);
    let (mut header, lines) = parts(&files[0]);
    assert_eq!(header["shard"], "1/3");
    header["shard"] = "auto/3".into();
    write_parts(&files[0], &header, &lines);
    let (code, out, err) = merge(&[&files[0], &files[1], &files[2]]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(&format!(
            "{}: line 1: shard: `auto/3` is not a resolved shard",
            files[0]
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, finding 5: an unknown outcome is refused, naming the file and the line, not
/// counted as failed.
#[test]
fn merge_refuses_an_unknown_outcome_naming_the_line() {
    let dir = tmpdir("outcome");
    let files = shard_results(&dir, "M20-EYE", &[]);
    let (header, mut lines) = parts(&files[1]);
    assert!(lines.len() > 2);
    lines[1] = lines[1].replace("\"outcome\":\"passed\"", "\"outcome\":\"passd\"");
    write_parts(&files[1], &header, &lines);
    let (code, out, err) = merge(&[&files[0], &files[1], &files[2]]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(!out.contains("FAILED"), "{out}");
    assert!(
        err.contains(&format!("{}: line 3: outcome `passd` is unknown", files[1])),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, finding 5: a file one line longer than its header says is told as such (not "cut
/// short"); a case left out, with the header's count made to agree, or a case given in place of
/// another, is named.
#[test]
fn merge_counts_the_lines_and_names_the_cases_missing_or_given_twice() {
    let dir = tmpdir("count");
    let files = shard_results(&dir, "M20-EYE", &[]);
    let all = [files[0].as_str(), files[1].as_str(), files[2].as_str()];
    let (mut header, lines) = parts(&files[2]);
    let n = lines.len();
    assert_eq!(header["cases"].as_u64(), Some(n as u64));
    // one line too many
    let mut more = lines.clone();
    more.push(lines[n - 1].clone());
    write_parts(&files[2], &header, &more);
    let (code, _, err) = merge(&all);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!(
            "{}: has {} lines of results, its header says {n}",
            files[2],
            n + 1
        )),
        "{err}"
    );
    // one line left out, and the header's count lowered to match
    let place = |l: &str| -> u64 {
        serde_json::from_str::<serde_json::Value>(l).expect("JSON")["index"]
            .as_u64()
            .expect("index")
    };
    let gone = place(&lines[1]) + 1;
    let mut fewer = lines.clone();
    fewer.remove(1);
    header["cases"] = (n - 1).into();
    write_parts(&files[2], &header, &fewer);
    let (code, _, err) = merge(&all);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!(
            "{} lacks 1 of the {n} case(s) of shard 3/3: the selection's case number {gone} ",
            files[2]
        )),
        "{err}"
    );
    // a case given twice, in place of another
    let mut twice = lines.clone();
    twice[1] = lines[0].clone();
    header["cases"] = n.into();
    write_parts(&files[2], &header, &twice);
    let (code, _, err) = merge(&all);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!("{} gives 1 case(s) a second time", files[2]))
            && err.contains(&format!("(line 3; also {} line 2)", files[2]))
            && err.contains(&format!("the selection's case number {gone} ")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, finding 9: a scheduler index of 2^64 − 1 is refused, not wrapped round to part 0.
#[test]
fn a_scheduler_index_of_2_to_the_64_minus_1_is_refused() {
    let max = u64::MAX.to_string();
    for env in [
        vec![
            ("JOB_COMPLETION_INDEX", max.as_str()),
            ("M3GO_SHARD_COUNT", "3"),
        ],
        vec![
            ("SLURM_ARRAY_TASK_ID", max.as_str()),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    ] {
        let (code, out, err) = m3go_env(&["conform", "--list", "--shard", "auto"], &env);
        assert_eq!(code, Some(2), "{env:?}: {out}{err}");
        assert!(
            err.contains(&format!("{}={max} is too large", env[0].0)),
            "{err}"
        );
    }
}
