//! The page's checks of issue 54 (the page never shows a wrong ruling; the end of a game fits
//! one screen): the rules of every view from one source (the page's replay at move 288 of the Ke
//! Jie record against `m3go replay --mechanical` for every order of the toggle, the winner of
//! the eight professional records against the CLI's), a broken link in a new tab, a server
//! restart, the ruling of a finished game, a click in the scoring phase, the board's size and
//! the scoring panel in view, the SGF export's game information and the small ones. Each failed
//! on the page before.

use super::{click, go_to, js, pick_file, set_select, wait_until, Checks, Client};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// What `m3go replay [--mechanical] [--to N]` gives at its last move, read by `m3go analyze`:
/// the stone to play with its number, black's and white's counts, the winner and the rules.
fn cli_at(file: &Path, mechanical: bool, to: Option<u32>) -> Value {
    let out = super::artifacts().join(format!(
        "cli-{}-{}-{}.yaml",
        file.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("record"),
        mechanical,
        to.map_or("end".to_string(), |n| n.to_string())
    ));
    let mut args = vec!["replay".to_string(), "--quiet".to_string()];
    if mechanical {
        args.push("--mechanical".to_string());
    }
    if let Some(n) = to {
        args.extend(["--to".to_string(), n.to_string()]);
    }
    args.extend([
        "-o".to_string(),
        out.display().to_string(),
        file.display().to_string(),
    ]);
    let bin = env!("CARGO_BIN_EXE_m3go");
    let st = Command::new(bin).args(&args).output().expect("m3go replay");
    assert!(st.status.success(), "m3go {args:?}: {st:?}");
    let an = Command::new(bin)
        .args(["analyze", "--format", "json"])
        .arg(&out)
        .output()
        .expect("m3go analyze");
    assert!(
        an.status.success(),
        "m3go analyze {}: {an:?}",
        out.display()
    );
    let a: Value = serde_json::from_slice(&an.stdout).expect("analyze's JSON");
    summary(&a)
}

/// An analysis's stone to play, counts, winner and rules, as compared here.
fn summary(a: &Value) -> Value {
    let s = &a["score"];
    // the komi as a number (the page's JSON writes 0, the CLI's 0.0)
    let mut rules = a["rules"].clone();
    if let Some(k) = rules["komi"].as_f64() {
        rules["komi"] = serde_json::json!(k);
    }
    serde_json::json!({
        "to_play": format!("{}{}", a["to_move"]["symbol"].as_str().unwrap_or("?"), a["move"]),
        "black": s["black"], "white": s["white"], "winner": s["winner"],
        "rules": rules,
    })
}

/// The same of the page's analysis shown.
fn page_summary(c: &Client) -> Value {
    summary(&js(c, "state.analysis"))
}

/// Whether the page's record is loaded and settled (no status), its id not `old`.
fn loaded_since(c: &Client, old: &Value) -> bool {
    wait_until(
        c,
        &format!("!!state.record && state.record.id !== {old} && /^move 0 of /.test(document.getElementById('record-status').textContent) && document.getElementById('status').textContent === '' && document.getElementById('board').dataset.analysed === '0'"),
        240,
    )
}

/// Opens `file` with the mechanical box ticked or not (set before, no event: as a referee sets it
/// before choosing the file).
fn open_record(c: &Client, file: &Path, mechanical: bool) -> bool {
    let old = js(c, "state.record ? state.record.id : null");
    c.execute(
        "document.getElementById('mechanical').checked = arguments[0];",
        vec![Value::Bool(mechanical)],
    )
    .expect("js");
    pick_file(c, file);
    loaded_since(c, &old)
}

/// Ticks (or unticks) "mechanical replay" by a click, and waits for the record replayed again.
fn toggle_mechanical(c: &Client) -> bool {
    let old = js(c, "state.record ? state.record.id : null");
    click(c, "#mechanical");
    loaded_since(c, &old)
}

