//! Game records (D3-NOTATION, 004 手数坐标记谱法 "黑1.B二，白2.A二；……华19.一B，花20.二B"): the moves of
//! a game in order, with the header that names the rules and the board, and the game-file
//! format (spec/README.md, "Game files"). The record and its replay are here; the game-file
//! text, read and written, is `game_file` ([`Record::parse_game_text`], [`Record::to_game_text`]). SGF
//! lives in the sibling module `sgf`; both produce a [`Record`].

use crate::board::coord::Labels;
use crate::board::grid::Board;
use crate::game::order::Turn;
use crate::game::play::{Action, Illegal, Move, Position, Report};
use crate::game::setup::{from_yaml, InputError, Setup};
use crate::rules::{Rules, RulesField};

mod game_file;

#[cfg(not(feature = "testing"))]
pub(crate) use game_file::parse_game_text_with;
#[cfg(feature = "testing")]
pub use game_file::{game_lines, header_line, parse_game_text_with};
pub use game_file::{ReadText, StartFiles};

/// The largest number a record's first move may have.
pub(crate) const MAX_FIRST_MOVE: u32 = crate::game::notation::MAX_MOVE_NUMBER - 1;

/// One move of a record, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move number (1-based).
    pub number: u32,
    pub action: Action,
    /// The turn the record names (`黑` in `黑7.七A`, `B` in `B[pd]`, `B` + `FL[]` for 华); `None`
    /// for a bare point, whose turn comes from the schedule.
    pub claimed: Option<Turn>,
    /// Where it was written (`line 3`, `SGF node 12`), for messages.
    pub place: String,
    /// The text as written (`白2.A二`, `W[dd]`).
    pub text: String,
    /// M20-REPLAY-PASS in the record: the rules refused the move at `action`'s point and a pass
    /// was played instead (what a mechanical replay saves; written `黑277.四四=pass`, SGF
    /// `B[]RF[dd]`). A replay checks that the move is refused, then passes without the pass
    /// counting towards the end of the game.
    pub replaced: bool,
    /// The comment after the move (`{…}` in a game file, `C[…]` in SGF).
    pub comment: Option<String>,
}

/// A game record: header and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The rules the record names; `None` when it names none m3go knows (an ordinary SGF).
    pub rules: Option<RulesField>,
    pub size: usize,
    /// The position the game starts from; `None` = an empty board.
    pub start: Option<Setup>,
    /// Where the start position was read from (a game file's `position:` header).
    pub start_path: Option<String>,
    /// The start position's place in messages (`game.txt: position: start.yaml`,
    /// `x.sgf: SGF set-up (AB/AW/AF)`).
    pub start_place: Option<String>,
    /// Number of the first move.
    pub first_move: u32,
    /// Game information: (key, value), e.g. (`black`, `Lee Sedol 9p`), (`result`, `W+Resign`).
    pub info: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// What the reader read but the record does not hold (SGF variations, properties, further
    /// games of a collection): a conversion or a saved replay says it drops them.
    pub dropped: Dropped,
}

/// What a record read from a file does not hold (SGF only: a game file's every line is kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Nodes of variations off the main line.
    pub variation_nodes: usize,
    /// Properties read but not kept, each with the number of nodes holding it.
    pub properties: Vec<(String, usize)>,
    /// The games of the collection after the first (only the first is read).
    pub further_games: usize,
    /// The Go record's own properties that do not hold for the three-colour game a mechanical
    /// replay plays ([`Record::take_go_only`]): (SGF property, value), `RE[W+0.5]`.
    pub go_only: Vec<(String, String)>,
}

impl Dropped {
    /// One note per kind of thing dropped ("2 nodes of variations off the main line").
    pub fn notes(&self) -> Vec<String> {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut out = Vec::new();
        if self.variation_nodes > 0 {
            out.push(format!(
                "{} of variations off the main line",
                plural(self.variation_nodes, "node", "nodes")
            ));
        }
        if !self.properties.is_empty() {
            let list: Vec<String> = self
                .properties
                .iter()
                .map(|(id, n)| format!("{id} ({})", plural(*n, "node", "nodes")))
                .collect();
            out.push(format!(
                "the properties m3go does not keep: {}",
                list.join(", ")
            ));
        }
        if !self.go_only.is_empty() {
            let list: Vec<String> = self
                .go_only
                .iter()
                .map(|(id, v)| format!("{id}[{v}]"))
                .collect();
            out.push(format!(
                "the Go record's own result, rules and komi, which do not hold for the three-colour game replayed: {} (the rules written are m3go's)",
                list.join(", ")
            ));
        }
        out.extend(self.games_note());
        out
    }

