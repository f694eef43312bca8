//! M13-FREEZE under `grey-freeze: kept` (register D21): the 2013 attribute of a grey string
//! is fixed when the last point next to it is occupied, "当此灰棋串的所有紧邻点被占完后，灰棋串的属性也就被
//! 定格，失去了再变化的可能" (000). A freeze is state, but state the boards of the game determine:
//! [`frozen_after`] folds them, oldest first, so a position's frozen strings follow from its
//! board and its `history` alone (a position without history knows only its own board: what
//! is surrounded there is frozen with the attribute that board gives, which is the recomputed
//! one).

use crate::board::grid::{neighbours, Board, Colour, Stone};
use crate::board::layers::Attribute;
use crate::board::strings;
use crate::judge::attribute;
use crate::rules::{AttributeRule, GreyFreeze, Rules};

/// A grey string whose attribute is frozen: its points (ascending indices of the direct
/// board) and the attribute it had when the last point next to it was occupied.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FrozenString {
    pub points: Vec<usize>,
    pub attribute: Attribute,
}

/// Whether `rules` freeze attributes: the 2013 rule (the only one that reads the option, D21)
/// with `grey-freeze: kept`.
pub fn freezes(rules: &Rules) -> bool {
    rules.attribute == AttributeRule::M2013 && rules.grey_freeze == GreyFreeze::Kept
}

/// M13-FREEZE, `grey-freeze: kept` — the frozen strings after the game reached `board`, given
/// `frozen`, those of the board before (every move leaves one board: the freeze is judged on
/// the boards moves leave, not inside a move's cascade). A grey string of `board` that was
/// frozen with exactly these points stays frozen with its attribute, whatever happened next to
/// it ("失去了再变化的可能"); one not frozen whose every adjacent point holds a black or white
/// stone is frozen now with its 2013 attribute on `board` ([`attribute::attribute_2013`]).
/// A frozen string that is gone — captured, or grown into a larger string by a grey stone
/// placed where a neighbour was captured — is no longer frozen: "此灰棋串" is that string; a
/// grown string is frozen again only when its own adjacent points are all occupied. Empty
/// under rules that do not freeze ([`freezes`]).
pub(crate) fn frozen_after(
    rules: &Rules,
    frozen: &[FrozenString],
    board: &Board,
) -> Vec<FrozenString> {
    if !freezes(rules) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for mut points in strings::flower_strings(board) {
        points.sort_unstable();
        if let Some(f) = frozen.iter().find(|f| f.points == points) {
            out.push(f.clone());
            continue;
        }
        let around = adjacent_points(board, &points);
        let surrounded = around
            .iter()
            .all(|&j| matches!(board.get(j), Some(Stone::Black | Stone::White)));
        if surrounded {
            let (attribute, _) = attribute::attribute_2013(attribute::stone_counts(
                around.iter().filter_map(|&j| colour_at(board, j)),
            ));
            out.push(FrozenString { points, attribute });
        }
    }
    out
}

/// The frozen strings of a position whose earlier boards are `history` (oldest first) and whose
/// board is `board`: [`frozen_after`] folded over them. The oldest board known is where the
/// freeze starts to be judged.
pub(crate) fn frozen_of(rules: &Rules, history: &[Board], board: &Board) -> Vec<FrozenString> {
    if !freezes(rules) {
        return Vec::new();
    }
    history
        .iter()
        .chain(std::iter::once(board))
        .fold(Vec::new(), |frozen, b| frozen_after(rules, &frozen, b))
}

