//! The baseline players of `m3go player` (issue 42): `random` (a legal move at random), `greedy`
//! (the move that gains most stones, or loses fewest, by a one-move look) and `mcts` (UCT with
//! random playouts on the fast engine, counted by m3go's scorer). Each chooses a move of the
//! schedule's turn of a position, from a seeded generator, so that a game between them is
//! reproducible. None of them claims a special turn (an emergency conversion, a chosen
//! flystone). No rule is decided here: the moves are the fast engine's legal moves, the count
//! `judge::scoring`'s.

use m3go_engine::game::SplitMix64;
use m3go_engine::judge::Winner;
use m3go_engine::{Action, Board, Colour, Move, Position, Rules, Stone};

/// How a baseline player chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// A legal move at random (never into its own one-liberty eye); a pass when none is left.
    Random,
    /// The move that changes the stone balance (own minus opponent's) most in its favour, ties
    /// broken at random.
    Greedy,
    /// Upper-confidence tree search with `playouts` random playouts per move.
    Mcts { playouts: u32 },
}

impl Strategy {
    /// The strategy in words, for the player's name (`m3go player (mcts, 200 playouts)`).
    pub fn name(self) -> String {
        match self {
            Strategy::Random => "random".into(),
            Strategy::Greedy => "greedy".into(),
            Strategy::Mcts { playouts } => format!("mcts, {playouts} playouts"),
        }
    }
}

/// FNV-1a of a game's name, which a baseline player mixes into its seed (so that the games of
/// a match differ and a match is reproducible), whatever protocol it speaks.
pub(crate) fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The moves a baseline player considers: the legal stones of the side to move that do not
/// fill its own one-liberty eye; a pass when there is none (and nothing once the game is over).
pub(crate) fn candidates(pos: &Position) -> Vec<Action> {
    if pos.game_over() {
        return Vec::new();
    }
    let moves: Vec<Action> = pos
        .legal_moves()
        .into_iter()
        .map(|m| m.action)
        .filter(|a| match a {
            Action::Place(p) => !pos.fills_own_eye(*p),
            Action::Pass => false,
        })
        .collect();
    if moves.is_empty() {
        vec![Action::Pass]
    } else {
        moves
    }
}

/// The move `strategy` chooses on `pos` (the schedule's turn), drawing from `rng`.
pub(crate) fn choose(
    strategy: Strategy,
    pos: &Position,
    rules: &Rules,
    rng: &mut SplitMix64,
) -> Action {
    let moves = candidates(pos);
    if moves.len() <= 1 {
        return moves.first().copied().unwrap_or(Action::Pass);
    }
    match strategy {
        Strategy::Random => moves[rng.below(moves.len())],
        Strategy::Greedy => greedy(pos, &moves, rng),
        Strategy::Mcts { playouts } => mcts(pos, rules, playouts, rng),
    }
}

/// The stones of `me` less those of the opponent on the direct board (flowers not counted).
fn balance(b: &Board, me: Colour) -> i32 {
    let mut n = 0;
    for i in 0..b.len() {
        n += match (b.get(i), me) {
            (Some(Stone::Black), Colour::Black) | (Some(Stone::White), Colour::White) => 1,
            (Some(Stone::Black), Colour::White) | (Some(Stone::White), Colour::Black) => -1,
            _ => 0,
        };
    }
    n
}

/// The move whose one-move look gains most: the balance of stones after it (captures counted,
/// its own stone and its own stones lost to it too); ties broken at random.
fn greedy(pos: &Position, moves: &[Action], rng: &mut SplitMix64) -> Action {
    let me = pos.turn().player;
    let mut best: Vec<Action> = Vec::new();
    let mut best_value = i32::MIN;
    for &m in moves {
        let Ok(next) = pos.play(Move {
            action: m,
            number: None,
            turn: None,
        }) else {
            continue;
        };
        let v = balance(next.board(), me);
        if v > best_value {
            best_value = v;
            best.clear();
        }
        if v == best_value {
            best.push(m);
        }
    }
    if best.is_empty() {
        return Action::Pass;
    }
    best[rng.below(best.len())]
}

/// Who wins the count of a finished playout (no dead stones: a random game plays until the
/// board is settled).
fn playout_winner(board: &Board, rules: &Rules) -> Winner {
    match m3go_engine::Score::of_board(board, rules, &[]) {
        Ok(s) => s.winner,
        Err(_) => Winner::Draw,
    }
}

/// One playout of the search: a random game from `pos` on the fast engine
/// ([`Position::random_game`], at most `cap` moves, drawn from `seed`) and the winner of its
/// count.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn playout(pos: &Position, rules: &Rules, seed: u64, cap: u32) -> Winner {
    let (end, _) = pos.random_game(seed, cap);
    playout_winner(&end, rules)
}

