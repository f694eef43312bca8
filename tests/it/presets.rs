//! Every rule system as a preset over the one engine: the clause functions that need a whole
//! position (D3-EMERGENCY, S3-ROUND, M16-TEAM-CYCLE) and the engine entry points under every
//! preset.

use m3go_engine::game::position::play::emergency_conversion;
use m3go_engine::game::{from_yaml, FlystoneRecord, Sides};
use m3go_engine::rules::{RulesField, RulesSpec};
use m3go_engine::{Action, Board, Move, Point, Position, Rules, Setup};

fn position(yaml: &str) -> Position {
    let s: Setup = from_yaml(yaml, "test").expect("setup");
    s.to_position("test").expect("position")
}

fn play(p: &Position, m: &str) -> Result<Position, String> {
    let mv = Move::parse_in(m, p.rules(), p.board().size()).map_err(|e| e.to_string())?;
    p.play_reported(&mv)
        .map(|(n, _)| n)
        .map_err(|e| e.to_string())
}

fn reason(p: &Position, m: &str) -> &'static str {
    let mv = Move::parse_in(m, p.rules(), p.board().size()).expect("notation");
    match p.play_reported(&mv) {
        Ok(_) => "legal",
        Err(e) => e.reason.code(),
    }
}

const ATARI: &str = "
rules: dullstone
size: 9
move: 19
diagram: |
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . O . . . .
  . . . O X O . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
history:
  - |
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . O X O . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
";

#[test]
fn d3_emergency_p_and_q_place_a_black_stone_on_the_liberty() {
    let p = position(ATARI);
    let i = p.board().index(Point::new(0, -1));
    assert_eq!(
        emergency_conversion(&p, i).expect("P and Q hold"),
        vec![m3go_engine::board::StringName(Point::new(0, 0))]
    );
    let (next, report) = p
        .play_reported(&Move::parse("黑19.OA", 9).unwrap())
        .unwrap();
    assert_eq!(report.notation.to_string(), "黑19.OA");
    assert_eq!(
        next.board().at(Point::new(0, -1)),
        Some(m3go_engine::Stone::Black),
        "a black stone, not a flower"
    );
    assert_eq!(next.turn().symbol(), '花');
    // The alias writes the same move.
    assert!(p
        .play_reported(&Move::parse("华19.OA=黑", 9).unwrap())
        .is_ok());
}

#[test]
fn d3_emergency_q_only_on_the_single_liberty() {
    let p = position(ATARI);
    assert_eq!(reason(&p, "黑19.OB"), "conversion-q");
    let err = emergency_conversion(&p, p.board().index(Point::new(1, 1))).unwrap_err();
    let message = err.message.to_string();
    assert!(message.contains("OO* (liberty OA)"), "{message}");
}

#[test]
fn d3_emergency_p_needs_an_atari_by_the_previous_move() {
    // Same board, but the string was already in atari before move 18 (history = the board).
    let yaml = ATARI.replace(
        "    . . . . . . . . .\n    . . . O X O . . .",
        "    . . . . O . . . .\n    . . . O X O . . .",
    );
    let p = position(&yaml);
    assert_eq!(reason(&p, "黑19.OA"), "conversion-p");
    // No history at all: P cannot be established.
    let bare = ATARI.split("history:").next().unwrap().to_string();
    assert_eq!(reason(&position(&bare), "黑19.OA"), "conversion-p");
}

#[test]
fn d3_emergency_is_refused_where_the_rules_do_not_allow_it() {
    let p = position(&ATARI.replace("rules: dullstone", "rules: m3go-2020"));
    assert_eq!(reason(&p, "黑19.OA"), "wrong-turn");
    let p = position(&ATARI.replace(
        "rules: dullstone",
        "rules: { preset: m3go-2020, emergency-conversion: true }",
    ));
    assert_eq!(reason(&p, "黑19.OA"), "legal");
}

#[test]
fn d3_emergency_special_moves_lists_the_conversion() {
    let p = position(ATARI);
    let specials = p.special_moves();
    assert_eq!(specials.len(), 1, "{specials:?}");
    assert_eq!(specials[0].action, Action::Place(Point::new(0, -1)));
}

fn flystone(mode: &str) -> Position {
    position(&format!(
        "rules: {{ preset: flystone, flystone-mode: {mode} }}\nsize: 9\ndiagram: |\n{}",
        "  . . . . . . . . .\n".repeat(9)
    ))
}

#[test]
fn s3_round_chosen_flystone_is_recorded_and_counted() {
    let mut p = flystone("C");
    for (k, m) in [
        "黑1.三三",
        "华2.CC",
        "白3.三C",
        "黑4.C三",
        "华5.O一",
        "白6.OA",
    ]
    .iter()
    .enumerate()
    {
        p = play(&p, m).unwrap_or_else(|e| panic!("move {k} {m}: {e}"));
    }
    let s = p.flystone_state().unwrap();
    assert_eq!(s.thrown, vec![2, 5]);
    p = play(&p, "黑7.二二").unwrap();
    p = play(&p, "华8.B二").unwrap();
    p = play(&p, "白9.AA").unwrap();
    p = play(&p, "黑10.A一").unwrap();
    assert_eq!(reason(&p, "华11.一二"), "no-flystone");
    assert_eq!(reason(&p, "白11.一二"), "legal");
    // The record survives a round trip through the position file.
    let back = p.to_setup().to_position("round trip").unwrap();
    assert_eq!(back, p);
}

