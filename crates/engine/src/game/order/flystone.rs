//! The Flystone rounds of 004 (S3-*): the random flystone timings drawn from the seed
//! (splitmix64), the Flystone state of a game (timings and flystones thrown), the walk that
//! gives each move's turn under it, the chosen flystones left, and the check of a given state.

use super::{alternate_turn, StoneKind, Turn};
use crate::board::grid::Colour;
use crate::rules::{FlystoneMode, Rules};
use serde::{Deserialize, Serialize};

/// One list per side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sides {
    #[serde(default)]
    pub black: Vec<u32>,
    #[serde(default)]
    pub white: Vec<u32>,
}

impl Sides {
    /// The side of player `c`.
    pub fn of(&self, c: Colour) -> &[u32] {
        match c {
            Colour::Black => &self.black,
            Colour::White => &self.white,
        }
    }
}

/// The Flystone state of a game: the random timings drawn at the start and the flystone moves
/// made so far. Written into position files (`flystone:`) so that a game replays exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlystoneState {
    /// For each side, the ordinals k of its own-colour turns (its k-th black/white turn, a pass
    /// included) after which a random flystone falls, ascending.
    pub random: Sides,
    /// Numbers of the flystone (flower) moves made so far, played or passed, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thrown: Vec<u32>,
}

/// The `flystone:` entry of a position file: as [`FlystoneState`], with `random` optional
/// (absent = drawn from the rules' seed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlystoneRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<Sides>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thrown: Vec<u32>,
}

/// S3-MODE-B — "飞石扔出时机（手数）全由程序随机确定" (004): the program's generator, splitmix64
/// (Steele, Lea, Flood 2014), which draws the random flystone timings (register D20): `state += 0x9E3779B97F4A7C15`, then two xor-shift-multiply rounds. Small, fully
/// specified, so any implementation can reproduce the timings from `flystone-seed`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seeded generator as a stream: `next_u64` is `splitmix64`; used by the flystone timings,
/// the random games of `m3go diff`, the benches and the tests.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next number of the sequence (the state advanced by one step).
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// S3-COUNT / S3-MODE-A / S3-MODE-B / S3-MODE-C — "每方3个飞石 … A模式：1个随机飞石+2个自主飞石 … B
/// 模式：全是随机飞石 … C模式：全是自主飞石" (004). (random, chosen) flystones per side for the
/// rules' mode and `flystones` count.
pub(crate) fn flystone_counts(rules: &Rules) -> (u32, u32) {
    let n = rules.flystones;
    match rules.flystone_mode {
        // S3-COUNT: `n` = `flystones`, 3 by default.
        // S3-MODE-A
        FlystoneMode::A => (n.min(1), n.saturating_sub(1)),
        // S3-MODE-B
        FlystoneMode::B => (n, 0),
        // S3-MODE-C
        FlystoneMode::C => (0, n),
    }
}

/// The random-flystone window in moves: `flystone-window`, or ⌊size²/2⌋ (register D20).
pub(crate) fn flystone_window(rules: &Rules, size: usize) -> u32 {
    rules
        .flystone_window
        .unwrap_or_else(|| u32::try_from(size.saturating_mul(size) / 2).unwrap_or(u32::MAX))
        .max(1)
}

/// S3-MODE-B — "飞石扔出时机（手数）全由程序随机确定" (004). Draws each side's random flystone turns
/// from `flystone-seed`: a splitmix64 stream started at the seed gives black's draws, then
/// white's; a draw is 1 + (value mod K), K = the side's turns within the window W (black's k-th
/// turn is move 2k − 1 when no flystone is thrown, so K = ⌈W/2⌉ for black and ⌊W/2⌋ for white);
/// repeated draws are skipped; at most K turns are drawn. Sorted ascending.
pub(crate) fn flystone_schedule(rules: &Rules, size: usize) -> Sides {
    let (random, _) = flystone_counts(rules);
    let w = flystone_window(rules, size);
    let mut state = rules.flystone_seed;
    let mut draw = |k: u32| -> Vec<u32> {
        let want = random.min(k) as usize;
        // A set, so that many flystones cost O(count · log count), not the square.
        let mut out = std::collections::BTreeSet::new();
        while out.len() < want {
            out.insert(1 + (splitmix64(&mut state) % u64::from(k)) as u32);
        }
        out.into_iter().collect()
    };
    let black = draw(w.div_ceil(2));
    let white = draw((w / 2).max(1));
    Sides { black, white }
}

