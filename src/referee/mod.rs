//! The match referee (`m3go match`, issue 42): programs play whole games under m3go's
//! refereeing through the play protocol (`m3go-player/1`, spec/play-protocol.md), and the
//! baseline players (`m3go player`) to play against. Above `game` and `judge`, beside
//! `conform`, whose process handling ([`crate::conform::runner::External`]) runs each player
//! and whose protocol module holds the messages ([`crate::conform::play_protocol`]).
//!
//! - [`strategy`]: the baseline players' choices (random, greedy, UCT).
//! - [`game`]: one game refereed, its record and ending.
//! - [`stats`]: the results table per pairing (wins, margin, Elo with its interval).
//! - here: the schedule of a match (pairings, seats swapped each game) and its run over a pool
//!   of workers.

pub mod game;
pub mod gtp;
#[cfg(feature = "cli")]
pub(crate) mod openings;
pub mod results;
pub mod stats;
pub mod strategy;

use crate::conform::play_protocol::{GameLine, GAME_LINE_FORMAT};
use crate::conform::runner::{External, ReadBounds};
use game::{Clock, Ending, GameSpec, Opening, Played, RefereeError, Seat};
use m3go_engine::Colour;
use std::time::Duration;

/// A player of a match: its name, the command that starts it (`sh -c`) and whether it speaks
/// GTP (`NAME=gtp:COMMAND`, `gtp::GtpSeat`) rather than the play protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    pub name: String,
    pub command: String,
    pub gtp: bool,
    /// The rules a GTP player is declared to play on the command line
    /// (`NAME=gtp[RULES;…]:COMMAND`, each RULES a preset or a YAML mapping as `--rules`): its
    /// capabilities, instead of what `m3go-capabilities` (or its absence) says. Empty: none
    /// declared.
    pub declared: Vec<m3go_engine::Rules>,
}

impl PlayerSpec {
    /// Reads `NAME=COMMAND`, `NAME=gtp:COMMAND` for a player speaking GTP, or
    /// `NAME=gtp[RULES;…]:COMMAND` for one declared to play those rules.
    pub fn parse(v: &str) -> Result<PlayerSpec, PlayerSpecError> {
        let (name, command) = v
            .split_once('=')
            .ok_or_else(|| PlayerSpecError::NoName(v.to_string()))?;
        let name = name.trim();
        let (command, gtp, declared) = match command.strip_prefix("gtp") {
            Some(c) if c.starts_with(':') => (&c[1..], true, Vec::new()),
            Some(c) if c.starts_with('[') => {
                let (rules, c) = c[1..]
                    .split_once("]:")
                    .ok_or_else(|| PlayerSpecError::Declaration(v.to_string(), None))?;
                (c, true, declared_rules(v, rules)?)
            }
            _ => (command, false, Vec::new()),
        };
        if name.is_empty() || command.trim().is_empty() {
            return Err(PlayerSpecError::Empty(v.to_string()));
        }
        // the name is written into the results table, the SGF, the results lines and the
        // JUnit report: a line break there would split their lines
        if name.chars().any(char::is_control) {
            return Err(PlayerSpecError::ControlInName(name.to_string()));
        }
        Ok(PlayerSpec {
            name: name.to_string(),
            command: command.to_string(),
            gtp,
            declared,
        })
    }
}

/// The rules of a `gtp[RULES;…]` declaration (in `v`, the `--player` given): each a preset or a
/// YAML mapping, as `--rules` reads them.
fn declared_rules(v: &str, text: &str) -> Result<Vec<m3go_engine::Rules>, PlayerSpecError> {
    text.split(';')
        .map(|r| {
            m3go_engine::game::from_yaml::<m3go_engine::rules::RulesField>(r.trim(), "--player")
                .and_then(|f| f.resolve().map_err(m3go_engine::InputError::from))
                .map_err(|e| PlayerSpecError::Declaration(v.to_string(), Some(e.to_string())))
        })
        .collect()
}

/// Why a `--player` does not read ([`PlayerSpec::parse`]); each holds the value given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpecError {
    /// No `=`.
    NoName(String),
    /// An empty name or command.
    Empty(String),
    /// A name holding a control character (a line break, a tab, …); holds the name.
    ControlInName(String),
    /// A `gtp[RULES;…]:` declaration without its `]:`, or (the second field) why one of its
    /// rules does not read.
    Declaration(String, Option<String>),
}

