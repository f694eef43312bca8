//! The suite's files: the case files of a directory, or those of the suite built into the
//! binary (`spec/` as it was when the binary was built).

use crate::input::read_text;
use m3go_engine::InputError;

/// The folder name that stands for the suite built into the binary: `m3go conform` without a
/// directory, outside a checkout, runs the cases of `spec/cases` and the records of
/// `spec/records` as they were when the binary was built.
pub(crate) const BUILTIN_CASES: &str = "built-in:spec/cases";

/// The prefix of the paths of files in the built-in suite.
pub(crate) const BUILTIN: &str = "built-in:";

/// `spec/` as it was when the binary was built: the case files, the records they start from
/// (with the feature `suite`, which the command line turns on).
#[cfg(feature = "suite")]
static SPEC: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/spec");

/// The suite `m3go conform` runs without a directory: `spec/cases` of the current directory if
/// there is one (a checkout), else the built-in one ([`BUILTIN_CASES`]).
pub(crate) fn default_cases_dir() -> String {
    if std::path::Path::new("spec/cases").is_dir() {
        "spec/cases".to_string()
    } else {
        BUILTIN_CASES.to_string()
    }
}

/// The text of a suite file: a built-in one (`built-in:spec/…`) from the binary, any other from
/// the file system.
pub(crate) fn suite_text(path: &str) -> Result<String, InputError> {
    let Some(rel) = path.strip_prefix(BUILTIN) else {
        return read_text(path);
    };
    builtin_text(rel, path)
}

/// The text of the built-in suite's file `rel` (`spec/…`), named `path` in errors.
#[cfg(feature = "suite")]
fn builtin_text(rel: &str, path: &str) -> Result<String, InputError> {
    let inner = normalise(rel)
        .and_then(|r| r.strip_prefix("spec/").map(str::to_string))
        .ok_or_else(|| InputError::new("not in the built-in suite").file(path))?;
    let file = SPEC
        .get_file(&inner)
        .ok_or_else(|| InputError::new("not in the built-in suite").file(path))?;
    file.contents_utf8()
        .map(str::to_string)
        .ok_or_else(|| InputError::new("not UTF-8 text").file(path))
}

/// Without the feature `suite` there is no built-in suite.
#[cfg(not(feature = "suite"))]
fn builtin_text(_rel: &str, path: &str) -> Result<String, InputError> {
    Err(no_builtin_suite(path.to_owned()))
}

/// The refusal of a `built-in:` path in a build without the suite.
#[cfg(not(feature = "suite"))]
fn no_builtin_suite(path: String) -> InputError {
    InputError::new("the built-in suite is not in this build (the crate's feature `suite`)")
        .file(path)
}

/// `a/b/../c` → `a/c`; `None` if `..` leaves the root.
#[cfg(feature = "suite")]
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Without the feature `suite` there is no built-in suite.
#[cfg(not(feature = "suite"))]
fn builtin_case_files(dir: &str) -> Result<Vec<String>, InputError> {
    Err(no_builtin_suite(format!("{BUILTIN}{dir}")))
}

/// The `*.yaml` files of the built-in suite under `dir` (a path inside `spec/`), as
/// `built-in:` paths.
#[cfg(feature = "suite")]
fn builtin_case_files(dir: &str) -> Result<Vec<String>, InputError> {
    let inner = normalise(dir)
        .and_then(|r| r.strip_prefix("spec/").map(str::to_string))
        .and_then(|r| SPEC.get_dir(&r))
        .ok_or_else(|| {
            InputError::new("not in the built-in suite").file(format!("{BUILTIN}{dir}"))
        })?;
    let mut out = Vec::new();
    let mut stack = vec![inner];
    while let Some(d) = stack.pop() {
        for e in d.entries() {
            match e {
                include_dir::DirEntry::Dir(sub) => stack.push(sub),
                include_dir::DirEntry::File(f) => {
                    if f.path().extension().and_then(|x| x.to_str()) == Some("yaml") {
                        out.push(format!("{BUILTIN}spec/{}", f.path().to_string_lossy()));
                    }
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// All `*.yaml` files under `dir`, sorted; under a `built-in:` directory, those of the suite
/// built into the binary.
pub fn case_files(dir: &str) -> Result<Vec<String>, InputError> {
    if let Some(rel) = dir.strip_prefix(BUILTIN) {
        return builtin_case_files(rel);
    }
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| {
            InputError::new(format!("cannot read: {e}")).file(d.display().to_string())
        })?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|x| x.to_str()) == Some("yaml") {
                out.push(p.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    Ok(out)
}
