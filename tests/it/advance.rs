//! `Position::advance` (the next position without a report, on the fast engine) equals the
//! reference, `Position::play`: the same next position (board, history, move number, trailing
//! passes, dead stones, Flystone record) for a move `play` accepts, the same refusal (reason,
//! clause, message) for one it refuses; and the fast engine's own verdict (`FastPosition::play_as`)
//! accepts exactly the moves the reference accepts, so a move the reference plays and the fast
//! engine refuses fails here — on random settled positions and random move sequences under
//! every preset and single-option variants (ko, suicide, the emergency conversion, the capture
//! timing, the schedule), with moves drawn from the legal list, the special moves (emergency
//! conversions, chosen flystones), any point, passes, and claims of a wrong number or turn. The
//! analysis `Position::play_analysed` hands on is checked against a fresh one of the new board.

use m3go_engine::testing::fast::FastPosition;
use m3go_engine::testing::{board_from_codes, position, settle};
use m3go_engine::{Action, Engine, Move, Position, Rules, StoneKind, Turn};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Every preset, and the single-option variants of "fast equals reference"
/// (`testing::fast_rule_sets`: ko, suicide, the emergency conversion, the capture timing, the
/// schedule, the analysis options).
fn rule_sets() -> Vec<Rules> {
    m3go_engine::testing::fast_rule_sets()
}

/// One step of a generated sequence: what kind of move, and an index to pick it with.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Legal(usize),
    Special(usize),
    Point(usize),
    Pass,
    WrongNumber(usize),
    WrongTurn(usize),
    Numbered(usize),
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        6 => any::<usize>().prop_map(Pick::Legal),
        2 => any::<usize>().prop_map(Pick::Special),
        3 => any::<usize>().prop_map(Pick::Point),
        1 => Just(Pick::Pass),
        1 => any::<usize>().prop_map(Pick::WrongNumber),
        1 => any::<usize>().prop_map(Pick::WrongTurn),
        2 => any::<usize>().prop_map(Pick::Numbered),
    ]
}

fn place_at(pos: &Position, i: usize) -> Action {
    Action::Place(pos.board().point(i % pos.board().len()))
}

/// The move `p` names in `pos`.
fn move_of(pos: &Position, p: Pick) -> Move {
    let plain = |action| Move {
        action,
        number: None,
        turn: None,
    };
    match p {
        Pick::Legal(k) => {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                plain(Action::Pass)
            } else {
                plain(legal[k % legal.len()].action)
            }
        }
        Pick::Special(k) => {
            let special = pos.special_moves();
            if special.is_empty() {
                plain(place_at(pos, k))
            } else {
                special[k % special.len()]
            }
        }
        Pick::Point(k) => plain(place_at(pos, k)),
        Pick::Pass => plain(Action::Pass),
        Pick::WrongNumber(k) => Move {
            number: Some(pos.move_number() + 1 + (k % 3) as u32),
            ..plain(place_at(pos, k))
        },
        Pick::WrongTurn(k) => {
            let t = pos.turn();
            Move {
                turn: Some(Turn {
                    player: if k % 2 == 0 {
                        t.player.opponent()
                    } else {
                        t.player
                    },
                    kind: match t.kind {
                        StoneKind::Own => StoneKind::Flower,
                        StoneKind::Flower => StoneKind::Own,
                    },
                }),
                ..plain(place_at(pos, k / 2))
            }
        }
        Pick::Numbered(k) => Move {
            number: Some(pos.move_number()),
            turn: Some(pos.turn()),
            ..plain(place_at(pos, k))
        },
    }
}

/// Plays `picks` from `start`, comparing `advance` and the fast engine's verdict with the
/// reference's `play` at every step; continues from `play`'s position.
fn compare_sequence(start: Position, picks: &[Pick]) -> Result<(), TestCaseError> {
    let mut pos = start;
    for (k, &p) in picks.iter().enumerate() {
        let m = move_of(&pos, p);
        let by_play = pos.play_reported(&m).map(|(next, _)| next);
        let by_advance = pos.play(m);
        let by_reference = pos.clone().with_engine(Engine::Reference).play(m);
        prop_assert_eq!(
            &by_reference,
            &by_play,
            "step {}: the reference's advance is play",
            k
        );
        prop_assert_eq!(
            (
                by_advance.as_ref().map(|p| p.engine()).ok(),
                by_reference.as_ref().map(|p| p.engine()).ok()
            ),
            (
                by_advance.as_ref().ok().map(|_| Engine::Fast),
                by_reference.as_ref().ok().map(|_| Engine::Reference)
            ),
            "step {}: the next position keeps its engine",
            k
        );
        prop_assert_eq!(
            &by_advance,
            &by_play,
            "step {} ({:?}, move {:?}) from\n{}",
            k,
            p,
            m,
            pos.board().to_diagram()
        );
        if m.number.is_none_or(|n| n == pos.move_number()) {
            let fast = FastPosition::new(&pos);
            let turn = m.turn.unwrap_or_else(|| pos.turn());
            let by_fast = fast.play_as(m.action, turn);
            prop_assert_eq!(
                by_fast.as_ref().map(|f| f.board()).ok(),
                by_play.as_ref().map(|p| p.board().clone()).ok(),
                "step {} ({:?}, move {:?}): the fast engine's verdict {:?}, the reference's {:?}",
                k,
                p,
                m,
                by_fast.as_ref().err(),
                by_play.as_ref().err()
            );
        }
        // the analysis `play_analysed` hands on (the report's, in m3go protocol's answers) is
        // the settled board's own, also under `capture-timing: holographic-first` (with the new
        // position's frozen grey strings, D21)
        if let Ok((next, _, Some(a))) = pos.play_analysed(&m) {
            prop_assert_eq!(
                format!("{a:?}"),
                format!("{:?}", next.analysis()),
                "step {} ({:?}, move {:?}): the analysis handed on is not the new board's",
                k,
                p,
                m
            );
        }
        if let Ok(next) = by_play {
            pos = next;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 48, ..Config::default() })]

    /// `advance` equals `play(..).0` and `play(..).unwrap_err()` on random sequences under
    /// every preset and option variant of [`rule_sets`].
    #[test]
    fn advance_equals_play_under_every_preset(
        size in prop::sample::select(vec![3usize, 5, 5, 7, 9]),
        codes in prop::collection::vec(0u8..8, 81),
        move_number in 1u32..=10,
        picks in prop::collection::vec(pick(), 1..14),
    ) {
        for rules in rule_sets() {
            // sparse boards: codes 4..8 are empty points
            let cells: Vec<u8> = codes.iter().map(|&c| if c < 4 { c } else { 0 }).collect();
            let board = settle(board_from_codes(size, &cells[..size * size]), &rules);
            let start = position(board, rules.clone(), move_number);
            compare_sequence(start, &picks)?;
        }
    }
}

