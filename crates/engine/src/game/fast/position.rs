//! [`FastPosition`]: a position on the fast engine (its state, the consistency check, play,
//! special moves; the move itself is settled in `settle.rs`, the legal moves listed and the game
//! tree walked in `walk.rs`, the earlier boards and their hashes kept in `earlier.rs`). The rules of a move are not written here: the turn and the end of the game
//! are `game::order`'s ([`game_turn`], [`game_over_in`], [`FlystoneState::after`]), the flower's
//! forbidden points `judge::forbidden`'s, the capture cascade, the ko rules and the emergency
//! conversion's condition P `game::cascade`'s, each over this engine's board.

use super::analysis::padded_cells;
use super::earlier::{board_hash, earlier_boards, Earlier};
use super::*;
use crate::board::coord::Point;
use crate::board::grid::{Board, Stone};
use crate::game::cascade::{conversion_ataris, conversion_q};
use crate::game::moves::Action;
use crate::game::order::{game_over_in, game_turn, FlystoneState, StoneKind, Turn};
use std::sync::Arc;

/// Why the fast path refuses a move: the reference's reasons.
pub use crate::game::refusal::Refusal;

/// A position on the fast path: the direct board, the earlier boards the ko rule needs, the
/// move number, the trailing passes, the Flystone state and the analysis of the board.
#[derive(Clone, Debug)]
pub struct FastPosition {
    pub(super) rules: Rules,
    pub(super) choices: Choices,
    pub(super) geom: Geom,
    pub(super) cells: [u8; MAXN],
    /// The Zobrist hash of `cells` ([`board_hash`]), kept as stones are placed and removed.
    pub(super) hash: u64,
    /// The board before the previous move, if there was a previous move, with its hash.
    pub(super) last: Option<([u8; MAXN], u64)>,
    /// Every earlier board, newest first, under positional and situational ko (else `None`).
    pub(super) earlier: Option<Arc<Earlier>>,
    pub(super) move_number: u32,
    pub(super) trailing_passes: u32,
    /// The Flystone state (random timings, flystones thrown) under the `flystone` schedule.
    pub(super) flystone: Option<FlystoneState>,
    /// The turn of the next move.
    pub(super) turn: Turn,
    /// Whether a flower stone stands on the board (else the upper layer is the direct board).
    pub(super) any_flower: bool,
    pub(super) an: FastAnalysis,
    /// Per lower string of `an`: whether it touches a flower (kept where
    /// [`FastPosition::local_attributes`] holds; else all `false`).
    pub(super) by_flower: [bool; MAXS],
    /// An empty board of the size, to write the direct board back.
    pub(super) blank: Board,
    /// The points the move being settled into this position removed (scratch of
    /// [`FastPosition::place`], kept to keep its capacity; `p`, the stone's own point, is not
    /// listed).
    pub(super) removed: Vec<u16>,
}

impl FastPosition {
    /// The fast form of a position given as its parts: the rules, the direct board, the earlier
    /// boards (oldest first, the last one the board before the previous move), the number of
    /// the next move, the trailing passes and the Flystone state (`None` under other
    /// schedules). Total: the fast engine implements every rule set (every preset and option,
    /// compared with the reference by the tests).
    /// The grey strings whose attribute is frozen (M13-FREEZE, `grey-freeze: kept`) are
    /// derived from the history and the board (`crate::judge::freeze::frozen_of`).
    #[cfg(any(test, feature = "testing"))]
    pub fn from_state(
        rules: &Rules,
        board: &Board,
        history: &[Board],
        move_number: u32,
        trailing_passes: u32,
        flystone: Option<FlystoneState>,
    ) -> FastPosition {
        let frozen = crate::judge::freeze::frozen_of(rules, history, board);
        FastPosition::from_state_frozen(
            rules,
            board,
            history,
            move_number,
            trailing_passes,
            flystone,
            frozen,
        )
    }

