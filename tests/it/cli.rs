//! The command line, driven through the built binary: every subcommand answers `-h` and `--help`
//! with its own usage, `--version`, `--format=json`, clap's suggestions for an unknown
//! subcommand or flag (exit 2), a repeated flag refused (exit 2), and the guide's command table (docs/src/commands.md)
//! listing exactly the subcommands and flags of `Cli::command()`.

use crate::common::{m3go, m3go_ok};
use clap::CommandFactory;
use m3go::cli::Cli;
use std::collections::BTreeSet;

const OK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad_input/ok_3x3.yaml");

fn subcommand_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

#[test]
fn cli_every_subcommand_answers_help_with_its_own_usage() {
    let names = subcommand_names();
    // The guide's command table (docs/src/commands.md) is checked against the exact list (below); here: every one answers
    assert!(names.len() >= 12, "{names:?}");
    let mut paths: Vec<Vec<String>> = names.iter().map(|n| vec![n.clone()]).collect();
    paths.push(vec!["rules".into(), "check".into()]);
    for path in &paths {
        for flag in ["-h", "--help"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let (code, out, err) = m3go(&args);
            assert_eq!(code, Some(0), "{args:?}: {err}");
            let usage = format!("Usage: m3go {}", path.join(" "));
            assert!(out.contains(&usage), "{args:?}: no `{usage}` in {out}");
            assert!(out.contains("-h, --help"), "{args:?}: {out}");
        }
    }
    // the long help says more than the short one (doc comments' later paragraphs)
    let (_, short, _) = m3go(&["replay", "-h"]);
    let (_, long, _) = m3go(&["replay", "--help"]);
    assert!(long.len() > short.len(), "{short}\n---\n{long}");
    assert!(long.contains("Possible values:"), "{long}");
    // `m3go help SUB` is the same as `m3go SUB --help`
    let (code, out, err) = m3go(&["help", "analyze"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Usage: m3go analyze"), "{out}");
}

#[test]
fn cli_top_level_help_lists_every_subcommand_and_no_arguments_is_a_usage_error() {
    let (code, out, err) = m3go(&["--help"]);
    assert_eq!(code, Some(0), "{err}");
    for n in subcommand_names() {
        assert!(out.contains(&format!("  {n} ")), "`{n}` not listed: {out}");
    }
    assert!(
        out.contains("Exit codes: 0 success, 1 conformance failures"),
        "{out}"
    );
    let (code, out, err) = m3go(&[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("Usage: m3go [OPTIONS] <COMMAND>"), "{err}");
}

#[test]
fn cli_version_prints_the_package_version() {
    let (code, out, err) = m3go(&["--version"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), format!("m3go {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn cli_format_equals_json_is_the_same_as_format_json() {
    let (code, joined, err) = m3go(&["analyze", OK, "--format=json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&joined).unwrap_or_else(|e| panic!("{e}: {joined}"));
    assert_eq!(v["format"], "m3go-analysis/4", "{joined}");
    let (code, spaced, err) = m3go(&["analyze", "--format", "json", OK]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(joined, spaced);
    let (code, out, err) = m3go(&["play", OK, "pass", "--format=json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["reports"].as_array().map(Vec::len), Some(1), "{out}");
}

#[test]
fn cli_unknown_subcommand_and_flag_exit_2_with_a_suggestion() {
    let (code, _, err) = m3go(&["analyse", OK]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: unrecognized subcommand 'analyse'"),
        "{err}"
    );
    // clap's tip lists each close name (`manpage` is close to `analyse` too)
    let tip = err.lines().find(|l| l.contains("tip:")).unwrap_or_default();
    assert!(
        tip.contains("similar subcommand") && tip.contains("'analyze'"),
        "{err}"
    );
    assert!(err.contains("commands: analyze, play, explain"), "{err}");
    let (code, _, err) = m3go(&["analyze", OK, "--fromat", "json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: unexpected argument '--fromat'"),
        "{err}"
    );
    assert!(
        err.contains("a similar argument exists: '--format'"),
        "{err}"
    );
    let (code, _, err) = m3go(&["render", OK, "--layer", "uper"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a similar value exists: 'upper'"), "{err}");
    // a preset that does not exist is a usage error naming the presets
    let (code, _, err) = m3go(&["diff", "--impl", "true", "--rules", "dulstone"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("invalid value 'dulstone' for '--rules <PRESET>'")
            && err.contains("dullstone"),
        "{err}"
    );
    // `-h` is help, not a file name
    let (code, out, _) = m3go(&["analyze", "-h"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Usage: m3go analyze"), "{out}");
}

#[test]
fn cli_a_repeated_flag_exits_2() {
    for args in [
        vec!["analyze", OK, "--format", "json", "--format=text"],
        vec!["analyze", OK, "--board", "--board"],
        vec!["play", OK, "-o", "a.yaml", "-o", "b.yaml"],
        vec!["perft", OK, "1", "--divide", "--divide"],
    ] {
        let (code, out, err) = m3go(&args);
        assert_eq!(code, Some(2), "{args:?}: {out}");
        assert!(
            err.contains("cannot be used multiple times"),
            "{args:?}: {err}"
        );
    }
}

/// The guide's page with the command table (the chapter "The command line").
const COMMANDS_PAGE: &str = "docs/src/commands.md";

/// One row of the guide's command table: the subcommand, the words of its first column, and the
/// flags (`--long` and `-s`) it names with the values written after them (`text\|json`).
struct Row {
    sub: String,
    words: Vec<String>,
    flags: BTreeSet<String>,
    values: Vec<(String, BTreeSet<String>)>,
}

fn readme_rows() -> Vec<Row> {
    let page = std::fs::read_to_string(format!("{}/{COMMANDS_PAGE}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{COMMANDS_PAGE}: {e}"));
    let section = page.split("\n## ").next().unwrap_or(&page);
    let mut rows = Vec::new();
    for line in section.lines() {
        let Some(rest) = line.strip_prefix("| `m3go ") else {
            continue;
        };
        let cell = rest
            .split("` |")
            .next()
            .unwrap_or_else(|| panic!("no end of the first cell: {line}"))
            .replace("\\|", "|");
        let words: Vec<String> = cell
            .split_whitespace()
            .map(|w| w.trim_matches(|c| "[]'…".contains(c)).to_string())
            .collect();
        let mut flags = BTreeSet::new();
        let mut values = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let is_long = w.starts_with("--") && w.len() > 2;
            let is_short = w.len() == 2 && w.starts_with('-') && w != "--";
            if is_long || is_short {
                flags.insert(w.clone());
                if let Some(v) = words.get(k + 1).filter(|v| v.contains('|')) {
                    values.push((w.clone(), v.split('|').map(str::to_string).collect()));
                }
            }
        }
        rows.push(Row {
            sub: words[0].clone(),
            words,
            flags,
            values,
        });
    }
    rows
}

#[test]
fn cli_readme_command_table_lists_the_subcommands_and_flags_of_the_parser() {
    let rows = readme_rows();
    let readme_subs: BTreeSet<String> = rows.iter().map(|r| r.sub.clone()).collect();
    let clap_subs: BTreeSet<String> = subcommand_names().into_iter().collect();
    assert_eq!(
        readme_subs, clap_subs,
        "docs/src/commands.md's command table against Cli"
    );
    assert_eq!(rows.len(), clap_subs.len(), "a subcommand has two rows");
    let cli = Cli::command();
    for row in &rows {
        let sub = cli
            .find_subcommand(&row.sub)
            .unwrap_or_else(|| panic!("no subcommand {}", row.sub));
        let mut flags = BTreeSet::new();
        let mut commands = vec![sub];
        commands.extend(sub.get_subcommands());
        for c in &commands {
            for a in c.get_arguments() {
                if let Some(l) = a.get_long().filter(|l| *l != "help") {
                    flags.insert(format!("--{l}"));
                } else if let Some(s) = a.get_short().filter(|s| *s != 'h') {
                    flags.insert(format!("-{s}"));
                }
            }
        }
        assert_eq!(
            row.flags, flags,
            "docs/src/commands.md's flags of `m3go {}`",
            row.sub
        );
        for nested in sub.get_subcommands() {
            assert!(
                row.words.iter().any(|w| w == nested.get_name()),
                "docs/src/commands.md's row of `m3go {}` lacks its subcommand `{}`",
                row.sub,
                nested.get_name()
            );
        }
        for (flag, values) in &row.values {
            let long = flag.trim_start_matches('-');
            let arg = sub
                .get_arguments()
                .find(|a| a.get_long() == Some(long))
                .unwrap_or_else(|| panic!("`m3go {}`: no {flag}", row.sub));
            let possible: BTreeSet<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            if !possible.is_empty() {
                assert_eq!(values, &possible, "values of `m3go {} {flag}`", row.sub);
            }
        }
    }
}

#[test]
fn cli_a_closed_pipe_ends_m3go_quietly() {
    // `m3go analyze POS --format json | head -1`: the reader goes away after one line; m3go
    // must end with exit 0 and no panic, whatever it still had to write. The example's JSON
    // analysis (about 180 kB) is larger than a pipe holds, so m3go is still writing when the
    // pipe closes.
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/positions/example.yaml");
    for args in [
        vec!["analyze", example, "--format", "json"],
        vec!["analyze", example, "--format", "yaml"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_m3go"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("m3go starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("a first line");
        // the reader is dropped here: the pipe is closed
        let out = child.wait_with_output().expect("m3go ends");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!first.is_empty(), "{args:?}");
    }
}

/// Issue 20: `conform --list` and `--dump-json` take the cases `--id`, `--filter` and `--shard`
/// select, as a run does, not every case.
#[test]
fn cli_conform_list_and_dump_json_honour_id_filter_and_shard() {
    let lines = |args: &[&str]| -> Vec<String> {
        let (code, out, err) = m3go(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        out.lines().map(str::to_string).collect()
    };
    let all = lines(&["conform", "--list"]);
    assert!(all.len() > 100, "{}", all.len());
    let sim = lines(&["conform", "--list", "--filter", "M20-EYE-SIM"]);
    assert!(!sim.is_empty() && sim.len() < all.len(), "{sim:?}");
    assert!(sim.iter().all(|l| l.contains("M20-EYE-SIM")), "{sim:?}");
    let one = lines(&["conform", "--list", "--id", "m20-eye-fig6"]);
    assert_eq!(one.len(), 1, "{one:?}");
    assert!(one[0].starts_with("m20-eye-fig6 "), "{one:?}");
    let shards: Vec<Vec<String>> = (1..=3)
        .map(|k| lines(&["conform", "--list", "--shard", &format!("{k}/3")]))
        .collect();
    assert_eq!(shards.iter().map(Vec::len).sum::<usize>(), all.len());
    assert!(shards.iter().all(|s| s.len() < all.len()));
    let dump = |args: &[&str]| -> Vec<serde_json::Value> {
        let (code, out, err) = m3go(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    };
    let d = dump(&["conform", "--dump-json", "--id", "m20-eye-fig6"]);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["id"], "m20-eye-fig6");
    assert_eq!(
        dump(&["conform", "--dump-json", "--filter", "M20-EYE-SIM"]).len(),
        sim.len()
    );
    assert_eq!(
        dump(&["conform", "--dump-json", "--shard", "2/3"]).len(),
        shards[1].len()
    );
}

/// Issue 20: perft's default `--max-nodes` is sized to a few minutes on each engine, and the
/// help and the guide state the defaults the code uses (they once promised "a few minutes" for
/// a budget of 24 minutes to 18 hours).
#[test]
fn cli_perft_default_budget_is_the_documented_one() {
    use m3go::cli::{PERFT_FAST_NODES as FAST_NODES, PERFT_REFERENCE_NODES as REFERENCE_NODES};
    const { assert!(FAST_NODES <= 10_000_000 && REFERENCE_NODES <= 20_000) };
    let (code, help, err) = m3go(&["perft", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = std::fs::read_to_string(format!("{}/{COMMANDS_PAGE}", env!("CARGO_MANIFEST_DIR")))
        .expect(COMMANDS_PAGE);
    assert!(
        help.contains(&format!("Default: {FAST_NODES} on the fast engine"))
            && help.contains(&format!("{REFERENCE_NODES} with --reference")),
        "perft --help does not state the defaults: {help}"
    );
    assert!(
        readme.contains(&format!(
            "default {FAST_NODES} nodes, {REFERENCE_NODES} with `--reference`"
        )),
        "docs/src/commands.md's perft row lacks the defaults"
    );
}

/// Issue 37, item 6: `explain` reads a move in 000's round notation (`31A.三三`) as `play` does;
/// it was refused as a malformed coordinate.
#[test]
fn cli_explain_reads_the_round_notation_as_play_does() {
    let dir = std::env::temp_dir().join(format!("m3go-round-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = dir.join("team.yaml");
    let row = "  . . . . . . . . .\n";
    std::fs::write(
        &pos,
        format!(
            "rules: m3go-2016\nsize: 9\nmove: 61\ndiagram: |\n{}",
            row.repeat(9)
        ),
    )
    .unwrap();
    let pos = pos.to_str().unwrap();
    let (code, out, err) = m3go(&["explain", pos, "31A.三三"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("31A.三三 is legal (black stone)."), "{out}");
    let (code, out, err) = m3go(&["explain", pos, "31C.三三"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("31C.三三 is refused: wrong-turn"), "{out}");
    let (code, played, err) = m3go(&["play", pos, "31A.三三"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(played.contains("31A.三三"), "{played}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 39: without colour (a pipe, `NO_COLOR`) `render` and `analyze --board` drew black and
/// white stones with the same `●` and both stars with `◉`; the plain board keeps every
/// distinction in its glyphs, and its legend names them apart.
#[test]
fn cli_plain_board_tells_black_from_white_without_colour() {
    let out = m3go_ok(&["render", "spec/positions/example.yaml"], None);
    assert!(!out.contains('\x1b'), "colour into a pipe: {out}");
    let legend = out.lines().last().unwrap_or_default();
    assert!(
        legend.starts_with("● black  ○ white  ◍ flower  ◉/◎ black/white star"),
        "{legend}"
    );
    let board: String = out.lines().skip(2).take(19).collect();
    // 003's figure: white strings, black and white stars, white's private eye at 八九
    for glyph in ['●', '○', '◉', '◎', '▫'] {
        assert!(board.contains(glyph), "no {glyph} on the board:\n{out}");
    }
    let analyzed = m3go_ok(&["analyze", "spec/positions/example.yaml", "--board"], None);
    assert!(
        analyzed.contains(&board[..board.len().min(40)]),
        "{analyzed}"
    );
}

/// Issue 39, item 4: `--color` before or after the subcommand decides the colour of standard
/// output whatever it is; `completions` and `manpage` are written from the parser's own
/// definition (every subcommand appears in both); `schema NAME` prints that schema alone, as
/// committed in spec/schema, and an unknown name is exit 2 with the names.
#[test]
fn cli_color_completions_manpage_and_one_schema() {
    let always = m3go_ok(
        &["--color", "always", "render", "spec/positions/example.yaml"],
        None,
    );
    assert!(
        always.contains("\x1b[48;5;"),
        "no colour with --color always"
    );
    let never = m3go_ok(
        &["render", "spec/positions/example.yaml", "--color=never"],
        None,
    );
    assert!(!never.contains('\x1b'));
    assert!(never.contains('○'), "the plain board: {never}");
    let subs = subcommand_names();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = m3go_ok(&["completions", shell], None);
        for sub in &subs {
            assert!(
                script.contains(sub.as_str()),
                "{shell} completions lack {sub}"
            );
        }
    }
    let man = m3go_ok(&["manpage"], None);
    assert!(
        man.starts_with(".ie") && man.contains(".TH m3go 1"),
        "{man:.200}"
    );
    for sub in &subs {
        assert!(
            man.contains(&format!(".SH \"M3GO {}\"", sub.to_uppercase())),
            "the man page lacks {sub}"
        );
    }
    let one = m3go_ok(&["schema", "answer"], None);
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/schema/answer.schema.json"
    ))
    .unwrap();
    assert_eq!(one, committed);
    let (code, _, err) = m3go(&["schema", "answers"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no schema named `answers`: expected one of analysis,"),
        "{err}"
    );
}
