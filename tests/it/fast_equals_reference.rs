//! Fast equals reference: the fast path (`m3go_engine::testing::fast`) must agree with the clause-by-clause
//! functions — `Analysis::new`, `forbidden::flower_forbidden_reason`, `Position::play`,
//! `Position::legal_moves` and `perft::perft` on `Engine::Reference`, `Position::special_moves` — on
//! random boards, random move sequences (special moves among them) and random games, under
//! every preset and the single-option variants of `m3go_engine::testing::fast_rule_sets` that the
//! fast path supports — all of them (`FastPosition::new` is total; `fast_engine_supports_every_rule_set`
//! checks that every preset is among them).

use m3go_engine::judge::forbidden::flower_forbidden_reason;
use m3go_engine::rules::{AttributeRule, RulesField, Schedule, SuicideTiming};
use m3go_engine::testing::fast::{
    random_game_fast, random_game_reference, FastAnalysis, FastPosition, UndoLog,
};
use m3go_engine::{Action, Analysis, Board, Cell, Colour, Move, Position, Rules, Stone};
use proptest::prelude::*;

/// `pos` on the clause-by-clause reference (the engine a comparison sets on the position).
fn on_reference(pos: &m3go_engine::Position) -> m3go_engine::Position {
    pos.clone().with_engine(m3go_engine::Engine::Reference)
}

/// The rule sets compared: every one of `fast_rule_sets` (the fast path supports them all,
/// `fast_engine_supports_every_rule_set`).
fn rule_sets() -> Vec<Rules> {
    m3go_engine::testing::fast_rule_sets()
}

#[test]
fn fast_engine_supports_every_rule_set() {
    let all = m3go_engine::testing::fast_rule_sets();
    for r in &all {
        let pos = start(5, r);
        assert_eq!(
            FastPosition::new(&pos).legal_moves(),
            actions(on_reference(&pos).legal_moves()),
            "{r:?}"
        );
    }
    for preset in m3go_engine::Rules::PRESETS {
        let rules = Rules::preset(preset).expect("preset");
        assert!(
            all.contains(&rules),
            "{preset} is not among the compared rule sets"
        );
    }
    // every ko rule, schedule and special move is among the supported sets
    let sets = rule_sets();
    for ko in ["None", "Simple", "Positional", "Situational"] {
        assert!(sets.iter().any(|r| format!("{:?}", r.ko) == ko), "ko {ko}");
    }
    for s in [
        Schedule::Cycle10,
        Schedule::Alternate,
        Schedule::Team2016,
        Schedule::Flystone,
    ] {
        assert!(sets.iter().any(|r| r.schedule == s), "schedule {s:?}");
    }
    assert!(sets.iter().any(|r| r.emergency_conversion));
}

fn board_of(size: usize, cells: &[u8]) -> Board {
    let mut b = Board::empty(size).expect("odd size");
    for (i, &c) in cells.iter().enumerate().take(size * size) {
        b.set(
            i,
            match c {
                1 => Some(Stone::Black),
                2 => Some(Stone::White),
                3 => Some(Stone::Flower),
                _ => None,
            },
        );
    }
    b
}