impl std::fmt::Display for PlayerSpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpecError::NoName(v) => write!(f, "`{v}`: expected NAME=COMMAND"),
            PlayerSpecError::Empty(v) => {
                write!(f, "`{v}`: expected NAME=COMMAND, both non-empty")
            }
            PlayerSpecError::ControlInName(name) => write!(
                f,
                "the name `{}` holds a control character: expected a name without line \
                 breaks, tabs or other control characters",
                name.escape_debug()
            ),
            PlayerSpecError::Declaration(v, None) => write!(
                f,
                "`{v}`: expected NAME=gtp[RULES;…]:COMMAND (the rules declared in brackets, \
                 then `:`)"
            ),
            PlayerSpecError::Declaration(v, Some(why)) => {
                write!(f, "`{v}`: the rules declared: {why}")
            }
        }
    }
}

impl std::error::Error for PlayerSpecError {}

/// A match: the players, the games per pairing, the rules and board, the time, the seed (given
/// to the players through each game's name), what an illegal move costs.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub players: Vec<PlayerSpec>,
    /// Games per pairing (every two players meet; the seats are swapped each game).
    pub games: usize,
    pub size: usize,
    pub rules: m3go_engine::Rules,
    pub seed: u64,
    pub clock: Option<Clock>,
    pub move_time: Duration,
    pub illegal_pass: bool,
    /// The 2016 team format (`--team`): four players, the seats A, B, C, D of 000's schedule
    /// (A black stones, B grey for A's side, C white stones, D grey for C's side), each asked
    /// for its own moves; the two sides swap colours each game.
    pub team: bool,
    /// The openings (`--openings`): game g of a pairing (from 0) begins with opening
    /// (g / 2) mod their number, so that each is played twice in a row, the seats swapped.
    pub openings: Vec<std::sync::Arc<Opening>>,
    /// A gauntlet (`--gauntlet`): the first player meets each of the others, who do not meet
    /// one another; else every two players meet (a round robin).
    pub gauntlet: bool,
}

impl MatchSpec {
    /// Game `g` (from 0) of its pairing, numbered `number` in the match, between `names`
    /// (black, white), seated `team` in the team format.
    fn game(
        &self,
        number: usize,
        g: usize,
        names: [String; 2],
        team: Option<[String; 4]>,
    ) -> GameSpec {
        GameSpec {
            number,
            name: format!("s{}-g{number}", self.seed),
            names,
            team,
            rules: self.rules.clone(),
            size: self.size,
            opening: (!self.openings.is_empty())
                .then(|| self.openings[(g / 2) % self.openings.len()].clone()),
            clock: self.clock,
            move_time: self.move_time,
            illegal_pass: self.illegal_pass,
        }
    }

    /// Who the results table counts: the players, or in the team format the two sides (`a+b`,
    /// `c+d`: the first two players given, the last two).
    pub fn entrants(&self) -> Vec<String> {
        entrants_of_players(&self.names(), self.team)
    }

    /// The players' names, in the order given.
    fn names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The games of the match, in order (`seating`).
    pub fn schedule(&self) -> Vec<GameSpec> {
        let names = self.names();
        let count = scheduled(names.len(), self.games, self.team, self.gauntlet).unwrap_or(0);
        (1..=count)
            .filter_map(|number| {
                seating(&names, self.games, self.team, self.gauntlet, number)
                    .map(|s| self.game(number, s.g, s.names, s.team))
            })
            .collect()
    }

    fn player(&self, name: &str) -> Option<&PlayerSpec> {
        self.players.iter().find(|p| p.name == name)
    }
}

/// Who the results table of a match between `players` counts: the players, or in the team
/// format (four players) the two sides (`a+b`, `c+d`: the first two players, the last two).
pub(crate) fn entrants_of_players(players: &[String], team: bool) -> Vec<String> {
    if team && players.len() == 4 {
        vec![players[..2].join("+"), players[2..].join("+")]
    } else {
        players.to_vec()
    }
}

