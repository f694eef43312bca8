//! One game refereed (`m3go match`): each player asked for its moves through the play protocol
//! (`m3go-player/1`, [`crate::conform::play_protocol`]), every answer checked by m3go — the
//! program's failures (a crash, a timeout, an unreadable answer) by the conformance runner's
//! process handling ([`crate::conform::runner::External`]), the move by the rules
//! ([`Position::play`]) — the game ended by the rules' game end ([`Position::game_over`],
//! GO-END) and counted by m3go's scorer ([`Score::of`](m3go_engine::Score::of)). The record is built move by move as
//! `m3go replay` reads it back: a move refused and replaced by a pass (`--illegal pass`) is the
//! record's replaced move (M20-REPLAY-PASS), played by [`Record::advance_move`] itself.

use crate::conform::failure::{ProgramFailure, UnreadableLine};
use crate::conform::play_protocol::{
    ForfeitField, ForfeitKind, GenmoveAnswer, GenmoveRequest, PlayerCapabilities,
    PlayerCapabilitiesAnswer, TurnField, PLAYER_PROTOCOL, PLAYER_PROTOCOLS, RESIGN,
};
use crate::conform::protocol::{CapabilitiesRequest, Id};
use crate::conform::runner::{External, Oracle};
use crate::io::clip;
use m3go_engine::formats::record::{Record, RecordMove};
use m3go_engine::game::Written;
use m3go_engine::judge::Winner;
use m3go_engine::rules::RulesField;
use m3go_engine::{
    Action, Colour, InputError, Move, Notation, Position, QuarterPoints, Rules, Score, Setup,
    StoneKind, Turn,
};
use serde::Serialize;
use serde_json::Value;
use std::time::{Duration, Instant};

/// A request of the play protocol as the referee puts it to a seat, typed up to the wire: a
/// program of the protocol is sent it as one JSON line ([`Seat`] for [`External`]), a GTP
/// player turns it into GTP commands (`GtpSeat`) without reading JSON back.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum PlayerRequest {
    /// The capabilities request ([`capabilities_request`]).
    Capabilities(CapabilitiesRequest),
    /// The request for a move.
    Genmove(Box<GenmoveRequest>),
}

impl PlayerRequest {
    /// The request's id, which its answer echoes.
    pub fn id(&self) -> &Id {
        match self {
            PlayerRequest::Capabilities(c) => &c.id,
            PlayerRequest::Genmove(g) => &g.id,
        }
    }
}

/// A player as the referee drives it: a request sent, its answer (the JSON object the program
/// wrote, read by the referee: [`read_answer`]) awaited for at most `timeout`. `Err` is a
/// failure of the program (it crashed, hung, wrote something that is not a JSON object, broke
/// GTP), as the conformance runner reports it.
pub trait Seat {
    fn ask(&mut self, request: &PlayerRequest, timeout: Duration) -> Result<Value, ProgramFailure>;

    /// Whether the seat is told a start position other than the empty board at move 1 (set-up
    /// stones, a later move number): a plain GTP engine, without `m3go-position`, is not.
    /// Known once its capabilities were asked.
    fn is_told_the_start(&self) -> bool {
        true
    }
}

impl Seat for External {
    /// The request written as one JSON line (its keys in the order of a JSON object's, as
    /// every request of the protocol is written).
    fn ask(&mut self, request: &PlayerRequest, timeout: Duration) -> Result<Value, ProgramFailure> {
        self.set_timeout(timeout);
        let line = serde_json::to_value(request)
            .map_err(|e| ProgramFailure::Request(format!("the request does not write: {e}")))?;
        Oracle::ask(self, &line)
    }
}

/// The forfeit kind of a program failure ([`External`]'s, or a GTP player's,
/// [`super::gtp::GtpSeat`]): no answer in time, an answer that cannot be read, is not JSON or
/// not a JSON object (or not a GTP answer), a protocol error (a `?` answer, a missing command,
/// a JSON object that is not an answer), or the program gone (or never started).
pub(crate) fn failure_kind(failure: &ProgramFailure) -> ForfeitKind {
    match failure {
        ProgramFailure::Timeout { .. } => ForfeitKind::Timeout,
        // a player that floods lines no one asked for breaks the protocol
        ProgramFailure::Unreadable {
            why: UnreadableLine::Unrequested(_),
            ..
        } => ForfeitKind::Protocol,
        ProgramFailure::Unreadable { .. }
        | ProgramFailure::NotJson { .. }
        | ProgramFailure::NotObject { .. }
        | ProgramFailure::GtpUnreadable { .. } => ForfeitKind::Unreadable,
        ProgramFailure::Protocol(_) | ProgramFailure::NotAnAnswer(_) => ForfeitKind::Protocol,
        // the referee's request not put to a GTP player is counted as the player's crash, as
        // it always was: it cannot go on with the game
        ProgramFailure::Start { .. }
        | ProgramFailure::Stopping
        | ProgramFailure::NoPipe(_)
        | ProgramFailure::NotRunning
        | ProgramFailure::Exited { .. }
        | ProgramFailure::ExitedBeforeRequest { .. }
        | ProgramFailure::Request(_) => ForfeitKind::Crash,
    }
}

