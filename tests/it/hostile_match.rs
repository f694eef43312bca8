//! A match against hostile players (issue 49): players that leave a child behind in a session
//! of its own (`setsid`) ignoring SIGTERM, that double-fork a daemon (with its environment kept
//! or cleared), whose child holds the output pipe open after they crash, that crash, hang past
//! the clock, write garbage, flood lines or answer illegal moves, each against a baseline
//! player. Checked with /proc (Linux): no process the run started is left once it ends
//! (Ctrl-C / SIGTERM included, and `m3go diff --impl` and `m3go conform --impl` too), none
//! stays a zombie of m3go while it runs, and m3go runs under an address-space limit
//! (`ulimit -v`) with its peak resident memory bounded.

use crate::common::BIN;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-hostile-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// One process as /proc shows it.
struct Proc {
    pid: i32,
    ppid: i32,
    state: char,
}

fn processes() -> Vec<Proc> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<i32>().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // pid (comm) state ppid …; comm may hold spaces, so read after the last ')'
            let rest = stat.rsplit_once(')')?.1;
            let mut f = rest.split_whitespace();
            let state = f.next()?.chars().next()?;
            let ppid = f.next()?.parse().ok()?;
            Some(Proc { pid, ppid, state })
        })
        .collect()
}

/// The living processes a run started: those whose environment holds `tag` (every process
/// m3go starts inherits it) or whose command line holds `sleeper` (the sleep the hostile
/// players leave behind, which may have its environment cleared), with their command lines.
fn started_by(tag: &str, sleeper: &str) -> Vec<(i32, String)> {
    let me = std::process::id() as i32;
    processes()
        .into_iter()
        .filter(|p| p.state != 'Z' && p.pid != me)
        .filter_map(|p| {
            let dir = PathBuf::from(format!("/proc/{}", p.pid));
            let env = std::fs::read(dir.join("environ")).unwrap_or_default();
            let cmd = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            let marked = env.split(|b| *b == 0).any(|v| v == tag.as_bytes());
            (marked || cmd.contains(sleeper)).then_some((p.pid, cmd))
        })
        .collect()
}