#[test]
fn s3_random_flystone_due_makes_the_next_move_a_flower() {
    let mut setup = flystone("B").to_setup();
    setup.flystone = Some(FlystoneRecord {
        random: Some(Sides {
            black: vec![1, 2, 3],
            white: vec![4, 5, 6],
        }),
        thrown: vec![],
    });
    let mut p = setup
        .to_position("random flystones")
        .expect("a valid record");
    assert_eq!(p.turn().symbol(), '黑');
    p = play(&p, "三三").unwrap();
    assert_eq!(
        p.turn().symbol(),
        '华',
        "black's random flystone after turn 1"
    );
    assert_eq!(reason(&p, "白2.CC"), "wrong-turn");
    p = play(&p, "pass").unwrap();
    assert_eq!(p.turn().symbol(), '白');
    assert_eq!(p.flystone().unwrap().thrown, vec![2]);
}

#[test]
fn m16_team_wrong_seat_names_whose_turn_it_is() {
    let p = position(&format!(
        "rules: m3go-2016\nsize: 9\nmove: 61\ndiagram: |\n{}",
        "  . . . . . . . . .\n".repeat(9)
    ));
    let e = p
        .play_reported(&Move::parse("31C.三三", 9).unwrap())
        .unwrap_err();
    assert_eq!(e.reason.code(), "wrong-turn");
    let message = e.message.to_string();
    assert!(message.contains("it is A's turn"), "{message}");
    let (next, r) = p
        .play_reported(&Move::parse("31A.三三", 9).unwrap())
        .unwrap();
    assert_eq!(r.notation.to_string(), "31A.三三");
    assert_eq!(next.turn().symbol(), '白');
}

#[test]
fn rules_bad_input_lists_the_choices() {
    let e = Rules::preset("m3go-2017").unwrap_err().to_string();
    assert!(e.contains("m3go-2016") && e.contains("flystone"), "{e}");
    let e = from_yaml::<RulesSpec>("preset: dullstone\nflystones: 3\nbogus: 1\n", "f").unwrap_err();
    assert!(
        e.to_string().contains("unknown field `bogus`")
            && e.to_string().contains("team-grey-start")
    );
    let spec: RulesSpec = from_yaml("team-grey-start: 0\n", "f").unwrap();
    let e = spec.resolve().unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
    assert!(matches!(
        e.problems.as_slice(),
        [m3go_engine::rules::RulesProblem::OutOfRange {
            option: "team-grey-start",
            value: 0,
            ..
        }]
    ));
    let e = from_yaml::<Setup>(
        "rules: { preset: flystone, flystone-mode: D }\ndiagram: |\n  . . .\n  . . .\n  . . .\n",
        "f",
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("expected one of"),
        "{}",
        e.to_string()
    );
    let f: RulesField = from_yaml("{ preset: flystone, flystone-mode: b }", "f").unwrap();
    assert_eq!(
        f.resolve().unwrap().flystone_mode,
        m3go_engine::rules::FlystoneMode::B
    );
}

/// A deterministic pseudo-random settled position of `size` under `rules`.
fn scramble(rules: &Rules, size: usize, seed: u64, move_number: u32) -> Position {
    let mut state = seed;
    let mut board = Board::empty(size).unwrap();
    for i in 0..board.len() {
        let v = m3go_engine::game::order::splitmix64(&mut state) % 12;
        let s = match v {
            0..=2 => Some(m3go_engine::Stone::Black),
            3..=5 => Some(m3go_engine::Stone::White),
            6 => Some(m3go_engine::Stone::Flower),
            _ => None,
        };
        board.set(i, s);
    }
    // Settle: drop black/white upper strings without liberty until none is left.
    loop {
        let a = m3go_engine::Analysis::new(&board, rules);
        let dead: Vec<usize> = a
            .upper_strings
            .groups
            .iter()
            .filter(|g| g.colour.is_some() && g.liberties.is_empty())
            .flat_map(|g| g.points.clone())
            .collect();
        if dead.is_empty() {
            break;
        }
        for i in dead {
            board.set(i, None);
        }
    }
    let mut s = Setup {
        diagram: board.to_diagram(),
        size: Some(size),
        move_number: Some(move_number),
        ..Setup::default()
    };
    s.rules = RulesField::Name(rules.preset.to_string());
    s.to_position("scramble").expect("settled position")
}

#[test]
fn every_preset_legal_moves_all_play() {
    for name in Rules::PRESETS {
        let rules = Rules::preset(name).unwrap();
        for (k, n) in [1u32, 9, 10, 61, 63, 67].into_iter().enumerate() {
            let p = scramble(&rules, 7, 100 + k as u64, n);
            let legal = p.legal_moves();
            assert!(legal.contains(&Move::pass()), "{name} move {n}");
            for a in legal {
                let m = Move {
                    action: a.action,
                    number: None,
                    turn: None,
                };
                let (next, r) = p
                    .play_reported(&m)
                    .unwrap_or_else(|e| panic!("{name} move {n} {a:?}: {e}"));
                assert_eq!(next.move_number(), n + 1);
                // the written notation reads back to the same move
                let again = Move::parse_in(&r.notation.to_string(), p.rules(), 7).unwrap();
                assert!(p.play_reported(&again).is_ok(), "{name}: {}", r.notation);
            }
            for m in p.special_moves() {
                assert!(p.play_reported(&m).is_ok(), "{name} special {m:?}");
            }
        }
    }
}
