//! Issue 49, "nothing outside the output folder is written; every output checked before the
//! first game": `m3go match -o DIR` creates its files in DIR new (a temporary name, `O_EXCL`,
//! `O_NOFOLLOW`, renamed over the name), refuses before the first game a link, a folder, a
//! device or a FIFO standing where it writes, and replaces a regular file (hard links included)
//! as a file; `--results`, `--junit` and the folder are checked before the first game, the same
//! file twice refused; a failure late in the run still writes the reports of the games
//! recorded. `m3go diff -o DIR` writes its case the same way; `conform` and `diff` check their
//! reports before any case or game. Each test runs as root and as `nobody` (through `setpriv`
//! or `runuser`) when the tests run as root, as the current user alone otherwise.

use crate::common::BIN;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Who runs m3go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Root,
    /// `nobody` when the tests run as root, else the current user.
    User,
}

fn id(args: &[&str]) -> u32 {
    let out = Command::new("id").args(args).output().expect("run id");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("id {args:?}: {e}"))
}

fn is_root() -> bool {
    id(&["-u"]) == 0
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The users each test runs as, with a notice for those it cannot.
fn users() -> Vec<Who> {
    if !is_root() {
        eprintln!("output_safety: not root: the tests run as the current user only");
        return vec![Who::User];
    }
    if have("setpriv") || have("runuser") {
        vec![Who::Root, Who::User]
    } else {
        eprintln!("output_safety: neither setpriv nor runuser: the tests run as root only");
        vec![Who::Root]
    }
}

/// `m3go ARGS` run by `who` in `dir`, standard input empty: (exit code, stdout, stderr).
fn m3go(who: Who, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut c = if who == Who::User && is_root() {
        let mut c = if have("setpriv") {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]);
            c
        } else {
            let mut c = Command::new("runuser");
            c.args(["-u", "nobody", "--"]);
            c
        };
        c.arg(BIN);
        c
    } else {
        Command::new(BIN)
    };
    let out: Output = c
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run m3go {args:?}: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh scratch folder that anyone may write in (as a shared folder is).
fn scratch(tag: &str, who: Who) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("output-safety-{tag}-{who:?}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    d
}

/// A folder in `dir` that anyone may write in.
fn shared(dir: &Path, name: &str) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).expect("folder");
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    d
}

