//! The rules of a placed stone written once for both boards — the clause-by-clause position
//! (`game::play`, over [`Board`](crate::Board) and [`Analysis`]) and the fast engine
//! (`game::fast`, over its padded byte board): the capture / attribute cascade ([`cascade`],
//! over [`CascadeBoard`]), the repetition test of the ko rules ([`repeats_earlier`]) and the
//! emergency conversion's condition P ([`conversion_ataris`], over [`UpperStrings`]). Each board
//! says how it analyses itself, finds and removes strings and (the reference only) logs the
//! steps; the decisions are made here, once. This module imports neither board's position.

use crate::board::grid::Colour;
use crate::board::layers::Cell;
use crate::game::order::{StoneKind, Turn};
use crate::game::refusal::Refusal;
use crate::judge::analysis::Analysis;
use crate::judge::forbidden::UpperView;
use crate::rules::{CaptureTiming, FlowerCaptureCheck, Ko, Rules, Suicide, SuicideTiming};

/// A step of the cascade, as the reference's step log writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CascadeStep {
    /// The upper strings of the colour without liberty are about to be removed (GO-CAPTURE).
    Capture(Colour),
    /// The mover's strings without liberty are about to be removed (GO-SUICIDE, suicide allowed).
    Suicide(Colour),
    /// Private eyes and attributes are recomputed after a removal or after the held round.
    Recomputed,
    /// The mover's strings without liberty wait for the recomputed attributes (D10).
    RecomputedBeforeSuicide,
}

/// A board the cascade settles: the direct board with the stone of the move on it.
pub(crate) trait CascadeBoard {
    /// Analyses the board as it now stands: with the flower attributes held from before the
    /// move (`held`, `capture-timing: holographic-first`, register D8; a flower the held
    /// analysis does not know is neutral) or with every attribute recomputed.
    fn analyse(&mut self, held: bool);
    /// Whether the last analysis has a black or white upper string of `colour` without liberty.
    fn any_without_liberty(&self, colour: Colour) -> bool;
    /// Removes every upper string of `colour` without liberty of the last analysis from the
    /// direct board, black/white stones and attributed flowers alike (Q20-HOLO-CAPTURE).
    fn remove_without_liberty(&mut self, colour: Colour);
    /// Logs a step (the reference's report); a board that keeps no log ignores it.
    fn note(&mut self, _step: CascadeStep) {}
}

/// GO-CASCADE — after a stone is placed: under `capture-timing: holographic-first` (default,
/// register D8) first judge captures on the holographic board as it stood (held attributes),
/// removing attributed flowers with their strings; then recompute lower layer → private eyes →
/// attributes → upper layer; remove every opponent upper string without liberty
/// ("下子方提吃对方无气棋串" first, 000); if none, the mover's own strings without liberty make the
/// move suicide (refused under `suicide: forbidden`, removed under `allowed`); repeat until
/// nothing changes. It terminates because every round removes stones and none is added.
/// GO-SUICIDE is judged at the fixpoint (register D10, `suicide-timing: fixpoint`): a mover's
/// string without liberty in the held round is judged only after the attributes are recomputed
/// and the opponent captures they cause are done; `suicide-timing: first-round` judges it
/// there. M16-LIFE-2-MOVER, GO-CAPTURE and GO-SUICIDE are cited at their branches below.
/// Returns `Err(Refusal::Suicide)` when the move is suicide and suicide is forbidden; the board
/// then holds the analysis that found it.
#[inline]
pub(crate) fn cascade(
    board: &mut impl CascadeBoard,
    rules: &Rules,
    mover: Colour,
) -> Result<(), Refusal> {
    let mut holding = rules.capture_timing == CaptureTiming::HolographicFirst;
    loop {
        board.analyse(holding);
        // GO-CAPTURE, M16-LIFE-2-MOVER: the opponent's strings without liberty go first.
        if board.any_without_liberty(mover.opponent()) {
            board.note(CascadeStep::Capture(mover.opponent()));
            board.remove_without_liberty(mover.opponent());
            board.note(CascadeStep::Recomputed);
            continue;
        }
        // GO-SUICIDE: then the mover's own strings without liberty.
        if board.any_without_liberty(mover) {
            if holding && rules.suicide_timing == SuicideTiming::Fixpoint {
                // GO-SUICIDE, register D10 (`suicide-timing: fixpoint`): a string of the mover
                // without liberty on the holographic board as it stood is not judged yet; the
                // recomputed attributes may leave opponent strings without liberty, whose
                // capture comes first (000 "下子方提吃对方无气棋串中所有棋子，使下子方的无气棋串变为有气棋串").
                holding = false;
                board.note(CascadeStep::RecomputedBeforeSuicide);
                continue;
            }
            if rules.suicide == Suicide::Forbidden {
                return Err(Refusal::Suicide);
            }
            board.note(CascadeStep::Suicide(mover));
            board.remove_without_liberty(mover);
            continue;
        }
        if holding {
            holding = false;
            board.note(CascadeStep::Recomputed);
            continue;
        }
        return Ok(());
    }
}

