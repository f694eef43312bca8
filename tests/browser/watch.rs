//! The live view of a match (`m3go match … --serve`, /watch) in the browser: a 4-game match of
//! the baseline players on 5×5 watched from its first game to its end. While it runs, a game's
//! board is seen growing move by move; at the end every board drawn is the final position its
//! SGF replays to, every row's result is its `--results` line's, the results table is the one
//! the command prints, and a finished game's record opens in the adjudication page at its last
//! move. A screenshot of the end (watch-match.png) is kept under target/browser/.

use super::{artifacts, js, share, start_driver, wait_until, Checks, Client, Kill};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> std::ffi::OsString {
    std::env::var_os("M3GO_BROWSER_BIN")
        .unwrap_or_else(|| std::ffi::OsString::from(env!("CARGO_BIN_EXE_m3go")))
}

/// The final position's diagram of a record, as `m3go replay --format json` gives it, its rows
/// trimmed.
fn replayed_board(sgf: &str) -> String {
    let out = Command::new(bin())
        .args(["replay", sgf, "--format", "json"])
        .output()
        .expect("m3go replay");
    let v: Value = serde_json::from_slice(&out.stdout).expect("the replay's JSON");
    let d = v["position"]["diagram"].as_str().unwrap_or_default();
    d.lines().map(str::trim).collect::<Vec<_>>().join("\n")
}

/// The board drawn for game `n`, read back from its stones (`data-at`, `st-X|O|G`) as a
/// diagram of `size` rows.
const DRAWN: &str = "const [n, size] = arguments; \
    const f = document.querySelector('#boards figure[data-game=\"' + n + '\"]'); \
    if (!f) return null; \
    const rows = Array.from({length: size}, () => Array(size).fill('.')); \
    for (const s of f.querySelectorAll('circle.stone')) { \
      const [r, c] = s.dataset.at.split(' ').map(Number); \
      const k = s.classList.contains('st-X') ? 'X' : s.classList.contains('st-O') ? 'O' : '#'; \
      rows[r][c] = k; } \
    return rows.map((r) => r.join(' ')).join('\\n');";