/// A file outside the output folder that anyone may write: what a planted link aims at.
fn victim(dir: &Path) -> PathBuf {
    let v = dir.join("victim.txt");
    std::fs::write(&v, "precious\n").expect("victim");
    std::fs::set_permissions(&v, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    v
}

fn player(seed: u32) -> String {
    format!("{BIN} player --strategy random --seed {seed}")
}

/// `m3go match` of two random players on 5×5, `games` games, with the extra arguments.
fn run_match(who: Who, dir: &Path, games: u32, extra: &[&str]) -> (Option<i32>, String, String) {
    let a = format!("a={}", player(1));
    let b = format!("b={}", player(2));
    let games = games.to_string();
    let mut args = vec![
        "match", "--player", &a, "--player", &b, "--games", &games, "--size", "5", "--seed", "3",
    ];
    args.extend_from_slice(extra);
    m3go(who, dir, &args)
}

fn mknod_null(path: &Path) {
    let s = Command::new("mknod")
        .arg(path)
        .args(["c", "1", "3"])
        .status()
        .expect("run mknod");
    assert!(s.success(), "mknod {}", path.display());
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
}

fn mkfifo(path: &Path) {
    let s = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(s.success(), "mkfifo {}", path.display());
}

/// A refusal before the first game: exit 2, the message naming `what`, no game played (no
/// game line on standard error, no SGF written, no table).
fn assert_refused_up_front(
    case: &str,
    got: &(Option<i32>, String, String),
    out: &Path,
    what: &str,
) {
    let (code, stdout, stderr) = got;
    assert_eq!(*code, Some(2), "{case}: {stdout}{stderr}");
    assert!(stderr.contains(what), "{case}: expected `{what}`: {stderr}");
    assert!(
        !stderr.contains("game 1/"),
        "{case}: a game was played: {stderr}"
    );
    assert!(stdout.is_empty(), "{case}: {stdout}");
    assert!(
        !out.join("game-002.sgf").exists(),
        "{case}: game 2's record was written"
    );
}

/// A link planted in the output folder (to a file, to a folder, to a device, dangling) is
/// refused before the first game and left as it is; the file it leads to is unchanged.
#[test]
fn a_link_planted_in_the_match_folder_is_refused_and_not_followed() {
    for who in users() {
        let dir = scratch("links", who);
        let v = victim(&dir);
        let elsewhere = shared(&dir, "elsewhere");
        let dev = dir.join("null-device");
        mknod_null(&dev);
        for (case, target) in [
            ("to a file", v.clone()),
            ("to a folder", elsewhere.clone()),
            ("to a device", dev.clone()),
            ("dangling", dir.join("nothing-here")),
        ] {
            for (name, extra) in [
                ("game-001.sgf", &[][..]),
                ("game-002.final.txt", &["--final-analysis"][..]),
            ] {
                let out = shared(&dir, "out");
                let link = out.join(name);
                std::os::unix::fs::symlink(&target, &link).expect("plant the link");
                let mut args = vec!["-o", "out"];
                args.extend_from_slice(extra);
                let got = run_match(who, &dir, 2, &args);
                let label = format!("{who:?}, {name} {case}");
                assert_refused_up_front(&label, &got, &out, "symbolic link");
                assert!(got.2.contains(name), "{label}: {}", got.2);
                assert!(
                    std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()),
                    "{label}: the link was not left"
                );
                assert_eq!(std::fs::read_to_string(&v).expect("victim"), "precious\n");
                assert_eq!(
                    std::fs::read_dir(&elsewhere).expect("folder").count(),
                    0,
                    "{label}: a file was written into the folder linked to"
                );
                assert!(!dir.join("nothing-here").exists(), "{label}");
                std::fs::remove_dir_all(&out).expect("clean");
            }
        }
    }
}

/// A device, a FIFO or a folder standing where the match writes a record is refused before
/// the first game (nothing opened: a FIFO without a reader does not block), left as it is.
#[test]
fn a_device_fifo_or_folder_in_the_match_folder_is_refused_before_the_first_game() {
    for who in users() {
        let dir = scratch("nodes", who);
        for case in ["device", "fifo", "folder"] {
            let out = shared(&dir, "out");
            let node = out.join("game-002.sgf");
            match case {
                "device" => mknod_null(&node),
                "fifo" => mkfifo(&node),
                _ => std::fs::create_dir(&node).expect("mkdir"),
            }
            let got = run_match(who, &dir, 2, &["-o", "out"]);
            let label = format!("{who:?}, {case}");
            let (code, stdout, stderr) = &got;
            assert_eq!(*code, Some(2), "{label}: {stdout}{stderr}");
            assert!(stderr.contains("game-002.sgf"), "{label}: {stderr}");
            assert!(!stderr.contains("game 1/"), "{label}: {stderr}");
            assert!(!out.join("game-001.sgf").exists(), "{label}");
            let kind = std::fs::symlink_metadata(&node).expect("left").file_type();
            assert!(
                kind.is_char_device() || kind.is_fifo() || kind.is_dir(),
                "{label}: replaced"
            );
            std::fs::remove_dir_all(&out).expect("clean");
        }
    }
}

