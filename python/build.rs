//! The `m3go` command of the wheel: the root crate's own binary (its CLI, not linked into this
//! extension module), built by this build script when maturin builds the package.
//!
//! `pip install ./python` and `maturin build` compile this crate through maturin, which sets
//! `PYO3_BUILD_EXTENSION_MODULE`; then this script runs `cargo build --bin m3go` on the root
//! crate (`..`), in the same profile as this crate (release for a wheel), with a target folder
//! of its own (`python/target/cli`: the outer build holds the lock on its own folder), and
//! copies the binary to `python/target/wheel-scripts/m3go`. The symbolic link
//! `python/m3go.data/scripts/m3go` points there: maturin copies the data folder's `scripts/` into
//! the wheel's `m3go-<version>.data/scripts/` (after the compilation, so the binary is there by
//! then), and pip installs those files next to the environment's `python` (its `bin/`), as it
//! does a console script. A plain `cargo check` or `clippy` of this crate (no maturin) builds
//! nothing here; `M3GO_WHEEL_CLI=1` asks for the build without maturin, `M3GO_WHEEL_CLI=0` skips
//! it (then the link dangles and maturin refuses to write the wheel). `M3GO_WHEEL_CLI_TARGET_DIR`
//! names another target folder for the command's build (CI points it at the root crate's own
//! `target/`, where the command of the same profile is already built: the build is then a check
//! that it is fresh); it must not be the folder of the outer build, whose lock that build holds.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    for var in [
        "PYO3_BUILD_EXTENSION_MODULE",
        "M3GO_WHEEL_CLI",
        "CARGO_PROFILE_RELEASE_DEBUG",
        "CARGO_PROFILE_RELEASE_STRIP",
        "M3GO_WHEEL_CLI_TARGET_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let here = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = here.join("..");
    // What the binary is built from: the root crate's and the engine's sources, manifests, the
    // lock file and the files it embeds (spec/, rules.md). Cargo compares the folders' contents'
    // times.
    for input in [
        "src",
        "crates",
        "Cargo.toml",
        "Cargo.lock",
        "spec",
        "rules.md",
        "build.rs",
    ] {
        let path = root.join(input);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let wanted = match env::var("M3GO_WHEEL_CLI").ok().as_deref() {
        Some("1") => true,
        Some("0") => false,
        _ => env::var_os("PYO3_BUILD_EXTENSION_MODULE").is_some(),
    };
    if !wanted {
        return;
    }
    let cli_target = env::var_os("M3GO_WHEEL_CLI_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| here.join("target").join("cli"));
    let binary = build_cli(&root, &cli_target);
    let scripts = here.join("target").join("wheel-scripts");
    fs::create_dir_all(&scripts).expect("python/target/wheel-scripts cannot be made");
    let installed = scripts.join(exe("m3go"));
    // Copied beside, then renamed over: a reader of the old file never sees half a binary.
    let partial = scripts.join(exe("m3go.partial"));
    fs::copy(&binary, &partial).unwrap_or_else(|e| {
        panic!(
            "cannot copy {} to {}: {e}",
            binary.display(),
            partial.display()
        )
    });
    fs::rename(&partial, &installed).unwrap_or_else(|e| {
        panic!(
            "cannot rename {} to {}: {e}",
            partial.display(),
            installed.display()
        )
    });
}

/// Runs `cargo build --locked --bin m3go` on the root crate and returns the binary's path.
fn build_cli(root: &Path, target_dir: &Path) -> PathBuf {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let profile = env::var("PROFILE").unwrap_or_else(|_| "release".to_owned());
    let target = env::var("TARGET").expect("set by cargo");
    let host = env::var("HOST").expect("set by cargo");
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["build", "--locked", "--bin", "m3go", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        // maturin's flags for the extension module (link arguments of a cdylib) are not the
        // binary's; RUSTFLAGS from the user's environment still apply.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET");
    if profile == "release" {
        command.arg("--release");
        // The root crate's release profile keeps line tables for profilers; the command of a
        // wheel goes without them (a third of the size), unless the environment says otherwise.
        for (var, value) in [
            ("CARGO_PROFILE_RELEASE_DEBUG", "false"),
            ("CARGO_PROFILE_RELEASE_STRIP", "debuginfo"),
        ] {
            if env::var_os(var).is_none() {
                command.env(var, value);
            }
        }
    }
    let mut out = target_dir.to_path_buf();
    if target != host {
        command.args(["--target", &target]);
        out.push(&target);
    }
    out.push(if profile == "release" {
        "release"
    } else {
        "debug"
    });
    out.push(exe("m3go"));
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the m3go command: {e}"));
    assert!(
        status.success(),
        "building the m3go command (cargo build --bin m3go on the root crate) failed: {status}"
    );
    out
}

/// A program's file name on the target (`m3go.exe` on Windows).
fn exe(name: &str) -> String {
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        format!("{name}.exe")
    } else {
        name.to_owned()
    }
}