/// How many games a match between `players` players schedules, `games` per pairing (the team
/// format: `games` between its two sides; a gauntlet: the first player against each other);
/// `None` when the number does not fit.
pub(crate) fn scheduled(players: usize, games: usize, team: bool, gauntlet: bool) -> Option<usize> {
    let pairs = if team && players == 4 {
        1
    } else if gauntlet {
        players.saturating_sub(1)
    } else {
        players.checked_mul(players.saturating_sub(1))? / 2
    };
    pairs.checked_mul(games)
}

/// One game of a match's schedule: its place in its pairing (from 0), the names of black and
/// white, and in the team format the seats A, B, C, D.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seating {
    pub g: usize,
    pub names: [String; 2],
    pub team: Option<[String; 4]>,
}

/// Game `number` (from 1) of a match between `players`, `games` per pairing: for each pairing
/// (i, j), i < j (i = 0 alone in a gauntlet), `games` games with player i black in the odd ones
/// (1st, 3rd, …) and white in the even ones; in the team format (four players), the first two
/// players are black's side (A, B) in the odd games and white's (C, D) in the even ones. `None`
/// past the last game (or for 0).
pub(crate) fn seating(
    players: &[String],
    games: usize,
    team: bool,
    gauntlet: bool,
    number: usize,
) -> Option<Seating> {
    let k = number.checked_sub(1)?;
    if games == 0 || k >= scheduled(players.len(), games, team, gauntlet)? {
        return None;
    }
    let (pair, g) = (k / games, k % games);
    if team && players.len() == 4 {
        let p = players;
        let sides = entrants_of_players(players, true);
        let (seats, names) = if g % 2 == 0 {
            (
                [p[0].clone(), p[1].clone(), p[2].clone(), p[3].clone()],
                [sides[0].clone(), sides[1].clone()],
            )
        } else {
            (
                [p[2].clone(), p[3].clone(), p[0].clone(), p[1].clone()],
                [sides[1].clone(), sides[0].clone()],
            )
        };
        return Some(Seating {
            g,
            names,
            team: Some(seats),
        });
    }
    let n = players.len();
    let (i, j) = if gauntlet {
        (0, pair + 1)
    } else {
        let mut rest = pair;
        let mut found = None;
        for i in 0..n {
            let row = n - 1 - i;
            if rest < row {
                found = Some((i, i + 1 + rest));
                break;
            }
            rest -= row;
        }
        found?
    };
    let (b, w) = if g % 2 == 0 { (i, j) } else { (j, i) };
    Some(Seating {
        g,
        names: [players.get(b)?.clone(), players.get(w)?.clone()],
        team: None,
    })
}

/// Plays one game of the match: each player started in its own process group (stopped when the
/// game ends, whatever happens), then [`game::play_game_watched`], `watcher` (if any) told of
/// each position ([`game::GameWatcher`]).
pub(crate) fn run_game_watched(
    m: &MatchSpec,
    spec: &GameSpec,
    watcher: Option<&dyn game::GameWatcher>,
) -> Result<Played, RefereeError> {
    let start = |name: &str| -> Result<Box<dyn Seat>, RefereeError> {
        let p = m
            .player(name)
            .ok_or_else(|| RefereeError::NoPlayer(name.to_string()))?;
        let bounds = if p.gtp {
            gtp::GTP_BOUNDS
        } else {
            ReadBounds::JSON
        };
        let ext =
            External::bounded(&p.command, m.move_time, &[], bounds).map_err(RefereeError::Start)?;
        Ok(if p.gtp {
            Box::new(gtp::GtpSeat::new(ext, &p.declared))
        } else {
            Box::new(ext)
        })
    };
    if let Some(team) = &spec.team {
        let mut seats = team
            .iter()
            .map(|n| start(n))
            .collect::<Result<Vec<_>, _>>()?;
        let mut refs: Vec<&mut dyn Seat> = seats
            .iter_mut()
            .map(|s| -> &mut dyn Seat { s.as_mut() })
            .collect();
        return game::play_game_watched(spec, &mut refs, watcher);
    }
    let mut black = start(&spec.names[0])?;
    let mut white = start(&spec.names[1])?;
    game::play_game_watched(spec, &mut [&mut *black, &mut *white], watcher)
}

