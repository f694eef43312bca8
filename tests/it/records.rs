//! Game records: the move-number notation of whole games (004), SGF with m3go's extension, the
//! seven real professional records of spec/records (spec/records/README.md), and 003's
//! mechanical replay.

use m3go::tools::replay::{mechanical, strict, Entry, EyeEvent, LoggedString, Status};
use m3go_engine::formats::record::{two_colour_rules, Record};
use m3go_engine::formats::sgf::parse_record;
use m3go_engine::game::Prefix;
use m3go_engine::{Action, Attribute, Labels, Move, Notation, Point, Rules};
use proptest::prelude::*;
use std::process::Command;

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/records");

/// The seven records with (moves, stones captured by black, stones captured by white), as the
/// records' README gives them (the data's own replay of the games).
const REAL: [(&str, usize, usize, usize); 7] = [
    ("alphago-lee-sedol-2016-g1.sgf", 186, 4, 3),
    ("alphago-lee-sedol-2016-g2.sgf", 211, 3, 5),
    ("alphago-lee-sedol-2016-g3.sgf", 176, 4, 6),
    ("alphago-lee-sedol-2016-g4.sgf", 180, 2, 11),
    ("alphago-lee-sedol-2016-g5.sgf", 280, 14, 18),
    ("alphago-fan-hui-2015-g1.sgf", 271, 2, 9),
    ("alphago-fan-hui-2015-g2.sgf", 183, 3, 1),
];

/// The folder of the real records: `M3GO_GAMES_DIR`, or spec/records of the checkout. The tests
/// that need the records skip without them.
fn games_dir() -> Option<String> {
    let d = std::env::var("M3GO_GAMES_DIR").unwrap_or_else(|_| GAMES.to_string());
    let d = std::path::Path::new(&d);
    d.is_dir().then(|| d.to_string_lossy().into_owned())
}

fn real(name: &str) -> Option<Record> {
    let dir = games_dir()?;
    let path = format!("{dir}/{name}");
    let text = std::fs::read_to_string(&path).ok()?;
    Some(parse_record(&text, &path).unwrap_or_else(|e| panic!("{e}")))
}

fn m3go() -> &'static str {
    crate::common::BIN
}

#[test]
fn sgf_real_records_load_with_their_move_counts() {
    let Some(_) = games_dir() else {
        eprintln!("skipped: {GAMES} is not there");
        return;
    };
    for (name, moves, _, _) in REAL {
        let r = real(name).unwrap_or_else(|| panic!("{name} unreadable"));
        assert_eq!(r.size, 19, "{name}");
        assert_eq!(r.moves.len(), moves, "{name}");
        assert!(
            r.rules.is_none(),
            "{name}: an ordinary SGF names no m3go rules"
        );
        assert!(r.moves.iter().all(|m| m.action != Action::Pass), "{name}");
    }
}

#[test]
fn d3_notation_real_record_converts_to_a_game_file_and_back() {
    let Some(r) = real("alphago-lee-sedol-2016-g1.sgf") else {
        return;
    };
    assert_eq!(r.info("original-rules"), Some("Chinese"));
    let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
    let text = r
        .to_game_text(&rules, Labels::Chinese)
        .unwrap_or_else(|e| panic!("{e}"));
    let back = Record::parse_game_text(
        &text,
        "g1.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.moves.len(), 186);
    assert_eq!(back.info("white"), Some("AlphaGo"));
    let again = back.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, rules);
    let rep =
        strict(&back, &again, None, m3go_engine::Engine::Fast).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.captured_counts(), (3, 4, 0));
}

#[test]
fn sgf_fan_hui_non_standard_properties_still_load() {
    let Some(r) = real("alphago-fan-hui-2015-g1.sgf") else {
        return;
    };
    // KO[7.5] is not FF[4] (KO takes no value): kept as the komi information; RD is the date
    assert_eq!(r.info("komi"), Some("7.5"));
    assert_eq!(r.info("date"), Some("2015-10-05"));
    assert_eq!(r.info("black"), Some("FanHui"));
}