    /// [`FastPosition::from_state`] with the frozen grey strings given (a position's, already
    /// derived from its history: `Position::fast`).
    pub(crate) fn from_state_frozen(
        rules: &Rules,
        board: &Board,
        history: &[Board],
        move_number: u32,
        trailing_passes: u32,
        flystone: Option<FlystoneState>,
        frozen: Vec<crate::judge::freeze::FrozenString>,
    ) -> FastPosition {
        let geom = Geom {
            size: board.size(),
            w: board.size() + 2,
        };
        let cells = padded_cells(board, geom);
        let mut earlier = None;
        if matches!(rules.ko, Ko::Positional | Ko::Situational) {
            let len = history.len() as i64;
            for (j, b) in history.iter().enumerate() {
                let c = padded_cells(b, geom);
                let number = i64::from(move_number) - (len - j as i64);
                earlier = Some(Arc::new(Earlier {
                    cells: c,
                    hash: board_hash(geom, &c),
                    // A board before move 1 or earlier never matches a situational turn.
                    number: u32::try_from(number).unwrap_or(0),
                    prev: earlier,
                }));
            }
        }
        let flystone = flystone.filter(|_| rules.schedule == Schedule::Flystone);
        let mut fp = FastPosition {
            rules: rules.clone(),
            choices: Choices::of(rules),
            geom,
            cells,
            hash: board_hash(geom, &cells),
            last: history.last().map(|b| {
                let c = padded_cells(b, geom);
                (c, board_hash(geom, &c))
            }),
            earlier,
            move_number,
            trailing_passes,
            turn: game_turn(rules, flystone.as_ref(), move_number),
            flystone,
            any_flower: false,
            an: FastAnalysis::empty(geom, rules),
            by_flower: [false; MAXS],
            blank: board.clone(),
            removed: Vec::new(),
        };
        for i in 0..fp.blank.len() {
            fp.blank.set(i, None);
        }
        fp.an.frozen = Arc::from(frozen);
        fp.refresh();
        fp
    }

    /// Analyses `cells` under the rules into `an`.
    pub(super) fn analyse_into(an: &mut FastAnalysis, cells: &[u8; MAXN], choices: Choices) {
        an.run(cells, choices.attribute, false);
    }

    pub(super) fn refresh(&mut self) {
        self.any_flower = self.geom.points().any(|p| self.cells[p & MASK] == FLOWER);
        Self::analyse_into(&mut self.an, &self.cells, self.choices);
        self.by_flower.fill(false);
        if self.any_flower && self.local_attributes() && self.an.eyes_done {
            let an = &self.an;
            for p in self.geom.points() {
                if self.cells[p & MASK] != FLOWER {
                    continue;
                }
                for d in self.geom.dirs() {
                    let s = an.lower_of[p.wrapping_add(d) & MASK];
                    if s != NONE {
                        self.by_flower[s as usize] = true;
                    }
                }
            }
        }
    }

    /// The consistency check, in the spirit of KataGo's `checkConsistency`: everything this
    /// position holds besides the board — its Zobrist hash, the flower flag, the analysis
    /// (lower strings and their private eyes, flower attributes, the upper layer, its strings
    /// and liberties), the per-string flower marks and the turn — recomputed from the board
    /// from scratch and compared; the first difference is named. String numbers may differ
    /// (the partition into strings must not). Run under `debug_assert!` after every move and
    /// pass, so the test build and the fuzz builds with debug assertions check each one.
    pub fn check_consistency(&self) -> Result<(), Inconsistency> {
        let geom = self.geom;
        let name = |p: usize| crate::board::coord::point_of(geom.size, geom.unpad(p));
        if board_hash(geom, &self.cells) != self.hash {
            return Err(Inconsistency::Hash);
        }
        if let Some((l, h)) = &self.last {
            if board_hash(geom, l) != *h {
                return Err(Inconsistency::PreviousHash);
            }
        }
        for e in earlier_boards(self.earlier.as_ref()) {
            if board_hash(geom, &e.cells) != e.hash {
                return Err(Inconsistency::EarlierHash { number: e.number });
            }
        }
        if self.turn != self.turn_of(self.move_number) {
            return Err(Inconsistency::Turn {
                number: self.move_number,
            });
        }
        let mut fresh = self.clone();
        fresh.refresh();
        if fresh.any_flower != self.any_flower {
            return Err(Inconsistency::FlowerFlag);
        }
        let (a, f) = (&self.an, &fresh.an);
        if f.eyes_done && !a.eyes_done {
            return Err(Inconsistency::EyesNotComputed);
        }
        // The partition into strings: a bijection between the held and the fresh numbers.
        let mut upper_map = std::collections::HashMap::new();
        let mut lower_map = std::collections::HashMap::new();
        for p in geom.points() {
            let p = p & MASK;
            if self.cells[p] == BORDER {
                continue;
            }
            if a.upper[p] != f.upper[p] {
                return Err(Inconsistency::UpperLayer(name(p)));
            }
            if (a.upper_of[p] == NONE) != (f.upper_of[p] == NONE) {
                return Err(Inconsistency::UpperString(name(p)));
            }
            if a.upper_of[p] != NONE {
                let (sa, sf) = (a.upper_of[p] as usize, f.upper_of[p] as usize);
                if *upper_map.entry(sa).or_insert(sf) != sf {
                    return Err(Inconsistency::UpperSplit(name(p)));
                }
                if a.upper_libs[sa] != f.upper_libs[sf] || a.upper_colour[sa] != f.upper_colour[sf]
                {
                    return Err(Inconsistency::UpperLiberties {
                        point: name(p),
                        held: a.upper_libs[sa],
                        board: f.upper_libs[sf],
                    });
                }
                if f.upper_libs[sf] == 1 && a.upper_lib[sa] != f.upper_lib[sf] {
                    return Err(Inconsistency::UpperSingleLiberty(name(p)));
                }
            }
            let (fa, ff) = (a.flower_of[p], f.flower_of[p]);
            if (fa == NONE) != (ff == NONE)
                || (fa != NONE && a.flower_attr[fa as usize] != f.flower_attr[ff as usize])
            {
                return Err(Inconsistency::FlowerAttribute(name(p)));
            }
            if f.eyes_done {
                if (a.lower_of[p] == NONE) != (f.lower_of[p] == NONE) {
                    return Err(Inconsistency::LowerString(name(p)));
                }
                if a.lower_of[p] != NONE {
                    let (sa, sf) = (a.lower_of[p] as usize, f.lower_of[p] as usize);
                    if *lower_map.entry(sa).or_insert(sf) != sf {
                        return Err(Inconsistency::LowerSplit(name(p)));
                    }
                    if a.has_eye[sa] != f.has_eye[sf] {
                        return Err(Inconsistency::PrivateEye {
                            point: name(p),
                            held: a.has_eye[sa],
                            board: f.has_eye[sf],
                        });
                    }
                    if self.by_flower[sa] != fresh.by_flower[sf] {
                        return Err(Inconsistency::TouchesFlower(name(p)));
                    }
                }
            }
        }
        // Two held strings may not be one fresh string.
        let distinct = |m: &std::collections::HashMap<usize, usize>| {
            let mut v: Vec<usize> = m.values().copied().collect();
            let n = v.len();
            v.sort_unstable();
            v.dedup();
            v.len() == n
        };
        if !distinct(&upper_map) || !distinct(&lower_map) {
            return Err(Inconsistency::Merged);
        }
        Ok(())
    }