    /// The note of a collection's further games, if any.
    pub fn games_note(&self) -> Option<String> {
        match self.further_games {
            0 => None,
            1 => Some("game 2 of the collection (2 games: only the first is read)".into()),
            n => Some(format!(
                "games 2 to {} of the collection ({} games: only the first is read)",
                n + 1,
                n + 1
            )),
        }
    }
}

impl Record {
    /// The game information of a Go record that does not hold for the three-colour game a
    /// mechanical replay plays (003's 机械式排局): the Go result (`RE`), the Go rules (`RU`), the
    /// Go komi (`KM`) and handicap (`HA`). The rules and komi of the saved record are m3go's own
    /// (written from the rules); m3go keeps no result of a mechanical replay (it has no agreed
    /// dead stones to count one with).
    pub const GO_ONLY_INFO: [&str; 4] = ["result", "original-rules", "komi", "handicap"];

    /// Game-information keys of the game-file header, with their SGF property. `comment` is the
    /// comment before the first move (the root node's `C`); `komi` is kept only when the record
    /// names no m3go rules (else the rules' komi is the komi); `original-rules` is an `RU` that
    /// names no m3go preset.
    pub const INFO_KEYS: [(&str, &str); 24] = [
        ("black", "PB"),
        ("white", "PW"),
        ("black-rank", "BR"),
        ("white-rank", "WR"),
        ("black-team", "BT"),
        ("white-team", "WT"),
        ("result", "RE"),
        ("date", "DT"),
        ("event", "EV"),
        ("round", "RO"),
        ("place", "PC"),
        ("game-name", "GN"),
        ("game-comment", "GC"),
        ("opening", "ON"),
        ("source", "SO"),
        ("annotator", "AN"),
        ("user", "US"),
        ("copyright", "CP"),
        ("time", "TM"),
        ("overtime", "OT"),
        ("handicap", "HA"),
        ("komi", "KM"),
        ("original-rules", "RU"),
        ("comment", "C"),
    ];

    /// Takes the [`Record::GO_ONLY_INFO`] out of `info`, as (SGF property, value), in `info`'s order.
    pub fn take_go_only(info: &mut Vec<(String, String)>) -> Vec<(String, String)> {
        let mut taken = Vec::new();
        info.retain(|(k, v)| {
            if !Self::GO_ONLY_INFO.contains(&k.as_str()) {
                return true;
            }
            let id = Self::INFO_KEYS
                .iter()
                .find(|(key, _)| key == k)
                .map_or(k.as_str(), |(_, id)| id);
            taken.push((id.to_string(), v.clone()));
            false
        });
        taken
    }

    /// A record of the moves that led from `start` to the reports' end (for writing what was played).
    pub fn from_reports(start: &Position, reports: &[Report]) -> Record {
        let size = start.board().size();
        let empty = start.board().is_empty() && start.history().is_empty();
        Record {
            rules: Some(RulesField::of(start.rules())),
            size,
            start: if empty { None } else { Some(start.to_setup()) },
            start_path: None,
            start_place: None,
            first_move: start.move_number(),
            info: Vec::new(),
            moves: reports
                .iter()
                .map(|r| RecordMove {
                    number: r.number,
                    action: r.action,
                    claimed: Some(r.turn),
                    place: format!("move {}", r.number),
                    text: r.notation.to_string(),
                    replaced: false,
                    comment: None,
                })
                .collect(),
            dropped: Dropped::default(),
        }
    }
}

/// The rules of a two-colour game, as a rules mapping: M3Go 2020 with plain alternation. With
/// no flower ever placed, they are ordinary Go with area scoring, simple ko and no suicide.
pub(crate) const TWO_COLOUR_RULES: &str = "{preset: m3go-2020, schedule: alternate}";

/// The rules of [`TWO_COLOUR_RULES`].
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn two_colour_rules() -> Result<Rules, InputError> {
    let f: RulesField = from_yaml(TWO_COLOUR_RULES, "two-colour rules")?;
    f.resolve().map_err(|e| {
        InputError::new(format!(
            "the record names no m3go rules and the two-colour rules `{TWO_COLOUR_RULES}` are not available ({e}): give --rules"
        ))
    })
}