#[test]
fn go_capture_two_colour_replay_of_real_records_matches_their_capture_counts() {
    let Some(_) = games_dir() else {
        return;
    };
    let rules = two_colour_rules().unwrap_or_else(|e| panic!("{e}"));
    for (name, moves, by_black, by_white) in REAL {
        let r = real(name).unwrap_or_else(|| panic!("{name}"));
        let rep = strict(&r, &rules, None, m3go_engine::Engine::Fast)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rep.entries.len(), moves, "{name}");
        let (black_lost, white_lost, flowers) = rep.captured_counts();
        assert_eq!(
            (white_lost, black_lost, flowers),
            (by_black, by_white, 0),
            "{name}"
        );
    }
}

#[test]
fn m20_replay_of_every_real_record_runs_to_the_end_and_logs_each_move() {
    let Some(_) = games_dir() else {
        return;
    };
    let rules = Rules::m3go_2020();
    let codes = [
        "occupied",
        "suicide",
        "ko",
        "capture-point",
        "one-liberty-eye",
        "tigers-mouth",
    ];
    for (name, moves, _, _) in REAL {
        let r = real(name).unwrap_or_else(|| panic!("{name}"));
        let rep = mechanical(&r, &rules, None, m3go_engine::Engine::Fast)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rep.entries.len(), moves, "{name}");
        assert_eq!(rep.position.move_number() as usize, moves + 1, "{name}");
        assert!(
            !rep.position.game_over(),
            "{name}: replaced moves never end the game"
        );
        for (e, rp) in rep.entries.iter().zip(&rep.reports) {
            // the turn comes from the 10-move cycle, whatever colour the SGF gave
            let sym = e.notation.to_string().chars().next().unwrap_or(' ');
            let want = match e.number % 10 {
                9 => '华',
                0 => '花',
                k if k % 2 == 1 => '黑',
                _ => '白',
            };
            assert_eq!(sym, want, "{name} move {}", e.number);
            if let Status::Replaced { reason, clause, .. } = &e.status {
                assert!(codes.contains(&reason.code()), "{name}: {reason}");
                assert!(!clause.is_empty());
                assert_eq!(rp.action, Action::Pass);
            }
            // the log accounts for exactly the stones the move removed
            let logged: usize = e.captured.iter().map(|s| s.points.len()).sum();
            assert_eq!(logged, rp.captured.len(), "{name} move {}", e.number);
            assert!(e
                .line_zh()
                .starts_with(&e.notation.to_string().replace("pass", "虚着")));
        }
        assert!(
            rep.entries.iter().any(|e| e.replaced()),
            "{name}: a Go record always meets some flower forbidden point"
        );
    }
}

/// A log name written as 003 writes it (`CO*`, `EO`), typed.
fn log_name(text: &str) -> m3go::tools::replay::LogName {
    let (core, several) = match text.strip_suffix('*') {
        Some(core) => (core, true),
        None => (text, false),
    };
    m3go::tools::replay::LogName {
        first: Some(m3go_engine::Point::parse(core, 19).expect("a point")),
        several,
    }
}

/// A record's move at a point, typed.
fn source(text: &str) -> m3go_engine::Action {
    m3go_engine::Action::Place(m3go_engine::Point::parse(text, 19).expect("a point"))
}

fn logged(kind: &'static str, name: &str) -> LoggedString {
    LoggedString {
        kind,
        attribute: None,
        name: log_name(name),
        points: vec![],
    }
}

fn change(name: &str, from: Attribute, to: Attribute) -> m3go::tools::replay::Change {
    m3go::tools::replay::Change {
        name: log_name(name),
        points: vec![],
        from,
        to,
    }
}

/// A numbered move's notation as the log holds it, typed.
fn notation(text: &str) -> Notation {
    let m = Move::parse(text, 19).expect("a numbered move");
    Notation {
        prefix: Prefix::Numbered(m.turn.expect("a turn"), m.number.expect("a number")),
        action: m.action,
    }
}

