//! The score's clause trace for the page (issue 40 item 2): the count of a position cut into
//! regions, each with who it counts for, why, and the clause that says so, and the komi line.
//! It reads the same count `analyze` gives ([`Score::of`](crate::judge::scoring::Score::of)) and tells apart what the per-point
//! clauses do not: a region enclosed by neutral flowers that a long-living string keeps
//! (M16-LIFE-3), the neutral flowers themselves, and the points of stones marked dead.

use crate::board::coord::Labels;
use crate::board::grid::{neighbours, Colour, Stone};
use crate::board::layers::Cell;
use crate::game::play::Position;
use crate::judge::scoring::{
    cleared, neutral_enclosure, Enclosure, Owner, Score, ScoreError, Winner,
};
use crate::judge::units::{HalfPoints, QuarterPoints};
use serde::Serialize;

/// Why a position's count is what it is: its regions and the komi.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ScoreTrace {
    /// `m3go-score-trace/2`.
    pub format: &'static str,
    /// Black's, white's and nobody's points, in half-points (as the analysis's `score`).
    pub black: HalfPoints,
    pub white: HalfPoints,
    pub neutral: HalfPoints,
    /// The regions of the count: the 4-connected points of one owner counted for one reason,
    /// in the board's order of their first point.
    pub regions: Vec<ScoreRegion>,
    /// The komi and the result (M20-SCORE-KOMI).
    pub komi: KomiLine,
}

/// One region of the count.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ScoreRegion {
    /// Who the region counts for.
    pub owner: Owner,
    pub reason: Reason,
    /// The clause that decides the owner (as each point's `clause` in the analysis's score).
    pub clause: &'static str,
    /// The other clauses the reason rests on (M16-LIFE-3 for a long-living string,
    /// M20-SCORE-DEAD for stones removed, M20-SCORE-MERGE for attributed flowers).
    pub also: Vec<&'static str>,
    /// The region's points (Chinese labels, as the figure's `data-point`).
    pub points: Vec<String>,
    /// The same in the label system asked for.
    pub shown: Vec<String>,
    /// What the region adds to black's and to white's count, in half-points.
    pub black: HalfPoints,
    pub white: HalfPoints,
    /// The reason in words, its points in the label system asked for.
    pub why: String,
}

/// Why a region counts as it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Stones of one colour on the upper layer (attributed flowers among them).
    Stones,
    /// Empty points touching one colour only (the edge and neutral flowers aside).
    Territory,
    /// Empty points touching both colours beside a string in seki (a shared liberty): halved.
    Seki,
    /// Empty points touching both colours beside no string in seki (dame, 单官): halved (D14).
    Dame,
    /// Empty points touching only neutral flowers and the edge.
    Neutral,
    /// Neutral flowers: nobody's.
    NeutralFlowers,
    /// A region enclosed by neutral flowers that holds no long-living string: counts as flower.
    NeutralEnclosed,
    /// Points of stones marked dead, counted after their removal.
    Dead,
}

/// The komi line of the count.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct KomiLine {
    pub clause: &'static str,
    /// Komi in quarter points, charged to black.
    pub quarters: QuarterPoints,
    /// 2·(black − white) − komi, in quarter points.
    pub margin_quarters: QuarterPoints,
    pub winner: Winner,
    pub why: String,
}

impl ScoreTrace {
    /// The format of [`ScoreTrace`].
    pub const FORMAT: &str = "m3go-score-trace/2";

    /// The trace of the count of `pos` (after its dead strings are removed); the error is the
    /// analysis's `score_error`.
    pub fn of(pos: &Position, l: Labels) -> Result<ScoreTrace, ScoreError> {
        let before = pos.analysis();
        let rules = pos.rules();
        let score = Score::of(&before, rules, pos.dead())?;
        let cleared_analysis;
        let a = if pos.dead().is_empty() {
            &before
        } else {
            cleared_analysis = cleared(&before, rules, pos.dead())?;
            &cleared_analysis
        };
        let size = a.upper.size;
        let n = size * size;
        let enclosure = neutral_enclosure(a, rules);
        let (_, in_seki) = crate::judge::longlife::pass_alive_and_seki(&a.upper, &a.upper_strings);
        let beside_seki = |i: usize| {
            neighbours(size, i).any(|j| a.upper_strings.of[j].is_some_and(|g| in_seki[g]))
        };
        let reasons = point_reasons(&before, a, &score, &enclosure, &beside_seki);
        // a region: the 4-connected points of one owner, clause, reason and enclosure
        let key = |i: usize| {
            (
                score.points[i].owner,
                score.points[i].clause,
                reasons[i],
                enclosure[i],
            )
        };
        let mut done = vec![false; n];
        let mut regions = Vec::new();
        for start in 0..n {
            if done[start] {
                continue;
            }
            done[start] = true;
            let mut stack = vec![start];
            let mut pts = Vec::new();
            while let Some(i) = stack.pop() {
                pts.push(i);
                for j in neighbours(size, i) {
                    if !done[j] && key(j) == key(start) {
                        done[j] = true;
                        stack.push(j);
                    }
                }
            }
            pts.sort_unstable();
            regions.push(region(a, &pts, key(start), l));
        }
        Ok(ScoreTrace {
            format: ScoreTrace::FORMAT,
            black: score.black,
            white: score.white,
            neutral: score.neutral,
            regions,
            komi: komi_line(&score),
        })
    }
}

