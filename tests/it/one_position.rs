//! The one position: `Position` keeps the fast engine's state and offers the whole face on it.
//! `play_in_place` then `undo` gives back the position exactly (its fields, its analysis, its
//! legal moves, its next moves); `play` keeps the fast state along whole games; every move of
//! `legal_moves()` is taken by `play`; `score()` is the composed `Score::of`; and a refusal the
//! fast engine words from its own decision equals the reference's (reason, clause, message).
//! Under every preset and the option variants that "fast equals reference" compares on.

use m3go_engine::testing::fast::SplitMix64;
use m3go_engine::testing::{board_from_codes, position, settle};
use m3go_engine::{Action, Engine, Move, Position, Rules, Score, StoneKind, Turn};

fn rule_sets() -> Vec<Rules> {
    m3go_engine::testing::fast_rule_sets()
}

/// The empty 7x7 board at move 1 under `rules`.
fn start(rules: &Rules) -> Position {
    position(
        settle(board_from_codes(7, &[0; 49]), rules),
        rules.clone(),
        1,
    )
}

/// A move of `pos` drawn from `rng`: mostly a legal move, sometimes a special move.
fn some_move(pos: &Position, rng: &mut SplitMix64) -> Option<Move> {
    let special = pos.special_moves();
    if !special.is_empty() && rng.below(4) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    let legal = pos.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// The same position, read again from its setup (nothing kept from the moves before).
fn afresh(pos: &Position) -> Position {
    pos.to_setup()
        .to_position("afresh")
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn play_in_place_then_undo_restores_the_position_exactly() {
    for rules in rule_sets() {
        for seed in 0..3u64 {
            let mut rng = SplitMix64(seed ^ 0x51ce);
            let mut pos = start(&rules);
            for k in 0..70 {
                let Some(m) = some_move(&pos, &mut rng) else {
                    break;
                };
                let here = format!("{} seed {seed} step {k} {m:?}", rules.preset);
                let before = pos.clone();
                let by_play = pos.play(m).unwrap_or_else(|e| panic!("{here}: {e}"));
                let undo = pos
                    .play_in_place(m)
                    .unwrap_or_else(|e| panic!("{here}: {e}"));
                assert_eq!(pos, by_play, "{here}: in place equals play");
                assert_eq!(pos.frozen(), by_play.frozen(), "{here}");
                assert_eq!(
                    pos.legal_moves(),
                    by_play.legal_moves(),
                    "{here}: legal moves after"
                );
                pos.undo(undo);
                assert_eq!(pos, before, "{here}: undo");
                assert_eq!(pos.frozen(), before.frozen(), "{here}: frozen after undo");
                assert_eq!(
                    format!("{:?}", pos.analysis()),
                    format!("{:?}", before.analysis()),
                    "{here}: analysis after undo"
                );
                assert_eq!(
                    pos.legal_moves(),
                    afresh(&before).legal_moves(),
                    "{here}: the fast state after undo"
                );
                assert_eq!(pos.special_moves(), before.special_moves(), "{here}");
                // the game goes on in place, each position checked against play
                let _kept = pos
                    .play_in_place(m)
                    .unwrap_or_else(|e| panic!("{here}: {e}"));
                assert_eq!(pos, by_play, "{here}: again");
            }
        }
    }
}

#[test]
fn play_keeps_the_fast_state_and_takes_every_listed_move() {
    for rules in rule_sets() {
        let mut rng = SplitMix64(0x0b1e);
        let mut pos = start(&rules);
        for k in 0..80 {
            let legal = pos.legal_moves();
            let reference = pos.clone().with_engine(Engine::Reference);
            assert_eq!(legal, reference.legal_moves(), "{} step {k}", rules.preset);
            for &m in &legal {
                let next = pos
                    .play(m)
                    .unwrap_or_else(|e| panic!("{} step {k} {m:?}: {e}", rules.preset));
                assert!(next.keeps_fast(), "{} step {k}", rules.preset);
            }
            let Some(m) = some_move(&pos, &mut rng) else {
                break;
            };
            let (by_reference, _) = reference
                .play_reported(&m)
                .unwrap_or_else(|e| panic!("{} step {k}: {e}", rules.preset));
            pos = pos.play(m).unwrap_or_else(|e| panic!("{e}"));
            assert!(pos.keeps_fast(), "{} step {k}", rules.preset);
            assert_eq!(pos, by_reference, "{} step {k}", rules.preset);
            assert_eq!(
                pos.score(),
                Score::of(&pos.analysis(), pos.rules(), pos.dead()),
                "{} step {k}",
                rules.preset
            );
        }
    }
}

/// A move that is often illegal: an occupied or any point, a wrong claimed turn or number.
fn some_illegal(pos: &Position, rng: &mut SplitMix64) -> Move {
    let size = pos.board().len();
    let action = Action::Place(pos.board().point(rng.below(size)));
    let plain = Move {
        action,
        number: None,
        turn: None,
    };
    let t = pos.turn();
    match rng.below(4) {
        0 => Move {
            number: Some(pos.move_number() + 1 + rng.below(3) as u32),
            ..plain
        },
        1 => Move {
            turn: Some(Turn {
                player: if rng.below(2) == 0 {
                    t.player
                } else {
                    t.player.opponent()
                },
                kind: match t.kind {
                    StoneKind::Own => StoneKind::Flower,
                    StoneKind::Flower => StoneKind::Own,
                },
            }),
            ..plain
        },
        _ => plain,
    }
}

#[test]
fn the_fast_refusal_is_worded_as_the_reference_refuses() {
    let mut refused = 0usize;
    for rules in rule_sets() {
        let mut rng = SplitMix64(0xfa57);
        let mut pos = start(&rules);
        for k in 0..60 {
            let reference = pos.clone().with_engine(Engine::Reference);
            for _ in 0..12 {
                let m = some_illegal(&pos, &mut rng);
                let by_fast = pos.play(m).err();
                let by_reference = reference.play_reported(&m).err();
                assert_eq!(
                    by_fast
                        .as_ref()
                        .map(|e| (e.reason, e.clause, e.message.to_string())),
                    by_reference
                        .as_ref()
                        .map(|e| (e.reason, e.clause, e.message.to_string())),
                    "{} step {k} {m:?}",
                    rules.preset
                );
                refused += usize::from(by_fast.is_some());
            }
            let Some(m) = some_move(&pos, &mut rng) else {
                break;
            };
            pos = pos.play(m).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(refused > 1000, "only {refused} refusals compared");
}

/// M20-REPLAY-PASS: a pass that replaces a refused move never ends the game, so the mechanical
/// replay sets the count of trailing passes back to 0. The position keeps its fast form through
/// that (a replay with many replaced moves does not build it again at each), and the kept form
/// counts as one built afresh: the same state, and the same end after further passes.
#[test]
fn a_replaced_pass_keeps_the_fast_state_with_its_count_set_back() {
    for rules in rule_sets() {
        let mut pos = start(&rules).play(Move::pass()).expect("a pass");
        pos.forget_trailing_passes();
        assert!(pos.keeps_fast(), "{}", rules.preset);
        let fresh = pos.to_setup().to_position("fresh").expect("valid");
        assert_eq!(fresh, pos, "{}: read back", rules.preset);
        assert!(!fresh.keeps_fast(), "{}: a copy built afresh", rules.preset);
        if let Some(d) = pos.fast().state_difference(&fresh.fast(), false) {
            panic!(
                "{}: the kept form differs from a fresh one: {d}",
                rules.preset
            );
        }
        let (mut kept, mut built) = (pos, fresh);
        for k in 0..3 {
            let (a, b) = (kept.play(Move::pass()), built.play(Move::pass()));
            assert_eq!(a, b, "{} pass {k}", rules.preset);
            let (Ok(a), Ok(b)) = (a, b) else { break };
            assert_eq!(a.game_over(), b.game_over(), "{} pass {k}", rules.preset);
            (kept, built) = (a, b);
        }
    }
}