#[test]
fn m20_replay_log_line_reads_like_003_move_301() {
    // 003: 黑301.DO，提吃白棋串CO*和EO，并为黑棋串DA*做出私眼CO*，中性花棋串EA/CA皆变为黑性花棋串
    let e = Entry {
        number: 301,
        notation: notation("黑301.DO"),
        source: source("DO"),
        status: Status::Played,
        captured: vec![logged("white", "CO*"), logged("white", "EO")],
        eyes_made: vec![EyeEvent {
            string: logged("black", "DA*"),
            eyes: vec![log_name("CO*")],
        }],
        eyes_lost: vec![],
        attribute_changes: vec![
            change("EA", Attribute::Neutral, Attribute::Black),
            change("CA", Attribute::Neutral, Attribute::Black),
        ],
    };
    assert_eq!(
        e.line_zh(),
        "黑301.DO，提吃白棋串CO*和EO，并为黑棋串DA*做出私眼CO*，中性花棋串EA/CA皆变为黑性花棋串。"
    );
    assert_eq!(
        e.line_en(),
        "黑301.DO: played; captures white strings CO* and EO; makes private eye CO* for black string DA*; neutral flower strings EA, CA become black."
    );
    // 003: 白298.G六，为白棋串F六*做出私眼G七和私眼I七*，中性花棋串G五*变为白性花棋串
    let e = Entry {
        number: 298,
        notation: notation("白298.G六"),
        source: source("G六"),
        status: Status::Played,
        captured: vec![],
        eyes_made: vec![EyeEvent {
            string: logged("white", "F六*"),
            eyes: vec![log_name("G七"), log_name("I七*")],
        }],
        eyes_lost: vec![],
        attribute_changes: vec![
            change("G五*", Attribute::Neutral, Attribute::White),
            change("F九*", Attribute::Black, Attribute::Neutral),
        ],
    };
    assert_eq!(
        e.line_zh(),
        "白298.G六，为白棋串F六*做出私眼G七和私眼I七*，中性花棋串G五*变为白性花棋串，黑性花棋串F九*变为中性花棋串。"
    );
}

