//! Every read from a player is bounded (issue 49): a GTP answer line, a whole GTP answer
//! (`list_commands` included) and the lines a player writes ahead of what it was asked. Each
//! match runs under an address-space limit (`ulimit -v`), so that a reader that grows without
//! bound fails the test (m3go aborts on a failed allocation) instead of eating the machine; a
//! bad player forfeits `protocol` or `unreadable` with its reason, and the match ends (exit 0)
//! with every player's process stopped (checked with `ps`).

use crate::common::BIN;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The address space m3go and its players may take, in KiB (`ulimit -v`): 1 GiB, far above
/// what a bounded reader holds (a JSON player's backlog is 33 MiB) and far below what an
/// unbounded one reaches in the seconds the tests give it.
const ADDRESS_SPACE_KIB: u64 = 1 << 20;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-bounds-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// Runs `m3go match ARGS` under the address-space limit, writing to `dir`; returns its exit
/// code, its stderr and the results' game lines.
fn limited_match(dir: &Path, args: &[&str]) -> (Option<i32>, String, Vec<Value>) {
    let out = dir.join("games").to_string_lossy().into_owned();
    let results = dir.join("results.jsonl").to_string_lossy().into_owned();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\""))
        .arg(BIN)
        .arg("match")
        .args(args)
        .args(["-o", &out, "--results", &results])
        .output()
        .expect("run m3go match");
    let lines = std::fs::read_to_string(&results)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        // the game lines, after the header line that records the match's selection
        .filter(|v| v["format"] == "m3go-match-game/1")
        .collect();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        lines,
    )
}

/// The processes whose command line names `needle` (`ps -eo args`), but for `ps` itself.
fn processes_naming(needle: &str) -> Vec<String> {
    let o = Command::new("ps")
        .args(["-eo", "pid,args"])
        .output()
        .expect("run ps");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains(needle) && !l.contains("ps -eo"))
        .map(str::to_string)
        .collect()
}

/// Waits (up to a minute, polling) until no process names `needle`; returns those left.
fn gone(needle: &str) -> Vec<String> {
    for _ in 0..600 {
        let left = processes_naming(needle);
        if left.is_empty() {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    processes_naming(needle)
}

/// A GTP player in sh: it answers the setup commands; its `list_commands` answer (mode
/// `endless`) never ends (lines of 60 KB, as fast as `yes` writes them), or its `genmove` answer (mode `long-line`) is one line of 100 KiB.
fn bad_gtp_player(dir: &Path, mode: &str) -> String {
    let script = dir.join(format!("gtp-{mode}.sh"));
    std::fs::write(
        &script,
        r#"mode="$1"
while read -r cmd rest; do
  case "$cmd" in
    protocol_version) printf '= 2\n\n' ;;
    list_commands)
      if [ "$mode" = endless ]; then
        printf '= protocol_version\n'
        yes "play$(head -c 60000 /dev/zero | tr '\0' _)"
      fi
      printf '= protocol_version\nboardsize\nclear_board\nkomi\nplay\ngenmove\n\n' ;;
    genmove)
      printf '= '
      head -c 102400 /dev/zero | tr '\0' A
      printf '\n\n' ;;
    *) printf '=\n\n' ;;
  esac
done
"#,
    )
    .expect("the script");
    format!("bad=gtp:sh {} {mode}", script.to_string_lossy())
}

/// A GTP player whose `list_commands` answer never ends forfeits `protocol` at the answer's
/// bound (1 MiB); one whose answer line is longer than 64 KiB forfeits `unreadable`. The match
/// ends with both games recorded and no player left running. (Before: the endless answer was
/// appended to one string until the start-up deadline, and m3go aborted on a failed
/// allocation; the long line was read whole.)
#[test]
fn a_gtp_answer_is_bounded_line_by_line_and_whole() {
    let dir = scratch("gtp");
    let good = format!("good=gtp:{BIN} player --protocol gtp --seed 5");
    // the endless answer passes its bound (1 MiB) as it is read, or the backlog's
    // (1 MiB and two lines) first when the player writes faster than the referee reads
    let endless = [
        "answer to `list_commands` is longer than 1048576 bytes",
        "more than 1179648 bytes of lines not yet read",
    ];
    let long_line = ["an answer line is longer than 65536 bytes"];
    for (mode, kind, says) in [
        ("endless", "protocol", &endless[..]),
        ("long-line", "unreadable", &long_line[..]),
    ] {
        let sub = dir.join(mode);
        std::fs::create_dir_all(&sub).expect("a folder");
        let bad = bad_gtp_player(&sub, mode);
        let (code, err, lines) = limited_match(
            &sub,
            &[
                "--player",
                &bad,
                "--player",
                &good,
                "--games",
                "2",
                "--size",
                "5",
                "--move-time",
                "20",
            ],
        );
        assert_eq!(code, Some(0), "{mode}: {err}");
        assert_eq!(lines.len(), 2, "{mode}: {err}");
        for l in &lines {
            assert_eq!(l["ending"], "forfeit", "{mode}: {l}");
            assert_eq!(l["winner"], "good", "{mode}: {l}");
            assert_eq!(l["forfeit"]["kind"], kind, "{mode}: {l}");
            let m = l["forfeit"]["message"].as_str().unwrap_or_default();
            assert!(says.iter().any(|s| m.contains(s)), "{mode}: {m}");
        }
        let left = gone(&sub.to_string_lossy());
        assert!(left.is_empty(), "{mode}: still running: {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A JSON player that writes unrequested lines of 1 MiB from its start, while the first
/// player takes ten seconds to start, forfeits `protocol` when it is asked (its backlog
/// passed 33 MiB and its reader stopped); the game is recorded and both players' processes
/// are stopped. (Before: the lines queued without bound and m3go aborted on a failed
/// allocation, the players left running.)
#[test]
fn a_json_player_flooding_unrequested_lines_forfeits_protocol() {
    let dir = scratch("flood");
    let script = dir.join("flood.sh");
    std::fs::write(
        &script,
        "line=\"{\\\"id\\\":\\\"flood\\\",\\\"pad\\\":\\\"$(head -c 1048576 /dev/zero | tr '\\0' a)\\\"}\"\n\
         while :; do printf '%s\\n' \"$line\"; done\n",
    )
    .expect("the script");
    let slow_script = dir.join("slow.sh");
    std::fs::write(
        &slow_script,
        format!("sleep 10\nexec {BIN} player --seed 3\n"),
    )
    .expect("the script");
    let slow = format!("slow=sh {}", slow_script.to_string_lossy());
    let flood = format!("flood=sh {}", script.to_string_lossy());
    let (code, err, lines) = limited_match(
        &dir,
        &[
            "--player",
            &slow,
            "--player",
            &flood,
            "--games",
            "1",
            "--size",
            "5",
            "--move-time",
            "20",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 1, "{err}");
    let l = &lines[0];
    assert_eq!(l["ending"], "forfeit", "{l}");
    assert_eq!(l["winner"], "slow", "{l}");
    assert_eq!(l["forfeit"]["kind"], "protocol", "{l}");
    let m = l["forfeit"]["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("more than 34603008 bytes of lines not yet read"),
        "{m}"
    );
    let left = gone(&dir.to_string_lossy());
    assert!(left.is_empty(), "still running: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