/// Compares every part of the analysis; the message names the first difference.
fn check_analysis(board: &Board, rules: &Rules) -> Result<(), String> {
    let a = Analysis::new(board, rules);
    let f = FastAnalysis::new(board, rules);
    let here = |i: usize| {
        format!(
            "{} ({}) on\n{}",
            board.point(i),
            rules.preset,
            board.to_diagram()
        )
    };
    for (g, s) in a.lower_strings.groups.iter().enumerate() {
        let i = s.points[0];
        if f.has_private_eye(i) != Some(a.has_private_eye(g)) {
            return Err(format!(
                "M20-EYE: string {} private eye: reference {}, fast {:?}",
                here(i),
                a.has_private_eye(g),
                f.has_private_eye(i)
            ));
        }
    }
    for i in 0..board.len() {
        if f.attribute_at(i) != a.attribute_at[i] {
            return Err(format!(
                "M20-ATTR: attribute at {}: reference {:?}, fast {:?}",
                here(i),
                a.attribute_at[i],
                f.attribute_at(i)
            ));
        }
        let upper = match a.upper.cells[i] {
            Cell::Empty => Some(None),
            Cell::Stone(c) => Some(Some(c)),
            Cell::OffBoard => None,
        };
        if f.upper_at(i) != upper {
            return Err(format!("M20-UPPER: upper layer at {}", here(i)));
        }
        let libs = a.upper_strings.at(i).map(|s| s.liberties.len());
        if f.upper_liberties_at(i) != libs {
            return Err(format!(
                "M20-STRING: upper liberties at {}: reference {libs:?}, fast {:?}",
                here(i),
                f.upper_liberties_at(i)
            ));
        }
        for player in [Colour::Black, Colour::White] {
            let r = flower_forbidden_reason(&a, rules, i, player);
            let q = f.flower_forbidden_reason(rules, i, player);
            if r != q {
                return Err(format!(
                    "M20-FORBID-UPPER: {player:?}'s flower at {}: reference {r:?}, fast {q:?}",
                    here(i)
                ));
            }
        }
    }
    for player in [Colour::Black, Colour::White] {
        if f.forbidden_points(rules, player)
            != m3go_engine::formats::report::forbidden_points(&a, rules, player)
        {
            return Err(format!(
                "forbidden point lists differ on\n{}",
                board.to_diagram()
            ));
        }
    }
    if f.upper_string_count() != a.upper_strings.groups.len() {
        return Err(format!(
            "upper string count differs on\n{}",
            board.to_diagram()
        ));
    }
    Ok(())
}

fn start(size: usize, rules: &Rules) -> Position {
    start_at(size, rules, 1)
}

/// The empty board under `rules`, `first` the number of the next move.
fn start_at(size: usize, rules: &Rules, first: u32) -> Position {
    let setup = m3go_engine::Setup {
        rules: RulesField::of(rules),
        size: Some(size),
        // a Flystone game past move 1 would need the record of its flystones
        move_number: Some(if rules.schedule == Schedule::Flystone {
            1
        } else {
            first
        }),
        diagram: Board::empty(size).expect("odd size").to_diagram(),
        ..Default::default()
    };
    setup.to_position("empty board").expect("empty board")
}

/// Plays `choices` on both paths: each picks one of the reference's legal or special moves
/// (and first tries a point that may be refused, comparing the refusal), comparing the legal
/// and the special moves before every move and the position after it; at the end, perft(2)
/// of the position reached on boards up to 5×5.
fn check_sequence(size: usize, rules: &Rules, first: u32, choices: &[usize]) -> Result<(), String> {
    let mut pos = start_at(size, rules, first);
    let mut fast = FastPosition::new(&pos);
    for (k, &c) in choices.iter().enumerate() {
        let here = || {
            format!(
                "before move {} ({} {:?}) on\n{}",
                pos.move_number(),
                rules.preset,
                rules,
                pos.board().to_diagram()
            )
        };
        let moves = actions(on_reference(&pos).legal_moves());
        let fast_moves = fast.legal_moves();
        if moves != fast_moves {
            return Err(format!(
                "legal moves differ {}:\nreference {moves:?}\nfast      {fast_moves:?}",
                here()
            ));
        }
        let specials: Vec<(m3go_engine::Turn, Action)> = pos
            .special_moves()
            .into_iter()
            .map(|m| (m.turn.unwrap_or(pos.turn()), m.action))
            .collect();
        if specials != fast.special_moves() {
            return Err(format!(
                "special moves differ {}:\nreference {specials:?}\nfast      {:?}",
                here(),
                fast.special_moves()
            ));
        }
        if fast.turn() != pos.turn() {
            return Err(format!("turns differ {}", here()));
        }
        // a point that may be refused: the same verdict and reason
        let probe = Action::Place(pos.board().point((c / 7) % pos.board().len()));
        let r = pos.play_reported(&Move::stone(match probe {
            Action::Place(p) => p,
            Action::Pass => unreachable!(),
        }));
        let f = fast.play(probe);
        if r.as_ref().map(|_| ()).map_err(|e| e.reason) != f.as_ref().map(|_| ()).map_err(|e| *e) {
            return Err(format!(
                "{probe:?} {}: reference {:?}, fast {:?}",
                here(),
                r.map(|_| ()).map_err(|e| e.reason),
                f.map(|_| ())
            ));
        }
        if moves.is_empty() {
            return Ok(());
        }
        let pick = c % (moves.len() + specials.len());
        let (m, turn) = match moves.get(pick) {
            Some(&action) => (
                Move {
                    action,
                    number: None,
                    turn: None,
                },
                pos.turn(),
            ),
            None => {
                let (turn, action) = specials[pick - moves.len()];
                (
                    Move {
                        action,
                        number: Some(pos.move_number()),
                        turn: Some(turn),
                    },
                    turn,
                )
            }
        };
        let (next, _) = pos
            .play_reported(&m)
            .map_err(|e| format!("step {k}: a listed move {m:?} was refused: {e}"))?;
        let fast_next = fast
            .play_as(m.action, turn)
            .map_err(|e| format!("step {k}: fast path refused {m:?}: {e}"))?;
        if fast_next.board() != *next.board() || fast_next.move_number() != next.move_number() {
            return Err(format!(
                "after {m:?} {}: boards differ:\nreference\n{}fast\n{}",
                here(),
                next.board().to_diagram(),
                fast_next.board().to_diagram()
            ));
        }
        if fast_next.game_over() != next.game_over() {
            return Err(format!("GO-END differs after {m:?} {}", here()));
        }
        if fast_next.flystone() != next.flystone_state().as_ref() {
            return Err(format!("the Flystone state differs after {m:?} {}", here()));
        }
        pos = next;
        fast = fast_next;
    }
    if size <= 5 {
        let reference = m3go::tools::perft::perft(&on_reference(&pos), 2);
        if fast.count_leaves(2) != reference {
            return Err(format!(
                "perft(2): reference {reference}, fast {} at move {} ({:?}) on\n{}",
                fast.count_leaves(2),
                pos.move_number(),
                rules,
                pos.board().to_diagram()
            ));
        }
    }
    Ok(())
}

