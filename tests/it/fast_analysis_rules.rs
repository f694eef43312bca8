//! Fast equals reference for the analysis of one board under every analysis rule: the fast
//! engine's `FastAnalysis::new` must give what `Analysis::new` gives — the private eye of every
//! lower string, the attribute of every flower string, the upper layer with its liberty counts
//! and the forbidden points of both players' flowers — on random boards, under every preset and
//! every single-option variant of the analysis rules (private-eye rule, closed-region reading,
//! attribute rule).

use m3go_engine::judge::forbidden::flower_forbidden_reason;
use m3go_engine::rules::{AttributeRule, ClosedRegion, ClosedRegion2016, EyeRule};
use m3go_engine::testing::fast::FastAnalysis;
use m3go_engine::{Analysis, Board, Cell, Colour, Rules};
use proptest::prelude::*;

/// Every preset, and every preset with each analysis option set to each of its other values.
fn rule_sets() -> Vec<Rules> {
    let mut out = Vec::new();
    for p in Rules::PRESETS {
        let base = Rules::preset(p).expect("preset");
        out.push(base.clone());
        for eye in [EyeRule::M2020, EyeRule::M2016] {
            if eye != base.private_eye {
                out.push(Rules {
                    private_eye: eye,
                    ..base.clone()
                });
            }
        }
        for region in [ClosedRegion::SingleString, ClosedRegion::SameColour] {
            if region != base.closed_region {
                out.push(Rules {
                    closed_region: region,
                    ..base.clone()
                });
            }
        }
        for reading in [ClosedRegion2016::Inside, ClosedRegion2016::WholeBoard] {
            if reading != base.closed_region_2016 {
                out.push(Rules {
                    closed_region_2016: reading,
                    ..base.clone()
                });
            }
        }
        for attribute in [
            AttributeRule::M2020,
            AttributeRule::M2016,
            AttributeRule::M2013,
            AttributeRule::AlwaysNeutral,
        ] {
            if attribute != base.attribute {
                out.push(Rules {
                    attribute,
                    ..base.clone()
                });
            }
        }
    }
    out
}

fn board_of(size: usize, cells: &[u8]) -> Board {
    m3go_engine::testing::board_from_codes(size, cells)
}

/// Compares every part of the analysis; the message names the first difference.
fn check(board: &Board, rules: &Rules) -> Result<(), String> {
    let a = Analysis::new(board, rules);
    let f = FastAnalysis::new(board, rules);
    let here = |i: usize| {
        format!(
            "{} ({} with private-eye {:?}, closed-region {:?}, attribute {:?}) on\n{}",
            board.point(i),
            rules.preset,
            rules.private_eye,
            rules.closed_region,
            rules.attribute,
            board.to_diagram()
        )
    };
    for (g, s) in a.lower_strings.groups.iter().enumerate() {
        let i = s.points[0];
        if f.has_private_eye(i) != Some(a.has_private_eye(g)) {
            return Err(format!(
                "private eye of the string: reference {}, fast {:?}, through {}",
                a.has_private_eye(g),
                f.has_private_eye(i),
                here(i)
            ));
        }
    }
    for i in 0..board.len() {
        if f.attribute_at(i) != a.attribute_at[i] {
            return Err(format!(
                "attribute: reference {:?}, fast {:?}, at {}",
                a.attribute_at[i],
                f.attribute_at(i),
                here(i)
            ));
        }
        let upper = match a.upper.cells[i] {
            Cell::Empty => Some(None),
            Cell::Stone(c) => Some(Some(c)),
            Cell::OffBoard => None,
        };
        if f.upper_at(i) != upper {
            return Err(format!("upper layer at {}", here(i)));
        }
        let libs = a.upper_strings.at(i).map(|s| s.liberties.len());
        if f.upper_liberties_at(i) != libs {
            return Err(format!(
                "upper liberties: reference {libs:?}, fast {:?}, at {}",
                f.upper_liberties_at(i),
                here(i)
            ));
        }
        for player in [Colour::Black, Colour::White] {
            let r = flower_forbidden_reason(&a, rules, i, player);
            let q = f.flower_forbidden_reason(rules, i, player);
            if r != q {
                return Err(format!(
                    "{player:?}'s flower: reference {r:?}, fast {q:?}, at {}",
                    here(i)
                ));
            }
        }
    }
    if f.upper_string_count() != a.upper_strings.groups.len() {
        return Err(format!("upper string count on\n{}", board.to_diagram()));
    }
    Ok(())
}

/// A board of `size` from cell codes drawn with weights (empty, black, white, flower).
fn cells(size: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![3 => Just(0u8), 3 => Just(1u8), 3 => Just(2u8), 1 => Just(3u8)],
        size * size,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn fast_analysis_equals_reference_under_every_analysis_rule(
        (size, codes) in prop_oneof![Just(3usize), Just(5), Just(7), Just(9), Just(13)]
            .prop_flat_map(|n| (Just(n), cells(n)))
    ) {
        let b = board_of(size, &codes);
        for rules in rule_sets() {
            if let Err(e) = check(&b, &rules) {
                return Err(TestCaseError::fail(e));
            }
        }
    }
}

/// The 2016 eye on boards whose regions hold opponent strings with eyes of their own, in seki
/// and nested: rings inside rings (the deep conditions the fast engine hands to the reference).
#[test]
fn fast_2016_eye_on_nested_rings_and_seki() {
    let boards = [
        // a white ring with its own eye inside a black ring (M16-EYE-C)
        "X X X X X X X\nX . O O O . X\nX . O . O . X\nX . O O O . X\nX . . . . . X\nX X X X X X X\n. . . . . . O\n",
        // a two-eyed white string inside (M16-EYE-CAPTURE fails)
        "X X X X X X X\nX O O O O O X\nX O . O . O X\nX O O O O O X\nX . . . . . X\nX X X X X X X\nX . . . . . O\n",
        // a seki inside (M16-EYE-D)
        ". . X O . X O X .\n. . X O . X O X .\n. . X O O O O X .\n. . X X X X X X .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n",
        // a dead white stone inside, grey walls
        "X X X X X . .\nX . O . X # .\nX . . . X # .\nX X X X X . .\n. . # . . . .\n. . . . . O .\nX . . . . . O\n",
    ];
    let mut compared = 0;
    for d in boards {
        let size = d.lines().count();
        let b = Board::from_diagram(d, size).expect("diagram");
        for rules in rule_sets() {
            check(&b, &rules).unwrap_or_else(|e| panic!("{e}"));
            compared += 1;
        }
    }
    assert_eq!(compared, boards.len() * rule_sets().len());
}

/// The committed dense 19×19 positions (Lee Sedol vs AlphaGo game 5 under M3Go) under every
/// rule set.
#[test]
fn fast_analysis_equals_reference_on_the_dense_bench_positions() {
    for name in [
        "alphago-lee-sedol-2016-g5-100",
        "alphago-lee-sedol-2016-g5-150",
        "alphago-lee-sedol-2016-g5-last",
        "random-19x19-m3go-120",
        "worst-large-region",
        "worst-many-strings",
        "worst-flower-walls",
    ] {
        let path = format!("{}/benches/data/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
        let pos = m3go::input::load_position(&path).expect("bench input");
        for rules in rule_sets() {
            check(pos.board(), &rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
