//! The CI templates for implementers (docs/ci/github-actions.yml, docs/ci/gitlab-ci.yml) do what
//! they say: each file is read as the CI system reads it (serde_yaml), and the shell commands of
//! its job are run here, in a folder outside the checkout (as an implementer's repository is),
//! with the built binary as `m3go` on the PATH and `m3go protocol` as the program under test.
//! Only the install lines are not run (they build m3go); they are checked to install the root
//! crate from the path `M3GO_SOURCE` names, which the run sets to this clone. Each file's
//! structure is checked as well: no address to correct, the permissions the JUnit publisher
//! needs, actions pinned, the cache holding what the install builds. The JUnit report the
//! commands write is read back, and the step that shows it must read the same file.

use crate::common::{BIN, ROOT};
use serde_yaml::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A template's text, read from docs/ci/.
fn template(name: &str) -> Value {
    let path = Path::new(ROOT).join("docs/ci").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The one install line both templates hold, which the test does not run (it builds m3go, minutes):
/// m3go built from the copy of its source the implementer's repository holds at `M3GO_SOURCE`,
/// no address of m3go's own (the templates name none: a fork, a mirror or a release's source
/// is the implementer's choice). Returns whether `line` is it (false: an ordinary line, run).
fn install_line(line: &str) -> bool {
    let line = line.trim();
    if !line.contains("cargo install") && !line.contains("pip install") {
        return false;
    }
    let forms = [
        r#"cargo install --locked --path "$M3GO_SOURCE""#,
        r#"CARGO_TARGET_DIR=m3go-target cargo install --locked --path "$M3GO_SOURCE""#,
    ];
    assert!(
        forms.contains(&line),
        "an install line of an unknown form: {line}"
    );
    assert!(
        Path::new(ROOT).join("Cargo.toml").is_file(),
        "the path holds m3go's root crate"
    );
    true
}

/// The template's text outside comments names no address: nothing to correct before it works.
fn assert_no_address(name: &str) {
    let path = Path::new(ROOT).join("docs/ci").join(name);
    let text = std::fs::read_to_string(&path).expect("the template");
    for (k, line) in text.lines().enumerate() {
        let code = line.split(" #").next().unwrap_or("");
        if code.trim_start().starts_with('#') {
            continue;
        }
        assert!(
            !code.contains("://") && !code.contains("git+") && !code.contains("github.com"),
            "{name}:{}: an address in the template: {line}",
            k + 1
        );
    }
}

/// A folder outside the checkout to run a job in: `m3go` (the built binary) in its `bin/`.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin/");
        std::os::unix::fs::symlink(BIN, bin.join("m3go")).expect("bin/m3go");
        std::fs::create_dir(dir.path().join("project")).expect("project/");
        Sandbox { dir }
    }

    /// The implementer's repository, where the jobs run.
    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// Runs `script` with bash -e in the project folder, the variables `vars` exported first
    /// (expanded by the shell, as the CI system expands them), the program under test being
    /// `m3go protocol`; panics unless it exits 0.
    fn run(&self, what: &str, vars: &[(String, String)], script: &str) {
        let mut full = String::new();
        for (name, value) in vars {
            let value = match name.as_str() {
                "IMPLEMENTATION" => "m3go protocol",
                // m3go's source is this clone (a submodule's place in an implementer's repository)
                "M3GO_SOURCE" => ROOT,
                _ => value,
            };
            full.push_str(&format!("export {name}=\"{value}\"\n"));
        }
        full.push_str(script);
        let path = format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::new("bash")
            .args(["-e", "-c", &full])
            .current_dir(self.project())
            .env("PATH", path)
            .env("CI_PROJECT_DIR", self.project())
            .env_remove("NO_COLOR")
            .output()
            .unwrap_or_else(|e| panic!("run {what}: {e}"));
        assert!(
            out.status.success(),
            "{what} failed ({}):\n{full}\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The JUnit report the job wrote (`file` in the project folder): a suite of the bundled
    /// cases, every one passed.
    fn check_report(&self, file: &str) {
        let path = self.project().join(file);
        let xml =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc = roxmltree::Document::parse(&xml).expect("the report is XML");
        let cases: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let suite = spec_case_count();
        assert_eq!(cases.len(), suite, "one testcase per bundled case");
        let failed = doc
            .descendants()
            .filter(|n| n.has_tag_name("failure") || n.has_tag_name("error"))
            .count();
        assert_eq!(failed, 0, "m3go protocol fails no case:\n{xml}");
    }
}

/// How many cases the bundled suite holds (`m3go conform --list`, one line a case).
fn spec_case_count() -> usize {
    let (code, out, err) = crate::common::m3go(&["conform", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    out.lines().filter(|l| !l.trim().is_empty()).count()
}

/// A mapping's string entries as (name, value) pairs.
fn string_pairs(map: Option<&Value>) -> Vec<(String, String)> {
    map.and_then(Value::as_mapping)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.as_str()?.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

/// The lines of a `run:` or `script:` that are run (install lines checked and left out).
fn runnable(lines: &[&str]) -> String {
    let mut script = String::new();
    for line in lines {
        if !install_line(line) {
            script.push_str(line);
            script.push('\n');
        }
    }
    script
}

#[test]
fn github_actions_template_runs_the_suite_and_shows_its_report() {
    let workflow = template("github-actions.yml");
    assert_no_address("github-actions.yml");
    let vars = string_pairs(workflow.get("env"));
    for var in ["IMPLEMENTATION", "M3GO_SOURCE"] {
        assert!(vars.iter().any(|(k, _)| k == var), "env: {var}");
    }
    assert!(workflow.get("on").is_some(), "on: the events that run it");
    // the JUnit publisher creates a check run: checks: write, and nothing else written
    let permissions = string_pairs(workflow.get("permissions"));
    assert_eq!(
        permissions,
        vec![
            ("contents".to_owned(), "read".to_owned()),
            ("checks".to_owned(), "write".to_owned())
        ],
        "permissions:"
    );
    let jobs = workflow
        .get("jobs")
        .and_then(Value::as_mapping)
        .expect("jobs");
    assert_eq!(jobs.len(), 1, "one job");
    let (_, job) = jobs.iter().next().expect("a job");
    let steps = job
        .get("steps")
        .and_then(Value::as_sequence)
        .expect("steps");
    let sandbox = Sandbox::new();
    let (mut installs, mut runs, mut reports) = (0, 0, Vec::new());
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/ci/github-actions.yml"))
        .expect("the template");
    assert!(
        !text.contains("pip"),
        "m3go is installed with cargo, no pip cache to promise"
    );
    for step in steps {
        assert!(
            step.get("run").is_some() != step.get("uses").is_some(),
            "a step runs commands or uses an action: {step:?}"
        );
        if let Some(uses) = step.get("uses").and_then(Value::as_str) {
            let version = uses.rsplit_once("@v").map(|(_, v)| v).unwrap_or("");
            assert!(
                !version.is_empty() && version.chars().all(|c| c.is_ascii_digit()),
                "{uses}: an action pinned to its major version"
            );
            let with = |key: &str| step.get("with").and_then(|w| w.get(key));
            if uses.starts_with("actions/checkout@") {
                assert_eq!(with("submodules"), Some(&Value::Bool(true)), "{uses}");
            }
            if uses.starts_with("actions/cache@") {
                let paths = with("path").and_then(Value::as_str).unwrap_or("");
                assert!(paths.lines().any(|l| l.trim() == "m3go-target"), "{paths}");
                let key = with("key").and_then(Value::as_str).unwrap_or("");
                assert!(
                    key.contains("Cargo.lock") && key.contains("M3GO_SOURCE"),
                    "{key}"
                );
            }
            if uses.starts_with("mikepenz/action-junit-report@") {
                assert!(with("annotate_only").is_some(), "forks: annotate only");
            }
        }
        if let Some(run) = step.get("run").and_then(Value::as_str) {
            let lines: Vec<&str> = run.lines().collect();
            installs += lines.iter().filter(|l| install_line(l)).count();
            let script = runnable(&lines);
            if !script.trim().is_empty() {
                // Each `run` is a shell of its own on GitHub (bash -e).
                sandbox.run(&format!("the step {run:?}"), &vars, &script);
                runs += 1;
            }
        } else if let Some(uses) = step.get("uses").and_then(Value::as_str) {
            let with = step
                .get("with")
                .filter(|_| !uses.starts_with("actions/cache@"));
            let read = with
                .and_then(|w| w.get("report_paths").or_else(|| w.get("path")))
                .and_then(Value::as_str);
            if let Some(file) = read {
                assert_eq!(
                    step.get("if").and_then(Value::as_str),
                    Some("always()"),
                    "{uses} runs when the suite failed too"
                );
                reports.push(file.to_owned());
            }
        }
    }
    assert_eq!(installs, 1, "one install line");
    assert!(runs >= 1, "a step runs m3go conform");
    assert!(
        reports.iter().any(|r| r == "report.xml"),
        "a step reads the JUnit report: {reports:?}"
    );
    for file in &reports {
        sandbox.check_report(file);
    }
}

#[test]
fn gitlab_template_runs_the_suite_and_gives_gitlab_its_report() {
    let pipeline = template("gitlab-ci.yml");
    assert_no_address("gitlab-ci.yml");
    let jobs = pipeline.as_mapping().expect("a mapping of jobs");
    assert_eq!(jobs.len(), 1, "one job");
    let (_, job) = jobs.iter().next().expect("a job");
    assert!(job.get("image").and_then(Value::as_str).is_some(), "image:");
    let vars = string_pairs(job.get("variables"));
    let var = |name: &str| {
        vars.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("variables: {name}"))
    };
    var("IMPLEMENTATION");
    var("M3GO_SOURCE");
    assert!(matches!(
        var("GIT_SUBMODULE_STRATEGY"),
        "recursive" | "normal"
    ));
    assert!(var("CARGO_TARGET_DIR").ends_with("/m3go-target"));
    let cached: Vec<&str> = job
        .get("cache")
        .and_then(|c| c.get("paths"))
        .and_then(Value::as_sequence)
        .expect("cache: paths:")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(cached.contains(&"m3go-target/"), "{cached:?}");
    // GitLab runs before_script and script in one shell, stopping at the first failing line.
    let mut lines = Vec::new();
    for key in ["before_script", "script"] {
        for line in job
            .get(key)
            .and_then(Value::as_sequence)
            .unwrap_or_else(|| panic!("{key}"))
        {
            lines.push(line.as_str().unwrap_or_else(|| panic!("{key}: a string")));
        }
    }
    let installs = lines.iter().filter(|l| install_line(l)).count();
    assert_eq!(installs, 1, "one install line");
    let sandbox = Sandbox::new();
    sandbox.run("the job's script", &vars, &runnable(&lines));
    let artifacts = job.get("artifacts").expect("artifacts");
    assert_eq!(
        artifacts.get("when").and_then(Value::as_str),
        Some("always"),
        "the report is kept when the suite failed too"
    );
    let junit = artifacts
        .get("reports")
        .and_then(|r| r.get("junit"))
        .and_then(Value::as_str)
        .expect("artifacts: reports: junit:");
    assert_eq!(junit, "report.xml");
    sandbox.check_report(junit);
}
