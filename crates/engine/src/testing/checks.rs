//! One checker per invariant of a position or a move (settled, score sums, a move against the
//! traced cascade, legal moves against play, symmetries and the colour swap); each returns
//! a [`CheckFailure`] naming the position and the failing part.

use super::cascade::{held_attributes, trace_cascade};
use super::failure::CheckFailure;
use super::symmetry::{
    point_facts, region_facts, swap_colours, swap_facts, swapped_move_number, Symmetry,
};
use crate::board::grid::Stone;
use crate::board::layers::{Attribute, Cell};
use crate::game::play::{Action, Move, Position, PositionParts, Refusal};
use crate::judge::analysis::Analysis;
use crate::judge::scoring::Score;
use crate::judge::units::HalfPoints;
use crate::rules::Schedule;
use std::collections::BTreeSet;

fn describe(pos: &Position) -> String {
    format!(
        "position ({}, move {}):\n{}",
        pos.rules().preset,
        pos.move_number(),
        pos.board().to_diagram()
    )
}

fn act(a: Action) -> String {
    match a {
        Action::Place(p) => p.to_string(),
        Action::Pass => "pass".into(),
    }
}

/// No black or white upper string without a liberty.
pub fn check_settled(pos: &Position) -> Result<(), CheckFailure> {
    let a = pos.analysis();
    for s in &a.upper_strings.groups {
        if s.colour.is_some() && s.liberties.is_empty() {
            return Err(CheckFailure::Broken(format!(
                "the {:?} upper string at {} has no liberty; {}",
                s.colour,
                pos.board().point(s.points[0]),
                describe(pos)
            )));
        }
    }
    Ok(())
}

/// Black + white + neutral = 2·size² half-points, none negative nor above 2·size².
pub fn check_score(pos: &Position) -> Result<(), CheckFailure> {
    let total = HalfPoints(2 * pos.board().len() as i32);
    let s = Score::of_board(pos.board(), pos.rules(), &[]).map_err(CheckFailure::ScoreRefused)?;
    if s.black + s.white + s.neutral != total {
        return Err(CheckFailure::Broken(format!(
            "black {} + white {} + neutral {} != {total} half-points; {}",
            s.black,
            s.white,
            s.neutral,
            describe(pos)
        )));
    }
    for (name, v) in [
        ("black", s.black),
        ("white", s.white),
        ("neutral", s.neutral),
    ] {
        if !(HalfPoints(0)..=total).contains(&v) {
            return Err(CheckFailure::Broken(format!(
                "{name} = {v} half-points, outside 0..={total}; {}",
                describe(pos)
            )));
        }
    }
    Ok(())
}

/// A move checked by [`check_move`]: played (the position after it) or refused (the reason).
#[derive(Clone, Debug)]
pub enum CheckedMove {
    Played(Box<Position>),
    Refused(Refusal),
}

/// Plays `m` on `pos` and checks: a refusal carries a reason code, a clause and a message; a
/// played move leaves a settled board (no black/white upper string without liberty), is
/// reproduced by [`trace_cascade`] (which ends), removes no neutral flower in any round, changes
/// no stone's colour, reports as captured exactly the removed points, keeps the score sums, and
/// gives the same result when played again.
pub fn check_move(pos: &Position, m: &Move) -> Result<CheckedMove, CheckFailure> {
    let first = pos.play_reported(m);
    let again = pos.play_reported(m);
    let here = || {
        format!(
            "move {} ({}) on {}",
            pos.move_number(),
            act(m.action),
            describe(pos)
        )
    };
    let (next, report) = match first {
        Err(e) => {
            if e.clause != e.reason.clause() || e.message.to_string().trim().is_empty() {
                return Err(CheckFailure::Broken(format!(
                    "refusal without a proper reason: {e:?}; {}",
                    here()
                )));
            }
            if again.as_ref().err() != Some(&e) {
                return Err(CheckFailure::Broken(format!(
                    "playing again gives {again:?}, first {e:?}; {}",
                    here()
                )));
            }
            return Ok(CheckedMove::Refused(e.reason));
        }
        Ok(x) => x,
    };
    match &again {
        Ok((n2, r2)) if *n2 == next && *r2 == report => {}
        _ => {
            return Err(CheckFailure::Broken(format!(
                "playing again gives a different result; {}",
                here()
            )))
        }
    }
    if next.move_number() != pos.move_number() + 1 {
        return Err(CheckFailure::Broken(format!(
            "the move number did not advance; {}",
            here()
        )));
    }
    check_settled(&next).map_err(|e| CheckFailure::After {
        here: here(),
        source: Box::new(e),
    })?;
    check_score(&next).map_err(|e| CheckFailure::After {
        here: here(),
        source: Box::new(e),
    })?;
    let turn = m.turn.unwrap_or_else(|| pos.turn());
    let Action::Place(p) = m.action else {
        if next.board() != pos.board() {
            return Err(CheckFailure::Broken(format!(
                "a pass changed the board; {}",
                here()
            )));
        }
        return Ok(CheckedMove::Played(Box::new(next)));
    };
    let i = pos.board().index(p);
    let placed = match turn.kind {
        crate::game::order::StoneKind::Own => turn.player.stone(),
        crate::game::order::StoneKind::Flower => Stone::Flower,
    };
    let mut board = pos.board().clone();
    board.set(i, Some(placed));
    check_cascade(pos, &board, turn.player, &next, &here)?;
    check_removed(pos, &board, &next, &report, &here)?;
    Ok(CheckedMove::Played(Box::new(next)))
}

