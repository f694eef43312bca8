//! The smaller findings of issue 53 (its finding 7) and two left from its last round, one test
//! each, each failing before its fix.

use crate::common::{m3go, BIN};
use std::path::{Path, PathBuf};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-small53-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A plain GTP player (no `m3go-position`) scheduled to meet an opening with set-up stones is
/// refused before the first game, naming the opening and the player: the match once played
/// the games of the openings before it (here an opening of moves, games 1 and 2) and stopped
/// at the first game of the set-up one.
#[test]
fn small_findings_53_a_plain_gtp_player_is_refused_a_set_up_opening_before_the_first_game() {
    let dir = scratch("gtp");
    let script = dir.join("plain.py");
    std::fs::write(&script, crate::common::PLAIN_GTP).expect("the script");
    let openings = dir.join("openings");
    std::fs::create_dir_all(&openings).expect("a folder");
    // name order: the opening of moves first (games 1 and 2), the set-up one next (3 and 4)
    std::fs::write(
        openings.join("a-moves.txt"),
        "rules: m3go-2020\nsize: 5\n黑1.BO 白2.OA\n",
    )
    .expect("written");
    std::fs::write(
        openings.join("b-stones.yaml"),
        "rules: m3go-2020\nsize: 5\ndiagram: |\n  . . . . .\n  . X . . .\n  . . . . .\n  . . . O .\n  . . . . .\n",
    )
    .expect("written");
    let out = dir.join("games");
    let (code, stdout, err) = m3go(&[
        "match",
        "--player",
        &format!("plain=gtp:python3 {}", path(&script)),
        "--player",
        &format!("random={BIN} player --strategy random --seed 4"),
        "--size",
        "5",
        "--games",
        "4",
        "--move-time",
        "30",
        "-o",
        &path(&out),
        "--openings",
        &path(&openings),
    ]);
    assert_eq!(code, Some(2), "{stdout}{err}");
    assert!(
        err.contains("--openings")
            && err.contains("b-stones.yaml")
            && err.contains("`plain`")
            && err.contains("m3go-position"),
        "{err}"
    );
    assert!(!err.contains("game 1/4"), "a game was played: {err}");
    assert!(!out.join("game-001.sgf").exists(), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `replay --quiet` follows `--labels latin` (the ASCII choice every command takes): its summary
/// is the English line alone, one record or several; without it, the Chinese line as before
/// (and its English under it with --gloss).
#[test]
fn small_findings_53_replay_quiet_summary_follows_labels_latin() {
    let record = format!(
        "{}/spec/records/alphago-lee-sedol-2016-g1.sgf",
        crate::common::ROOT
    );
    let kejie = format!(
        "{}/spec/records/kejie-alphago-2017-g1.sgf",
        crate::common::ROOT
    );
    let (code, latin, err) = m3go(&[
        "replay",
        "--mechanical",
        "--quiet",
        "--labels",
        "latin",
        &kejie,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(latin.is_ascii(), "{latin}");
    assert!(
        latin.starts_with("mechanical replay to move 289: 277 played, 12 replaced by a pass"),
        "{latin}"
    );
    assert_eq!(latin.lines().count(), 1, "{latin}");
    let (_, chinese, _) = m3go(&["replay", "--mechanical", "--quiet", &kejie]);
    assert!(chinese.starts_with("机械式排局至第289手"), "{chinese}");
    let (_, glossed, _) = m3go(&["replay", "--mechanical", "--quiet", "--gloss", &kejie]);
    assert_eq!(glossed, format!("{chinese}    {latin}"));
    // several records: each line in English, the total as before
    let (_, many, err) = m3go(&[
        "replay",
        "--mechanical",
        "--labels",
        "latin",
        &kejie,
        &record,
    ]);
    assert!(many.is_ascii(), "{many}{err}");
    assert!(
        many.starts_with(&format!("{kejie}: mechanical replay to move 289")),
        "{many}"
    );
}

/// `m3go play --labels latin` names the points of a refusal in the Latin labels (`fa is a
/// capture-point`), as its report does; it wrote them in the Chinese ones (`FA`) whatever was
/// asked. JSON's error keeps the Chinese labels, as JSON always does.
#[test]
fn small_findings_53_a_refusal_follows_labels_latin() {
    let dir = scratch("labels");
    let pos = dir.join("p139.yaml");
    let kejie = format!(
        "{}/spec/records/kejie-alphago-2017-g1.sgf",
        crate::common::ROOT
    );
    let (code, _, err) = m3go(&[
        "replay",
        "--mechanical",
        &kejie,
        "--to",
        "139",
        "--quiet",
        "-o",
        &path(&pos),
    ]);
    assert_eq!(code, Some(0), "{err}");
    // 003's move 140 of this record: white's flower on a capture point
    let (code, _, latin) = m3go(&["play", &path(&pos), "V140.fa", "--labels", "latin"]);
    assert_eq!(code, Some(2), "{latin}");
    assert!(
        latin.contains("move 140: fa is a capture-point, forbidden to white's flower"),
        "{latin}"
    );
    let (code, _, chinese) = m3go(&["play", &path(&pos), "花140.FA"]);
    assert_eq!(code, Some(2), "{chinese}");
    assert!(
        chinese.contains("move 140: FA is a capture-point"),
        "{chinese}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `serve --open` where the system's opener fails (an `xdg-open` that exits 3, as it does
/// without a browser) says so in words, naming the openers tried and the address to open by
/// hand, and goes on serving; it printed Rust's debug text of the exit
/// (`ExitStatus(unix_wait_status(768))`).
#[cfg(unix)]
#[test]
fn small_findings_53_serve_open_without_a_browser_says_so_in_words() {
    use std::io::BufRead;
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("open");
    let opener = dir.join("xdg-open");
    std::fs::write(&opener, "#!/bin/sh\nexit 3\n").expect("written");
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut child = std::process::Command::new(BIN)
        .args(["serve", "--open", "--port", "0"])
        .env("PATH", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("m3go serve starts");
    let stderr = child.stderr.take().expect("its stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(std::time::Duration::from_secs(60));
    let running = child.try_wait().expect("its status").is_none();
    let _ = child.kill();
    let _ = child.wait();
    let line = line.expect("a line on stderr within 60 s");
    assert!(running, "stopped: {line}");
    assert!(
        line.starts_with("m3go serve: no browser opened the page (xdg-open")
            && line.contains("by hand"),
        "{line}"
    );
    assert!(line.contains("open http://127.0.0.1:"), "{line}");
    assert!(
        !line.contains("ExitStatus") && !line.contains("wait_status"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `m3go manpage`: NAME says the name once (`m3go \- reference rules interpreter …`, not `m3go
/// \- m3go — …`), and SUBCOMMANDS names each subcommand as `m3go SUB`, described in its section
/// of this page, instead of citing `m3go-analyze(1)`-style pages that are not shipped.
#[test]
fn small_findings_53_the_man_page_names_itself_once_and_cites_no_missing_page() {
    let (code, page, err) = m3go(&["manpage"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = page.lines().collect();
    let name = lines
        .iter()
        .position(|l| *l == ".SH NAME")
        .expect("a NAME section");
    assert_eq!(
        lines[name + 1],
        "m3go \\- reference rules interpreter for three\\-colour Go"
    );
    assert!(!page.contains("(1)"), "a page cited: {page}");
    let subs = lines
        .iter()
        .position(|l| *l == ".SH SUBCOMMANDS")
        .expect("a SUBCOMMANDS section");
    let listed: Vec<&str> = lines[subs..]
        .iter()
        .take_while(|l| !l.starts_with(".PP"))
        .filter_map(|l| l.strip_prefix("\\fBm3go "))
        .filter_map(|l| l.strip_suffix("\\fR"))
        .collect();
    assert!(listed.len() >= 15, "{listed:?}");
    for sub in listed {
        let heading = format!(".SH \"M3GO {}\"", sub.replace("\\-", "-").to_uppercase());
        assert!(page.contains(&heading), "no section {heading}");
    }
}

/// A pairing lost in every game says why its Elo has no finite value, and one with no game
/// counted by the rules (here every game forfeited: the program does not start) why it has no
/// mean margin; the table once printed `Elo -inf [-inf, -inf]` and `mean margin —` bare.
#[test]
fn small_findings_53_an_all_lost_table_says_why_it_has_no_elo_or_margin() {
    let dir = scratch("table");
    let (code, table, err) = m3go(&[
        "match",
        "--player",
        "broken=false",
        "--player",
        &format!("random={BIN} player --strategy random --seed 4"),
        "--size",
        "5",
        "--games",
        "2",
        "-o",
        &path(&dir.join("games")),
    ]);
    assert_eq!(code, Some(0), "{table}{err}");
    let line = table
        .lines()
        .find(|l| l.starts_with("broken vs random: 2 games, 0 wins 2 losses"))
        .unwrap_or_else(|| panic!("no table line: {table}"));
    assert!(
        line.contains(
            "mean margin — (no game was counted by the rules: each was forfeited or resigned)"
        ),
        "{line}"
    );
    assert!(
        line.contains("Elo -inf (every game lost: no finite estimate or interval"),
        "{line}"
    );
    assert!(!line.contains("[-inf, -inf]"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's first screen shows, whole, the position file its first command analyzes (a
/// referee copies it to write their own), and every string and point it says that command
/// prints is in the output. It once showed no position file, and promised 003's regions R, S, T,
/// which the output names nowhere.
#[test]
fn small_findings_53_the_readme_shows_the_first_commands_position_and_what_it_prints() {
    let root = crate::common::ROOT;
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let section = readme
        .split("## The first two commands")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section of the first two commands");
    let file = section
        .lines()
        .find_map(|l| l.strip_prefix("cargo run --release -- analyze "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the first command, analyze FILE");
    let text = std::fs::read_to_string(format!("{root}/{file}")).expect("its position file");
    assert!(text.lines().count() <= 20, "not short: {text}");
    assert!(
        section.contains(&format!("```yaml\n{text}```")),
        "{file} is not shown whole:\n{section}"
    );
    let (code, output, err) = crate::common::m3go_in(Some(Path::new(root)), &["analyze", file]);
    assert_eq!(code, Some(0), "{err}");
    let told = section
        .split("```yaml")
        .nth(1)
        .and_then(|s| s.split("```\n").nth(1))
        .expect("the text after the file");
    const LABELS: &str = "OABCDEFGHI一二三四五六七八九";
    let mut named = 0;
    for word in told.split(|c: char| c.is_whitespace() || "(),;:'—`".contains(c)) {
        let point = word.chars().count() == 2 && word.chars().all(|c| LABELS.contains(c));
        if word.ends_with('*') || point {
            named += 1;
            assert!(
                output.contains(word),
                "the README names {word}: not in\n{output}"
            );
        }
    }
    assert!(named >= 8, "{named} names checked in:\n{told}");
}

/// `--junit FILE` is written also when the command line itself is refused (a value that does
/// not read, an unknown flag): the report holds the usage error as its `<error>`, for `match`
/// and `conform` alike, and the exit stays 2. It was not written at all.
#[test]
fn small_findings_53_junit_is_written_on_a_usage_error() {
    let dir = scratch("junit");
    let report = dir.join("r.xml");
    let runs: [&[&str]; 3] = [
        &["match", "--junit", &path(&report), "--games", "abc"],
        &["conform", "--junit", &path(&report), "--no-such-flag"],
        &[
            "match",
            "--games=abc",
            &format!("--junit={}", path(&report)),
        ],
    ];
    for args in runs {
        let _ = std::fs::remove_file(&report);
        let (code, _, err) = m3go(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let xml = std::fs::read_to_string(&report)
            .unwrap_or_else(|e| panic!("{args:?}: no report ({e}): {err}"));
        assert!(xml.contains("<error"), "{args:?}: {xml}");
        assert!(xml.contains("errors=\"1\""), "{args:?}: {xml}");
        let named = if args[0] == "conform" {
            "--no-such-flag"
        } else {
            "--games"
        };
        assert!(xml.contains(named), "{args:?}: {xml}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every integer of every schema in spec/schema/ either stays within 2^53 − 1 (its `maximum`
/// says so: a count, a size, a line, which never get near it) or says in its description that
/// it may pass 2^53, which JavaScript's `JSON.parse` rounds (the seeds, any 64-bit integer).
/// The schemas wrote the 64-bit range of Rust's `u64` and `usize` for every count, saying
/// nothing of it but for diff's `game_seed`.
#[test]
fn small_findings_53_every_schema_integer_beyond_2_53_says_so() {
    fn walk(v: &serde_json::Value, at: &str, file: &str, bad: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                let integer = match m.get("type") {
                    Some(serde_json::Value::String(t)) => t == "integer",
                    Some(serde_json::Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                    _ => false,
                };
                let safe = 9_007_199_254_740_991_f64;
                let wide = m
                    .get("maximum")
                    .and_then(|x| x.as_f64())
                    .is_none_or(|x| x > safe)
                    || m.get("minimum")
                        .and_then(|x| x.as_f64())
                        .is_none_or(|x| x < -safe);
                let said = m
                    .get("description")
                    .and_then(|d| d.as_str())
                    .is_some_and(|d| d.contains("2^53"));
                if integer && wide && !said {
                    bad.push(format!("{file}{at}"));
                }
                for (k, c) in m {
                    walk(c, &format!("{at}/{k}"), file, bad);
                }
            }
            serde_json::Value::Array(a) => {
                for (k, c) in a.iter().enumerate() {
                    walk(c, &format!("{at}/{k}"), file, bad);
                }
            }
            _ => {}
        }
    }
    let dir = format!("{}/spec/schema", crate::common::ROOT);
    let mut bad = Vec::new();
    let mut seeds = 0;
    for e in std::fs::read_dir(&dir).expect("spec/schema") {
        let p = e.expect("an entry").path();
        let text = std::fs::read_to_string(&p).expect("a schema");
        seeds += text.matches("above 2^53").count();
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let file = p.file_name().map(|f| f.to_string_lossy().into_owned());
        walk(&v, "", &file.unwrap_or_default(), &mut bad);
    }
    assert!(
        bad.is_empty(),
        "integers past 2^53 unsaid:\n{}",
        bad.join("\n")
    );
    assert!(seeds >= 10, "{seeds} seeds say they pass 2^53");
}
