//! `m3go player --protocol gtp`: the baseline players speaking GTP version 2 with m3go's
//! three-colour extension (spec/play-protocol.md "GTP"; the names and vertices are
//! `crate::referee::gtp`'s). The same choices as the play protocol's loop: under the same
//! --seed, game name (`m3go-game`) and position, the same move.

use crate::conform::capabilities::Capabilities;
use crate::conform::play_protocol::PlayerCapabilities;
use crate::input::ReadError;
use crate::io::clip;
use crate::io::read_line_bounded;
use crate::referee::gtp::{
    parse_colour, parse_komi, parse_vertex, vertex, CAPABILITIES_COMMAND, GAME_COMMAND,
    GTP_VERSION, POSITION_COMMAND, REPLACED_COMMAND,
};
use crate::referee::strategy::{choose, Strategy};
use m3go_engine::formats::record::Record;
use m3go_engine::game::SplitMix64;
use m3go_engine::rules::RulesField;
use m3go_engine::{Action, InputError, Move, Position, Rules, Setup};

/// The commands answered, as `list_commands` lists them.
const COMMANDS: [&str; 17] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    CAPABILITIES_COMMAND,
    POSITION_COMMAND,
    GAME_COMMAND,
    REPLACED_COMMAND,
];

/// The player's state: the rules and size set, the game's name, the positions of the game (the
/// first its start: `undo` goes back one).
struct Engine {
    strategy: Strategy,
    seed: u64,
    rules: Rules,
    size: usize,
    game: String,
    /// The start position given by `m3go-position`, used by `clear_board` while the size is
    /// its own.
    start: Option<Position>,
    positions: Vec<Position>,
}

impl Engine {
    fn new(strategy: Strategy, seed: u64) -> Engine {
        let mut e = Engine {
            strategy,
            seed,
            rules: Rules::m3go_2020(),
            size: 19,
            game: String::new(),
            start: None,
            positions: Vec::new(),
        };
        // an empty 19x19 board under m3go-2020 always builds
        let _ = e.clear();
        e
    }

    /// Back to the start: the `m3go-position` start, or an empty board of the size.
    fn clear(&mut self) -> Result<(), GtpError> {
        let start = match &self.start {
            Some(p) if p.board().size() == self.size => p.clone(),
            _ => Record::new(self.size, Some(RulesField::of(&self.rules)))
                .start_position(&self.rules)
                .map_err(GtpError::Start)?,
        };
        self.positions = vec![start];
        Ok(())
    }

    fn pos(&self) -> Option<&Position> {
        self.positions.last()
    }

