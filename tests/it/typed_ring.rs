//! The ring around the engine typed end to end: a refused move of a list keeps the engine's
//! refusal (`ListedError::Refused` holds the `Illegal`, worded only when printed), and a game
//! the referee played keeps the position it ended on (`Played::position`, the one the record
//! replays to).

use m3go::conform::failure::ProgramFailure;
use m3go::referee::game::{play_game, GameSpec, PlayerRequest, Seat};
use m3go::tools::replay::{play_listed, ListedError, ListedMove};
use m3go_engine::formats::record::Record;
use m3go_engine::rules::RulesField;
use m3go_engine::{InputError, Move, Rules};
use serde_json::{json, Value};
use std::time::Duration;

/// The empty 5x5 board at move 1 under m3go-2020.
fn empty_5x5() -> m3go_engine::Position {
    let rules = Rules::m3go_2020();
    Record::new(5, Some(RulesField::of(&rules)))
        .start_position(&rules)
        .expect("the empty board")
}

#[test]
fn a_refused_listed_move_keeps_the_engines_refusal() {
    let start = empty_5x5();
    let moves = vec!["二二".to_string(), "二二".to_string()];
    let err = match play_listed(&start, &moves, "MOVE", true, |_| {}) {
        Err(e) => e,
        Ok(_) => panic!("the second stone on 二二 was played"),
    };
    // the refusal the engine gives for that move, from the position after the first
    let after = start
        .play_reported(&Move::parse_in("二二", start.rules(), 5).expect("reads"))
        .expect("legal")
        .0;
    let expected = after
        .play_reported(&Move::parse_in("二二", after.rules(), 5).expect("reads"))
        .expect_err("occupied");
    match &err {
        ListedError::Refused { at, illegal } => {
            assert_eq!(
                at,
                &ListedMove {
                    index: 1,
                    text: "二二".into(),
                    numbered: true
                }
            );
            assert_eq!(illegal, &expected);
        }
        other => panic!("not kept as a refusal: {other:?}"),
    }
    // worded as m3go play words it: an illegal move, numbered, with its text and refusal
    let worded = InputError::illegal_move(expected.to_string())
        .move_number(2)
        .text("二二");
    assert_eq!(err.to_string(), worded.to_string());
    assert_eq!(InputError::from(err).to_string(), worded.to_string());
}

#[test]
fn an_unread_listed_move_keeps_its_notation_problem() {
    let start = empty_5x5();
    let moves = vec!["二二".to_string(), "nowhere".to_string()];
    match play_listed(&start, &moves, "MOVE", false, |_| {}) {
        Err(ListedError::Unread { at, error }) => {
            assert_eq!(at.index, 1);
            assert!(!at.numbered);
            let again = Move::parse_in("nowhere", start.rules(), 5).expect_err("unread");
            assert_eq!(error, again);
        }
        Err(other) => panic!("not kept as unread: {other:?}"),
        Ok(_) => panic!("`nowhere` was played"),
    }
}

/// A player of the play protocol in the test's own process: it declares m3go-2020 and plays
/// its script's points in order, then passes.
struct Scripted {
    script: Vec<&'static str>,
    next: usize,
}

impl Seat for Scripted {
    fn ask(
        &mut self,
        request: &PlayerRequest,
        _timeout: Duration,
    ) -> Result<Value, ProgramFailure> {
        let id = request.id().to_value();
        if let PlayerRequest::Capabilities(_) = request {
            return Ok(json!({
                "id": id,
                "protocols": ["m3go-player/1"],
                "implementation": {"name": "scripted", "version": "1"},
                "capabilities": {"presets": ["m3go-2020"]},
            }));
        }
        let mv = self.script.get(self.next).copied().unwrap_or("pass");
        self.next += 1;
        Ok(json!({"id": id, "move": mv}))
    }
}

#[test]
fn a_played_game_keeps_the_position_it_ended_on() {
    let rules = Rules::m3go_2020();
    let spec = GameSpec {
        number: 1,
        name: "typed-ring-1".into(),
        names: ["a".into(), "b".into()],
        team: None,
        rules: rules.clone(),
        size: 5,
        opening: None,
        clock: None,
        move_time: Duration::from_secs(5),
        illegal_pass: true,
    };
    let mut black = Scripted {
        script: vec!["二二", "B二", "一B", "二一"],
        next: 0,
    };
    let mut white = Scripted {
        script: vec!["一二", "OB", "A二", "B一"],
        next: 0,
    };
    let played = play_game(&spec, &mut black, &mut white).expect("the game is refereed");
    assert!(played.record.moves.len() >= 8, "{:?}", played.record.moves);
    let (replayed, _) = played
        .record
        .replay_strict(&rules, None)
        .expect("the record replays");
    assert_eq!(played.position.to_setup(), replayed.to_setup());
    assert!(played.position.game_over());
}

