//! What the modules share: running the built binary. One function starts it (`output`), in the
//! crate's folder or another, with standard input from a string written by a thread (so that
//! neither pipe fills up while the other is read) or from nothing; the others are the shapes the
//! modules read its result in.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The built `m3go` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_m3go");
/// The crate's folder, where the tests run the binary unless told otherwise.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs m3go with `args` in `dir` (the crate's folder if `None`), with `stdin` on standard input
/// (nothing if `None`); returns what it printed and its exit status.
pub fn output(args: &[&str], dir: Option<&Path>, stdin: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir.unwrap_or_else(|| Path::new(ROOT)))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run m3go {args:?}: {e}"));
    let writer = match (stdin, child.stdin.take()) {
        (Some(text), Some(mut pipe)) => {
            let text = text.to_string();
            Some(std::thread::spawn(move || pipe.write_all(text.as_bytes())))
        }
        _ => None,
    };
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait for m3go {args:?}: {e}"));
    if let Some(w) = writer {
        w.join()
            .expect("the writer of standard input")
            .unwrap_or_else(|e| panic!("write the standard input of m3go {args:?}: {e}"));
    }
    out
}

/// The exit code, standard output and standard error (lossy UTF-8) of `output`.
pub fn text(out: Output) -> (Option<i32>, String, String) {
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs m3go with `args`; returns the exit code, stdout and stderr.
pub fn m3go(args: &[&str]) -> (Option<i32>, String, String) {
    text(output(args, None, None))
}

/// Runs m3go in `dir` (the crate's folder if `None`); returns the exit code, stdout and stderr.
pub fn m3go_in(dir: Option<&Path>, args: &[&str]) -> (Option<i32>, String, String) {
    text(output(args, dir, None))
}

/// Runs m3go with `input` on standard input; returns the exit code, stdout and stderr.
pub fn m3go_stdin(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    text(output(args, None, Some(input)))
}

/// Runs m3go (with `stdin` on standard input), expects exit 0, returns stdout (UTF-8).
pub fn m3go_ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = output(args, None, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "m3go {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("m3go {args:?}: stdout: {e}"))
}

/// A GTP engine in Python that knows only GTP's own commands (no `m3go-position`) and always
/// passes.
pub const PLAIN_GTP: &str = r#"import sys
commands = ["protocol_version", "name", "version", "list_commands", "boardsize",
            "clear_board", "komi", "play", "genmove", "quit"]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "protocol_version":
        ans = "= 2"
    elif words[0] == "list_commands":
        ans = "= " + "\n".join(commands)
    elif words[0] == "genmove":
        ans = "= pass"
    else:
        ans = "="
    sys.stdout.write(ans + "\n\n")
    sys.stdout.flush()
"#;