/// A node of the search tree.
struct Node {
    pos: Position,
    /// The move that led here from the parent, and who played it.
    action: Action,
    mover: Colour,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<Action>,
    visits: u32,
    /// Wins of `mover` in the playouts through this node (a draw counts half).
    wins: f64,
}

/// The exploration constant of UCT (rewards in [0, 1]).
const EXPLORATION: f64 = 1.0;

/// UCT: `playouts` iterations of selection (upper confidence bound), expansion (one untried
/// move), a random playout on the fast engine ([`Position::random_game`], the same policy) and
/// the count's winner backed up; the most visited move of the root is chosen.
fn mcts(root: &Position, rules: &Rules, playouts: u32, rng: &mut SplitMix64) -> Action {
    let size = root.board().size();
    let cap = m3go_engine::Notation::max_moves(size) as u32;
    let mut nodes = vec![Node {
        pos: root.clone(),
        action: Action::Pass,
        mover: root.turn().player,
        parent: None,
        children: Vec::new(),
        untried: candidates(root),
        visits: 0,
        wins: 0.0,
    }];
    for _ in 0..playouts.max(1) {
        // selection
        let mut n = 0;
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
            let ln = f64::from(nodes[n].visits.max(1)).ln();
            let mut best = nodes[n].children[0];
            let mut best_v = f64::NEG_INFINITY;
            for &c in &nodes[n].children {
                let ch = &nodes[c];
                let v = ch.wins / f64::from(ch.visits.max(1))
                    + EXPLORATION * (ln / f64::from(ch.visits.max(1))).sqrt();
                if v > best_v {
                    best_v = v;
                    best = c;
                }
            }
            n = best;
        }
        // expansion
        if !nodes[n].untried.is_empty() {
            let k = rng.below(nodes[n].untried.len());
            let a = nodes[n].untried.swap_remove(k);
            let mover = nodes[n].pos.turn().player;
            if let Ok(next) = nodes[n].pos.play(Move {
                action: a,
                number: None,
                turn: None,
            }) {
                let untried = candidates(&next);
                nodes.push(Node {
                    pos: next,
                    action: a,
                    mover,
                    parent: Some(n),
                    children: Vec::new(),
                    untried,
                    visits: 0,
                    wins: 0.0,
                });
                let c = nodes.len() - 1;
                nodes[n].children.push(c);
                n = c;
            }
        }
        // playout
        let winner = playout(&nodes[n].pos, rules, rng.next_u64(), cap);
        // back-up
        let mut at = Some(n);
        while let Some(k) = at {
            let node = &mut nodes[k];
            node.visits += 1;
            node.wins += match (winner, node.mover) {
                (Winner::Draw, _) => 0.5,
                (Winner::Black, Colour::Black) | (Winner::White, Colour::White) => 1.0,
                _ => 0.0,
            };
            at = node.parent;
        }
    }
    nodes[0]
        .children
        .iter()
        .max_by_key(|&&c| nodes[c].visits)
        .map(|&c| nodes[c].action)
        .unwrap_or(Action::Pass)
}

#[cfg(test)]
mod tests {
    use super::*;
    use m3go_engine::Setup;

    /// The position of `board` at move `n` under `rules`.
    fn position(rules: &Rules, board: &Board, n: u32) -> Position {
        Setup {
            diagram: board.to_diagram(),
            move_number: Some(n),
            ..Setup::default()
        }
        .to_position("test")
        .and_then(|p| p.with_rules(rules, "test"))
        .expect("a valid position")
    }

    fn start(size: usize) -> (Position, Rules) {
        let rules = Rules::m3go_2020();
        let board = Board::empty(size).expect("an odd size");
        (position(&rules, &board, 1), rules)
    }

    /// Every strategy chooses a legal move, the same one under the same seed.
    #[test]
    fn strategies_choose_legal_moves_deterministically() {
        let (pos, rules) = start(5);
        for s in [
            Strategy::Random,
            Strategy::Greedy,
            Strategy::Mcts { playouts: 20 },
        ] {
            let a = choose(s, &pos, &rules, &mut SplitMix64(7));
            let b = choose(s, &pos, &rules, &mut SplitMix64(7));
            assert_eq!(a, b, "{s:?}");
            assert!(
                pos.play(Move {
                    action: a,
                    number: None,
                    turn: None
                })
                .is_ok(),
                "{s:?}: {a:?}"
            );
        }
    }

    /// Greedy takes a capture when one is offered.
    #[test]
    fn greedy_captures() {
        let rules = Rules {
            schedule: m3go_engine::rules::Schedule::Alternate,
            ..Rules::m3go_2020()
        };
        // white's stone at the corner has one liberty left; black captures it
        let board = Board::from_diagram("O X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", 5)
            .expect("a diagram");
        let pos = position(&rules, &board, 3);
        let a = choose(Strategy::Greedy, &pos, &rules, &mut SplitMix64(1));
        let want = Action::Place(board.point(5));
        assert_eq!(a, want);
    }
}
