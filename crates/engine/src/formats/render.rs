//! Diagrams of a position as the documents describe them (M20-HOLO, Q20-VIEWS): an SVG figure
//! with tengen-origin labels in the Chinese system on the edges, flower stones drawn with the
//! grey zebra pattern of 004 ("花子图案通常为“灰底斑马纹”"), the black or white star (dot) of 003
//! on attributed flowers in the holographic layer, private eyes shaded and the flower's
//! forbidden points lettered with their reason, plus a legend; and the same for a colour
//! terminal (ANSI). What a figure shows (`Figure`, [`View`], the forbidden points' letters,
//! the stones' move numbers) is here; the SVG drawing is `svg`, the terminal's `ansi`.

use crate::board::grid::{Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::formats::report::forbidden_points;
use crate::game::play::Position;
use crate::judge::forbidden::Forbidden;
use crate::judge::scoring::{Owner, Score};

mod ansi;
mod svg;

/// Which board to draw (Q20-VIEWS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// 直弈棋局: the stones as placed; flowers without stars.
    Direct,
    /// 全息 / 三合棋局: the direct board with a black or white star on attributed flowers.
    Holographic,
    /// 上层棋局: attributed flowers as black or white stones, neutral flowers off-board.
    Upper,
}

/// A layer name [`View::parse`] does not know (the name as written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownView(pub String);

impl std::fmt::Display for UnknownView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "layer `{}`: expected direct, holographic or upper",
            self.0
        )
    }
}

impl std::error::Error for UnknownView {}

impl View {
    /// Reads `direct`, `holographic` or `upper`.
    pub fn parse(s: &str) -> Result<View, UnknownView> {
        match s {
            "direct" => Ok(View::Direct),
            "holographic" | "holo" => Ok(View::Holographic),
            "upper" => Ok(View::Upper),
            other => Err(UnknownView(other.to_owned())),
        }
    }
    /// The view's name as the command line writes it (`direct`, `holographic`, `upper`).
    pub fn name(self) -> &'static str {
        match self {
            View::Direct => "direct",
            View::Holographic => "holographic",
            View::Upper => "upper",
        }
    }
}

/// Everything a diagram shows, per point.
pub(crate) struct Figure {
    pub size: usize,
    pub stones: Vec<Option<Stone>>,
    pub attribute: Vec<Option<Attribute>>,
    pub upper: Vec<Cell>,
    /// The colour of the string whose private eye holds this (empty) point.
    pub eye_owner: Vec<Option<Colour>>,
    /// Why the point is closed to black's flower and to white's flower.
    pub forbidden: Vec<[Option<Forbidden>; 2]>,
    /// The point of the previous move: the one point empty on the last history board (the board
    /// before the previous move) and occupied now; none after a pass or without history.
    pub last_move: Option<usize>,
    /// The points of the strings the position marks dead (its `dead:` list, M20-SCORE-DEAD):
    /// drawn faded and crossed.
    pub dead: Vec<bool>,
    /// Each point's owner at scoring (the count `analyze` gives, after the dead strings are
    /// removed), when the figure is one of scoring: the position marks dead stones or the game
    /// is over. `None` otherwise, and when the dead marks cannot be counted.
    pub owner: Option<Vec<Owner>>,
    pub title: String,
    /// The title without the turn symbol (华, 花, …), for a figure that needs no CJK font.
    pub title_latin: String,
}