/// The referee's own failure: a game that cannot be set up or go on. Never a player's, whose
/// failure is a forfeit ([`Ending::Forfeit`]).
#[derive(Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum RefereeError {
    /// Not two or four seats.
    Seats(usize),
    /// The start position cannot be built.
    StartPosition(Box<InputError>),
    /// The opening's moves do not replay.
    Opening(Box<InputError>),
    /// The pass replacing a refused move cannot be played.
    ReplacingPass {
        number: u32,
        notation: String,
        error: Box<InputError>,
    },
    /// The match has no player of that name.
    NoPlayer(String),
    /// A player's program cannot be started.
    Start(ProgramFailure),
    /// The game starts from a set-up position that a player cannot be told (a plain GTP
    /// engine): it would play another game than the record's. Holds the player and the
    /// opening.
    UntoldStart { player: String, opening: String },
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::Seats(n) => write!(f, "{n} seats: a game has two or four"),
            RefereeError::StartPosition(e) => write!(f, "the start position: {e}"),
            RefereeError::Opening(e) => write!(f, "the opening: {e}"),
            RefereeError::ReplacingPass {
                number,
                notation,
                error,
            } => write!(f, "move {number}: the pass replacing {notation}: {error}"),
            RefereeError::NoPlayer(name) => write!(f, "no player named `{name}`"),
            RefereeError::Start(e) => write!(f, "{e}"),
            RefereeError::UntoldStart { player, opening } => write!(
                f,
                "the opening `{opening}` starts from a set-up position, which the GTP player \
                 `{player}` cannot be told (it does not list `m3go-position`): expected openings \
                 without set-up stones (records of moves from the empty board) for a plain GTP \
                 engine"
            ),
        }
    }
}

impl std::error::Error for RefereeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RefereeError::StartPosition(e)
            | RefereeError::Opening(e)
            | RefereeError::ReplacingPass { error: e, .. } => Some(e.as_ref()),
            RefereeError::Start(e) => Some(e),
            RefereeError::Seats(_)
            | RefereeError::NoPlayer(_)
            | RefereeError::UntoldStart { .. } => None,
        }
    }
}

/// As a bad input, with this error's message.
impl From<RefereeError> for m3go_engine::InputError {
    fn from(e: RefereeError) -> Self {
        m3go_engine::InputError::new(e.to_string())
    }
}

/// A time control: `base` on each player's clock, `increment` added after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub base: Duration,
    pub increment: Duration,
}

/// An opening of a match (`m3go match --openings`): a record, its start position and moves,
/// that a game begins with before the players are asked for a move. Checked when it is read
/// (the match's board size, every move legal under the match's rules, the game not over).
#[derive(Clone, Debug)]
pub struct Opening {
    /// Where it was read from (the file), for the record's comment and the results.
    pub name: String,
    pub record: Record,
}

/// What one game is: its number and name, the players' names (black, white), the rules, the
/// board, the opening, the time and what an illegal move costs.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The game's number in the match (1-based).
    pub number: usize,
    /// The name the players are told (`game`), unique within the match.
    pub name: String,
    /// The players' names: black, white (in the team format, each side's programs joined by
    /// `+`: `a+b`).
    pub names: [String; 2],
    /// The team format (`m3go match --team`): the programs of the seats A, B, C, D (000's
    /// M16-TEAM-ROLES); each move is asked of the seat the schedule names. Absent: the player
    /// of black makes every black move (its flowers too), white's every white move.
    pub team: Option<[String; 4]>,
    pub rules: Rules,
    pub size: usize,
    /// The opening the game begins with, if any (the players are sent its start position and
    /// moves with their first request, and the record holds them).
    pub opening: Option<std::sync::Arc<Opening>>,
    /// The time control, if any.
    pub clock: Option<Clock>,
    /// The longest a player has for one move.
    pub move_time: Duration,
    /// `--illegal pass`: a move the rules refuse becomes a pass (M20-REPLAY-PASS) instead of
    /// forfeiting the game.
    pub illegal_pass: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum Ending {
    /// Over by the rules' game end (GO-END) and counted; `limit`: stopped at the move limit
    /// (ten moves per point) and counted as it stood.
    Counted {
        margin_quarters: QuarterPoints,
        winner: Winner,
        limit: bool,
    },
    /// The player of this colour resigned.
    Resigned(Colour),
    /// The player of `by` forfeited.
    Forfeit { by: Colour, forfeit: ForfeitField },
}

