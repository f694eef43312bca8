//! Reading the files and streams m3go is given: every input within the same bounds (at most
//! [`MAX_FILE_BYTES`], a stream within a deadline) and with the same messages. The engine parses
//! the texts it is given ([`Setup::position_from_text`], [`Record::parse`]) and reads no file;
//! the command line, the conformance runner and the tools read them here.

use m3go_engine::formats::record::{Record, StartFiles};
use m3go_engine::{ErrorKind, InputError, Position, Setup};
use std::fmt;

/// Largest input m3go reads from one source (the engine's bound on a text it parses,
/// [`m3go_engine::MAX_INPUT_BYTES`]).
pub const MAX_FILE_BYTES: usize = m3go_engine::MAX_INPUT_BYTES;

/// Reads and validates a position file (`-`: standard input).
pub fn load_position(path: &str) -> Result<Position, InputError> {
    Setup::position_from_text(&read_text(path)?, path)
}

/// Reads a record file, SGF or game file (by its content); a game file's `position:` header
/// names a file in the record's folder, read by [`read_text`].
pub fn load_record(path: &str) -> Result<Record, InputError> {
    Record::parse(&read_text(path)?, path, &read_text)
}

/// A game file's start files as a file on disk has them: in `dir`, read by [`read_text`].
pub fn start_files_in(dir: &str) -> StartFiles<'_> {
    StartFiles::In(dir, &read_text)
}

/// Why [`read_bounded`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The source holds more than the limit (it was read no further than one byte past it).
    TooLarge { limit: usize },
    /// The reader failed.
    Io(std::io::Error),
}

impl ReadError {
    /// Largest input m3go reads from one source: a file, a device, a pipe, standard input, one
    /// protocol request line.
    pub const MAX_INPUT_BYTES: usize = m3go_engine::MAX_INPUT_BYTES;
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLarge { limit } => write!(
                f,
                "more than {limit} bytes is too large: expected at most {limit} bytes"
            ),
            ReadError::Io(e) => write!(f, "cannot read: {e}"),
        }
    }
}

/// The one bounded read of m3go: everything `r` holds, or [`ReadError::TooLarge`] after reading
/// at most `limit + 1` bytes, whatever the source (a file whose reported length is 0, such as
/// `/dev/zero`, a pipe or `/dev/stdin`, is bounded the same way).
pub fn read_bounded(r: impl std::io::Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    r.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads a file as UTF-8 text through the one bounded read ([`read_bounded`]):
/// at most [`MAX_FILE_BYTES`] whatever the file is (a regular file, `/dev/zero`, a pipe,
/// `/dev/stdin`, or `-` for standard input). A path that is not a regular file (a FIFO, a
/// character device, `/dev/stdin`) is read as a stream, as the shell reads it, within
/// [`STREAM_SECONDS`] seconds (or `M3GO_INPUT_TIMEOUT`): opened without blocking, so that a
/// FIFO nobody writes is refused at the deadline rather than waited on for ever. A folder is
/// refused. Refuses text that is not UTF-8; skips a leading byte-order mark.
pub fn read_text(path: &str) -> Result<String, InputError> {
    let bytes = if path == "-" {
        read_bounded(std::io::stdin().lock(), MAX_FILE_BYTES).map_err(|e| read_error(path, e))?
    } else {
        read_path(path)?
    };
    text_of(bytes).map_err(|e| e.file(path))
}

/// Seconds m3go waits for an input file that is not a regular file (a FIFO, a device) to reach
/// its end, unless the environment variable `M3GO_INPUT_TIMEOUT` gives another number (1 to
/// 86400).
pub const STREAM_SECONDS: u64 = 60;

/// The environment variable that sets the seconds given to an input that is not a regular file.
const STREAM_SECONDS_VAR: &str = "M3GO_INPUT_TIMEOUT";

/// The error of a bounded read of `path`.
fn read_error(path: &str, e: ReadError) -> InputError {
    match e {
        ReadError::Io(e) => cannot_read(path, &e),
        ReadError::TooLarge { .. } => {
            InputError::new(format!("more than {MAX_FILE_BYTES} bytes is too large"))
                .file(path)
                .expected(format!("at most {MAX_FILE_BYTES} bytes"))
        }
    }
}

fn cannot_read(path: &str, e: &std::io::Error) -> InputError {
    InputError::new(format!("cannot read: {e}"))
        .file(path)
        .of_kind(ErrorKind::Unreadable)
}

/// The seconds given to a stream: [`STREAM_SECONDS`], or `M3GO_INPUT_TIMEOUT`.
fn stream_seconds() -> Result<u64, InputError> {
    let Some(v) = std::env::var_os(STREAM_SECONDS_VAR) else {
        return Ok(STREAM_SECONDS);
    };
    let v = v.to_string_lossy();
    match v.trim().parse::<u64>() {
        Ok(s) if (1..=86_400).contains(&s) => Ok(s),
        _ => Err(InputError::new(format!("`{}`", InputError::quote(&v)))
            .key(STREAM_SECONDS_VAR)
            .expected("a whole number of seconds from 1 to 86400")),
    }
}

/// The bytes of the file at `path` (not `-`), bounded in size and, for a stream, in time.
#[cfg(unix)]
fn read_path(path: &str) -> Result<Vec<u8>, InputError> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, with no bound
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(|e| cannot_read(path, &e))?;
    let kind = file
        .metadata()
        .map_err(|e| cannot_read(path, &e))?
        .file_type();
    if kind.is_dir() {
        return Err(InputError::new("a folder")
            .file(path)
            .of_kind(ErrorKind::Unreadable)
            .expected("a file"));
    }
    if kind.is_file() {
        // O_NONBLOCK changes nothing for a regular file
        return read_bounded(file, MAX_FILE_BYTES).map_err(|e| read_error(path, e));
    }
    let seconds = stream_seconds()?;
    match read_stream(
        &file,
        MAX_FILE_BYTES,
        std::time::Duration::from_secs(seconds),
    ) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(InputError::new(format!(
            "a FIFO or device not ended by its writer within {seconds} s"
        ))
        .file(path)
        .of_kind(ErrorKind::Unreadable)
        .expected(format!(
            "its end within {seconds} s (the seconds {STREAM_SECONDS_VAR} sets)"
        ))),
        Err(e) => Err(read_error(path, e)),
    }
}