/// A case naming a colour, a seat or an attribute that does not exist is refused when it is
/// read, naming the file and what was expected (it was read as a string and failed only as a
/// mismatch with the answer, an error of the case taken for one of the program).
#[test]
fn a_case_with_an_unknown_colour_is_refused_when_read() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/cases/m13-suicide-forbidden.yaml"
    ))
    .expect("the case");
    assert!(text.contains("player: white"));
    let dir = std::env::temp_dir().join(format!("m3go-typed-ring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("m13-suicide-forbidden.yaml");
    let path_text = path.to_string_lossy().to_string();
    std::fs::write(&path, &text).expect("written");
    let case = m3go::conform::case::Case::load(&path_text, None).expect("the case as it is");
    assert_eq!(
        case.expect.to_move.and_then(|t| t.player),
        Some(m3go_engine::Colour::White)
    );
    for (from, to) in [("player: white", "player: blue"), ("seat: C", "seat: E")] {
        std::fs::write(&path, text.replace(from, to)).expect("written");
        let err = match m3go::conform::case::Case::load(&path_text, None) {
            Err(e) => e.to_string(),
            Ok(c) => panic!("`{to}` was read: {:?}", c.expect.to_move),
        };
        assert!(err.contains(&path_text), "{err}");
        let word = &to[to.find(": ").expect("a value") + 2..];
        assert!(err.contains(word), "{err}");
        assert!(err.contains("expected"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `case` (a file of spec/cases) to a folder of its own with `from` replaced by `to`,
/// reads it, and returns the error (the file's path, the error's text).
fn read_changed(case: &str, from: &str, to: &str) -> (String, Result<String, String>) {
    let text = std::fs::read_to_string(format!(
        "{}/spec/cases/{case}.yaml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the case");
    assert!(text.contains(from), "{case} has no `{from}`");
    let dir = std::env::temp_dir().join(format!(
        "m3go-typed-ring-{}-{case}-{}",
        std::process::id(),
        to.len()
    ));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join(format!("{case}.yaml"));
    let path_text = path.to_string_lossy().to_string();
    std::fs::write(&path, text.replace(from, to)).expect("written");
    let read = match m3go::conform::case::Case::load(&path_text, None) {
        Ok(c) => Ok(format!("{:?}", c.expect)),
        Err(e) => Err(e.to_string()),
    };
    let _ = std::fs::remove_dir_all(&dir);
    (path_text, read)
}

/// A case naming a stone kind, a winner, a refusal or the players of a forbidden point that do
/// not exist is refused when it is read, naming the file, the value and the values expected; a
/// `forbidden` reason that is a refusal but not a flower's forbidden point is refused too. The
/// cases as written read into the engine's enums.
#[test]
fn a_case_with_an_unknown_kind_winner_or_reason_is_refused_when_read() {
    let path = |case: &str| format!("{}/spec/cases/{case}.yaml", env!("CARGO_MANIFEST_DIR"));
    let case = m3go::conform::case::Case::load(&path("cov-m20-replay-pass"), None)
        .expect("the case as it is");
    assert_eq!(
        case.expect.to_move.and_then(|t| t.kind),
        Some(m3go_engine::StoneKind::Flower)
    );
    let forbidden = case.expect.forbidden.expect("a forbidden point");
    assert_eq!(
        forbidden.get("OA").map(|f| f.reason),
        Some(m3go_engine::Refusal::CapturePoint)
    );
    let illegal = case.expect.illegal.expect("refused moves");
    assert_eq!(
        illegal.iter().map(|i| i.reason.code()).collect::<Vec<_>>(),
        ["capture-point", "wrong-turn"]
    );
    let case = m3go::conform::case::Case::load(&path("cov-m16-board-points"), None)
        .expect("the case as it is");
    assert_eq!(
        case.expect.score.and_then(|s| s.winner),
        Some(m3go_engine::judge::Winner::Black)
    );
    let case = m3go::conform::case::Case::load(&path("disputed-forbidden-owner-opponent"), None)
        .expect("the case as it is");
    assert_eq!(
        case.expect
            .forbidden
            .and_then(|f| f.get("四四").and_then(|f| f.for_player)),
        Some(m3go::conform::case::ForPlayers::White)
    );

    for (case, from, to, word, expected) in [
        (
            "cov-m20-replay-pass",
            "kind: flower",
            "kind: grey",
            "grey",
            "flower",
        ),
        (
            "cov-m20-replay-pass",
            "\"OA\": { reason: capture-point }",
            "\"OA\": { reason: blocked }",
            "blocked",
            "tigers-mouth",
        ),
        (
            "cov-m20-replay-pass",
            "\"OA\": { reason: capture-point }",
            "\"OA\": { reason: suicide }",
            "suicide",
            "one-liberty-eye",
        ),
        (
            "cov-m20-replay-pass",
            "reason: wrong-turn",
            "reason: out-of-turn",
            "out-of-turn",
            "wrong-turn",
        ),
        (
            "cov-m16-board-points",
            "winner: black",
            "winner: nobody",
            "nobody",
            "draw",
        ),
        (
            "disputed-forbidden-owner-opponent",
            "for: white",
            "for: grey",
            "grey",
            "both",
        ),
    ] {
        let (file, read) = read_changed(case, from, to);
        let err = match read {
            Err(e) => e,
            Ok(expect) => panic!("`{to}` was read: {expect}"),
        };
        assert!(err.contains(&file), "{err}");
        assert!(err.contains(word), "{err}");
        assert!(err.contains("expected") && err.contains(expected), "{err}");
    }
}
