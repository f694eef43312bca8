//! Every file m3go writes goes through here: one decision, by what the path *is* after following
//! its links, of how to write it, so that an output replaces only a regular file it may write.
//!
//! | the path | how it is written |
//! | --- | --- |
//! | `-` | to standard output |
//! | the file standard output (or error) already writes to: `/dev/stdout`, `/dev/fd/1`, the file of `> out.txt` | through that stream, after what was printed |
//! | a new path, or a regular file whose folder m3go may write | a temporary file beside it, renamed over it: the old file's mode, owner and extended attributes (ACLs included) are kept; where one of them cannot be given to the new file (another user's file, as a user), it is written in place |
//! | a regular file with several hard links | in place (truncated and written, as the shell's `>` does), so that every link keeps seeing the file; a note on standard error says so |
//! | a regular file writable in a folder that is not | in place |
//! | a regular file m3go may not write (`access(W_OK)`, as for `>`; root passes) | refused, nothing changed |
//! | a character device, a FIFO, `/dev/fd/N` | opened and written, as `>` does: never replaced |
//! | a Unix socket, a block device, a folder | refused, left as it is |
//! | a dangling symbolic link | refused, naming the link and its missing target |
//! | a loop of symbolic links | refused |
//!
//! A write in place is not atomic: a failure part way (a full disk) leaves the file cut short,
//! as `>` would.

use crate::game::setup::InputError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a regular file is written in place rather than replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InPlace {
    /// It has this many hard links: a replacement would part it from the others.
    HardLinks(u64),
    /// Its folder may not be written (so no temporary file can be made beside it).
    FolderNotWritable,
    /// The replacement could not be given the old file's owner or extended attributes.
    NotKept(String),
}

/// How an output path is written ([`decide`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`, or the file standard output already writes to: written to standard output.
    Stdout,
    /// The file standard error already writes to: written to standard error.
    Stderr,
    /// A character device, a FIFO or an open descriptor (`/dev/fd/N`): opened and written,
    /// never replaced.
    Node(PathBuf),
    /// A new path or a regular file (its links followed): a temporary file beside it, renamed
    /// over it.
    Replace(PathBuf),
    /// A regular file (its links followed) truncated and written.
    InPlace(PathBuf, InPlace),
}

/// How to write `path`, decided by what it is after following its links; an error (naming the
/// path and what was expected) where it may not be written. Looks only: nothing is opened, so
/// a FIFO without a reader does not block here.
pub fn decide(path: &str) -> Result<Target, InputError> {
    decide_of(path).map_err(|e| e.of_kind(crate::error::ErrorKind::Unwritable))
}

fn decide_of(path: &str) -> Result<Target, InputError> {
    if path.is_empty() {
        return Err(InputError::new("an empty file name")
            .file(path)
            .expected("a file to write"));
    }
    if path == "-" {
        return Ok(Target::Stdout);
    }
    let p = Path::new(path);
    let refuse = |what: String, expected: &str| {
        Err(InputError::new(what)
            .file(path)
            .expected(expected.to_string()))
    };
    let meta = match std::fs::metadata(p) {
        Ok(m) => m,
        Err(e) => {
            let link = std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
            if link && e.raw_os_error() == Some(nix::libc::ELOOP) {
                return refuse(
                    "cannot write: a loop of symbolic links".to_string(),
                    "a link that leads to a file",
                );
            }
            if link && e.kind() == std::io::ErrorKind::NotFound {
                let to = std::fs::read_link(p)
                    .map(|t| t.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| "?".to_string());
                return refuse(
                    format!(
                        "cannot write: a symbolic link to `{}`, which does not exist (m3go does \
                         not create a link's missing target)",
                        crate::error::InputError::quote(&to)
                    ),
                    "a link to an existing file, or the path of the file itself",
                );
            }
            if e.kind() == std::io::ErrorKind::NotFound {
                return Ok(Target::Replace(p.to_path_buf()));
            }
            return refuse(format!("cannot write: {e}"), "a file to write");
        }
    };
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    if let Some(t) = standard_stream(&meta) {
        return Ok(t);
    }
    let kind = meta.file_type();
    if kind.is_dir() {
        return refuse(
            "cannot write: a folder".to_string(),
            "a file to write, not a folder",
        );
    }
    if kind.is_socket() {
        return refuse(
            "cannot write: a Unix socket, which cannot be opened as a file (left as it is)"
                .to_string(),
            "a file, a FIFO, a character device or `-` (standard output)",
        );
    }
    if kind.is_block_device() {
        return refuse(
            "cannot write: a block device (m3go writes no disk; left as it is)".to_string(),
            "a file, a FIFO, a character device or `-` (standard output)",
        );
    }
    if kind.is_char_device() || kind.is_fifo() || through_descriptor(p) {
        return Ok(Target::Node(p.to_path_buf()));
    }
    // a regular file: where its links lead
    let file = if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::canonicalize(p)
            .map_err(|e| InputError::new(format!("cannot resolve the link: {e}")).file(path))?
    } else {
        p.to_path_buf()
    };
    use nix::unistd::{access, AccessFlags};
    if let Err(e) = access(&file, AccessFlags::W_OK) {
        return refuse(
            format!(
                "cannot write: {} (as the shell's `>` would be refused); the file is unchanged",
                std::io::Error::from(e)
            ),
            "a file you may write",
        );
    }
    if meta.nlink() > 1 {
        return Ok(Target::InPlace(file, InPlace::HardLinks(meta.nlink())));
    }
    if access(folder_of(&file).as_path(), AccessFlags::W_OK).is_err() {
        return Ok(Target::InPlace(file, InPlace::FolderNotWritable));
    }
    Ok(Target::Replace(file))
}

