//! GTP's coordinates on the page (`labels: gtp`): columns A–T without I from the left, rows 1–19
//! from the bottom, as Sabaki, OGS and GTP engines write a point (`Q16`). A third label system
//! beside the texts' two, for players who map the board by it: the names of the points
//! (`shown`), the figure's edges and the record's moves are GTP's; the engine's texts (clause
//! traces, cascades, the replay's log) are written in the Latin labels, the ASCII system of the
//! texts. The vertex is the referee's ([`crate::referee::gtp::vertex`]), written once.

use crate::referee::gtp::vertex;
use m3go_engine::game::Prefix;
use m3go_engine::{Action, Labels, Notation, Point};
use serde_json::Value;

/// The request's `labels` value that asks for GTP's coordinates.
pub(crate) const GTP: &str = "gtp";

/// Whether a request's `labels` asks for GTP's coordinates.
pub(crate) fn is_gtp(labels: Option<&str>) -> bool {
    labels == Some(GTP)
}

/// Every point's GTP vertex on a board of `size`, by its Chinese label (the `shown` map).
pub(crate) fn shown(size: usize) -> Value {
    let h = Point::half(size);
    let mut m = serde_json::Map::new();
    for y in -h..=h {
        for x in -h..=h {
            let p = Point::new(x, y);
            m.insert(p.format(Labels::Chinese), Value::String(vertex(p, size)));
        }
    }
    Value::Object(m)
}

/// A move's notation with its point as a GTP vertex and its prefix as the Latin labels write
/// it (`K9.Q16`, `33B.pass`).
pub(crate) fn notation(n: &Notation, size: usize) -> String {
    let head = match n.prefix {
        Prefix::Numbered(turn, number) => format!("{}{number}", turn.symbol_in(Labels::Latin)),
        Prefix::Round(turn) => turn.to_string(),
    };
    match n.action {
        Action::Pass => format!("{head}.pass"),
        Action::Place(p) => format!("{head}.{}", vertex(p, size)),
    }
}

/// The figure `svg` (drawn with the Latin labels) with GTP's labels on its edges. The figure
/// writes its frame as `<text class="label" …>L</text>` lines, for each column k from the left:
/// column k's label on the top and the bottom edge, then row k's (from the top) on the left and
/// the right edge; each line's label is replaced by GTP's, every other line is kept as it is.
pub(crate) fn framed(svg: &str, size: usize) -> String {
    let h = Point::half(size);
    let mut out = String::with_capacity(svg.len() + 4 * size);
    let mut k = 0usize;
    for line in svg.split_inclusive('\n') {
        let label = line
            .starts_with("<text class=\"label\"")
            .then(|| line.rfind('>').and_then(|end| line[..end].rfind('>')))
            .flatten();
        match label {
            Some(open) if k < 4 * size => {
                let (i, column) = (k / 4, k % 4 < 2);
                // column i from the left, or row i from the top
                let p = if column {
                    Point::new(i as i32 - h, 0)
                } else {
                    Point::new(0, h - i as i32)
                };
                let v = vertex(p, size);
                let gtp = if column {
                    v[..1].to_string()
                } else {
                    v[1..].to_string()
                };
                let close = line[open..]
                    .find("</text>")
                    .map_or(line.len(), |c| open + c);
                out.push_str(&line[..=open]);
                out.push_str(&gtp);
                out.push_str(&line[close..]);
                k += 1;
            }
            _ => out.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use m3go_engine::{Colour, Rules, Setup, StoneKind, Turn};

    #[test]
    fn a_point_is_named_by_its_gtp_vertex() {
        let m = shown(9);
        assert_eq!(m["OO"], "E5");
        assert_eq!(m["DD"], "A1");
        assert_eq!(m["四四"], "J9");
        assert_eq!(shown(19)["七A"], "R9");
        assert_eq!(m.as_object().map(|o| o.len()), Some(81));
    }

    #[test]
    fn a_move_is_written_with_the_latin_prefix_and_the_vertex() {
        let rules = Rules::m3go_2020();
        let turn = Turn {
            player: Colour::Black,
            kind: StoneKind::Flower,
        };
        let n = Notation::new(&rules, 289, turn, Action::Place(Point::new(7, -1)));
        assert_eq!(notation(&n, 19), "U289.R9");
        let pass = Notation::new(&rules, 3, turn, Action::Pass);
        assert_eq!(notation(&pass, 19), "U3.pass");
    }

    #[test]
    fn the_frame_carries_gtp_labels_and_nothing_else_changes() {
        let setup = Setup {
            diagram: ". . . . . . . . .\n".repeat(9),
            ..Setup::default()
        };
        let Ok(p) = setup.to_position("test") else {
            panic!("an empty 9x9 board");
        };
        let svg = m3go_engine::formats::render::View::Holographic.svg(&p, Labels::Latin);
        let out = framed(&svg, 9);
        let labels: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("<text class=\"label\""))
            .filter_map(|l| l.split('>').nth(1))
            .map(|l| l.trim_end_matches("</text"))
            .collect();
        assert_eq!(labels.len(), 36);
        assert_eq!(&labels[..8], ["A", "A", "9", "9", "B", "B", "8", "8"]);
        assert_eq!(&labels[32..], ["J", "J", "1", "1"]);
        let other = |s: &str| -> Vec<String> {
            s.lines()
                .filter(|l| !l.starts_with("<text class=\"label\""))
                .map(String::from)
                .collect()
        };
        assert_eq!(other(&out), other(&svg));
    }
}
