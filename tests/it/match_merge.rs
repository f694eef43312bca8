//! `m3go match --merge` is exact (issue 49): each results file begins with a header recording
//! the match (m3go-match-results/1), and the merge refuses files of other matches, missing or
//! doubled shards and games, and game lines that contradict themselves or the match's
//! schedule; a results file of any size is read as a stream.

use crate::common::m3go;
use serde_json::{json, Value};
use std::path::PathBuf;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-match-merge-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// The header of a results file of a match between `a` and `b`, `games` games, seed `seed`,
/// holding `lines` games of `shard` (null: the whole match).
fn header(games: u64, seed: u64, shard: Option<&str>, lines: usize) -> Value {
    json!({
        "format": "m3go-match-results/1",
        "selection": {
            "players": [
                {"name": "a", "gtp": false, "command_sha256": "aa"},
                {"name": "b", "gtp": false, "command_sha256": "bb"}
            ],
            "team": false,
            "gauntlet": false,
            "games": games,
            "scheduled": games,
            "size": 5,
            "rules": "m3go-2020",
            "rules_sha256": "cc",
            "seed": seed,
            "time_ms": null,
            "move_time_ms": 60000,
            "illegal": "forfeit",
            "openings": [],
            "openings_sha256": "dd"
        },
        "shard": shard,
        "games": lines,
        "stopped": false
    })
}

/// Game `n` of the match between `a` and `b` (a black in the odd games), won by black by half
/// a point.
fn game(n: u64) -> Value {
    let (black, white) = if n % 2 == 1 { ("a", "b") } else { ("b", "a") };
    json!({
        "format": "m3go-match-game/1",
        "game": n,
        "black": black,
        "white": white,
        "result": "B+0.5",
        "winner": black,
        "ending": "score",
        "margin_quarters": 2,
        "moves": 30,
        "replaced": 0,
        "time_ms": [10, 12],
        "sgf": format!("games/game-{n:03}.sgf")
    })
}

