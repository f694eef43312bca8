//! The perft files of tests/perft/: every entry's counts must be what the engine gives. Counts
//! above [`BUDGET`] leaf sequences are checked only by the ignored test, which .ci/run runs from
//! its test build (`cargo test --test it perft:: -- --ignored`: 1.5 s at opt-level 1).

use m3go::tools::perft::{divide, parse_perft_file, perft, PerftCase};

/// `pos` on the clause-by-clause reference (the engine a comparison sets on the position).
fn on_reference(pos: &m3go_engine::Position) -> m3go_engine::Position {
    pos.clone().with_engine(m3go_engine::Engine::Reference)
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft");
/// The largest count checked by the ordinary test run.
const BUDGET: u64 = 20_000;
/// The largest count also checked with the clause-by-clause reference (`perft` on `Engine::Reference`), which
/// [`perft`] replaces by the fast engine where that supports the rules.
const REFERENCE_BUDGET: u64 = 1_000;

fn load() -> Vec<(String, PerftCase)> {
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .expect("tests/perft exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("perft"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let place = f.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&f).expect("readable perft file");
        let cases = parse_perft_file(&text, &place, DIR).unwrap_or_else(|e| panic!("{e}"));
        assert!(!cases.is_empty(), "{place}: no entries");
        for c in cases {
            out.push((place.clone(), c));
        }
    }
    out
}

fn check(max: u64) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut bad = Vec::new();
    for (place, c) in load() {
        let pos = c.position(&place).unwrap_or_else(|e| panic!("{e}"));
        for &(d, want) in &c.checks {
            if want > max {
                continue;
            }
            checked += 1;
            let got = perft(&pos, d);
            if got != want {
                bad.push(format!(
                    "{place}: {} perft {d}: expected {want}, got {got}",
                    c.id
                ));
            }
            if want <= REFERENCE_BUDGET {
                let reference = m3go::tools::perft::perft(&on_reference(&pos), d);
                if reference != want {
                    bad.push(format!(
                        "{place}: {} perft {d} by the reference: expected {want}, got {reference}",
                        c.id
                    ));
                }
            }
        }
    }
    (checked, bad)
}

#[test]
fn go_pass_perft_files_match_the_engine_within_budget() {
    let (checked, bad) = check(BUDGET);
    assert!(checked >= 20, "only {checked} perft checks ran");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
#[ignore = "run by .ci/run: cargo test --test it perft:: -- --ignored"]
fn go_pass_perft_files_match_the_engine_all_depths() {
    let (checked, bad) = check(u64::MAX);
    assert!(checked >= 25, "only {checked} perft checks ran");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn go_pass_perft_divide_sums_to_perft_for_every_entry() {
    for (place, c) in load() {
        let pos = c.position(&place).unwrap_or_else(|e| panic!("{e}"));
        if pos.board().size() > 7 {
            continue;
        }
        let d = divide(&pos, 2);
        let total: u64 = d.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&pos, 2), "{place}: {}", c.id);
        // depth 1 of divide is one entry per legal move, as `legal_moves` lists them
        assert_eq!(d.len(), pos.legal_moves().len(), "{place}: {}", c.id);
    }
}

#[test]
fn m20_forbid_tiger_perft_differs_between_presets_by_the_owner_rule() {
    // the same board: m3go-2020 forbids both colours' tiger's mouths to 华, dullstone only
    // white's (彼方)
    let by_id = |id: &str| {
        load()
            .into_iter()
            .find(|(_, c)| c.id == id)
            .map(|(p, c)| c.position(&p).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|| panic!("no perft entry {id}"))
    };
    let m20 = perft(&by_id("m20-tigers-mouth-5x5"), 1);
    let d3 = perft(&by_id("d3-tigers-mouth-5x5-hua"), 1);
    assert_eq!(
        d3 - m20,
        3,
        "black's three tiger's mouths are open to 华 in dullstone only"
    );
}

#[test]
fn perft_file_errors_name_the_line() {
    let e = parse_perft_file("id x\nrow . . .\nperft one 2\n", "f.perft", ".").unwrap_err();
    assert!(e.to_string().contains("line 3"), "{e}");
    let e = parse_perft_file("rules m3go-2020\n", "f.perft", ".").unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
    let e = parse_perft_file("id x\nrow . . .\n", "f.perft", ".").unwrap_err();
    assert!(e.to_string().contains("no `perft"), "{e}");
}
