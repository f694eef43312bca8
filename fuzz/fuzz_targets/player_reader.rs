//! The referee's reader of a player's output (`m3go::conform::runner::read_lines`, then a GTP
//! player's answers, `m3go::referee::gtp::read_answer`), on any bytes as what the player
//! writes: never a panic; no line handed on is longer than the line bound; the lines read and
//! not taken never cost more than the backlog bound (the taker takes 0 to 3 lines after each,
//! as the input's first byte says); the lines handed on are the input's lines, in order, up to
//! the first that cannot be read; a flood is marked; no GTP answer is longer than its bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go::conform::failure::{ProgramFailure, UnreadableLine};
use m3go::conform::runner::{read_lines, Backlog, ProgramLine, ReadBounds, LINE_COST};
use m3go::referee::gtp::read_answer;
use std::collections::VecDeque;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, stream) = data.split_at(4);
    // small bounds, so that the inputs reach them
    let bounds = ReadBounds {
        line: 1 + head[1] as usize % 128,
        backlog: head[2] as usize * 4,
    };
    let answer_max = 1 + head[3] as usize * 2;
    let takes = head[0];
    let backlog = Backlog::default();
    let mut waiting: VecDeque<usize> = VecDeque::new();
    let mut handed: Vec<Result<ProgramLine, UnreadableLine>> = Vec::new();
    let mut k = 0u32;
    read_lines(stream, bounds, &[], &backlog, |line, cost| {
        if let Ok(l) = &line {
            let text_len = match l {
                ProgramLine::Json(v) => v.to_string().len(),
                ProgramLine::NotJson { line, .. } => line.len(),
            };
            if let ProgramLine::NotJson { line, .. } = l {
                assert!(line.len() <= bounds.line, "a line of {text_len} bytes");
            }
            assert!(cost >= LINE_COST && cost <= bounds.line + LINE_COST);
            waiting.push_back(cost);
        } else {
            assert_eq!(cost, 0);
        }
        assert!(
            backlog.cost() <= bounds.backlog,
            "backlog {} over {}",
            backlog.cost(),
            bounds.backlog
        );
        handed.push(line);
        // the taker takes 0 to 3 lines, two bits of the first byte in turn
        let n = (takes >> ((k % 4) * 2)) & 3;
        k += 1;
        for _ in 0..n {
            if let Some(c) = waiting.pop_front() {
                backlog.taken(c);
            }
        }
        true
    });
    assert_eq!(
        backlog.cost(),
        waiting.iter().sum::<usize>(),
        "the backlog is the lines not taken"
    );
    // the lines handed on are the input's, in order
    let mut expected = stream.split(|&b| b == b'\n');
    for (i, h) in handed.iter().enumerate() {
        let e = expected.next().unwrap_or_default();
        match h {
            Ok(ProgramLine::NotJson { line, .. }) => {
                let e = std::str::from_utf8(e).expect("a line handed on is UTF-8");
                assert_eq!(line, e.trim_end_matches(['\r', '\n']), "line {i}");
            }
            Ok(ProgramLine::Json(_)) => {
                let e = std::str::from_utf8(e).expect("a line handed on is UTF-8");
                assert!(
                    serde_json::from_str::<serde_json::Value>(e.trim_end_matches('\r')).is_ok()
                );
            }
            Err(why) => {
                assert_eq!(i + 1, handed.len(), "nothing is handed on after {why}");
                if let UnreadableLine::Unrequested(b) = why {
                    assert_eq!(backlog.flooded(), Some((*b).max(1)));
                }
                if let UnreadableLine::TooLong(b) = why {
                    assert!(e.len() >= *b, "a line of {} bytes is not too long", e.len());
                }
            }
        }
    }
    // the GTP answers read from those lines, as the GTP seat reads them
    let mut lines = handed.into_iter().filter_map(|l| match l {
        Ok(ProgramLine::Json(v)) => Some(v.to_string()),
        Ok(ProgramLine::NotJson { line, .. }) => Some(line),
        Err(_) => None,
    });
    for _ in 0..stream.len() + 1 {
        let mut used = 0usize;
        let ans = read_answer("list_commands", answer_max, || {
            let l = lines.next().ok_or(ProgramFailure::NotRunning)?;
            used += l.len() + 1;
            Ok(l)
        });
        assert!(ans.is_err() || used <= answer_max, "read {used} bytes");
        match ans {
            Ok(Ok(text)) | Ok(Err(m3go::referee::gtp::GtpFailure(text))) => {
                assert!(
                    text.len() <= answer_max,
                    "an answer of {} bytes",
                    text.len()
                )
            }
            Err(ProgramFailure::NotRunning) => break,
            Err(_) => {}
        }
    }
});