/// A regular file in the output folder is replaced as a file: a hard link to a file elsewhere
/// is parted from it (the file elsewhere keeps its text), a file's mode is kept.
#[test]
fn a_file_in_the_match_folder_is_replaced_never_written_through() {
    for who in users() {
        let dir = scratch("files", who);
        let v = victim(&dir);
        let out = shared(&dir, "out");
        std::fs::hard_link(&v, out.join("game-001.sgf")).expect("hard link");
        std::fs::write(out.join("game-002.sgf"), "old\n").expect("old record");
        std::fs::set_permissions(
            out.join("game-002.sgf"),
            std::fs::Permissions::from_mode(0o640),
        )
        .expect("chmod");
        if who == Who::User && is_root() {
            let (u, g) = (id(&["-u", "nobody"]), id(&["-g", "nobody"]));
            std::os::unix::fs::lchown(out.join("game-002.sgf"), Some(u), Some(g)).expect("chown");
        }
        let (code, stdout, stderr) = run_match(who, &dir, 2, &["-o", "out"]);
        assert_eq!(code, Some(0), "{who:?}: {stdout}{stderr}");
        assert_eq!(std::fs::read_to_string(&v).expect("victim"), "precious\n");
        assert_eq!(std::fs::metadata(&v).expect("victim").nlink(), 1, "{who:?}");
        for name in ["game-001.sgf", "game-002.sgf"] {
            let text = std::fs::read_to_string(out.join(name)).expect("record");
            assert!(text.starts_with("(;"), "{who:?}, {name}: {text}");
        }
        let mode = std::fs::metadata(out.join("game-002.sgf"))
            .expect("meta")
            .mode();
        assert_eq!(mode & 0o777, 0o640, "{who:?}: the mode was not kept");
        let left: Vec<String> = std::fs::read_dir(&out)
            .expect("folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{who:?}: temporary files left: {left:?}");
    }
}

/// `--results` and `--junit` that cannot be written are refused before the first game:
/// in a missing folder, naming a folder, the same file twice (by two spellings, and both
/// standard output), or naming a record the match writes into its folder.
#[test]
fn match_reports_are_checked_before_the_first_game() {
    for who in users() {
        let dir = scratch("reports", who);
        shared(&dir, "a-folder");
        let cases: [(&str, &[&str], &str); 7] = [
            (
                "results in a missing folder",
                &["--results", "nodir/r.jsonl"],
                "--results",
            ),
            (
                "junit in a missing folder",
                &["--junit", "nodir/j.xml"],
                "--junit",
            ),
            (
                "results naming a folder",
                &["--results", "a-folder"],
                "a folder",
            ),
            (
                "the same file twice",
                &["--results", "r.out", "--junit", "./a-folder/../r.out"],
                "the same output",
            ),
            (
                "standard output twice",
                &["--results", "-", "--junit", "/dev/stdout"],
                "the same output",
            ),
            (
                "a record of the match",
                &["--results", "out/game-002.sgf"],
                "a file the run writes",
            ),
            ("an unwritable folder", &["-o", "/proc/self"], "/proc/self"),
        ];
        for (case, extra, what) in cases {
            let out = dir.join("out");
            let _ = std::fs::remove_dir_all(&out);
            let mut args = if extra.contains(&"-o") {
                vec![]
            } else {
                vec!["-o", "out"]
            };
            args.extend_from_slice(extra);
            let got = run_match(who, &dir, 2, &args);
            let label = format!("{who:?}, {case}");
            assert_refused_up_front(&label, &got, &out, what);
            assert!(!out.join("game-001.sgf").exists(), "{label}");
            assert!(!dir.join("r.out").exists(), "{label}");
        }
    }
}

