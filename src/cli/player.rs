//! `m3go player`: a baseline player speaking the play protocol (`m3go-player/1`,
//! spec/play-protocol.md) on standard input and output.

use crate::conform::play_protocol::{
    GenmoveAnswer, GenmoveRequest, PlayerCapabilities, PlayerCapabilitiesAnswer, PLAYER_PROTOCOL,
    PLAYER_PROTOCOLS,
};
use crate::conform::protocol::{code, error_answer, Implementation};
use crate::input::ReadError;
use crate::io::read_line_bounded;
use crate::referee::strategy::{choose, name_hash, Strategy};
use m3go_engine::game::{SplitMix64, Written};
use m3go_engine::{InputError, Move, Notation, Position};
use serde_json::Value;

/// Play games through the play protocol (m3go-player/1, JSON lines) on stdin: a baseline player.
///
/// Answers the capabilities request and move requests (`genmove`) one JSON line each, as
/// spec/play-protocol.md describes: `random` plays a legal move at random (never into its own
/// one-liberty eye), `greedy` the move that gains most stones by a one-move look, `mcts` UCT
/// with --playouts random playouts on the fast engine. Deterministic: the move depends only on
/// --seed, the game's name and the position (`m3go match --player a='m3go player --strategy
/// mcts --seed 1'`).
#[derive(Debug, clap::Args)]
pub struct PlayerArgs {
    /// How the move is chosen.
    #[arg(long, value_enum, default_value_t = StrategyArg::Random)]
    pub strategy: StrategyArg,
    /// Random playouts per move (mcts).
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub playouts: u32,
    /// The seed of the player's choices (mixed with the game's name and the move number).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The protocol spoken: the play protocol m3go-player/1 (`json`) or GTP version 2 with
    /// m3go's three-colour extension (`gtp`, spec/play-protocol.md "GTP").
    #[arg(long, value_enum, default_value_t = ProtocolArg::Json)]
    pub protocol: ProtocolArg,
}

/// `--protocol`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolArg {
    /// m3go-player/1: JSON lines.
    Json,
    /// GTP version 2 with m3go's three-colour extension.
    Gtp,
}

/// `--strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StrategyArg {
    /// A legal move at random.
    Random,
    /// The move that captures most or loses least by a one-move look.
    Greedy,
    /// UCT with random playouts on the fast engine.
    Mcts,
}

/// The game the player is in: its name and the position reached.
struct Game {
    name: String,
    pos: Position,
}

/// Plays the protocol's moves (`黑3.七A`, `白4.pass`, `黑7.七A=pass`: refused and replaced by a
/// pass that does not count towards the end of the game) on `pos`.
fn play_moves(pos: &Position, moves: &[String]) -> Result<Position, (String, String)> {
    let mut pos = pos.clone();
    let size = pos.board().size();
    for (k, text) in moves.iter().enumerate() {
        let field = format!("moves[{k}]");
        let w = Written::parse_in(text, pos.rules(), size)
            .map_err(|e| (field.clone(), format!("`{text}` does not read: {e}")))?;
        // a replaced pass is the schedule's turn's, whatever the refused move claimed
        let m = if w.replaced {
            Move {
                turn: None,
                ..w.played()
            }
        } else {
            w.mv
        };
        let mut next = pos
            .play(m)
            .map_err(|e| (field.clone(), format!("`{text}` is refused: {e}")))?;
        if w.replaced {
            next.forget_trailing_passes();
        }
        pos = next;
    }
    Ok(pos)
}