/// A game played: its record (SGF-ready, with the players, the result and the forfeit), the
/// position it ended on, how it ended, and the players' times.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Played {
    pub spec: GameSpec,
    pub record: Record,
    /// The position after the record's last move (the one counted, or the one a player
    /// resigned or forfeited on): the record need not be replayed to get it back.
    pub position: Position,
    pub ending: Ending,
    /// The moves refused and replaced by passes.
    pub replaced: usize,
    /// The time each player used (black, white).
    pub used: [Duration; 2],
}

impl Played {
    /// The winner's colour; `None` for a draw.
    pub fn winner(&self) -> Option<Colour> {
        match &self.ending {
            Ending::Counted { winner, .. } => match winner {
                Winner::Black => Some(Colour::Black),
                Winner::White => Some(Colour::White),
                Winner::Draw => None,
            },
            Ending::Resigned(c) | Ending::Forfeit { by: c, .. } => Some(other(*c)),
        }
    }

    /// SGF's RE: `B+12.5`, `W+R`, `B+F`, `0`.
    pub fn result(&self) -> String {
        let side = |c: Colour| if c == Colour::Black { "B" } else { "W" };
        match &self.ending {
            Ending::Counted {
                margin_quarters, ..
            } => match self.winner() {
                None => "0".into(),
                Some(c) => format!("{}+{}", side(c), margin_quarters.abs().points()),
            },
            Ending::Resigned(c) => format!("{}+R", side(other(*c))),
            Ending::Forfeit { by, .. } => format!("{}+F", side(other(*by))),
        }
    }

    /// The ending's name: `score`, `move-limit`, `resign`, `forfeit`.
    pub fn ending_name(&self) -> &'static str {
        match &self.ending {
            Ending::Counted { limit: false, .. } => "score",
            Ending::Counted { limit: true, .. } => "move-limit",
            Ending::Resigned(_) => "resign",
            Ending::Forfeit { .. } => "forfeit",
        }
    }
}

fn other(c: Colour) -> Colour {
    match c {
        Colour::Black => Colour::White,
        Colour::White => Colour::Black,
    }
}

