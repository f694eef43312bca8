//! The replay's log of one move, in its own terms: the strings it captured, the eyes made and
//! lost, the attribute changes, read from the move's report (the fast engine) or from the
//! analyses of the boards before and after it (the reference), and the log's types.

use super::*;

/// A string named in the log: its colour word and its name (`CO*`, or `EO` for one stone).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LoggedString {
    /// black | white | flower
    pub kind: &'static str,
    /// For a flower string: its attribute when it was removed or changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    #[schemars(with = "String")]
    pub name: LogName,
    pub points: Vec<Point>,
}

/// A string that gained private eyes, with the eyes (each named like a string).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct EyeEvent {
    pub string: LoggedString,
    #[schemars(with = "Vec<String>")]
    pub eyes: Vec<LogName>,
}

/// What became of the record's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Status {
    /// Played as recorded.
    Played,
    /// The record itself passes here.
    RecordPass,
    /// Forbidden or impossible under the rules: replaced by a pass.
    Replaced {
        #[schemars(with = "String")]
        reason: Refusal,
        clause: &'static str,
        message: Text,
    },
}

impl Status {
    /// The status of a record's move `action` after a step that refused it (`Some`: it was
    /// replaced by a pass) or played it.
    pub(super) fn of_step(refusal: Option<Illegal>, action: Action) -> Status {
        match refusal {
            Some(Illegal {
                reason,
                clause,
                message,
            }) => Status::Replaced {
                reason,
                clause,
                message,
            },
            None if action == Action::Pass => Status::RecordPass,
            None => Status::Played,
        }
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Entry {
    pub number: u32,
    /// The notation of what was played (`黑301.DO`, `华19.pass`).
    #[schemars(with = "String")]
    pub notation: Notation,
    /// The record's move at this number (a point, or `pass`).
    pub source: Action,
    #[serde(flatten)]
    pub status: Status,
    pub captured: Vec<LoggedString>,
    pub eyes_made: Vec<EyeEvent>,
    pub eyes_lost: Vec<LoggedString>,
    pub attribute_changes: Vec<Change>,
}

/// A flower string whose attribute changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Change {
    #[schemars(with = "String")]
    pub name: LogName,
    pub points: Vec<Point>,
    pub from: Attribute,
    pub to: Attribute,
}

/// The result of a replay: the final position and the log.
#[derive(Clone, Debug)]
pub struct Replay {
    pub start: Position,
    pub position: Position,
    pub entries: Vec<Entry>,
    /// The reports of the moves actually made (replaced moves as passes), for writing a record.
    pub reports: Vec<Report>,
    /// Whether this was a mechanical replay (else a strict one).
    pub mechanical: bool,
}

/// The name of a set of points as 003 writes it: the first point (top row first, then left to
/// right), with `*` when there is more than one (`CO*`, `EO`); written in either label system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogName {
    /// The first point (`None` for no point: an empty name).
    pub first: Option<Point>,
    /// Whether the set has more than one point.
    pub several: bool,
}

impl LogName {
    /// The name in the label system `labels` (`CO*`, `co*`).
    pub fn format(self, labels: Labels) -> String {
        match self.first {
            None => String::new(),
            Some(p) if self.several => format!("{}*", p.format(labels)),
            Some(p) => p.format(labels),
        }
    }
}

impl std::fmt::Display for LogName {
    /// In the Chinese system.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format(Labels::Chinese))
    }
}

/// In JSON the name in the Chinese system, as a point's.
impl Serialize for LogName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.format(m3go_engine::Labels::serializing()))
    }
}

/// The name of a set of points (indices of `board`) as 003 writes it ([`LogName`]).
pub(crate) fn log_name(board: &Board, points: &[usize]) -> LogName {
    LogName {
        first: points.iter().min().map(|&i| board.point(i)),
        several: points.len() > 1,
    }
}

pub(super) fn names(board: &Board, points: &[usize]) -> Vec<Point> {
    let mut v = points.to_vec();
    v.sort_unstable();
    v.iter().map(|&i| board.point(i)).collect()
}

pub(super) fn kind_of(s: Stone) -> &'static str {
    match s {
        Stone::Black => "black",
        Stone::White => "white",
        Stone::Flower => "flower",
    }
}

