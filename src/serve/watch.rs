//! The live view of a match (`m3go match … --serve`): what the match reports as it runs (its
//! games, each with its state and its board after every move, the forfeits, the results table)
//! kept in one [`Live`] value, and the two requests the watch page (`/watch`) makes of it:
//!
//! - `GET /api/watch?since=V`: long polling. The answer holds the match, its table and every
//!   game changed after version `V` (at most [`PAGE`] of them, the oldest change first, `more`
//!   when others wait), and the version to ask from next. When nothing changed after `V` the
//!   answer waits up to [`WAIT`] for a change. Nothing is kept per watcher: a watcher that never
//!   reads holds one connection (the server's cap counts it) and one answer of bounded size,
//!   which the write deadline drops.
//! - `GET /api/watch-record?game=N`: a finished game's SGF as the match wrote it.
//!
//! This module knows nothing of the referee: the command (`crate::cli`) turns the referee's
//! reports into [`Live`]'s updates.

use super::Reply;
use serde::Serialize;
use std::sync::Mutex;
use std::time::Duration;

/// The most games one answer holds: the rest come with the next request (`more`).
pub const PAGE: usize = 64;

/// The longest an answer waits for a change.
pub const WAIT: Duration = Duration::from_secs(20);

/// The largest record `watch-record` sends (the server's limit of a request: the page sends it
/// back to be loaded).
const MAX_RECORD: u64 = super::MAX_BODY as u64;

/// A game as the watch page shows it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LiveGame {
    /// Its number in the match (from 1).
    pub game: usize,
    pub black: String,
    pub white: String,
    pub state: GameState,
    /// The moves recorded (an opening's included).
    pub moves: usize,
    /// The last move recorded, in the move-number notation (`黑12.三四`).
    pub last: Option<String>,
    /// Who plays next (the stone's symbol and its kind: `华 black's flower`).
    pub to_play: Option<String>,
    /// The direct board (`.`, `X`, `O`, `#` rows, top row first), as a position file writes it.
    pub board: Option<String>,
    /// SGF's RE (`B+12.5`, `W+F`) once finished.
    pub result: Option<String>,
    /// How it ended: `score`, `move-limit`, `resign`, `forfeit`.
    pub ending: Option<String>,
    /// A forfeit: who, at which move, its kind and clause, and the referee's message.
    pub forfeit: Option<String>,
    /// The record's file name in the match's folder (`game-001.sgf`), once written.
    pub record: Option<String>,
    /// Why the game was not played to its end (the referee's own failure).
    pub error: Option<String>,
    /// The version of its last change.
    #[serde(skip)]
    changed: u64,
}

/// Where a game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameState {
    /// Not started yet.
    #[default]
    Waiting,
    Playing,
    Finished,
    /// The referee failed on it (no record).
    Failed,
    /// Not played: the match stopped before it (the SPRT decided, or a failure).
    NotPlayed,
}

/// The match as it stands.
#[derive(Debug, Default)]
struct Standing {
    version: u64,
    /// The match in words (players, rules, board, games).
    title: String,
    games: Vec<LiveGame>,
    /// The results table, a line per pairing (as the command prints it).
    table: Vec<String>,
    /// Set when the match is over: what the command printed last (the SPRT's verdict, the
    /// error).
    over: Option<String>,
}

/// A match watched: its standing, behind a lock held only to read or change it, and the version
/// every waiting answer waits on.
#[derive(Debug)]
pub struct Live {
    standing: Mutex<Standing>,
    changed: tokio::sync::watch::Sender<u64>,
    /// The folder the records are written to.
    folder: std::path::PathBuf,
}

impl Live {
    /// A match titled `title`, its records written to `folder`, its games (number, black,
    /// white) waiting.
    pub fn new(
        title: String,
        folder: std::path::PathBuf,
        games: impl IntoIterator<Item = (usize, String, String)>,
    ) -> Live {
        let games = games
            .into_iter()
            .map(|(game, black, white)| LiveGame {
                game,
                black,
                white,
                ..LiveGame::default()
            })
            .collect();
        Live {
            standing: Mutex::new(Standing {
                title,
                games,
                ..Standing::default()
            }),
            changed: tokio::sync::watch::channel(0).0,
            folder,
        }
    }