fn seat_of(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// A turn as the protocol names it.
pub(crate) fn turn_field(number: u32, t: Turn) -> TurnField {
    TurnField {
        number,
        player: t.player.name().into(),
        kind: match t.kind {
            StoneKind::Own => "own",
            StoneKind::Flower => "flower",
        }
        .into(),
        symbol: t.symbol().to_string(),
    }
}

/// The capabilities request of the play protocol.
pub fn capabilities_request() -> PlayerRequest {
    PlayerRequest::Capabilities(CapabilitiesRequest {
        protocol: PLAYER_PROTOCOL.into(),
        id: Id::Text("capabilities".into()),
        action: "capabilities".into(),
        protocols: PLAYER_PROTOCOLS.iter().map(|p| p.to_string()).collect(),
    })
}

/// Why a player cannot play `rules` on a board of `size`, by what it declared; `None` when it
/// can.
pub(crate) fn refuses(caps: &PlayerCapabilities, rules: &Rules, size: usize) -> Option<String> {
    let conform = crate::conform::capabilities::Capabilities {
        presets: caps.presets.clone(),
        options: caps.options.clone(),
        replay: Vec::new(),
        by_preset: Default::default(),
    };
    if let Some(why) = conform.refuses(rules, None) {
        return Some(why);
    }
    match &caps.sizes {
        Some(s) if !s.contains(&size) => Some(format!(
            "size {size} is not declared (sizes: {})",
            s.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => None,
    }
}

/// Asks a player for its capabilities: what it declared, or the kind of failure and its
/// message (a program failure, or an answer that is not capabilities of this protocol).
pub(crate) fn negotiate(
    seat: &mut dyn Seat,
    timeout: Duration,
) -> Result<PlayerCapabilities, (ForfeitKind, String)> {
    let req = capabilities_request();
    let ans = seat
        .ask(&req, timeout)
        .map_err(|e| (failure_kind(&e), format!("the capabilities request: {e}")))?;
    let parsed: PlayerCapabilitiesAnswer = serde_json::from_value(ans.clone()).map_err(|e| {
        (
            ForfeitKind::Protocol,
            format!(
                "the answer to the capabilities request does not read ({}): `{}`",
                clip(&e.to_string(), 200),
                clip(&ans.to_string(), 200)
            ),
        )
    })?;
    if parsed.id != req.id().to_value() {
        return Err((
            ForfeitKind::Protocol,
            format!(
                "the capabilities answer's id is {}, expected \"capabilities\"",
                parsed.id
            ),
        ));
    }
    if !parsed.protocols.iter().any(|p| p == PLAYER_PROTOCOL) {
        return Err((
            ForfeitKind::Protocol,
            format!(
                "the player speaks {:?}, not {PLAYER_PROTOCOL}",
                parsed.protocols
            ),
        ));
    }
    Ok(parsed.capabilities)
}

/// The least time a player has for the capabilities request, its start-up included (an
/// interpreter's start on a loaded machine can take seconds): off the clock, whatever the
/// per-move limit.
pub(crate) const STARTUP_TIME: Duration = Duration::from_secs(30);

/// Whether the game `spec` starts from a set-up position (stones, a later move number: its
/// opening's start) rather than the empty board at move 1, which is all a seat not told the
/// start ([`Seat::is_told_the_start`]) can play from.
pub(crate) fn starts_set_up(spec: &GameSpec) -> Result<bool, RefereeError> {
    let Some(o) = &spec.opening else {
        return Ok(false);
    };
    let rules = &spec.rules;
    let start = |record: Record| -> Result<Setup, RefereeError> {
        Ok(record
            .start_position(rules)
            .map_err(|e| RefereeError::StartPosition(Box::new(e)))?
            .to_setup())
    };
    let opening = Record {
        rules: Some(RulesField::of(rules)),
        info: Vec::new(),
        ..o.record.clone()
    };
    let empty = Record::new(spec.size, Some(RulesField::of(rules)));
    Ok(start(opening)? != start(empty)?)
}

/// What the referee keeps of one player during a game.
struct SeatState {
    /// The moves (protocol strings) the player has been sent.
    sent: usize,
    clock: Option<Duration>,
    used: Duration,
}

/// Plays one game between `black` and `white` (each already started; each is asked for its
/// capabilities first). `Err` is the referee's own failure (a start position that cannot be
/// built), never a player's.
#[cfg(any(test, feature = "testing"))]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn play_game(
    spec: &GameSpec,
    black: &mut dyn Seat,
    white: &mut dyn Seat,
) -> Result<Played, RefereeError> {
    play_game_watched(spec, &mut [black, white], None)
}

/// The seat (index into the seats of [`play_game_watched`]) that makes a move of `turn`: with
/// two seats the player of its colour; with four (the team format) the seat of 000's schedule,
/// A (black stones), B (black's flowers, grey), C (white stones), D (white's flowers, grey)
/// (M16-TEAM-ROLES, [`m3go_engine::game::Seat::of_turn`]).
pub(crate) fn seat_index(seats: usize, turn: Turn) -> usize {
    if seats == 4 {
        match m3go_engine::game::Seat::of_turn(turn) {
            m3go_engine::game::Seat::A => 0,
            m3go_engine::game::Seat::B => 1,
            m3go_engine::game::Seat::C => 2,
            m3go_engine::game::Seat::D => 3,
        }
    } else {
        seat_of(turn.player)
    }
}

/// Told of a game's positions as it is refereed (`m3go match --serve`): the start (after the
/// opening) and the position after each move recorded, with the record's moves so far. It
/// only looks: the game is refereed the same with it or without.
pub(crate) trait GameWatcher: Sync {
    fn position(&self, spec: &GameSpec, position: &Position, moves: &[RecordMove]);
}

/// A game with two seats (black, white) or four (the team format's A, B, C, D, each asked for
/// the moves of its turn, [`seat_index`]), the watcher (if any) told of each position.
pub(crate) fn play_game_watched(
    spec: &GameSpec,
    seats: &mut [&mut dyn Seat],
    watcher: Option<&dyn GameWatcher>,
) -> Result<Played, RefereeError> {
    if seats.len() != 2 && seats.len() != 4 {
        return Err(RefereeError::Seats(seats.len()));
    }
    let mut r = Referee::start(spec, seats.len())?;
    let tell = |r: &Referee<'_>| {
        if let Some(w) = watcher {
            w.position(spec, &r.pos, &r.record.moves);
        }
    };
    tell(&r);
    let ending = match r.negotiate_all(seats) {
        Some(e) => e,
        None => {
            r.check_told(seats)?;
            loop {
                match r.step(seats)? {
                    Step::End(e) => break e,
                    Step::Next => tell(&r),
                }
            }
        }
    };
    let nseats = r.nseats;
    let mut played = Played {
        spec: spec.clone(),
        ending,
        replaced: r.replaced,
        used: [Colour::Black, Colour::White].map(|c| {
            (0..nseats)
                .filter(|&k| seat_colour(nseats, k) == c)
                .map(|k| r.state[k].used)
                .sum()
        }),
        record: r.record,
        position: r.pos,
    };
    annotate(&mut played);
    Ok(played)
}

/// The colour the program at seat `k` of `nseats` plays.
fn seat_colour(nseats: usize, k: usize) -> Colour {
    if (nseats == 4 && k < 2) || (nseats == 2 && k == 0) {
        Colour::Black
    } else {
        Colour::White
    }
}

/// One game being refereed: the record so far, the position, the moves as the protocol
/// writes them (the opening's first), what the referee keeps of each seat.
struct Referee<'s> {
    spec: &'s GameSpec,
    nseats: usize,
    record: Record,
    start_setup: Setup,
    pos: Position,
    wire: Vec<String>,
    state: Vec<SeatState>,
    /// The moves refused and replaced by a pass (`--illegal pass`).
    replaced: usize,
}

