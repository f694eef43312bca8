//! The results file of a match (`m3go match --results FILE`) and its merging (`--merge`).
//!
//! A results file is a header line (`ResultsHeader`, `m3go-match-results/1`: the match's
//! selection, the shard, the number of games that follow), then one line per game
//! (`GameLine`, `m3go-match-game/1`). `--merge` reads the files line by line (each line
//! bounded, the files of any length) and joins them only when they are exactly the shards of
//! one match: one selection, every shard of one split once, every game of the match once (all
//! of them unless the SPRT stopped the match), and every game line in agreement with itself
//! and with the match's schedule (its number, its players and seats, its winner, result,
//! margin and forfeit).

#[cfg(feature = "cli")]
use super::stats::Pairing;
use super::{entrants_of_players, scheduled, seating, MatchSpec, Seating};
#[cfg(feature = "cli")]
use crate::conform::junit::{TestCase, TestSuite, Verdict};
use crate::conform::play_protocol::{
    GameLine, MatchSelection, ResultsHeader, SelectedPlayer, GAME_LINE_FORMAT, RESULTS_FORMAT,
};
use crate::conform::shard::{LineError, MergedLines, Shard, ShardError};
use m3go_engine::{Colour, InputError};
use std::collections::BTreeMap;
use std::io::BufRead;

/// The longest line of a results file `--merge` reads (a game line with its forfeit's
/// message); the file itself is read line by line, of any length.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// The most time a player can have used in a game, in milliseconds: a century (more is not a
/// time m3go measured, and would overflow a sum of times).
pub(crate) const MAX_TIME_MS: u64 = 100 * 365 * 86_400 * 1000;

/// The problems of one kind a message names before "… and N more".
const MAX_LISTED: usize = 5;

/// The endings a game line may have.
const ENDINGS: [&str; 4] = ["score", "move-limit", "resign", "forfeit"];

/// A SHA-256 (hex) of a sequence of byte strings, each with its length (no two sequences hash
/// alike by their concatenation).
fn sha256<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    format!("{:x}", h.finalize())
}

/// The selection of match `m`, as its results files record it.
pub(crate) fn selection(m: &MatchSpec) -> MatchSelection {
    let rules = serde_json::to_string(&m.rules).unwrap_or_else(|_| format!("{:?}", m.rules));
    let mut openings: Vec<Vec<u8>> = Vec::new();
    for o in &m.openings {
        openings.push(o.name.clone().into_bytes());
        let record = o
            .record
            .to_sgf(&m.rules)
            .unwrap_or_else(|_| format!("{:?}", o.record));
        openings.push(record.into_bytes());
    }
    let names: Vec<String> = m.players.iter().map(|p| p.name.clone()).collect();
    MatchSelection {
        players: m
            .players
            .iter()
            .map(|p| SelectedPlayer {
                name: p.name.clone(),
                gtp: p.gtp,
                // the rules declared on the command line (`gtp[RULES]:`) decide games too
                command_sha256: if p.declared.is_empty() {
                    sha256([p.command.as_bytes()])
                } else {
                    let declared = serde_json::to_string(&p.declared).unwrap_or_default();
                    sha256([p.command.as_bytes(), declared.as_bytes()])
                },
            })
            .collect(),
        team: m.team,
        gauntlet: m.gauntlet,
        games: m.games,
        scheduled: scheduled(names.len(), m.games, m.team, m.gauntlet).unwrap_or(0),
        size: m.size,
        rules: m.rules.preset.to_string(),
        rules_sha256: sha256([rules.as_bytes()]),
        seed: m.seed,
        time_ms: m
            .clock
            .map(|c| [c.base.as_millis() as u64, c.increment.as_millis() as u64]),
        move_time_ms: m.move_time.as_millis() as u64,
        illegal: if m.illegal_pass { "pass" } else { "forfeit" }.to_string(),
        openings: m.openings.iter().map(|o| o.name.clone()).collect(),
        openings_sha256: sha256(openings.iter().map(Vec::as_slice)),
    }
}