    /// Changes the standing under the lock, with the version the change takes, and wakes the
    /// waiting answers.
    fn change(&self, f: impl FnOnce(&mut Standing, u64)) {
        let version = {
            let mut s = self.standing.lock().unwrap_or_else(|e| e.into_inner());
            s.version += 1;
            let v = s.version;
            f(&mut s, v);
            v
        };
        self.changed.send_replace(version);
    }

    /// Changes game `number` (nothing when the match has no such game).
    pub fn game(&self, number: usize, f: impl FnOnce(&mut LiveGame)) {
        self.change(|s, v| {
            if let Some(g) = s.games.iter_mut().find(|g| g.game == number) {
                f(g);
                g.changed = v;
            }
        });
    }

    /// The results table as it now stands.
    pub fn table(&self, lines: Vec<String>) {
        self.change(|s, _| s.table = lines);
    }

    /// The match is over (`note`: what ended it); the games not started are marked not played.
    pub fn over(&self, note: String) {
        self.change(|s, v| {
            for g in s.games.iter_mut() {
                if g.state == GameState::Waiting {
                    g.state = GameState::NotPlayed;
                    g.changed = v;
                }
            }
            s.over = Some(note);
        });
    }

    /// The answer to `since`: the games changed after it (at most [`PAGE`], the oldest change
    /// first) and the version to ask from next. A `since` past the standing's version (a
    /// watcher of an earlier run of the server) is answered as 0: everything.
    pub fn answer(&self, since: u64) -> serde_json::Value {
        let s = self.standing.lock().unwrap_or_else(|e| e.into_inner());
        let since = if since > s.version { 0 } else { since };
        let mut changed: Vec<&LiveGame> = s.games.iter().filter(|g| g.changed > since).collect();
        changed.sort_by_key(|g| g.changed);
        let more = changed.len() > PAGE;
        changed.truncate(PAGE);
        let version = if more {
            changed.last().map_or(s.version, |g| g.changed)
        } else {
            s.version
        };
        serde_json::json!({
            "format": "m3go-watch/1",
            "version": version,
            "more": more,
            "title": s.title,
            "count": s.games.len(),
            "table": s.table,
            "over": s.over,
            "games": changed,
        })
    }

    /// The answer to `since` once there is one: at once when something changed after it, else
    /// after the next change or [`WAIT`].
    async fn answer_when_changed(&self, since: u64) -> serde_json::Value {
        let mut rx = self.changed.subscribe();
        // `since` past the version: answered at once, as 0 (`answer`)
        if *rx.borrow_and_update() == since {
            let _ = tokio::time::timeout(WAIT, rx.changed()).await;
        }
        self.answer(since)
    }

    /// The path of game `number`'s record, once it is written.
    fn record(&self, number: usize) -> Option<std::path::PathBuf> {
        let s = self.standing.lock().unwrap_or_else(|e| e.into_inner());
        let g = s.games.iter().find(|g| g.game == number)?;
        g.record.as_ref().map(|r| self.folder.join(r))
    }
}