impl Figure {
    /// The figure of a position.
    pub fn new(pos: &Position) -> Figure {
        let a = pos.analysis();
        let n = pos.board().len();
        let mut eye_owner = vec![None; n];
        for (g, s) in a.lower_strings.groups.iter().enumerate() {
            for r in a.private_eyes(g) {
                for &i in &r.empty {
                    eye_owner[i] = s.colour;
                }
            }
        }
        let mut forbidden = vec![[None, None]; n];
        for (k, c) in [Colour::Black, Colour::White].into_iter().enumerate() {
            for (i, f) in forbidden_points(&a, pos.rules(), c) {
                forbidden[i][k] = Some(f);
            }
        }
        let turn = pos.turn();
        let last_move = pos
            .history()
            .last()
            .filter(|_| pos.trailing_passes() == 0)
            .and_then(|before| {
                let now = pos.board().cells();
                let mut placed =
                    (0..n).filter(|&i| before.cells()[i].is_none() && now[i].is_some());
                let first = placed.next();
                first.filter(|_| placed.next().is_none())
            });
        let mut dead = vec![false; n];
        for &p in pos.dead() {
            if let Some(s) = a.upper_strings.at(pos.board().index(p)) {
                for &j in &s.points {
                    dead[j] = true;
                }
            }
        }
        let owner = (!pos.dead().is_empty() || pos.game_over())
            .then(|| Score::of(&a, pos.rules(), pos.dead()).ok())
            .flatten()
            .map(|s| s.points.iter().map(|p| p.owner).collect());
        Figure {
            last_move,
            dead,
            owner,
            size: pos.board().size(),
            stones: pos.board().cells().to_vec(),
            attribute: a.attribute_at.clone(),
            upper: a.upper.cells.clone(),
            eye_owner,
            forbidden,
            title: format!(
                "{} {}×{}, move {}: {}{} to play ({})",
                pos.rules().preset,
                pos.board().size(),
                pos.board().size(),
                pos.move_number(),
                turn.symbol(),
                pos.move_number(),
                turn.describe()
            ),
            title_latin: format!(
                "{} {}×{}, move {} to play ({})",
                pos.rules().preset,
                pos.board().size(),
                pos.board().size(),
                pos.move_number(),
                turn.describe()
            ),
        }
    }
}

/// The letter of a forbidden point's reason: C capture point, E one-liberty eye, T tiger's mouth.
pub(crate) fn letter(f: Forbidden) -> char {
    match f {
        Forbidden::CapturePoint => 'C',
        Forbidden::OneLibertyEye(_) => 'E',
        Forbidden::TigersMouth(_) => 'T',
    }
}