/// A player that, when it starts a second time, plants a non-empty folder named
/// `game-002.sgf` in the output folder (so game 2's record cannot be written), then plays.
fn planting_player(dir: &Path) -> String {
    let script = dir.join("plant.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ -e started ]; then mkdir -p out/game-002.sgf/x; fi\ntouch started\n\
             exec {}\n",
            player(1)
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    format!("a={}", script.display())
}

/// A failure late in the run (game 2's record cannot be written) stops the match, yet the
/// results table, `--results` and `--junit` hold the game recorded, and the error names the
/// games missing (2 failed, 3 and 4 not started).
#[test]
fn a_match_cut_short_still_writes_what_it_has() {
    for who in users() {
        let dir = scratch("late", who);
        shared(&dir, "out");
        let a = planting_player(&dir);
        let b = format!("b={}", player(2));
        let (code, stdout, stderr) = m3go(
            who,
            &dir,
            &[
                "match",
                "--player",
                &a,
                "--player",
                &b,
                "--games",
                "4",
                "--size",
                "5",
                "-o",
                "out",
                "--results",
                "r.jsonl",
                "--junit",
                "j.xml",
            ],
        );
        assert_eq!(code, Some(2), "{who:?}: {stdout}{stderr}");
        assert!(stderr.contains("game-002.sgf"), "{who:?}: {stderr}");
        assert!(
            stderr.contains(
                "hold the 1 game(s) recorded; missing: game(s) 2 (failed), game(s) 3, 4 (not \
                 started)"
            ),
            "{who:?}: {stderr}"
        );
        assert!(stdout.contains("a vs b: 1 games"), "{who:?}: {stdout}");
        let results = std::fs::read_to_string(dir.join("r.jsonl")).expect("results written");
        // the header line (the match's selection) first, then the games recorded
        assert!(
            results.starts_with(r#"{"format":"m3go-match-results/1""#),
            "{who:?}: {results}"
        );
        let games: Vec<u64> = results
            .lines()
            .skip(1)
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["game"]
                    .as_u64()
                    .expect("game number")
            })
            .collect();
        assert_eq!(games, vec![1], "{who:?}: {results}");
        let junit = std::fs::read_to_string(dir.join("j.xml")).expect("junit written");
        assert!(junit.contains("game-001: a vs b"), "{who:?}: {junit}");
        assert!(junit.contains("<error"), "{who:?}: {junit}");
        assert_eq!(junit.matches("<skipped").count(), 2, "{who:?}: {junit}");
        assert!(dir.join("out/game-001.sgf").is_file(), "{who:?}");
        assert!(
            dir.join("out/game-002.sgf/x").is_dir(),
            "{who:?}: left as it was"
        );
    }
}