/// What a move asked of a seat leaves: the game goes on, or it ends.
enum Step {
    Next,
    End(Ending),
}

impl<'s> Referee<'s> {
    /// The game's start: the opening (if any) played from the start position.
    fn start(spec: &'s GameSpec, nseats: usize) -> Result<Referee<'s>, RefereeError> {
        let rules = &spec.rules;
        let record = match &spec.opening {
            Some(o) => Record {
                rules: Some(RulesField::of(rules)),
                info: Vec::new(),
                ..o.record.clone()
            },
            None => Record::new(spec.size, Some(RulesField::of(rules))),
        };
        let start = record
            .start_position(rules)
            .map_err(|e| RefereeError::StartPosition(Box::new(e)))?;
        let start_setup: Setup = start.to_setup();
        let mut pos: Position = start;
        let mut wire: Vec<String> = Vec::new();
        for k in 0..record.moves.len() {
            let m = &record.moves[k];
            let notation = Notation::format_numbered(
                rules,
                m.number,
                m.claimed.unwrap_or(pos.turn()),
                m.action,
            );
            let (next, _) = record
                .advance_move(&pos, k)
                .map_err(|e| RefereeError::Opening(Box::new(e)))?;
            wire.push(if m.replaced {
                format!("{notation}{}", Written::REPLACED)
            } else {
                notation
            });
            pos = next;
        }
        let state = (0..nseats)
            .map(|_| SeatState {
                sent: 0,
                clock: spec.clock.map(|c| c.base),
                used: Duration::ZERO,
            })
            .collect();
        Ok(Referee {
            spec,
            nseats,
            record,
            start_setup,
            pos,
            wire,
            state,
            replaced: 0,
        })
    }

    /// The name of the player at seat `k`.
    fn player(&self, k: usize) -> String {
        match &self.spec.team {
            Some(t) if self.nseats == 4 => t[k].clone(),
            _ => self.spec.names[k.min(1)].clone(),
        }
    }

    /// Refuses a game that starts from a set-up position (not the empty board at move 1) when
    /// a seat cannot be told it ([`Seat::is_told_the_start`]): the player would play another
    /// game than the one refereed and recorded. A match checks this before its first game
    /// ([`super::check_starts_told`]); this is the check of the game itself.
    fn check_told(&self, seats: &[&mut dyn Seat]) -> Result<(), RefereeError> {
        let Some(k) = seats.iter().position(|s| !s.is_told_the_start()) else {
            return Ok(());
        };
        if !starts_set_up(self.spec)? {
            return Ok(());
        }
        Err(RefereeError::UntoldStart {
            player: self.player(k),
            opening: self
                .spec
                .opening
                .as_ref()
                .map_or_else(String::new, |o| o.name.clone()),
        })
    }

    /// The forfeit of the program at seat `k` at move `n`.
    fn forfeit(&self, k: usize, n: u32, kind: ForfeitKind, message: String) -> Ending {
        let player = self.player(k);
        let colour = seat_colour(self.nseats, k);
        Ending::Forfeit {
            by: colour,
            forfeit: ForfeitField {
                player,
                colour: colour.name().into(),
                kind,
                move_number: n,
                clause: None,
                code: None,
                message,
            },
        }
    }

    /// Asks every seat for its capabilities: the forfeit of the first that fails or cannot
    /// play this game, or `None`.
    fn negotiate_all(&self, seats: &mut [&mut dyn Seat]) -> Option<Ending> {
        let spec = self.spec;
        for (k, seat) in seats.iter_mut().enumerate() {
            let caps = negotiate(&mut **seat, spec.move_time.max(STARTUP_TIME));
            let why = match caps {
                Err((kind, m)) => Some((kind, m)),
                Ok(caps) => refuses(&caps, &spec.rules, spec.size).map(|w| {
                    (
                        ForfeitKind::Protocol,
                        format!("the player cannot play this game: {w}"),
                    )
                }),
            };
            if let Some((kind, m)) = why {
                return Some(self.forfeit(k, self.pos.move_number(), kind, m));
            }
        }
        None
    }

    /// The `genmove` request of move `n` (`turn`, or one of `specials`) to the seat `side`,
    /// and the time it has to answer: the moves it has not been sent yet, and with its first
    /// request the start position and every move since.
    fn request(
        &self,
        side: usize,
        n: u32,
        turn: Turn,
        specials: &[Turn],
    ) -> (GenmoveRequest, Duration) {
        let spec = self.spec;
        let st = &self.state[side];
        let timeout = match st.clock {
            Some(left) => left.min(spec.move_time),
            None => spec.move_time,
        }
        .max(Duration::from_millis(1));
        let first = st.sent == 0;
        let req = GenmoveRequest {
            protocol: PLAYER_PROTOCOL.into(),
            id: Id::Number(n.into()),
            action: "genmove".into(),
            game: spec.name.clone(),
            position: first.then(|| self.start_setup.clone()),
            moves: self.wire[if first { 0 } else { st.sent }..].to_vec(),
            to_play: turn_field(n, turn),
            special: specials.iter().map(|t| turn_field(n, *t)).collect(),
            time_ms: timeout.as_millis() as u64,
            clock_ms: st.clock.map(|left| left.as_millis() as u64),
        };
        (req, timeout)
    }

    /// One move: the game counted when over (or at the move limit), else the seat of the turn
    /// asked, on its clock, and its move read and played.
    fn step(&mut self, seats: &mut [&mut dyn Seat]) -> Result<Step, RefereeError> {
        let spec = self.spec;
        if self.pos.game_over() {
            return Ok(Step::End(counted(&self.pos, false)));
        }
        if self.record.moves.len() >= m3go_engine::Notation::max_moves(spec.size) {
            return Ok(Step::End(counted(&self.pos, true)));
        }
        let n = self.pos.move_number();
        let turn = self.pos.turn();
        let side = seat_index(self.nseats, turn);
        let specials: Vec<Turn> = m3go_engine::Turn::special_turns(
            &spec.rules,
            false,
            turn,
            (n >= 2).then(|| self.pos.turn_of(n - 1)),
        )
        .into_iter()
        .filter(|t| t.player == turn.player)
        .collect();
        let (req, timeout) = self.request(side, n, turn, &specials);
        let req = PlayerRequest::Genmove(Box::new(req));
        let t0 = Instant::now();
        let ans = seats[side].ask(&req, timeout);
        let took = t0.elapsed();
        let sent = self.wire.len();
        let st = &mut self.state[side];
        st.used += took;
        st.sent = sent;
        let ans = match ans {
            Ok(a) => a,
            Err(e) => {
                return Ok(Step::End(self.forfeit(
                    side,
                    n,
                    failure_kind(&e),
                    e.to_string(),
                )))
            }
        };
        if let Some(left) = st.clock {
            if took > left {
                return Ok(Step::End(self.forfeit(
                    side,
                    n,
                    ForfeitKind::Timeout,
                    // took rounded up and the time left down, so that the first is the larger
                    // as it was (never "took 0 ms with 0 ms left")
                    format!(
                        "the clock ran out: the answer took {} ms with {} ms left",
                        took.as_nanos().div_ceil(1_000_000),
                        left.as_millis()
                    ),
                )));
            }
            st.clock = Some(left - took + spec.clock.map_or(Duration::ZERO, |c| c.increment));
        }
        match self.read_move(&req, &ans, side, n, turn, &specials) {
            Ok((action, claimed, comment)) => self.play(side, n, turn, claimed, action, comment),
            Err(ending) => Ok(Step::End(*ending)),
        }
    }

    /// The move an answer gives (its action, the turn it claims, its comment), or how the game
    /// ends: a resignation, or the forfeit of an answer that does not read, names another move
    /// number or claims a turn that is not the player's.
    fn read_move(
        &self,
        req: &PlayerRequest,
        ans: &Value,
        side: usize,
        n: u32,
        turn: Turn,
        specials: &[Turn],
    ) -> Result<(Action, Turn, Option<String>), Box<Ending>> {
        let GenmoveAnswer {
            mv: text, comment, ..
        } = read_answer(req.id(), ans)
            .map_err(|e| Box::new(self.forfeit(side, n, ForfeitKind::Protocol, e.to_string())))?;
        if text.trim().eq_ignore_ascii_case(RESIGN) {
            return Err(Box::new(Ending::Resigned(turn.player)));
        }
        let m = Move::parse_in(&text, &self.spec.rules, self.spec.size).map_err(|e| {
            Box::new(self.forfeit(
                side,
                n,
                ForfeitKind::Protocol,
                format!("the move `{}` does not read: {e}", clip(&text, 60)),
            ))
        })?;
        if let Some(k) = m.number.filter(|&k| k != n) {
            return Err(Box::new(self.forfeit(
                side,
                n,
                ForfeitKind::Protocol,
                format!(
                    "the move `{}` names move {k}, but move {n} was asked for",
                    clip(&text, 60)
                ),
            )));
        }
        let claimed = m.turn.unwrap_or(turn);
        if claimed != turn && !specials.contains(&claimed) {
            return Err(Box::new(self.forfeit(
                side,
                n,
                ForfeitKind::WrongKind,
                format!(
                    "the move `{}` places {} ({}), but move {n} is {} ({})",
                    clip(&text, 60),
                    claimed.symbol(),
                    claimed.describe(),
                    turn.symbol(),
                    turn.describe()
                ),
            )));
        }
        Ok((m.action, claimed, comment))
    }

    /// Plays move `n` (`action`, claiming `claimed`) for the seat `side`: recorded when legal;
    /// when refused, a pass that replaces it (`--illegal pass`, M20-REPLAY-PASS) or the
    /// player's forfeit.
    fn play(
        &mut self,
        side: usize,
        n: u32,
        turn: Turn,
        claimed: Turn,
        action: Action,
        comment: Option<String>,
    ) -> Result<Step, RefereeError> {
        let notation = Notation::format_numbered(&self.spec.rules, n, claimed, action);
        let mv = Move {
            action,
            number: Some(n),
            turn: Some(claimed),
        };
        let ill = match self.pos.play(mv) {
            Ok(next) => {
                self.record.moves.push(RecordMove {
                    number: n,
                    action,
                    claimed: Some(claimed),
                    place: format!("move {n}"),
                    text: notation.clone(),
                    replaced: false,
                    comment,
                });
                self.wire.push(notation);
                self.pos = next;
                return Ok(Step::Next);
            }
            Err(ill) => ill,
        };
        let refusal = format!(
            "m3go: refused ({}, {}): {}",
            ill.reason.code(),
            ill.clause,
            ill.message
        );
        if self.spec.illegal_pass && claimed == turn && matches!(action, Action::Place(_)) {
            // M20-REPLAY-PASS: the refused move stays in the record as a pass that replaced
            // it, played as the replay plays it
            self.record.moves.push(RecordMove {
                number: n,
                action,
                claimed: None,
                place: format!("move {n}"),
                text: notation.clone(),
                replaced: true,
                comment: Some(refusal),
            });
            let k = self.record.moves.len() - 1;
            return match self.record.advance_move(&self.pos, k) {
                Ok((next, _)) => {
                    self.pos = next;
                    self.wire.push(format!("{notation}{}", Written::REPLACED));
                    self.replaced += 1;
                    Ok(Step::Next)
                }
                Err(error) => Err(RefereeError::ReplacingPass {
                    number: n,
                    notation,
                    error: Box::new(error),
                }),
            };
        }
        let mut f = self.forfeit(
            side,
            n,
            ForfeitKind::Illegal,
            format!("the move {notation} is refused: {}", ill.message),
        );
        if let Ending::Forfeit { forfeit, .. } = &mut f {
            forfeit.clause = Some(ill.clause.to_string());
            forfeit.code = Some(ill.reason.code().to_string());
        }
        Ok(Step::End(f))
    }
}

/// The count of a finished game (no dead stones: the game was played out), its margin and
/// winner; `limit` when the move limit stopped it.
fn counted(pos: &Position, limit: bool) -> Ending {
    match Score::of(&pos.analysis(), pos.rules(), &[]) {
        Ok(s) => Ending::Counted {
            margin_quarters: s.margin_quarters,
            winner: s.winner,
            limit,
        },
        // no dead stones are given, so the count cannot fail; a draw if it did
        Err(_) => Ending::Counted {
            margin_quarters: QuarterPoints(0),
            winner: Winner::Draw,
            limit,
        },
    }
}

/// The answer to the `genmove` request of id `id` (its move text, and its comment clipped to
/// 200 characters), or what is wrong with it (a protocol error): an answer of another id, an
/// error answer, an answer without a `move` string. Fields the answer has beyond these are
/// passed over, and a comment that is not a string is dropped.
pub fn read_answer(id: &Id, ans: &Value) -> Result<GenmoveAnswer, AnswerError> {
    let expected = id.to_value();
    if ans.get("id") != Some(&expected) {
        return Err(AnswerError::Id {
            got: ans.get("id").cloned().unwrap_or(Value::Null),
            expected,
        });
    }
    if let Some(e) = ans.get("error") {
        return Err(AnswerError::Error(e.clone()));
    }
    let Some(mv) = ans.get("move").and_then(Value::as_str) else {
        return Err(AnswerError::NoMove(ans.clone()));
    };
    let comment = ans
        .get("comment")
        .and_then(Value::as_str)
        .map(|c| clip(c, 200));
    Ok(GenmoveAnswer {
        protocol: ans
            .get("protocol")
            .and_then(Value::as_str)
            .map(str::to_string),
        id: expected,
        mv: mv.to_string(),
        comment,
    })
}

/// What is wrong with a player's answer to `genmove` ([`read_answer`]).
#[derive(Debug)]
pub enum AnswerError {
    /// The answer's id is not the request's.
    Id { got: Value, expected: Value },
    /// The player answered an error (its `error`).
    Error(Value),
    /// The answer has no `move` string (the answer).
    NoMove(Value),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Id { got, expected } => {
                write!(f, "the answer's id is {got}, expected {expected}")
            }
            AnswerError::Error(e) => write!(
                f,
                "the player answered an error: {}",
                clip(&e.to_string(), 200)
            ),
            AnswerError::NoMove(ans) => write!(
                f,
                "the answer has no `move` string: `{}`",
                clip(&ans.to_string(), 200)
            ),
        }
    }
}

