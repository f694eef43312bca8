//! GTP version 2 with m3go's three-colour extension (spec/play-protocol.md "GTP"): the names of
//! the stone kinds, vertices, komi and the extension commands, shared by both sides; and the
//! referee's side, `GtpSeat`, which drives a GTP program as a `Seat` of
//! `play_game`: each request of the play protocol (`m3go-player/1`)
//! becomes GTP commands and the program's answers the play protocol's answers, so that a game
//! is refereed alike whatever protocol its players speak. The player's side is
//! `m3go player --protocol gtp` (`crate::cli::player_gtp`).

use super::game::{PlayerRequest, Seat};
use crate::conform::failure::ProgramFailure;
use crate::conform::play_protocol::{
    GenmoveAnswer, GenmoveRequest, PlayerCapabilities, PlayerCapabilitiesAnswer, PLAYER_PROTOCOL,
};
use crate::conform::protocol::{Id, Implementation};
use crate::conform::runner::{External, ReadBounds};
use crate::io::clip;
use m3go_engine::game::Written;
use m3go_engine::rules::Komi;
use m3go_engine::{Action, Colour, Labels, Point, Rules, StoneKind, Turn};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The GTP version spoken (`protocol_version`).
pub(crate) const GTP_VERSION: &str = "2";

/// The extension command naming what a player plays: its answer is one line of JSON, the play
/// protocol's capabilities (`{"presets":[…],"sizes":[…]}`).
pub(crate) const CAPABILITIES_COMMAND: &str = "m3go-capabilities";
/// The extension command giving the start position: its argument, the rest of the line, is a
/// position file as JSON (rules, size, move, diagram; spec/README.md "Position file").
pub(crate) const POSITION_COMMAND: &str = "m3go-position";
/// The extension command naming the game (the play protocol's `game`).
pub(crate) const GAME_COMMAND: &str = "m3go-game";
/// The extension command telling a move the referee refused under `--illegal pass`
/// (`m3go-replaced COLOUR VERTEX`): the move is replaced by a pass that does not count towards
/// the end of the game (M20-REPLAY-PASS), which a plain `play COLOUR pass` cannot say.
pub(crate) const REPLACED_COMMAND: &str = "m3go-replaced";

/// The commands a GTP player must answer to play a game.
pub(crate) const REQUIRED_COMMANDS: [&str; 6] = [
    "protocol_version",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
];

/// The GTP colour of a turn: `black`, `white` (the players' own stones), `black-flower` (华)
/// and `white-flower` (花).
pub(crate) fn colour_name(t: Turn) -> &'static str {
    match (t.player, t.kind) {
        (Colour::Black, StoneKind::Own) => "black",
        (Colour::White, StoneKind::Own) => "white",
        (Colour::Black, StoneKind::Flower) => "black-flower",
        (Colour::White, StoneKind::Flower) => "white-flower",
    }
}

/// Reads a GTP colour (any case): `black`/`b`, `white`/`w`, `black-flower`/`bf`/`华`,
/// `white-flower`/`wf`/`花`.
pub(crate) fn parse_colour(s: &str) -> Option<Turn> {
    let (player, kind) = match s.to_ascii_lowercase().as_str() {
        "b" | "black" => (Colour::Black, StoneKind::Own),
        "w" | "white" => (Colour::White, StoneKind::Own),
        "bf" | "black-flower" | "华" => (Colour::Black, StoneKind::Flower),
        "wf" | "white-flower" | "花" => (Colour::White, StoneKind::Flower),
        _ => return None,
    };
    Some(Turn { player, kind })
}

/// GTP's column letters: A to T without I.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// The GTP vertex of `p` on a board of `size` (`D4`: column from the left, row from the bottom).
pub(crate) fn vertex(p: Point, size: usize) -> String {
    let h = Point::half(size);
    let col = COLUMNS[(p.x + h) as usize] as char;
    format!("{col}{}", p.y + h + 1)
}

