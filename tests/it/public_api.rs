//! The public surfaces of the workspace's two library crates, listed: crates/engine/public-api.txt
//! is the listing of `m3go-engine`'s public items and public-api.txt (at the top of the
//! repository) that of the root crate `m3go` with its default features, both written by the
//! `public-api` crate over rustdoc's JSON. Each test fails when its crate's surface and the
//! committed listing differ, so that a change to a surface is a visible diff in review, and when
//! the crate has more than [`MAX_ITEMS`] public items (counted by [`item_count`]). After a
//! deliberate change: `M3GO_UPDATE_PUBLIC_API=1 cargo test --test it public_api`.
//!
//! rustdoc's JSON output is unstable, and these machines have the stable toolchain only (no
//! nightly can be fetched), so the JSON is asked of the stable rustdoc with `RUSTC_BOOTSTRAP=1`:
//! the toolchain the rest of the build uses, whose JSON format the `public-api` version of
//! Cargo.lock reads.

use crate::common::ROOT;
use public_api::tokens::Token;
use public_api::PublicApi;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

const REGENERATE: &str = "M3GO_UPDATE_PUBLIC_API=1 cargo test --test it public_api";

/// The engine's listing.
const ENGINE_LISTING: &str = "crates/engine/public-api.txt";

/// The most public items a library crate of the workspace may have (issue 50: a face a newcomer
/// can read, as shakmaty's is).
const MAX_ITEMS: usize = 150;

/// rustdoc's JSON of a library crate of the workspace, with its default features (its own target
/// folder, so the HTML docs stay apart).
fn rustdoc_json(package: &str) -> std::path::PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = Path::new(ROOT).join("target").join("public-api");
    let out = Command::new(cargo)
        .args([
            "doc",
            "--package",
            package,
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
        "cargo doc (rustdoc JSON) of {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    target
        .join("doc")
        .join(format!("{}.json", package.replace('-', "_")))
}

/// The public surface of a library crate of the workspace.
fn public_api(package: &str) -> PublicApi {
    public_api::Builder::from_rustdoc_json(rustdoc_json(package))
        .omit_blanket_impls(true)
        .omit_auto_trait_impls(true)
        .omit_auto_derived_impls(true)
        .build()
        .unwrap_or_else(|e| panic!("the public-api listing of {package}: {e}"))
}

/// The kind word of a listed item (`mod`, `struct`, `fn`, …; `None` for a field, a variant or an
/// `impl` line, which carry none).
fn kind(item: &public_api::PublicItem) -> Option<&str> {
    item.tokens().find_map(|t| match t {
        Token::Kind(k) => Some(k.as_str()),
        _ => None,
    })
}

/// The number of public items of a crate: the types (structs, enums, unions, traits), the free
/// functions, the constants and statics, the type aliases and the macros declared in a module —
/// every name a user can `use` from the crate except a module — each counted once however many
/// paths reach it (a `pub use` adds no item). What belongs to a type is counted with its type,
/// not on its own: methods, associated constants and types, fields and variants; so are trait
/// implementations. Modules are not items by this count; [`module_count`] counts them.
fn item_count(api: &PublicApi) -> usize {
    let kinds: BTreeMap<_, _> = api.items().map(|i| (i.id(), kind(i))).collect();
    api.items()
        .filter(|i| {
            matches!(
                kind(i),
                Some(
                    "struct"
                        | "enum"
                        | "union"
                        | "trait"
                        | "fn"
                        | "const"
                        | "static"
                        | "type"
                        | "macro"
                )
            ) && i
                .parent_id()
                .is_some_and(|p| kinds.get(&p) == Some(&Some("mod")))
        })
        .map(public_api::PublicItem::id)
        .collect::<BTreeSet<_>>()
        .len()
}

/// The number of public modules of a crate, the crate's root included.
fn module_count(api: &PublicApi) -> usize {
    api.items()
        .filter(|i| kind(i) == Some("mod"))
        .map(public_api::PublicItem::id)
        .collect::<BTreeSet<_>>()
        .len()
}

/// The check of one crate: its listing is the committed one (rewritten instead with
/// M3GO_UPDATE_PUBLIC_API=1) and its public items are at most [`MAX_ITEMS`].
fn check(package: &str, listing: &str) {
    let api = public_api(package);
    let now = format!("{api}");
    let path = Path::new(ROOT).join(listing);
    if std::env::var("M3GO_UPDATE_PUBLIC_API").as_deref() == Ok("1") {
        std::fs::write(&path, &now).unwrap_or_else(|e| panic!("{listing}: {e}"));
    } else {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != now {
            panic!(
                "{package}'s public surface differs from {listing} ({})\n\
                 if the change is deliberate, rewrite the listing: {REGENERATE}",
                difference(&committed, &now)
            );
        }
    }
    let (items, modules) = (item_count(&api), module_count(&api));
    eprintln!("{package}: {items} public items in {modules} public modules");
    assert!(
        items <= MAX_ITEMS,
        "{package} has {items} public items, more than {MAX_ITEMS}: make crate-private \
         (`pub(crate)`) what only the crate uses"
    );
}

/// The difference of two listings in words: the lines gone and added, or a reordering.
fn difference(committed: &str, now: &str) -> String {
    let (gone, added) = (
        multiset_minus(committed, now),
        multiset_minus(now, committed),
    );
    if gone.is_empty() && added.is_empty() {
        "the same lines in another order: an item moved to another impl block or module".to_owned()
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
    }
}

#[test]
fn the_engine_crates_public_surface_is_the_committed_listing() {
    check("m3go-engine", "crates/engine/public-api.txt");
}

#[test]
fn the_root_crates_public_surface_is_the_committed_listing() {
    check("m3go", "public-api.txt");
}

/// The lines of `a` that `b` lacks, counting repeats: the listing repeats a line such as
/// `impl m3go_engine::Board` once per impl block, so an extra block is a change.
fn multiset_minus<'a>(a: &'a str, b: &str) -> Vec<&'a str> {
    let mut left: BTreeMap<&str, usize> = BTreeMap::new();
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
    let listing = std::fs::read_to_string(Path::new(ROOT).join(ENGINE_LISTING))
        .unwrap_or_else(|e| panic!("{ENGINE_LISTING}: {e}"));
    let paths = item_paths(&listing);
    assert!(
        paths.len() > 50,
        "{ENGINE_LISTING} lists {} items",
        paths.len()
    );
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
        "public names listed at more than one path in {ENGINE_LISTING}:\n{}",
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