/// Starts `m3go match` between `players`, `games` per pairing on 5×5, its records in
/// DIR/games-N and its results in `results`, watched (`--serve`); returns the live view's URL
/// (from stderr, drained on a thread) and its stdout. The child is killed with `kill`.
fn start_match(
    kill: &mut Kill,
    dir: &Path,
    players: &[&str],
    games: &str,
    results: &Path,
) -> (String, BufReader<std::process::ChildStdout>) {
    let mut cmd = Command::new(bin());
    cmd.arg("match");
    for p in players {
        cmd.args(["--player", p]);
    }
    let mut child = cmd
        .args(["--games", games, "--size", "5", "--move-time", "10"])
        .arg("-o")
        .arg(dir.join(format!("games-{}", kill.0.len())))
        .arg("--results")
        .arg(results)
        .arg("--serve")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start m3go match");
    let stderr = child.stderr.take().expect("stderr");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    kill.0.push(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                let _ = tx.send(url.to_string());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the live view's URL on stderr");
    (url, stdout)
}

/// A match with a player that plays an illegal move (on the opponent's last stone) every game:
/// each forfeit is shown under its board with the kind and the clause, as --results has them.
fn forfeits_shown(c: &Client, ck: &mut Checks, kill: &mut Kill, dir: &Path) {
    // the player of tests/players/occupied.py
    let bad = format!(
        "bad=python3 {}/tests/players/occupied.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let good = format!("good={} player --seed 3", bin().to_string_lossy());
    let results = dir.join("forfeits.jsonl");
    let (url, _stdout) = start_match(kill, dir, &[&bad, &good], "2", &results);
    c.goto(&url).expect("load the watch page");
    let over = wait_until(c, "document.body.dataset.over === '1'", 120);
    ck.that("the match with forfeits is watched to its end", over);
    let text = std::fs::read_to_string(&results).unwrap_or_default();
    for l in text
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let n = l["game"].as_u64().unwrap_or(0);
        let clause = l["forfeit"]["clause"].as_str().unwrap_or("(none)");
        let shown = js(
            c,
            &format!(
                "document.querySelector('#boards figure[data-game=\"{n}\"] .forfeit').textContent"
            ),
        );
        let expected = format!(
            "bad forfeits at move {} (illegal, {clause}): ",
            l["forfeit"]["move_number"]
        );
        ck.that(
            &format!("game {n}'s forfeit shown with its clause: {shown} (expected {expected}…)"),
            shown.as_str().is_some_and(|s| s.starts_with(&expected)),
        );
    }
}

pub fn watch_match(chromium: PathBuf, driver: PathBuf) {
    let dir = std::env::temp_dir().join(format!("m3go-browser-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let (driver_child, port) = start_driver(&driver);
    let mut kill = Kill(vec![driver_child]);
    let profile = dir.join("profile");
    let c = share::fresh_session(port, &chromium, &profile, "1400,1000");
    // the session first, so that the page is open before the first game ends
    let exe = bin().to_string_lossy().into_owned();
    let a = format!("a={exe} player --strategy mcts --playouts 300 --seed 1");
    let b = format!("b={exe} player --strategy random --seed 2");
    let results = dir.join("results.jsonl");
    let (url, mut stdout) = start_match(&mut kill, &dir, &[&a, &b], "4", &results);
    c.goto(&url).expect("load the watch page");
    let mut ck = Checks::default();
    // watched to the end: the boards of the games playing sampled as they change
    let mut seen: BTreeMap<String, BTreeSet<u64>> = BTreeMap::new();
    let until = Instant::now() + Duration::from_secs(300);
    while js(&c, "document.body.dataset.over === '1'") != true {
        assert!(Instant::now() < until, "the match did not end within 300 s");
        let playing = js(
            &c,
            "[...document.querySelectorAll('#boards figure[data-state=\"playing\"]')]\
             .map((f) => [f.dataset.game, f.querySelectorAll('circle.stone').length])",
        );
        for p in playing.as_array().into_iter().flatten() {
            let game = p[0].as_str().unwrap_or_default().to_string();
            seen.entry(game)
                .or_default()
                .insert(p[1].as_u64().unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    ck.that(
        &format!("a game's board seen growing move by move while it was played: {seen:?}"),
        seen.values().any(|stones| stones.len() >= 3),
    );
    // the end, against the records and --results
    let text = std::fs::read_to_string(&results).expect("--results");
    let lines: Vec<Value> = text
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    ck.that(&format!("4 games in --results: {text}"), lines.len() == 4);
    for l in &lines {
        let n = l["game"].as_u64().unwrap_or(0);
        let sgf = l["sgf"].as_str().unwrap_or_default();
        let drawn = c
            .execute(DRAWN, vec![Value::from(n), Value::from(5)])
            .unwrap_or(Value::Null);
        ck.that_eq(
            &format!("game {n}'s last board drawn is its SGF's final position"),
            &drawn,
            &Value::from(replayed_board(sgf)),
        );
        let row = js(
            &c,
            &format!(
                "[...document.querySelectorAll('#games tr[data-game=\"{n}\"] td')].map((t) => t.textContent)"
            ),
        );
        ck.that_eq(
            &format!("game {n}'s result in the list"),
            &row[5],
            &l["result"],
        );
        ck.that_eq(
            &format!("game {n}'s state in the list"),
            &row[3],
            &Value::from(format!(
                "finished ({})",
                l["ending"].as_str().unwrap_or_default()
            )),
        );
        ck.that_eq(
            &format!("game {n}'s moves in the list"),
            &row[4],
            &Value::from(l["moves"].to_string()),
        );
    }
    // the table the command printed, line for line
    let mut printed = Vec::new();
    let mut line = String::new();
    while printed.is_empty() && stdout.read_line(&mut line).unwrap_or(0) > 0 {
        if line.contains(" vs ") {
            printed.push(Value::from(line.trim_end()));
        }
        line.clear();
    }
    let shown = js(
        &c,
        "[...document.querySelectorAll('#table-lines li')].map((l) => l.textContent)",
    );
    ck.that_eq(
        "the results table is the one printed",
        &shown,
        &Value::from(printed),
    );
    ck.that(
        "the status says the match is over",
        js(&c, "document.getElementById('status').textContent.startsWith('the match is over · 4 of 4 games finished')"),
    );
    // the stones drawn as stones: a white one light with a thin edge (a default stroke of one
    // point once drew every white and grey stone as a dark disc)
    ck.that(
        "a white stone is drawn light, its edge thin",
        js(
            &c,
            "(() => { const s = document.querySelector('#boards circle.st-O'); if (!s) return false; \
             const st = getComputedStyle(s); return parseFloat(st.strokeWidth) < 0.1 && st.fill === 'rgb(250, 250, 250)'; })()",
        ),
    );
    c.screenshot()
        .map(|png| std::fs::write(artifacts().join("watch-match.png"), png))
        .expect("screenshot")
        .expect("write screenshot");
    // a finished game opens as a record in the adjudication page, at its last move
    let moves = lines
        .first()
        .map_or(0, |l| l["moves"].as_u64().unwrap_or(0));
    c.find("#games tr[data-game='1'] a.open")
        .and_then(|a| a.click())
        .expect("click game 1's record");
    ck.that(
        &format!("game 1's record opens in the page at its last move ({moves})"),
        wait_until(
            &c,
            &format!(
                "document.body.dataset.ready === '1' && location.hash.includes('record=game-001.sgf') && document.getElementById('record-status').textContent.startsWith('move {moves} of {moves}')"
            ),
            60,
        ),
    );
    forfeits_shown(&c, &mut ck, &mut kill, &dir);
    c.close().expect("close the session");
    drop(kill);
    let _ = std::fs::remove_dir_all(&dir);
    ck.done();
}