/// The komi a record's `komi` information gives, in quarter points (`None` when it is not a
/// number of points that is a multiple of 0.25).
pub(crate) fn komi_quarters(v: &str) -> Option<i32> {
    let f: f64 = v.trim().parse().ok()?;
    let q = f * 4.0;
    (f.is_finite() && q.fract() == 0.0 && q.abs() <= 1600.0).then_some(q as i32)
}

/// The record's `komi` information checked: without rules, it must be a komi m3go can hold (a
/// multiple of 0.25); against the rules the record names, the same komi is the rules' (and is
/// dropped from the information: it is written once, with the rules), another one is an error
/// naming both. `name` is how the record writes it (`komi` in a game file, `KM` in SGF), for
/// the message.
pub(crate) fn reconcile_komi(
    info: &mut Vec<(String, String)>,
    rules: Option<&RulesField>,
    name: &str,
) -> Result<(), InputError> {
    let Some(at) = info.iter().position(|(k, _)| k == "komi") else {
        return Ok(());
    };
    let v = info[at].1.clone();
    let named = |e: InputError| {
        let q = crate::error::InputError::quote(&v);
        if name == "komi" {
            e.key("komi").text(q)
        } else {
            e.key(format!("{name}[{q}]"))
        }
    };
    let Some(f) = rules else {
        if komi_quarters(&v).is_none() {
            return Err(named(InputError::new(String::new())).expected(
                "a number of points that is a multiple of 0.25, between -400 and 400 (or give --rules)",
            ));
        }
        return Ok(());
    };
    let Ok(r) = f.resolve() else {
        return Ok(());
    };
    if komi_quarters(&v) == Some(r.komi.quarters()) {
        info.remove(at);
        return Ok(());
    }
    Err(named(InputError::new(format!(
        "the record's komi disagrees with the komi {} of its rules `{}`",
        r.komi.points(),
        r.preset
    )))
    .expected("the same komi, or no komi"))
}

impl Record {
    /// An empty record on an empty board.
    pub fn new(size: usize, rules: Option<RulesField>) -> Record {
        Record {
            rules,
            size,
            start: None,
            start_path: None,
            start_place: None,
            first_move: 1,
            info: Vec::new(),
            moves: Vec::new(),
            dropped: Dropped::default(),
        }
    }

    /// The record's rules; when it names none, `fallback` (or two-colour Go if that is `None`).
    pub fn resolve_rules(&self, fallback: Option<&Rules>) -> Result<Rules, InputError> {
        match (&self.rules, fallback) {
            (_, Some(r)) => Ok(r.clone()),
            (Some(f), None) => f
                .resolve()
                .map_err(|e| InputError::from(e).key("record rules")),
            (None, None) => {
                let mut r = two_colour_rules()?;
                if let Some(v) = self.info("komi") {
                    let q = komi_quarters(v).ok_or_else(|| {
                        InputError::new(String::new())
                            .key("komi")
                            .text(crate::error::InputError::quote(v))
                            .expected(
                                "a number of points that is a multiple of 0.25 (or give --rules)",
                            )
                    })?;
                    r.komi = crate::rules::Komi(q);
                }
                Ok(r)
            }
        }
    }

    /// What a message about a refused move adds when the record names no rules and none were
    /// given: the two-colour rules were assumed.
    pub fn assumed_rules_note(&self, given: Option<&Rules>) -> Option<String> {
        (self.rules.is_none() && given.is_none()).then(|| {
            format!(
                "the record names no m3go rules, so two-colour rules `{TWO_COLOUR_RULES}` were \
                 assumed (no flower moves): give `rules:` in the record or --rules"
            )
        })
    }

    /// The position before the first move, under `rules`. M20-START, Q20-START: without a
    /// start position the game starts on an empty board.
    pub fn start_position(&self, rules: &Rules) -> Result<Position, InputError> {
        let mut setup = match &self.start {
            Some(s) => s.clone(),
            // M20-START, Q20-START
            None => Setup {
                size: Some(self.size),
                diagram: Board::empty(self.size)
                    .map_err(|e| InputError::from(e).key("record"))?
                    .to_diagram(),
                ..Setup::default()
            },
        };
        setup.move_number = Some(self.first_move);
        let place = self
            .start_place
            .as_deref()
            .unwrap_or("record start position");
        let p = setup.to_position(place)?.with_rules(rules, place)?;
        if p.board().size() != self.size {
            return Err(InputError::new(format!(
                "the start position is {}x{}, the record says size {}",
                p.board().size(),
                p.board().size(),
                self.size
            ))
            .key("record"));
        }
        Ok(p)
    }