/// Everything of this module, on the page `url` of session `c`.
pub fn ending_checks(c: &Client, ck: &mut Checks) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let records = root.join("spec/records");
    let kejie = records.join("kejie-alphago-2017-g1.sgf");
    c.set_window_size(1500, 1300).expect("window size");
    // the rules chosen: the default preset, as the CLI's `--mechanical` takes it
    set_select(c, "preset", "m3go-2020");

    // ---- item 1: the page's replay is the one its label names, whatever the toggle order ----
    let mech288 = cli_at(&kejie, true, Some(288));
    let strict288 = cli_at(&kejie, false, Some(288));
    type Order = (&'static str, &'static [bool]);
    // each order: the box when the file is opened, then the clicks on it
    let orders: [Order; 4] = [
        ("ticked, then opened", &[true]),
        ("opened normally, then ticked", &[false, true]),
        (
            "opened mechanically, unticked, ticked",
            &[true, false, true],
        ),
        (
            "opened normally, ticked, unticked, ticked",
            &[false, true, false, true],
        ),
    ];
    for (what, steps) in orders {
        let mut ok = open_record(c, &kejie, steps[0]);
        for _ in &steps[1..] {
            ok = ok && toggle_mechanical(c);
        }
        ck.that(&format!("item 1, {what}: the record is replayed"), ok);
        if !ok {
            continue;
        }
        go_to(c, 288);
        ck.that_eq(
            &format!("item 1, {what}: move 288 as `m3go replay --mechanical`"),
            &page_summary(c),
            &mech288,
        );
        ck.that_eq(
            &format!("item 1, {what}: the status names the rules used"),
            &js(c, "document.getElementById('record-status').textContent"),
            &Value::from("move 288 of 289 (mechanical, m3go-2020)"),
        );
        ck.that(
            &format!("item 1, {what}: the link carries the rules used"),
            js(c, "new URLSearchParams(location.hash.slice(1)).get('rules') === JSON.stringify({ preset: 'm3go-2020' })"),
        );
        ck.that(
            &format!("item 1, {what}: the KM notice names the komi the score applies"),
            js(c, "(() => { const t = document.getElementById('notice').textContent; return t.includes('KM[7.5]') && t.includes(\"the komi is the rules' komi, \" + state.analysis.score.komi_quarters / 4 + ')'); })()"),
        );
    }
    // unticked again: the record's own strict replay, under its own label
    if toggle_mechanical(c) {
        go_to(c, 288);
        ck.that_eq(
            "item 1, unticked: move 288 as `m3go replay`",
            &page_summary(c),
            &strict288,
        );
        ck.that(
            "item 1, unticked: the status names the record's rules",
            js(c, "/^move 288 of 289 \\(m3go-2020, .*komi 7\\.5/.test(document.getElementById('record-status').textContent)"),
        );
    } else {
        ck.fail("item 1: unticked, the record is replayed");
    }

    // the eight professional records: the winner the page shows after the worst order (opened
    // normally, then ticked) is the CLI's
    let mut names: Vec<_> = std::fs::read_dir(&records)
        .expect("spec/records")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("alphago-") || n.starts_with("kejie-"))
        })
        .collect();
    names.sort();
    ck.that_eq(
        "item 1: eight professional records",
        &Value::from(names.len()),
        &Value::from(8),
    );
    for file in &names {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let cli = cli_at(file, true, None);
        if !(open_record(c, file, false) && toggle_mechanical(c)) {
            ck.fail(&format!("item 1, {name}: replayed"));
            continue;
        }
        let last = js(c, "state.record.last").as_u64().unwrap_or(0) as u32;
        go_to(c, last);
        ck.that_eq(
            &format!("item 1, {name}: the winner shown is the CLI's"),
            &page_summary(c)["winner"],
            &cli["winner"],
        );
    }
    // back to the box unticked, for whatever follows
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
}