fn cell() -> impl Strategy<Value = u8> {
    prop_oneof![4 => Just(0u8), 3 => Just(1u8), 3 => Just(2u8), 2 => Just(3u8)]
}

fn sized_board() -> impl Strategy<Value = (usize, Vec<u8>)> {
    prop_oneof![Just(3usize), Just(5), Just(7), Just(9), Just(19)]
        .prop_flat_map(|n| (Just(n), prop::collection::vec(cell(), n * n)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fast_analysis_equals_reference_on_random_boards((size, cells) in sized_board()) {
        let board = board_of(size, &cells);
        for rules in rule_sets() {
            if let Err(e) = check_analysis(&board, &rules) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn fast_play_and_legal_moves_equal_reference_on_random_sequences(
        size in prop_oneof![Just(3usize), Just(5), Just(7)],
        rules in 0usize..64,
        first in prop_oneof![Just(1u32), Just(7), Just(9)],
        choices in prop::collection::vec(0usize..1000, 1..60),
    ) {
        let sets = rule_sets();
        let rules = &sets[rules % sets.len()];
        if let Err(e) = check_sequence(size, rules, first, &choices) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Dense random boards with flowers (settled): the legal moves of every turn of the cycle,
    /// where most moves are decided without analysing the board after them.
    #[test]
    fn fast_legal_moves_equal_reference_on_random_boards(
        (size, cells) in prop_oneof![Just(5usize), Just(7), Just(9)]
            .prop_flat_map(|n| (Just(n), prop::collection::vec(cell(), n * n))),
        rules in 0usize..64,
        first in 1u32..=10,
    ) {
        let sets = rule_sets();
        let rules = &sets[rules % sets.len()];
        let board = m3go_engine::testing::settle(board_of(size, &cells), rules);
        let pos = m3go_engine::testing::position(board, rules.clone(), first);
        let fast = FastPosition::new(&pos);
        prop_assert_eq!(
            fast.legal_moves(),
            actions(on_reference(&pos).legal_moves()),
            "{:?} at move {} on\n{}",
            rules,
            pos.move_number(),
            pos.board().to_diagram()
        );
    }
}

#[test]
fn fast_analysis_equals_reference_on_bench_positions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("benches/data") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let pos =
            m3go::input::load_position(path.to_str().expect("utf-8 path")).expect("bench position");
        for rules in rule_sets() {
            check_analysis(pos.board(), &rules)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} bench positions found");
}

#[test]
fn fast_perft_equals_reference_perft_on_small_boards() {
    for rules in rule_sets() {
        for (size, first, depth) in [(3usize, 1u32, 3u32), (3, 8, 3), (5, 9, 2), (5, 1, 2)] {
            let pos = start_at(size, &rules, first);
            let fast = FastPosition::new(&pos);
            let reference = m3go::tools::perft::perft(&on_reference(&pos), depth);
            assert_eq!(m3go::tools::perft::perft(&pos, depth), reference);
            assert_eq!(
                fast.count_leaves(depth),
                reference,
                "perft({depth}) of the empty {size}x{size} board at move {first} ({rules:?})"
            );
        }
    }
}

#[test]
fn fast_legal_moves_equal_reference_on_bench_positions() {
    for name in [
        "random-9x9-m3go-30",
        "plain-9x9-20",
        "alphago-lee-sedol-2016-g5-100",
        "alphago-lee-sedol-2016-g5-150",
        "random-19x19-m3go-120",
        "worst-flower-walls",
    ] {
        let path = format!("{}/benches/data/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
        let pos = m3go::input::load_position(&path).expect("bench position");
        let fast = FastPosition::new(&pos);
        assert_eq!(
            fast.legal_moves(),
            actions(on_reference(&pos).legal_moves()),
            "{name}"
        );
        assert!(
            actions(on_reference(&pos).legal_moves()).len() > 1,
            "{name}: expected moves besides the pass"
        );
    }
}

#[test]
fn fast_random_games_equal_reference_random_games() {
    for rules in rule_sets() {
        for (size, seed) in [(5usize, 1u64), (7, 2), (9, 3)] {
            let pos = start(size, &rules);
            let (r, rn) = random_game_reference(&pos, seed, 400);
            let fast = FastPosition::new(&pos);
            let (f, fnum) = random_game_fast(&fast, seed, 400);
            assert_eq!(
                rn, fnum,
                "moves played, {size}x{size} seed {seed} ({})",
                rules.preset
            );
            assert_eq!(
                f.board(),
                *r.board(),
                "final board, {size}x{size} seed {seed} ({})",
                rules.preset
            );
            assert!(rn > 0, "the game played no move");
        }
    }
}

#[test]
fn fast_go_ko_retake_refused_like_reference_in_plain_go() {
    let plain = Rules {
        schedule: Schedule::Alternate,
        attribute: AttributeRule::AlwaysNeutral,
        ..Rules::m3go_2020()
    };
    // Black takes the white stone at (row 1, column 1) by playing (1, 2); White may not retake.
    let setup = m3go_engine::Setup {
        rules: RulesField::of(&plain),
        size: Some(5),
        diagram: ". X O . .\nX O . O .\n. X O . .\n. . . . .\n. . . . .\n".into(),
        ..Default::default()
    };
    let pos = setup.to_position("ko").expect("settled");
    let take = Action::Place(pos.board().point(7));
    let (after, _) = pos
        .play_reported(&Move {
            action: take,
            number: None,
            turn: None,
        })
        .expect("the capture is legal");
    let fast = FastPosition::new(&pos)
        .play(take)
        .expect("fast: the capture is legal");
    assert_eq!(fast.board(), *after.board());
    let retake = Action::Place(after.board().point(6));
    assert!(
        !actions(on_reference(&after).legal_moves()).contains(&retake),
        "GO-KO: the retake is refused"
    );
    assert_eq!(
        fast.legal_moves(),
        actions(on_reference(&after).legal_moves())
    );
    assert_eq!(
        fast.count_leaves(2),
        m3go::tools::perft::perft(&on_reference(&after), 2)
    );
}

#[test]
fn fast_suicide_timing_equals_reference_when_filling_an_eye_frees_a_flower() {
    // Case disputed-suicide-timing-fixpoint: black fills white's one-point private eye B二; the
    // white flower O二 turns neutral and white A二* is left without a liberty (register D10).
    let setup = m3go_engine::Setup {
        size: Some(5),
        diagram: ". O # . .\nO O X . .\nX X . . .\n. . . . .\n. . . . .\n".into(),
        ..Default::default()
    };
    let base = setup.to_position("fixpoint").expect("settled");
    let eye = Action::Place(base.board().point(0));
    for (timing, legal) in [
        (SuicideTiming::Fixpoint, true),
        (SuicideTiming::FirstRound, false),
    ] {
        let rules = Rules {
            suicide_timing: timing,
            ..base.rules().clone()
        };
        let pos = base.with_rules(&rules, "fixpoint").expect("settled");
        let fast = FastPosition::new(&pos);
        let moves = actions(on_reference(&pos).legal_moves());
        assert_eq!(moves.contains(&eye), legal, "{timing:?}: reference");
        assert_eq!(
            fast.legal_moves(),
            moves,
            "{timing:?}: fast equals reference"
        );
        if legal {
            let (after, _) = pos
                .play_reported(&Move {
                    action: eye,
                    number: None,
                    turn: None,
                })
                .expect("legal at the fixpoint");
            assert_eq!(fast.play(eye).expect("fast: legal").board(), *after.board());
            assert_eq!(
                after.board().to_diagram(),
                "X . # . .\n. . X . .\nX X . . .\n. . . . .\n. . . . .\n"
            );
        }
        assert_eq!(
            fast.count_leaves(2),
            m3go::tools::perft::perft(&on_reference(&pos), 2),
            "{timing:?}: perft 2"
        );
    }
}

#[test]
fn fast_equals_reference_on_every_conformance_case_position() {
    // The suite's positions reach what random play seldom does: histories for positional and
    // situational ko, strings put in atari for the emergency conversion (P and Q), Flystone
    // states with flystones thrown, the team rounds.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/cases");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("spec/cases")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("yaml"))
        .collect();
    paths.sort();
    let (mut compared, mut specials) = (0, 0);
    for path in paths {
        let path = path.to_string_lossy().into_owned();
        let case = m3go::conform::case::Case::load(&path, None).expect("a case file");
        let Ok(pos) = case.position.to_position(&path) else {
            continue;
        };
        let fast = FastPosition::new(&pos);
        assert_eq!(
            fast.legal_moves(),
            actions(on_reference(&pos).legal_moves()),
            "{path}: legal moves"
        );
        let reference: Vec<(m3go_engine::Turn, Action)> = pos
            .special_moves()
            .into_iter()
            .map(|m| (m.turn.unwrap_or(pos.turn()), m.action))
            .collect();
        assert_eq!(fast.special_moves(), reference, "{path}: special moves");
        specials += usize::from(!reference.is_empty());
        let depth = if pos.board().size() <= 5 { 2 } else { 1 };
        assert_eq!(
            fast.count_leaves(depth),
            m3go::tools::perft::perft(&on_reference(&pos), depth),
            "{path}: perft({depth})"
        );
        compared += 1;
    }
    assert!(compared >= 100, "only {compared} case positions compared");
    assert!(
        specials >= 3,
        "only {specials} case positions with special moves"
    );
}

/// The fast engine's held analysis of `fast` (kept incrementally from move to move) against
/// the reference analysis of the same board: the upper layer and its liberties, the flower
/// attributes, the private eyes the engine holds, both players' forbidden points.
fn check_held_analysis(
    fast: &FastPosition,
    rules: &Rules,
    frozen: &[m3go_engine::judge::FrozenString],
) -> Result<(), String> {
    let board = fast.board();
    // the reference position's analysis: its frozen grey strings keep their attribute (D21)
    let a = Analysis::with_frozen(&board, rules, frozen);
    let f = fast.analysis();
    for i in 0..board.len() {
        let upper = match a.upper.cells[i] {
            Cell::Empty => Some(None),
            Cell::Stone(c) => Some(Some(c)),
            Cell::OffBoard => None,
        };
        if f.upper_at(i) != upper {
            return Err(format!("M20-UPPER: upper layer at {}", board.point(i)));
        }
        if f.upper_liberties_at(i) != a.upper_strings.at(i).map(|s| s.liberties.len()) {
            return Err(format!("M20-STRING: upper liberties at {}", board.point(i)));
        }
        if f.attribute_at(i) != a.attribute_at[i] {
            return Err(format!("M20-ATTR: attribute at {}", board.point(i)));
        }
        if let (Some(eye), Some(g)) = (f.has_private_eye(i), a.lower_strings.of[i]) {
            if eye != a.has_private_eye(g) {
                return Err(format!("M20-EYE: private eye at {}", board.point(i)));
            }
        }
    }
    for player in [Colour::Black, Colour::White] {
        if f.forbidden_points(rules, player)
            != m3go_engine::formats::report::forbidden_points(&a, rules, player)
        {
            return Err(format!("M20-FORBID-UPPER: {player:?}'s forbidden points"));
        }
    }
    if f.upper_string_count() != a.upper_strings.groups.len() {
        return Err("the upper string count".into());
    }
    Ok(())
}

/// Long random games (up to 300 moves on 7x7 and 9x9, every rule set): each move a random
/// legal move of the fast engine (a pass only when nothing else is legal), played on both
/// engines; after every move the boards are compared, the fast engine's state is checked
/// against its own recomputation (`check_consistency`) and its held analysis against the
/// reference analysis of the board. The games must have lived through captures and attribute
/// flips, where the incremental state changes most.
#[test]
fn fast_incremental_state_equals_reference_through_long_random_games() {
    let (mut captures, mut flips, mut moves) = (0usize, 0usize, 0usize);
    for rules in rule_sets() {
        for (size, seed) in [(7usize, 11u64), (9, 12)] {
            let mut rng = m3go_engine::game::SplitMix64(seed);
            let mut pos = start(size, &rules);
            let mut fast = FastPosition::new(&pos);
            for k in 0..300 {
                if fast.game_over() {
                    break;
                }
                let here = || format!("{} {size}x{size} seed {seed}, move {k}", rules.preset);
                let action = random_action(&mut rng, &fast.legal_moves());
                let m = Move {
                    action,
                    number: None,
                    turn: None,
                };
                let (next, _) = pos.play_reported(&m).unwrap_or_else(|e| {
                    panic!("{}: the reference refused {action:?}: {e}", here())
                });
                let fast_next = fast.play(action).unwrap_or_else(|e| {
                    panic!("{}: the fast engine refused {action:?}: {e}", here())
                });
                assert_eq!(fast_next.board(), *next.board(), "{}: boards", here());
                if let Err(e) = fast_next.check_consistency() {
                    panic!("{}: consistency: {e}", here());
                }
                if let Err(e) = check_held_analysis(&fast_next, &rules, next.frozen()) {
                    panic!("{}: {e} on\n{}", here(), next.board().to_diagram());
                }
                let stones = |b: &Board| (0..b.len()).filter(|&i| b.get(i).is_some()).count();
                captures += usize::from(stones(next.board()) < stones(pos.board()));
                let attrs = |f: &FastPosition| {
                    (0..pos.board().len())
                        .map(|i| f.analysis().attribute_at(i))
                        .collect::<Vec<_>>()
                };
                let (was, now) = (attrs(&fast), attrs(&fast_next));
                flips += was
                    .iter()
                    .zip(&now)
                    .filter(|(a, b)| a.is_some() && b.is_some() && a != b)
                    .count();
                moves += 1;
                pos = next;
                fast = fast_next;
            }
        }
    }
    assert!(moves >= 2000, "only {moves} moves played");
    assert!(captures >= 100, "only {captures} moves captured");
    assert!(flips >= 100, "only {flips} attribute flips");
}

/// The local decision on a full-size board: random 19×19 games under the 2020 rules (where
/// private eyes and attributes are decided locally, removals included), each move a random legal
/// move of the fast engine; after every move the fast engine's state is checked against its own
/// recomputation and its held analysis against the reference analysis of the board. The games
/// must have captured next to flowers on the board, the case the local removal decides.
#[test]
fn fast_incremental_state_equals_reference_through_19x19_random_games() {
    let rules = Rules::m3go_2020();
    let (mut captures, mut moves) = (0usize, 0usize);
    for seed in [21u64, 22] {
        let mut rng = m3go_engine::game::SplitMix64(seed);
        let mut fast = FastPosition::new(&start(19, &rules));
        for k in 0..700 {
            if fast.game_over() {
                break;
            }
            let action = random_action(&mut rng, &fast.legal_moves());
            let next = fast
                .play(action)
                .unwrap_or_else(|e| panic!("seed {seed}, move {k}: refused {action:?}: {e}"));
            if let Err(e) = next.check_consistency() {
                panic!("seed {seed}, move {k}: consistency: {e}");
            }
            // m3go-2020: nothing is frozen
            if let Err(e) = check_held_analysis(&next, &rules, &[]) {
                panic!(
                    "seed {seed}, move {k}: {e} on\n{}",
                    next.board().to_diagram()
                );
            }
            let stones = |b: &Board| (0..b.len()).filter(|&i| b.get(i).is_some()).count();
            let flowers = |b: &Board| {
                (0..b.len())
                    .filter(|&i| b.get(i) == Some(Stone::Flower))
                    .count()
            };
            let (was, now) = (fast.board(), next.board());
            captures += usize::from(stones(&now) < stones(&was) && flowers(&was) > 0);
            moves += 1;
            fast = next;
        }
    }
    assert!(moves >= 1000, "only {moves} moves played");
    assert!(
        captures >= 30,
        "only {captures} captures with flowers on the board"
    );
}

/// Play/undo (`FastPosition::play_in_place`, `FastPosition::undo`), which perft and the random
/// games walk with, under every rule set: long random games (up to 300 moves on 7x7 and 9x9,
/// special moves among them) played both in place and by copying (`play_as`). At every position
/// three more legal moves and an occupied point are tried in place: each legal one must leave
/// the position the copy gives (`state_difference`, and `check_consistency` runs after every
/// move played in place in this build), and its undo the position before it field by field; the
/// occupied point is refused and changes nothing. The move kept must give the copy's position;
/// at the end every move of the game is taken back, down to the start, field by field. Both
/// ways of restoring the analysis (entries logged, whole analysis saved) must have been used.
#[test]
fn fast_play_undo_equals_play_by_copying_through_long_random_games() {
    let (mut moves, mut tried) = (0usize, 0usize);
    let (mut local, mut whole) = (0u64, 0u64);
    for rules in rule_sets() {
        for (size, seed) in [(7usize, 31u64), (9, 32)] {
            let mut rng = m3go_engine::game::SplitMix64(seed);
            let first = FastPosition::new(&start(size, &rules));
            let mut copied = first.clone();
            let mut in_place = first.clone();
            let mut log = UndoLog::new();
            let mut trial = UndoLog::new();
            for k in 0..300 {
                if copied.game_over() {
                    break;
                }
                let here = || format!("{} {size}x{size} seed {seed}, move {k}", rules.preset);
                let legal = copied.legal_moves();
                let specials = copied.special_moves();
                for _ in 0..3 {
                    let (turn, action) = match rng.below(5) {
                        0 if !specials.is_empty() => specials[rng.below(specials.len())],
                        _ => (copied.turn(), legal[rng.below(legal.len())]),
                    };
                    let before = in_place.clone();
                    let by_copy = copied.play_as(action, turn).expect("a listed move");
                    in_place
                        .play_in_place(action, turn, &mut trial)
                        .unwrap_or_else(|e| panic!("{}: {action:?} refused in place: {e}", here()));
                    if let Some(d) = in_place.state_difference(&by_copy, false) {
                        panic!("{}: {action:?} in place differs from the copy: {d}", here());
                    }
                    assert!(in_place.undo(&mut trial), "{}: nothing to undo", here());
                    if let Some(d) = in_place.state_difference(&before, true) {
                        panic!("{}: {action:?} then undo: {d}", here());
                    }
                    tried += 1;
                }
                let board = copied.board();
                if let Some(i) = (0..board.len()).find(|&i| board.get(i).is_some()) {
                    let before = in_place.clone();
                    let occupied = Action::Place(board.point(i));
                    assert!(
                        in_place
                            .play_in_place(occupied, copied.turn(), &mut trial)
                            .is_err(),
                        "{}: an occupied point played",
                        here()
                    );
                    assert_eq!(in_place.state_difference(&before, true), None, "{}", here());
                    assert!(trial.is_empty(), "{}: a refused move logged", here());
                }
                let (turn, action) = match rng.below(6) {
                    0 if !specials.is_empty() => specials[rng.below(specials.len())],
                    _ => (copied.turn(), random_action(&mut rng, &legal)),
                };
                copied = copied.play_as(action, turn).expect("a listed move");
                in_place
                    .play_in_place(action, turn, &mut log)
                    .unwrap_or_else(|e| panic!("{}: {action:?} refused in place: {e}", here()));
                if let Some(d) = in_place.state_difference(&copied, false) {
                    panic!("{}: the game in place differs from the copy: {d}", here());
                }
                moves += 1;
            }
            let (l, w) = log.paths();
            let (tl, tw) = trial.paths();
            (local, whole) = (local + l + tl, whole + w + tw);
            while in_place.undo(&mut log) {}
            if let Some(d) = in_place.state_difference(&first, true) {
                panic!("{} {size}x{size}: the game taken back: {d}", rules.preset);
            }
        }
    }
    assert!(moves >= 2000, "only {moves} moves played");
    assert!(tried >= 6000, "only {tried} moves tried");
    assert!(
        local >= 1000 && whole >= 1000,
        "{local} moves logged, {whole} saved whole"
    );
}

/// Perft on play/undo equals perft by copying: the depth-3 count of a 9x9 M3Go position equals
/// the sum over its children (each played by copying) of their depth-2 counts, and walking
/// leaves the position as it was.
#[test]
fn fast_perft_on_play_undo_equals_children_played_by_copying() {
    for rules in [
        Rules::m3go_2020(),
        Rules::preset("m3go-2016").expect("a preset"),
    ] {
        let mut fast = FastPosition::new(&start(9, &rules));
        let mut rng = m3go_engine::game::SplitMix64(41);
        for _ in 0..24 {
            let legal = fast.legal_moves();
            fast = fast
                .play(random_action(&mut rng, &legal))
                .expect("a listed move");
        }
        let before = fast.clone();
        let by_copy: u64 = fast
            .legal_moves()
            .into_iter()
            .map(|a| fast.play(a).expect("a listed move").count_leaves(2))
            .chain(
                fast.special_moves()
                    .into_iter()
                    .map(|(t, a)| fast.play_as(a, t).expect("a listed move").count_leaves(2)),
            )
            .sum();
        assert_eq!(fast.count_leaves(3), by_copy, "{}", rules.preset);
        assert_eq!(fast.state_difference(&before, true), None);
    }
}

/// Every child of perft's 19x19 bench position (`benches/data/random-19x19-m3go-120.yaml`, the
/// M3Go 2020 rules) played in place equals the child played by copying, and its undo the
/// position field by field; the share of the moves whose analysis is logged entry by entry
/// (the rest save it whole) is printed (`--nocapture`) and must be most of them.
#[test]
fn fast_play_undo_of_every_child_of_the_perft_bench_position() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/random-19x19-m3go-120.yaml"
    );
    let pos = m3go::input::load_position(path).expect("the bench position");
    let mut fast = FastPosition::new(&pos);
    let before = fast.clone();
    let mut log = UndoLog::new();
    let children: Vec<_> = fast
        .legal_moves()
        .into_iter()
        .map(|a| (fast.turn(), a))
        .chain(fast.special_moves())
        .collect();
    for &(turn, action) in &children {
        let by_copy = fast.play_as(action, turn).expect("a listed move");
        fast.play_in_place(action, turn, &mut log)
            .expect("a listed move");
        assert_eq!(fast.state_difference(&by_copy, false), None, "{action:?}");
        assert!(fast.undo(&mut log));
        assert_eq!(fast.state_difference(&before, true), None, "{action:?}");
    }
    let (local, whole) = log.paths();
    println!(
        "{} children: {local} stones logged entry by entry, {whole} saved the analysis whole, {} passes",
        children.len(),
        children.len() as u64 - local - whole
    );
    assert!(local > 3 * whole, "{local} logged, {whole} whole");
}

/// A random move of a legal list whose last entry is the pass: a point when there is one, the
/// pass only when nothing else is legal.
fn random_action(rng: &mut m3go_engine::game::SplitMix64, legal: &[Action]) -> Action {
    let places = legal.len() - 1;
    if places == 0 {
        Action::Pass
    } else {
        legal[rng.below(places)]
    }
}

/// The actions of a list of moves (the reference's legal moves, compared with the fast engine's
/// list of actions).
fn actions(moves: Vec<Move>) -> Vec<Action> {
    moves.into_iter().map(|m| m.action).collect()
}
