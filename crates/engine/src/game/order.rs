//! Move schedules: who plays which kind of stone on move n. The ten-move cycle of 003 / 001 / 004
//! (M20-ORDER, Q20-ORDER, D3-ORDER) and the turn, the special turns and the end of a game under
//! every schedule are here; each other schedule family has its own file: the four-player team
//! rounds of 000 (M16-TEAM-*) in `team`, the Flystone rounds of 004 (S3-*) with their seeded
//! random flystone timings in `flystone`. Their items are re-exported here, so every schedule
//! is named `game::order::…`.

mod flystone;
mod team;

#[cfg(feature = "testing")]
pub use flystone::splitmix64;
#[cfg(all(test, not(feature = "testing")))]
pub(crate) use flystone::splitmix64;
pub(crate) use flystone::{
    check_flystone_state, flystone_counts, flystone_schedule, flystone_turn, flystone_walk,
};
pub use flystone::{FlystoneRecord, FlystoneState, Sides, SplitMix64};
pub(crate) use team::{seats_of_round, team_move_number, team_wrong_turn};
pub use team::{Seat, TeamTurn};

use crate::board::grid::Colour;
use crate::rules::{GameEnd, Rules, Schedule};
use serde::Serialize;

/// The kind of stone a turn places.
// The JSON schemas keep the name `Kind` they were published with.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "Kind")]
pub enum StoneKind {
    /// The player's own colour (黑 / 白).
    Own,
    /// A flower stone (华 when black places it, 花 when white does).
    Flower,
}

/// Whose turn, and what it places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub struct Turn {
    pub player: Colour,
    pub kind: StoneKind,
}

impl Turn {
    /// The notation character: 黑 black stone, 白 white stone, 华 black's flower, 花 white's flower.
    /// Q20-HUA, D3-HUA: black's flower is written 华, white's 花.
    pub fn symbol(self) -> char {
        match (self.player, self.kind) {
            (Colour::Black, StoneKind::Own) => '黑',
            (Colour::White, StoneKind::Own) => '白',
            (Colour::Black, StoneKind::Flower) => '华',
            (Colour::White, StoneKind::Flower) => '花',
        }
    }
    /// The notation character in `labels`: the Chinese one ([`Turn::symbol`]), or under the
    /// Latin labels an ASCII letter that is no label of either system (spec/README.md "Move
    /// notation by rule set"): `K` black stone (blacK), `W` white stone, `U` black's flower (华),
    /// `V` white's flower (花) — U before V as 华 before 花 in the cycle.
    pub fn symbol_in(self, labels: crate::board::coord::Labels) -> char {
        match labels {
            crate::board::coord::Labels::Chinese => self.symbol(),
            crate::board::coord::Labels::Latin => match (self.player, self.kind) {
                (Colour::Black, StoneKind::Own) => 'K',
                (Colour::White, StoneKind::Own) => 'W',
                (Colour::Black, StoneKind::Flower) => 'U',
                (Colour::White, StoneKind::Flower) => 'V',
            },
        }
    }

    /// The turn in words: `black stone`, `white's flower`.
    pub fn describe(self) -> String {
        match self.kind {
            StoneKind::Own => format!("{} stone", self.player.name()),
            StoneKind::Flower => format!("{}'s flower", self.player.name()),
        }
    }
}

/// M20-ORDER — "第1手：A下一黑子，第2手：B下一白子 … 第9手：A下一花子，第10手：B下一花子 … 如此循环直至
/// 终局" (003). Move n (1-based): n mod 10 in 1..=8 alternate black (odd) and white (even); 9 is
/// black's flower (华); 0 is white's flower (花). Q20-ORDER: 001's statement of the same cycle.
/// M20-ORDER-CYCLE: it repeats unchanged to the end (n mod 10). M20-PLAYERS, Q20-PLAYERS,
/// D3-PLAYERS: two players, A (black stones and 华 flowers) and B (white stones and 花 flowers).
pub(crate) fn cycle10_turn(n: u32) -> Turn {
    match n % 10 {
        9 => Turn {
            player: Colour::Black,
            kind: StoneKind::Flower,
        },
        0 => Turn {
            player: Colour::White,
            kind: StoneKind::Flower,
        },
        r => Turn {
            player: if r % 2 == 1 {
                Colour::Black
            } else {
                Colour::White
            },
            kind: StoneKind::Own,
        },
    }
}

/// S3-PLAY — "飞石围棋基本下法同围棋" (004): plain alternation, odd moves black, even moves white.
pub(crate) fn alternate_turn(n: u32) -> Turn {
    Turn {
        player: if n % 2 == 1 {
            Colour::Black
        } else {
            Colour::White
        },
        kind: StoneKind::Own,
    }
}

impl Turn {
    /// The turn of move `n` under the rules' schedule. For `flystone` this is the turn when no
    /// flystone has been thrown before `n`; a position's own turn (with its thrown flystones) is
    /// `flystone_turn`, through `Position::turn`.
    pub fn of_move(rules: &Rules, n: u32) -> Turn {
        match rules.schedule {
            // M20-ORDER; D3-ORDER: Dullstone keeps the ten-move cycle.
            Schedule::Cycle10 => cycle10_turn(n),
            Schedule::Team2016 => TeamTurn::of_move(n, rules.team_grey_start).seat.turn(),
            Schedule::Alternate | Schedule::Flystone => alternate_turn(n),
        }
    }

