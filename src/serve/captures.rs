//! The captures count of a record's replay, as Sabaki and OGS show it beside each player: the
//! stones each player has taken off the board so far, read from the engine's own report of each
//! move (`Report::captured`, every point whose stone the move removed, flowers included), the
//! move's player taking them.

use m3go_engine::{Colour, Report};
use serde_json::{json, Value};

/// Black's and white's captures after each position of a replay: the start (none), then after
/// each move of `reports` (one a kept position, in order).
pub(crate) fn running(reports: &[Report]) -> Vec<[u32; 2]> {
    let mut now = [0u32; 2];
    let mut out = Vec::with_capacity(reports.len() + 1);
    out.push(now);
    for r in reports {
        let k = match r.turn.player {
            Colour::Black => 0,
            _ => 1,
        };
        now[k] += r.captured.len() as u32;
        out.push(now);
    }
    out
}

/// The answer's `captures`: `{ "black": N, "white": N }`.
pub(crate) fn to_json(c: [u32; 2]) -> Value {
    json!({ "black": c[0], "white": c[1] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use m3go_engine::Setup;

    #[test]
    fn each_player_counts_the_stones_its_moves_removed() {
        // black captures the white stone at the corner with its second move
        let setup = Setup {
            diagram: "O X .\n. . .\n. . .\n".into(),
            ..Setup::default()
        };
        let Ok(start) = setup.to_position("test") else {
            panic!("a 3x3 position");
        };
        let mut reports = Vec::new();
        let mut p = start;
        // black's stone at AO takes white's A一; the next move (white's) takes nothing
        for point in ["AO", "一A"] {
            let m = format!("{}{}.{point}", p.turn().symbol(), p.move_number());
            let Ok(mv) = m3go_engine::Move::parse_in(&m, p.rules(), 3) else {
                panic!("{m} is a move");
            };
            let Ok((next, r)) = p.play_reported(&mv) else {
                panic!("{m} is legal");
            };
            reports.push(r);
            p = next;
        }
        let c = running(&reports);
        assert_eq!(c, vec![[0, 0], [1, 0], [1, 0]]);
        assert_eq!(to_json(c[2]), json!({ "black": 1, "white": 0 }));
    }
}