/// The board `next` that play left is the cascade traced round by round from `board` (the
/// position's board with the stone placed, by `player`), and no round removed a neutral flower.
fn check_cascade(
    pos: &Position,
    board: &crate::board::grid::Board,
    player: crate::board::grid::Colour,
    next: &Position,
    here: &dyn Fn() -> String,
) -> Result<(), CheckFailure> {
    let limit = board.len() + 2;
    let (traced, rounds) = trace_cascade(
        board.clone(),
        pos.rules(),
        player,
        held_attributes(pos).as_deref(),
        pos.frozen(),
        limit,
    )
    .map_err(|e| {
        CheckFailure::Broken(format!(
            "the traced cascade says `{e}` for a move play accepted; {}",
            here()
        ))
    })?;
    if traced != *next.board() {
        return Err(CheckFailure::Broken(format!(
            "play's board differs from the traced cascade:\n{}vs\n{}; {}",
            next.board().to_diagram(),
            traced.to_diagram(),
            here()
        )));
    }
    for r in &rounds {
        for &j in &r.removed {
            if r.analysis.upper.cells[j] == Cell::OffBoard
                || (r.analysis.board.get(j) == Some(Stone::Flower)
                    && r.analysis.attribute_at[j] == Some(Attribute::Neutral))
            {
                return Err(CheckFailure::Broken(format!(
                    "a neutral flower at {} was removed; {}",
                    pos.board().point(j),
                    here()
                )));
            }
        }
    }
    Ok(())
}

/// From `board` (the stone placed) to `next`, stones were only removed, none changed or
/// appeared, and the report's captures are the points removed.
fn check_removed(
    pos: &Position,
    board: &crate::board::grid::Board,
    next: &Position,
    report: &crate::game::play::Report,
    here: &dyn Fn() -> String,
) -> Result<(), CheckFailure> {
    let mut removed: Vec<String> = Vec::new();
    for j in 0..board.len() {
        match (board.get(j), next.board().get(j)) {
            (Some(_), None) => removed.push(pos.board().point(j).to_string()),
            (Some(s), Some(t)) if s != t => {
                return Err(CheckFailure::Broken(format!(
                    "the stone at {} changed colour; {}",
                    pos.board().point(j),
                    here()
                )))
            }
            (None, Some(_)) => {
                return Err(CheckFailure::Broken(format!(
                    "a stone appeared at {}; {}",
                    pos.board().point(j),
                    here()
                )))
            }
            _ => {}
        }
    }
    let mut reported: Vec<String> = report.captured.iter().map(|p| p.to_string()).collect();
    reported.sort();
    removed.sort();
    if reported != removed {
        return Err(CheckFailure::Broken(format!(
            "reported captures {reported:?}, removed {removed:?}; {}",
            here()
        )));
    }
    Ok(())
}