/// A flower (flystone) move of a Flystone game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FlyMove {
    /// The move number.
    pub number: u32,
    /// The thrower: the player who made the own-colour move just before.
    pub player: Colour,
    /// Whether a random timing made it (else the player chose it).
    pub random: bool,
}

/// The flystone moves among moves 1..=n under a Flystone state, with the chosen flystones used.
/// Every other move is an own-colour turn, black and white alternating as in Go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FlyWalk {
    /// The flower moves, ascending by number.
    pub flowers: Vec<FlyMove>,
    /// Chosen flystones used by (black, white) in these moves.
    pub chosen_used: (u32, u32),
    /// The last move walked.
    pub last: u32,
}

impl FlyWalk {
    /// The turn of move `m` (1 ≤ m ≤ `last`): a flower move's thrower and Flower, otherwise the
    /// own-colour turn whose ordinal among all own-colour turns is `m` minus the flower moves
    /// before it (odd: black, even: white). Binary search: O(log flystones).
    pub fn turn(&self, m: u32) -> Turn {
        let k = self.flowers.partition_point(|f| f.number < m);
        if let Some(f) = self.flowers.get(k).filter(|f| f.number == m) {
            return Turn {
                player: f.player,
                kind: StoneKind::Flower,
            };
        }
        alternate_turn(m - k as u32)
    }
}

/// S3-ROUND / S3-ROUND-ORDER — "棋手在“飞石回合”可以连下两手，第一手下黑子或白子，第二手下花子" (004).
/// Walks moves 1..=n: a move is the flower (flystone) of the player who made the previous move
/// if that move was one of his own-colour turns and either its ordinal is one of his random
/// timings (the flystone falls due) or the move number is in `thrown` (he chose to throw);
/// otherwise it is the next own-colour turn, black and white alternating as in Go.
///
/// The walk goes from one flystone to the next, not move by move: after a flower move the
/// following moves are own-colour turns up to the first that a random timing or a thrown move
/// number makes a flower, so the work is O((timings + thrown) · log) whatever `n` is.
pub(crate) fn flystone_walk(state: &FlystoneState, n: u32) -> FlyWalk {
    // Own-colour ordinal o (1-based over both players): black's k-th turn is o = 2k − 1,
    // white's o = 2k. The random timings as ordinals o, ascending.
    let mut due: Vec<u64> = state
        .random
        .black
        .iter()
        .filter(|&&k| k >= 1)
        .map(|&k| 2 * u64::from(k) - 1)
        .chain(
            state
                .random
                .white
                .iter()
                .filter(|&&k| k >= 1)
                .map(|&k| 2 * u64::from(k)),
        )
        .collect();
    due.sort_unstable();
    due.dedup();
    let mut thrown: Vec<u32> = state.thrown.clone();
    thrown.sort_unstable();
    thrown.dedup();
    let (mut di, mut ti) = (0usize, 0usize);
    let mut flowers: Vec<FlyMove> = Vec::new();
    let mut chosen_used = (0u32, 0u32);
    // Moves walked so far and the own-colour turns among them.
    let (mut walked, mut own) = (0u64, 0u64);
    let n = u64::from(n);
    loop {
        let f = walked - own;
        // The next random timing after the last own-colour turn, and the first thrown move that
        // follows an own-colour turn (at least two moves on: the move after `walked` is own).
        while di < due.len() && due[di] <= own {
            di += 1;
        }
        while ti < thrown.len() && u64::from(thrown[ti]) < walked + 2 {
            ti += 1;
        }
        let by_timing = due.get(di).map(|&o| o + f + 1);
        let by_choice = thrown.get(ti).map(|&t| u64::from(t));
        let next = match (by_timing, by_choice) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => break,
        };
        if next > n {
            break;
        }
        let o = next - 1 - f;
        let random = by_timing == Some(next);
        let player = if o % 2 == 1 {
            Colour::Black
        } else {
            Colour::White
        };
        if !random {
            match player {
                Colour::Black => chosen_used.0 += 1,
                Colour::White => chosen_used.1 += 1,
            }
        }
        flowers.push(FlyMove {
            number: next as u32,
            player,
            random,
        });
        walked = next;
        own = o;
    }
    FlyWalk {
        flowers,
        chosen_used,
        last: n as u32,
    }
}