    /// D3-EMERGENCY / S3-ROUND — the turns a move may claim besides the schedule's `turn`, given the
    /// turn of the previous move (`None` before move 2): on a flower turn under the emergency
    /// conversion, a stone of the player's own colour (D3-EMERGENCY-COLOUR); in a Flystone game
    /// (`flystone`), right after the opponent's own-colour turn that is followed by an own-colour
    /// turn, that opponent's chosen flystone (S3-ROUND-ORDER). Whether a chosen flystone is left is
    /// [`FlystoneState::chosen_flystones_left`]'s; whether a move of the turn is legal, the position's.
    pub fn special_turns(
        rules: &Rules,
        flystone: bool,
        turn: Turn,
        previous: Option<Turn>,
    ) -> Vec<Turn> {
        let mut claims = Vec::new();
        if rules.emergency_conversion && turn.kind == StoneKind::Flower {
            claims.push(Turn {
                player: turn.player,
                kind: StoneKind::Own,
            });
        }
        if let Some(prev) = previous.filter(|_| flystone && turn.kind == StoneKind::Own) {
            if prev.kind == StoneKind::Own && prev.player != turn.player {
                claims.push(Turn {
                    player: prev.player,
                    kind: StoneKind::Flower,
                });
            }
        }
        claims
    }
}

/// GO-END — "着子完毕的棋局" (003): whether the game is over by passes, `trailing_passes` of the
/// moves before move `move_number` having been passes and `turn_of` giving each move's turn.
/// Default (register D12): the two most recent black/white-turn moves were passes with only
/// passes between (`game-end: two-stone-turn-passes`); or any two consecutive passes
/// (`two-passes`). The trailing passes are looked at from the most recent back only until two
/// stone turns are found: no schedule has two flower turns in a row, so that is at most four
/// moves, whatever the count of passes.
pub(crate) fn game_over_by_passes(
    rules: &Rules,
    move_number: u32,
    trailing_passes: u32,
    turn_of: impl Fn(u32) -> Turn,
) -> bool {
    match rules.game_end {
        GameEnd::TwoPasses => trailing_passes >= 2,
        GameEnd::TwoStoneTurnPasses => {
            let back = trailing_passes.min(move_number.saturating_sub(1));
            let mut stone_turns = 0;
            for d in 1..=back {
                if turn_of(move_number - d).kind == StoneKind::Own {
                    stone_turns += 1;
                    if stone_turns == 2 {
                        return true;
                    }
                }
            }
            false
        }
    }
}

/// The turn of move `n` of a game: the rules' schedule ([`Turn::of_move`]), and under Flystone
/// the game's flystones (`flystone`, S3-ROUND, [`flystone_turn`]). The one turn function of
/// both boards (`Position::turn_of` and the fast engine).
pub(crate) fn game_turn(rules: &Rules, flystone: Option<&FlystoneState>, n: u32) -> Turn {
    match flystone {
        Some(s) => flystone_turn(s, n),
        None => Turn::of_move(rules, n),
    }
}

/// Whether a game is over by passes ([`game_over_by_passes`], GO-END) with the game's turns
/// ([`game_turn`]; under Flystone one walk of its flystones).
pub(crate) fn game_over_in(
    rules: &Rules,
    flystone: Option<&FlystoneState>,
    move_number: u32,
    trailing_passes: u32,
) -> bool {
    let walk = flystone.map(|s| flystone_walk(s, move_number.saturating_sub(1).max(1)));
    game_over_by_passes(rules, move_number, trailing_passes, |m| match &walk {
        Some(w) => w.turn(m),
        None => Turn::of_move(rules, m),
    })
}

/// GO-PASS / GO-END — the counters of a game after its move `n` took `turn`: the number of the
/// next move, the trailing passes ("这手棋就用虚着（Pass）代替" (003): a pass counts towards the end
/// of the game, a stone resets the count) and the Flystone state ([`FlystoneState::after`]: a
/// flower turn recorded, played or passed). Both boards build their next position on it
/// (`Position::successor`, the fast engine's moves and passes).
pub(crate) fn after_move(
    n: u32,
    trailing_passes: u32,
    flystone: Option<&FlystoneState>,
    turn: Turn,
    pass: bool,
) -> (u32, u32, Option<FlystoneState>) {
    let passes = if pass { trailing_passes + 1 } else { 0 };
    (n + 1, passes, flystone.map(|s| s.after(n, turn)))
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

    #[test]
    fn go_end_looks_back_only_to_the_second_stone_turn() {
        for preset in ["m3go-2020", "m3go-2016", "flystone"] {
            let r = Rules::preset(preset).unwrap();
            for n in [3u32, 10, 11, 1000, u32::MAX] {
                let calls = std::cell::Cell::new(0u32);
                let over = game_over_by_passes(&r, n, u32::MAX, |m| {
                    calls.set(calls.get() + 1);
                    Turn::of_move(&r, m)
                });
                assert!(over, "{preset} move {n}");
                assert!(calls.get() <= 4, "{preset} move {n}: {} turns", calls.get());
            }
        }
    }
}