/// Every empty point and the pass, played one by one, against `legal_moves`: a move is listed
/// exactly when `play` accepts it, and every refusal carries a reason. Returns the results, in
/// board order then the pass.
pub fn check_legal_moves(pos: &Position) -> Result<Vec<(Action, CheckedMove)>, CheckFailure> {
    let listed: BTreeSet<(i32, i32, bool)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| match m.action {
            Action::Place(p) => (p.x, p.y, false),
            Action::Pass => (0, 0, true),
        })
        .collect();
    let mut out = Vec::new();
    let mut actions: Vec<Action> = (0..pos.board().len())
        .map(|i| Action::Place(pos.board().point(i)))
        .collect();
    actions.push(Action::Pass);
    for a in actions {
        let key = match a {
            Action::Place(p) => (p.x, p.y, false),
            Action::Pass => (0, 0, true),
        };
        let outcome = check_move(
            pos,
            &Move {
                action: a,
                number: None,
                turn: None,
            },
        )?;
        let accepted = matches!(outcome, CheckedMove::Played(_));
        if accepted != listed.contains(&key) {
            return Err(CheckFailure::Broken(format!(
                "{} is {} by play but {} by legal_moves; {}",
                act(a),
                if accepted { "accepted" } else { "refused" },
                if listed.contains(&key) {
                    "listed"
                } else {
                    "not listed"
                },
                describe(pos)
            )));
        }
        if let (Action::Place(p), CheckedMove::Refused(r)) = (a, &outcome) {
            if pos.board().at(p).is_some() && !pos.game_over() && *r != Refusal::Occupied {
                return Err(CheckFailure::Broken(format!(
                    "occupied point {p} refused as `{r}`; {}",
                    describe(pos)
                )));
            }
        }
        out.push((a, outcome));
    }
    Ok(out)
}

/// The analysis of every symmetric image of the board is the image of the analysis: point
/// facts, closed regions with their verdicts, and the score.
pub fn check_symmetry_of_analysis(pos: &Position) -> Result<(), CheckFailure> {
    let a = Analysis::new(pos.board(), pos.rules());
    let facts = point_facts(&a, pos.rules());
    let s0 = Score::of_board(pos.board(), pos.rules(), &[]).map_err(CheckFailure::Score)?;
    for s in Symmetry::ALL {
        let b2 = s.board(pos.board());
        let a2 = Analysis::new(&b2, pos.rules());
        let facts2 = point_facts(&a2, pos.rules());
        for i in 0..pos.board().len() {
            if facts2[s.index(pos.board(), i)] != facts[i] {
                return Err(CheckFailure::Broken(format!(
                    "symmetry {s:?}: facts at {} are {:?}, at its image {:?}; {}",
                    pos.board().point(i),
                    facts[i],
                    facts2[s.index(pos.board(), i)],
                    describe(pos)
                )));
            }
        }
        if region_facts(&a, |i| s.index(pos.board(), i)) != region_facts(&a2, |i| i) {
            return Err(CheckFailure::Broken(format!(
                "symmetry {s:?}: closed regions / verdicts differ; {}",
                describe(pos)
            )));
        }
        let s2 = Score::of_board(&b2, pos.rules(), &[]).map_err(CheckFailure::Score)?;
        if (s2.black, s2.white, s2.neutral) != (s0.black, s0.white, s0.neutral) {
            return Err(CheckFailure::Broken(format!(
                "symmetry {s:?}: score differs; {}",
                describe(pos)
            )));
        }
    }
    Ok(())
}

/// Playing the image of a move on the image of the position gives the image of the result (or
/// the same refusal code), for the eight symmetries.
pub fn check_symmetry_of_move(pos: &Position, action: Action) -> Result<(), CheckFailure> {
    let r = pos.play_reported(&Move {
        action,
        number: None,
        turn: None,
    });
    for s in Symmetry::ALL {
        let p2 = PositionParts {
            board: s.board(pos.board()),
            history: pos.history().to_vec().iter().map(|b| s.board(b)).collect(),
            ..pos.to_parts()
        }
        .validate(&format!("symmetry {s:?}"))
        .map_err(CheckFailure::Position)?;
        let r2 = p2.play_reported(&Move {
            action: s.action(action),
            number: None,
            turn: None,
        });
        match (&r, &r2) {
            (Ok((n, _)), Ok((n2, _))) if s.board(n.board()) == *n2.board() => {}
            (Err(e), Err(e2)) if e.reason == e2.reason => {}
            _ => {
                return Err(CheckFailure::Broken(format!(
                    "symmetry {s:?}, move {}: {:?} vs image {:?}; {}",
                    act(action),
                    r.as_ref()
                        .map(|x| x.0.board().to_diagram())
                        .map_err(|e| e.reason),
                    r2.as_ref()
                        .map(|x| x.0.board().to_diagram())
                        .map_err(|e| e.reason),
                    describe(pos)
                )))
            }
        }
    }
    Ok(())
}

