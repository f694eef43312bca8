//! The CI templates for implementers (docs/ci/github-actions.yml, docs/ci/gitlab-ci.yml) do what
//! they say: each file is read as the CI system reads it (serde_yaml), and the shell commands of
//! its job are run here, in a folder outside the checkout (as an implementer's repository is),
//! with the built binary as `m3go` on the PATH and `m3go protocol` as the program under test.
//! Only the install lines are not run (they fetch m3go from its repository); they are checked to
//! install this crate (the Python package or the root crate) from the repository Cargo.toml
//! names. The JUnit report the commands write is read back, and the step that shows it must read
//! the same file.

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

/// A key of the root Cargo.toml's [package] (a `key = "value"` line).
fn package_key(key: &str) -> String {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).expect("Cargo.toml");
    let prefix = format!("{key} = \"");
    manifest
        .lines()
        .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix('"'))
        .unwrap_or_else(|| panic!("Cargo.toml names no {key}"))
        .to_owned()
}

/// The Python package's name (python/pyproject.toml's [project] name).
fn python_project_name() -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join("python/pyproject.toml"))
        .expect("python/pyproject.toml");
    let project = text
        .split("\n[project]\n")
        .nth(1)
        .expect("python/pyproject.toml has a [project] table");
    project
        .lines()
        .find_map(|l| l.strip_prefix("name = \"")?.strip_suffix('"'))
        .expect("[project] names the package")
        .to_owned()
}

/// A template's install line, which the test does not run: it must install m3go from the
/// repository Cargo.toml names, as the Python package (`pip install "NAME @ git+REPO@REF
/// #subdirectory=python"`) or the root crate (`cargo install --locked --git REPO --branch REF
/// m3go`). Returns whether the line is one (false: an ordinary line, to be run).
fn install_line(line: &str) -> bool {
    let line = line.trim();
    let repository = package_key("repository");
    if let Some(spec) = line.strip_prefix("pip install ") {
        let expected = format!(
            "\"{} @ git+{repository}@${{M3GO_REF}}#subdirectory=python\"",
            python_project_name()
        );
        assert_eq!(spec, expected, "the pip install line of a CI template");
        assert!(Path::new(ROOT).join("python/pyproject.toml").is_file());
        return true;
    }
    if let Some(args) = line.strip_prefix("cargo install ") {
        let expected = format!(
            "--locked --git {repository} --branch \"$M3GO_REF\" {}",
            package_key("name")
        );
        assert_eq!(args, expected, "the cargo install line of a CI template");
        return true;
    }
    assert!(
        !line.contains(" install "),
        "an install line of an unknown form: {line}"
    );
    false
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
            let value = if name == "IMPLEMENTATION" {
                "m3go protocol"
            } else {
                value
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
    let vars = string_pairs(workflow.get("env"));
    assert!(vars.iter().any(|(k, _)| k == "IMPLEMENTATION"));
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
    for step in steps {
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
            let with = step.get("with");
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
    let jobs = pipeline.as_mapping().expect("a mapping of jobs");
    assert_eq!(jobs.len(), 1, "one job");
    let (_, job) = jobs.iter().next().expect("a job");
    let vars = string_pairs(job.get("variables"));
    assert!(vars.iter().any(|(k, _)| k == "IMPLEMENTATION"));
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