/// Reads a GTP vertex or `pass` (any case) on a board of `size`.
pub(crate) fn parse_vertex(s: &str, size: usize) -> Result<Action, VertexError> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Action::Pass);
    }
    let bad = || VertexError {
        text: t.to_string(),
        size,
    };
    let mut chars = t.chars();
    let c = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&x| x as char == c)
        .ok_or_else(bad)?;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if col >= size || row == 0 || row > size {
        return Err(bad());
    }
    let h = Point::half(size);
    Ok(Action::Place(Point::new(
        col as i32 - h,
        row as i32 - 1 - h,
    )))
}

/// A GTP vertex that is not one of the board ([`parse_vertex`]): the text, the board's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VertexError {
    pub text: String,
    pub size: usize,
}

impl std::fmt::Display for VertexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let size = self.size;
        write!(
            f,
            "`{}` is not a vertex of a {size}x{size} board",
            clip(&self.text, 40)
        )
    }
}

impl std::error::Error for VertexError {}

/// Komi as GTP's `komi` writes it: points, exact to the quarter (`7.5`, `3.75`, `-0.25`, `0`).
pub(crate) fn komi_text(k: Komi) -> String {
    let q = k.quarters();
    let sign = if q < 0 { "-" } else { "" };
    let (whole, frac) = (q.abs() / 4, q.abs() % 4);
    let frac = ["", ".25", ".5", ".75"][frac as usize];
    format!("{sign}{whole}{frac}")
}

/// Reads GTP's `komi`: a number of points, a multiple of 0.25.
pub(crate) fn parse_komi(s: &str) -> Result<Komi, KomiError> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| KomiError::NotANumber(s.to_string()))?;
    let q = v * 4.0;
    if !v.is_finite() || q.fract() != 0.0 || q.abs() > 1600.0 {
        return Err(KomiError::OutOfRange(v));
    }
    Ok(Komi(q as i32))
}

/// Why GTP's `komi` does not read ([`parse_komi`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum KomiError {
    /// Not a number (the text).
    NotANumber(String),
    /// Not a multiple of 0.25 between -400 and 400.
    OutOfRange(f64),
}

impl std::fmt::Display for KomiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KomiError::NotANumber(s) => write!(f, "`{}` is not a number", clip(s, 40)),
            KomiError::OutOfRange(v) => write!(
                f,
                "komi {v}: expected a multiple of 0.25 between -400 and 400"
            ),
        }
    }
}

impl std::error::Error for KomiError {}

/// A program's answer to one GTP command: `=` and its text, or `?` and its message.
pub(crate) type GtpAnswer = Result<String, GtpFailure>;

/// A GTP program's failure answer: `?` and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct GtpFailure(pub String);

impl std::fmt::Display for GtpFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GtpFailure {}

/// The longest line of a GTP player's answers, in bytes (its line end included).
pub(crate) const GTP_MAX_LINE_BYTES: usize = 64 << 10;

/// The most a GTP player's answer to one command may hold, in bytes: its lines (blank lines
/// before it included) with their line ends; `list_commands` is some 2 KB.
pub(crate) const GTP_MAX_ANSWER_BYTES: usize = 1 << 20;

/// The bounds of what is read from a GTP player: lines of [`GTP_MAX_LINE_BYTES`], a backlog of
/// one whole answer and two lines more.
pub(crate) const GTP_BOUNDS: ReadBounds = ReadBounds {
    line: GTP_MAX_LINE_BYTES,
    backlog: GTP_MAX_ANSWER_BYTES + 2 * GTP_MAX_LINE_BYTES,
};