/// Why each point counts as it does: enclosed by neutral flowers, a dead stone (on `before`
/// and gone from `a`, the analysis with the dead stones removed), off-board under neutral
/// flowers, a stone, or an empty point of seki, dame, nobody or an owner (`beside_seki`: whether
/// an empty point is the liberty of a string in seki).
fn point_reasons(
    before: &crate::judge::analysis::Analysis,
    a: &crate::judge::analysis::Analysis,
    score: &crate::judge::scoring::Score,
    enclosure: &[Enclosure],
    beside_seki: &dyn Fn(usize) -> bool,
) -> Vec<Reason> {
    let reason_of = |i: usize| -> Reason {
        let dead = before.board.get(i).is_some() && a.board.get(i).is_none();
        if enclosure[i] == Enclosure::Enclosed {
            Reason::NeutralEnclosed
        } else if dead {
            Reason::Dead
        } else {
            match (a.upper.cells[i], score.points[i].owner) {
                (Cell::OffBoard, _) => Reason::NeutralFlowers,
                (Cell::Stone(_), _) => Reason::Stones,
                // M20-SCORE-SEKI halves both; M16-LIFE-5 tells seki's shared liberties from
                // dame (register D14)
                (Cell::Empty, Owner::Seki) if beside_seki(i) => Reason::Seki,
                (Cell::Empty, Owner::Seki) => Reason::Dame,
                (Cell::Empty, Owner::Neutral) => Reason::Neutral,
                (Cell::Empty, _) => Reason::Territory,
            }
        }
    };
    (0..a.upper.size * a.upper.size).map(reason_of).collect()
}

