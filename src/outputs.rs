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
//!
//! The files a run writes into an output folder of its own (`match -o DIR`, `diff -o DIR`) are
//! not decided by the table: the folder is held open (`Folder`) and each file is created new
//! under a temporary name (`O_EXCL`, `O_NOFOLLOW`) and renamed over its name, so that whatever
//! stands there (a link, a hard link, a device) is replaced, never followed or written into.
//! The paths of a run's reports are checked together before it starts (`check_outputs`).

use crate::errors::{Error, OfKind};
use m3go_engine::InputError;
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
pub fn decide(path: &str) -> Result<Target, Error> {
    decide_of(path).map_err(OfKind::unwritable)
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
                        m3go_engine::InputError::quote(&to)
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

/// Writes one output: `write_all` with one entry.
pub fn write_one(path: &str, text: &str) -> Result<(), Error> {
    write_all(&[(path, text)])
}

/// Writes outputs so that no failure destroys data. Every path is first [`decide`]d (any
/// refusal changes nothing); the regular files to replace are written in full (and synced) to
/// temporary files beside them; then the other outputs are written (in place, devices, FIFOs,
/// standard output); last the temporary files are renamed over their targets. A failure before
/// the renames removes the temporary files and leaves every replaced file as it was.
pub(crate) fn write_all(files: &[(&str, &str)]) -> Result<(), Error> {
    write_all_of(files).map_err(OfKind::unwritable)
}

fn write_all_of(files: &[(&str, &str)]) -> Result<(), InputError> {
    catch_file_size_signal();
    let mut decided = Vec::with_capacity(files.len());
    for &(path, text) in files {
        decided.push((path, decide_of(path)?, text));
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
            crate::io::write_out(format_args!("{text}"));
            crate::io::flush_out();
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
pub(crate) fn is_stream(path: &str) -> bool {
    path == "-"
        || through_descriptor(Path::new(path))
        || std::fs::metadata(path).is_ok_and(|m| !m.file_type().is_file())
}

/// An output folder held open (`m3go match -o DIR`, `m3go diff -o DIR`): every file a run writes
/// into it is named relative to the folder opened at the start (a folder renamed or swapped for
/// a link during the run is not followed), is created new under a temporary name (`O_EXCL`,
/// `O_NOFOLLOW`: no link planted there is followed) and is renamed over its name, so that what
/// stood there (a regular file, or a link, a FIFO or a device planted since the check) is
/// replaced, never written through. Nothing outside the folder is written.
#[derive(Debug)]
pub(crate) struct Folder {
    dir: std::fs::File,
    path: String,
}

impl Folder {
    /// Opens the folder `path`, creating it (and its parents) when it does not exist, and checks
    /// that m3go may create files in it (a file made and removed). Refused: a path that is not a
    /// folder (after its links), a folder m3go may not write.
    pub fn open(path: &str) -> Result<Folder, Error> {
        Self::open_of(path).map_err(OfKind::unwritable)
    }

    fn open_of(path: &str) -> Result<Folder, InputError> {
        if path.is_empty() {
            return Err(InputError::new("an empty folder name").expected("a folder"));
        }
        let p = Path::new(path);
        if let Ok(m) = std::fs::metadata(p) {
            if !m.is_dir() {
                return Err(InputError::new("not a folder")
                    .file(path)
                    .expected("a folder (new or existing) for the files written"));
            }
        }
        std::fs::create_dir_all(p)
            .map_err(|e| InputError::new(format!("cannot create the folder: {e}")).file(path))?;
        use std::os::unix::fs::OpenOptionsExt;
        let dir = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_DIRECTORY | nix::libc::O_CLOEXEC)
            .open(p)
            .map_err(|e| InputError::new(format!("cannot open the folder: {e}")).file(path))?;
        let folder = Folder {
            dir,
            path: path.to_string(),
        };
        let (probe, _) = folder.create_temporary().map_err(|e| {
            InputError::new(format!("cannot create a file in the folder: {e}")).file(path)
        })?;
        let _ = nix::unistd::unlinkat(
            &folder.dir,
            probe.as_str(),
            nix::unistd::UnlinkatFlags::NoRemoveDir,
        );
        Ok(folder)
    }

    /// Checks, without creating it, that the folder `path` could be opened by [`Folder::open`]
    /// later: an existing folder m3go may write in, or a missing one whose nearest existing
    /// parent is.
    pub fn check_creatable(path: &str) -> Result<(), Error> {
        if std::fs::metadata(path).is_ok() {
            return Folder::open(path).map(|_| ());
        }
        let mut up = Path::new(path);
        let parent = loop {
            match up.parent() {
                Some(p) if p.as_os_str().is_empty() => break PathBuf::from("."),
                Some(p) if std::fs::metadata(p).is_ok() => break p.to_path_buf(),
                Some(p) => up = p,
                None => break PathBuf::from("/"),
            }
        };
        let refuse = |what: String| {
            Err(InputError::new(what)
                .file(path)
                .expected("a folder (new or existing) for the files written")
                .unwritable())
        };
        if !std::fs::metadata(&parent).is_ok_and(|m| m.is_dir()) {
            return refuse(format!("`{}` is not a folder", parent.to_string_lossy()));
        }
        use nix::unistd::{access, AccessFlags};
        if let Err(e) = access(parent.as_path(), AccessFlags::W_OK | AccessFlags::X_OK) {
            return refuse(format!(
                "cannot create it in `{}`: {}",
                parent.to_string_lossy(),
                std::io::Error::from(e)
            ));
        }
        Ok(())
    }

    /// The path of `name` in the folder, as messages show it.
    pub fn path_of(&self, name: &str) -> String {
        Path::new(&self.path)
            .join(name)
            .to_string_lossy()
            .into_owned()
    }

    /// The folder's device and inode.
    fn identity(&self) -> Option<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        self.dir.metadata().ok().map(|m| (m.dev(), m.ino()))
    }

    /// Checks, before any long work, the names the run will write: each is free or a regular
    /// file (which is replaced); a symbolic link, a folder, a device, a FIFO or a socket there is
    /// refused, naming it and left as it is.
    pub fn check(&self, names: &[String]) -> Result<(), Error> {
        use nix::sys::stat::{fstatat, SFlag};
        for name in names {
            let st = match fstatat(
                &self.dir,
                name.as_str(),
                nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
            ) {
                Ok(st) => st,
                Err(nix::errno::Errno::ENOENT) => continue,
                Err(e) => {
                    return Err(InputError::new(format!(
                        "cannot look at it: {}",
                        std::io::Error::from(e)
                    ))
                    .file(self.path_of(name))
                    .unwritable())
                }
            };
            let kind = SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT;
            let what = if kind == SFlag::S_IFREG {
                continue;
            } else if kind == SFlag::S_IFLNK {
                let to = std::fs::read_link(self.path_of(name))
                    .map(|t| InputError::quote(&t.to_string_lossy()))
                    .unwrap_or_else(|_| "?".to_string());
                format!("a symbolic link (to `{to}`)")
            } else if kind == SFlag::S_IFDIR {
                "a folder".to_string()
            } else if kind == SFlag::S_IFIFO {
                "a FIFO".to_string()
            } else if kind == SFlag::S_IFCHR || kind == SFlag::S_IFBLK {
                "a device".to_string()
            } else {
                "not a regular file".to_string()
            };
            return Err(InputError::new(format!(
                "{what}, where the run writes a file of its own: left as it is, nothing written"
            ))
            .file(self.path_of(name))
            .expected("a free name or a regular file in the output folder (remove it, or choose another folder)")
            .unwritable());
        }
        Ok(())
    }

    /// A new file in the folder under a temporary name, created with `O_EXCL | O_NOFOLLOW`.
    fn create_temporary(&self) -> std::io::Result<(String, std::fs::File)> {
        use nix::fcntl::OFlag;
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut tries = 0;
        loop {
            let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let name = format!(".m3go-{}-{n}-{nanos:08x}.tmp", std::process::id());
            let flags = OFlag::O_WRONLY
                | OFlag::O_CREAT
                | OFlag::O_EXCL
                | OFlag::O_NOFOLLOW
                | OFlag::O_CLOEXEC
                | OFlag::O_NOCTTY;
            match nix::fcntl::openat(
                &self.dir,
                name.as_str(),
                flags,
                nix::sys::stat::Mode::from_bits_truncate(0o666),
            ) {
                Ok(fd) => return Ok((name, std::fs::File::from(fd))),
                Err(nix::errno::Errno::EEXIST) if tries < 100 => tries += 1,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Writes `text` as the file `name` of the folder: a new file under a temporary name,
    /// written in full and synced, then renamed over `name`. A regular file there is replaced
    /// (its mode kept, and its owner where m3go may give it); anything else there is replaced
    /// too, never followed or written into. A failure leaves `name` as it was and removes the
    /// temporary file.
    pub fn write(&self, name: &str, text: &str) -> Result<(), Error> {
        catch_file_size_signal();
        let shown = self.path_of(name);
        let fail = |what: &str, e: std::io::Error| {
            InputError::new(format!("cannot write ({what}): {e}; the file is unchanged"))
                .file(shown.as_str())
                .unwritable()
        };
        use nix::sys::stat::{fstatat, SFlag};
        let old = fstatat(&self.dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW)
            .ok()
            .filter(|st| SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT == SFlag::S_IFREG);
        let (tmp, mut file) = self
            .create_temporary()
            .map_err(|e| fail("creating a temporary file in the folder", e))?;
        let remove = || {
            let _ = nix::unistd::unlinkat(
                &self.dir,
                tmp.as_str(),
                nix::unistd::UnlinkatFlags::NoRemoveDir,
            );
        };
        let written = (|| {
            file.write_all(text.as_bytes())?;
            if let Some(st) = &old {
                // the owner where m3go may give it (as root), then the permission bits
                let _ = std::os::unix::fs::fchown(&file, Some(st.st_uid), Some(st.st_gid));
                file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(
                    st.st_mode & 0o777,
                ))?;
            }
            file.sync_all()
        })();
        if let Err(e) = written {
            remove();
            return Err(fail("writing", e));
        }
        drop(file);
        if let Err(e) = nix::fcntl::renameat(&self.dir, tmp.as_str(), &self.dir, name) {
            remove();
            return Err(fail("renaming over it", e.into()));
        }
        Ok(())
    }
}

/// The outputs of one run given as paths (`--results`, `--junit`, …), each with its flag, and
/// the files it writes into its output folder: checked together before any long work. Each
/// path must be writable as [`decide`] says, a new file's folder must exist and be writable, no
/// two of them may name the same file (or both standard output), and none may name a file the
/// run writes into its folder.
pub(crate) fn check_outputs(
    outputs: &[(&str, &str)],
    folder: Option<(&Folder, &[String])>,
) -> Result<(), Error> {
    check_outputs_of(outputs, folder).map_err(OfKind::unwritable)
}

/// Where an output goes, to compare two outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    Stdout,
    Stderr,
    /// The folder (device, inode) and the name in it.
    Named((u64, u64), std::ffi::OsString),
}

/// An output already checked: its flag, its path, where it goes and its file (device, inode)
/// when it exists.
type Seen<'a> = (&'a str, &'a str, Place, Option<(u64, u64)>);

fn check_outputs_of(
    outputs: &[(&str, &str)],
    folder: Option<(&Folder, &[String])>,
) -> Result<(), InputError> {
    use std::os::unix::fs::MetadataExt;
    let mut seen: Vec<Seen<'_>> = Vec::new();
    for &(flag, path) in outputs {
        let target = decide_of(path).map_err(|e| e.key(flag))?;
        let (place, inode) = match &target {
            Target::Stdout => (Place::Stdout, None),
            Target::Stderr => (Place::Stderr, None),
            Target::Node(f) | Target::Replace(f) | Target::InPlace(f, _) => {
                let dir = folder_of(f);
                let dm = std::fs::metadata(&dir).map_err(|e| {
                    InputError::new(format!(
                        "its folder `{}` cannot be used: {e}",
                        dir.to_string_lossy()
                    ))
                    .file(path)
                    .key(flag)
                    .expected("a file in an existing folder")
                })?;
                if !dm.is_dir() {
                    return Err(InputError::new(format!(
                        "`{}` is not a folder",
                        dir.to_string_lossy()
                    ))
                    .file(path)
                    .key(flag)
                    .expected("a file in an existing folder"));
                }
                if matches!(target, Target::Replace(_)) {
                    use nix::unistd::{access, AccessFlags};
                    if let Err(e) = access(dir.as_path(), AccessFlags::W_OK | AccessFlags::X_OK) {
                        return Err(InputError::new(format!(
                            "cannot create a file in its folder `{}`: {}",
                            dir.to_string_lossy(),
                            std::io::Error::from(e)
                        ))
                        .file(path)
                        .key(flag)
                        .expected("a file in a folder you may write"));
                    }
                }
                let name = f.file_name().map(|n| n.to_os_string()).unwrap_or_default();
                let inode = std::fs::metadata(f).ok().map(|m| (m.dev(), m.ino()));
                (Place::Named((dm.dev(), dm.ino()), name), inode)
            }
        };
        if let Some((other_flag, other, _, _)) = seen
            .iter()
            .find(|(_, _, p, i)| *p == place || (inode.is_some() && *i == inode))
        {
            return Err(InputError::new(format!(
                "the same output as {other_flag} `{}`",
                InputError::quote(other)
            ))
            .file(path)
            .key(flag)
            .expected("a distinct file for each output (one would overwrite the other)"));
        }
        if let (Some((f, names)), Place::Named(dir, name)) = (folder, &place) {
            if f.identity() == Some(*dir) && names.iter().any(|n| std::ffi::OsStr::new(n) == name) {
                return Err(InputError::new(format!(
                    "a file the run writes into its folder `{}`",
                    InputError::quote(&f.path)
                ))
                .file(path)
                .key(flag)
                .expected("a file distinct from the run's own files"));
            }
        }
        seen.push((flag, path, place, inode));
    }
    Ok(())
}