#[test]
fn m20_replay_replaced_pass_names_reason_and_clause() {
    // 华9 on the only liberty of the white corner stone 二二: a capture point
    let r = Record::parse_game_text(
        "size: 5\nBB 二二 一二 B二 OB A二 一B B一 二一 O二",
        "t",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rep = mechanical(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast)
        .unwrap_or_else(|e| panic!("{e}"));
    let e = &rep.entries[8];
    assert_eq!(
        e.line_zh(),
        "华9.虚着（原谱二一：花子“提吃点”禁着，capture-point，M20-FORBID-CAPTURE）。"
    );
    assert!(e.line_en().contains("capture point"), "{}", e.line_en());
    // 花10 is played: the flower at O二 is not forbidden
    assert_eq!(rep.entries[9].status, Status::Played);
}

#[test]
fn m20_replay_passes_do_not_end_the_game_but_record_passes_do() {
    // moves 9 and 10 are flowers on capture points / forbidden; two replaced passes in a row
    // must not end the game; the record's own two passes at 11 and 12 do, and a move after
    // them is refused with its number.
    let text = "size: 5\nBB 二二 一二 B二 OB A二 一B B一 二一 二一 pass pass 一O";
    let r = Record::parse_game_text(text, "t", m3go_engine::formats::record::StartFiles::Refused)
        .unwrap_or_else(|e| panic!("{e}"));
    let rules = Rules::m3go_2020();
    let rep = mechanical(&r, &rules, Some(12), m3go_engine::Engine::Fast)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(rep.entries[8].replaced() && rep.entries[9].replaced());
    assert_eq!(rep.entries[10].status, Status::RecordPass);
    assert!(rep.position.game_over());
    let err = mechanical(&r, &rules, None, m3go_engine::Engine::Fast).unwrap_err();
    assert!(err.to_string().contains("move 13"), "{err}");
    assert!(err.to_string().contains("line 2"), "{err}");
}

#[test]
fn m20_replay_ignores_the_sgf_colours() {
    let r = parse_record("(;SZ[5];W[aa];W[bb];B[cc])", "t").unwrap_or_else(|e| panic!("{e}"));
    let rep = mechanical(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast)
        .unwrap_or_else(|e| panic!("{e}"));
    let n: Vec<String> = rep.entries.iter().map(|e| e.notation.to_string()).collect();
    assert_eq!(n, ["黑1.B二", "白2.A一", "黑3.OO"]);
    // a strict replay takes the SGF's colours at their word
    let e = strict(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast).unwrap_err();
    assert!(e.to_string().contains("move 1"), "{e}");
    assert!(e.to_string().contains("wrong-turn"), "{e}");
}

#[test]
fn d3_notation_wrong_colour_for_the_move_number_is_refused_with_move_and_line() {
    let r = Record::parse_game_text(
        "rules: m3go-2020\nsize: 9\n黑1.OO 白2.一一\n黑3.AA 白4.二二 黑5.BB 白6.三三 白7.CC",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = strict(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast).unwrap_err();
    assert!(e.to_string().contains("move 7"), "{e}");
    assert!(e.to_string().contains("g.txt line 4"), "{e}");
    assert!(e.to_string().contains("black stone (黑)"), "{e}");
    // the flower turn: 黑9 instead of 华9
    let r = Record::parse_game_text(
        "size: 9\nOO 一一 AA 二二 BB 三三 CC 四四 黑9.DD",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = strict(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast).unwrap_err();
    assert!(e.to_string().contains("move 9"), "{e}");
    assert!(e.to_string().contains("华"), "{e}");
}

#[test]
fn go_end_strict_replay_refuses_a_move_after_the_end_with_its_number() {
    let r = Record::parse_game_text(
        "size: 5\npass pass 一一",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = strict(&r, &Rules::m3go_2020(), None, m3go_engine::Engine::Fast).unwrap_err();
    assert!(e.to_string().contains("move 3"), "{e}");
    assert!(e.to_string().contains("game-over"), "{e}");
    let e = Record::parse_game_text(
        "move: 99999999999\npass",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
}

#[test]
fn d3_notation_game_file_round_trips_through_sgf_in_both_label_systems() {
    let text = "rules: dullstone\nsize: 9\nblack: A\nwhite: B\n\
                黑1.OO 白2.一一 黑3.AA 白4.二二 黑5.BB 白6.三三 黑7.CC 白8.四四 华9.DD 花10.pass\n\
                黑11.四D";
    let r = Record::parse_game_text(
        text,
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
    let rep = strict(&r, &rules, None, m3go_engine::Engine::Fast).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.entries.len(), 11);
    let sgf = r.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
    assert!(sgf.contains("B[ee]FL[]") || sgf.contains("FL[]"), "{sgf}");
    assert!(sgf.contains("RU[dullstone]"), "{sgf}");
    assert!(sgf.contains("PB[A]"), "{sgf}");
    let back = parse_record(&sgf, "out.sgf").unwrap_or_else(|e| panic!("{e}"));
    let acts = |r: &Record| -> Vec<(u32, Action, Option<char>)> {
        r.moves
            .iter()
            .map(|m| (m.number, m.action, m.claimed.map(|t| t.symbol())))
            .collect()
    };
    assert_eq!(acts(&back), acts(&r));
    assert_eq!(back.resolve_rules(None).ok(), Some(rules.clone()));
    let latin = r
        .to_game_text(&rules, Labels::Latin)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(latin.contains("U9.dd"), "{latin}");
    let chinese = back
        .to_game_text(&rules, Labels::Chinese)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(chinese.contains("华9.DD 花10.pass"), "{chinese}");
    for t in [latin, chinese] {
        let again = Record::parse_game_text(
            &t,
            "again",
            m3go_engine::formats::record::StartFiles::Refused,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(acts(&again), acts(&r));
    }
}

#[test]
fn sgf_broken_files_get_clear_errors() {
    let cases = [
        ("(;SZ[19];B[pd];W[dd", "line 1"),
        ("(;SZ[19];B[pd];W[dd]", "open game tree"),
        (";B[pd]", "not an SGF game"),
        ("(;SZ[9];B[ee];W[pp])", "move 2"),
        ("(;SZ[9];B[ee];W[e])", "move 2"),
        ("(;SZ[20])", "SZ"),
        ("(;SZ[9:7])", "square"),
        ("(;SZ[9];B[ee]W[ff])", "two moves"),
        ("(;SZ[9];B[ee];AB[aa])", "set-up"),
        ("(;SZ[9];B[ee];W[ff]MN[7])", "MN"),
    ];
    for (text, want) in cases {
        let e = parse_record(text, "x.sgf").unwrap_err();
        assert!(e.to_string().contains(want), "`{text}`: {e}");
        assert!(e.to_string().starts_with("x.sgf"), "`{text}`: {e}");
    }
    // tt is the old pass on boards up to 19
    let r = parse_record("(;SZ[9];B[tt])", "x").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.moves[0].action, Action::Pass);
}

#[test]
fn record_longer_than_the_board_allows_is_refused() {
    let moves = vec!["pass"; 10 * 9 + 1].join(" ");
    let e = Record::parse_game_text(
        &format!("size: 3\n{moves}"),
        "g",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_err();
    assert!(e.to_string().contains("limited to 90 moves"), "{e}");
    let sgf = format!("(;SZ[3]{})", ";B[]".repeat(91));
    let e = parse_record(&sgf, "s").unwrap_err();
    assert!(e.to_string().contains("move 91"), "{e}");
}

#[test]
fn sgf_set_up_stones_and_flowers_round_trip() {
    let text = "(;FF[4]GM[1]SZ[5]RU[m3go-2020]AB[aa][ab]AW[ee]AF[cc];B[dd]FL[]MN[9];W[bb]FL[])";
    let r = parse_record(text, "t").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.first_move, 9);
    let start = r.start.clone().unwrap_or_else(|| panic!("no start"));
    assert!(start.diagram.contains('#'));
    let rules = Rules::m3go_2020();
    let rep = strict(&r, &rules, None, m3go_engine::Engine::Fast).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.entries[0].notation.to_string(), "华9.一A");
    let out = r.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
    let back = parse_record(&out, "o").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.start.map(|s| s.diagram), Some(start.diagram));
    assert_eq!(back.first_move, 9);
}

#[test]
fn cli_replay_writes_a_position_that_play_continues() {
    let Some(dir) = games_dir() else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("m3go-records-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap_or_else(|e| panic!("{e}"));
    let pos = tmp.join("pos.yaml");
    let sgf_out = tmp.join("replayed.sgf");
    let out = Command::new(m3go())
        .args(["replay", "--mechanical", "--to", "60", "--gloss", "-o"])
        .arg(&pos)
        .arg("--save")
        .arg(&sgf_out)
        .arg(format!("{dir}/alphago-lee-sedol-2016-g5.sgf"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("黑1."), "{text}");
    assert!(text.contains("花60."), "{text}");
    assert!(text.contains("机械式排局至第60手"), "{text}");
    assert!(text.contains("mechanical replay to move 60"), "{text}");
    // the position continues in the documents' notation
    let json = Command::new(m3go())
        .args(["analyze", "--format", "json"])
        .arg(&pos)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value =
        serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["move"], 61);
    let first = v["legal_moves"][0]
        .as_str()
        .unwrap_or_else(|| panic!("no legal move"))
        .to_string();
    assert!(first.starts_with("黑61."), "{first}");
    let play = Command::new(m3go())
        .arg("play")
        .arg(&pos)
        .arg(&first)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        play.status.success(),
        "{}",
        String::from_utf8_lossy(&play.stderr)
    );
    // the saved record is the m3go game: flower moves carry FL[], and it replays strictly
    let saved = std::fs::read_to_string(&sgf_out).unwrap_or_else(|e| panic!("{e}"));
    assert!(saved.contains("FL[]"));
    let back = parse_record(&saved, "saved").unwrap_or_else(|e| panic!("{e}"));
    let rules = back.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
    let rep =
        strict(&back, &rules, None, m3go_engine::Engine::Fast).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.entries.len(), 60);
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn cli_errors_carry_the_move_number_and_exit_2() {
    let tmp = std::env::temp_dir().join(format!("m3go-records-err-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap_or_else(|e| panic!("{e}"));
    let g = tmp.join("bad.txt");
    std::fs::write(&g, "size: 9\n黑1.OO 黑2.一一\n").unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(m3go())
        .arg("replay")
        .arg(&g)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 2"), "{err}");
    let s = tmp.join("bad.sgf");
    std::fs::write(&s, "(;SZ[19];B[pd];W[dd").unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(m3go())
        .args(["replay", "--mechanical"])
        .arg(&s)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never closed"));
    let _ = std::fs::remove_dir_all(&tmp);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// M20-REPLAY: a mechanical replay never panics, whatever the record holds.
    #[test]
    fn m20_replay_never_panics_on_random_records(
        moves in proptest::collection::vec((0u8..7, 0u8..7, 0u8..12), 0..70)
    ) {
        let body: String = moves
            .iter()
            .map(|&(x, y, p)| {
                if p == 0 {
                    ";B[]".to_string()
                } else {
                    format!(";W[{}{}]", (b'a' + x) as char, (b'a' + y) as char)
                }
            })
            .collect();
        let r = parse_record(&format!("(;SZ[7]{body})"), "p").map_err(|e| TestCaseError::fail(e.to_string()))?;
        for rules in [Rules::m3go_2020(), Rules::preset("dullstone").map_err(|e| TestCaseError::fail(e.to_string()))?] {
            match mechanical(&r, &rules, None, m3go_engine::Engine::Fast) {
                Ok(rep) => prop_assert!(rep.entries.len() <= moves.len()),
                // only the record's own passes may end the game early
                Err(e) => prop_assert!(e.to_string().contains("ended with the passes"), "{}", e),
            }
        }
    }

    /// SGF reading never panics on arbitrary text.
    #[test]
    fn sgf_reader_never_panics(s in "\\PC{0,80}") {
        let _ = parse_record(&s, "p");
        let _ = parse_record(&format!("(;{s})"), "p");
    }
}

#[test]
fn record_points_are_the_tengen_origin_coordinates() {
    // SGF aa is the top-left corner: (-9, 9) on 19x19
    let r = parse_record("(;SZ[19];B[aa];W[ss];B[jj])", "t").unwrap_or_else(|e| panic!("{e}"));
    let pts: Vec<Action> = r.moves.iter().map(|m| m.action).collect();
    assert_eq!(
        pts,
        [
            Action::Place(Point::new(-9, 9)),
            Action::Place(Point::new(9, -9)),
            Action::Place(Point::new(0, 0))
        ]
    );
}

/// An SGF with comments, game information and time settings goes through `m3go convert` to a
/// game file and back to SGF with all of them, and one komi (issue 14's done-when).
#[test]
fn sgf_convert_keeps_comments_game_information_and_time_both_ways() {
    let dir = std::env::temp_dir().join(format!("m3go-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sgf = dir.join("c.sgf");
    std::fs::write(
        &sgf,
        "(;FF[4]GM[1]SZ[9]RU[m3go-2020]EV[Cup #5: final]PB[A]PW[W]TM[300]OT[3x30 byo-yomi]GN[g1]C[root comment]\n;B[ee]C[first move]\n;W[cc];B[];W[gg]C[end])",
    )
    .expect("write");
    let txt = dir.join("c.txt");
    let back = dir.join("back.sgf");
    for (from, to) in [(&sgf, &txt), (&txt, &back)] {
        let out = std::process::Command::new(m3go())
            .args(["convert", &from.to_string_lossy(), &to.to_string_lossy()])
            .output()
            .expect("run m3go");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let game = std::fs::read_to_string(&txt).expect("game file");
    for want in [
        "event: \"Cup #5: final\"",
        "time: 300",
        "overtime: 3x30 byo-yomi",
        "comment: root comment",
        "{first move}",
        "{end}",
    ] {
        assert!(game.contains(want), "{want} missing:\n{game}");
    }
    let text = std::fs::read_to_string(&back).expect("back");
    for want in [
        "EV[Cup #5\\: final]",
        "PB[A]",
        "PW[W]",
        "TM[300]",
        "OT[3x30 byo-yomi]",
        "GN[g1]",
        "C[root comment]",
        ";B[ee]C[first move]",
        ";W[gg]C[end]",
    ] {
        assert!(text.contains(want), "{want} missing:\n{text}");
    }
    assert_eq!(text.matches("KM[").count(), 1, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20 (D30): an ordinary handicap SGF — `AB` set-up stones, white moving first, with or
/// without `PL[W]` — replays strictly as two-colour Go from move 2 and converts to SGF and back
/// to the same moves; `PL` contradicting the first move is an error naming it.
#[test]
fn sgf_handicap_games_replay_strictly_and_convert() {
    for (name, text) in [
        (
            "h-no-pl.sgf",
            "(;FF[4]GM[1]SZ[9]HA[2]KM[0.5]AB[cc][gg];W[ee];B[dc];W[cd];B[])",
        ),
        (
            "h-pl.sgf",
            "(;FF[4]GM[1]SZ[9]HA[2]AB[cc][gg]PL[W];W[ee];B[dc];W[cd];B[])",
        ),
    ] {
        let r = parse_record(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.first_move, 2, "{name}");
        assert!(r.start.is_some(), "{name}");
        let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
        let rep = strict(&r, &rules, None, m3go_engine::Engine::Fast)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rep.entries.len(), 4, "{name}");
        assert_eq!(rep.entries[0].notation.to_string(), "白2.OO", "{name}");
        // the two set-up stones and the three played stones
        let b = rep.position.board();
        let stones = (0..b.len()).filter(|&i| b.get(i).is_some()).count();
        assert_eq!(stones, 5, "{name}");
        let sgf = r.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(sgf.contains("AB[") && sgf.contains("W[ee]MN[2]"), "{sgf}");
        let back = parse_record(&sgf, "back.sgf").unwrap_or_else(|e| panic!("{e}\n{sgf}"));
        let actions = |r: &Record| {
            r.moves
                .iter()
                .map(|m| (m.number, m.action))
                .collect::<Vec<_>>()
        };
        assert_eq!(actions(&back), actions(&r), "{sgf}");
    }
    let e = parse_record("(;SZ[9]AB[cc]PL[B];W[ee])", "pl.sgf").unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("pl.sgf")
            && msg.contains("PL[B] says black moves first, but the first move is W[ee]"),
        "{msg}"
    );
    // PL[W] without moves: white's move 2 is next
    let r = parse_record("(;SZ[9]AB[cc][gg]PL[W])", "pl-w.sgf").unwrap_or_else(|e| panic!("{e}"));
    let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
    let p = r.start_position(&rules).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.move_number(), 2);
}

/// Issue 20: a komi the record cannot hold is an error naming the file and the property, with
/// its value as written (`KM[1e400]`, not `inf`).
#[test]
fn sgf_km_errors_name_the_file_and_the_property_as_written() {
    for (text, says) in [
        (
            "(;SZ[9]KM[1e400];B[ee])",
            "k.sgf: KM[1e400]: expected a number of points that is a multiple of 0.25",
        ),
        ("(;SZ[9]KM[abc];B[ee])", "k.sgf: KM[abc]: expected"),
        ("(;SZ[9]KO[0.3];B[ee])", "k.sgf: KO[0.3]: expected"),
        (
            "(;SZ[9]RU[m3go-2020]KM[1e400];B[ee])",
            "k.sgf: KM[1e400]: the record's komi disagrees with the komi 0",
        ),
    ] {
        let e = parse_record(text, "k.sgf").unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
        assert!(!e.contains("inf"), "{text}: {e}");
    }
    let e = Record::parse_game_text(
        "size: 9\nkomi: 1e400\n黑1.O0\n",
        "k.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("k.txt") && e.contains("komi: 1e400"), "{e}");
}