/// The removed stones of a move, grouped into strings of the board before the move `b`; a
/// flower string with its attribute there (`attribute_at`, asked only for a removed flower).
pub(super) fn captured_strings(
    b: &Board,
    captured: &[usize],
    mut attribute_at: impl FnMut(usize) -> Option<Attribute>,
) -> Vec<LoggedString> {
    let mut seen = vec![false; b.len()];
    let mut out = Vec::new();
    let mut sorted = captured.to_vec();
    sorted.sort_unstable();
    for &i in &sorted {
        if seen[i] {
            continue;
        }
        let Some(stone) = b.get(i) else { continue };
        let group: Vec<usize> = flood(b.size(), i, |j| {
            b.get(j) == Some(stone) && sorted.binary_search(&j).is_ok()
        });
        for &j in &group {
            seen[j] = true;
        }
        out.push(LoggedString {
            kind: kind_of(stone),
            attribute: if stone == Stone::Flower {
                attribute_at(i)
            } else {
                None
            },
            name: log_name(b, &group),
            points: names(b, &group),
        });
    }
    out
}

/// What a played move logs: the strings it removed, the private eyes it made, the strings
/// that lost their private eyes, the attribute changes.
pub(super) type Described = (
    Vec<LoggedString>,
    Vec<EyeEvent>,
    Vec<LoggedString>,
    Vec<Change>,
);

/// The board indices of points of a report.
pub(super) fn indices(board: &Board, points: &[Point]) -> Vec<usize> {
    points
        .iter()
        .filter(|p| p.on_board(board.size()))
        .map(|&p| board.index(p))
        .collect()
}

/// The lower string of `board` through `i` (its black or white stones joined 4-connected: the
/// lower layer holds flowers off-board, M20-STRING), logged; `None` on an empty point or a
/// flower.
pub(super) fn lower_string_at(board: &Board, i: usize) -> Option<LoggedString> {
    let stone = board.get(i).filter(|s| *s != Stone::Flower)?;
    let points = flood(board.size(), i, |j| board.get(j) == Some(stone));
    Some(LoggedString {
        kind: kind_of(stone),
        attribute: None,
        name: log_name(board, &points),
        points: names(board, &points),
    })
}

/// What a played move did, in the log's terms, read from its report on either engine (the
/// report holds the strings and eyes, so no board is analysed again; `tests/it/engine_choice.rs`
/// checks the logs of the two engines are the same): its captured points grouped on the board
/// before the move (the attribute of a removed flower string read from the analysis before the
/// move, made only then), its strings that made eyes with those eyes, its strings that lost
/// their eyes named as they stand after the move.
pub(super) fn describe(before: &Position, after: &Position, report: &Report) -> Described {
    let (b0, b1) = (before.board(), after.board());
    let mut a0: Option<Analysis> = None;
    let captured = captured_strings(b0, &indices(b0, &report.captured), |i| {
        a0.get_or_insert_with(|| before.analysis()).attribute_at[i]
    });
    let eyes_made = report
        .eyes_made
        .iter()
        .filter_map(|n| {
            let first = *indices(b1, &n.points).first()?;
            let string = lower_string_at(b1, first)?;
            let eyes = n
                .eyes
                .iter()
                .map(|e| log_name(b1, &indices(b1, e)))
                .collect();
            Some(EyeEvent { string, eyes })
        })
        .collect();
    let eyes_lost = report
        .eyes_lost
        .iter()
        .filter_map(|n| {
            indices(b1, &n.points)
                .into_iter()
                .find_map(|i| lower_string_at(b1, i))
        })
        .collect();
    (captured, eyes_made, eyes_lost, changes_of(after, report))
}

/// The attribute changes of a report, each flower string named as 003 does.
pub(super) fn changes_of(after: &Position, report: &Report) -> Vec<Change> {
    report
        .attribute_changes
        .iter()
        .map(|c: &AttributeChange| {
            let idx = indices(after.board(), &c.points);
            Change {
                name: log_name(after.board(), &idx),
                points: c.points.clone(),
                from: c.from,
                to: c.to,
            }
        })
        .collect()
}