/// The answer to a request of the live view (`/api/watch`, `/api/watch-record`), or `None` for
/// another path. `live`: the match the server watches, if any.
pub(crate) async fn route(
    live: Option<&std::sync::Arc<Live>>,
    method: &str,
    path: &str,
    query: Option<&str>,
) -> Option<Reply> {
    if path != "/api/watch" && path != "/api/watch-record" {
        return None;
    }
    if method != "GET" {
        return Some(Reply::error(
            405,
            &format!("{path}: expected GET, not {method}"),
        ));
    }
    let Some(live) = live else {
        return Some(Reply::error(
            404,
            &format!(
                "{path}: this server watches no match: `m3go match … --serve` serves a match's \
                 live view"
            ),
        ));
    };
    let param = |name: &str| -> Result<u64, Reply> {
        let value = query
            .unwrap_or("")
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .unwrap_or("");
        value.parse().map_err(|_| {
            Reply::error(
                400,
                &format!(
                    "{path}: `{name}={}`: expected a whole number{}",
                    m3go_engine::InputError::quote(&value.chars().take(40).collect::<String>()),
                    if name == "since" {
                        " (0, or the `version` of the last answer)"
                    } else {
                        " (a game of the match)"
                    }
                ),
            )
        })
    };
    if path == "/api/watch" {
        return Some(match param("since") {
            Ok(since) => json_reply(&live.answer_when_changed(since).await),
            Err(r) => r,
        });
    }
    let game = match param("game") {
        Ok(g) => g,
        Err(r) => return Some(r),
    };
    let Some(file) = usize::try_from(game).ok().and_then(|n| live.record(n)) else {
        return Some(Reply::error(
            404,
            &format!("{path}: game {game} has no record yet: expected a finished game"),
        ));
    };
    let read = tokio::task::spawn_blocking(move || read_record(&file)).await;
    Some(match read {
        Ok(Ok(text)) => Reply {
            status: 200,
            content_type: "application/x-go-sgf; charset=utf-8",
            body: text,
            retry_after: None,
        },
        Ok(Err(message)) => Reply::error(500, &format!("{path}: game {game}: {message}")),
        Err(_) => Reply::error(500, "internal error: the record could not be read"),
    })
}

/// A record file, at most [`MAX_RECORD`] bytes.
fn read_record(file: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f =
        std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut text = Vec::new();
    f.take(MAX_RECORD + 1)
        .read_to_end(&mut text)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    if text.len() as u64 > MAX_RECORD {
        return Err(format!(
            "{} is over {} KiB: expected a record the page can load",
            file.display(),
            MAX_RECORD / 1024
        ));
    }
    Ok(text)
}

fn json_reply(v: &serde_json::Value) -> Reply {
    Reply {
        status: 200,
        content_type: "application/json; charset=utf-8",
        body: v.to_string().into_bytes(),
        retry_after: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(games: usize) -> Live {
        Live::new(
            "a vs b".into(),
            std::path::PathBuf::from("."),
            (1..=games).map(|n| (n, "a".to_string(), "b".to_string())),
        )
    }

    /// More changed games than an answer holds: the first answer holds [`PAGE`] of them, the
    /// oldest change first, says `more`, and its version brings the rest next; a game changed
    /// twice comes once, with its last change.
    #[test]
    fn answers_page_the_changed_games_oldest_first() {
        let l = live(PAGE + 10);
        for n in 1..=PAGE + 10 {
            l.game(n, |g| g.moves = 1);
        }
        l.game(1, |g| g.moves = 2);
        let first = l.answer(0);
        assert_eq!(first["more"], true);
        let games = first["games"].as_array().map_or(0, Vec::len);
        assert_eq!(games, PAGE);
        assert_eq!(first["games"][0]["game"], 2);
        let next = first["version"].as_u64().unwrap_or(0);
        let rest = l.answer(next);
        assert_eq!(rest["more"], false);
        let numbers: Vec<u64> = rest["games"]
            .as_array()
            .map(|g| g.iter().filter_map(|g| g["game"].as_u64()).collect())
            .unwrap_or_default();
        let expected: Vec<u64> = (PAGE as u64 + 2..=PAGE as u64 + 10).chain([1]).collect();
        assert_eq!(numbers, expected);
        assert_eq!(rest["games"][9]["moves"], 2);
        // nothing after the last version; a version past it (another run) is everything
        let version = rest["version"].as_u64().unwrap_or(0);
        assert_eq!(l.answer(version)["games"].as_array().map(Vec::len), Some(0));
        assert_eq!(l.answer(version + 5)["more"], true);
    }

    /// The end: the games not started are marked not played, and the note is kept.
    #[test]
    fn the_end_marks_the_games_not_started() {
        let l = live(3);
        l.game(1, |g| g.state = GameState::Finished);
        l.over("the SPRT decided".into());
        let a = l.answer(0);
        assert_eq!(a["over"], "the SPRT decided");
        let states: Vec<&str> = a["games"]
            .as_array()
            .map(|g| g.iter().filter_map(|g| g["state"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(states, ["finished", "not-played", "not-played"]);
    }
}