/// The header of a results file of `selection` holding `games` games of `shard` (none: the
/// whole match); `stopped` when the SPRT stopped the match.
pub(crate) fn header(
    selection: MatchSelection,
    shard: Option<Shard>,
    games: usize,
    stopped: bool,
) -> ResultsHeader {
    ResultsHeader {
        format: RESULTS_FORMAT.to_string(),
        selection,
        shard: shard.map(|s| s.to_string()),
        games,
        stopped,
    }
}

/// The text of a results file: the header, then one line per game.
pub(crate) fn text(
    header: &ResultsHeader,
    lines: &[GameLine],
) -> Result<String, serde_json::Error> {
    let mut out = serde_json::to_string(header)?;
    out.push('\n');
    for line in lines {
        out.push_str(&serde_json::to_string(line)?);
        out.push('\n');
    }
    Ok(out)
}

/// The shards of a match joined by [`merge`]: its selection, its games in order, and whether
/// the SPRT stopped it.
#[derive(Clone, Debug)]
pub(crate) struct Merged {
    pub selection: MatchSelection,
    pub lines: Vec<GameLine>,
    pub stopped: bool,
}

impl Merged {
    /// Who the results table counts: the players, or the two sides of the team format.
    pub fn entrants(&self) -> Vec<String> {
        entrants_of_players(&names(&self.selection), self.selection.team)
    }

    /// The header of the merged results (the whole match).
    pub(crate) fn header(&self) -> ResultsHeader {
        header(self.selection.clone(), None, self.lines.len(), self.stopped)
    }
}

fn names(s: &MatchSelection) -> Vec<String> {
    s.players.iter().map(|p| p.name.clone()).collect()
}

/// What is wrong with one game line, against itself and the match's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GameProblem {
    /// A `format` other than `m3go-match-game/1`.
    Format(String),
    /// A game number outside 1 to the match's number of games.
    Number { game: usize, scheduled: usize },
    /// A game of another shard.
    NotOfShard { game: usize, shard: Shard },
    /// Players or seats other than the schedule's (`expected`: black, white).
    Seats {
        black: String,
        white: String,
        expected: [String; 2],
    },
    /// An ending m3go does not write.
    Ending(String),
    /// A winner who played neither black nor white.
    WinnerNotAPlayer(String),
    /// A winner (or a draw) that the margin or the ending contradicts.
    Winner {
        winner: Option<String>,
        expected: String,
    },
    /// A result other than the one the winner, the ending and the margin give.
    Result { result: String, expected: String },
    /// A counted game without a margin, or a margin or forfeit where the ending has none.
    Fields {
        ending: String,
        problem: &'static str,
    },
    /// A forfeit by a player or colour other than the loser's.
    Forfeiter {
        player: String,
        colour: String,
        expected: String,
    },
    /// More moves replaced than played.
    Replaced { replaced: usize, moves: usize },
    /// A time past [`MAX_TIME_MS`].
    Time(u64),
}

impl std::fmt::Display for GameProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = |s: &str| crate::io::clip(s, 60);
        match self {
            GameProblem::Format(v) => {
                write!(f, "format `{}`: expected `{GAME_LINE_FORMAT}`", q(v))
            }
            GameProblem::Number { game, scheduled } => write!(
                f,
                "game number {game}: expected 1 to {scheduled}, the games of the match its header records"
            ),
            GameProblem::NotOfShard { game, shard } => write!(
                f,
                "game {game} is not of shard {shard} (the games whose number is {} modulo {})",
                shard.k, shard.n
            ),
            GameProblem::Seats {
                black,
                white,
                expected,
            } => write!(
                f,
                "black `{}` and white `{}`: expected black `{}` and white `{}`, the schedule of the match its header records",
                q(black),
                q(white),
                q(&expected[0]),
                q(&expected[1])
            ),
            GameProblem::Ending(e) => {
                write!(f, "ending `{}`: expected {}", q(e), ENDINGS.join(", "))
            }
            GameProblem::WinnerNotAPlayer(w) => write!(
                f,
                "winner `{}` played neither black nor white: expected one of them, or no winner for a draw",
                q(w)
            ),
            GameProblem::Winner { winner, expected } => write!(
                f,
                "{} contradicts the game: expected {expected}",
                winner
                    .as_ref()
                    .map_or_else(|| "no winner (a draw)".to_string(), |w| format!("winner `{}`", q(w)))
            ),
            GameProblem::Result { result, expected } => write!(
                f,
                "result `{}` contradicts the winner, ending and margin: expected `{expected}`",
                q(result)
            ),
            GameProblem::Fields { ending, problem } => {
                write!(f, "ending `{ending}` {problem}")
            }
            GameProblem::Forfeiter {
                player,
                colour,
                expected,
            } => write!(
                f,
                "the forfeit by `{}` ({}) contradicts the winner: expected {expected}",
                q(player),
                q(colour)
            ),
            GameProblem::Replaced { replaced, moves } => write!(
                f,
                "{replaced} moves replaced of {moves} played: expected at most the moves played"
            ),
            GameProblem::Time(ms) => write!(
                f,
                "a time of {ms} ms: expected at most {MAX_TIME_MS} ms (a century)"
            ),
        }
    }
}

