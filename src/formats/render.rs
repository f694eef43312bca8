//! Diagrams of a position as the documents describe them (M20-HOLO, Q20-VIEWS): an SVG figure
//! with tengen-origin labels in the Chinese system on the edges, flower stones drawn with the
//! grey zebra pattern of 004 ("花子图案通常为“灰底斑马纹”"), the black or white star (dot) of 003
//! on attributed flowers in the holographic layer, private eyes shaded and the flower's
//! forbidden points lettered with their reason, plus a legend; and the same for a colour
//! terminal (ANSI).

use crate::board::coord::{half, Labels};
use crate::board::grid::{Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::formats::report::forbidden_points;
use crate::game::play::Position;
use crate::judge::analysis::Analysis;
use crate::judge::forbidden::Forbidden;
use std::fmt::Write as _;

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

impl View {
    /// Reads `direct`, `holographic` or `upper`.
    pub fn parse(s: &str) -> Result<View, String> {
        match s {
            "direct" => Ok(View::Direct),
            "holographic" | "holo" => Ok(View::Holographic),
            "upper" => Ok(View::Upper),
            other => Err(format!(
                "layer `{other}`: expected direct, holographic or upper"
            )),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            View::Direct => "direct",
            View::Holographic => "holographic",
            View::Upper => "upper",
        }
    }
}

/// Everything a diagram shows, per point.
pub struct Figure {
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
    pub title: String,
    /// The title without the turn symbol (华, 花, …), for a figure that needs no CJK font.
    pub title_latin: String,
}

impl Figure {
    /// The figure of a position.
    pub fn new(pos: &Position) -> Figure {
        let a = Analysis::new(pos.board(), pos.rules());
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
        Figure {
            last_move,
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
pub fn letter(f: Forbidden) -> char {
    match f {
        Forbidden::CapturePoint => 'C',
        Forbidden::OneLibertyEye(_) => 'E',
        Forbidden::TigersMouth(_) => 'T',
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const CELL: f64 = 40.0;
const MARGIN: f64 = 46.0;
const TITLE: f64 = 34.0;
const MIN_WIDTH: f64 = 680.0;
/// The font chain of the SVG: CJK fonts on Linux, macOS and Windows, then the generic family
/// (enough on its own for a `--labels latin` figure, which has no CJK character).
const FONT: &str = "'Noto Sans CJK SC','Noto Sans SC','Source Han Sans SC','WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',sans-serif";
const RED: &str = "#c0101a";
/// The ring on the previous move's stone.
const LAST_MOVE: &str = "#e8102a";
/// The board's wood.
const WOOD: &str = "#dcb35c";
/// The shading of a black string's private eye, over the wood (board and legend alike).
const BLACK_EYE: &str = "#1e6bff";
const BLACK_EYE_OPACITY: f64 = 0.5;
/// The shading of a white string's private eye.
const WHITE_EYE: &str = "#ff3355";
const WHITE_EYE_OPACITY: f64 = 0.42;
const BLUE: &str = "#1040c0";
const BROWN: &str = "#8a4a00";

/// The SVG figure of a position in a view, labelled in the Chinese system.
pub fn svg(pos: &Position, view: View) -> String {
    svg_labelled(pos, view, Labels::Chinese)
}

/// The SVG figure of a position in a view, its edges labelled in `labels` (the Latin system
/// needs no CJK font).
pub fn svg_labelled(pos: &Position, view: View, labels: Labels) -> String {
    draw_svg(pos, view, labels, None)
}

/// [`svg_labelled`] with each stone's move number ([`move_numbers`]) written on it.
pub fn svg_numbered(pos: &Position, view: View, labels: Labels) -> String {
    draw_svg(pos, view, labels, Some(&move_numbers(pos)))
}

/// [`svg_labelled`] with the given move number written on each stone (by point index; a
/// record's own numbering, as the page's loaded records keep it).
pub fn svg_with_numbers(
    pos: &Position,
    view: View,
    labels: Labels,
    numbers: &[Option<u32>],
) -> String {
    draw_svg(pos, view, labels, Some(numbers))
}

/// The move number at which each stone of the board (by point index) was placed, found from
/// the position's history boards: a stone whose point was empty on the history board `k` moves
/// back, and held the same stone on every later board, was placed by move `move - k`. A stone
/// already on the oldest history board (the set-up position) and empty points get `None`.
pub fn move_numbers(pos: &Position) -> Vec<Option<u32>> {
    let board = pos.board();
    let history = pos.history();
    (0..board.size() * board.size())
        .map(|i| {
            let stone = board.get(i)?;
            for (k, h) in history.iter().rev().enumerate() {
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

fn draw_svg(pos: &Position, view: View, labels: Labels, numbers: Option<&[Option<u32>]>) -> String {
    let f = Figure::new(pos);
    let n = f.size;
    let span = (n as f64 - 1.0) * CELL;
    let width = (2.0 * MARGIN + span).max(MIN_WIDTH);
    let x0 = (width - 2.0 * MARGIN - span) / 2.0;
    let legend_top = TITLE + 2.0 * MARGIN + span + 18.0;
    let height = legend_top + 5.0 * 22.0 + 12.0;
    let h = half(n);
    let x_of = |c: usize| x0 + MARGIN + c as f64 * CELL;
    let y_of = |r: usize| TITLE + MARGIN + r as f64 * CELL;
    // with the Latin labels nothing in the figure needs a CJK font: English legend and title
    let cjk = labels == Labels::Chinese;
    let title = if cjk { &f.title } else { &f.title_latin };
    let say = |en: &'static str, zh: &'static str| if cjk { zh } else { en };
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{FONT}">"#
    );
    let _ = writeln!(
        o,
        "<title>{}</title>",
        xml_escape(&format!("{} — {} layer", title, view.name()))
    );
    o.push_str(concat!(
        "<defs>\n",
        // 004: 花子图案通常为“灰底斑马纹”: a grey ground with black and white zebra stripes
        r##"<pattern id="flower" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
        r##"<rect width="8" height="8" fill="#9a9a9a"/><rect width="2.2" height="8" fill="#222"/><rect x="4" width="2.2" height="8" fill="#f4f4f4"/></pattern>"##,
        "\n",
        r##"<pattern id="offboard" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
        r##"<rect width="6" height="6" fill="#6d6d6d"/><rect width="2" height="6" fill="#4a4a4a"/></pattern>"##,
        "\n</defs>\n"
    ));
    let _ = writeln!(
        o,
        r##"<rect width="100%" height="100%" fill="#ffffff"/><text x="{:.1}" y="22" font-size="15" text-anchor="middle">{}</text>"##,
        width / 2.0,
        xml_escape(&format!("{} — {} layer", title, view.name()))
    );
    let pad = CELL * 0.62;
    let _ = writeln!(
        o,
        r##"<rect class="board" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{WOOD}" stroke="#8a6a2a"/>"##,
        x_of(0) - pad,
        y_of(0) - pad,
        span + 2.0 * pad,
        span + 2.0 * pad
    );
    // private eyes, under the grid
    for i in 0..n * n {
        if let Some(c) = f.eye_owner[i] {
            let (fill, op) = match c {
                Colour::Black => (BLACK_EYE, BLACK_EYE_OPACITY),
                Colour::White => (WHITE_EYE, WHITE_EYE_OPACITY),
            };
            let _ = writeln!(
                o,
                r#"<rect class="eye eye-{}" x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="{fill}" fill-opacity="{op}"/>"#,
                c.name(),
                x_of(i % n) - CELL / 2.0,
                y_of(i / n) - CELL / 2.0
            );
        }
    }
    for k in 0..n {
        let _ = writeln!(
            o,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3a2a10" stroke-width="1"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3a2a10" stroke-width="1"/>"##,
            x_of(0),
            y_of(k),
            x_of(n - 1),
            y_of(k),
            x_of(k),
            y_of(0),
            x_of(k),
            y_of(n - 1)
        );
    }
    for star in crate::board::grid::Board::empty(n)
        .map(|b| b.star_points())
        .unwrap_or_default()
    {
        let (c, r) = ((star.x + h) as usize, (h - star.y) as usize);
        let _ = writeln!(
            o,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3.2" fill="#3a2a10"/>"##,
            x_of(c),
            y_of(r)
        );
    }
    // edge labels: the Chinese system, tengen = O
    let (column_labels, row_labels) = labels.edges(n);
    for (k, (&xl, &yl)) in column_labels.iter().zip(&row_labels).enumerate() {
        for y in [y_of(0) - pad - 10.0, y_of(n - 1) + pad + 22.0] {
            let _ = writeln!(
                o,
                r#"<text class="label" x="{:.1}" y="{y:.1}" font-size="16" text-anchor="middle">{xl}</text>"#,
                x_of(k)
            );
        }
        for x in [x_of(0) - pad - 14.0, x_of(n - 1) + pad + 14.0] {
            let _ = writeln!(
                o,
                r#"<text class="label" x="{x:.1}" y="{:.1}" font-size="16" text-anchor="middle">{yl}</text>"#,
                y_of(k) + 6.0
            );
        }
    }
    let rad = CELL * 0.46;
    for i in 0..n * n {
        let (cx, cy) = (x_of(i % n), y_of(i / n));
        match (f.stones[i], view) {
            (None, _) => {
                let [b, w] = f.forbidden[i];
                let text = match (b, w) {
                    (None, None) => continue,
                    (Some(x), Some(y)) if letter(x) == letter(y) => {
                        format!(r#"<tspan fill="{RED}">{}</tspan>"#, letter(x))
                    }
                    _ => {
                        let mut t = String::new();
                        if let Some(x) = b {
                            let _ = write!(t, r#"<tspan fill="{BLUE}">{}</tspan>"#, letter(x));
                        }
                        if let Some(y) = w {
                            let _ = write!(t, r#"<tspan fill="{BROWN}">{}</tspan>"#, letter(y));
                        }
                        t
                    }
                };
                // the shape tells whose forbidden point it is, not the colour alone: a square
                // in the upper left corner for black's 华, a triangle in the upper right for
                // white's 花
                let m = CELL * 0.16;
                if b.is_some() {
                    let _ = writeln!(
                        o,
                        r##"<rect class="forbid-mark forbid-black" x="{:.1}" y="{:.1}" width="{m:.1}" height="{m:.1}" fill="{BLUE}" stroke="#ffffff" stroke-width="1"/>"##,
                        cx - CELL * 0.42,
                        cy - CELL * 0.42
                    );
                }
                if w.is_some() {
                    let (x0, y0) = (cx + CELL * 0.26, cy - CELL * 0.26);
                    let _ = writeln!(
                        o,
                        r##"<path class="forbid-mark forbid-white" d="M{x0:.1} {y0:.1} L{:.1} {y0:.1} L{:.1} {:.1} Z" fill="{BROWN}" stroke="#ffffff" stroke-width="1"/>"##,
                        x0 + m,
                        x0 + m / 2.0,
                        y0 - m
                    );
                }
                let reason = b.or(w).map(|x| x.code()).unwrap_or("");
                let _ = writeln!(
                    o,
                    r##"<text class="forbidden" data-reason="{reason}" x="{cx:.1}" y="{:.1}" font-size="{:.0}" font-weight="bold" text-anchor="middle" stroke="#ffffff" stroke-width="3.5" stroke-linejoin="round" paint-order="stroke">{text}</text>"##,
                    cy + CELL * 0.2,
                    CELL * 0.55
                );
            }
            (Some(Stone::Black), _) => {
                let _ = writeln!(
                    o,
                    r##"<circle class="stone black" cx="{cx:.1}" cy="{cy:.1}" r="{rad:.1}" fill="#111" stroke="#000"/>"##
                );
            }
            (Some(Stone::White), _) => {
                let _ = writeln!(
                    o,
                    r##"<circle class="stone white" cx="{cx:.1}" cy="{cy:.1}" r="{rad:.1}" fill="#f8f8f8" stroke="#333"/>"##
                );
            }
            (Some(Stone::Flower), View::Upper) => match f.upper[i] {
                Cell::Stone(c) => {
                    let (fill, stroke) = match c {
                        Colour::Black => ("#111", "#000"),
                        Colour::White => ("#f8f8f8", "#333"),
                    };
                    let _ = writeln!(
                        o,
                        r##"<circle class="stone {} from-flower" cx="{cx:.1}" cy="{cy:.1}" r="{rad:.1}" fill="{fill}" stroke="{stroke}"/><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="#9a9a9a" stroke-width="2" stroke-dasharray="3 2"/>"##,
                        c.name(),
                        rad * 0.7
                    );
                }
                _ => {
                    let _ = writeln!(
                        o,
                        r#"<rect class="offboard" x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="url(#offboard)"/>"#,
                        cx - CELL / 2.0,
                        cy - CELL / 2.0
                    );
                }
            },
            (Some(Stone::Flower), _) => {
                let _ = writeln!(
                    o,
                    r##"<circle class="stone flower" cx="{cx:.1}" cy="{cy:.1}" r="{rad:.1}" fill="url(#flower)" stroke="#444"/>"##
                );
                if view == View::Holographic {
                    let star = match f.attribute[i] {
                        Some(Attribute::Black) => Some(("black", "#000", "#fff")),
                        Some(Attribute::White) => Some(("white", "#fff", "#000")),
                        _ => None,
                    };
                    if let Some((name, fill, stroke)) = star {
                        let _ = writeln!(
                            o,
                            r#"<circle class="star star-{name}" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                            CELL * 0.25
                        );
                    }
                }
            }
        }
    }
    // the move numbers, on their stones (black with a white halo: readable on every stone)
    for (i, k) in numbers.unwrap_or(&[]).iter().enumerate() {
        if let Some(k) = k {
            let digits = k.to_string().len() as f64;
            let _ = writeln!(
                o,
                r##"<text class="move-number" x="{:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="2.5" paint-order="stroke">{k}</text>"##,
                x_of(i % n),
                y_of(i / n) + CELL * 0.14,
                (CELL * 0.9 / digits.max(2.0)).min(CELL * 0.42)
            );
        }
    }
    // the previous move: a red ring on its stone
    if let Some(i) = f.last_move {
        let _ = writeln!(
            o,
            r##"<circle class="last-move" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"##,
            x_of(i % n),
            y_of(i / n),
            CELL * 0.3
        );
    }
    // one transparent target per point, on top, named by its label: `m3go serve` makes the
    // figure clickable with these
    for i in 0..n * n {
        let _ = writeln!(
            o,
            r##"<rect class="point" data-point="{}" x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="#000" fill-opacity="0"/>"##,
            pos.board().point(i),
            x_of(i % n) - CELL / 2.0,
            y_of(i / n) - CELL / 2.0
        );
    }
    // legend
    let lx = 14.0 + x0.min(60.0);
    let mut ly = legend_top;
    let icon = |o: &mut String, x: f64, y: f64, kind: &str| {
        let r = 7.0;
        let _ = match kind {
            "black" => write!(o, r##"<circle cx="{x}" cy="{y}" r="{r}" fill="#111"/>"##),
            "white" => write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="#f8f8f8" stroke="#333"/>"##
            ),
            "flower" => write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="url(#flower)" stroke="#444"/>"##
            ),
            "bstar" => write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="url(#flower)" stroke="#444"/><circle cx="{x}" cy="{y}" r="4.5" fill="#000" stroke="#fff" stroke-width="1.5"/>"##
            ),
            "wstar" => write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="url(#flower)" stroke="#444"/><circle cx="{x}" cy="{y}" r="4.5" fill="#fff" stroke="#000" stroke-width="1.5"/>"##
            ),
            // the eye shading over the board's wood, as on the board
            "beye" => write!(
                o,
                r##"<rect x="{}" y="{}" width="14" height="14" fill="{WOOD}"/><rect x="{}" y="{}" width="14" height="14" fill="{BLACK_EYE}" fill-opacity="{BLACK_EYE_OPACITY}"/>"##,
                x - 7.0,
                y - 7.0,
                x - 7.0,
                y - 7.0
            ),
            "offboard" => write!(
                o,
                r##"<rect x="{}" y="{}" width="14" height="14" fill="url(#offboard)"/>"##,
                x - 7.0,
                y - 7.0
            ),
            "bfromflower" | "wfromflower" => {
                let fill = if kind == "bfromflower" {
                    "#111"
                } else {
                    "#f8f8f8"
                };
                write!(
                    o,
                    r##"<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="#333"/><circle cx="{x}" cy="{y}" r="4.9" fill="none" stroke="#9a9a9a" stroke-width="2" stroke-dasharray="3 2"/>"##
                )
            }
            _ => write!(
                o,
                r##"<rect x="{}" y="{}" width="14" height="14" fill="{WOOD}"/><rect x="{}" y="{}" width="14" height="14" fill="{WHITE_EYE}" fill-opacity="{WHITE_EYE_OPACITY}"/>"##,
                x - 7.0,
                y - 7.0,
                x - 7.0,
                y - 7.0
            ),
        };
    };
    let text = |o: &mut String, x: f64, y: f64, s: &str| {
        let _ = writeln!(
            o,
            r#"<text class="legend" x="{x:.1}" y="{:.1}" font-size="13">{s}</text>"#,
            y + 4.5
        );
    };
    o.push_str("<g class=\"legend\">\n");
    icon(&mut o, lx + 7.0, ly, "black");
    text(&mut o, lx + 18.0, ly, say("black", "black 黑"));
    icon(&mut o, lx + 87.0, ly, "white");
    text(&mut o, lx + 98.0, ly, say("white", "white 白"));
    if view != View::Upper {
        icon(&mut o, lx + 167.0, ly, "flower");
        text(
            &mut o,
            lx + 178.0,
            ly,
            say(
                "flower (grey zebra)",
                "flower 花子 (grey zebra, 灰底斑马纹)",
            ),
        );
    } else {
        icon(&mut o, lx + 167.0, ly, "offboard");
        text(
            &mut o,
            lx + 178.0,
            ly,
            say(
                "neutral flower: off-board in the upper board",
                "neutral flower: off-board in the upper board (中性花棋串)",
            ),
        );
    }
    ly += 22.0;
    match view {
        View::Holographic => {
            icon(&mut o, lx + 7.0, ly, "bstar");
            icon(&mut o, lx + 25.0, ly, "wstar");
            text(
                &mut o,
                lx + 36.0,
                ly,
                say(
                    "black / white star: flower string of black / white attribute",
                    "black / white star: flower string of black / white attribute (黑性 / 白性花棋串)",
                ),
            );
        }
        View::Direct => text(
            &mut o,
            lx,
            ly,
            say(
                "direct board: every flower as placed, whatever its attribute",
                "direct board (直弈棋局): every flower as placed, whatever its attribute",
            ),
        ),
        View::Upper => {
            icon(&mut o, lx + 7.0, ly, "bfromflower");
            icon(&mut o, lx + 25.0, ly, "wfromflower");
            text(
                &mut o,
                lx + 36.0,
                ly,
                say(
                    "dashed ring: a flower of black / white attribute, a stone of that colour",
                    "dashed ring: a flower of black / white attribute, a stone of that colour (上层棋局)",
                ),
            );
        }
    }
    ly += 22.0;
    icon(&mut o, lx + 7.0, ly, "beye");
    icon(&mut o, lx + 25.0, ly, "weye");
    text(
        &mut o,
        lx + 36.0,
        ly,
        say(
            "shaded: private eye of a black / white string",
            "shaded: private eye (私眼) of a black / white string",
        ),
    );
    if f.last_move.is_some() {
        let _ = writeln!(
            o,
            r##"<circle cx="{:.1}" cy="{ly:.1}" r="6" fill="none" stroke="{LAST_MOVE}" stroke-width="2.5"/>"##,
            lx + 407.0
        );
        text(&mut o, lx + 418.0, ly, "the previous move");
    }
    ly += 22.0;
    text(
        &mut o,
        lx,
        ly,
        say(
            "flower forbidden points: C capture point · E one-liberty eye · T tiger's mouth",
            "flower forbidden points: C capture point 提吃点 · E one-liberty eye 一气眼 · T tiger's mouth 虎口",
        ),
    );
    ly += 22.0;
    text(
        &mut o,
        lx,
        ly,
        &format!(
            r#"<tspan fill="{RED}">red</tspan>: forbidden to both flowers (■ and ▲) · <tspan fill="{BLUE}">blue ■</tspan>: to black's {} only · <tspan fill="{BROWN}">brown ▲</tspan>: to white's {} only"#,
            say("flower", "华"),
            say("flower", "花")
        ),
    );
    o.push_str("</g>\n</svg>\n");
    o
}

const RESET: &str = "\x1b[0m";

fn bg(code: u8) -> String {
    format!("\x1b[48;5;{code}m")
}

fn fg(code: u8) -> String {
    format!("\x1b[38;5;{code}m")
}

/// The position for a colour terminal (256-colour ANSI): stones as discs, flowers as `◍`, a
/// flower with a black / white star as `◉` in black / white, neutral flowers of the upper
/// layer as `▒`, private eyes on a blue (black's) or red (white's) ground, forbidden points as
/// their letters (red: both flowers, blue: black's only, brown: white's only).
pub fn ansi(pos: &Position, view: View) -> String {
    ansi_labelled(pos, view, Labels::Chinese)
}

/// [`ansi`] with its edges labelled in `labels`.
pub fn ansi_labelled(pos: &Position, view: View, labels: Labels) -> String {
    let f = Figure::new(pos);
    let n = f.size;
    let board_bg = 180u8;
    let mut o = String::new();
    let (_, row_labels) = labels.edges(n);
    let header = labels.header(n);
    let _ = writeln!(o, "{} — {} layer", f.title, view.name());
    let _ = writeln!(o, "   {header}");
    for (r, &yl) in row_labels.iter().enumerate() {
        let yl = Labels::cell(yl);
        let _ = write!(o, "{yl} ");
        for c in 0..n {
            let i = r * n + c;
            let ground = match f.eye_owner[i] {
                Some(Colour::Black) => 111,
                Some(Colour::White) => 217,
                None => board_bg,
            };
            let cell = match (f.stones[i], view) {
                (None, _) => match f.forbidden[i] {
                    [None, None] => format!("{}·", fg(94)),
                    [Some(b), Some(w)] if letter(b) == letter(w) => {
                        format!("\x1b[1m{}{}", fg(160), letter(b).to_ascii_lowercase())
                    }
                    [Some(b), _] => {
                        format!("\x1b[1m{}{}", fg(21), letter(b).to_ascii_lowercase())
                    }
                    [None, Some(w)] => {
                        format!("\x1b[1m{}{}", fg(130), letter(w).to_ascii_lowercase())
                    }
                },
                (Some(Stone::Black), _) => format!("{}●", fg(16)),
                (Some(Stone::White), _) => format!("{}●", fg(231)),
                (Some(Stone::Flower), View::Upper) => match f.upper[i] {
                    Cell::Stone(Colour::Black) => format!("{}●", fg(16)),
                    Cell::Stone(Colour::White) => format!("{}●", fg(231)),
                    _ => format!("{}▒", fg(242)),
                },
                (Some(Stone::Flower), View::Holographic) => match f.attribute[i] {
                    Some(Attribute::Black) => format!("{}◉", fg(16)),
                    Some(Attribute::White) => format!("{}◉", fg(231)),
                    _ => format!("{}◍", fg(244)),
                },
                (Some(Stone::Flower), View::Direct) => format!("{}◍", fg(244)),
            };
            let _ = write!(o, "{}{cell} {RESET}", bg(ground));
        }
        let _ = writeln!(o, " {yl}");
    }
    let _ = writeln!(o, "   {header}");
    let _ = writeln!(
        o,
        "{}●{RESET} black  {}●{RESET} white  {}◍{RESET} flower  {}◉{RESET}/{}◉{RESET} black/white star  {}  {RESET} black's eye  {}  {RESET} white's eye  c e t: capture point, one-liberty eye, tiger's mouth ({}red{RESET} both, {}blue{RESET} black's flower, {}brown{RESET} white's flower)",
        fg(16).replace("38;5;16", "38;5;16;48;5;180"),
        fg(231).replace("38;5;231", "38;5;231;48;5;180"),
        fg(244),
        fg(16).replace("38;5;16", "38;5;16;48;5;180"),
        fg(231).replace("38;5;231", "38;5;231;48;5;180"),
        bg(111),
        bg(217),
        fg(160),
        fg(21),
        fg(130)
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let text = svg(&pos, View::Holographic);
        assert!(!text.contains("last-move"), "no history, no mark");
        let mv = crate::game::play::Move {
            action: crate::game::play::Action::Place(crate::board::coord::Point::new(0, 2)),
            number: None,
            turn: None,
        };
        let (next, _) = pos.play(&mv).expect("华9 at O二 is legal");
        let text = svg(&next, View::Holographic);
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
        let (passed, _) = next.play(&pass).expect("pass");
        assert!(!svg(&passed, View::Holographic).contains("last-move"));
    }

    #[test]
    fn each_layer_legend_shows_what_that_layer_draws() {
        let pos = example();
        for view in [View::Direct, View::Holographic, View::Upper] {
            let text = svg(&pos, view);
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
        let text = svg(&pos, View::Holographic);
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let stones = |c: char| EXAMPLE.chars().filter(|&x| x == c).count();
        assert_eq!(count(&doc, "circle", "stone black"), stones('X'));
        assert_eq!(count(&doc, "circle", "stone white"), stones('O'));
        assert_eq!(count(&doc, "circle", "stone flower"), stones('#'));
        // stars: one per attributed flower stone, as the engine decides
        let a = Analysis::new(pos.board(), pos.rules());
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
        let d = svg(&pos, View::Direct);
        let doc = roxmltree::Document::parse(&d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count(&doc, "circle", "star star-black"), 0);
        assert_eq!(count(&doc, "circle", "stone flower"), 5);
        let u = svg(&pos, View::Upper);
        let doc = roxmltree::Document::parse(&u).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count(&doc, "circle", "stone black from-flower"), 3);
        assert_eq!(count(&doc, "circle", "stone white from-flower"), 1);
        assert_eq!(count(&doc, "rect", "offboard"), 1);
        assert_eq!(count(&doc, "circle", "stone flower"), 0);
    }

    #[test]
    fn m20_holo_ansi_rendering_has_one_row_per_line_and_colours() {
        let pos = example();
        let t = ansi(&pos, View::Holographic);
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
