//! Everything a program under test starts ends with it ([`crate::conform::runner::External`]:
//! `m3go match`'s players, `m3go conform --impl`, `m3go diff --impl`).
//!
//! Each program runs in a process group of its own, stopped whole with SIGKILL; a process it
//! started that left the group (`setsid`, a daemon's double fork) is found three ways on Linux:
//! - by descent: the processes whose parent chain leads to the program, read from /proc before
//!   the group is stopped;
//! - by its mark: m3go is a child subreaper (`PR_SET_CHILD_SUBREAPER`), so an orphan of the
//!   program becomes m3go's child (not init's), and the environment variable [`MARK_VAR`] set
//!   in the program, which the processes it starts inherit, tells whose it is: the program's
//!   orphans are stopped with it, another program's (a game still running) are not;
//! - a stray (an orphan that cleared its environment) is stopped when no program is running any
//!   more (the end of a match or run), and at the latest when m3go is interrupted.
//!
//! Orphans that end become m3go's zombies: they are reaped by pid (never `waitpid(-1)`, which
//! would take the exit status of a program m3go still waits for), when a program stops and by a
//! thread once a second. Elsewhere than Linux only the process group is stopped.

use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The environment variable set in each program under test, `M3GO_PROGRAM=PID:N` (m3go's
/// process id and the program's start number), that the processes it starts inherit.
pub const MARK_VAR: &str = "M3GO_PROGRAM";

/// How long stopping one program's processes, or reaping them, may go on (a process killed
/// with SIGKILL ends at once unless the machine is loaded or it waits on a device).
const PATIENCE: Duration = Duration::from_secs(2);

/// The pids of the programs under test started and not yet waited for (each the id of its
/// process group): held while a program is started and registered, so that a pid m3go's
/// children list shows outside it is an orphan's, never a program's whose status
/// [`std::process::Child`] will read.
static PROGRAMS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// [`PROGRAMS`], locked.
pub(crate) fn programs() -> MutexGuard<'static, BTreeSet<i32>> {
    PROGRAMS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The mark of the next program started ([`MARK_VAR`]'s value); makes m3go the subreaper of
/// its descendants and starts the reaping thread, the first time.
pub(crate) fn next_mark() -> String {
    static ONCE: std::sync::Once = std::sync::Once::new();
    static STARTED: AtomicU64 = AtomicU64::new(0);
    ONCE.call_once(|| {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let _ = nix::sys::prctl::set_child_subreaper(true);
        let _ = std::thread::Builder::new()
            .name("m3go-reaper".into())
            .spawn(|| loop {
                std::thread::sleep(Duration::from_secs(1));
                reap_orphans(false);
            });
    });
    let n = STARTED.fetch_add(1, Ordering::Relaxed);
    format!("{}:{n}", std::process::id())
}

/// One process as /proc/PID/stat shows it.
struct Proc {
    ppid: i32,
    pgid: i32,
    zombie: bool,
}

fn stat(pid: i32) -> Option<Proc> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses
    let mut f = text.rsplit_once(')')?.1.split_whitespace();
    let zombie = matches!(f.next()?, "Z" | "X");
    let ppid = f.next()?.parse().ok()?;
    let pgid = f.next()?.parse().ok()?;
    Some(Proc { ppid, pgid, zombie })
}

/// Every process /proc shows (none where there is no /proc).
fn table() -> BTreeMap<i32, Proc> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<i32>().ok()?;
            Some((pid, stat(pid)?))
        })
        .collect()
}

/// m3go's children (of every thread of it).
fn children() -> BTreeSet<i32> {
    let mut out = BTreeSet::new();
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    out
}

fn me() -> i32 {
    std::process::id() as i32
}

/// m3go's own process group: a child in it was started by m3go otherwise than as a program
/// under test, and is left alone.
fn own_group() -> i32 {
    nix::unistd::getpgrp().as_raw()
}

/// Whether process `pid`'s environment holds `MARK_VAR=mark`.
fn marked(pid: i32, mark: &str) -> bool {
    let want = format!("{MARK_VAR}={mark}");
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == want.as_bytes()))
}

/// `roots` and their descendants in `t` (by parent chain).
fn descendants(t: &BTreeMap<i32, Proc>, roots: impl IntoIterator<Item = i32>) -> BTreeSet<i32> {
    let mut kids: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    for (pid, p) in t {
        kids.entry(p.ppid).or_default().push(*pid);
    }
    let mut out = BTreeSet::new();
    let mut todo: Vec<i32> = roots.into_iter().collect();
    while let Some(p) = todo.pop() {
        if out.insert(p) {
            todo.extend(kids.get(&p).into_iter().flatten());
        }
    }
    out
}

