//! The output-target decision and write (`m3go::outputs`): a fresh temporary folder holds a
//! few nodes built from the input — regular files (some read-only, some hard-linked), FIFOs
//! (each with a reader opened without blocking, so that a write never waits), a null character
//! device (`mknod c 1 3`, where permitted), a Unix socket, a folder, symbolic links to any of
//! them, dangling links and loops — and one of them (or a path inside one) is written. Asserted:
//! no panic; no node that is not a regular file is replaced (its kind and inode are kept, and a
//! link still names what it named); a regular file the decision chose holds exactly the text
//! after a write that succeeded; no temporary file is left behind.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use m3go::outputs::{decide, write_one, Target};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

#[derive(Arbitrary, Debug)]
enum Node {
    Regular(u8),
    ReadOnly,
    HardLink(u8),
    Fifo,
    NullDevice,
    Socket,
    Folder,
    Link(u8),
    AbsoluteLink(u8),
    Dangling,
}

#[derive(Arbitrary, Debug)]
struct Input {
    nodes: Vec<Node>,
    target: u8,
    /// Write `nT/inner` rather than `nT`.
    inner: bool,
    text: String,
}

/// (kind, inode, link text) of each node, for what must not change.
fn snapshot(dir: &Path, n: usize) -> Vec<Option<(&'static str, u64, Option<std::path::PathBuf>)>> {
    (0..n)
        .map(|i| {
            let p = dir.join(format!("n{i}"));
            let m = std::fs::symlink_metadata(&p).ok()?;
            let t = m.file_type();
            let kind = if t.is_symlink() {
                "link"
            } else if t.is_fifo() {
                "fifo"
            } else if t.is_char_device() {
                "char"
            } else if t.is_socket() {
                "socket"
            } else if t.is_dir() {
                "folder"
            } else {
                "regular"
            };
            Some((kind, m.ino(), std::fs::read_link(&p).ok()))
        })
        .collect()
}

fuzz_target!(|input: Input| {
    if input.nodes.is_empty() || input.nodes.len() > 8 || input.text.len() > 4096 {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path();
    let n = input.nodes.len();
    let name = |i: u8| format!("n{}", usize::from(i) % n);
    let mut readers = Vec::new();
    let mut sockets = Vec::new();
    // regular files and the other non-link nodes first, then the links and hard links
    for (i, node) in input.nodes.iter().enumerate() {
        let p = dir.join(format!("n{i}"));
        match node {
            Node::Regular(b) => std::fs::write(&p, vec![*b; usize::from(*b % 8)]).expect("file"),
            Node::ReadOnly => {
                std::fs::write(&p, "old").expect("file");
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444))
                    .expect("chmod");
            }
            Node::Fifo => {
                nix::unistd::mkfifo(&p, nix::sys::stat::Mode::from_bits_truncate(0o644))
                    .expect("mkfifo");
                use std::os::unix::fs::OpenOptionsExt;
                readers.push(
                    std::fs::OpenOptions::new()
                        .read(true)
                        .custom_flags(nix::libc::O_NONBLOCK)
                        .open(&p)
                        .expect("a reader of the FIFO"),
                );
            }
            Node::NullDevice => {
                let _ = nix::sys::stat::mknod(
                    &p,
                    nix::sys::stat::SFlag::S_IFCHR,
                    nix::sys::stat::Mode::from_bits_truncate(0o666),
                    nix::sys::stat::makedev(1, 3),
                );
            }
            Node::Socket => {
                if let Ok(l) = std::os::unix::net::UnixListener::bind(&p) {
                    sockets.push(l);
                }
            }
            Node::Folder => std::fs::create_dir(&p).expect("folder"),
            _ => {}
        }
    }
    for (i, node) in input.nodes.iter().enumerate() {
        let p = dir.join(format!("n{i}"));
        match node {
            Node::Link(t) => std::os::unix::fs::symlink(name(*t), &p).expect("link"),
            Node::AbsoluteLink(t) => {
                std::os::unix::fs::symlink(dir.join(name(*t)), &p).expect("link")
            }
            Node::Dangling => std::os::unix::fs::symlink("missing", &p).expect("link"),
            Node::HardLink(t) => {
                // only to a node made in the first pass that is not a folder
                let _ = std::fs::hard_link(dir.join(name(*t)), &p);
            }
            _ => {}
        }
    }
    let before = snapshot(dir, n);
    let mut target = dir.join(name(input.target));
    if input.inner {
        target = target.join("inner");
    }
    let target = target.to_string_lossy().into_owned();
    let decided = decide(&target);
    let written = write_one(&target, &input.text);
    assert!(
        decided.is_ok() || written.is_err(),
        "refused by the decision, written all the same: {target}"
    );
    let after = snapshot(dir, n);
    for (b, a) in before.iter().zip(&after) {
        if let Some(b @ (kind, _, _)) = b {
            if *kind != "regular" {
                assert_eq!(Some(b), a.as_ref(), "a {kind} changed: {input:?}");
            }
        }
    }
    if let (Ok(()), Ok(Target::Replace(f) | Target::InPlace(f, _))) = (&written, &decided) {
        let got = std::fs::read_to_string(f).expect("the written file");
        assert_eq!(got, input.text, "{target} ({f:?})");
    }
    let left: Vec<_> = std::fs::read_dir(dir)
        .expect("listing")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".m3go-"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    drop(readers);
    drop(sockets);
});
