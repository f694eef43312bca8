//! A user's program, written from the crate docs alone: only the public face of `m3go_engine`
//! (the nouns at its root), as a crate depending on it would write it. It reads a position,
//! lists its legal moves, plays one from that list (in place, then taken back), plays another
//! into a new position, and scores — the moves of `legal_moves()` go to `play` and
//! `play_in_place` as they are, with no conversion between move types.

use m3go_engine::{HalfPoints, Move, Position, Setup};

/// The bundled example position's shape: black's flower (华) to play move 289 on a 5×5 board.
const POSITION: &str = "rules: m3go-2020
move: 289
diagram: |
  . . . . .
  . X X X .
  . X . X #
  . X X X .
  . . . O O
";

fn position() -> Position {
    Setup::position_from_text(POSITION, "example.yaml").expect("a valid position")
}

#[test]
fn a_move_from_the_list_is_played_in_place_taken_back_and_the_position_scored() {
    let mut pos = position();
    let before = pos.clone();
    let moves: Vec<Move> = pos.legal_moves();
    assert!(moves.contains(&Move::pass()), "the pass is a legal move");
    let first = moves
        .iter()
        .copied()
        .find(|m| *m != Move::pass())
        .expect("a stone to play");

    // in place, and back: the position is the one before, its legal moves too
    let undo = pos.play_in_place(first).expect("a listed move is legal");
    assert_eq!(pos.move_number(), 290);
    assert_ne!(pos, before);
    pos.undo(undo);
    assert_eq!(pos, before);
    assert_eq!(pos.legal_moves(), moves);

    // every listed move is taken by `play` as it is
    for m in &moves {
        let next = pos.play(*m).expect("a listed move is legal");
        assert_eq!(next.move_number(), 290);
    }

    // the score of the position: half-points, the winner decided by the margin
    let score = pos.score().expect("no dead stone is named");
    assert!(score.black + score.white + score.neutral <= HalfPoints(2 * 25));
    assert!(score.black > score.white, "black holds most of the board");
}

#[test]
fn a_move_named_in_notation_is_the_listed_move() {
    let pos = position();
    let named: Move = "二二".parse().expect("a point in notation");
    assert!(pos.legal_moves().contains(&named));
    let next = pos.play(named).expect("legal");
    assert_eq!(pos.notation(&named).to_string(), "华289.二二");
    assert_eq!(next.move_number(), 290);
}