/// A whole game on a 9×9 board under every preset: up to 60 moves picked from the legal list,
/// the position reached by `advance` at every step is `play`'s.
#[test]
fn advance_follows_play_through_whole_games_under_every_preset() {
    for rules in rule_sets() {
        let start = position(
            settle(board_from_codes(9, &[0; 81]), &rules),
            rules.clone(),
            1,
        );
        let picks: Vec<Pick> = (0..60usize)
            .map(|k| Pick::Legal(k.wrapping_mul(2_654_435_761)))
            .collect();
        compare_sequence(start, &picks).unwrap_or_else(|e| panic!("{}: {e}", rules.preset));
    }
}

/// The engine is set once on a position and every position its moves lead to keeps it: a
/// stone and a pass played with `play` (the report's road), `advance`, a change of rules, and a
/// replay's positions.
#[test]
fn the_engine_set_on_a_position_is_kept_by_the_positions_it_leads_to() {
    let rules = Rules::m3go_2020();
    let start = position(
        settle(board_from_codes(5, &[0; 25]), &rules),
        rules.clone(),
        1,
    );
    assert_eq!(start.engine(), Engine::Fast, "the default");
    let pos = start.with_engine(Engine::Reference);
    let stone = Move {
        action: pos.legal_moves()[0].action,
        number: None,
        turn: None,
    };
    let (played, _) = pos
        .play_reported(&stone)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let (passed, _) = played
        .play_reported(&Move::pass())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let advanced = passed.play(stone);
    let advanced = advanced
        .or_else(|_| passed.play(Move::pass()))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let other = advanced
        .with_rules(
            &Rules::preset("m3go-2013").unwrap_or_else(|e| panic!("{e}")),
            "test",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    for (what, p) in [
        ("play of a stone", &played),
        ("play of a pass", &passed),
        ("advance", &advanced),
        ("with_rules", &other),
    ] {
        assert_eq!(p.engine(), Engine::Reference, "{what}");
    }
    let record = m3go_engine::formats::record::Record::parse_game_text(
        "size: 5\n二二 一二 pass",
        "t",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut kept = Vec::new();
    let rep = m3go::tools::replay::strict_keeping(
        &record,
        &rules,
        None,
        Engine::Reference,
        |p| kept.push(p.engine()),
        &|| false,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        rep.position.engine(),
        Engine::Reference,
        "the replay's last position"
    );
    assert_eq!(kept, vec![Engine::Reference; 3], "the replay's positions");
}

/// The fast form a position keeps from the move that led to it (`Position::advance`) is the one
/// built afresh from the position (its setup read again): the same legal moves and the same next
/// position at every step of whole games under every preset and option variant (positional
/// and situational ko among them, whose earlier boards the fast form shares).
#[test]
fn the_kept_fast_form_equals_one_built_afresh() {
    for rules in rule_sets() {
        let mut pos = position(
            settle(board_from_codes(7, &[0; 49]), &rules),
            rules.clone(),
            1,
        );
        for k in 0..90usize {
            let fresh = pos
                .to_setup()
                .to_position("afresh")
                .unwrap_or_else(|e| panic!("{}: step {k}: {e}", rules.preset));
            assert!(!fresh.keeps_fast());
            let legal = pos.legal_moves();
            assert_eq!(legal, fresh.legal_moves(), "{}: step {k}", rules.preset);
            if legal.is_empty() {
                break;
            }
            let m = Move {
                action: legal[k.wrapping_mul(2_654_435_761) % legal.len()].action,
                number: None,
                turn: None,
            };
            let next = pos
                .play(m)
                .unwrap_or_else(|e| panic!("{}: step {k}: {e:?}", rules.preset));
            assert_eq!(
                Ok(&next),
                fresh.play(m).as_ref(),
                "{}: step {k}",
                rules.preset
            );
            assert!(next.keeps_fast(), "{}: step {k}", rules.preset);
            pos = next;
        }
    }
}
