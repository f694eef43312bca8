//! The outer ring's streams: one bounded line of a protocol's input, standard error that
//! cannot panic, and texts from outside clipped for a message. The engine reads whole files
//! ([`m3go_engine::Setup::load`]) and never writes to a stream; these are the command's,
//! the server's and the runner's.

use m3go_engine::ReadError;

/// One line of `r` (without its `\n` or `\r\n`), bounded like a file read (at most `limit` bytes kept): `None` at the end
/// of input; a line longer than `limit` is read to its end and discarded (in bounded memory),
/// given as [`ReadError::TooLarge`], so that the next call reads the next line.
pub fn read_line_bounded(
    r: &mut impl std::io::BufRead,
    limit: usize,
) -> Option<Result<Vec<u8>, ReadError>> {
    let mut line = Vec::new();
    let mut too_large = false;
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Some(Err(ReadError::Io(e))),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_large {
            if line.len() + chunk.len() > limit {
                too_large = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return None;
    }
    if too_large {
        return Some(Err(ReadError::TooLarge { limit }));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Ok(line))
}

/// At most `max_chars` characters of `text`, ending in `…` when cut: how a text from outside (a
/// program's reason, an answer, an id) is shown in a message.
pub fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

/// At most `max_chars` characters of `text`, then how many more there were
/// (`… (N more characters)`): a whole message given a bound.
pub fn clip_counted(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => {
            let more = text[cut..].chars().count();
            format!("{}… ({more} more characters)", &text[..cut])
        }
    }
}

/// Writes to standard error, ignoring a failure (`errln!` panics when stderr is a closed
/// pipe: `m3go analyze BAD 2>&1 | true`); every message of m3go goes through here (`errln!`).
pub fn write_err(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Opens `path` to be read as a stream of lines of any length (the results files `--merge`
/// joins), when it is a regular file: a FIFO, a device or a folder is refused at once instead of
/// being waited on (opening a FIFO nobody writes would block for ever; `/dev/zero` never ends).
/// The file is opened without blocking (`O_NONBLOCK`, which changes nothing for a regular
/// file) and its kind read from the open file, so nothing can be swapped in between.
#[cfg(all(unix, feature = "runner"))]
pub fn open_regular(path: &str) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file (a FIFO, a device or a socket)"
    };
    Err(std::io::Error::other(format!(
        "{what}: expected a results file, which --results writes"
    )))
}
