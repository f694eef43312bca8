//! The 2016 team format of 000 (M16-TEAM-*): four players in two sides, grey starting late
//! and playing two stones every three rounds; the seats of a round, the turn of a move number
//! and back, and the wording of a move out of turn.

use super::{StoneKind, Turn};
use crate::board::grid::Colour;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat of the 2016 team format: "A棋手执黑子，B棋手执灰子；C棋手执白子，D棋手同B棋手一样执灰子".
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub enum Seat {
    A,
    B,
    C,
    D,
}

impl Seat {
    /// M16-TEAM-ROLES — "其中A棋手执黑子，B棋手执灰子；C棋手执白子，D棋手同B棋手一样执灰子" (000). A places
    /// black stones, B grey for A's side (black's flower, 华), C white stones, D grey for C's side
    /// (white's flower, 花). M16-FORMATS: with two players the black player makes A's and B's
    /// moves and the white player C's and D's; a seat's turn, hence legality, is the same.
    pub fn turn(self) -> Turn {
        let (player, kind) = match self {
            Seat::A => (Colour::Black, StoneKind::Own),
            Seat::B => (Colour::Black, StoneKind::Flower),
            Seat::C => (Colour::White, StoneKind::Own),
            Seat::D => (Colour::White, StoneKind::Flower),
        };
        Turn { player, kind }
    }

    /// The seat that makes moves of `turn`.
    pub fn of_turn(turn: Turn) -> Seat {
        match (turn.player, turn.kind) {
            (Colour::Black, StoneKind::Own) => Seat::A,
            (Colour::Black, StoneKind::Flower) => Seat::B,
            (Colour::White, StoneKind::Own) => Seat::C,
            (Colour::White, StoneKind::Flower) => Seat::D,
        }
    }

    /// The seat's letter, `A` to `D`.
    pub fn letter(self) -> char {
        match self {
            Seat::A => 'A',
            Seat::B => 'B',
            Seat::C => 'C',
            Seat::D => 'D',
        }
    }

    /// The seat of letter `c` (`A` to `D`), `None` for any other character.
    pub fn from_letter(c: char) -> Option<Seat> {
        match c {
            'A' => Some(Seat::A),
            'B' => Some(Seat::B),
            'C' => Some(Seat::C),
            'D' => Some(Seat::D),
            _ => None,
        }
    }

    /// What the seat plays: "black stones", "grey for A's side", …
    pub fn role(self) -> &'static str {
        match self {
            Seat::A => "black stones",
            Seat::B => "grey for A's side",
            Seat::C => "white stones",
            Seat::D => "grey for C's side",
        }
    }

    /// "A (black stones)" and so on.
    pub fn describe(self) -> &'static str {
        match self {
            Seat::A => "A (black stones)",
            Seat::B => "B (grey, on A's side)",
            Seat::C => "C (white stones)",
            Seat::D => "D (grey, on C's side)",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A move of the team format: its round and the seat that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub struct TeamTurn {
    pub round: u32,
    pub seat: Seat,
}

impl fmt::Display for TeamTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.round, self.seat)
    }
}

/// M16-TEAM-OPENING / M16-TEAM-CYCLE / M16-TEAM-TABLE / M16-TEAM-DELAY / M16-TEAM-INTERVAL —
/// "前30回合A棋手和C棋手轮流下黑子和白子 … 31回合，D棋手在C棋手之后下灰子；32回合，执灰棋手轮空；33回合B
/// 棋手在A棋手之后下灰子 … 如此循环直至终局" (000). The seats of round `round` in playing order:
/// before `grey_start` (31 in the text) A, C; from it, with k = (round − grey_start) mod 3:
/// k = 0 → A, C, D; k = 1 → A, C; k = 2 → A, B, C. `round` 0 has no seat.
pub(crate) fn seats_of_round(round: u32, grey_start: u32) -> &'static [Seat] {
    if round == 0 {
        return &[];
    }
    if round < grey_start {
        return &[Seat::A, Seat::C];
    }
    match (round - grey_start) % 3 {
        0 => &[Seat::A, Seat::C, Seat::D],
        1 => &[Seat::A, Seat::C],
        _ => &[Seat::A, Seat::B, Seat::C],
    }
}

impl TeamTurn {
    /// M16-TEAM-CYCLE — the round and seat of move `n` (1-based) of the team format with the grey
    /// players joining in round `grey_start`: 2 moves a round before it, then 3 + 2 + 3 = 8 moves
    /// every three rounds. Move 0 is treated as move 1.
    pub fn of_move(n: u32, grey_start: u32) -> TeamTurn {
        let n = u64::from(n.max(1));
        let g = u64::from(grey_start.max(1));
        let opening = 2 * (g - 1);
        // M16-TEAM-OPENING, M16-TEAM-DELAY: A and C alone until the grey start.
        if n <= opening {
            let round = n.div_ceil(2);
            let seat = if n % 2 == 1 { Seat::A } else { Seat::C };
            return TeamTurn {
                round: round as u32,
                seat,
            };
        }
        // M16-TEAM-INTERVAL: then 2 grey moves (D, B) every 3 rounds, 8 moves a cycle.
        let m = n - opening - 1;
        let (cycle, k) = (m / 8, m % 8);
        let (offset, seat) = match k {
            0 => (0, Seat::A),
            1 => (0, Seat::C),
            2 => (0, Seat::D),
            3 => (1, Seat::A),
            4 => (1, Seat::C),
            5 => (2, Seat::A),
            6 => (2, Seat::B),
            _ => (2, Seat::C),
        };
        TeamTurn {
            round: u32::try_from(g + 3 * cycle + offset).unwrap_or(u32::MAX),
            seat,
        }
    }
}