/// S3-ROUND — the turn of move `n` under a Flystone state (see [`flystone_walk`]); move 0 is
/// treated as move 1.
pub(crate) fn flystone_turn(state: &FlystoneState, n: u32) -> Turn {
    let n = n.max(1);
    flystone_walk(state, n).turn(n)
}

impl FlystoneState {
    /// S3-ROUND — the state after move `n` took `turn`: a flower turn is a flystone move and is
    /// recorded (played or passed).
    pub fn after(&self, n: u32, turn: Turn) -> FlystoneState {
        let mut s = self.clone();
        if turn.kind == StoneKind::Flower {
            s.thrown.push(n);
        }
        s
    }
}

impl FlystoneState {
    /// S3-MODE-A / S3-MODE-C — "其中2个飞石扔出时机（手数）由棋手自主决定" (004): how many chosen flystones
    /// `player` has left before move `n`.
    pub fn chosen_flystones_left(&self, rules: &Rules, player: Colour, n: u32) -> u32 {
        let state = self;
        let (_, chosen) = flystone_counts(rules);
        let used = flystone_walk(state, n.saturating_sub(1)).chosen_used;
        chosen.saturating_sub(match player {
            Colour::Black => used.0,
            Colour::White => used.1,
        })
    }
}

/// The latest own turn a recorded random flystone timing may name: a side's turns up to
/// [`MAX_MOVE_NUMBER`](crate::game::notation::MAX_MOVE_NUMBER), the last move m3go plays.
pub const MAX_RECORDED_TURN: u32 = crate::game::notation::MAX_MOVE_NUMBER / 2;