/// Why `--merge` refuses its results files: a file that does not read as results, or files that
/// are not exactly the shards of one match.
#[derive(Debug)]
pub(crate) enum MergeError {
    /// A file that cannot be read, or a line that does not (too long, not UTF-8).
    Read { file: String, source: LineError },
    /// A file without lines.
    Empty { file: String },
    /// A first line that is a game line: a results file of an older m3go, without a header.
    NoHeader { file: String },
    /// A first line that is not a results header (`source`: why; none when it has no `format`).
    NotHeader {
        file: String,
        source: Option<serde_json::Error>,
    },
    /// A header of another format.
    UnknownFormat { file: String, format: String },
    /// A header's shard that is not a resolved shard.
    Shard { file: String, source: ShardError },
    /// A header that contradicts itself (what).
    BadHeader { file: String, problem: String },
    /// Two files of different matches (`first`, the file compared with; what differs).
    DifferentSelections {
        first: String,
        file: String,
        differences: Vec<String>,
    },
    /// A line that is not a game line.
    NotAGame {
        file: String,
        line: usize,
        source: serde_json::Error,
    },
    /// A game line that contradicts itself or the match.
    BadGame {
        file: String,
        line: usize,
        problem: Box<GameProblem>,
    },
    /// A game given twice (`other`: where first).
    GameTwice {
        file: String,
        line: usize,
        game: usize,
        other: String,
        other_line: usize,
    },
    /// A file with another number of games than its header says.
    GameCount {
        file: String,
        games: usize,
        header: usize,
    },
    /// Files holding the whole match among several files.
    WholeMatch(Vec<String>),
    /// Shards of different splits (the numbers of parts).
    DifferentSplits(Vec<usize>),
    /// A shard given by two files.
    ShardTwice {
        shard: Shard,
        other: String,
        file: String,
    },
    /// Shards no file gives, of a split into `n`.
    ShardsMissing { missing: Vec<String>, n: usize },
    /// Games of the match no file gives (the first few, and how many in all).
    GamesMissing { missing: Vec<usize>, count: usize },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const WRITES: &str = "`m3go match --results` writes";
        match self {
            MergeError::Read { file, source } => write!(f, "{file}: {source}"),
            MergeError::Empty { file } => {
                write!(f, "{file}: empty: expected the results {WRITES}")
            }
            MergeError::NoHeader { file } => write!(
                f,
                "{file}: line 1: a game line without the header `{RESULTS_FORMAT}` (a file of an older m3go, which did not record the match): expected the header {WRITES} (play the shards again with this m3go)"
            ),
            MergeError::NotHeader { file, source } => {
                let why = source
                    .as_ref()
                    .map_or_else(|| "no `format`".to_string(), |e| e.to_string());
                write!(
                    f,
                    "{file}: line 1: not a results header ({}): expected the header `{RESULTS_FORMAT}` {WRITES}",
                    crate::io::clip(&why, 200)
                )
            }
            MergeError::UnknownFormat { file, format } => write!(
                f,
                "{file}: line 1: format `{}`: expected `{RESULTS_FORMAT}`",
                crate::io::clip(format, 60)
            ),
            MergeError::Shard { file, source } => write!(f, "{file}: line 1: shard: {source}"),
            MergeError::BadHeader { file, problem } => {
                write!(f, "{file}: line 1: the header contradicts itself: {problem}")
            }
            MergeError::DifferentSelections {
                first,
                file,
                differences,
            } => write!(
                f,
                "{first} and {file} are results of different matches ({}): expected the shards of one match",
                differences.join("; ")
            ),
            MergeError::NotAGame { file, line, source } => write!(
                f,
                "{file}: line {line}: not a game line ({}): expected a line `{GAME_LINE_FORMAT}` {WRITES}",
                crate::io::clip(&source.to_string(), 200)
            ),
            MergeError::BadGame {
                file,
                line,
                problem,
            } => write!(f, "{file}: line {line}: {problem}"),
            MergeError::GameTwice {
                file,
                line,
                game,
                other,
                other_line,
            } => write!(
                f,
                "{file}: line {line}: game {game} is given twice (also {other} line {other_line}): expected the results of distinct shards of one match"
            ),
            MergeError::GameCount {
                file,
                games,
                header,
            } => write!(
                f,
                "{file}: has {games} game lines, its header says {header}: expected the file {WRITES}, whole"
            ),
            MergeError::WholeMatch(files) => write!(
                f,
                "{} holds the whole match (no --shard), not a shard: expected one file, or the shards of one match",
                files.join(", ")
            ),
            MergeError::DifferentSplits(ns) => write!(
                f,
                "the files are shards of different splits (of {} parts): expected one split",
                ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
            ),
            MergeError::ShardTwice { shard, other, file } => {
                write!(f, "shard {shard} is given twice ({other}, {file})")
            }
            MergeError::ShardsMissing { missing, n } => write!(
                f,
                "shard(s) {} missing: expected the results of all {n} shards",
                listed(missing, missing.len())
            ),
            MergeError::GamesMissing { missing, count } => write!(
                f,
                "{count} game(s) of the match missing: game {}: expected every game of the match once",
                listed(
                    &missing.iter().map(|g| g.to_string()).collect::<Vec<_>>(),
                    *count
                )
            ),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Read { source, .. } => Some(source),
            MergeError::NotHeader {
                source: Some(source),
                ..
            } => Some(source),
            MergeError::Shard { source, .. } => Some(source),
            MergeError::NotAGame { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<MergeError> for InputError {
    fn from(e: MergeError) -> Self {
        InputError::new(e.to_string())
    }
}

/// The first [`MAX_LISTED`] of `items` (of `total`), then "… and N more".
pub(crate) fn listed(items: &[String], total: usize) -> String {
    let shown: Vec<&str> = items.iter().take(MAX_LISTED).map(String::as_str).collect();
    let more = total.saturating_sub(shown.len());
    if more > 0 {
        format!("{} … and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The header of a results file (its first line, `line`).
fn header_of(file: &str, line: &str) -> Result<ResultsHeader, MergeError> {
    let not_header = |source| MergeError::NotHeader {
        file: file.to_string(),
        source,
    };
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| not_header(Some(e)))?;
    match v.get("format").and_then(serde_json::Value::as_str) {
        Some(RESULTS_FORMAT) => {}
        Some(GAME_LINE_FORMAT) => {
            return Err(MergeError::NoHeader {
                file: file.to_string(),
            })
        }
        Some(other) => {
            return Err(MergeError::UnknownFormat {
                file: file.to_string(),
                format: other.to_string(),
            })
        }
        None => return Err(not_header(None)),
    }
    let h: ResultsHeader = serde_json::from_value(v).map_err(|e| not_header(Some(e)))?;
    let bad = |problem: String| MergeError::BadHeader {
        file: file.to_string(),
        problem,
    };
    let s = &h.selection;
    let names = names(s);
    if names.len() < 2 || (s.team && names.len() != 4) {
        return Err(bad(format!(
            "{} players{}: expected at least two (four in the team format)",
            names.len(),
            if s.team { " in the team format" } else { "" }
        )));
    }
    if let Some((k, n)) = names
        .iter()
        .enumerate()
        .find(|(k, n)| names[..*k].contains(n))
    {
        return Err(bad(format!(
            "player {} is named `{}` as another: expected a name per player",
            k + 1,
            crate::io::clip(n, 60)
        )));
    }
    let count = scheduled(names.len(), s.games, s.team, s.gauntlet);
    if s.games == 0 || count != Some(s.scheduled) {
        return Err(bad(format!(
            "{} games scheduled with {} games per pairing between {} players: expected {}",
            s.scheduled,
            s.games,
            names.len(),
            count.map_or_else(|| "a number that fits".to_string(), |c| c.to_string())
        )));
    }
    if h.stopped && h.shard.is_some() {
        return Err(bad(
            "stopped by the SPRT and a shard: expected the SPRT on the whole match only"
                .to_string(),
        ));
    }
    Ok(h)
}

/// What differs between two selections, for people.
fn differences(a: &MatchSelection, b: &MatchSelection) -> Vec<String> {
    let mut d = Vec::new();
    if names(a) != names(b) {
        d.push(format!(
            "players {} against {}",
            crate::io::clip(&names(a).join(", "), 80),
            crate::io::clip(&names(b).join(", "), 80)
        ));
    } else if a.players != b.players {
        d.push("the players' commands differ".to_string());
    }
    let mut field = |name: &str, x: String, y: String| {
        if x != y {
            d.push(format!("{name} {x} against {y}"));
        }
    };
    field("--team", a.team.to_string(), b.team.to_string());
    field("--gauntlet", a.gauntlet.to_string(), b.gauntlet.to_string());
    field("--games", a.games.to_string(), b.games.to_string());
    field("--size", a.size.to_string(), b.size.to_string());
    field("--seed", a.seed.to_string(), b.seed.to_string());
    field("--rules", a.rules.clone(), b.rules.clone());
    field(
        "--time (ms)",
        format!("{:?}", a.time_ms),
        format!("{:?}", b.time_ms),
    );
    field(
        "--move-time (ms)",
        a.move_time_ms.to_string(),
        b.move_time_ms.to_string(),
    );
    field("--illegal", a.illegal.clone(), b.illegal.clone());
    if a.rules == b.rules && a.rules_sha256 != b.rules_sha256 {
        d.push("the rules' options differ".to_string());
    }
    if a.openings != b.openings || a.openings_sha256 != b.openings_sha256 {
        d.push("the openings differ".to_string());
    }
    if d.is_empty() && a != b {
        d.push("the matches differ".to_string());
    }
    d
}

/// Checks game line `g` against itself and against game `g.game` of the match `s` (of
/// `shard`), the players' names of `s` given (read once per file).
fn check_game_of(
    s: &MatchSelection,
    players: &[String],
    shard: Option<Shard>,
    g: &GameLine,
) -> Result<(), GameProblem> {
    if g.format != GAME_LINE_FORMAT {
        return Err(GameProblem::Format(g.format.clone()));
    }
    let seat =
        seating(players, s.games, s.team, s.gauntlet, g.game).ok_or(GameProblem::Number {
            game: g.game,
            scheduled: s.scheduled,
        })?;
    if let Some(shard) = shard.filter(|sh| !sh.takes(g.game - 1)) {
        return Err(GameProblem::NotOfShard {
            game: g.game,
            shard,
        });
    }
    if [&g.black, &g.white] != [&seat.names[0], &seat.names[1]] {
        return Err(GameProblem::Seats {
            black: g.black.clone(),
            white: g.white.clone(),
            expected: seat.names.clone(),
        });
    }
    for t in g.time_ms {
        if t > MAX_TIME_MS {
            return Err(GameProblem::Time(t));
        }
    }
    if g.replaced > g.moves {
        return Err(GameProblem::Replaced {
            replaced: g.replaced,
            moves: g.moves,
        });
    }
    check_outcome(g, &seat)
}

/// The winner, result, margin and forfeit of game line `g` agree with one another and with
/// its ending.
fn check_outcome(g: &GameLine, seat: &Seating) -> Result<(), GameProblem> {
    let winner = match &g.winner {
        None => None,
        Some(w) if *w == g.black => Some(Colour::Black),
        Some(w) if *w == g.white => Some(Colour::White),
        Some(w) => return Err(GameProblem::WinnerNotAPlayer(w.clone())),
    };
    let letter = |c: Colour| if c == Colour::Black { "B" } else { "W" };
    let fields = |problem| GameProblem::Fields {
        ending: g.ending.clone(),
        problem,
    };
    let expected_result = match g.ending.as_str() {
        "score" | "move-limit" => {
            let m = g
                .margin_quarters
                .ok_or_else(|| fields("has no margin: expected the count's margin"))?;
            if g.forfeit.is_some() {
                return Err(fields("has a forfeit: expected none"));
            }
            let by_margin = match m.signum() {
                1 => Some(Colour::Black),
                -1 => Some(Colour::White),
                _ => None,
            };
            if winner != by_margin {
                return Err(GameProblem::Winner {
                    winner: g.winner.clone(),
                    expected: match by_margin {
                        Some(c) => format!("`{}`, whom the margin {m} favours", g_name(g, c)),
                        None => "no winner: the margin is 0".to_string(),
                    },
                });
            }
            match winner {
                Some(c) => format!("{}+{}", letter(c), f64::from(m.0.unsigned_abs()) / 4.0),
                None => "0".to_string(),
            }
        }
        "resign" | "forfeit" => {
            if g.margin_quarters.is_some() {
                return Err(fields(
                    "has a margin: expected none (the game was not counted)",
                ));
            }
            let c = winner.ok_or_else(|| GameProblem::Winner {
                winner: None,
                expected: format!("a winner: a game ended by `{}` is not drawn", g.ending),
            })?;
            if g.ending == "forfeit" {
                check_forfeit(g, seat, c)?;
                format!("{}+F", letter(c))
            } else {
                if g.forfeit.is_some() {
                    return Err(fields("has a forfeit: expected none"));
                }
                format!("{}+R", letter(c))
            }
        }
        other => return Err(GameProblem::Ending(other.to_string())),
    };
    if g.result != expected_result {
        return Err(GameProblem::Result {
            result: g.result.clone(),
            expected: expected_result,
        });
    }
    Ok(())
}

/// The name of the player of colour `c` in game line `g`.
fn g_name(g: &GameLine, c: Colour) -> &str {
    if c == Colour::Black {
        &g.black
    } else {
        &g.white
    }
}

/// A forfeit is the loser's (of the winner of colour `winner`): its colour, and its player (in
/// the team format, one of the losing side's seats).
fn check_forfeit(g: &GameLine, seat: &Seating, winner: Colour) -> Result<(), GameProblem> {
    let f = g.forfeit.as_ref().ok_or(GameProblem::Fields {
        ending: g.ending.clone(),
        problem: "has no forfeit: expected who forfeited and why",
    })?;
    let loser = if winner == Colour::Black {
        Colour::White
    } else {
        Colour::Black
    };
    let players: Vec<&str> = match &seat.team {
        Some(t) if loser == Colour::Black => vec![&t[0], &t[1]],
        Some(t) => vec![&t[2], &t[3]],
        None => vec![g_name(g, loser)],
    };
    if f.colour != loser.name() || !players.contains(&f.player.as_str()) {
        return Err(GameProblem::Forfeiter {
            player: f.player.clone(),
            colour: f.colour.clone(),
            expected: format!(
                "a forfeit by {} ({}), the loser",
                players
                    .iter()
                    .map(|p| format!("`{}`", crate::io::clip(p, 60)))
                    .collect::<Vec<_>>()
                    .join(" or "),
                loser.name()
            ),
        });
    }
    Ok(())
}

/// The results files read so far by [`merge`].
#[derive(Default)]
struct Merging {
    first: Option<(String, MatchSelection)>,
    shards: Vec<(String, Option<Shard>)>,
    stopped: bool,
    /// game number -> (file index, line), and the lines kept
    at: BTreeMap<usize, (usize, usize)>,
    lines: Vec<GameLine>,
}

impl Merging {
    /// Reads results file number `fi` of `files` from `reader`: its header (of the selection
    /// of the first file), then its games, each checked.
    fn read(
        &mut self,
        files: &[String],
        fi: usize,
        reader: impl BufRead,
    ) -> Result<(), MergeError> {
        let file = files.get(fi).cloned().unwrap_or_default();
        let mut lines = MergedLines::new(
            reader,
            MAX_LINE,
            "one game a line, as `m3go match --results` writes",
        );
        let h = match lines.next_line().map_err(|e| MergeError::Read {
            file: file.to_string(),
            source: e,
        })? {
            Some((_, l)) => header_of(&file, l)?,
            None => return Err(MergeError::Empty { file }),
        };
        let shard = h
            .shard
            .as_deref()
            .map(Shard::parse_resolved)
            .transpose()
            .map_err(|source| MergeError::Shard {
                file: file.clone(),
                source,
            })?;
        match &self.first {
            None => self.first = Some((file.clone(), h.selection.clone())),
            Some((first, sel)) => {
                let d = differences(sel, &h.selection);
                if !d.is_empty() {
                    return Err(MergeError::DifferentSelections {
                        first: first.clone(),
                        file,
                        differences: d,
                    });
                }
            }
        }
        let players = names(&h.selection);
        let mut count = 0;
        while let Some((line, text)) = lines.next_line().map_err(|e| MergeError::Read {
            file: file.to_string(),
            source: e,
        })? {
            count += 1;
            let g: GameLine =
                serde_json::from_str(text).map_err(|source| MergeError::NotAGame {
                    file: file.clone(),
                    line,
                    source,
                })?;
            check_game_of(&h.selection, &players, shard, &g).map_err(|problem| {
                MergeError::BadGame {
                    file: file.clone(),
                    line,
                    problem: Box::new(problem),
                }
            })?;
            if let Some(&(oi, ol)) = self.at.get(&g.game) {
                return Err(MergeError::GameTwice {
                    file,
                    line,
                    game: g.game,
                    other: files.get(oi).cloned().unwrap_or_default(),
                    other_line: ol,
                });
            }
            self.at.insert(g.game, (fi, line));
            self.lines.push(g);
        }
        if count != h.games {
            return Err(MergeError::GameCount {
                file,
                games: count,
                header: h.games,
            });
        }
        self.stopped |= h.stopped;
        self.shards.push((file, shard));
        Ok(())
    }

    /// The match, once every file is read: the files are one split, and every game of the
    /// match is there (unless the SPRT stopped it).
    fn finish(mut self) -> Result<Merged, MergeError> {
        complete_split(&self.shards)?;
        let Some((_, selection)) = self.first else {
            return Err(MergeError::Empty {
                file: String::new(),
            });
        };
        if !self.stopped && self.at.len() < selection.scheduled {
            let missing: Vec<usize> = (1..=selection.scheduled)
                .filter(|g| !self.at.contains_key(g))
                .take(MAX_LISTED)
                .collect();
            return Err(MergeError::GamesMissing {
                missing,
                count: selection.scheduled - self.at.len(),
            });
        }
        self.lines.sort_by_key(|g| g.game);
        Ok(Merged {
            selection,
            lines: self.lines,
            stopped: self.stopped,
        })
    }
}

/// The files merged are the shards of one match: one file of the whole match, or `K/N` for
/// each K of one N exactly once.
fn complete_split(shards: &[(String, Option<Shard>)]) -> Result<(), MergeError> {
    use crate::conform::shard::SplitProblem;
    crate::conform::shard::complete_split(shards).map_err(|p| match p {
        SplitProblem::Whole(files) => MergeError::WholeMatch(files),
        SplitProblem::DifferentSplits(ns) => MergeError::DifferentSplits(ns),
        SplitProblem::Twice { shard, other, file } => MergeError::ShardTwice { shard, other, file },
        SplitProblem::Missing { missing, n } => MergeError::ShardsMissing { missing, n },
    })
}

/// `--merge`: the results files `files` (each read as a stream) joined, when they are exactly
/// the shards of one match (module doc).
pub(crate) fn merge(files: &[String]) -> Result<Merged, MergeError> {
    let mut m = Merging::default();
    for (fi, f) in files.iter().enumerate() {
        let reader = crate::io::open_regular(f).map_err(|e| MergeError::Read {
            file: f.clone(),
            source: LineError::Unreadable(e),
        })?;
        m.read(files, fi, std::io::BufReader::new(reader))?;
    }
    m.finish()
}

/// The JUnit cases of the games a failure left out: an error for each game that failed, a
/// skipped case for each game not started after it.
#[cfg(feature = "cli")]
pub(crate) fn missing_cases(
    failed: &[(usize, crate::errors::Error)],
    not_started: &[usize],
) -> Vec<TestCase> {
    let case = |n: usize, verdict: Verdict| TestCase {
        name: format!("game-{n:03}"),
        classname: "m3go-match".to_string(),
        file: None,
        time: None,
        verdict,
        system_out: None,
    };
    let mut cases: Vec<TestCase> = failed
        .iter()
        .map(|(n, e)| {
            case(
                *n,
                Verdict::Errored {
                    message: "not recorded: the game or its files failed".to_string(),
                    text: e.to_string(),
                },
            )
        })
        .collect();
    cases.extend(not_started.iter().map(|&n| {
        case(
            n,
            Verdict::Skipped {
                message: "not played: the match stopped at a failure".to_string(),
            },
        )
    }));
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// The error of a match that a failure cut short: the first failure, the games missing from
/// the results (failed, not started) and any report that could not be written either.
#[cfg(feature = "cli")]
pub(crate) fn late_failure(
    failed: &[(usize, crate::errors::Error)],
    not_started: &[usize],
    recorded: usize,
    problems: Vec<crate::errors::Error>,
) -> crate::errors::Error {
    let numbers = |ns: &[usize]| -> String {
        let mut s: Vec<String> = ns.iter().take(10).map(|n| n.to_string()).collect();
        if ns.len() > 10 {
            s.push(format!("… ({} in all)", ns.len()));
        }
        s.join(", ")
    };
    let failed_numbers: Vec<usize> = failed.iter().map(|(n, _)| *n).collect();
    let mut what = format!(
        "the match stopped at a failure; the table, --results and --junit hold the {recorded} \
         game(s) recorded; missing: game(s) {} (failed)",
        numbers(&failed_numbers)
    );
    if !not_started.is_empty() {
        what.push_str(&format!(", game(s) {} (not started)", numbers(not_started)));
    }
    for p in problems.iter().skip(failed.len()) {
        what.push_str(&format!("; also: {p}"));
    }
    let first = problems
        .first()
        .cloned()
        .unwrap_or_else(|| InputError::default().into());
    let message = format!("{first}; {what}");
    first.map(|e| {
        let kind = e.kind;
        InputError::new(message).of_kind(kind)
    })
}

/// The progress bar's message: each pairing's wins, losses and draws so far.
#[cfg(feature = "cli")]
pub(crate) fn running_score(tally: &[Pairing]) -> String {
    tally
        .iter()
        .filter(|t| t.games() > 0)
        .map(|t| {
            format!(
                "{} {}-{}-{} {}",
                t.first, t.wins, t.losses, t.draws, t.second
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JUnit report of the games: a test case per game, named by its number and players; a
/// forfeit is a failure of the player that forfeited.
#[cfg(feature = "cli")]
pub(crate) fn junit_suite(
    lines: &[GameLine],
    seconds: f64,
    properties: Vec<(String, String)>,
) -> TestSuite {
    let cases = lines
        .iter()
        .map(|g| {
            let verdict = match &g.forfeit {
                Some(f) => Verdict::Failed {
                    message: format!(
                        "{} ({}) forfeits at move {}: {}{}",
                        f.player,
                        f.colour,
                        f.move_number,
                        f.kind.name(),
                        f.clause
                            .as_ref()
                            .map_or_else(String::new, |c| format!(" ({c})"))
                    ),
                    text: f.message.clone(),
                },
                None => Verdict::Passed,
            };
            TestCase {
                name: format!("game-{:03}: {} vs {}", g.game, g.black, g.white),
                classname: "m3go-match".to_string(),
                file: Some(g.sgf.clone()),
                time: Some((g.time_ms[0] + g.time_ms[1]) as f64 / 1000.0),
                verdict,
                system_out: Some(format!("{} ({}, {} moves)", g.result, g.ending, g.moves)),
            }
        })
        .collect();
    TestSuite {
        name: "m3go-match".to_string(),
        time: Some(seconds),
        properties,
        cases,
    }
}