/// GO-KO — whether the board a move leads to repeats a position the ko rule forbids, given the
/// earlier boards newest first (`earlier`; the last board before the move is not among them,
/// only those before earlier moves), `number(e)` the move that was played on board `e`,
/// `same(e)` whether `e` is the resulting board, `next` the turn after the move and `turn_of`
/// the game's turn of a move: `simple`, the board before the previous move; `positional`, any
/// earlier board; `situational`, an earlier board on which the same turn was to move (register
/// D11).
pub(crate) fn repeats_earlier<E>(
    ko: Ko,
    earlier: impl IntoIterator<Item = E>,
    number: impl Fn(&E) -> i64,
    same: impl Fn(&E) -> bool,
    turn_of: impl Fn(u32) -> Turn,
    next: Turn,
) -> bool {
    let mut earlier = earlier.into_iter();
    match ko {
        Ko::None => false,
        Ko::Simple => earlier.next().is_some_and(|e| same(&e)),
        Ko::Positional => earlier.any(|e| same(&e)),
        Ko::Situational => earlier.any(|e| {
            let n = number(&e);
            n >= 1 && same(&e) && turn_of(n as u32) == next
        }),
    }
}

/// An upper layer with its strings, as the emergency conversion's condition P reads it.
pub(crate) trait UpperStrings: UpperView {
    /// The black or white upper strings of `colour` with exactly one liberty: each string's
    /// points (ascending, in the provider's indices) and that liberty.
    fn strings_in_atari(&self, colour: Colour) -> Vec<(Vec<usize>, usize)>;
}

impl UpperStrings for Analysis {
    fn strings_in_atari(&self, colour: Colour) -> Vec<(Vec<usize>, usize)> {
        self.upper_strings
            .groups
            .iter()
            .filter(|s| s.colour == Some(colour) && s.liberties.len() == 1)
            .map(|s| (s.points.clone(), s.liberties[0]))
            .collect()
    }
}

/// Why condition P of the emergency conversion fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoAtari {
    /// The previous move was not the opponent's (or there was none).
    NotOpponent,
    /// The position does not record the board before the previous move.
    NoHistory,
    /// The previous move was a pass.
    Pass,
    /// The previous move put no string of the player in atari.
    NoString,
}

/// D3-EMERGENCY-P — "前一手彼方所下棋子正在叫吃此方棋串" (004): the strings of `me`, the player to
/// move, that the opponent's previous move put in atari — one upper liberty now, two or more
/// before that move (the points next to the string that were empty in the upper layer before
/// it) — each as its points and its single liberty. `previous` is the player of the previous
/// move (`None` before move 2), `trailing_passes` the passes just made, `unchanged` whether the
/// board before the previous move is recorded (`None` if not) and equal to the board now, and
/// `upper` the upper layers now and before that move, analysed under the rules of the game
/// (asked only when the other conditions hold). Register D19.
pub(crate) fn conversion_ataris<V: UpperStrings>(
    me: Colour,
    previous: Option<Colour>,
    trailing_passes: u32,
    unchanged: Option<bool>,
    upper: impl FnOnce() -> (V, V),
) -> Result<Vec<(Vec<usize>, usize)>, NoAtari> {
    if previous != Some(me.opponent()) {
        return Err(NoAtari::NotOpponent);
    }
    match unchanged {
        None => return Err(NoAtari::NoHistory),
        Some(same) if same || trailing_passes > 0 => return Err(NoAtari::Pass),
        Some(_) => {}
    }
    let (now, was) = upper();
    let ataris: Vec<(Vec<usize>, usize)> = now
        .strings_in_atari(me)
        .into_iter()
        .filter(|(points, _)| {
            let mut before: Vec<usize> = points
                .iter()
                .flat_map(|&p| now.neighbours(p))
                .filter(|&q| was.cell(q) == Cell::Empty && points.binary_search(&q).is_err())
                .collect();
            before.sort_unstable();
            before.dedup();
            before.len() >= 2
        })
        .collect();
    if ataris.is_empty() {
        return Err(NoAtari::NoString);
    }
    Ok(ataris)
}

/// M20-FORBID-CAPTURE / D3-FORBID-CAPTURE, register D9 (default `flower-capture-check:
/// cascade`): "也即花子不具有提吃功能" (003, 004), "灰子不具有提吃棋子的功能" (000) — whether a move
/// of `turn` whose attribute cascade removed stones (`captured`) is refused as a capture point:
/// a flower, under the cascade check. Both boards call it (`Position::refuse_flower_capture`,
/// the fast engine's moves).
pub(crate) fn flower_capture_refused(rules: &Rules, turn: Turn, captured: bool) -> bool {
    turn.kind == StoneKind::Flower
        && rules.flower_capture_check == FlowerCaptureCheck::Cascade
        && captured
}

/// D3-EMERGENCY-Q — "此黑子或白子只能下在刚才被叫吃棋串紧邻的惟一空点上" (004): whether an
/// emergency conversion at `at` (`None`: a pass) meets condition Q, a stone on one of
/// `liberties` (the single liberties of the strings put in atari, D3-EMERGENCY-P). A converted
/// flower is a stone, never a pass. Both boards call it (`game::play::emergency_conversion`,
/// `Position::pass`, the fast engine's special moves).
pub(crate) fn conversion_q(mut liberties: impl Iterator<Item = usize>, at: Option<usize>) -> bool {
    at.is_some_and(|i| liberties.any(|l| l == i))
}