/// How many of the most recent boards of `history` a position must keep for `frozen_of` to
/// give the same frozen strings on `board`: back to the board on which the earliest of its
/// frozen strings was frozen (from there on every one of them is frozen at the same board
/// with the same attribute; no string is frozen that was not). 0 when nothing is frozen.
pub fn boards_needed(rules: &Rules, history: &[Board], board: &Board) -> usize {
    if !freezes(rules) {
        return 0;
    }
    // the frozen strings after each history board, one fold (as `frozen_of` folds them)
    let states: Vec<Vec<FrozenString>> = history
        .iter()
        .scan(Vec::new(), |state, b| {
            *state = frozen_after(rules, state, b);
            Some(state.clone())
        })
        .collect();
    let frozen = frozen_after(rules, states.last().map_or(&[][..], Vec::as_slice), board);
    // each string stood with these points and was frozen on every board from its freeze on:
    // the run of the latest history boards that hold it
    frozen
        .iter()
        .map(|f| states.iter().rev().take_while(|s| s.contains(f)).count())
        .max()
        .unwrap_or(0)
}

/// The frozen attribute of the grey string `points` (ascending), if it is frozen.
pub(crate) fn frozen_attribute(frozen: &[FrozenString], points: &[usize]) -> Option<Attribute> {
    frozen
        .iter()
        .find(|f| f.points == points)
        .map(|f| f.attribute)
}

/// The points next to the grey string `points`, each once, none of its own.
fn adjacent_points(board: &Board, points: &[usize]) -> Vec<usize> {
    let mut around: Vec<usize> = points
        .iter()
        .flat_map(|&i| neighbours(board.size(), i))
        .filter(|j| points.binary_search(j).is_err())
        .collect();
    around.sort_unstable();
    around.dedup();
    around
}

fn colour_at(board: &Board, j: usize) -> Option<Colour> {
    match board.get(j) {
        Some(Stone::Black) => Some(Colour::Black),
        Some(Stone::White) => Some(Colour::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn rules(freeze: GreyFreeze) -> Rules {
        Rules {
            grey_freeze: freeze,
            ..Rules::preset("m3go-2013").unwrap_or_default()
        }
    }

    fn board(d: &str) -> Board {
        Board::from_diagram(d, 3).unwrap_or_else(|e| panic!("diagram: {e}"))
    }

    /// The grey at the top touches X, O and X: 2 : 1, black, every neighbour occupied. The
    /// black below it is then captured: counted afresh 1 : 1, neutral.
    fn before_and_after() -> (Board, Board) {
        (
            board("X # O\n. X .\n. . .\n"),
            board("X # O\n. . .\n. . .\n"),
        )
    }

    #[test]
    fn m13_freeze_kept_after_a_neighbours_capture() {
        let (before, after) = before_and_after();
        let r = rules(GreyFreeze::Kept);
        let frozen = frozen_of(&r, std::slice::from_ref(&before), &after);
        assert_eq!(frozen.len(), 1);
        assert_eq!(frozen[0].attribute, Attribute::Black);
        assert_eq!(frozen[0].points, vec![1]);
        // without the history, the board alone: not surrounded, not frozen
        assert!(frozen_of(&r, &[], &after).is_empty());
        // the board it froze on is the one history board the freeze needs
        assert_eq!(boards_needed(&r, std::slice::from_ref(&before), &after), 1);
        assert_eq!(boards_needed(&r, &[], &before), 0);
    }

    #[test]
    fn m13_freeze_recomputed_or_other_rules_freeze_nothing() {
        let (before, after) = before_and_after();
        assert!(frozen_of(
            &rules(GreyFreeze::Recomputed),
            std::slice::from_ref(&before),
            &after
        )
        .is_empty());
        let r2016 = Rules::preset("m3go-2016").unwrap_or_default();
        assert!(frozen_of(&r2016, std::slice::from_ref(&before), &before).is_empty());
    }

    #[test]
    fn m13_freeze_ends_when_the_string_grows() {
        let (before, after) = before_and_after();
        // a grey stone joins it where the black was captured: another string, not surrounded
        let grown = board("X # O\n. # .\n. . .\n");
        let r = rules(GreyFreeze::Kept);
        assert!(frozen_of(&r, &[before, after], &grown).is_empty());
    }
}
