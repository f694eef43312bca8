//! Writes the seed corpora of the fuzz targets from the conformance cases:
//! `cargo run --profile test --example seed_corpora -- spec/cases fuzz/corpus` (fuzz/smoke.sh
//! runs it, in the test profile so that CI reuses its `cargo test` build).
//! position_yaml gets each case's position as YAML; notation each move, probe and point the
//! case names; moves the position with the case's moves (ArbGame bytes); eye_simulation the 9×9
//! corners of each board that hold stones (ArbEyeCase bytes), in both closed-region readings;
//! protocol each case's request as one JSON line; sgf_record and game_file the game each case
//! plays (its position and moves) written as SGF and as a game file (game_header gets the game
//! files too), and the suite's records (spec/records) and the professional games of
//! shared/data/games (where it lies beside the repository) in both formats, whole and cut to
//! their first 8 and 40 moves; the bad-input suite (tests/bad_input) its files as they are;
//! player_reader three players' outputs written here.

use m3go::conform::case::Case;
use m3go::conform::suite::case_files;
use m3go_engine::formats::record::Record;
use m3go_engine::rules::ClosedRegion;
use m3go_engine::testing::{encode_eye_case, encode_game, MoveChoice, ODD_SIZES};
use m3go_engine::{Action, Board, Labels, Move, Position};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases_dir = args.first().map(String::as_str).unwrap_or("spec/cases");
    let out = args.get(1).map(String::as_str).unwrap_or("fuzz/corpus");
    if let Err(e) = run(cases_dir, out) {
        eprintln!("seed_corpora: {e}");
        std::process::exit(2);
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The 9×9 corner of `b` whose top-left point is (row, column) `(r0, c0)`.
fn crop(b: &Board, r0: usize, c0: usize) -> Option<Board> {
    let mut out = Board::empty(9).ok()?;
    for r in 0..9 {
        for c in 0..9 {
            out.set(r * 9 + c, b.get((r0 + r) * b.size() + c0 + c));
        }
    }
    Some(out)
}

/// The game a case plays (its position, then its moves as far as they are legal) as an SGF seed
/// and, when it starts on an empty board, a game-file seed.
fn write_records(out: &Path, id: &str, pos: &Position, moves: &[String]) -> Result<(), String> {
    let mut p = pos.clone();
    let mut reports = Vec::new();
    for m in moves {
        let Ok(mv) = Move::parse_in(m, p.rules(), p.board().size()) else {
            break;
        };
        let Ok((next, r)) = p.play_reported(&mv) else {
            break;
        };
        p = next;
        reports.push(r);
    }
    let record = Record::from_reports(pos, &reports);
    if let Ok(t) = record.to_sgf(pos.rules()) {
        write(&out.join("sgf_record"), id, t.as_bytes())?;
    }
    if let Ok(t) = record.to_game_text(pos.rules(), Labels::Chinese) {
        for target in ["game_file", "game_header"] {
            write(&out.join(target), id, t.as_bytes())?;
        }
    }
    Ok(())
}

fn run(cases_dir: &str, out: &str) -> Result<(), String> {
    let out = Path::new(out);
    let mut count = 0;
    for f in case_files(cases_dir).map_err(|e| e.to_string())? {
        let case = Case::load(&f, None).map_err(|e| e.to_string())?;
        let id = &case.id;
        let yaml = serde_yaml::to_string(&case.position).map_err(|e| e.to_string())?;
        write(&out.join("position_yaml"), id, yaml.as_bytes())?;
        write(
            &out.join("protocol"),
            id,
            case.request().to_string().as_bytes(),
        )?;
        let Ok(pos) = case.position.to_position(&f) else {
            continue;
        };
        write_records(out, id, &pos, &case.moves)?;
        let size = pos.board().size();
        let size_byte = ODD_SIZES.iter().position(|&s| s == size).unwrap_or(0) as u8;
        // notation: the case's moves and probes, and the points it names.
        let mut texts: Vec<String> = case.moves.clone();
        texts.extend(case.probes());
        if let Some(eyes) = &case.expect.private_eyes {
            texts.extend(eyes.keys().cloned());
        }
        if let Some(attrs) = &case.expect.attributes {
            texts.extend(attrs.keys().cloned());
        }
        for (k, t) in texts.iter().enumerate() {
            let mut bytes = vec![size_byte];
            bytes.extend(t.as_bytes());
            write(&out.join("notation"), &format!("{id}-{k}"), &bytes)?;
        }
        // moves: the position, then the case's moves and probes as point indices.
        let mut choices = Vec::new();
        for t in case.moves.iter().chain(case.probes().iter()) {
            if let Ok(m) = Move::parse(t, size) {
                choices.push(match m.action {
                    Action::Pass => MoveChoice::Pass,
                    Action::Place(p) => MoveChoice::Point(pos.board().index(p)),
                });
            }
        }
        // (not for fast_equals_reference nor eye_engine: seeded with the cases' positions they
        // ran at 25 and 1,154 exec/s against 1,675 and 4,229 unseeded, for about the same
        // coverage at the end of a 30-s smoke)
        write(&out.join("moves"), id, &encode_game(&pos, &choices))?;
        // eye_simulation: the corners with stones.
        let last = size.saturating_sub(9);
        let corners: Vec<Board> = if size <= 9 {
            vec![pos.board().clone()]
        } else {
            [(0, 0), (0, last), (last, 0), (last, last)]
                .iter()
                .filter_map(|&(r0, c0)| crop(pos.board(), r0, c0))
                .collect()
        };
        for (k, b) in corners.iter().enumerate() {
            if b.is_empty() {
                continue;
            }
            for (j, rule) in [ClosedRegion::SingleString, ClosedRegion::SameColour]
                .into_iter()
                .enumerate()
            {
                if let Some(bytes) = encode_eye_case(b, rule) {
                    write(
                        &out.join("eye_simulation"),
                        &format!("{id}-{k}-{j}"),
                        &bytes,
                    )?;
                }
            }
        }
        count += 1;
    }
    // the suite's records and the professional games beside the repository (shared/data/games,
    // where it is), whole and cut to their first moves: the smoke bounds sgf_record's and
    // game_file's inputs (-max_len), and a whole 19x19 record cut by that bound no longer reads
    let records = Path::new(cases_dir).join("../records");
    let games = Path::new(cases_dir).join("../../../shared/data/games");
    for dir in [records, games] {
        let Ok(dir) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in dir.flatten() {
            let path = e.path().to_string_lossy().into_owned();
            let Ok(record) = m3go::input::load_record(&path) else {
                continue;
            };
            let name = e.file_name().to_string_lossy().into_owned();
            let rules = record
                .resolve_rules(None)
                .unwrap_or_else(|_| m3go_engine::Rules::m3go_2020());
            for cut in [None, Some(8), Some(40)] {
                let mut r = record.clone();
                let name = match cut {
                    Some(k) if k < r.moves.len() => {
                        r.moves.truncate(k);
                        format!("{name}-first{k}")
                    }
                    Some(_) => continue,
                    None => name.clone(),
                };
                if let Ok(t) = r.to_sgf(&rules) {
                    write(&out.join("sgf_record"), &name, t.as_bytes())?;
                }
                if let Ok(t) = r.to_game_text(&rules, Labels::Chinese) {
                    for target in ["game_file", "game_header"] {
                        write(&out.join(target), &name, t.as_bytes())?;
                    }
                }
            }
        }
    }
    // the bad-input suite's records and positions, as they are
    let bad = Path::new(cases_dir).join("../../tests/bad_input");
    if let Ok(dir) = std::fs::read_dir(&bad) {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(bytes) = std::fs::read(e.path()) else {
                continue;
            };
            let target = if name.ends_with(".sgf") {
                "sgf_record"
            } else if name.ends_with(".txt") {
                "game_file"
            } else {
                "position_yaml"
            };
            write(&out.join(target), &format!("bad-{name}"), &bytes)?;
            if target == "game_file" {
                write(&out.join("game_header"), &format!("bad-{name}"), &bytes)?;
            }
        }
    }
    // player_reader: four bytes of bounds and takes, then a player's output (a GTP session, JSON
    // answers, a long line with CR and a byte that is not UTF-8)
    let reader = out.join("player_reader");
    let seeds: [(&str, &[u8]); 3] = [
        (
            "gtp-session",
            b"\x1b\x40\x10\x20= 2\n\n= protocol_version\nboardsize\nplay\ngenmove\n\n? unknown\n\n",
        ),
        (
            "json-lines",
            b"\x00\x7f\xff\x08{\"id\":\"capabilities\",\"protocols\":[\"m3go-player/1\"]}\n{\"id\":3,\"move\":\"pass\"}\n\n\n",
        ),
        ("bounds", b"\xff\x05\x03\x01= aaaaaaaaaaaa\r\nbb\xc3\x28\n\n"),
    ];
    for (name, bytes) in seeds {
        write(&reader, name, bytes)?;
    }
    println!(
        "seed corpora written to {} from {count} cases",
        out.display()
    );
    Ok(())
}