#[cfg(not(unix))]
fn read_path(path: &str) -> Result<Vec<u8>, InputError> {
    let file = std::fs::File::open(path).map_err(|e| cannot_read(path, &e))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(InputError::new("a folder")
            .file(path)
            .of_kind(ErrorKind::Unreadable)
            .expected("a file"));
    }
    read_bounded(file, MAX_FILE_BYTES).map_err(|e| read_error(path, e))
}

/// Everything a stream opened without blocking (`O_NONBLOCK`) holds, at most `limit` bytes,
/// or `None` when its end did not come within `wait`. The stream is waited on with `poll`
/// before each read: a FIFO without a writer reads as its end at once, but `poll` waits until a
/// writer has come (and written or gone).
#[cfg(unix)]
fn read_stream(
    file: &std::fs::File,
    limit: usize,
    wait: std::time::Duration,
) -> Result<Option<Vec<u8>>, ReadError> {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::io::Read as _;
    use std::os::fd::AsFd;
    let deadline = std::time::Instant::now() + wait;
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        // at most a second per wait, so that the deadline is checked against the clock
        let timeout = PollTimeout::try_from(left.min(std::time::Duration::from_secs(1)))
            .unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(file.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, timeout) {
            Ok(0) => continue,
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(ReadError::Io(e.into())),
        }
        let mut f = file;
        match f.read(&mut buf) {
            Ok(0) => return Ok(Some(bytes)),
            Ok(n) => {
                if bytes.len() + n > limit {
                    return Err(ReadError::TooLarge { limit });
                }
                bytes.extend_from_slice(&buf[..n]);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
}

/// Bytes read from an input as text: UTF-8, a leading byte-order mark skipped (Windows editors
/// write one; YAML 1.2 and the other parsers of positions and SGF accept it).
fn text_of(bytes: Vec<u8>) -> Result<String, InputError> {
    let mut text =
        String::from_utf8(bytes).map_err(|e| InputError::new(format!("not UTF-8 text: {e}")))?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// The UTF-8 byte-order mark (bytes EF BB BF), skipped at the start of every text m3go reads.
const BOM: char = '\u{feff}';