/// `m3go protocol` with the first neutral flower of every answer turned black: `diff` finds
/// and shrinks a disagreement (as in `tests/it/diff.rs`).
fn broken_impl() -> String {
    format!(r#"'{BIN}' protocol | sed -u 's/"attribute":"neutral"/"attribute":"black"/'"#)
}

/// `m3go diff` against the broken program, its case written to `-o out`.
fn run_diff(who: Who, dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let imp = broken_impl();
    let mut args = vec![
        "diff",
        "--impl",
        &imp,
        "--games",
        "3",
        "--seed",
        "7",
        "--size",
        "7",
        "--max-moves",
        "30",
    ];
    args.extend_from_slice(extra);
    m3go(who, dir, &args)
}

/// `m3go diff -o DIR` writes its shrunk case into DIR new: a link planted under the case's
/// name is replaced, the file it leads to unchanged; a case that cannot be written at the end
/// leaves the JUnit report written; a DIR that is not a folder and a `--junit` in a missing
/// folder are refused before the first game.
#[test]
fn diff_writes_its_case_into_its_folder_never_through_a_link() {
    for who in users() {
        let dir = scratch("diff", who);
        // the case's name, from a first run
        let (code, stdout, stderr) = run_diff(who, &dir, &["-o", "first"]);
        assert_eq!(code, Some(1), "{who:?}: {stdout}{stderr}");
        let name = std::fs::read_dir(dir.join("first"))
            .expect("case folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .find(|n| n.ends_with(".yaml"))
            .expect("a case written");
        let v = victim(&dir);
        let out = shared(&dir, "out");
        std::os::unix::fs::symlink(&v, out.join(&name)).expect("plant the link");
        let (code, stdout, stderr) = run_diff(who, &dir, &["-o", "out"]);
        assert_eq!(code, Some(1), "{who:?}: {stdout}{stderr}");
        assert_eq!(
            std::fs::read_to_string(&v).expect("victim"),
            "precious\n",
            "{who:?}: written through the link"
        );
        let case = std::fs::symlink_metadata(out.join(&name)).expect("case");
        assert!(
            case.file_type().is_file(),
            "{who:?}: the link was not replaced"
        );
        assert_eq!(
            std::fs::read_to_string(out.join(&name)).expect("case"),
            std::fs::read_to_string(dir.join("first").join(&name)).expect("case")
        );
        // a folder planted under the case's name during the run (by the program under test):
        // the case cannot be written, the JUnit report still is, exit 2 naming the case
        let imp = format!("mkdir -p late/{name}/x; {}", broken_impl());
        let (code, stdout, stderr) = m3go(
            who,
            &dir,
            &[
                "diff",
                "--impl",
                &imp,
                "--games",
                "3",
                "--seed",
                "7",
                "--size",
                "7",
                "--max-moves",
                "30",
                "-o",
                "late",
                "--junit",
                "j.xml",
            ],
        );
        assert_eq!(code, Some(2), "{who:?}, late: {stdout}{stderr}");
        assert!(stderr.contains(&name), "{who:?}, late: {stderr}");
        let junit = std::fs::read_to_string(dir.join("j.xml")).expect("junit written");
        assert!(junit.contains("<failure"), "{who:?}: {junit}");
        assert!(dir.join("late").join(&name).join("x").is_dir(), "{who:?}");
        for (case, extra) in [
            ("-o naming a file", &["-o", "victim.txt"][..]),
            (
                "--junit in a missing folder",
                &["--junit", "nodir/j.xml"][..],
            ),
        ] {
            let (code, stdout, stderr) = run_diff(who, &dir, extra);
            assert_eq!(code, Some(2), "{who:?}, {case}: {stdout}{stderr}");
            assert!(stdout.is_empty(), "{who:?}, {case}: ran: {stdout}");
            assert_eq!(std::fs::read_to_string(&v).expect("victim"), "precious\n");
        }
    }
}

/// `m3go conform`'s `--results` and `--junit` are checked before any case runs: the same file
/// twice, or a file in a missing folder, is refused with nothing run or written.
#[test]
fn conform_reports_are_checked_before_any_case() {
    let case = Path::new(crate::common::ROOT).join("spec/cases");
    let case = case.to_string_lossy();
    for who in users() {
        let dir = scratch("conform", who);
        for (label, extra) in [
            (
                "the same file twice",
                &["--results", "r.out", "--junit", "./r.out"][..],
            ),
            (
                "results in a missing folder",
                &["--results", "nodir/r.jsonl"][..],
            ),
            ("junit in a missing folder", &["--junit", "nodir/j.xml"][..]),
        ] {
            let mut args = vec!["conform", &*case, "--id", "cov-d3-dullstone"];
            args.extend_from_slice(extra);
            let (code, stdout, stderr) = m3go(who, &dir, &args);
            assert_eq!(code, Some(2), "{who:?}, {label}: {stdout}{stderr}");
            assert!(stdout.is_empty(), "{who:?}, {label}: ran: {stdout}");
            assert!(!dir.join("r.out").exists(), "{who:?}, {label}");
        }
    }
}

/// A results file that cannot be written at the end (its folder removed during the run, here
/// by the program under test as it starts) leaves the other reports written and the table
/// printed, then exit 2 naming it: `match` (its JUnit report and table) and `conform` (its
/// report and JUnit report).
#[test]
fn a_results_file_failing_late_leaves_the_other_reports_written() {
    for who in users() {
        let dir = scratch("late-results", who);
        let remover = dir.join("remove.sh");
        std::fs::write(
            &remover,
            format!("#!/bin/sh\nrm -rf sub\nexec {BIN} \"$@\"\n"),
        )
        .expect("script");
        std::fs::set_permissions(&remover, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        shared(&dir, "sub");
        let a = format!("a={} player --strategy random --seed 1", remover.display());
        let b = format!("b={}", player(2));
        let (code, stdout, stderr) = m3go(
            who,
            &dir,
            &[
                "match",
                "--player",
                &a,
                "--player",
                &b,
                "--games",
                "2",
                "--size",
                "5",
                "-o",
                "out",
                "--results",
                "sub/r.jsonl",
                "--junit",
                "j.xml",
            ],
        );
        assert_eq!(code, Some(2), "{who:?}, match: {stdout}{stderr}");
        assert!(stderr.contains("sub/r.jsonl"), "{who:?}, match: {stderr}");
        assert!(
            stdout.contains("a vs b: 2 games"),
            "{who:?}, match: {stdout}"
        );
        let junit = std::fs::read_to_string(dir.join("j.xml")).expect("match junit written");
        assert_eq!(junit.matches("<testcase").count(), 2, "{who:?}: {junit}");
        std::fs::remove_file(dir.join("j.xml")).expect("clean");

        shared(&dir, "sub");
        let cases = Path::new(crate::common::ROOT).join("spec/cases");
        let imp = format!("{} protocol", remover.display());
        let (code, stdout, stderr) = m3go(
            who,
            &dir,
            &[
                "conform",
                &cases.to_string_lossy(),
                "--id",
                "cov-d3-dullstone",
                "--impl",
                &imp,
                "--results",
                "sub/r.jsonl",
                "--junit",
                "j.xml",
            ],
        );
        assert_eq!(code, Some(2), "{who:?}, conform: {stdout}{stderr}");
        assert!(stderr.contains("sub/r.jsonl"), "{who:?}, conform: {stderr}");
        assert!(stdout.contains("1 passed"), "{who:?}, conform: {stdout}");
        let junit = std::fs::read_to_string(dir.join("j.xml")).expect("conform junit written");
        assert!(junit.contains("cov-d3-dullstone"), "{who:?}: {junit}");
    }
}

/// `schema --write --dir DIR` writes into its folder as a match does: a link planted at a
/// schema's name is refused before any file is written and not followed (before: the schema
/// was written through the link into the file it aimed at); a regular file there is replaced.
#[test]
fn schema_write_refuses_a_link_in_its_folder() {
    for who in users() {
        let dir = scratch("schema", who);
        let v = victim(&dir);
        let out = shared(&dir, "schemas");
        let link = out.join("answer.schema.json");
        std::os::unix::fs::symlink(&v, &link).expect("plant the link");
        let (code, _, stderr) = m3go(who, &dir, &["schema", "--write", "--dir", "schemas"]);
        assert_eq!(code, Some(2), "{who:?}: {stderr}");
        assert!(
            stderr.contains("answer.schema.json") && stderr.contains("symbolic link"),
            "{who:?}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&v).expect("victim"), "precious\n");
        assert!(
            std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()),
            "{who:?}: the link was not left"
        );
        assert_eq!(
            std::fs::read_dir(&out).expect("folder").count(),
            1,
            "{who:?}: a schema was written before the check"
        );
        // without the link the folder is written, a regular file replaced
        std::fs::remove_file(&link).expect("remove the link");
        std::fs::write(&link, "old").expect("a regular file");
        let (code, stdout, stderr) = m3go(who, &dir, &["schema", "--write", "--dir", "schemas"]);
        assert_eq!(code, Some(0), "{who:?}: {stderr}");
        assert!(stdout.contains("answer.schema.json"), "{who:?}: {stdout}");
        assert_ne!(std::fs::read_to_string(&link).expect("schema"), "old");
    }
}
