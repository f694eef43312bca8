//! A usage error (clap's: a value that does not read, an unknown flag, a missing argument) of a
//! command that writes a JUnit report, given `--junit FILE`: the report is written all the same,
//! its `<error>` the usage error, so that a CI job that publishes it `if: always()` shows why
//! the run failed instead of "file not found" (as the commands do for an error once parsed).

use std::ffi::OsString;

/// The subcommands that take `--junit`, with their report's suite name.
const WITH_JUNIT: [(&str, &str); 3] = [
    ("conform", "m3go-conform"),
    ("diff", "m3go-diff"),
    ("match", "m3go-match"),
];

/// Writes the JUnit report of a command line clap refused with `message`, when it names one of
/// [`WITH_JUNIT`] and gives `--junit FILE` (or `--junit=FILE`); the report's path is checked
/// as the commands check it (writable, not the same file as `--results`) before it is written.
pub(crate) fn write(args: &[OsString], message: &str) {
    let words = super::option_words(args);
    let Some(suite) = words
        .iter()
        .find_map(|w| WITH_JUNIT.iter().find(|(c, _)| c == w))
        .map(|(_, s)| *s)
    else {
        return;
    };
    let value = |flag: &str| {
        let eq = format!("{flag}=");
        words
            .windows(2)
            .find(|w| w[0] == flag)
            .map(|w| w[1])
            .or_else(|| words.iter().find_map(|w| w.strip_prefix(eq.as_str())))
            .filter(|v| !v.is_empty() && (*v == "-" || !v.starts_with('-')))
    };
    let Some(file) = value("--junit") else {
        return;
    };
    let mut outputs = vec![("--junit", file)];
    outputs.extend(value("--results").map(|r| ("--results", r)));
    if crate::outputs::check_outputs(&outputs, None).is_err() {
        return;
    }
    let report = crate::conform::junit::run_error(suite, message);
    let written = crate::conform::junit::xml(&report)
        .map_err(|e| e.to_string())
        .and_then(|x| crate::cli::common::write_file(file, &x).map_err(|e| e.to_string()));
    if let Err(e) = written {
        errln!("error: --junit {file}: {e}");
    }
}
