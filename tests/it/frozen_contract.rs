//! The contract kept across releases (spec/README.md "Compatibility"): a program frozen at the
//! contract as it stood before m3go added the rule options `grey-freeze` and
//! `closed-region-2016` (tests/frozen/contract_player.py, which refuses every key it does not
//! know, as the spec says) — and, since it was frozen, before `false-eye-2016` too, an option
//! added after the program was written and left unchanged — keeps passing the suite, `diff` and matches, JSON and GTP, because
//! m3go sends the rules in their smallest form; and what a program that refuses requests said is
//! named, once.

use crate::common::{m3go_in, BIN, ROOT};
use m3go::conform::diff::compare;
use serde_json::json;
use std::path::PathBuf;

/// The frozen program's command in `mode` (conform, player, gtp), in front of `m3go ARGS`.
fn frozen(mode: &str, args: &str) -> String {
    format!("python3 {ROOT}/tests/frozen/contract_player.py {mode} {BIN} {args}")
}

/// A fresh empty directory under the target folder.
fn scratch(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// The whole built-in suite: every case passes but those whose rules set an option the program
/// does not know away from its preset, skipped by its capabilities.
#[test]
fn a_frozen_program_passes_the_suite_skipping_only_the_options_it_never_knew() {
    let dir = scratch("frozen-conform");
    let (code, out, err) = m3go_in(
        Some(&dir),
        &[
            "conform",
            "--impl",
            &frozen("conform", "protocol"),
            "--allow-skips",
        ],
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.contains(" 0 failed, 0 errored"), "{out}");
    let passed: usize = last
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 250, "{out}");
    for l in out.lines().filter(|l| l.contains("outside the declared")) {
        assert!(
            ["`grey-freeze:", "`closed-region-2016:", "`false-eye-2016:"]
                .iter()
                .any(|o| l.contains(o)),
            "{l}"
        );
    }
}

/// Random games under rules away from their preset (and the preset alone): the frozen program
/// is sent only the options that differ, and agrees with m3go on every move.
#[test]
fn a_frozen_program_agrees_with_diff_under_rules_set_away_from_a_preset() {
    let dir = scratch("frozen-diff");
    for rules in [
        "{ preset: dullstone, ko: positional }",
        "{ preset: m3go-2016, tigers-mouth: stones }",
        "m3go-2013",
    ] {
        let (code, out, err) = m3go_in(
            Some(&dir),
            &[
                "diff",
                "--impl",
                &frozen("conform", "protocol"),
                "--rules",
                rules,
                "--size",
                "5",
                "--games",
                "2",
                "--max-moves",
                "40",
            ],
        );
        assert_eq!(code, Some(0), "{rules}: {out}\n{err}");
        assert!(out.contains("no disagreement"), "{rules}: {out}");
    }
}

/// A match of a frozen JSON player against a frozen GTP player (sent the start by
/// `m3go-position`), under rules away from their preset: every game is played to its end by
/// the rules, with no forfeit, and the records' `TCR` holds the smallest form.
#[test]
fn frozen_players_play_whole_games_over_json_and_gtp() {
    let dir = scratch("frozen-match");
    let (code, out, err) = m3go_in(
        Some(&dir),
        &[
            "match",
            "--player",
            &format!("j={}", frozen("player", "player --seed 3")),
            "--player",
            &format!("g=gtp:{}", frozen("gtp", "player --protocol gtp --seed 4")),
            "--rules",
            "{ preset: dullstone, ko: positional }",
            "--size",
            "5",
            "--games",
            "2",
            "-o",
            "games",
        ],
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("forfeits 0 / 0"), "{out}");
    assert_eq!(err.matches("(score,").count(), 2, "{err}");
    let sgf = std::fs::read_to_string(dir.join("games/game-001.sgf")).expect("the record");
    assert!(
        sgf.contains(r#"TCR[{"preset":"dullstone","ko":"positional"}]"#),
        "{sgf}"
    );
}

/// A program that refuses every request: `conform` says so once, with the first case and what
/// the program said (its code, field and message), instead of one line per case; `diff` stops
/// at the first refusal as the program's failure (exit 2), naming what it said, and shrinks
/// nothing into a case.
#[test]
fn a_program_refusing_every_request_is_named_once_with_what_it_said() {
    let dir = scratch("frozen-refuses");
    let script = dir.join("refuses.py");
    std::fs::write(
        &script,
        r#"import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"id": r.get("id"), "error": {"code": "bad-request",
        "field": "position.rules.ko", "message": "unknown field `ko`"}}), flush=True)
"#,
    )
    .expect("the script");
    let program = format!("python3 {}", script.display());
    let (code, out, err) = m3go_in(
        Some(&dir),
        &["conform", "--impl", &program, "--filter", "M20-EYE"],
    );
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert_eq!(out.matches("REFUSED every request").count(), 1, "{out}");
    assert!(
        out.contains("`bad-request (position.rules.ko): unknown field `ko``"),
        "{out}"
    );
    assert!(!out.contains("FAILED "), "{out}");
    let (code, out, _) = m3go_in(
        Some(&dir),
        &[
            "conform",
            "--impl",
            &program,
            "--filter",
            "M20-EYE",
            "--verbose",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(out.contains("FAILED "), "--verbose lists each case: {out}");
    let (code, out, err) = m3go_in(
        Some(&dir),
        &[
            "diff", "--impl", &program, "--size", "5", "--games", "1", "-o", "cases",
        ],
    );
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(
        err.contains("it refused the request, answering the error `bad-request (position.rules.ko): unknown field `ko``"),
        "{err}"
    );
    assert!(
        !dir.join("cases").exists()
            || std::fs::read_dir(dir.join("cases")).is_ok_and(|mut d| d.next().is_none())
    );
}

/// An error answer where m3go answers is shown as what the program said (code, field, message),
/// not as "an answer".
#[test]
fn diff_names_the_error_the_other_program_answered() {
    let ours = json!({"id": "x", "analysis": {}});
    let theirs = json!({"id": "x", "error": {"code": "illegal-move", "field": "moves[0]",
        "message": "a capture point"}});
    let d = compare(&ours, &theirs, 5);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].detail,
        "m3go: an answer; other: the error `illegal-move (moves[0]): a capture point`"
    );
}

/// Frozen earlier still, knowing no rule option at all (only `preset`): under every preset's
/// own rules it is sent the preset's name alone, so it agrees with `diff` on every preset and
/// plays whole games, JSON and GTP, with no forfeit: no option, however added, reaches it at its
/// preset's value.
#[test]
fn a_program_knowing_no_option_plays_every_preset() {
    let dir = scratch("frozen-no-option");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .env("CONTRACT_PLAYER_RULE_KEYS", "preset")
            .output()
            .expect("m3go runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for preset in m3go_engine::Rules::PRESETS {
        let (code, out, err) = run(&[
            "diff",
            "--impl",
            &frozen("conform", "protocol"),
            "--rules",
            preset,
            "--size",
            "5",
            "--games",
            "2",
            "--max-moves",
            "30",
        ]);
        assert_eq!(code, Some(0), "{preset}: {out}\n{err}");
        assert!(out.contains("no disagreement"), "{preset}: {out}");
    }
    let (code, out, err) = run(&[
        "match",
        "--player",
        &format!("j={}", frozen("player", "player --seed 3")),
        "--player",
        &format!("g=gtp:{}", frozen("gtp", "player --protocol gtp --seed 4")),
        "--rules",
        "flystone",
        "--size",
        "5",
        "--games",
        "2",
        "-o",
        "games",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("forfeits 0 / 0"), "{out}");
}