    /// The answer to one command: `Ok` text for `=`, `Err` text for `?`; `None` to quit after
    /// answering.
    fn answer(&mut self, name: &str, args: &str) -> Result<String, GtpError> {
        let arg = args.split_whitespace().collect::<Vec<_>>();
        match name {
            "protocol_version" => Ok(GTP_VERSION.into()),
            "name" => Ok(format!("m3go player ({})", self.strategy.name())),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS
                .contains(&arg.first().copied().unwrap_or(""))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => {
                let size: usize = arg
                    .first()
                    .and_then(|a| a.parse().ok())
                    .ok_or(GtpError::SizeNotANumber)?;
                if m3go_engine::Board::check_size(size).is_err() {
                    return Err(GtpError::UnacceptableSize);
                }
                self.size = size;
                self.clear()?;
                Ok(String::new())
            }
            "clear_board" => self.clear().map(|_| String::new()),
            "komi" => {
                let k = parse_komi(arg.first().copied().unwrap_or("")).map_err(GtpError::Komi)?;
                self.rules.komi = k;
                if let Some(s) = &mut self.start {
                    *s = s
                        .with_rules(&self.rules, "komi")
                        .map_err(GtpError::Position)?;
                }
                if self.positions.len() <= 1 {
                    self.clear()?;
                }
                Ok(String::new())
            }
            "play" => {
                let (Some(c), Some(v)) = (arg.first(), arg.get(1)) else {
                    return Err(GtpError::PlayArguments("play"));
                };
                let turn = parse_colour(c).ok_or_else(|| GtpError::Colour(c.to_string()))?;
                let action = parse_vertex(v, self.size).map_err(GtpError::Vertex)?;
                self.advance(turn, action)?;
                Ok(String::new())
            }
            "genmove" => {
                let c = arg.first().copied().unwrap_or("");
                let turn = parse_colour(c).ok_or_else(|| GtpError::Colour(c.to_string()))?;
                let pos = self.pos().ok_or(GtpError::NoPosition)?;
                let n = pos.move_number();
                let mut rng = SplitMix64(
                    self.seed
                        ^ crate::referee::strategy::name_hash(&self.game)
                        ^ u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let action = choose(self.strategy, pos, pos.rules(), &mut rng);
                self.advance(turn, action)?;
                Ok(match action {
                    Action::Pass => "pass".into(),
                    Action::Place(p) => vertex(p, self.size),
                })
            }
            REPLACED_COMMAND => {
                // M20-REPLAY-PASS: the referee refused the move and replaced it by a pass that
                // does not count towards the end; the point is the refused move's, read so
                // that a malformed command is refused
                let (Some(c), Some(v)) = (arg.first(), arg.get(1)) else {
                    return Err(GtpError::PlayArguments(REPLACED_COMMAND));
                };
                let turn = parse_colour(c).ok_or_else(|| GtpError::Colour(c.to_string()))?;
                parse_vertex(v, self.size).map_err(GtpError::Vertex)?;
                self.advance(turn, Action::Pass)?;
                if let Some(p) = self.positions.last_mut() {
                    p.forget_trailing_passes();
                }
                Ok(String::new())
            }
            "undo" => {
                if self.positions.len() <= 1 {
                    return Err(GtpError::CannotUndo);
                }
                self.positions.pop();
                Ok(String::new())
            }
            "showboard" => Ok(format!(
                "\n{}",
                self.pos()
                    .map(|p| p.board().to_diagram().trim_end().to_string())
                    .unwrap_or_default()
            )),
            CAPABILITIES_COMMAND => {
                let caps = Capabilities::m3go();
                serde_json::to_string(&PlayerCapabilities {
                    presets: caps.presets,
                    options: caps.options,
                    sizes: None,
                })
                .map_err(GtpError::Capabilities)
            }
            POSITION_COMMAND => {
                let setup: Setup =
                    serde_json::from_str(args.trim()).map_err(GtpError::PositionUnread)?;
                let pos = setup
                    .to_position(POSITION_COMMAND)
                    .map_err(GtpError::Position)?;
                self.size = pos.board().size();
                self.rules = pos.rules().clone();
                self.start = Some(pos);
                self.clear()?;
                Ok(String::new())
            }
            GAME_COMMAND => {
                self.game = args.trim().to_string();
                Ok(String::new())
            }
            _ => Err(GtpError::UnknownCommand),
        }
    }

    /// Plays a move of `turn` (which must be the position's turn, or one it may claim).
    fn advance(&mut self, turn: m3go_engine::Turn, action: Action) -> Result<(), GtpError> {
        let pos = self.pos().ok_or(GtpError::NoPosition)?;
        let m = Move {
            action,
            number: Some(pos.move_number()),
            turn: Some(turn),
        };
        let next = pos.play(m).map_err(GtpError::Illegal)?;
        self.positions.push(next);
        Ok(())
    }
}

/// Why a command is answered `?` (the message after it).
#[derive(Debug)]
enum GtpError {
    /// `boardsize` without a number.
    SizeNotANumber,
    /// A board size m3go does not play.
    UnacceptableSize,
    /// The empty board of the size under the rules.
    Start(InputError),
    /// `komi` that does not read.
    Komi(crate::referee::gtp::KomiError),
    /// A position refused (`m3go-position`'s, or the start under a new komi).
    Position(m3go_engine::game::PositionError),
    /// `play` (or `m3go-replaced`, the command named) without a colour and a vertex.
    PlayArguments(&'static str),
    /// A colour that is not one (as given).
    Colour(String),
    /// A vertex that is not one of the board.
    Vertex(crate::referee::gtp::VertexError),
    /// No position to play on.
    NoPosition,
    /// `undo` at the start.
    CannotUndo,
    /// The capabilities could not be written.
    Capabilities(serde_json::Error),
    /// `m3go-position`'s JSON does not read.
    PositionUnread(serde_json::Error),
    /// A move refused.
    Illegal(m3go_engine::Illegal),
    /// A command m3go does not know.
    UnknownCommand,
}

impl std::fmt::Display for GtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GtpError::SizeNotANumber => f.write_str("boardsize: expected a number"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::Start(e) => write!(f, "{e}"),
            GtpError::Komi(e) => write!(f, "{e}"),
            GtpError::Position(e) => write!(f, "{e}"),
            GtpError::PlayArguments(cmd) => write!(f, "{cmd}: expected a colour and a vertex"),
            GtpError::Colour(c) => write!(f, "invalid color `{}`", clip(c, 20)),
            GtpError::Vertex(e) => write!(f, "{e}"),
            GtpError::NoPosition => f.write_str("no position"),
            GtpError::CannotUndo => f.write_str("cannot undo"),
            GtpError::Capabilities(e) => write!(f, "{e}"),
            GtpError::PositionUnread(e) => write!(f, "the position does not read: {e}"),
            GtpError::Illegal(e) => write!(f, "illegal move: {e}"),
            GtpError::UnknownCommand => f.write_str("unknown command"),
        }
    }
}