/// Checks a Flystone state against the rules before move `next`: the number of random timings
/// per side, their range (any turn a game can reach: the window bounds only the draw, D20), the thrown moves (ascending, before `next`, each right after an
/// own-colour turn of the same player), every random flystone that fell due recorded, and the
/// chosen flystones within each side's allowance. Every problem found is listed, each as its
/// field (`flystone.random.black`, `flystone.thrown`) and what is wrong there.
pub(crate) fn check_flystone_state(
    rules: &Rules,
    state: &FlystoneState,
    size: usize,
    next: u32,
) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    let thrown = |message: String| ("flystone.thrown".to_string(), message);
    let (random, chosen) = flystone_counts(rules);
    let w = flystone_window(rules, size);
    for (c, list, k) in [
        (Colour::Black, &state.random.black, w.div_ceil(2)),
        (Colour::White, &state.random.white, (w / 2).max(1)),
    ] {
        let want = random.min(k) as usize;
        if list.len() != want {
            problems.push((
                format!("flystone.random.{}", c.name()),
                format!(
                    "{} timing(s) given: expected {want} (mode {:?}, {} flystones)",
                    list.len(),
                    rules.flystone_mode,
                    rules.flystones
                ),
            ));
        }
        let mut sorted = list.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != list.len() {
            problems.push((
                format!("flystone.random.{}", c.name()),
                "repeated timing: expected distinct turns".to_string(),
            ));
        }
        // The window bounds only the draw (D20): a recorded timing is any own turn a game can
        // reach; 004 gives no range (「飞石扔出时机（手数）由程序随机确定」).
        if let Some(bad) = list.iter().find(|&&v| v == 0 || v > MAX_RECORDED_TURN) {
            problems.push((
                format!("flystone.random.{}", c.name()),
                format!("turn {bad} is out of range: expected 1 to {MAX_RECORDED_TURN}"),
            ));
        }
    }
    if state.thrown.windows(2).any(|p| p[0] >= p[1]) {
        problems.push(thrown("expected ascending move numbers".into()));
    }
    if let Some(bad) = state.thrown.iter().find(|&&m| m < 2 || m >= next) {
        problems.push(thrown(format!(
            "move {bad} is out of range: expected 2 to {} (before the next move)",
            next.saturating_sub(1)
        )));
    }
    let walk = flystone_walk(state, next.saturating_sub(1));
    let is_flower = |m: u32| walk.flowers.binary_search_by_key(&m, |f| f.number).is_ok();
    for &m in &state.thrown {
        if (1..=walk.last).contains(&m) && !is_flower(m) {
            problems.push(thrown(format!(
                "move {m} does not follow an own-colour turn of the same player"
            )));
        }
    }
    let mut listed = state.thrown.clone();
    listed.sort_unstable();
    for f in &walk.flowers {
        if f.random && listed.binary_search(&f.number).is_err() {
            problems.push(thrown(format!(
                "move {} was a random flystone of {} and must be listed",
                f.number,
                f.player.name()
            )));
        }
    }
    for (c, used) in [
        (Colour::Black, walk.chosen_used.0),
        (Colour::White, walk.chosen_used.1),
    ] {
        if used > chosen {
            problems.push(thrown(format!(
                "{} threw {used} chosen flystones: expected at most {chosen}",
                c.name()
            )));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s3_random_splitmix64_reference_values() {
        // Reference output of splitmix64 seeded with 0 (Vigna's splitmix64.c).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(splitmix64(&mut s), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn s3_mode_counts_and_schedule() {
        let mut r = Rules::preset("flystone").unwrap();
        assert_eq!(flystone_counts(&r), (1, 2));
        let s = flystone_schedule(&r, 9);
        assert_eq!((s.black.len(), s.white.len()), (1, 1));
        assert!(s.black[0] >= 1 && s.black[0] <= 21);
        assert!(s.white[0] >= 1 && s.white[0] <= 20);
        assert_eq!(
            flystone_schedule(&r, 9),
            s,
            "the same seed draws the same turns"
        );
        r.flystone_mode = FlystoneMode::B;
        assert_eq!(flystone_counts(&r), (3, 0));
        let s = flystone_schedule(&r, 13);
        assert_eq!((s.black.len(), s.white.len()), (3, 3));
        assert!(s.black.windows(2).all(|p| p[0] < p[1]));
        r.flystone_mode = FlystoneMode::C;
        assert_eq!(flystone_counts(&r), (0, 3));
        assert_eq!(flystone_schedule(&r, 9), Sides::default());
    }

    #[test]
    fn s3_round_walk_random_and_chosen() {
        // Black's random flystone falls after his 2nd turn (move 3, so move 4 is 华); black
        // chooses to throw again at move 7, after his turn at move 6.
        let state = FlystoneState {
            random: Sides {
                black: vec![2],
                white: vec![9],
            },
            thrown: vec![4, 7],
        };
        let s: String = (1..=9).map(|n| flystone_turn(&state, n).symbol()).collect();
        assert_eq!(s, "黑白黑华白黑华白黑");
        let w = flystone_walk(&state, 9);
        let numbers: Vec<(u32, bool)> = w.flowers.iter().map(|f| (f.number, f.random)).collect();
        assert_eq!(numbers, vec![(4, true), (7, false)]);
        assert_eq!(w.chosen_used, (1, 0));
        let r = Rules::preset("flystone").unwrap();
        assert_eq!(state.chosen_flystones_left(&r, Colour::Black, 10), 1);
        assert_eq!(state.chosen_flystones_left(&r, Colour::White, 10), 2);
        assert!(check_flystone_state(&r, &state, 9, 10).is_empty());
        // Move 4 was due but not listed.
        let bad = FlystoneState {
            thrown: vec![7],
            ..state.clone()
        };
        let p = check_flystone_state(&r, &bad, 9, 10);
        assert!(p.iter().any(|(_, m)| m.contains("move 4")), "{p:?}");
    }

    /// The walk of S3-ROUND move by move, as the clause reads: the oracle of the event walk.
    fn literal_walk(state: &FlystoneState, n: u32) -> (Vec<(Turn, bool)>, (u32, u32)) {
        let mut out: Vec<(Turn, u32, bool)> = Vec::new();
        let (mut own, mut kb, mut kw, mut used) = (0u32, 0u32, 0u32, (0u32, 0u32));
        for m in 1..=n {
            let fly = out.last().and_then(|&(t, ordinal, _)| {
                if t.kind != StoneKind::Own {
                    return None;
                }
                let due = state.random.of(t.player).contains(&ordinal);
                (due || state.thrown.contains(&m)).then_some((t.player, due))
            });
            out.push(match fly {
                Some((player, due)) => {
                    if !due {
                        match player {
                            Colour::Black => used.0 += 1,
                            Colour::White => used.1 += 1,
                        }
                    }
                    (
                        Turn {
                            player,
                            kind: StoneKind::Flower,
                        },
                        0,
                        due,
                    )
                }
                None => {
                    own += 1;
                    let player = if own % 2 == 1 {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let k = match player {
                        Colour::Black => {
                            kb += 1;
                            kb
                        }
                        Colour::White => {
                            kw += 1;
                            kw
                        }
                    };
                    (
                        Turn {
                            player,
                            kind: StoneKind::Own,
                        },
                        k,
                        false,
                    )
                }
            });
        }
        (out.into_iter().map(|(t, _, r)| (t, r)).collect(), used)
    }

    #[test]
    fn s3_round_event_walk_equals_the_move_by_move_walk() {
        let mut rng = SplitMix64(7);
        for _ in 0..400 {
            let mut list = |len: usize, top: usize| -> Vec<u32> {
                (0..rng.below(len + 1))
                    .map(|_| rng.below(top) as u32)
                    .collect()
            };
            let state = FlystoneState {
                random: Sides {
                    black: list(4, 12),
                    white: list(4, 12),
                },
                thrown: list(8, 30),
            };
            let n = 30;
            let (turns, used) = literal_walk(&state, n);
            let w = flystone_walk(&state, n);
            assert_eq!(w.chosen_used, used, "{state:?}");
            for m in 1..=n {
                assert_eq!(w.turn(m), turns[m as usize - 1].0, "{state:?} move {m}");
                assert_eq!(flystone_turn(&state, m), turns[m as usize - 1].0);
            }
            let flowers: Vec<(u32, bool)> = turns
                .iter()
                .enumerate()
                .filter(|(_, (t, _))| t.kind == StoneKind::Flower)
                .map(|(k, &(_, r))| (k as u32 + 1, r))
                .collect();
            let got: Vec<(u32, bool)> = w.flowers.iter().map(|f| (f.number, f.random)).collect();
            assert_eq!(got, flowers, "{state:?}");
        }
    }

    #[test]
    fn s3_round_walk_to_the_last_move_number_is_a_few_events() {
        let state = FlystoneState {
            random: Sides {
                black: vec![5],
                white: vec![u32::MAX / 2],
            },
            thrown: vec![6, 12, u32::MAX - 1],
        };
        let w = flystone_walk(&state, u32::MAX);
        assert_eq!(w.flowers.len(), 3, "{w:?}");
        assert_eq!(w.turn(u32::MAX).kind, StoneKind::Own);
    }
}