/// Reads one GTP answer to `cmd` from its lines (`next`: the next line the program writes,
/// without its line end): blank lines before it skipped, then `=` or `?`, an optional id, its
/// text, up to its blank line. An answer (with the blank lines before it and its line ends)
/// longer than `max` bytes is [`ProgramFailure::Protocol`], a first line that begins with
/// neither `=` nor `?` is [`ProgramFailure::GtpUnreadable`]; a failure of `next` is returned
/// as it is. Never reads more than `max` bytes' worth of lines.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn read_answer(
    cmd: &str,
    max: usize,
    mut next: impl FnMut() -> Result<String, ProgramFailure>,
) -> Result<GtpAnswer, ProgramFailure> {
    let mut read = 0usize;
    let mut line = || -> Result<String, ProgramFailure> {
        let l = next()?;
        read = read.saturating_add(l.len() + 1);
        if read > max {
            return Err(ProgramFailure::Protocol(format!(
                "the GTP player's answer to `{}` is longer than {max} bytes",
                clip(cmd, 60)
            )));
        }
        Ok(l)
    };
    let mut first = line()?;
    // blank lines before an answer are skipped (a program that ends its answers with two)
    while first.trim().is_empty() {
        first = line()?;
    }
    let ok = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(ProgramFailure::gtp_unreadable(cmd, &first)),
    };
    // `=12 text`: the id, then the text
    let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let mut text = rest.trim().to_string();
    loop {
        let l = line()?;
        if l.trim().is_empty() {
            break;
        }
        text.push('\n');
        text.push_str(l.trim_end());
    }
    Ok(if ok { Ok(text) } else { Err(GtpFailure(text)) })
}

/// The referee's side of GTP: a program driven through GTP commands, asked through the play
/// protocol's requests ([`Seat`]). Its failures are typed
/// ([`failure_kind`](super::game::failure_kind) names their kind): a `?` answer where `=` is
/// due, a missing required command, a version other than 2 are [`ProgramFailure::Protocol`];
/// an answer that does not begin with `=` or `?` is [`ProgramFailure::GtpUnreadable`].
pub(crate) struct GtpSeat {
    ext: External,
    /// The capabilities declared on the command line (`NAME=gtp[RULES;…]:COMMAND`), used
    /// instead of asking the program.
    declared: Option<PlayerCapabilities>,
    commands: Vec<String>,
    rules: Option<Rules>,
    size: usize,
    /// The program's own last move (its `genmove`) is on its board; the next request's moves
    /// begin with it.
    own_pending: bool,
}

impl GtpSeat {
    /// The seat of the program `ext`, declared to play `declared` (none: what it says).
    pub fn new(ext: External, declared: &[Rules]) -> GtpSeat {
        GtpSeat {
            ext,
            declared: (!declared.is_empty()).then(|| declared_capabilities(declared)),
            commands: Vec::new(),
            rules: None,
            size: 0,
            own_pending: false,
        }
    }

    fn knows(&self, c: &str) -> bool {
        self.commands.iter().any(|k| k == c)
    }

    /// Sends one command and reads its answer (until its blank line) before `deadline`,
    /// within [`GTP_MAX_ANSWER_BYTES`] ([`read_answer`]).
    fn command(
        &mut self,
        cmd: &str,
        deadline: Instant,
        limit: Duration,
    ) -> Result<GtpAnswer, ProgramFailure> {
        self.ext.send_text(&format!("{cmd}\n"))?;
        let ext = &mut self.ext;
        read_answer(cmd, GTP_MAX_ANSWER_BYTES, || {
            ext.receive_text(deadline, limit)
        })
    }

    /// A command whose answer must be `=`.
    fn must(
        &mut self,
        cmd: &str,
        deadline: Instant,
        limit: Duration,
    ) -> Result<String, ProgramFailure> {
        self.command(cmd, deadline, limit)?.map_err(|e| {
            ProgramFailure::Protocol(format!(
                "the GTP player answered `{}` with `? {}`",
                clip(cmd, 80),
                clip(&e.0, 200)
            ))
        })
    }

