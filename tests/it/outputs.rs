//! Issue 36, finding 1 (and finding 9's `-o` onto a dangling symlink): an output replaces only a
//! regular file it may write, keeping what that file was; a device, a FIFO, `-` and
//! `/dev/stdout` are written into as the shell's `>` would, a socket is refused and left. One
//! test per kind of target, each run as root and as an unprivileged user (`nobody`, through
//! `setpriv` or `runuser`) when the tests run as root, as the current user alone otherwise.
//! Device nodes are made with `mknod` in a scratch folder, never in the real `/dev`.

use crate::common::{BIN, ROOT};
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
        eprintln!("outputs: not root: the tests run as the current user only");
        return vec![Who::User];
    }
    if have("setpriv") || have("runuser") {
        vec![Who::Root, Who::User]
    } else {
        eprintln!("outputs: neither setpriv nor runuser: the tests run as root only");
        vec![Who::Root]
    }
}

/// `argv` run by `who` in `dir`, standard input empty, the outputs captured.
fn run(who: Who, dir: &Path, argv: &[&str]) -> Output {
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
        c.args(argv);
        c
    } else {
        let mut c = Command::new(argv[0]);
        c.args(&argv[1..]);
        c
    };
    c.current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run {argv:?}: {e}"))
}

/// `m3go ARGS` run by `who` in `dir`: (exit code, stdout, stderr).
fn m3go(who: Who, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut argv = vec![BIN];
    argv.extend_from_slice(args);
    let out = run(who, dir, &argv);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh scratch folder that `who` may write in.
fn scratch(tag: &str, who: Who) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("outputs-{tag}-{who:?}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    d
}

/// Makes `path` belong to `who` (to `nobody` when the tests run as root).
fn give(path: &Path, who: Who) {
    if who == Who::User && is_root() {
        let (u, g) = (id(&["-u", "nobody"]), id(&["-g", "nobody"]));
        std::os::unix::fs::lchown(path, Some(u), Some(g)).expect("chown to nobody");
    }
}

fn example() -> String {
    Path::new(ROOT)
        .join("spec/positions/example.yaml")
        .to_string_lossy()
        .into_owned()
}

fn record() -> String {
    Path::new(ROOT)
        .join("spec/records/kejie-alphago-2017-g1.sgf")
        .to_string_lossy()
        .into_owned()
}

/// `render POS --svg OUT` by `who` in `dir`: (exit code, stdout, stderr).
fn render(who: Who, dir: &Path, out: &str) -> (Option<i32>, String, String) {
    m3go(who, dir, &["render", &example(), "--svg", out])
}

fn mkfifo(path: &Path) {
    let s = Command::new("mkfifo")
        .arg("-m")
        .arg("0666")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(s.success(), "mkfifo {}", path.display());
}

/// A null character device (`mknod PATH c 1 3`, mode 0666) made in the scratch folder.
fn mknod_null(path: &Path) -> bool {
    let ok = Command::new("mknod")
        .args(["-m", "0666"])
        .arg(path)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("outputs: mknod refused here: no character device test");
    }
    ok
}