/// Swapping black and white swaps every analysis result: point facts (upper layer, attributes,
/// counts, eyes, forbidden points of the other player's flower), closed regions and the score.
pub fn check_colour_swap_of_analysis(pos: &Position) -> Result<(), CheckFailure> {
    let a = Analysis::new(pos.board(), pos.rules());
    let b2 = swap_colours(pos.board());
    let a2 = Analysis::new(&b2, pos.rules());
    let facts = point_facts(&a, pos.rules());
    let facts2 = point_facts(&a2, pos.rules());
    for i in 0..pos.board().len() {
        if facts2[i] != swap_facts(&facts[i]) {
            return Err(CheckFailure::Broken(format!(
                "colour swap: facts at {} are {:?}, swapped board gives {:?}; {}",
                pos.board().point(i),
                facts[i],
                facts2[i],
                describe(pos)
            )));
        }
    }
    if region_facts(&a, |i| i) != region_facts(&a2, |i| i) {
        return Err(CheckFailure::Broken(format!(
            "colour swap: closed regions / verdicts differ; {}",
            describe(pos)
        )));
    }
    let s = Score::of_board(pos.board(), pos.rules(), &[]).map_err(CheckFailure::Score)?;
    let s2 = Score::of_board(&b2, pos.rules(), &[]).map_err(CheckFailure::Score)?;
    if (s2.black, s2.white, s2.neutral) != (s.white, s.black, s.neutral) {
        return Err(CheckFailure::Broken(format!(
            "colour swap: Score::of_board ({}, {}, {}) becomes ({}, {}, {}); {}",
            s.black,
            s.white,
            s.neutral,
            s2.black,
            s2.white,
            s2.neutral,
            describe(pos)
        )));
    }
    Ok(())
}

/// The move played by the other colour on the colour-swapped board (the move number shifted so
/// the turn is the same kind of stone for the other player) gives the colour-swapped result, or
/// the same refusal code. Not checked under the Flystone schedule, whose random flystone
/// timings differ between the sides (the analysis-level swap still holds there).
pub fn check_colour_swap_of_move(pos: &Position, action: Action) -> Result<(), CheckFailure> {
    if pos.rules().schedule == Schedule::Flystone {
        return Ok(());
    }
    let Some(n2) = swapped_move_number(pos.rules(), pos.move_number()) else {
        return Ok(());
    };
    let fresh_parts = PositionParts {
        history: Vec::new(),
        trailing_passes: 0,
        ..pos.to_parts()
    };
    let swapped = PositionParts {
        board: swap_colours(pos.board()),
        move_number: n2,
        ..fresh_parts.clone()
    }
    .validate("colour swap")
    .map_err(CheckFailure::Position)?;
    let fresh = fresh_parts
        .validate("fresh")
        .map_err(CheckFailure::Position)?;
    let m = Move {
        action,
        number: None,
        turn: None,
    };
    let r = fresh.play_reported(&m);
    let r2 = swapped.play_reported(&m);
    match (&r, &r2) {
        (Ok((n, _)), Ok((nn, _))) if swap_colours(n.board()) == *nn.board() => Ok(()),
        (Err(e), Err(e2)) if e.reason == e2.reason => Ok(()),
        _ => Err(CheckFailure::Broken(format!(
            "colour swap, move {}: {:?} vs swapped {:?}; {}",
            act(action),
            r.as_ref()
                .map(|x| x.0.board().to_diagram())
                .map_err(|e| e.reason),
            r2.as_ref()
                .map(|x| x.0.board().to_diagram())
                .map_err(|e| e.reason),
            describe(pos)
        ))),
    }
}