/// Writes a results file `name` in `dir`: `header`, then `games`; returns its path.
fn write(dir: &std::path::Path, name: &str, header: &Value, games: &[Value]) -> String {
    let mut text = format!("{header}\n");
    for g in games {
        text.push_str(&format!("{g}\n"));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a results file");
    path.to_string_lossy().into_owned()
}

/// Merges `files`; expects exit 2 with a message holding each of `says`; returns the message.
fn refused(files: &[&str], says: &[&str]) -> String {
    let mut args = vec!["match", "--merge"];
    args.extend(files);
    let (code, out, err) = m3go(&args);
    assert_eq!(code, Some(2), "{args:?}: {out}{err}");
    for s in says {
        assert!(err.contains(s), "expected `{s}` in: {err}");
    }
    assert!(!out.contains(" vs b:"), "a table was printed: {out}");
    err
}

/// The whole match of `games` games in one file, with game `n` replaced by `forged`; refused
/// with `says`.
fn forged(tag: &str, n: u64, forged: Value, says: &[&str]) {
    let dir = scratch(tag);
    let mut games: Vec<Value> = (1..=4).map(game).collect();
    games[(n - 1) as usize] = forged;
    let f = write(&dir, "all.jsonl", &header(4, 0, None, 4), &games);
    refused(&[&f], says);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two shards of one match merge; the merged --results merges again to the same table.
#[test]
fn the_shards_of_one_match_merge_and_the_merged_results_merge_again() {
    let dir = scratch("ok");
    let one = write(
        &dir,
        "1.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(3)],
    );
    let two = write(
        &dir,
        "2.jsonl",
        &header(4, 0, Some("2/2"), 2),
        &[game(2), game(4)],
    );
    let all = dir.join("all.jsonl").to_string_lossy().into_owned();
    let (code, out, err) = m3go(&["match", "--merge", &one, &two, "--results", &all]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("a vs b: 4 games, 2 wins 2 losses 0 draws"),
        "{out}"
    );
    let (code, again, err) = m3go(&["match", "--merge", &all]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(again, out);
    let text = std::fs::read_to_string(&all).expect("the merged results");
    let first: Value = serde_json::from_str(text.lines().next().unwrap_or("")).expect("JSON");
    crate::schema::assert_valid("match-results.schema.json", "the merged header", &first);
    assert_eq!(first["shard"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One shard of two merged alone is refused (before: exit 0 and half the table).
#[test]
fn a_missing_shard_is_refused() {
    let dir = scratch("missing-shard");
    let one = write(
        &dir,
        "1.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(3)],
    );
    refused(&[&one], &["shard(s) 2/2 missing"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A whole match with a game left out (its header counting the lines left) is refused.
#[test]
fn a_missing_game_is_refused() {
    let dir = scratch("missing-game");
    let f = write(
        &dir,
        "all.jsonl",
        &header(4, 0, None, 3),
        &[game(1), game(2), game(4)],
    );
    refused(&[&f], &["1 game(s) of the match missing: game 3"]);
    // a line removed without its header's count
    let f = write(
        &dir,
        "cut.jsonl",
        &header(4, 0, None, 4),
        &[game(1), game(2)],
    );
    refused(&[&f], &["has 2 game lines, its header says 4"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shards of two matches (another seed) are refused (before: merged without a word).
#[test]
fn shards_of_another_seed_are_refused() {
    let dir = scratch("seed");
    let one = write(
        &dir,
        "1.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(3)],
    );
    let two = write(
        &dir,
        "2.jsonl",
        &header(4, 7, Some("2/2"), 2),
        &[game(2), game(4)],
    );
    refused(
        &[&one, &two],
        &["results of different matches", "--seed 0 against 7"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shards of a match between other players (or the same names with other commands) are
/// refused.
#[test]
fn shards_of_other_players_are_refused() {
    let dir = scratch("players");
    let one = write(
        &dir,
        "1.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(3)],
    );
    let mut other = header(4, 0, Some("2/2"), 2);
    other["selection"]["players"][1]["name"] = json!("c");
    let games: Vec<Value> = [2, 4]
        .iter()
        .map(|&n| {
            let mut g = game(n);
            for k in ["black", "winner"] {
                g[k] = json!("c");
            }
            g
        })
        .collect();
    let two = write(&dir, "2.jsonl", &other, &games);
    refused(
        &[&one, &two],
        &["different matches", "players a, b against a, c"],
    );
    let mut commands = header(4, 0, Some("2/2"), 2);
    commands["selection"]["players"][1]["command_sha256"] = json!("ee");
    let two = write(&dir, "2c.jsonl", &commands, &[game(2), game(4)]);
    refused(&[&one, &two], &["the players' commands differ"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game given twice (the same file twice, or twice in a file) is refused.
#[test]
fn a_game_given_twice_is_refused() {
    let dir = scratch("twice");
    let f = write(
        &dir,
        "all.jsonl",
        &header(4, 0, None, 5),
        &[game(1), game(2), game(3), game(4), game(2)],
    );
    refused(&[&f], &["line 6: game 2 is given twice (also", "line 3)"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_winner_who_is_not_a_player_is_refused() {
    let mut g = game(2);
    g["winner"] = json!("z");
    forged(
        "not-a-player",
        2,
        g,
        &["line 3: winner `z` played neither black nor white"],
    );
}

#[test]
fn a_winner_contradicting_the_result_is_refused() {
    // black (b) won by half a point, the line says white (a) won
    let mut g = game(2);
    g["winner"] = json!("a");
    forged(
        "winner",
        2,
        g,
        &["winner `a` contradicts the game: expected `b`, whom the margin 2 favours"],
    );
    // the result says white won a game black won by the margin
    let mut g = game(1);
    g["result"] = json!("W+0.5");
    forged(
        "result",
        1,
        g,
        &["result `W+0.5` contradicts the winner, ending and margin: expected `B+0.5`"],
    );
    // a forfeit by the winner
    let mut g = game(1);
    g["ending"] = json!("forfeit");
    g["result"] = json!("B+F");
    g["margin_quarters"] = Value::Null;
    g["forfeit"] = json!({"player": "a", "colour": "black", "kind": "crash",
                          "move_number": 3, "message": "exit 1"});
    forged(
        "forfeit",
        1,
        g,
        &["the forfeit by `a` (black) contradicts the winner: expected a forfeit by `b` (white)"],
    );
}

#[test]
fn game_numbers_0_and_2_to_the_64_minus_1_are_refused() {
    let mut g = game(1);
    g["game"] = json!(0);
    forged("zero", 1, g, &["line 2: game number 0: expected 1 to 4"]);
    let mut g = game(1);
    g["game"] = json!(u64::MAX);
    forged(
        "max",
        1,
        g,
        &["line 2: game number 18446744073709551615: expected 1 to 4"],
    );
}

/// A game of another shard in a shard's file is refused.
#[test]
fn a_game_of_another_shard_is_refused() {
    let dir = scratch("foreign");
    let one = write(
        &dir,
        "1.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(2)],
    );
    let two = write(
        &dir,
        "2.jsonl",
        &header(4, 0, Some("2/2"), 2),
        &[game(3), game(4)],
    );
    refused(&[&one, &two], &["line 3: game 2 is not of shard 1/2"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn black_equal_to_white_is_refused() {
    let mut g = game(3);
    g["white"] = json!("a");
    forged(
        "same",
        3,
        g,
        &["black `a` and white `a`: expected black `a` and white `b`"],
    );
}

/// A time of 2^64−1 ms is refused (before: counted, and the JUnit time's sum wrapped round).
#[test]
fn a_time_of_2_to_the_64_minus_1_ms_is_refused() {
    let dir = scratch("time");
    let mut games: Vec<Value> = (1..=4).map(game).collect();
    games[3]["time_ms"] = json!([u64::MAX, 1]);
    let f = write(&dir, "all.jsonl", &header(4, 0, None, 4), &games);
    let junit = dir.join("m.xml").to_string_lossy().into_owned();
    let (code, out, err) = m3go(&["match", "--merge", &f, "--junit", &junit]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("line 5: a time of 18446744073709551615 ms: expected at most"),
        "{err}"
    );
    assert!(
        !std::path::Path::new(&junit).exists(),
        "a report was written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_file_is_refused() {
    let dir = scratch("empty");
    let path = dir.join("empty.jsonl");
    std::fs::write(&path, "").expect("a file");
    let f = path.to_string_lossy().into_owned();
    refused(&[&f], &["empty.jsonl: empty: expected the results"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A results file of an older m3go (game lines without a header) is refused, saying so.
#[test]
fn a_file_without_a_header_is_refused() {
    let dir = scratch("old");
    let path = dir.join("old.jsonl");
    let text: String = (1..=4).map(|n| format!("{}\n", game(n))).collect();
    std::fs::write(&path, text).expect("a file");
    let f = path.to_string_lossy().into_owned();
    refused(
        &[&f],
        &["line 1: a game line without the header `m3go-match-results/1`"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A whole match the SPRT stopped merges with the games it played; the same file whose
/// header does not say so is refused as missing games.
#[test]
fn a_match_the_sprt_stopped_merges_with_the_games_played() {
    let dir = scratch("sprt");
    let mut h = header(6, 0, None, 4);
    h["stopped"] = json!(true);
    let games: Vec<Value> = (1..=4).map(game).collect();
    let f = write(&dir, "stopped.jsonl", &h, &games);
    let (code, out, err) = m3go(&["match", "--merge", &f]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("a vs b: 4 games"), "{out}");
    let f = write(&dir, "cut.jsonl", &header(6, 0, None, 4), &games);
    refused(&[&f], &["2 game(s) of the match missing: game 5, 6"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A results file of 30,000 games (about 6 MB, past the 4 MiB a whole-file read allowed) is
/// merged, read as a stream.
#[test]
fn a_30000_game_results_file_is_merged() {
    let dir = scratch("large");
    let n = 30_000u64;
    let mut text = format!("{}\n", header(n, 0, None, n as usize));
    for k in 1..=n {
        let mut g = game(k);
        g["sgf"] = json!(format!("/srv/matches/a-vs-b/seed-0/games/game-{k:05}.sgf"));
        g["time_ms"] = json!([123_456, 654_321]);
        text.push_str(&format!("{g}\n"));
    }
    assert!(text.len() > 6_000_000, "{} bytes", text.len());
    let path = dir.join("large.jsonl");
    std::fs::write(&path, &text).expect("a file");
    let f = path.to_string_lossy().into_owned();
    let (code, out, err) = m3go(&["match", "--merge", &f]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("a vs b: 30000 games, 15000 wins 15000 losses 0 draws"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A header that contradicts itself (games scheduled against games per pairing, two players
/// of one name, a shard the SPRT stopped) is refused before its games are read.
#[test]
fn a_header_that_contradicts_itself_is_refused() {
    let dir = scratch("header");
    let games: Vec<Value> = (1..=4).map(game).collect();
    let mut h = header(4, 0, None, 4);
    h["selection"]["scheduled"] = json!(3);
    let f = write(&dir, "scheduled.jsonl", &h, &games);
    refused(
        &[&f],
        &["line 1: the header contradicts itself: 3 games scheduled with 4 games per pairing between 2 players: expected 4"],
    );
    let mut h = header(4, 0, None, 4);
    h["selection"]["players"][1]["name"] = json!("a");
    let f = write(&dir, "names.jsonl", &h, &games);
    refused(&[&f], &["player 2 is named `a` as another"]);
    let mut h = header(4, 0, Some("1/2"), 2);
    h["stopped"] = json!(true);
    let f = write(&dir, "stopped.jsonl", &h, &[game(1), game(3)]);
    refused(&[&f], &["stopped by the SPRT and a shard"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The whole match merged with one of its shards, or shards of two splits, are refused.
#[test]
fn a_whole_match_with_a_shard_or_two_splits_are_refused() {
    let dir = scratch("splits");
    let whole = write(
        &dir,
        "all.jsonl",
        &header(4, 0, None, 4),
        &(1..=4).map(game).collect::<Vec<_>>(),
    );
    let half = write(
        &dir,
        "1of2.jsonl",
        &header(4, 0, Some("1/2"), 2),
        &[game(1), game(3)],
    );
    refused(&[&half, &whole], &["line 2: game 1 is given twice"]);
    let third = write(
        &dir,
        "2of3.jsonl",
        &header(4, 0, Some("2/3"), 1),
        &[game(2)],
    );
    refused(
        &[&half, &third],
        &["the files are shards of different splits (of 2, 3 parts)"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