    /// The direct board.
    pub fn board(&self) -> Board {
        let mut b = self.blank.clone();
        for i in 0..b.len() {
            b.set(
                i,
                match self.cells[self.geom.pad(i)] {
                    BLACK => Some(Stone::Black),
                    WHITE => Some(Stone::White),
                    FLOWER => Some(Stone::Flower),
                    _ => None,
                },
            );
        }
        b
    }

    /// Number of the next move.
    #[cfg(any(test, feature = "testing"))]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The analysis of the current board.
    #[cfg(any(test, feature = "testing"))]
    pub fn analysis(&self) -> &FastAnalysis {
        &self.an
    }

    /// The Flystone state (under the `flystone` schedule).
    #[cfg(any(test, feature = "testing"))]
    pub fn flystone(&self) -> Option<&FlystoneState> {
        self.flystone.as_ref()
    }

    /// The turn of the next move.
    #[cfg(any(test, feature = "testing"))]
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The turn of move `n` of this game ([`game_turn`]).
    pub(super) fn turn_of(&self, n: u32) -> Turn {
        game_turn(&self.rules, self.flystone.as_ref(), n)
    }

    /// Whether the game is over by passes (`game_over_in`, GO-END).
    pub fn game_over(&self) -> bool {
        game_over_in(
            &self.rules,
            self.flystone.as_ref(),
            self.move_number,
            self.trailing_passes,
        )
    }

    /// Plays a move of the schedule's turn (as `Position::play`, without the report); `self` is
    /// unchanged.
    #[cfg(any(test, feature = "testing"))]
    pub fn play(&self, action: Action) -> Result<FastPosition, Refusal> {
        self.play_as(action, self.turn)
    }

    /// Plays a move of `turn`, the schedule's or one of [`FastPosition::special_turns`] (a
    /// special move, as `Position::play` of a move claiming that turn); `self` is unchanged.
    pub fn play_as(&self, action: Action, turn: Turn) -> Result<FastPosition, Refusal> {
        match self.checked_point(action, turn)? {
            None => {
                let mut out = self.clone();
                self.pass_into(turn, &mut out);
                Ok(out)
            }
            Some(p) => self.placed(p, turn),
        }
    }

