//! What a move did or why it was refused: the report of a played move (its captures, the eyes
//! made and lost, the attribute changes, the ataris, the steps of its cascade) and the refusal
//! of one, built by the reference move (the play module).

use crate::board::coord::{Point, StringName};
use crate::board::grid::{Board, Colour};
use crate::board::layers::Attribute;
use crate::game::moves::Action;
use crate::game::notation::Notation;
use crate::game::order::Turn;
use crate::game::refusal::Refusal;
use crate::game::text::Text;
use crate::judge::analysis::Analysis;
use serde::Serialize;
use std::fmt;

/// A refused move: the reason, its clause (always `reason.clause()`), and a message naming the
/// place (its points typed, written in either label system). Serialized with the reason as its
/// code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Illegal {
    pub reason: Refusal,
    pub clause: &'static str,
    pub message: Text,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {})", self.message, self.reason, self.clause)
    }
}

impl std::error::Error for Illegal {}

/// A string named by its first point, with all its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct NamedString {
    pub string: StringName,
    pub points: Vec<Point>,
    /// The string's private eyes where it has them (after the move for `eyes_made`, before it
    /// for `eyes_lost`), each as the empty points of its closed region (003 names an eye by its
    /// empty string: "做出私眼O六*"). Empty for other lists.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub eyes: Vec<Vec<Point>>,
}

/// The points of `points` (indices of `board`).
pub(super) fn point_names(board: &Board, points: &[usize]) -> Vec<Point> {
    points.iter().map(|&i| board.point(i)).collect()
}

impl NamedString {
    /// The string of `board` made of `points`, named by its first point, without eyes.
    pub(super) fn of(board: &Board, points: &[usize]) -> NamedString {
        NamedString {
            string: StringName(board.point(points[0])),
            points: point_names(board, points),
            eyes: Vec::new(),
        }
    }
}

/// An attribute change of a flower string caused by a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct AttributeChange {
    /// The flower string, named by its first point (`七六*`).
    pub string: StringName,
    pub points: Vec<Point>,
    pub from: Attribute,
    pub to: Attribute,
}

/// What one move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Report {
    pub number: u32,
    #[schemars(with = "String")]
    pub notation: Notation,
    pub turn: Turn,
    pub action: Action,
    /// Every point whose stone was removed.
    pub captured: Vec<Point>,
    /// Strings that gained a private eye.
    pub eyes_made: Vec<NamedString>,
    /// Strings that lost their last private eye (and are still on the board).
    pub eyes_lost: Vec<NamedString>,
    pub attribute_changes: Vec<AttributeChange>,
    /// Opponent strings the move put in atari (叫吃): black or white upper strings of the
    /// mover's opponent with exactly one upper liberty after the move and more (or no string
    /// there) before (003 "花290.六三叫吃黑棋串", "华299.BO，叫吃白棋串CO*").
    pub ataris: Vec<NamedString>,
    /// The cascade, step by step, each with its clause.
    pub steps: Vec<Text>,
    pub game_over: bool,
}

pub(super) fn illegal(reason: Refusal, message: Text) -> Illegal {
    Illegal {
        reason,
        clause: reason.clause(),
        message,
    }
}

/// Strings of `after` with a private eye none of whose stones belonged, in `before`, to a string
/// with one (named by the string's first point in `after`). Swapping the arguments gives the
/// strings of `before` that lost every private eye.
pub(super) fn eyes_made(before: &Analysis, after: &Analysis) -> Vec<NamedString> {
    let mut out = Vec::new();
    for (g, s) in after.lower_strings.groups.iter().enumerate() {
        if !after.has_private_eye(g) {
            continue;
        }
        let had = s.points.iter().any(|&i| {
            before.lower_strings.of[i].is_some_and(|h| {
                before.lower_strings.groups[h].colour == s.colour && before.has_private_eye(h)
            })
        });
        if !had {
            let mut named = NamedString::of(&after.board, &s.points);
            named.eyes = after
                .private_eyes(g)
                .map(|r| point_names(&after.board, &r.empty))
                .collect();
            out.push(named);
        }
    }
    out
}

/// GO-ATARI (叫吃) — the upper strings of `victim` with exactly one liberty in `after` none of
/// whose stones belonged, in `before`, to a `victim` upper string with one liberty: the strings
/// the move put in atari.
pub(super) fn ataris(before: &Analysis, after: &Analysis, victim: Colour) -> Vec<NamedString> {
    let mut out = Vec::new();
    for s in &after.upper_strings.groups {
        if s.colour != Some(victim) || s.liberties.len() != 1 {
            continue;
        }
        let was = s.points.iter().any(|&i| {
            before
                .upper_strings
                .at(i)
                .is_some_and(|b| b.colour == Some(victim) && b.liberties.len() == 1)
        });
        if !was {
            out.push(NamedString::of(&after.board, &s.points));
        }
    }
    out
}

/// Flower strings whose attribute differs from what their stones had before.
pub(super) fn attribute_changes(before: &Analysis, after: &Analysis) -> Vec<AttributeChange> {
    let mut out = Vec::new();
    for f in &after.flowers {
        let old = f
            .points
            .iter()
            .filter_map(|&i| before.attribute_at[i])
            .find(|&a| a != f.attribute);
        let had_any = f.points.iter().any(|&i| before.attribute_at[i].is_some());
        let from = match old {
            Some(a) => a,
            None if !had_any && f.attribute != Attribute::Neutral => Attribute::Neutral,
            None => continue,
        };
        out.push(AttributeChange {
            string: StringName(after.board.point(f.points[0])),
            points: point_names(&after.board, &f.points),
            from,
            to: f.attribute,
        });
    }
    out
}
