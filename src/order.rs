//! Move schedules: who plays which kind of stone on move n (M20-ORDER, Q20-ORDER).

use crate::board::Colour;
use crate::rules::{Rules, Schedule};
use serde::Serialize;

/// The kind of stone a turn places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The player's own colour (黑 / 白).
    Own,
    /// A flower stone (华 when black places it, 花 when white does).
    Flower,
}

/// Whose turn, and what it places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Turn {
    pub player: Colour,
    pub kind: Kind,
}

impl Turn {
    /// The notation character: 黑 black stone, 白 white stone, 华 black's flower, 花 white's flower.
    pub fn symbol(self) -> char {
        match (self.player, self.kind) {
            (Colour::Black, Kind::Own) => '黑',
            (Colour::White, Kind::Own) => '白',
            (Colour::Black, Kind::Flower) => '华',
            (Colour::White, Kind::Flower) => '花',
        }
    }
    pub fn describe(self) -> String {
        match self.kind {
            Kind::Own => format!("{} stone", self.player.name()),
            Kind::Flower => format!("{}'s flower", self.player.name()),
        }
    }
}

/// M20-ORDER — "第1手：A下一黑子，第2手：B下一白子 … 第9手：A下一花子，第10手：B下一花子 … 如此循环直至
/// 终局" (003). Move n (1-based): n mod 10 in 1..=8 alternate black (odd) and white (even); 9 is
/// black's flower (华); 0 is white's flower (花).
pub fn cycle10_turn(n: u32) -> Turn {
    match n % 10 {
        9 => Turn {
            player: Colour::Black,
            kind: Kind::Flower,
        },
        0 => Turn {
            player: Colour::White,
            kind: Kind::Flower,
        },
        r => Turn {
            player: if r % 2 == 1 {
                Colour::Black
            } else {
                Colour::White
            },
            kind: Kind::Own,
        },
    }
}

/// Plain alternation: odd moves black, even moves white.
pub fn alternate_turn(n: u32) -> Turn {
    Turn {
        player: if n % 2 == 1 {
            Colour::Black
        } else {
            Colour::White
        },
        kind: Kind::Own,
    }
}

/// The turn of move `n` under the rules' schedule.
pub fn turn_of_move(rules: &Rules, n: u32) -> Turn {
    match rules.schedule {
        Schedule::Cycle10 => cycle10_turn(n),
        Schedule::Alternate | Schedule::Team2016 | Schedule::Flystone => alternate_turn(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m20_order_ten_move_cycle() {
        let s: String = (1..=20).map(|n| cycle10_turn(n).symbol()).collect();
        assert_eq!(s, "黑白黑白黑白黑白华花黑白黑白黑白黑白华花");
        assert_eq!(cycle10_turn(289).symbol(), '华');
        assert_eq!(cycle10_turn(290).symbol(), '花');
        assert_eq!(cycle10_turn(291).symbol(), '黑');
        assert_eq!(cycle10_turn(299).symbol(), '华');
        assert_eq!(cycle10_turn(300).symbol(), '花');
        assert_eq!(cycle10_turn(301).symbol(), '黑');
    }
}