/// Standard output or error, when `meta` is the file (by device and inode) it writes to.
fn standard_stream(meta: &std::fs::Metadata) -> Option<Target> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let same = |fd: std::os::fd::BorrowedFd<'_>| {
        fd.try_clone_to_owned()
            .and_then(|fd| std::fs::File::from(fd).metadata())
            .is_ok_and(|s| (s.dev(), s.ino()) == (meta.dev(), meta.ino()))
    };
    if same(std::io::stdout().as_fd()) {
        Some(Target::Stdout)
    } else if same(std::io::stderr().as_fd()) {
        Some(Target::Stderr)
    } else {
        None
    }
}

/// Whether `p` names one of m3go's open descriptors (`/dev/fd/N`, `/proc/self/fd/N`, …),
/// which the shell's `>` opens rather than replaces, whatever file it leads to.
fn through_descriptor(p: &Path) -> bool {
    let own = format!("/proc/{}/fd/", std::process::id());
    let s = p.to_string_lossy();
    [
        "/dev/fd/",
        "/proc/self/fd/",
        "/proc/thread-self/fd/",
        own.as_str(),
    ]
    .iter()
    .any(|pre| s.starts_with(pre))
        || ["/dev/stdin", "/dev/stdout", "/dev/stderr"].contains(&s.as_ref())
}

/// The folder `file` is in (`.` for a bare name).
fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes one output: [`write_all`] with one entry.
pub fn write_one(path: &str, text: &str) -> Result<(), InputError> {
    write_all(&[(path, text)])
}

/// Writes outputs so that no failure destroys data. Every path is first [`decide`]d (any
/// refusal changes nothing); the regular files to replace are written in full (and synced) to
/// temporary files beside them; then the other outputs are written (in place, devices, FIFOs,
/// standard output); last the temporary files are renamed over their targets. A failure before
/// the renames removes the temporary files and leaves every replaced file as it was.
pub fn write_all(files: &[(&str, &str)]) -> Result<(), InputError> {
    write_all_of(files).map_err(|e| e.of_kind(crate::error::ErrorKind::Unwritable))
}

fn write_all_of(files: &[(&str, &str)]) -> Result<(), InputError> {
    catch_file_size_signal();
    let mut decided = Vec::with_capacity(files.len());
    for &(path, text) in files {
        decided.push((path, decide(path)?, text));
    }
    let mut staged = Vec::new();
    let mut direct = Vec::new();
    for (path, target, text) in decided {
        match target {
            Target::Replace(file) => match stage(path, &file, text)? {
                Staged::Ready(tmp) => staged.push((path, file, tmp)),
                Staged::NotKept(why) => direct.push((path, Target::InPlace(file, why), text)),
            },
            t => direct.push((path, t, text)),
        }
    }
    for (path, target, text) in direct {
        write_direct(path, &target, text)?;
    }
    for (path, file, tmp) in staged {
        tmp.persist(&file).map_err(|e| {
            InputError::new(format!("cannot write (renaming over it): {}", e.error)).file(path)
        })?;
    }
    Ok(())
}

enum Staged {
    Ready(tempfile::NamedTempFile),
    NotKept(InPlace),
}

