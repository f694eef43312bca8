//! The engine crate's public surface, listed: crates/engine/public-api.txt is the listing of
//! `m3go-engine`'s public items (the `public-api` crate over rustdoc's JSON), and this test fails
//! when the crate's surface and the committed listing differ, so that a change to the surface is
//! a visible diff in review. After a deliberate change:
//! `M3GO_UPDATE_PUBLIC_API=1 cargo test --test it public_api`.
//!
//! rustdoc's JSON output is unstable, and these machines have the stable toolchain only (no
//! nightly can be fetched), so the JSON is asked of the stable rustdoc with `RUSTC_BOOTSTRAP=1`:
//! the toolchain the rest of the build uses, whose JSON format the `public-api` version of
//! Cargo.lock reads.

use crate::common::ROOT;
use std::path::Path;
use std::process::Command;

const LISTING: &str = "crates/engine/public-api.txt";
const REGENERATE: &str = "M3GO_UPDATE_PUBLIC_API=1 cargo test --test it public_api";

/// rustdoc's JSON of the engine crate (its own target folder, so the HTML docs stay apart).
fn rustdoc_json() -> std::path::PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = Path::new(ROOT).join("target").join("public-api");
    let out = Command::new(cargo)
        .args([
            "doc",
            "--package",
            "m3go-engine",
            "--lib",
            "--no-deps",
            "--locked",
            "--offline",
        ])
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(ROOT)
        .output()
        .expect("run cargo doc");
    assert!(
        out.status.success(),
        "cargo doc (rustdoc JSON) of m3go-engine: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    target.join("doc").join("m3go_engine.json")
}

#[test]
fn the_engine_crates_public_surface_is_the_committed_listing() {
    let api = public_api::Builder::from_rustdoc_json(rustdoc_json())
        .omit_blanket_impls(true)
        .omit_auto_trait_impls(true)
        .omit_auto_derived_impls(true)
        .build()
        .unwrap_or_else(|e| panic!("the public-api listing: {e}"));
    let now = format!("{api}");
    let path = Path::new(ROOT).join(LISTING);
    if std::env::var("M3GO_UPDATE_PUBLIC_API").as_deref() == Ok("1") {
        std::fs::write(&path, &now).unwrap_or_else(|e| panic!("{LISTING}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != now {
        let (gone, added) = (
            multiset_minus(&committed, &now),
            multiset_minus(&now, &committed),
        );
        let how = if gone.is_empty() && added.is_empty() {
            "the same lines in another order: an item moved to another impl block or module"
                .to_owned()
        } else {
            format!(
                "{} lines gone, {} added:\n{}\n{}",
                gone.len(),
                added.len(),
                gone.iter()
                    .take(40)
                    .map(|l| format!("- {l}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                added
                    .iter()
                    .take(40)
                    .map(|l| format!("+ {l}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        };
        panic!(
            "m3go-engine's public surface differs from {LISTING} ({how})\n\
             if the change is deliberate, rewrite the listing: {REGENERATE}"
        );
    }
}

/// The lines of `a` that `b` lacks, counting repeats: the listing repeats a line such as
/// `impl m3go_engine::Board` once per impl block, so an extra block is a change.
fn multiset_minus<'a>(a: &'a str, b: &str) -> Vec<&'a str> {
    let mut left: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for line in b.lines() {
        *left.entry(line).or_default() += 1;
    }
    a.lines()
        .filter(|line| match left.get_mut(line) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// Each public item of the engine has one path: a type, trait, function, constant or macro
/// named at two paths of the committed listing (a root re-export beside its module's own path,
/// a module re-exporting another's item) fails, and so does a `fast` module (the incremental
/// engine is the position's own, not a user's). Associated items and enum variants are named
/// through their type and not counted.
#[test]
fn every_public_item_of_the_engine_has_one_path() {
    let listing = std::fs::read_to_string(Path::new(ROOT).join(LISTING))
        .unwrap_or_else(|e| panic!("{LISTING}: {e}"));
    let paths = item_paths(&listing);
    assert!(paths.len() > 50, "{LISTING} lists {} items", paths.len());
    let mut by_name: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for path in &paths {
        let name = path.rsplit("::").next().unwrap_or(path);
        by_name.entry(name).or_default().push(path);
    }
    let twice: Vec<String> = by_name
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "public names listed at more than one path in {LISTING}:\n{}",
        twice.join("\n")
    );
    let fast: Vec<&str> = listing
        .lines()
        .filter(|l| {
            l.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "fast")
        })
        .filter(|l| l.starts_with("pub mod "))
        .collect();
    assert!(fast.is_empty(), "a `fast` module is public: {fast:?}");
}

/// The paths of the module-level items of a listing (`pub struct m3go_engine::board::Group`
/// gives `m3go_engine::board::Group`): structs, enums, unions, traits, functions, constants,
/// statics, type aliases and macros, each once however many impl blocks list it.
fn item_paths(listing: &str) -> std::collections::BTreeSet<&str> {
    const KINDS: [&str; 9] = [
        "struct", "enum", "union", "trait", "fn", "const", "static", "type", "macro",
    ];
    listing
        .lines()
        .filter_map(|line| {
            let mut words = line.strip_prefix("pub ")?.split_whitespace();
            let mut kind = words.next()?;
            while matches!(kind, "const" | "unsafe" | "async" | "extern")
                && !line.starts_with("pub const m3go_engine")
            {
                kind = words.next()?;
            }
            if !KINDS.contains(&kind) {
                return None;
            }
            let path = words.next()?;
            let path = path.split(['(', '<', '!']).next()?.trim_end_matches(':');
            let mut segments = path.rsplit("::");
            let _item = segments.next()?;
            // an associated item: its parent is a type (capitalised), named once with it
            let parent = segments.next()?;
            if parent.starts_with(|c: char| c.is_ascii_uppercase()) {
                return None;
            }
            path.starts_with("m3go_engine").then_some(path)
        })
        .collect()
}