impl std::error::Error for GtpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GtpError::Start(e) => Some(e),
            GtpError::Komi(e) => Some(e),
            GtpError::Position(e) => Some(e),
            GtpError::Vertex(e) => Some(e),
            GtpError::Capabilities(e) | GtpError::PositionUnread(e) => Some(e),
            GtpError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

/// GTP's preprocessing of a command line: control characters but HT and LF removed, HT made a
/// space, a comment (`#` on) removed; `m3go-position`'s argument, JSON, is kept whole.
fn preprocess(line: &str) -> String {
    let line: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    if line.split_whitespace().next() == Some(POSITION_COMMAND)
        || line
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w == POSITION_COMMAND)
    {
        return line;
    }
    match line.find('#') {
        Some(i) => line[..i].to_string(),
        None => line,
    }
}

/// Serves GTP on standard input and output until `quit` or the end of the input.
pub fn run(strategy: Strategy, seed: u64) -> Result<(), InputError> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut engine = Engine::new(strategy, seed);
    while let Some(line) = read_line_bounded(&mut input, ReadError::MAX_INPUT_BYTES) {
        let line = match line {
            Ok(l) => String::from_utf8_lossy(&l).into_owned(),
            Err(ReadError::TooLarge { limit }) => {
                outln!("? the line is longer than {limit} bytes\n");
                crate::cli::common::flush_out();
                continue;
            }
            Err(ReadError::Io(e)) => {
                return Err(InputError::new(format!("cannot read: {e}")).file("stdin"))
            }
        };
        let line = preprocess(&line);
        let mut words = line.trim().splitn(2, ' ');
        let Some(mut first) = words.next().filter(|w| !w.is_empty()) else {
            continue;
        };
        let mut rest = words.next().unwrap_or("");
        // an optional id
        let id = if first.chars().all(|c| c.is_ascii_digit()) {
            let id = first.to_string();
            let mut w = rest.trim_start().splitn(2, ' ');
            first = w.next().unwrap_or("");
            rest = w.next().unwrap_or("");
            id
        } else {
            String::new()
        };
        let (mark, text) = match engine.answer(first, rest) {
            Ok(t) => ('=', t),
            Err(e) => ('?', e.to_string()),
        };
        let sep = if text.is_empty() || text.starts_with('\n') {
            ""
        } else {
            " "
        };
        outln!("{mark}{id}{sep}{text}\n");
        crate::cli::common::flush_out();
        if first == "quit" {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::gtp::komi_text;

    #[test]
    fn a_game_of_commands() {
        let mut e = Engine::new(Strategy::Random, 1);
        assert_eq!(e.answer("protocol_version", "").ok(), Some("2".into()));
        assert_eq!(e.answer("boardsize", "5").ok(), Some(String::new()));
        assert_eq!(e.answer("komi", "3.75").ok(), Some(String::new()));
        assert_eq!(e.rules.komi.quarters(), 15);
        assert_eq!(e.answer("play", "black C3").ok(), Some(String::new()));
        // the same point again: refused
        assert!(e.answer("play", "white C3").is_err());
        // move 2 is white's: a black stone is refused
        assert!(e.answer("play", "black D3").is_err());
        let mv = e.answer("genmove", "white").expect("a move");
        assert!(parse_vertex(&mv, 5).is_ok(), "{mv}");
        assert_eq!(e.answer("undo", "").ok(), Some(String::new()));
        assert_eq!(e.positions.len(), 2);
        assert_eq!(
            e.answer("known_command", "genmove").ok(),
            Some("true".into())
        );
        assert_eq!(e.answer("known_command", "fly").ok(), Some("false".into()));
        assert!(e.answer("fly", "").is_err());
        assert_eq!(komi_text(e.rules.komi), "3.75");
    }
}
