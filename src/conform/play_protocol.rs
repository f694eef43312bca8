//! The play protocol (`m3go-player/1`, spec/play-protocol.md): JSON lines between a referee
//! (`m3go match`) and a playing program (`m3go player` or another): the capabilities exchange,
//! the request for a move (`genmove`) and its answer; and the line `m3go match --results`
//! writes per game. The messages are types here so that their schemas are generated
//! (`m3go schema`) as the conformance protocol's are; the referee is `crate::referee`.

use crate::conform::protocol::{Id, Implementation};
use m3go_engine::{QuarterPoints, Setup};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The version of the play protocol m3go speaks.
pub(crate) const PLAYER_PROTOCOL: &str = "m3go-player/1";

/// Every version of the play protocol m3go speaks, newest first.
pub(crate) const PLAYER_PROTOCOLS: [&str; 1] = [PLAYER_PROTOCOL];

/// The answer of a move request that gives up the game.
pub(crate) const RESIGN: &str = "resign";

/// A turn as the referee names it: the move number, the player (`black` / `white`), the kind
/// of stone (`own` / `flower`) and the notation character (黑 白 华 花).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnField {
    /// The number of the move (1-based), as the numbered notation writes it.
    pub number: u32,
    /// `black` or `white`: whose move it is.
    pub player: String,
    /// `own` (a stone of the player's colour) or `flower`.
    pub kind: String,
    /// 黑 (black stone), 白 (white stone), 华 (black's flower) or 花 (white's flower).
    pub symbol: String,
}

/// The request for a move (`action: genmove`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenmoveRequest {
    /// `m3go-player/1`.
    #[schemars(extend("enum" = PLAYER_PROTOCOLS))]
    pub protocol: String,
    pub id: Id,
    /// `genmove`.
    pub action: String,
    /// The game, a name unique within the match: a player may keep one game's state between
    /// requests, and may mix it into its seed.
    pub game: String,
    /// The position the game started from (a position file as JSON, spec/README.md): sent with
    /// the first request of a game, whose `moves` are then every move since this position.
    /// Absent: `moves` are the moves played since the previous request of the same game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Setup>,
    /// The moves, in the numbered notation (`黑1.五五`, `华9.七A`, `白12.pass`); a move the
    /// referee refused and replaced by a pass (`m3go match --illegal pass`) is written
    /// `黑7.七A=pass`: a pass that does not count towards the end of the game.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The move asked for: its number, player and kind of stone.
    pub to_play: TurnField,
    /// The other turns the move may claim (an emergency conversion: a stone of the player's
    /// own colour on a flower turn, D3-EMERGENCY), each written with its symbol in the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special: Vec<TurnField>,
    /// The time the player has for this answer, in milliseconds (the per-move limit, or what
    /// is left on its clock if that is less).
    pub time_ms: u64,
    /// What is left on the player's clock, in milliseconds (absent without a time control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
}

/// The answer to a move request.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenmoveAnswer {
    /// The version of the protocol the answer speaks (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id.
    #[schemars(with = "Id")]
    pub id: Value,
    /// The move: a point in either label system (`七A`, `7a`), the numbered notation (`黑3.七A`:
    /// its symbol must be the turn asked for or one of `special`, its number the move's),
    /// `pass`, or `resign`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Anything for people (written to the record as the move's comment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// What a player declares it plays.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerCapabilities {
    /// The presets it plays (with their own option values).
    pub presets: Vec<String>,
    /// Option (its YAML key) -> `"any"` or the values it plays away from a preset's, as in the
    /// conformance capabilities.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Value>,
    /// The board sizes it plays (each odd, 3 to 19); absent: every size m3go plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<BoardSize>>")]
    pub sizes: Option<Vec<usize>>,
}

/// A board size in the schema: a whole number from 3 to 19 (m3go plays the odd ones), not a
/// Rust `usize`'s range.
struct BoardSize;

impl schemars::JsonSchema for BoardSize {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BoardSize".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "integer",
            "minimum": 3,
            "maximum": 19
        })
    }
}

/// The answer to the capabilities request of the play protocol (the request is the
/// conformance protocol's, capabilities-request.schema.json, with `protocol: m3go-player/1`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerCapabilitiesAnswer {
    /// The version of the protocol the answer speaks (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id.
    #[schemars(with = "Id")]
    pub id: Value,
    /// The versions of the play protocol the player speaks.
    pub protocols: Vec<String>,
    pub implementation: Implementation,
    pub capabilities: PlayerCapabilities,
}