/// A regular file (or a new path) is replaced whole, keeping its mode and its owner: root
/// replacing `nobody`'s file leaves it `nobody`'s (it became root's before); a new path gets
/// 0666 less the umask.
#[test]
fn outputs_a_regular_file_keeps_its_mode_and_owner() {
    for who in users() {
        let dir = scratch("regular", who);
        let f = dir.join("old.svg");
        std::fs::write(&f, "old").expect("old file");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        give(&f, Who::User);
        let before = std::fs::metadata(&f).expect("old file");
        let (code, _, err) = render(who, &dir, "old.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        let after = std::fs::metadata(&f).expect("new file");
        assert!(std::fs::read_to_string(&f).expect("new").contains("<svg"));
        assert_eq!(after.mode() & 0o7777, 0o640, "{who:?}");
        assert_eq!(
            (after.uid(), after.gid()),
            (before.uid(), before.gid()),
            "{who:?}: the owner changed"
        );
        let (code, _, err) = render(who, &dir, "new.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        assert!(std::fs::read_to_string(dir.join("new.svg"))
            .expect("new")
            .contains("<svg"));
    }
}

/// A read-only file is refused where the shell's `>` is (as a user: exit 2, the file
/// unchanged); root writes it, as `>` does.
#[test]
fn outputs_a_read_only_file_is_refused_as_a_user() {
    for who in users() {
        let dir = scratch("read-only", who);
        let f = dir.join("ro.svg");
        std::fs::write(&f, "old").expect("old file");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        give(&f, who);
        let (code, _, err) = render(who, &dir, "ro.svg");
        let text = std::fs::read_to_string(&f).expect("file");
        if who == Who::Root {
            assert_eq!(code, Some(0), "{err}");
            assert!(text.contains("<svg"));
        } else {
            assert_eq!(code, Some(2), "{err}");
            assert!(
                err.contains("ro.svg") && err.contains("ermission denied"),
                "{err}"
            );
            assert_eq!(text, "old");
        }
        assert_eq!(std::fs::metadata(&f).expect("file").mode() & 0o777, 0o444);
    }
}

/// A file the user may write in a folder the user may not (a world-writable file in a folder
/// only root may write) is written in place, as `>` would; before, it was refused (no temporary
/// file could be made beside it).
#[test]
fn outputs_a_writable_file_in_a_locked_folder_is_written_in_place() {
    for who in users() {
        let dir = scratch("locked", who);
        let f = dir.join("open.svg");
        std::fs::write(&f, "old").expect("old file");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).expect("chmod");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let ino = std::fs::metadata(&f).expect("file").ino();
        let (code, _, err) = render(who, &dir, "open.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        assert!(std::fs::read_to_string(&f).expect("file").contains("<svg"));
        if who == Who::User && is_root() {
            assert_eq!(std::fs::metadata(&f).expect("file").ino(), ino, "replaced");
        }
    }
}

/// A file with two hard links is written in place: both names hold the new text (the link was
/// broken before), and a note says so.
#[test]
fn outputs_a_hard_linked_file_is_written_in_place() {
    for who in users() {
        let dir = scratch("hard-link", who);
        let (a, b) = (dir.join("a.svg"), dir.join("b.svg"));
        std::fs::write(&a, "old").expect("old file");
        std::fs::hard_link(&a, &b).expect("hard link");
        give(&a, who);
        let (code, _, err) = render(who, &dir, "a.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        assert!(err.contains("2 hard links"), "{err}");
        let (ma, mb) = (
            std::fs::metadata(&a).expect("a"),
            std::fs::metadata(&b).expect("b"),
        );
        assert_eq!(
            (ma.ino(), ma.nlink()),
            (mb.ino(), 2),
            "{who:?}: the link was broken"
        );
        assert!(std::fs::read_to_string(&b).expect("b").contains("<svg"));
    }
}

/// A replaced file keeps its extended attributes (skipped where the file system refuses user
/// attributes).
#[test]
fn outputs_a_replaced_file_keeps_its_extended_attributes() {
    for who in users() {
        let dir = scratch("xattr", who);
        let f = dir.join("x.svg");
        std::fs::write(&f, "old").expect("old file");
        give(&f, who);
        if let Err(e) = xattr::set(&f, "user.m3go-test", b"kept") {
            eprintln!("outputs: no user extended attributes here ({e}): skipped");
            return;
        }
        let (code, _, err) = render(who, &dir, "x.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        assert!(std::fs::read_to_string(&f).expect("file").contains("<svg"));
        assert_eq!(
            xattr::get(&f, "user.m3go-test").expect("xattr"),
            Some(b"kept".to_vec()),
            "{who:?}"
        );
    }
}

/// A character device is written into, never replaced: `--results`, `--svg` and `-o` onto a
/// null device made with `mknod` (directly and through a symbolic link) leave it a character
/// device; before, root replaced it with a regular file.
#[test]
fn outputs_a_character_device_is_written_not_replaced() {
    for who in users() {
        let dir = scratch("device", who);
        let null = dir.join("null");
        if !mknod_null(&null) {
            return;
        }
        std::os::unix::fs::symlink("null", dir.join("link.svg")).expect("link");
        for args in [
            vec!["render", &example(), "--svg", "null"],
            vec!["render", &example(), "--svg", "link.svg"],
            vec!["play", &example(), "pass", "-o", "null"],
            vec!["convert", &record(), "null"],
        ] {
            let (code, _, err) = m3go(who, &dir, &args);
            assert_eq!(code, Some(0), "{who:?} {args:?}: {err}");
            let m = std::fs::metadata(&null).expect("null");
            assert!(m.file_type().is_char_device(), "{who:?} {args:?}: replaced");
            assert_eq!(
                m.rdev(),
                std::fs::metadata("/dev/null").expect("/dev/null").rdev()
            );
        }
        let results = null.to_string_lossy().into_owned();
        let out = run(
            who,
            Path::new(ROOT),
            &[
                BIN,
                "conform",
                "--id",
                "m20-eye-fig5",
                "--results",
                &results,
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{:?}", out);
        assert!(std::fs::metadata(&null)
            .expect("null")
            .file_type()
            .is_char_device());
    }
}

/// A FIFO with a reader gets the text (through a link too), and stays a FIFO; `replay --save`
/// onto a FIFO no longer blocks before writing (the own-input check opened it).
#[test]
fn outputs_a_fifo_with_a_reader_gets_the_text() {
    for who in users() {
        let dir = scratch("fifo", who);
        let fifo = dir.join("pipe");
        mkfifo(&fifo);
        std::os::unix::fs::symlink("pipe", dir.join("link")).expect("link");
        for (args, expect) in [
            (vec!["render", &example(), "--svg", "pipe"], "<svg"),
            (vec!["render", &example(), "--svg", "link"], "<svg"),
            (
                vec!["replay", &record(), "--quiet", "--save", "pipe"],
                "# m3go game record",
            ),
            (
                vec!["replay", &record(), "--quiet", "-o", "pipe"],
                "diagram",
            ),
        ] {
            let path = fifo.clone();
            let reader = std::thread::spawn(move || std::fs::read_to_string(path));
            let (code, _, err) = m3go(who, &dir, &args);
            assert_eq!(code, Some(0), "{who:?} {args:?}: {err}");
            let got = reader.join().expect("reader").expect("read the FIFO");
            assert!(got.contains(expect), "{who:?} {args:?}: {got}");
            assert!(std::fs::symlink_metadata(&fifo)
                .expect("fifo")
                .file_type()
                .is_fifo());
        }
    }
}

/// A Unix socket cannot be opened as a file: a clear error, exit 2, and the socket left in
/// place (before, it was replaced by a regular file).
#[test]
fn outputs_a_unix_socket_is_refused_and_left() {
    for who in users() {
        let dir = scratch("socket", who);
        let sock = dir.join("s.svg");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
        std::os::unix::fs::symlink("s.svg", dir.join("link.svg")).expect("link");
        for out in ["s.svg", "link.svg"] {
            let (code, _, err) = render(who, &dir, out);
            assert_eq!(code, Some(2), "{who:?}: {err}");
            assert!(err.contains(out) && err.contains("socket"), "{err}");
            assert!(std::fs::metadata(&sock)
                .expect("socket")
                .file_type()
                .is_socket());
        }
    }
}

/// A symbolic link to a regular file is written through (the link stays a link to the new
/// text); a dangling link is refused naming the link and its missing target (before: a vague
/// "No such file or directory"); a loop of links is refused; nothing is created.
#[test]
fn outputs_symbolic_links_to_files_missing_targets_and_loops() {
    for who in users() {
        let dir = scratch("links", who);
        std::fs::write(dir.join("file.svg"), "old").expect("file");
        give(&dir.join("file.svg"), who);
        std::os::unix::fs::symlink("file.svg", dir.join("to-file.svg")).expect("link");
        std::os::unix::fs::symlink("gone/missing.svg", dir.join("dangling.svg")).expect("link");
        std::os::unix::fs::symlink("loop-b.svg", dir.join("loop-a.svg")).expect("link");
        std::os::unix::fs::symlink("loop-a.svg", dir.join("loop-b.svg")).expect("link");
        let (code, _, err) = render(who, &dir, "to-file.svg");
        assert_eq!(code, Some(0), "{who:?}: {err}");
        assert!(std::fs::symlink_metadata(dir.join("to-file.svg"))
            .expect("link")
            .file_type()
            .is_symlink());
        assert!(std::fs::read_to_string(dir.join("file.svg"))
            .expect("file")
            .contains("<svg"));
        let (code, _, err) = render(who, &dir, "dangling.svg");
        assert_eq!(code, Some(2), "{who:?}: {err}");
        assert!(
            err.contains("dangling.svg") && err.contains("gone/missing.svg"),
            "{err}"
        );
        let (code, _, err) = render(who, &dir, "loop-a.svg");
        assert_eq!(code, Some(2), "{who:?}: {err}");
        assert!(err.contains("loop-a.svg") && err.contains("loop"), "{err}");
        assert!(!dir.join("gone").exists());
    }
}

/// `-` is standard output for every output flag: `-o` (play, replay), `--save`, `--svg`,
/// `--results` and `convert`'s output; no file named `-` is made.
#[test]
fn outputs_dash_is_standard_output_for_every_flag() {
    for who in users() {
        let dir = scratch("dash", who);
        let (pos, rec) = (example(), record());
        for (args, expect) in [
            (vec!["render", &pos, "--svg", "-"], "<svg"),
            (vec!["play", &pos, "pass", "-o", "-"], "diagram"),
            (vec!["replay", &rec, "--quiet", "-o", "-"], "diagram"),
            (
                vec!["replay", &rec, "--quiet", "--save", "-"],
                "# m3go game record",
            ),
            (vec!["convert", &rec, "-"], "# m3go game record"),
        ] {
            let (code, out, err) = m3go(who, &dir, &args);
            assert_eq!(code, Some(0), "{who:?} {args:?}: {err}");
            assert!(out.contains(expect), "{who:?} {args:?}: {out}");
            assert!(!dir.join("-").exists(), "{args:?} made a file `-`");
        }
        let out = run(
            who,
            Path::new(ROOT),
            &[BIN, "conform", "--id", "m20-eye-fig5", "--results", "-"],
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(
            text.contains("m3go-conform-results") && text.contains("passed"),
            "{text}"
        );
        assert!(!Path::new(ROOT).join("-").exists());
    }
}

/// `--results /dev/stdout` into a pipe writes the results there (before: "No such file or
/// directory"); into a file (`> out.txt`), out.txt holds the results and the summary after them
/// and is the same file (before, it was replaced and the summary went to the unlinked one);
/// `--svg /dev/fd/3` with `3> fd.txt` writes fd.txt through the descriptor.
#[test]
fn outputs_dev_stdout_into_a_pipe_and_into_a_file() {
    for who in users() {
        let dir = scratch("dev-stdout", who);
        let args = [
            BIN,
            "conform",
            "--id",
            "m20-eye-fig5",
            "--results",
            "/dev/stdout",
        ];
        let out = run(who, Path::new(ROOT), &args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{who:?}: {out:?}");
        assert!(
            text.contains("m3go-conform-results") && text.contains("passed"),
            "{text}"
        );
        let file = dir.join("out.txt");
        std::fs::write(&file, "").expect("out.txt");
        give(&file, who);
        let ino = std::fs::metadata(&file).expect("out.txt").ino();
        let script = format!("cd '{ROOT}' && exec \"$@\" > '{}/out.txt'", dir.display());
        let mut argv = vec!["sh", "-c", &script, "sh"];
        argv.extend_from_slice(&args);
        let out = run(who, &dir, &argv);
        assert_eq!(out.status.code(), Some(0), "{who:?}: {out:?}");
        let text = std::fs::read_to_string(&file).expect("out.txt");
        let results = text
            .find("m3go-conform-results")
            .expect("the results in out.txt");
        let summary = text.rfind("passed").expect("the summary in out.txt");
        assert!(results < summary, "{text}");
        assert_eq!(std::fs::metadata(&file).expect("out.txt").ino(), ino);
        // a descriptor the shell opened onto a regular file (`3> fd.txt`): written through it,
        // its name not held to the extension, the file not replaced
        let fd = dir.join("fd.txt");
        std::fs::write(&fd, "old").expect("fd.txt");
        give(&fd, who);
        let ino = std::fs::metadata(&fd).expect("fd.txt").ino();
        let script = format!("exec \"$@\" 3> '{}'", fd.display());
        let pos = example();
        let argv = [
            "sh",
            "-c",
            &script,
            "sh",
            BIN,
            "render",
            &pos,
            "--svg",
            "/dev/fd/3",
        ];
        let out = run(who, &dir, &argv);
        assert_eq!(out.status.code(), Some(0), "{who:?}: {out:?}");
        assert!(std::fs::read_to_string(&fd)
            .expect("fd.txt")
            .starts_with("<svg"));
        assert_eq!(std::fs::metadata(&fd).expect("fd.txt").ino(), ino);
    }
}

/// A user writing another user's writable file (root's, mode 0666, in a folder anyone may
/// write) cannot give a replacement root's owner: it is written in place, so the file stays
/// root's and keeps its inode (before, it was replaced by a file of the user's).
#[test]
fn outputs_another_users_writable_file_keeps_its_owner() {
    if !is_root() || !users().contains(&Who::User) {
        eprintln!("outputs: needs root and an unprivileged user: skipped");
        return;
    }
    let dir = scratch("others", Who::User);
    let f = dir.join("roots.svg");
    std::fs::write(&f, "old").expect("old file");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let ino = std::fs::metadata(&f).expect("file").ino();
    let (code, _, err) = render(Who::User, &dir, "roots.svg");
    assert_eq!(code, Some(0), "{err}");
    let m = std::fs::metadata(&f).expect("file");
    assert!(std::fs::read_to_string(&f).expect("file").contains("<svg"));
    assert_eq!((m.uid(), m.ino(), m.mode() & 0o777), (0, ino, 0o666));
}