/// Refuses, before the first game, a match in which a GTP player that cannot be told a set-up
/// start (it does not list `m3go-position`) is scheduled to meet an opening that starts from one
/// ([`game::starts_set_up`]): each such player is started once, asked its commands and
/// stopped. Without this the match played its games up to that opening's and stopped there. A
/// program that fails to answer here is left to its games, which forfeit it as usual.
pub(crate) fn check_starts_told(m: &MatchSpec, games: &[GameSpec]) -> Result<(), RefereeError> {
    let mut asked: Vec<&str> = Vec::new();
    for spec in games {
        let names = spec.team.as_ref().map_or(&spec.names[..], |t| &t[..]);
        let gtp: Vec<&PlayerSpec> = names
            .iter()
            .filter_map(|n| m.player(n))
            .filter(|p| p.gtp && !asked.contains(&p.name.as_str()))
            .collect();
        if gtp.is_empty() || !game::starts_set_up(spec)? {
            continue;
        }
        for p in gtp {
            asked.push(&p.name);
            let ext = External::bounded(&p.command, m.move_time, &[], gtp::GTP_BOUNDS)
                .map_err(RefereeError::Start)?;
            let mut seat = gtp::GtpSeat::new(ext, &p.declared);
            let answered = game::negotiate(&mut seat, m.move_time.max(game::STARTUP_TIME)).is_ok();
            if answered && !seat.is_told_the_start() {
                return Err(RefereeError::UntoldStart {
                    player: p.name.clone(),
                    opening: spec
                        .opening
                        .as_ref()
                        .map_or_else(String::new, |o| o.name.clone()),
                });
            }
        }
    }
    Ok(())
}

/// The line of `--results` for a game played, its SGF written at `sgf`.
pub(crate) fn game_line(p: &Played, sgf: &str) -> GameLine {
    let (margin, forfeit) = match &p.ending {
        Ending::Counted {
            margin_quarters, ..
        } => (Some(*margin_quarters), None),
        Ending::Forfeit { forfeit, .. } => (None, Some(forfeit.clone())),
        Ending::Resigned(_) => (None, None),
    };
    GameLine {
        format: GAME_LINE_FORMAT.into(),
        game: p.spec.number,
        black: p.spec.names[0].clone(),
        white: p.spec.names[1].clone(),
        result: p.result(),
        winner: p.winner().map(|c| p.spec.names[colour_seat(c)].clone()),
        ending: p.ending_name().into(),
        margin_quarters: margin,
        forfeit,
        moves: p.record.moves.len(),
        replaced: p.replaced,
        time_ms: [p.used[0].as_millis() as u64, p.used[1].as_millis() as u64],
        sgf: sgf.into(),
        opening: p.spec.opening.as_ref().map(|o| o.name.clone()),
    }
}

fn colour_seat(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// The results table of the games played (their `--results` lines): one [`stats::Pairing`]
/// per two entrants that met, in the order `entrants` gives them. Read from the lines rather
/// than the games, so that `--merge` tallies the shards of a match as the match itself does.
pub(crate) fn table(entrants: &[String], lines: &[GameLine]) -> Vec<stats::Pairing> {
    let mut out = pairings(entrants);
    for g in lines {
        tally(&mut out, g);
    }
    out.retain(|t| t.games() > 0);
    out
}

/// An empty tally for every two entrants, in the order `entrants` gives them.
pub(crate) fn pairings(entrants: &[String]) -> Vec<stats::Pairing> {
    let n = entrants.len();
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            out.push(stats::Pairing {
                first: entrants[i].clone(),
                second: entrants[j].clone(),
                ..Default::default()
            });
        }
    }
    out
}

/// Adds game `g` to the tally of its pairing among `pairings` (none when its players are not
/// one of them).
pub(crate) fn tally(pairings: &mut [stats::Pairing], g: &GameLine) {
    for t in pairings.iter_mut() {
        let first_black = if g.black == t.first && g.white == t.second {
            true
        } else if g.white == t.first && g.black == t.second {
            false
        } else {
            continue;
        };
        match &g.winner {
            None => t.draws += 1,
            Some(w) if *w == t.first => t.wins += 1,
            Some(_) => t.losses += 1,
        }
        if let Some(m) = g.margin_quarters {
            t.margins_quarters.push(if first_black { m } else { -m });
        }
        if let Some(f) = &g.forfeit {
            let by_black = f.colour == Colour::Black.name();
            t.forfeits[usize::from(by_black != first_black)] += 1;
        }
        return;
    }
}