    /// Plays the move at `k` (0-based) on `pos`: as the record claims it, or, for a move the
    /// record marks `replaced` (M20-REPLAY-PASS), checks that the rules refuse it and plays the
    /// pass that replaced it (a pass that does not count towards the end of the game). Returns
    /// the refusal of a replaced move.
    pub fn play_move(
        &self,
        pos: &Position,
        k: usize,
    ) -> Result<(Position, Report, Option<Illegal>), InputError> {
        self.step_move(pos, k, |p, m| p.play_reported(m))
    }

    /// [`Record::play_move`] without the report, on the position's engine
    /// ([`Position::play`]).
    pub fn advance_move(
        &self,
        pos: &Position,
        k: usize,
    ) -> Result<(Position, Option<Illegal>), InputError> {
        self.step_move(pos, k, |p, m| p.play(*m).map(|n| (n, ())))
            .map(|(next, (), refusal)| (next, refusal))
    }

    /// The steps of [`Record::play_move`], each move played by `play` (which returns the next
    /// position and what else the caller keeps: the report, or nothing).
    fn step_move<R>(
        &self,
        pos: &Position,
        k: usize,
        play: impl Fn(&Position, &Move) -> Result<(Position, R), Illegal>,
    ) -> Result<(Position, R, Option<Illegal>), InputError> {
        let m = &self.moves[k];
        if !m.replaced {
            let (next, r) = play(pos, &self.claimed_move(k)).map_err(|e| move_error(m, &e))?;
            return Ok((next, r, None));
        }
        let tried = Move {
            action: m.action,
            number: Some(m.number),
            turn: None,
        };
        match play(pos, &tried) {
            Ok(_) => Err(InputError::new(
                "the record says this move was refused and replaced by a pass, but the rules \
                 allow it",
            )
            .move_number(m.number)
            .at(&m.place)
            .text(&m.text)),
            Err(refusal) => {
                let (mut next, r) = play(
                    pos,
                    &Move {
                        action: Action::Pass,
                        number: Some(m.number),
                        turn: None,
                    },
                )
                .map_err(|e| move_error(m, &e))?;
                next.forget_trailing_passes();
                Ok((next, r, Some(refusal)))
            }
        }
    }

    /// The move at `k` (0-based) as a [`Move`] carrying the number and the claimed turn.
    pub fn claimed_move(&self, k: usize) -> Move {
        let m = &self.moves[k];
        Move {
            action: m.action,
            number: Some(m.number),
            turn: m.claimed,
        }
    }

    /// Replays every move (or the first `to`) under `rules`, refusing the first illegal one
    /// with its move number, place and reason. A move after the end of the game is refused
    /// (`game-over`).
    pub fn replay_strict(
        &self,
        rules: &Rules,
        to: Option<u32>,
    ) -> Result<(Position, Vec<Report>), InputError> {
        let mut pos = self.start_position(rules)?;
        let mut reports = Vec::new();
        for (k, m) in self.moves.iter().enumerate() {
            if to.is_some_and(|t| m.number > t) {
                break;
            }
            let (next, r, _) = self.play_move(&pos, k)?;
            pos = next;
            reports.push(r);
        }
        Ok((pos, reports))
    }

    /// An info value by key.
    pub fn info(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The `rules:` header value: the preset name when the rules are exactly a preset, else the
/// preset and the options that differ from it ([`Rules::to_spec`]) as a one-line YAML (JSON)
/// mapping.
pub(crate) fn rules_header(rules: &Rules) -> Result<String, InputError> {
    match RulesField::of(rules) {
        RulesField::Name(name) => Ok(name),
        RulesField::Spec(spec) => {
            serde_json::to_string(&spec).map_err(|e| InputError::internal(e).key("rules"))
        }
    }
}

/// A refused move of a record, with its number, place and text.
pub(crate) fn move_error(m: &RecordMove, e: &Illegal) -> InputError {
    InputError::illegal_move(e.to_string())
        .move_number(m.number)
        .at(&m.place)
        .text(&m.text)
}

/// Writes a move in the documents' notation in either label system (`黑7.七A` / `黑7.7a`).
pub(crate) fn format_move_labels(
    turn: Turn,
    number: u32,
    action: Action,
    labels: Labels,
) -> String {
    match action {
        Action::Pass => format!("{}{}.pass", turn.symbol_in(labels), number),
        Action::Place(p) => format!("{}{}.{}", turn.symbol_in(labels), number, p.format(labels)),
    }
}