    fn capabilities(&mut self, id: &Id, timeout: Duration) -> Result<Value, ProgramFailure> {
        let deadline = Instant::now() + timeout;
        let version = self.must("protocol_version", deadline, timeout)?;
        if version.trim() != GTP_VERSION {
            return Err(ProgramFailure::Protocol(format!(
                "the GTP player speaks version `{}`, not {GTP_VERSION}",
                clip(&version, 40)
            )));
        }
        let name = self
            .command("name", deadline, timeout)?
            .unwrap_or_else(|_| "unnamed".into());
        let version = self
            .command("version", deadline, timeout)?
            .unwrap_or_default();
        let list = self.must("list_commands", deadline, timeout)?;
        self.commands = list.lines().map(|l| l.trim().to_string()).collect();
        if let Some(missing) = REQUIRED_COMMANDS.iter().find(|c| !self.knows(c)) {
            return Err(ProgramFailure::Protocol(format!(
                "the GTP player does not list `{missing}` (list_commands)"
            )));
        }
        let caps = if let Some(caps) = &self.declared {
            caps.clone()
        } else if self.knows(CAPABILITIES_COMMAND) {
            let text = self.must(CAPABILITIES_COMMAND, deadline, timeout)?;
            serde_json::from_str::<PlayerCapabilities>(&text).map_err(|e| {
                ProgramFailure::Protocol(format!(
                    "the answer to `{CAPABILITIES_COMMAND}` does not read ({e}): `{}`",
                    clip(&text, 200)
                ))
            })?
        } else {
            // a plain GTP engine: the ten-move cycle of m3go-2020 on any size
            PlayerCapabilities {
                presets: vec!["m3go-2020".into()],
                ..Default::default()
            }
        };
        answer(&PlayerCapabilitiesAnswer {
            protocol: None,
            id: id.to_value(),
            protocols: vec![PLAYER_PROTOCOL.into()],
            implementation: Implementation { name, version },
            capabilities: caps,
        })
    }

    fn genmove(
        &mut self,
        req: &GenmoveRequest,
        timeout: Duration,
    ) -> Result<Value, ProgramFailure> {
        let deadline = Instant::now() + timeout;
        if let Some(setup) = &req.position {
            let pos = setup
                .to_position("position")
                .map_err(|e| ProgramFailure::Request(format!("the start position: {e}")))?;
            let size = pos.board().size();
            let rules = pos.rules().clone();
            self.must(&format!("boardsize {size}"), deadline, timeout)?;
            self.must("clear_board", deadline, timeout)?;
            self.must(
                &format!("komi {}", komi_text(rules.komi)),
                deadline,
                timeout,
            )?;
            if self.knows(POSITION_COMMAND) {
                let text = serde_json::to_string(setup)
                    .map_err(|e| ProgramFailure::Request(e.to_string()))?;
                self.must(&format!("{POSITION_COMMAND} {text}"), deadline, timeout)?;
            }
            if self.knows(GAME_COMMAND) {
                self.must(&format!("{GAME_COMMAND} {}", req.game), deadline, timeout)?;
            }
            self.size = size;
            self.rules = Some(rules);
            self.own_pending = false;
        }
        let Some(rules) = self.rules.clone() else {
            return Err(ProgramFailure::Request(
                "the GTP player's first request has no position".into(),
            ));
        };
        for (k, text) in req.moves.iter().enumerate() {
            // the referee's own form (`白64.四O=pass`), read by the engine's one reader
            let w = Written::parse_in(text, &rules, self.size)
                .map_err(|e| ProgramFailure::Request(format!("the move `{text}`: {e}")))?;
            let (m, replaced) = (w.mv, w.replaced);
            if k == 0 && self.own_pending {
                self.own_pending = false;
                if !replaced {
                    // its own move, already on its board
                    continue;
                }
                // its move was refused and replaced by a pass
                self.must("undo", deadline, timeout)?;
            }
            let Some(turn) = m.turn else {
                return Err(ProgramFailure::Request(format!(
                    "the move `{text}` names no turn"
                )));
            };
            let v = match m.action {
                Action::Pass => "pass".to_string(),
                Action::Place(p) => vertex(p, self.size),
            };
            // M20-REPLAY-PASS: a replaced move is a pass that does not count towards the end;
            // told as such to a player that knows the extension, so that its end stays the
            // referee's, else as a plain pass (a GTP loop without the extension does not end
            // a game on passes)
            let cmd = match (replaced, self.knows(REPLACED_COMMAND)) {
                (true, true) => format!("{REPLACED_COMMAND} {} {v}", colour_name(turn)),
                (true, false) => format!("play {} pass", colour_name(turn)),
                (false, _) => format!("play {} {v}", colour_name(turn)),
            };
            self.must(&cmd, deadline, timeout)?;
        }
        self.own_pending = false;
        let turn = Turn {
            player: if req.to_play.player == "white" {
                Colour::White
            } else {
                Colour::Black
            },
            kind: if req.to_play.kind == "flower" {
                StoneKind::Flower
            } else {
                StoneKind::Own
            },
        };
        let cmd = format!("genmove {}", colour_name(turn));
        let ans = self.must(&cmd, deadline, timeout)?;
        let word = ans.trim();
        let mv = if word.eq_ignore_ascii_case("resign") {
            "resign".to_string()
        } else {
            match parse_vertex(word, self.size) {
                Ok(Action::Pass) => "pass".to_string(),
                Ok(Action::Place(p)) => p.format(Labels::Chinese),
                Err(e) => {
                    return Err(ProgramFailure::Protocol(format!(
                        "the answer to `{cmd}` does not read: {e}"
                    )))
                }
            }
        };
        self.own_pending = true;
        answer(&GenmoveAnswer {
            protocol: None,
            id: req.id.to_value(),
            mv,
            comment: None,
        })
    }
}