/// The answer to one move request, updating `game`.
fn genmove(
    req: &GenmoveRequest,
    game: &mut Option<Game>,
    strategy: Strategy,
    seed: u64,
) -> Result<Value, (String, String, String)> {
    let bad = |c: &str, f: &str, m: String| (c.to_string(), f.to_string(), m);
    let start = match (&req.position, game.take()) {
        (Some(setup), _) => setup
            .to_position("position")
            .map_err(|e| bad(code::BAD_POSITION, "position", e.to_string()))?,
        (None, Some(g)) if g.name == req.game => g.pos,
        (None, _) => {
            return Err(bad(
                code::BAD_REQUEST,
                "position",
                format!(
                    "game `{}` is not the game in play and the request has no position",
                    req.game
                ),
            ))
        }
    };
    let pos = play_moves(&start, &req.moves).map_err(|(f, m)| bad(code::ILLEGAL_MOVE, &f, m))?;
    if pos.move_number() != req.to_play.number {
        return Err(bad(
            code::BAD_REQUEST,
            "to_play",
            format!(
                "move {} is asked for, but the moves lead to move {}",
                req.to_play.number,
                pos.move_number()
            ),
        ));
    }
    let n = pos.move_number();
    let mut rng =
        SplitMix64(seed ^ name_hash(&req.game) ^ u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let action = choose(strategy, &pos, pos.rules(), &mut rng);
    let text = Notation::format_numbered(pos.rules(), n, pos.turn(), action);
    *game = Some(Game {
        name: req.game.clone(),
        pos,
    });
    serde_json::to_value(GenmoveAnswer {
        protocol: Some(PLAYER_PROTOCOL.into()),
        id: req.id.to_value(),
        mv: text,
        comment: None,
    })
    .map_err(|e| bad(code::BAD_REQUEST, "", e.to_string()))
}

/// The answer to one request line.
fn answer(line: &str, game: &mut Option<Game>, strategy: Strategy, seed: u64) -> Value {
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return error_answer(
                Value::Null,
                code::BAD_REQUEST,
                None,
                format!("the request is not JSON: {e}"),
            )
        }
    };
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    match v.get("action").and_then(Value::as_str) {
        Some("capabilities") => {
            let caps = crate::conform::capabilities::Capabilities::m3go();
            serde_json::to_value(PlayerCapabilitiesAnswer {
                protocol: Some(PLAYER_PROTOCOL.into()),
                id,
                protocols: PLAYER_PROTOCOLS.iter().map(|p| p.to_string()).collect(),
                implementation: Implementation {
                    name: format!("m3go player ({})", strategy.name()),
                    version: env!("CARGO_PKG_VERSION").into(),
                },
                capabilities: PlayerCapabilities {
                    presets: caps.presets,
                    options: caps.options,
                    sizes: None,
                },
            })
            .unwrap_or(Value::Null)
        }
        Some("genmove") => {
            let req: GenmoveRequest = match serde_json::from_value(v) {
                Ok(r) => r,
                Err(e) => {
                    return error_answer(
                        id,
                        code::BAD_REQUEST,
                        None,
                        format!("the move request does not read: {e}"),
                    )
                }
            };
            if req.protocol != PLAYER_PROTOCOL {
                return error_answer(
                    id,
                    code::UNSUPPORTED_PROTOCOL,
                    Some("protocol".into()),
                    format!("`{}`: this player speaks {PLAYER_PROTOCOL}", req.protocol),
                );
            }
            match genmove(&req, game, strategy, seed) {
                Ok(a) => a,
                Err((c, f, m)) => error_answer(id, &c, (!f.is_empty()).then_some(f), m),
            }
        }
        other => error_answer(
            id,
            code::UNSUPPORTED_ACTION,
            Some("action".into()),
            format!(
                "action {}: this player answers `capabilities` and `genmove`",
                other.map_or_else(|| "absent".to_string(), |a| format!("`{a}`"))
            ),
        ),
    }
}

pub fn run(args: PlayerArgs) -> Result<(), InputError> {
    let strategy = match args.strategy {
        StrategyArg::Random => Strategy::Random,
        StrategyArg::Greedy => Strategy::Greedy,
        StrategyArg::Mcts => Strategy::Mcts {
            playouts: args.playouts,
        },
    };
    if args.protocol == ProtocolArg::Gtp {
        return super::player_gtp::run(strategy, args.seed);
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut game = None;
    while let Some(line) = read_line_bounded(&mut input, ReadError::MAX_INPUT_BYTES) {
        // the request's text, from which an id beyond 64 bits is echoed as it was written
        let mut request = String::new();
        let ans = match line {
            Ok(l) if l.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(l) => match String::from_utf8(l) {
                Ok(t) => {
                    request = t;
                    answer(
                        m3go_engine::game::without_bom(&request),
                        &mut game,
                        strategy,
                        args.seed,
                    )
                }
                Err(e) => error_answer(
                    Value::Null,
                    code::BAD_REQUEST,
                    None,
                    format!("the request is not UTF-8 text: {}", e.utf8_error()),
                ),
            },
            Err(ReadError::TooLarge { limit }) => error_answer(
                Value::Null,
                code::TOO_LARGE,
                None,
                format!("the line is longer than {limit} bytes"),
            ),
            Err(ReadError::Io(e)) => {
                return Err(InputError::new(format!("cannot read: {e}")).file("stdin"))
            }
        };
        let mut ans = ans;
        if let Some(o) = ans.as_object_mut() {
            // the error answers are the conformance protocol's, in this protocol's version
            o.insert("protocol".into(), Value::from(PLAYER_PROTOCOL));
        }
        outln!(
            "{}",
            crate::conform::answer::echoing(&ans, m3go_engine::game::without_bom(&request))
        );
        crate::cli::common::flush_out();
    }
    Ok(())
}