/// The move number at which each stone of the board (by point index) was placed, found from
/// the position's history boards: a stone whose point was empty on the history board `k` moves
/// back, and held the same stone on every later board, was placed by move `move - k`. A stone
/// already on the oldest history board (the set-up position) and empty points get `None`.
pub(crate) fn move_numbers(pos: &Position) -> Vec<Option<u32>> {
    let board = pos.board();
    let history = pos.history();
    (0..board.size() * board.size())
        .map(|i| {
            let stone = board.get(i)?;
            for (k, h) in history.newest_first().enumerate() {
                match h.get(i) {
                    Some(s) if s == stone => continue,
                    None => return pos.move_number().checked_sub(k as u32 + 1),
                    Some(_) => return None,
                }
            }
            None
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::svg::{BLACK_EYE, BLACK_EYE_OPACITY, WHITE_EYE, WHITE_EYE_OPACITY, WOOD};
    use super::*;
    use crate::board::coord::Labels;
    use crate::game::setup::Setup;

    /// docs/example-9x9.yaml: black B四, BD/AD and white 二四 flowers are attributed (corner
    /// strings with one-point private eyes D四, DD, 四四), the flower at OO is neutral; the three
    /// eyes are one-liberty eyes (E), A一, 四B and 四D are tiger's mouths (T), 三D is the capture
    /// point of the white stone 三C (C).
    const EXAMPLE: &str = ". X # . . . # O .
X X . . . . . O O
. . . . . X . . .
. . X . X . . . .
. . . X # O . . .
. . . . X . . . .
. . . . . . . X .
X X . . . . X O X
. X # # . . . . .
";

    fn example() -> Position {
        Setup {
            size: Some(9),
            move_number: Some(9),
            diagram: EXAMPLE.into(),
            ..Setup::default()
        }
        .to_position("example")
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn count(doc: &roxmltree::Document, tag: &str, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
            .count()
    }

    /// The legend's text of a figure.
    fn legend_text(doc: &roxmltree::Document) -> String {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("legend") && n.has_tag_name("text"))
            .flat_map(|n| n.descendants().filter_map(|t| t.text()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_previous_move_is_marked() {
        let pos = example();
        let text = View::Holographic.svg(&pos, Labels::Chinese);
        assert!(!text.contains("last-move"), "no history, no mark");
        let mv = crate::game::play::Move {
            action: crate::game::play::Action::Place(crate::board::coord::Point::new(0, 2)),
            number: None,
            turn: None,
        };
        let (next, _) = pos.play_reported(&mv).expect("华9 at O二 is legal");
        let text = View::Holographic.svg(&next, Labels::Chinese);
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let ring = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("last-move"))
            .expect("a ring");
        let f = Figure::new(&next);
        let i = f.last_move.expect("the last move");
        assert_eq!(next.board().point(i), crate::board::coord::Point::new(0, 2));
        assert!(legend_text(&doc).contains("the previous move"));
        let cx: f64 = ring
            .attribute("cx")
            .and_then(|v| v.parse().ok())
            .expect("cx");
        let stone_x = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("stone")))
            .filter_map(|n| n.attribute("cx")?.parse::<f64>().ok())
            .any(|x| (x - cx).abs() < 0.01);
        assert!(stone_x);
        // after a pass: no mark
        let pass = crate::game::play::Move {
            action: crate::game::play::Action::Pass,
            number: None,
            turn: None,
        };
        let (passed, _) = next.play_reported(&pass).expect("pass");
        assert!(!View::Holographic
            .svg(&passed, Labels::Chinese)
            .contains("last-move"));
    }

    #[test]
    fn m20_score_dead_strings_are_drawn_dead_and_each_owner_at_scoring() {
        let plain = example();
        let text = View::Holographic.svg(&plain, Labels::Chinese);
        assert!(!text.contains("territory") && !text.contains("class=\"dead\""));
        // the white corner string 三四 (with its white flower) marked dead
        let dead = Setup {
            size: Some(9),
            move_number: Some(9),
            diagram: EXAMPLE.into(),
            dead: vec!["三四".into()],
            ..Setup::default()
        }
        .to_position("example")
        .unwrap_or_else(|e| panic!("{e}"));
        let f = Figure::new(&dead);
        assert_eq!(
            f.dead.iter().filter(|d| **d).count(),
            4,
            "three white stones and a flower"
        );
        let owner = f.owner.as_ref().expect("a scoring figure");
        let score = dead.analysis();
        let counted = Score::of(&score, dead.rules(), dead.dead()).expect("counted");
        assert_eq!(
            owner,
            &counted.points.iter().map(|p| p.owner).collect::<Vec<_>>()
        );
        for view in [View::Direct, View::Holographic, View::Upper] {
            let text = view.svg(&dead, Labels::Chinese);
            assert_ne!(text, view.svg(&plain, Labels::Chinese), "{view:?}");
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(count(&doc, "g", "dead"), 4, "{view:?}");
            assert_eq!(count(&doc, "path", "dead-cross"), 4, "{view:?}");
            let marks = |class: &str| {
                doc.descendants()
                    .filter(|n| n.attribute("class") == Some(class))
                    .count()
            };
            // every empty point has its owner's mark (the legend shows one of each more)
            let empty = f.stones.iter().filter(|s| s.is_none()).count();
            let drawn = ["black", "white", "seki", "neutral"]
                .iter()
                .map(|o| marks(&format!("territory territory-{o}")))
                .sum::<usize>();
            assert!(drawn >= empty + 4 + 4, "{view:?}: {drawn} marks");
            assert!(legend_text(&doc).contains("at scoring"), "{view:?}");
        }
    }

    #[test]
    fn each_layer_legend_shows_what_that_layer_draws() {
        let pos = example();
        for view in [View::Direct, View::Holographic, View::Upper] {
            let text = view.svg(&pos, Labels::Chinese);
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            let legend = legend_text(&doc);
            let zebra = count(&doc, "circle", "stone flower") > 0;
            let stars = doc
                .descendants()
                .any(|n| n.attribute("class").is_some_and(|c| c.starts_with("star ")));
            let offboard = count(&doc, "rect", "offboard") > 0;
            assert_eq!(legend.contains("grey zebra"), zebra, "{view:?}: {legend}");
            assert_eq!(legend.contains("star"), stars, "{view:?}: {legend}");
            assert_eq!(legend.contains("off-board"), offboard, "{view:?}: {legend}");
            assert_eq!(
                view == View::Upper,
                offboard && !zebra && !stars,
                "{view:?}"
            );
            // the eye swatches are the board's shading over the board's wood
            for (colour, opacity) in [
                (BLACK_EYE, BLACK_EYE_OPACITY),
                (WHITE_EYE, WHITE_EYE_OPACITY),
            ] {
                let swatch = format!(r#"fill="{WOOD}"/><rect x="#);
                assert!(text.contains(&swatch), "{view:?}");
                let shading = format!(r#"fill="{colour}" fill-opacity="{opacity}""#);
                assert!(
                    text.matches(&shading).count() >= 2,
                    "{view:?}: the legend and the board use {shading}"
                );
            }
            // letters on shading keep a white halo
            for n in doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("forbidden"))
            {
                assert_eq!(n.attribute("stroke"), Some("#ffffff"));
                assert_eq!(n.attribute("paint-order"), Some("stroke"));
            }
        }
    }

    #[test]
    fn m20_holo_svg_is_well_formed_and_shows_what_the_position_requires() {
        let pos = example();
        let text = View::Holographic.svg(&pos, Labels::Chinese);
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let stones = |c: char| EXAMPLE.chars().filter(|&x| x == c).count();
        assert_eq!(count(&doc, "circle", "stone black"), stones('X'));
        assert_eq!(count(&doc, "circle", "stone white"), stones('O'));
        assert_eq!(count(&doc, "circle", "stone flower"), stones('#'));
        // stars: one per attributed flower stone, as the engine decides
        let a = pos.analysis();
        let with = |at: Attribute| a.attribute_at.iter().filter(|x| **x == Some(at)).count();
        assert_eq!(
            count(&doc, "circle", "star star-black"),
            with(Attribute::Black)
        );
        assert_eq!(
            count(&doc, "circle", "star star-white"),
            with(Attribute::White)
        );
        assert_eq!((with(Attribute::Black), with(Attribute::White)), (3, 1));
        // shaded private eyes: D四 and DD (black), 四四 (white)
        assert_eq!(count(&doc, "rect", "eye eye-black"), 2);
        assert_eq!(count(&doc, "rect", "eye eye-white"), 1);
        // forbidden points lettered with their reason
        let letters: Vec<String> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("forbidden"))
            .map(|n| {
                n.descendants()
                    .filter(|t| t.is_text())
                    .filter_map(|t| t.text())
                    .collect()
            })
            .collect();
        let mut sorted = letters.clone();
        sorted.sort();
        assert_eq!(sorted, ["C", "E", "E", "E", "T", "T", "T"], "{letters:?}");
        // the edges carry the Chinese labels, tengen O
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("label"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(labels.len(), 4 * 9);
        for l in ["D", "O", "四", "一"] {
            assert_eq!(labels.iter().filter(|x| **x == l).count(), 4, "{l}");
        }
        assert!(text.contains("<pattern id=\"flower\""));
        assert_eq!(count(&doc, "g", "legend"), 1);
    }

    #[test]
    fn q20_views_direct_has_no_stars_and_upper_turns_flowers_into_stones() {
        let pos = example();
        let d = View::Direct.svg(&pos, Labels::Chinese);
        let doc = roxmltree::Document::parse(&d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count(&doc, "circle", "star star-black"), 0);
        assert_eq!(count(&doc, "circle", "stone flower"), 5);
        let u = View::Upper.svg(&pos, Labels::Chinese);
        let doc = roxmltree::Document::parse(&u).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count(&doc, "circle", "stone black from-flower"), 3);
        assert_eq!(count(&doc, "circle", "stone white from-flower"), 1);
        assert_eq!(count(&doc, "rect", "offboard"), 1);
        assert_eq!(count(&doc, "circle", "stone flower"), 0);
    }

    #[test]
    fn m20_holo_ansi_rendering_has_one_row_per_line_and_colours() {
        let pos = example();
        let t = View::Holographic.ansi(&pos, Labels::Chinese);
        assert!(t.contains("\x1b[48;5;"));
        // title, two label rows, nine board rows, legend
        assert_eq!(t.lines().count(), 1 + 2 + 9 + 1);
        assert_eq!(
            t.matches('◉').count(),
            4 + 2,
            "four starred flowers, two in the legend"
        );
        assert!(t.lines().nth(2).is_some_and(|l| l.starts_with("四 ")));
    }
}