/// The capabilities of a player declared to play `rules` on the command line: their presets,
/// and each option where a rule set departs from its preset, with the values it takes there.
fn declared_capabilities(rules: &[Rules]) -> PlayerCapabilities {
    let mut caps = PlayerCapabilities::default();
    for r in rules {
        let preset = r.preset.name();
        if !caps.presets.iter().any(|p| p == preset) {
            caps.presets.push(preset.to_string());
        }
        let Ok(base) = Rules::preset(preset) else {
            continue;
        };
        let (mine, theirs) = (serde_json::json!(r), serde_json::json!(base));
        for (name, _, _) in Rules::OPTIONS {
            let v = &mine[*name];
            if *v == theirs[*name] {
                continue;
            }
            let values = caps
                .options
                .entry((*name).to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(vs) = values {
                if !vs.contains(v) {
                    vs.push(v.clone());
                }
            }
        }
    }
    caps
}

/// A play protocol answer as the referee reads a program's ([`Seat::ask`]).
fn answer(a: &impl serde::Serialize) -> Result<Value, ProgramFailure> {
    serde_json::to_value(a)
        .map_err(|e| ProgramFailure::Request(format!("the answer does not write: {e}")))
}

impl Seat for GtpSeat {
    /// The request as GTP commands, taken typed from the referee (no JSON read back).
    fn ask(&mut self, request: &PlayerRequest, timeout: Duration) -> Result<Value, ProgramFailure> {
        match request {
            PlayerRequest::Capabilities(c) => self.capabilities(&c.id, timeout),
            PlayerRequest::Genmove(req) => self.genmove(req, timeout),
        }
    }

    /// Only through `m3go-position`: GTP's `clear_board` leaves an empty board at move 1.
    fn is_told_the_start(&self) -> bool {
        self.knows(POSITION_COMMAND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip() {
        for size in [3, 5, 9, 19] {
            let h = Point::half(size);
            for x in -h..=h {
                for y in -h..=h {
                    let p = Point::new(x, y);
                    let v = vertex(p, size);
                    assert_eq!(parse_vertex(&v, size), Ok(Action::Place(p)), "{v}");
                }
            }
        }
        // the tengen of 9x9 is E5; the bottom left A1; no column I
        assert_eq!(vertex(Point::new(0, 0), 9), "E5");
        assert_eq!(vertex(Point::new(-4, -4), 9), "A1");
        assert_eq!(vertex(Point::new(4, 4), 9), "J9");
        assert!(parse_vertex("I3", 9).is_err());
        assert!(parse_vertex("A10", 9).is_err());
        assert!(parse_vertex("A0", 9).is_err());
        assert_eq!(parse_vertex("PASS", 9), Ok(Action::Pass));
    }

    /// Rules declared on the command line: their presets, and the values of the options where
    /// they depart from them, which the match's rules are then checked against.
    #[test]
    fn declared_rules_are_capabilities() {
        let mut plain = Rules::preset("flystone").expect("a preset");
        plain.flystones = 0;
        let caps = declared_capabilities(&[plain.clone(), Rules::m3go_2020()]);
        assert_eq!(caps.presets, ["flystone", "m3go-2020"]);
        assert_eq!(caps.options.len(), 1, "{:?}", caps.options);
        assert_eq!(caps.options["flystones"], serde_json::json!([0]));
        let size = 5;
        assert_eq!(super::super::game::refuses(&caps, &plain, size), None);
        let mut positional = plain.clone();
        positional.ko = m3go_engine::rules::Ko::Positional;
        assert!(super::super::game::refuses(&caps, &positional, size).is_some());
    }

    #[test]
    fn komi_in_quarters() {
        for q in [-7, -1, 0, 1, 2, 3, 30, 1600] {
            let k = Komi(q);
            assert_eq!(parse_komi(&komi_text(k)), Ok(k), "{}", komi_text(k));
        }
        assert_eq!(komi_text(Komi(30)), "7.5");
        assert_eq!(komi_text(Komi(-3)), "-0.75");
        assert!(parse_komi("0.1").is_err());
    }

    #[test]
    fn colours_name_every_turn() {
        for player in [Colour::Black, Colour::White] {
            for kind in [StoneKind::Own, StoneKind::Flower] {
                let t = Turn { player, kind };
                assert_eq!(parse_colour(colour_name(t)), Some(t));
                assert_eq!(
                    parse_colour(&t.symbol().to_string()).is_some(),
                    kind == StoneKind::Flower
                );
            }
        }
    }
}

#[cfg(test)]
mod answer_bounds {
    use super::*;

    fn from(lines: &[&str], max: usize) -> Result<GtpAnswer, ProgramFailure> {
        let mut it = lines.iter();
        read_answer("list_commands", max, || {
            it.next()
                .map(|l| l.to_string())
                .ok_or(ProgramFailure::NotRunning)
        })
    }

    #[test]
    fn an_answer_is_read_to_its_blank_line() {
        assert_eq!(
            from(&["", "=1 play", "genmove", "", "= next"], 100),
            Ok(Ok("play\ngenmove".to_string()))
        );
        assert_eq!(from(&["? no", ""], 100), Ok(Err(GtpFailure("no".into()))));
    }

    /// An answer past its bound is a protocol failure, blank lines before it counted; no more
    /// lines are asked for than the bound holds.
    #[test]
    fn an_answer_past_its_bound_is_a_protocol_failure() {
        let long: Vec<&str> = std::iter::once("= a")
            .chain(std::iter::repeat_n("play", 100))
            .collect();
        let r = from(&long, 50);
        assert!(
            matches!(&r, Err(ProgramFailure::Protocol(m)) if m.contains("longer than 50 bytes")),
            "{r:?}"
        );
        let blanks = vec![""; 100];
        assert!(matches!(
            from(&blanks, 50),
            Err(ProgramFailure::Protocol(_))
        ));
        let mut asked = 0;
        let _ = read_answer("list_commands", 50, || {
            asked += 1;
            Ok(if asked == 1 { "=" } else { "play" }.to_string())
        });
        // `=` and nine `play` are 47 bytes with their line ends: the tenth passes 50
        assert_eq!(asked, 11);
    }
}