    /// The checks of a move of `turn` before its point is settled (the game not over, the
    /// turn the schedule's or a special one, the point on the board, an emergency conversion
    /// on a single liberty of P and Q): its padded point, `None` for a pass.
    pub(super) fn checked_point(
        &self,
        action: Action,
        turn: Turn,
    ) -> Result<Option<usize>, Refusal> {
        if self.game_over() {
            return Err(Refusal::GameOver);
        }
        if turn != self.turn && !self.special_turns().contains(&turn) {
            return Err(Refusal::WrongTurn(self.rules.schedule));
        }
        let p = match action {
            Action::Pass => None,
            Action::Place(pt) => {
                if !pt.on_board(self.geom.size) {
                    return Err(Refusal::OffBoard);
                }
                Some(self.geom.pad(self.board_index(pt)))
            }
        };
        if turn != self.turn && turn.kind == StoneKind::Own {
            // D3-EMERGENCY-Q: a converted flower is a stone on the single liberty of a string
            // put in atari, never a pass.
            if !conversion_q(self.conversion_points().into_iter(), p) {
                return Err(Refusal::ConversionQ);
            }
        }
        Ok(p)
    }

    pub(super) fn board_index(&self, pt: crate::board::coord::Point) -> usize {
        crate::board::coord::index_of(self.geom.size, pt)
    }

    pub(super) fn point(&self, p: usize) -> crate::board::coord::Point {
        crate::board::coord::point_of(self.geom.size, self.geom.unpad(p))
    }

    /// The turns the next move may take besides the schedule's
    /// ([`crate::game::order::Turn::special_turns`]): an emergency conversion (D3-EMERGENCY) or a
    /// chosen flystone (S3-ROUND) while the player has one left.
    pub fn special_turns(&self) -> Vec<Turn> {
        let n = self.move_number;
        let mut turns = crate::game::order::Turn::special_turns(
            &self.rules,
            self.flystone.is_some(),
            self.turn,
            (n >= 2).then(|| self.turn_of(n - 1)),
        );
        turns.retain(|t| match (t.kind, &self.flystone) {
            (StoneKind::Flower, Some(s)) => s.chosen_flystones_left(&self.rules, t.player, n) > 0,
            _ => true,
        });
        turns
    }

    /// D3-EMERGENCY-P / D3-EMERGENCY-Q: the points where an emergency conversion may go — the
    /// single liberties of the strings the previous move put in atari ([`conversion_ataris`]
    /// on this engine's upper layers), ascending.
    pub(super) fn conversion_points(&self) -> Vec<usize> {
        let n = self.move_number;
        let found = conversion_ataris(
            self.turn.player,
            (n >= 2).then(|| self.turn_of(n - 1).player),
            self.trailing_passes,
            self.last.as_ref().map(|(l, _)| *l == self.cells),
            || {
                let mut was = self.an.clone();
                // the board before the previous move, recomputed, as the reference does (no
                // freeze of its own is known)
                was.frozen = Arc::from(Vec::new());
                if let Some((l, _)) = &self.last {
                    Self::analyse_into(&mut was, l, self.choices);
                }
                (self.an.clone(), was)
            },
        );
        let mut libs: Vec<usize> = found
            .map(|v| v.into_iter().map(|(_, l)| l).collect())
            .unwrap_or_default();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// The candidate special moves: each special turn with its points (a conversion: the
    /// single liberties of P and Q; a chosen flystone: every empty point) and, for a
    /// flystone, the pass (`None`), in `Position::special_moves`' order.
    pub(super) fn special_candidates(&self) -> Vec<(Turn, Option<usize>)> {
        let mut out = Vec::new();
        for t in self.special_turns() {
            if t.kind == StoneKind::Own {
                out.extend(self.conversion_points().into_iter().map(|p| (t, Some(p))));
            } else {
                out.extend(
                    self.geom
                        .points()
                        .filter(|&p| self.cells[p & MASK] == EMPTY)
                        .map(|p| (t, Some(p))),
                );
                out.push((t, None));
            }
        }
        out
    }

    /// The legal moves that take a turn other than the schedule's, with their turn, as
    /// `Position::special_moves` lists them: emergency conversions (D3-EMERGENCY) and chosen
    /// flystones (S3-ROUND) with their pass.
    #[cfg(any(test, feature = "testing"))]
    pub fn special_moves(&self) -> Vec<(Turn, Action)> {
        if self.game_over() {
            return Vec::new();
        }
        let mut scratch = None;
        self.special_candidates()
            .into_iter()
            .filter(|&(t, p)| match p {
                None => true,
                Some(p) => self.place(p, t, &mut scratch, false).is_ok(),
            })
            .map(|(t, p)| {
                (
                    t,
                    match p {
                        None => Action::Pass,
                        Some(p) => Action::Place(self.point(p)),
                    },
                )
            })
            .collect()
    }
}

/// What [`FastPosition::check_consistency`] found held that is not the board's: the first
/// difference, each named as the check words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    /// The Zobrist hash is not the board's.
    Hash,
    /// The hash of the board before the previous move is not its.
    PreviousHash,
    /// The hash of an earlier board (of move `number`) is not its.
    EarlierHash { number: u32 },
    /// The turn of move `number` is not the schedule's.
    Turn { number: u32 },
    /// The flower flag is not the board's.
    FlowerFlag,
    /// The private eyes are not computed, and the attributes need them.
    EyesNotComputed,
    /// The upper layer at a point.
    UpperLayer(Point),
    /// Whether an upper string goes through a point.
    UpperString(Point),
    /// The held upper string through a point is two fresh strings.
    UpperSplit(Point),
    /// The liberties (or colour) of the upper string through a point.
    UpperLiberties { point: Point, held: u16, board: u16 },
    /// The single liberty of the upper string through a point.
    UpperSingleLiberty(Point),
    /// The flower attribute at a point.
    FlowerAttribute(Point),
    /// Whether a lower string goes through a point.
    LowerString(Point),
    /// The held lower string through a point is two fresh strings.
    LowerSplit(Point),
    /// The private eye of the string through a point.
    PrivateEye {
        point: Point,
        held: bool,
        board: bool,
    },
    /// Whether the string through a point touches a flower.
    TouchesFlower(Point),
    /// Two held strings are one string on the board.
    Merged,
}