/// The region of the points `pts` (ascending) sharing one owner, clause, reason and enclosure
/// (`key`): the clauses besides its own, its half-points and why it counts so.
fn region(
    a: &crate::judge::analysis::Analysis,
    pts: &[usize],
    (owner, clause, reason, enc): (Owner, &'static str, Reason, Enclosure),
    l: Labels,
) -> ScoreRegion {
    let long_living = enc == Enclosure::LongLiving;
    let merged = pts
        .iter()
        .any(|&i| a.board.get(i) == Some(Stone::Flower) && a.upper.cells[i] != Cell::OffBoard);
    let mut also = Vec::new();
    if reason == Reason::Dead {
        also.push("M20-SCORE-DEAD");
    }
    if reason == Reason::Stones && merged {
        also.push("M20-SCORE-MERGE");
    }
    if long_living {
        also.push("M16-LIFE-3");
    }
    let count = pts.len() as i32;
    let (black, white) = match owner {
        Owner::Black => (2 * count, 0),
        Owner::White => (0, 2 * count),
        Owner::Seki => (count, count),
        Owner::Neutral => (0, 0),
    };
    let (black, white) = (HalfPoints(black), HalfPoints(white));
    let shown: Vec<String> = pts.iter().map(|&i| a.board.point(i).format(l)).collect();
    let why = why(owner, reason, long_living, merged, clause);
    ScoreRegion {
        owner,
        reason,
        clause,
        also,
        points: pts
            .iter()
            .map(|&i| a.board.point(i).format(Labels::Chinese))
            .collect(),
        shown,
        black,
        white,
        why,
    }
}

/// The komi's line (M20-SCORE-KOMI): charged to black, the margin in quarter points, the winner.
fn komi_line(score: &crate::judge::scoring::Score) -> KomiLine {
    KomiLine {
        clause: "M20-SCORE-KOMI",
        quarters: score.komi_quarters,
        margin_quarters: score.margin_quarters,
        winner: score.winner,
        why: format!(
            "komi {} charged to black: 2·(black {} − white {}) − {} = {} quarter points → {}",
            score.komi_quarters.points(),
            score.black,
            score.white,
            score.komi_quarters,
            score.margin_quarters,
            score.winner
        ),
    }
}

/// The reason of a region in words.
fn why(owner: Owner, reason: Reason, long_living: bool, merged: bool, clause: &str) -> String {
    let whose = match owner {
        Owner::Black => "black's",
        Owner::White => "white's",
        Owner::Seki => "halved between black and white",
        Owner::Neutral => "nobody's",
    };
    let mut s = match reason {
        Reason::Stones => format!(
            "{} stones on the upper layer{}: {whose}",
            match owner {
                Owner::White => Colour::White.name(),
                Owner::Black => Colour::Black.name(),
                _ => "non-long-living",
            },
            if merged {
                ", attributed flowers counted as their colour"
            } else {
                ""
            }
        ),
        Reason::Territory if clause == "M20-SCORE-NEUTRAL-ADJ" => format!(
            "empty points touching one colour and neutral flowers (which do not count against it): {whose}"
        ),
        Reason::Territory => format!("empty points touching one colour only: {whose}"),
        Reason::Seki => {
            "empty points between black and white strings in seki: half a point to each".into()
        }
        Reason::Dame => "empty points between black and white, beside no string in seki (dame): \
             half a point to each all the same (register D14)"
            .into(),
        Reason::Neutral => {
            "empty points touching only neutral flowers and the edge: nobody's".into()
        }
        Reason::NeutralFlowers => "neutral flowers: nobody's".into(),
        Reason::NeutralEnclosed => "enclosed by neutral flowers and holding no long-living \
             string: counted as flower, nobody's"
            .into(),
        Reason::Dead => format!("stones marked dead, removed before the count: {whose}"),
    };
    if long_living {
        s.push_str(
            " (inside neutral flowers, but the region holds a long-living string: counted as \
             anywhere else)",
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setup::Setup;

    fn position(diagram: &str, dead: &[&str]) -> Position {
        Setup {
            diagram: diagram.into(),
            dead: dead.iter().map(|d| d.to_string()).collect(),
            ..Setup::default()
        }
        .to_position("test")
        .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The regions cover the board once and add up to the count; a dead stone's points are a
    /// region of their own, citing M20-SCORE-DEAD.
    #[test]
    fn m20_score_area_the_regions_add_up_to_the_count() {
        let diagram = ". X . O .\nX X . O O\n. . . . .\nO O . X X\n. O . X .\n";
        let pos = position(diagram, &["一A"]);
        let t = ScoreTrace::of(&pos, Labels::Chinese).unwrap_or_else(|e| panic!("{e}"));
        let covered: usize = t.regions.iter().map(|r| r.points.len()).sum();
        assert_eq!(covered, 25);
        assert_eq!(
            t.regions.iter().map(|r| r.black).sum::<HalfPoints>(),
            t.black
        );
        assert_eq!(
            t.regions.iter().map(|r| r.white).sum::<HalfPoints>(),
            t.white
        );
        let dead: Vec<_> = t
            .regions
            .iter()
            .filter(|r| r.reason == Reason::Dead)
            .collect();
        assert_eq!(dead.len(), 1, "{:?}", t.regions);
        assert_eq!(dead[0].points, ["一A", "二A", "一B"]);
        assert_eq!(dead[0].also, ["M20-SCORE-DEAD"]);
        assert_ne!(dead[0].owner, Owner::Black, "black's own stones, removed");
        assert_eq!(t.komi.clause, "M20-SCORE-KOMI");
        let latin = ScoreTrace::of(&pos, Labels::Latin).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(latin.regions[0].points, t.regions[0].points);
        assert_ne!(latin.regions[0].shown, t.regions[0].shown);
    }

    /// M16-LIFE-5 and M20-SCORE-SEKI: the shared liberty of black and white strings in seki is a
    /// seki point; an empty column between two walls that are in no seki is dame. Both are
    /// halved (register D14): only their reason differs.
    #[test]
    fn m16_life_5_halved_points_are_seki_beside_a_seki_and_dame_between_walls() {
        let seki = ". X X O .\nX X . O O\nX X X O O\nX X X O O\nX X X O O\n";
        let t =
            ScoreTrace::of(&position(seki, &[]), Labels::Chinese).unwrap_or_else(|e| panic!("{e}"));
        let shared = t
            .regions
            .iter()
            .find(|r| r.points == ["O一"])
            .expect("the shared liberty");
        assert_eq!(shared.reason, Reason::Seki, "{:?}", t.regions);
        assert_eq!((shared.black, shared.white), (HalfPoints(1), HalfPoints(1)));
        let walls = "X X . O O\n".repeat(5);
        let t = ScoreTrace::of(&position(&walls, &[]), Labels::Chinese)
            .unwrap_or_else(|e| panic!("{e}"));
        let dame = t
            .regions
            .iter()
            .find(|r| r.owner == Owner::Seki)
            .expect("the halved column");
        assert_eq!(dame.reason, Reason::Dame, "{:?}", t.regions);
        assert_eq!(dame.points.len(), 5);
        assert_eq!((dame.black, dame.white), (HalfPoints(5), HalfPoints(5)));
        assert!(dame.why.contains("dame"), "{}", dame.why);
        assert!(t.regions.iter().all(|r| r.reason != Reason::Seki));
    }

    /// A ring of neutral flowers around an empty region: the region counts as flower
    /// (M20-SCORE-NEUTRAL-ENCLOSED) and the flowers are nobody's.
    #[test]
    fn m20_score_neutral_enclosed_regions_are_named() {
        let diagram = ". . . . .\n. # # # .\n. # . # .\n. # # # .\n. . . . X\n";
        let t = ScoreTrace::of(&position(diagram, &[]), Labels::Chinese)
            .unwrap_or_else(|e| panic!("{e}"));
        let inner = t
            .regions
            .iter()
            .find(|r| r.points == ["OO"])
            .expect("the inner point");
        assert_eq!(inner.reason, Reason::NeutralEnclosed, "{:?}", t.regions);
        assert_eq!(inner.clause, "M20-SCORE-NEUTRAL-ENCLOSED");
        assert!(t
            .regions
            .iter()
            .any(|r| r.reason == Reason::NeutralFlowers && r.points.len() == 8));
    }
}
