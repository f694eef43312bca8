//! The registry package of the root crate holds what the crate needs to build: `cargo package
//! --list` (Cargo.toml's `include`) against the files the sources embed. Every `include_str!`,
//! `include_bytes!` and `include_dir!` of src/ is found, and each file it names (each file under
//! the folder, for include_dir) must be in the package; so must every file of src/ and the
//! readme. The checkout's other folders (tests, Python, fuzz, docs, notes, build output) must
//! not be. Both crates package together (`cargo package --no-verify -p m3go-engine -p m3go`:
//! the engine first, the root crate's dependency on it resolved to that package, as cargo does for
//! the members of a workspace packaged at once), the root crate's packaged manifest naming the
//! engine by version alone; the engine's package holds its sources, readme, test and example.

use crate::common::ROOT;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files `cargo package --list` puts in the package, as paths relative to the crate.
fn packaged() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "package",
            "--package",
            "m3go",
            "--list",
            "--locked",
            "--allow-dirty",
            "--offline",
        ])
        .current_dir(ROOT)
        .output()
        .expect("run cargo package --list");
    assert!(
        out.status.success(),
        "cargo package --list: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Every file under `dir` (relative to the crate), recursively.
fn files_under(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files_under(&path, into);
        } else {
            into.push(path);
        }
    }
}

/// The path relative to the crate's folder, with `/` separators, of a path inside it.
fn relative(path: &Path) -> String {
    let root = std::fs::canonicalize(ROOT).expect("the crate's folder");
    let path = std::fs::canonicalize(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path.strip_prefix(&root)
        .unwrap_or_else(|_| panic!("{} is outside the crate", path.display()))
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The files the sources embed: for each `include_str!("P")`/`include_bytes!("P")` the file P
/// relative to the source file, for each `include_dir!("$CARGO_MANIFEST_DIR/P")` every file
/// under P.
fn embedded() -> BTreeSet<String> {
    let mut sources = Vec::new();
    files_under(&Path::new(ROOT).join("src"), &mut sources);
    let mut found = BTreeSet::new();
    for source in sources
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(source).expect("a source file");
        for (mac, from_manifest) in [
            ("include_str!(\"", false),
            ("include_bytes!(\"", false),
            ("include_dir!(\"$CARGO_MANIFEST_DIR/", true),
        ] {
            for (at, _) in text.match_indices(mac) {
                let rest = &text[at + mac.len()..];
                let Some(end) = rest.find('"') else { continue };
                let named = &rest[..end];
                let path = if from_manifest {
                    Path::new(ROOT).join(named)
                } else {
                    source.parent().expect("src/ file").join(named)
                };
                if path.is_dir() {
                    let mut files = Vec::new();
                    files_under(&path, &mut files);
                    found.extend(files.iter().map(|f| relative(f)));
                } else {
                    found.insert(relative(&path));
                }
            }
        }
    }
    found
}

#[test]
fn the_package_holds_every_file_the_crate_embeds() {
    let package = packaged();
    let embedded = embedded();
    // the suite (include_dir of spec/) and the register (include_str of rules.md) at least
    assert!(embedded.contains("rules.md"), "{embedded:?}");
    assert!(
        embedded.iter().any(|f| f.starts_with("spec/cases/")),
        "{embedded:?}"
    );
    let missing: Vec<_> = embedded.difference(&package).collect();
    assert!(missing.is_empty(), "embedded but not packaged: {missing:?}");

    let mut sources = Vec::new();
    files_under(&Path::new(ROOT).join("src"), &mut sources);
    let unpackaged: Vec<_> = sources
        .iter()
        .map(|p| relative(p))
        .filter(|p| !package.contains(p))
        .collect();
    assert!(
        unpackaged.is_empty(),
        "sources not packaged: {unpackaged:?}"
    );
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(package.contains(needed), "{needed} is not packaged");
    }
    let stray: Vec<_> = package
        .iter()
        .filter(|p| {
            [
                "tests/", "python/", "fuzz/", "docs/", "notes/", "target/", "benches/", ".ci/",
            ]
            .iter()
            .any(|d| p.starts_with(d))
        })
        .collect();
    assert!(stray.is_empty(), "not meant for the package: {stray:?}");
}

/// Runs `cargo ARGS` in the crate's folder (offline, with the lock file as it is); returns its
/// standard output, failing the test with cargo's message when it fails.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(args)
        .args(["--locked", "--allow-dirty", "--offline"])
        .current_dir(ROOT)
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn both_crates_package_and_the_root_names_the_engine_by_version() {
    let target = tempfile::tempdir().expect("a temporary folder");
    let target_dir = target.path().to_string_lossy().into_owned();
    cargo(&[
        "package",
        "--no-verify",
        "--package",
        "m3go-engine",
        "--package",
        "m3go",
        "--target-dir",
        &target_dir,
    ]);
    let packages = target.path().join("package");
    for name in ["m3go-engine-0.1.0.crate", "m3go-0.1.0.crate"] {
        assert!(packages.join(name).is_file(), "no {name} in {packages:?}");
    }
    // the root crate's manifest as the registry gets it (cargo rewrites it): the engine by
    // version, without the path that only the repository has
    let out = Command::new("tar")
        .args(["-xzf", "m3go-0.1.0.crate", "m3go-0.1.0/Cargo.toml"])
        .current_dir(&packages)
        .output()
        .expect("run tar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest = std::fs::read_to_string(packages.join("m3go-0.1.0/Cargo.toml"))
        .expect("the packaged manifest");
    let at = manifest
        .find("[dependencies.m3go-engine]")
        .unwrap_or_else(|| panic!("no engine dependency in\n{manifest}"));
    let table = manifest[at..]
        .split("\n\n")
        .next()
        .expect("the dependency's table");
    assert!(table.contains("version = \"0.1.0\""), "{table}");
    assert!(!table.contains("path"), "{table}");

    let engine: BTreeSet<String> = cargo(&["package", "--package", "m3go-engine", "--list"])
        .lines()
        .map(str::to_owned)
        .collect();
    let mut sources = Vec::new();
    files_under(&Path::new(ROOT).join("crates/engine/src"), &mut sources);
    let base = Path::new(ROOT).join("crates/engine");
    let missing: Vec<String> = sources
        .iter()
        .map(|p| {
            p.strip_prefix(&base)
                .expect("under the engine")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .chain(
            ["Cargo.toml", "README.md", "tests/downstream.rs"]
                .iter()
                .map(|s| (*s).to_owned()),
        )
        .filter(|f| !engine.contains(f))
        .collect();
    assert!(
        missing.is_empty(),
        "not in the engine's package: {missing:?}"
    );
}