impl std::error::Error for Inconsistency {}

impl std::fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Inconsistency::Hash => f.write_str("the Zobrist hash is not the board's"),
            Inconsistency::PreviousHash => {
                f.write_str("the hash of the board before the previous move is not its")
            }
            Inconsistency::EarlierHash { number } => {
                write!(
                    f,
                    "the hash of the earlier board of move {number} is not its"
                )
            }
            Inconsistency::Turn { number } => {
                write!(f, "the turn of move {number} is not the schedule's")
            }
            Inconsistency::FlowerFlag => f.write_str("the flower flag is not the board's"),
            Inconsistency::EyesNotComputed => {
                f.write_str("the private eyes are not computed, and the attributes need them")
            }
            Inconsistency::UpperLayer(p) => write!(f, "the upper layer at {p}"),
            Inconsistency::UpperString(p) => write!(f, "the upper string through {p}"),
            Inconsistency::UpperSplit(p) => {
                write!(f, "the upper string through {p} is not one string")
            }
            Inconsistency::UpperLiberties { point, held, board } => write!(
                f,
                "the upper string through {point}: {held} liberties held, {board} on the board"
            ),
            Inconsistency::UpperSingleLiberty(p) => {
                write!(f, "the single liberty of the upper string through {p}")
            }
            Inconsistency::FlowerAttribute(p) => write!(f, "the flower attribute at {p}"),
            Inconsistency::LowerString(p) => write!(f, "the lower string through {p}"),
            Inconsistency::LowerSplit(p) => {
                write!(f, "the lower string through {p} is not one string")
            }
            Inconsistency::PrivateEye { point, held, board } => write!(
                f,
                "the private eye of the string through {point}: {held} held, {board} on the board"
            ),
            Inconsistency::TouchesFlower(p) => {
                write!(f, "whether the string through {p} touches a flower")
            }
            Inconsistency::Merged => f.write_str("two held strings are one string on the board"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_consistency_names_a_held_state_that_is_not_the_board() {
        let rules = Rules::m3go_2020();
        let board = Board::empty(5).expect("an odd size");
        let mut pos = FastPosition::from_state(&rules, &board, &[], 1, 0, None);
        for _ in 0..8 {
            let moves = pos.legal_moves();
            pos = pos.play(moves[moves.len() / 3]).expect("a listed move");
            assert_eq!(pos.check_consistency(), Ok(()));
        }
        let mut bad = pos.clone();
        bad.hash ^= 1;
        let e = bad.check_consistency().expect_err("a wrong hash");
        assert!(e.to_string().contains("Zobrist"), "{e}");
        let mut bad = pos.clone();
        let p = pos
            .geom
            .points()
            .find(|&p| pos.an.upper_of[p & MASK] != NONE)
            .expect("a stone on the board");
        bad.an.upper_libs[bad.an.upper_of[p & MASK] as usize] += 1;
        let e = bad.check_consistency().expect_err("a wrong liberty count");
        assert!(e.to_string().contains("liberties"), "{e}");
        let mut bad = pos.clone();
        bad.an.upper[p & MASK] = EMPTY;
        let e = bad.check_consistency().expect_err("a wrong upper layer");
        assert!(e.to_string().contains("upper layer"), "{e}");
    }
}