/// Waits (up to 20 s: SIGKILL is delivered at once, but a loaded machine may take a moment to
/// schedule the killed processes) until no process started by the run is left; returns those
/// still there, after killing them so that a failing run leaves nothing behind.
fn left_behind(tag: &str, sleeper: &str) -> Vec<(i32, String)> {
    let t = Instant::now();
    loop {
        let left = started_by(tag, sleeper);
        if left.is_empty() || t.elapsed() > Duration::from_secs(20) {
            for (pid, _) in &left {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            return left;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The hostile player: `python3 hostile.py MODE SLEEPER M3GO [player|protocol]`.
fn hostile_script(dir: &Path) -> PathBuf {
    let script = dir.join("hostile.py");
    std::fs::write(
        &script,
        r#"import json, os, signal, sys, time
mode, sleeper, m3go = sys.argv[1], sys.argv[2], sys.argv[3]
# what it becomes once its child is left behind: a baseline player or `m3go protocol`
then = sys.argv[4] if len(sys.argv) > 4 else "player"

def leave_behind(double=False, keep_stdout=False, clear_env=False):
    """A child in a session of its own, ignoring SIGTERM and SIGHUP, that sleeps long; with
    `double` the child forks it and exits at once (a daemon: its parent is gone)."""
    pid = os.fork()
    if pid != 0:
        if double:
            os.waitpid(pid, 0)
        return
    os.setsid()
    if double and os.fork() != 0:
        os._exit(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    if not keep_stdout:
        os.dup2(null, 1)
    os.execve("/bin/sh", ["sh", "-c", "exec sleep " + sleeper], {} if clear_env else os.environ)

def play():
    if then == "protocol":
        os.execv(m3go, [m3go, "protocol"])
    os.execv(m3go, [m3go, "player", "--strategy", "random", "--seed", "9"])

if mode == "setsid":
    leave_behind()
    play()
if mode == "double-fork":
    leave_behind(double=True)
    play()
if mode == "env-cleared":
    leave_behind(double=True, clear_env=True)
    play()
if mode == "pipe-held":
    leave_behind(keep_stdout=True)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    req = json.loads(line)
    if req.get("action") == "capabilities":
        ans = {"id": req["id"], "protocols": ["m3go-player/1"],
               "implementation": {"name": "hostile", "version": "0"},
               "capabilities": {"presets": ["m3go-2020"]}}
    else:
        if mode in ("crash", "pipe-held"):
            sys.exit(3)
        if mode == "hang":
            while True:
                time.sleep(1)
        if mode == "garbage":
            print("this is not JSON", flush=True)
            continue
        if mode == "flood":
            # 2 MB of answers to no request, then silence (blocked on the full pipe)
            for _ in range(20000):
                sys.stdout.write('{"id": "flood", "move": "pass", "pad": "' + "x" * 60 + '"}\n')
            sys.stdout.flush()
            while True:
                time.sleep(1)
        # illegal: the opponent's last stone's point, occupied
        moves = [m for m in req["moves"] if not m.endswith("pass")]
        ans = {"id": req["id"], "move": moves[-1].split(".")[1] if moves else "pass"}
    print(json.dumps(ans, ensure_ascii=False), flush=True)
"#,
    )
    .expect("the script");
    script
}

/// The hostile kinds and the forfeit each must cost (`None`: the player plays its games out,
/// its child left behind; a list: the kinds of forfeit it may cost).
const KINDS: [(&str, &[&str]); 9] = [
    ("setsid", &[]),
    ("double-fork", &[]),
    ("env-cleared", &[]),
    ("pipe-held", &["crash", "timeout"]),
    ("crash", &["crash"]),
    ("hang", &["timeout"]),
    ("garbage", &["unreadable"]),
    ("flood", &["protocol"]),
    ("illegal", &["illegal"]),
];

/// The address-space limit m3go runs under, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 2 << 20;

/// The bound on m3go's peak resident memory (VmHWM) in the match, in KiB.
const PEAK_RSS_KIB: u64 = 256 << 10;

/// How long a zombie child of m3go may last: m3go reaps the orphans it kills as it kills them,
/// and the others within a second; the match lasts well beyond it (the hanging players' games
/// take their whole --move-time of 5 s), so that orphans left unreaped until m3go ends fail.
const ZOMBIE_LIMIT: Duration = Duration::from_secs(5);

/// Starts `m3go ARGS` under the address-space limit, with `tag` in its environment, standard
/// output and error into files of `dir`.
fn start_limited(dir: &Path, tag: &str, args: &[&str]) -> Child {
    let (k, v) = tag.split_once('=').expect("NAME=VALUE");
    let out = std::fs::File::create(dir.join("stdout")).expect("a file");
    let err = std::fs::File::create(dir.join("stderr")).expect("a file");
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(BIN)
        .args(args)
        .env(k, v)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("m3go started")
}

/// What was seen of m3go while it ran: the zombies among its children that stayed zombies
/// longer than [`ZOMBIE_LIMIT`] (not reaped), and its peak resident memory.
#[derive(Default)]
struct Watched {
    lasting_zombies: Vec<i32>,
    peak_rss_kib: u64,
}

/// Watches m3go (`child`) until it exits (at most `limit`, then it is killed and the test
/// fails), sampling its zombie children and its VmHWM every 100 ms; returns its exit code.
fn watch(child: &mut Child, limit: Duration, seen: &mut Watched) -> Option<i32> {
    let pid = child.id() as i32;
    let t = Instant::now();
    let mut zombie_since: BTreeMap<i32, Instant> = BTreeMap::new();
    loop {
        if let Some(status) = child.try_wait().expect("wait for m3go") {
            return status.code();
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("m3go did not end within {limit:?}");
        }
        let now = Instant::now();
        let zombies: Vec<i32> = processes()
            .into_iter()
            .filter(|p| p.ppid == pid && p.state == 'Z')
            .map(|p| p.pid)
            .collect();
        zombie_since.retain(|z, _| zombies.contains(z));
        for z in zombies {
            let since = *zombie_since.entry(z).or_insert(now);
            if now.duration_since(since) > ZOMBIE_LIMIT && !seen.lasting_zombies.contains(&z) {
                seen.lasting_zombies.push(z);
            }
        }
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        if let Some(kib) = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            seen.peak_rss_kib = seen.peak_rss_kib.max(kib);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// 20 games at concurrency 8, a baseline player (first, a gauntlet) against a second baseline
/// and each hostile kind, two games each: the misbehaving players forfeit with their reason,
/// the baseline never does (sweeping one game's processes stops none of another game's), no
/// process the match started is left when it ends, none stays a zombie while it runs, and
/// m3go keeps within its memory bounds.
#[test]
fn a_hostile_match_leaves_no_process_and_no_zombie_within_bounded_memory() {
    let dir = scratch("match");
    let script = hostile_script(&dir);
    let sleeper = format!("{}{}", 7_000_000, std::process::id());
    let tag = format!("M3GO_HOSTILE_TEST=match-{}", std::process::id());
    let mut players = vec![
        format!("base={BIN} player --strategy random --seed 1"),
        format!("greedy={BIN} player --strategy greedy --seed 2"),
    ];
    for (kind, _) in KINDS {
        players.push(format!(
            "{kind}=python3 '{}' {kind} {sleeper} '{BIN}'",
            script.display()
        ));
    }
    let (games, results) = (dir.join("games"), dir.join("results.jsonl"));
    let (games, results) = (games.to_string_lossy(), results.to_string_lossy());
    let mut args = vec!["match", "--gauntlet"];
    for p in &players {
        args.extend(["--player", p.as_str()]);
    }
    args.extend([
        "--games",
        "2",
        "--size",
        "5",
        "--seed",
        "1",
        "--concurrency",
        "8",
        "--move-time",
        "5",
        "-o",
        &games,
        "--results",
        &results,
    ]);
    let mut child = start_limited(&dir, &tag, &args);
    let mut seen = Watched::default();
    let code = watch(&mut child, Duration::from_secs(300), &mut seen);
    let left = left_behind(&tag, &sleeper);
    let stderr = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(left.is_empty(), "processes left behind: {left:?}");
    assert!(
        seen.lasting_zombies.is_empty(),
        "zombies of m3go not reaped for {ZOMBIE_LIMIT:?}: {:?}",
        seen.lasting_zombies
    );
    assert!(
        seen.peak_rss_kib > 0 && seen.peak_rss_kib < PEAK_RSS_KIB,
        "peak RSS {} KiB",
        seen.peak_rss_kib
    );
    let text = std::fs::read_to_string(dir.join("results.jsonl")).expect("the results file");
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    // the header line first (the match's selection), then a line per game
    assert_eq!(
        lines.first().map(|h| &h["format"]),
        Some(&Value::from("m3go-match-results/1")),
        "{text}"
    );
    lines.remove(0);
    assert_eq!(lines.len(), 20, "{text}");
    let mut per_opponent: BTreeMap<String, usize> = BTreeMap::new();
    for l in &lines {
        let opponent = if l["black"] == "base" {
            &l["white"]
        } else {
            &l["black"]
        };
        let opponent = opponent.as_str().expect("a name").to_string();
        *per_opponent.entry(opponent.clone()).or_default() += 1;
        let forfeit = &l["forfeit"];
        assert_ne!(forfeit["player"], "base", "{l}");
        match KINDS.iter().find(|(k, _)| *k == opponent) {
            Some((_, kinds)) if !kinds.is_empty() => {
                assert_eq!(forfeit["player"], opponent.as_str(), "{l}");
                let kind = forfeit["kind"].as_str().unwrap_or_default();
                assert!(kinds.contains(&kind), "{opponent}: {l}");
            }
            // the baseline and the players that leave a child behind play their games out
            _ => assert!(forfeit.is_null(), "{l}"),
        }
    }
    assert_eq!(per_opponent.len(), 10, "{per_opponent:?}");
    assert!(per_opponent.values().all(|n| *n == 2), "{per_opponent:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM to m3go in the middle of a match (its handler, as for Ctrl-C) ends the players'
/// children that left their process groups too, the daemon's included, and m3go exits 130.
#[test]
fn sigterm_in_a_match_ends_the_children_that_left_the_group() {
    let dir = scratch("sigterm");
    let script = hostile_script(&dir);
    let sleeper = format!("{}{}", 7_100_000, std::process::id());
    let tag = format!("M3GO_HOSTILE_TEST=sigterm-{}", std::process::id());
    let player = |kind: &str| {
        format!(
            "{kind}=python3 '{}' {kind} {sleeper} '{BIN}'",
            script.display()
        )
    };
    // the hanging player moves first in the first game: the match waits for it (60 s)
    let (hang, setsid, double) = (player("hang"), player("setsid"), player("double-fork"));
    let games = dir.join("games").to_string_lossy().into_owned();
    let args = [
        "match",
        "--gauntlet",
        "--player",
        &hang,
        "--player",
        &setsid,
        "--player",
        &double,
        "--games",
        "2",
        "--size",
        "5",
        "--concurrency",
        "2",
        "--move-time",
        "60",
        "-o",
        &games,
    ];
    let mut child = start_limited(&dir, &tag, &args);
    let t = Instant::now();
    // both sleepers left behind (each in a session of its own, one a daemon)
    let sleepers = || {
        let all = started_by(&tag, &sleeper);
        // the sleeps themselves (m3go's and the players' command lines hold the number too)
        let sleep = format!("sleep {sleeper}");
        all.iter().filter(|(_, c)| c.starts_with(&sleep)).count()
    };
    while sleepers() < 2 {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "no sleepers: {:?}",
            started_by(&tag, &sleeper)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let pid = child.id().to_string();
    let sent = Command::new("kill").args(["-TERM", &pid]).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill -TERM {pid}");
    let code = watch(&mut child, Duration::from_secs(60), &mut Watched::default());
    let left = left_behind(&tag, &sleeper);
    let stderr = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    assert_eq!(code, Some(130), "{stderr}");
    assert!(left.is_empty(), "processes left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `m3go diff --impl` and `m3go conform --impl` (several programs at once, `--jobs 2`) drive
/// their programs as `match` does: a program's children that left its group, a daemon and a
/// daemon with its environment cleared, end with the run.
#[test]
fn diff_and_conform_programs_leave_no_process() {
    let dir = scratch("impl");
    let script = hostile_script(&dir);
    for (k, kind) in ["setsid", "double-fork", "env-cleared"].iter().enumerate() {
        let sleeper = format!("{}{}{k}", 7_200_000, std::process::id());
        let tag = format!("M3GO_HOSTILE_TEST=impl-{}-{k}", std::process::id());
        let imp = format!(
            "python3 '{}' {kind} {sleeper} '{BIN}' protocol",
            script.display()
        );
        let runs: [&[&str]; 2] = [
            &["diff", "--impl", &imp, "--games", "2", "--size", "5"],
            &["conform", "--impl", &imp, "--jobs", "2", "--shard", "1/40"],
        ];
        for args in runs {
            let mut child = start_limited(&dir, &tag, args);
            let code = watch(
                &mut child,
                Duration::from_secs(300),
                &mut Watched::default(),
            );
            let left = left_behind(&tag, &sleeper);
            let stderr = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
            assert_eq!(code, Some(0), "{args:?}: {stderr}");
            assert!(left.is_empty(), "{args:?}: processes left behind: {left:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