/// The temporary file beside `file` holding `text`, with the old file's owner, extended
/// attributes and mode; `NotKept` where one of them could not be given to it.
fn stage(path: &str, file: &Path, text: &str) -> Result<Staged, InputError> {
    use std::os::unix::fs::MetadataExt;
    let fail = |what: &str, e: std::io::Error| {
        InputError::new(format!("cannot write ({what}): {e}; the file is unchanged")).file(path)
    };
    let old = std::fs::metadata(file).ok();
    let mut builder = tempfile::Builder::new();
    builder.prefix(".m3go-").suffix(".tmp");
    // a new file gets what `std::fs::write` gives (0o666 less the umask), not the temporary
    // file's owner-only permissions
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder
        .tempfile_in(folder_of(file))
        .map_err(|e| fail("creating a temporary file beside it", e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| fail("writing", e))?;
    let Some(old) = old else {
        return Ok(Staged::Ready(tmp));
    };
    let mine = tmp.as_file().metadata().map_err(|e| fail("writing", e))?;
    if (mine.uid(), mine.gid()) != (old.uid(), old.gid()) {
        if let Err(e) = std::os::unix::fs::fchown(tmp.as_file(), Some(old.uid()), Some(old.gid())) {
            return Ok(Staged::NotKept(InPlace::NotKept(format!("its owner: {e}"))));
        }
    }
    if let Ok(names) = xattr::list(file) {
        use xattr::FileExt;
        for name in names {
            let Ok(Some(value)) = xattr::get(file, &name) else {
                continue;
            };
            if let Err(e) = tmp.as_file().set_xattr(&name, &value) {
                return Ok(Staged::NotKept(InPlace::NotKept(format!(
                    "its extended attribute {}: {e}",
                    name.to_string_lossy()
                ))));
            }
        }
    }
    tmp.as_file()
        .set_permissions(old.permissions())
        .map_err(|e| fail("keeping its permissions", e))?;
    Ok(Staged::Ready(tmp))
}

/// Writes `text` to a target that is not replaced: standard output or error, a device, a FIFO,
/// a descriptor, or a regular file in place.
fn write_direct(path: &str, target: &Target, text: &str) -> Result<(), InputError> {
    let (file, in_place) = match target {
        Target::Stdout => {
            write_out(format_args!("{text}"));
            flush_out();
            return Ok(());
        }
        Target::Stderr => {
            crate::io::write_err(format_args!("{text}"));
            return Ok(());
        }
        Target::Node(f) => (f, false),
        Target::InPlace(f, why) => {
            if let InPlace::HardLinks(n) = why {
                crate::io::write_err(format_args!(
                    "note: {path} has {n} hard links: written in place, so every link holds \
                     the new text\n"
                ));
            }
            (f, true)
        }
        Target::Replace(_) => return Ok(()),
    };
    use std::os::unix::fs::OpenOptionsExt;
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .custom_flags(nix::libc::O_NOCTTY)
        .open(file)
        .map_err(|e| InputError::new(format!("cannot write: {e}; unchanged")).file(path))?;
    let written =
        out.write_all(text.as_bytes()).and_then(
            |()| {
                if in_place {
                    out.sync_all()
                } else {
                    Ok(())
                }
            },
        );
    written.map_err(|e| {
        let left = if in_place {
            "the file may be cut short (it was written in place)"
        } else {
            "part of the text may have been written"
        };
        InputError::new(format!("cannot write: {e}; {left}")).file(path)
    })
}

/// SIGXFSZ, sent when a write passes the file-size limit (`ulimit -f`), would end m3go at once
/// and leave the temporary file behind; caught (by a handler that does nothing), the write fails
/// with EFBIG instead and [`write_all`] cleans up and reports it.
fn catch_file_size_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, flag);
    });
}

/// Whether an output `path` is exempt from the extension check: `-`, a descriptor
/// (`/dev/stdout`, `/dev/fd/N`), or an existing node that is not a regular file (a device, a
/// FIFO), whose name says nothing of a format.
pub fn is_stream(path: &str) -> bool {
    path == "-"
        || through_descriptor(Path::new(path))
        || std::fs::metadata(path).is_ok_and(|m| !m.file_type().is_file())
}

/// Writes to standard output. A closed pipe (`m3go analyze POS | head -1`) ends m3go quietly with
/// exit 0, as a Unix filter does; any other write error ends it with a message and exit 2. Every
/// line the CLI prints goes through here (the `out!` and `outln!` macros), so no output
/// condition can panic.
pub fn write_out(args: std::fmt::Arguments<'_>) {
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args) {
        end_on_write_error(&e);
    }
}

/// Flushes standard output, with [`write_out`]'s handling of errors.
pub fn flush_out() {
    if let Err(e) = std::io::stdout().lock().flush() {
        end_on_write_error(&e);
    }
}

fn end_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    crate::io::write_err(format_args!("error: standard output: cannot write: {e}\n"));
    std::process::exit(2);
}