impl std::error::Error for AnswerError {}

/// The record's game information: the players, the result, the event and round, and the
/// ending in words (the game comment; a forfeit's also on the last move played).
fn annotate(p: &mut Played) {
    let result = p.result();
    let why = match &p.ending {
        Ending::Counted {
            margin_quarters,
            limit,
            ..
        } => format!(
            "m3go: {} counted by m3go (M20-SCORE-AREA): black minus white less komi = {} quarter points",
            if *limit {
                "stopped at the move limit (ten moves per point) and"
            } else {
                "the game ended by the rules (GO-END) and was"
            },
            margin_quarters
        ),
        Ending::Resigned(c) => format!("m3go: {} ({}) resigned", p.spec.names[seat_of(*c)], c.name()),
        Ending::Forfeit { forfeit: f, .. } => format!(
            "m3go: {} ({}) forfeits at move {}: {}{}",
            f.player,
            f.colour,
            f.move_number,
            f.kind.name(),
            match (&f.clause, &f.code) {
                (Some(c), Some(code)) => format!(" ({code}, {c}): {}", f.message),
                _ => format!(": {}", f.message),
            }
        ),
    };
    if let (Ending::Forfeit { .. }, Some(last)) = (&p.ending, p.record.moves.last_mut()) {
        last.comment = Some(match &last.comment {
            Some(c) => format!("{c}\n{why}"),
            None => why.clone(),
        });
    }
    p.record.info = vec![
        ("black".into(), p.spec.names[0].clone()),
        ("white".into(), p.spec.names[1].clone()),
        ("result".into(), result),
        ("event".into(), "m3go match".into()),
        ("round".into(), p.spec.number.to_string()),
        ("game-name".into(), p.spec.name.clone()),
        (
            "game-comment".into(),
            match &p.spec.opening {
                Some(o) => format!(
                    "m3go: opening {} ({} moves)\n{why}",
                    o.name,
                    o.record.moves.len()
                ),
                None => why,
            },
        ),
    ];
    // SGF's TM and OT: the time control (--time BASE+INC) and the per-move limit
    let limit = format!("at most {} s per move", seconds(p.spec.move_time));
    if let Some(c) = p.spec.clock {
        p.record.info.push(("time".into(), seconds(c.base)));
        p.record.info.push((
            "overtime".into(),
            format!("{} s added per move, {limit}", seconds(c.increment)),
        ));
    } else {
        p.record
            .info
            .push(("overtime".into(), format!("no clock, {limit}")));
    }
}

/// A duration in seconds as SGF's TM writes it: `60`, `0.5`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}