/// How a forfeit came about (`m3go match`): the refused move, the time, the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum ForfeitKind {
    /// The move is refused by the rules (its clause is given).
    Illegal,
    /// No answer within the move's time, or the clock ran out.
    Timeout,
    /// The program exited, or could not be started.
    Crash,
    /// The answer is not a JSON object (garbage, not UTF-8, too long).
    Unreadable,
    /// A JSON answer that is not an answer: a wrong id, no `move`, an error answer, a move that
    /// does not read or names another move number, capabilities that do not read.
    Protocol,
    /// The move claims a stone kind (or player) other than the one asked for.
    WrongKind,
}

impl ForfeitKind {
    /// The name as written (`timeout`, `wrong-kind`).
    pub fn name(self) -> &'static str {
        match self {
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::Timeout => "timeout",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Unreadable => "unreadable",
            ForfeitKind::Protocol => "protocol",
            ForfeitKind::WrongKind => "wrong-kind",
        }
    }
}

/// A forfeit: who, at which move, why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct ForfeitField {
    /// The player's name (`--player NAME=…`).
    pub player: String,
    /// `black` or `white`.
    pub colour: String,
    pub kind: ForfeitKind,
    /// The move it was asked for.
    pub move_number: u32,
    /// The clause that refused the move (an illegal move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clause: Option<String>,
    /// The refusal code (an illegal move: `forbidden-eye`, `suicide`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What happened, for people.
    pub message: String,
}

/// One game of a match, one JSON line of `m3go match --results FILE`.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameLine {
    /// `m3go-match-game/1`.
    pub format: String,
    /// The game's number in the match (1-based).
    pub game: usize,
    /// The name of the player of black.
    pub black: String,
    /// The name of the player of white.
    pub white: String,
    /// SGF's RE: `B+12.5`, `W+R` (resignation), `B+F` (forfeit), `0` (a draw).
    pub result: String,
    /// The winner's name; absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// `score` (the game ended by the rules and was counted), `move-limit` (counted after ten
    /// moves per point), `resign` or `forfeit`.
    pub ending: String,
    /// The count's margin, black's minus white's less komi, in quarter points (`score`,
    /// `move-limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_quarters: Option<QuarterPoints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<ForfeitField>,
    /// The moves played.
    pub moves: usize,
    /// Moves refused and replaced by a pass (`--illegal pass`).
    pub replaced: usize,
    /// The time each player used, in milliseconds (black, white).
    pub time_ms: [u64; 2],
    /// The SGF file written.
    pub sgf: String,
    /// The opening the game began with (`--openings`: the file it was read from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
}

/// The `format` of a [`GameLine`].
pub(crate) const GAME_LINE_FORMAT: &str = "m3go-match-game/1";

/// The `format` of a [`ResultsHeader`].
pub(crate) const RESULTS_FORMAT: &str = "m3go-match-results/1";

/// A player of the match a results file holds: its name, whether it speaks GTP, and the
/// SHA-256 (hex) of its command (the command itself is not written: it may hold paths or keys).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SelectedPlayer {
    pub name: String,
    pub gtp: bool,
    pub command_sha256: String,
}

/// The match a results file holds the games of: everything that decides its games' schedule,
/// names and seats, and how they are played. `m3go match --merge` merges only the files of one
/// selection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MatchSelection {
    /// The players, in the order given (`--player`).
    pub players: Vec<SelectedPlayer>,
    /// `--team`: the 2016 team format.
    pub team: bool,
    /// `--gauntlet`.
    pub gauntlet: bool,
    /// `--games`: games per pairing.
    pub games: usize,
    /// The games of the whole match (before `--shard`), numbered from 1.
    pub scheduled: usize,
    /// `--size`.
    pub size: usize,
    /// The rules' preset, for people, and the SHA-256 (hex) of the whole rule set.
    pub rules: String,
    pub rules_sha256: String,
    /// `--seed`.
    pub seed: u64,
    /// `--time` in milliseconds (base, increment); null without a time control.
    pub time_ms: Option<[u64; 2]>,
    /// `--move-time` in milliseconds.
    pub move_time_ms: u64,
    /// `--illegal`: `forfeit` or `pass`.
    pub illegal: String,
    /// `--openings`: the files read, in order, and the SHA-256 (hex) of their names and records.
    pub openings: Vec<String>,
    pub openings_sha256: String,
}

/// The first line of `m3go match --results FILE` (`m3go-match-results/1`): the match's
/// selection, the shard the file holds, and the number of game lines (`m3go-match-game/1`) that
/// follow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultsHeader {
    /// `m3go-match-results/1`.
    pub format: String,
    pub selection: MatchSelection,
    /// `K/N` as `--shard` was resolved when the match ran; null for the whole match.
    pub shard: Option<String>,
    /// The game lines that follow.
    pub games: usize,
    /// `true` when `--sprt` stopped the match: the games not played are absent.
    pub stopped: bool,
}
