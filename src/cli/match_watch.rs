//! `m3go match … --serve [ADDR]`: the match watched live on the page (`/watch`). The server of
//! `m3go serve` runs beside the match with a [`Live`] standing, which the referee's reports
//! ([`GameWatcher`]: each game's position after every move) and the match's own (a game
//! finished and recorded, the table, the end) keep up to date.

use crate::conform::play_protocol::{ForfeitField, GameLine};
use crate::referee::game::{GameSpec, GameWatcher, Played};
use crate::referee::stats::Pairing;
use crate::referee::MatchSpec;
use crate::serve::watch::{GameState, Live};
use m3go_engine::formats::record::RecordMove;
use m3go_engine::{InputError, Position};
use std::sync::Arc;

/// `--serve`'s address: a host and a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeAddr {
    pub host: String,
    pub port: u16,
}

/// The address `--serve` takes when given without one: this machine, any free port.
pub(crate) const DEFAULT_ADDR: &str = "127.0.0.1:0";

/// Why a `--serve` address does not read; holds the value given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddrError(String);

impl std::fmt::Display for AddrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}`: expected HOST:PORT (`127.0.0.1:8080`, `[::1]:0`) or a PORT (0 to 65535; 0: \
             any free port)",
            InputError::quote(&self.0)
        )
    }
}

impl std::error::Error for AddrError {}

impl ServeAddr {
    /// Reads `HOST:PORT`, `[IPV6]:PORT` or a bare `PORT` (on 127.0.0.1).
    pub fn parse(v: &str) -> Result<ServeAddr, AddrError> {
        let bad = || AddrError(v.to_string());
        let (host, port) = match v.rsplit_once(':') {
            Some((h, p)) => (h.trim_start_matches('[').trim_end_matches(']'), p),
            None => ("127.0.0.1", v),
        };
        if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad());
        }
        let port = port.parse().map_err(|_| bad())?;
        Ok(ServeAddr {
            host: host.to_string(),
            port,
        })
    }
}

/// The server of a match watched, and its standing.
pub(crate) struct Watch {
    pub live: Arc<Live>,
    url: String,
    server: crate::serve::Server,
}

impl Watch {
    /// Binds `addr` and answers the page and the live view of match `m`'s `games` (those of
    /// this shard), their records written to `out`; prints the view's URL on stderr.
    pub fn start(
        addr: &ServeAddr,
        m: &MatchSpec,
        games: &[GameSpec],
        out: &str,
    ) -> Result<Watch, InputError> {
        let live = Arc::new(Live::new(
            title(
                &m.entrants(),
                &m.rules.preset.to_string(),
                m.size,
                games.len(),
            ),
            std::path::PathBuf::from(out),
            games
                .iter()
                .map(|g| (g.number, g.names[0].clone(), g.names[1].clone())),
        ));
        let options = crate::serve::Options::default();
        let watch = Some(Arc::clone(&live));
        let server = crate::serve::Server::bind_watching(&addr.host, addr.port, &options, watch)
            .map_err(|e| e.key(format!("--serve {}:{}", addr.host, addr.port)))?;
        let url = format!("{}watch", server.url());
        drop(server.spawn());
        errln!("m3go match: watch the match at {url}");
        Ok(Watch { live, url, server })
    }

    /// The match is over (`result`: how it ended): the page says so, and the server goes on
    /// answering until the process is interrupted (Ctrl-C), so that the end can be watched and
    /// the records opened.
    pub fn linger<T>(self, result: &Result<T, crate::errors::Error>) -> ! {
        self.live.over(match result {
            Ok(_) => "the match is over".to_string(),
            Err(e) => format!("the match stopped: {e}"),
        });
        errln!(
            "m3go match: the match is over; its live view stays at {} (Ctrl-C to stop)",
            self.url
        );
        crate::io::flush_out();
        let _server = self.server;
        loop {
            std::thread::park();
        }
    }
}

/// The match in words, the live view's title.
fn title(entrants: &[String], rules: &str, size: usize, games: usize) -> String {
    format!(
        "{}: {rules}, {size}×{size}, {games} game{}",
        entrants.join(" vs "),
        if games == 1 { "" } else { "s" }
    )
}

/// The referee's reports into the standing: the game playing, its board and last move.
pub(crate) struct Watcher<'a>(pub &'a Live);

impl GameWatcher for Watcher<'_> {
    fn position(&self, spec: &GameSpec, position: &Position, moves: &[RecordMove]) {
        let board = position.board().to_diagram();
        let turn = position.turn();
        self.0.game(spec.number, |g| {
            g.state = GameState::Playing;
            g.moves = moves.len();
            g.last = moves.last().map(|m| m.text.clone());
            g.to_play = Some(format!("{} {}", turn.symbol(), turn.describe()));
            g.board = Some(board);
        });
    }
}

/// Game `played` finished and recorded as `record` (its `--results` line `line`): the standing
/// takes its end, and the table `tally` as it now stands.
pub(crate) fn finished(
    live: &Live,
    played: &Played,
    line: &GameLine,
    record: String,
    tally: &[Pairing],
) {
    let board = played.position.board().to_diagram();
    live.game(played.spec.number, |g| {
        g.state = GameState::Finished;
        g.moves = played.record.moves.len();
        g.last = played.record.moves.last().map(|m| m.text.clone());
        g.to_play = None;
        g.board = Some(board);
        g.result = Some(line.result.clone());
        g.ending = Some(line.ending.clone());
        g.forfeit = line.forfeit.as_ref().map(forfeit_text);
        g.record = Some(record);
    });
    live.table(
        tally
            .iter()
            .filter(|t| t.games() > 0)
            .map(Pairing::line)
            .collect(),
    );
}

/// Game `number` failed (the referee's own failure, or its record not written).
pub(crate) fn failed(live: &Live, number: usize, error: &crate::errors::Error) {
    let error = error.to_string();
    live.game(number, |g| {
        g.state = GameState::Failed;
        g.error = Some(error);
    });
}

/// A forfeit as the results table's forfeit lines write it: who, at which move, the kind and
/// the clause, the message.
fn forfeit_text(f: &ForfeitField) -> String {
    format!(
        "{} forfeits at move {} ({}{}): {}",
        f.player,
        f.move_number,
        f.kind.name(),
        f.clause
            .as_ref()
            .map_or_else(String::new, |c| format!(", {c}")),
        f.message
    )
}