/// Kills with SIGKILL, round after round until none is left alive (at most [`PATIENCE`]), the
/// processes `pick` chooses from the process table (a process may start another between the
/// table's reading and its killing: the next round finds it); `group`, if any, is killed each
/// round. Returns the processes killed.
fn kill_rounds(
    group: Option<i32>,
    pick: &dyn Fn(&BTreeMap<i32, Proc>) -> BTreeSet<i32>,
) -> BTreeSet<i32> {
    let mut killed = BTreeSet::new();
    let start = Instant::now();
    loop {
        if let Some(g) = group {
            let _ = killpg(Pid::from_raw(g), Signal::SIGKILL);
        }
        let t = table();
        let alive: Vec<i32> = pick(&t)
            .into_iter()
            .filter(|p| t.get(p).is_some_and(|x| !x.zombie))
            .collect();
        if alive.is_empty() || start.elapsed() > PATIENCE {
            return killed;
        }
        for p in alive {
            let _ = kill(Pid::from_raw(p), Signal::SIGKILL);
            killed.insert(p);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Stops program `root` (its process group) and everything it started: its descendants and
/// its orphans (m3go's children that carry its `mark`); reaps the orphans among them. The
/// program itself is left for its [`std::process::Child`] to wait for.
pub(crate) fn end_program(root: i32, mark: &str) {
    let me = me();
    let killed = kill_rounds(Some(root), &|t| {
        let orphans = t
            .iter()
            .filter(|(pid, p)| p.ppid == me && **pid != root && !p.zombie && marked(**pid, mark))
            .map(|(pid, _)| *pid);
        descendants(t, std::iter::once(root).chain(orphans))
    });
    reap(&killed, root, None);
}

/// Reaps `killed` (but `root`) as they become m3go's zombies: a killed process whose parent
/// was killed too becomes m3go's child when that parent ends. `held`: the registry of
/// programs, when the caller holds it (else it is taken for each round).
fn reap(killed: &BTreeSet<i32>, root: i32, held: Option<&BTreeSet<i32>>) {
    let mut pending: BTreeSet<i32> = killed.iter().copied().filter(|p| *p != root).collect();
    let start = Instant::now();
    while !pending.is_empty() && start.elapsed() <= PATIENCE {
        let guard = held.is_none().then(programs);
        let Some(programs) = held.or(guard.as_deref()) else {
            return;
        };
        pending.retain(|&p| {
            if programs.contains(&p) {
                // the pid, freed, is another program's now
                return false;
            }
            match waitpid(Pid::from_raw(p), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => true,
                Ok(_) => false,
                // not m3go's child (yet): awaited while its parent, killed too, is ending
                Err(nix::errno::Errno::ECHILD) => {
                    stat(p).is_some_and(|s| s.ppid == root || killed.contains(&s.ppid))
                }
                Err(_) => false,
            }
        });
        drop(guard);
        if !pending.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Reaps m3go's children that ended and are no program under test (orphans of the programs:
/// m3go's children outside its own process group); with `strays`, when no program is running
/// any more, first kills them and what they started (the orphans whose mark was cleared).
pub(crate) fn reap_orphans(strays: bool) {
    let programs = programs();
    let (me, own) = (me(), own_group());
    let orphan = |pid: i32, p: &Proc| p.ppid == me && p.pgid != own && !programs.contains(&pid);
    if strays && programs.is_empty() {
        // the registry is held: no program starts meanwhile
        let killed = kill_rounds(None, &|t| {
            let orphans = t
                .iter()
                .filter(|(pid, p)| orphan(**pid, p))
                .map(|(pid, _)| *pid);
            descendants(t, orphans)
        });
        reap(&killed, 0, Some(&programs));
    }
    for p in children() {
        if stat(p).is_some_and(|s| s.zombie && orphan(p, &s)) {
            let _ = waitpid(Pid::from_raw(p), Some(WaitPidFlag::WNOHANG));
        }
    }
}

/// Stops every program under test and everything m3go started (Ctrl-C, SIGTERM: m3go ends
/// next): the programs' groups, then every descendant of m3go.
pub(crate) fn end_all() {
    let all: Vec<i32> = programs().iter().copied().collect();
    for g in &all {
        let _ = killpg(Pid::from_raw(*g), Signal::SIGKILL);
    }
    let me = me();
    kill_rounds(None, &|t| {
        let mut d = descendants(t, [me]);
        d.remove(&me);
        d
    });
}