/// M16-NOTATION — the move number of `seat`'s move in `round`, if that seat plays in that round
/// (the inverse of [`TeamTurn::of_move`]).
pub(crate) fn team_move_number(round: u32, seat: Seat, grey_start: u32) -> Option<u32> {
    let seats = seats_of_round(round, grey_start);
    let slot = seats.iter().position(|&s| s == seat)? as u64;
    let g = u64::from(grey_start.max(1));
    let r = u64::from(round);
    let before = if r < g {
        2 * (r - 1)
    } else {
        let d = r - g;
        let per_cycle = [0u64, 3, 5];
        2 * (g - 1) + 8 * (d / 3) + per_cycle[(d % 3) as usize]
    };
    u32::try_from(before + slot + 1).ok()
}

/// The message of a move refused in the team format: whose turn it is (round and seat) and what
/// was claimed.
pub(crate) fn team_wrong_turn(
    n: u32,
    grey_start: u32,
    claimed_number: Option<u32>,
    claimed: Option<Turn>,
) -> String {
    let now = TeamTurn::of_move(n, grey_start);
    let what = match (claimed_number, claimed) {
        // the number is right, the stone is not: name the stone claimed
        (Some(m), Some(t)) if m == n => format!(
            "{} ({})",
            match t.kind {
                StoneKind::Own => format!("a {} stone", t.player.name()),
                StoneKind::Flower => format!("{}'s flower", t.player.name()),
            },
            t.symbol()
        ),
        (Some(m), _) => {
            let t = TeamTurn::of_move(m, grey_start);
            format!(
                "{}'s move `{t}` ({} plays {})",
                t.seat,
                t.seat,
                t.seat.role()
            )
        }
        (None, Some(t)) => {
            let s = Seat::of_turn(t);
            format!("a move of {s} ({s} plays {})", s.role())
        }
        (None, None) => "this move".to_string(),
    };
    format!(
        "round {}, move {n} (`{now}`): it is {}'s turn ({} plays {}), not {what}",
        now.round,
        now.seat,
        now.seat,
        now.seat.role(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(rounds: std::ops::RangeInclusive<u32>) -> String {
        rounds
            .map(|r| {
                let s: String = seats_of_round(r, 31).iter().map(|s| s.letter()).collect();
                format!("{r}:{s}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn m16_team_table_rounds_31_to_42() {
        assert_eq!(
            seats(29..=42),
            "29:AC 30:AC 31:ACD 32:AC 33:ABC 34:ACD 35:AC 36:ABC 37:ACD 38:AC 39:ABC 40:ACD 41:AC 42:ABC"
        );
    }

    #[test]
    fn m16_team_cycle_move_numbers() {
        // Rounds 1-30: A then C, moves 1..60.
        assert_eq!(
            TeamTurn::of_move(1, 31),
            TeamTurn {
                round: 1,
                seat: Seat::A
            }
        );
        assert_eq!(
            TeamTurn::of_move(60, 31),
            TeamTurn {
                round: 30,
                seat: Seat::C
            }
        );
        let seq: Vec<String> = (61..=77)
            .map(|n| TeamTurn::of_move(n, 31).to_string())
            .collect();
        assert_eq!(
            seq.join(" "),
            "31A 31C 31D 32A 32C 33A 33B 33C 34A 34C 34D 35A 35C 36A 36B 36C 37A"
        );
        assert_eq!(TeamTurn::of_move(61, 31).seat.turn().symbol(), '黑');
        assert_eq!(TeamTurn::of_move(63, 31).seat.turn().symbol(), '花');
        assert_eq!(TeamTurn::of_move(67, 31).seat.turn().symbol(), '华');
    }

    #[test]
    fn m16_team_move_number_inverts_team_turn() {
        for g in [1, 2, 5, 31] {
            for n in 1..400 {
                let t = TeamTurn::of_move(n, g);
                assert_eq!(team_move_number(t.round, t.seat, g), Some(n), "n={n} g={g}");
            }
        }
        assert_eq!(team_move_number(32, Seat::B, 31), None);
        assert_eq!(team_move_number(30, Seat::D, 31), None);
        assert_eq!(team_move_number(0, Seat::A, 31), None);
    }

    #[test]
    fn m16_team_wrong_turn_names_the_seat() {
        let m = team_wrong_turn(61, 31, Some(62), None);
        assert!(m.contains("round 31"), "{m}");
        assert!(m.contains("it is A's turn (A plays black stones)"), "{m}");
        assert!(m.contains("31C"), "{m}");
    }
}
