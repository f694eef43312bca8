//! The SVG figure of a position: the board in wood with its edge labels, stones, flowers in the
//! zebra pattern of 004, the stars of attributed flowers, private eyes shaded, forbidden points
//! lettered, move numbers, and the legend of the layer shown.

use super::{letter, move_numbers, Figure, View};
use crate::board::coord::{Labels, Point};
use crate::board::grid::{Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::game::play::Position;
use crate::judge::forbidden::Forbidden;
use crate::judge::scoring::Owner;
use std::fmt::Write as _;

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
pub(super) const WOOD: &str = "#dcb35c";
/// The shading of a black string's private eye, over the wood (board and legend alike).
pub(super) const BLACK_EYE: &str = "#1e6bff";
pub(super) const BLACK_EYE_OPACITY: f64 = 0.5;
/// The shading of a white string's private eye.
pub(super) const WHITE_EYE: &str = "#ff3355";
pub(super) const WHITE_EYE_OPACITY: f64 = 0.42;
const BLUE: &str = "#1040c0";
const BROWN: &str = "#8a4a00";

impl View {
    /// The SVG figure of a position in this view, its edges labelled in `labels` (the Latin
    /// system needs no CJK font).
    pub fn svg(self, pos: &Position, labels: Labels) -> String {
        draw_svg(pos, self, labels, None)
    }

    /// [`View::svg`] with each stone's move number (`move_numbers`) written on it.
    pub fn svg_numbered(self, pos: &Position, labels: Labels) -> String {
        draw_svg(pos, self, labels, Some(&move_numbers(pos)))
    }

    /// [`View::svg`] with the given move number written on each stone (by point index; a
    /// record's own numbering, as the page's loaded records keep it).
    pub fn svg_with_numbers(
        self,
        pos: &Position,
        labels: Labels,
        numbers: &[Option<u32>],
    ) -> String {
        draw_svg(pos, self, labels, Some(numbers))
    }
}

/// Where a point sits in the figure: the board's size and the left offset that centres a small
/// board in the minimum width.
struct Place {
    n: usize,
    x0: f64,
}

impl Place {
    fn x(&self, c: usize) -> f64 {
        self.x0 + MARGIN + c as f64 * CELL
    }
    fn y(&self, r: usize) -> f64 {
        TITLE + MARGIN + r as f64 * CELL
    }
}

/// The wood's margin around the outer lines.
const PAD: f64 = CELL * 0.62;

/// The English or the Chinese-annotated text of the figure: with the Latin labels nothing in the
/// figure needs a CJK font (English legend and title).
fn say(cjk: bool, en: &'static str, zh: &'static str) -> &'static str {
    if cjk {
        zh
    } else {
        en
    }
}

fn draw_svg(pos: &Position, view: View, labels: Labels, numbers: Option<&[Option<u32>]>) -> String {
    let f = Figure::new(pos);
    let n = f.size;
    let span = (n as f64 - 1.0) * CELL;
    let width = (2.0 * MARGIN + span).max(MIN_WIDTH);
    let x0 = (width - 2.0 * MARGIN - span) / 2.0;
    let legend_top = TITLE + 2.0 * MARGIN + span + 18.0;
    let rows = if f.owner.is_some() { 6.0 } else { 5.0 };
    let height = legend_top + rows * 22.0 + 12.0;
    let at = Place { n, x0 };
    // with the Latin labels nothing in the figure needs a CJK font: English legend and title
    let cjk = labels == Labels::Chinese;
    let title = if cjk { &f.title } else { &f.title_latin };
    let mut o = String::new();
    head(
        &mut o,
        width,
        height,
        &format!("{} — {} layer", title, view.name()),
    );
    wood(&mut o, &f, &at, span);
    edge_labels(&mut o, &at, labels);
    for i in 0..n * n {
        point(&mut o, &f, view, at.x(i % n), at.y(i / n), i);
    }
    owners(&mut o, &f, &at);
    marks(&mut o, &f, &at, numbers);
    // one transparent target per point, on top, named by its label: `m3go serve` makes the
    // figure clickable with these
    for i in 0..n * n {
        let _ = writeln!(
            o,
            r##"<rect class="point" data-point="{}" x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="#000" fill-opacity="0"/>"##,
            pos.board().point(i),
            at.x(i % n) - CELL / 2.0,
            at.y(i / n) - CELL / 2.0
        );
    }
    legend(&mut o, &f, view, cjk, 14.0 + x0.min(60.0), legend_top);
    o.push_str("</svg>\n");
    o
}

/// The figure's opening: the `<svg>` element, its title, the patterns of flowers and off-board
/// points, the white ground and the title line.
fn head(o: &mut String, width: f64, height: f64, title: &str) {
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{FONT}">"#
    );
    let _ = writeln!(o, "<title>{}</title>", xml_escape(title));
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
        xml_escape(title)
    );
}

/// The board under the stones: the wood, the private eyes shaded, the grid and the star points.
fn wood(o: &mut String, f: &Figure, at: &Place, span: f64) {
    let n = at.n;
    let _ = writeln!(
        o,
        r##"<rect class="board" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{WOOD}" stroke="#8a6a2a"/>"##,
        at.x(0) - PAD,
        at.y(0) - PAD,
        span + 2.0 * PAD,
        span + 2.0 * PAD
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
                at.x(i % n) - CELL / 2.0,
                at.y(i / n) - CELL / 2.0
            );
        }
    }
    for k in 0..n {
        let _ = writeln!(
            o,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3a2a10" stroke-width="1"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3a2a10" stroke-width="1"/>"##,
            at.x(0),
            at.y(k),
            at.x(n - 1),
            at.y(k),
            at.x(k),
            at.y(0),
            at.x(k),
            at.y(n - 1)
        );
    }
    let h = Point::half(n);
    for star in crate::board::grid::Board::empty(n)
        .map(|b| b.star_points())
        .unwrap_or_default()
    {
        let (c, r) = ((star.x + h) as usize, (h - star.y) as usize);
        let _ = writeln!(
            o,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3.2" fill="#3a2a10"/>"##,
            at.x(c),
            at.y(r)
        );
    }
}

/// The labels of the columns and rows on the four edges (the Chinese system: tengen = O).
fn edge_labels(o: &mut String, at: &Place, labels: Labels) {
    let n = at.n;
    let (column_labels, row_labels) = labels.edges(n);
    for (k, (&xl, &yl)) in column_labels.iter().zip(&row_labels).enumerate() {
        for y in [at.y(0) - PAD - 10.0, at.y(n - 1) + PAD + 22.0] {
            let _ = writeln!(
                o,
                r#"<text class="label" x="{:.1}" y="{y:.1}" font-size="16" text-anchor="middle">{xl}</text>"#,
                at.x(k)
            );
        }
        for x in [at.x(0) - PAD - 14.0, at.x(n - 1) + PAD + 14.0] {
            let _ = writeln!(
                o,
                r#"<text class="label" x="{x:.1}" y="{:.1}" font-size="16" text-anchor="middle">{yl}</text>"#,
                at.y(k) + 6.0
            );
        }
    }
}

/// What stands on point `i`, centred on (`cx`, `cy`): its stone or flower in the view, or the
/// letters of its forbidden points; a dead stone (M20-SCORE-DEAD) drawn faded, as Sabaki and OGS
/// do, and crossed.
fn point(o: &mut String, f: &Figure, view: View, cx: f64, cy: f64, i: usize) {
    if f.dead[i] {
        o.push_str(r#"<g class="dead" opacity="0.42">"#);
    }
    let rad = CELL * 0.46;
    match (f.stones[i], view) {
        // at scoring the owner's mark takes the point: no forbidden letters
        (None, _) if f.owner.is_some() => return,
        (None, _) => {
            if !forbidden(o, f.forbidden[i], cx, cy) {
                return;
            }
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
    if f.dead[i] {
        let d = CELL * 0.3;
        let _ = writeln!(
            o,
            r##"</g><path class="dead-cross" d="M{:.1} {:.1} L{:.1} {:.1} M{:.1} {:.1} L{:.1} {:.1}" stroke="{RED}" stroke-width="3" stroke-linecap="round"/>"##,
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx - d,
            cy + d,
            cx + d,
            cy - d
        );
    }
}

/// The letters of an empty point's reasons closed to black's and to white's flower, with the
/// shape that tells whose they are; false (nothing drawn) when it is open to both.
fn forbidden(o: &mut String, reasons: [Option<Forbidden>; 2], cx: f64, cy: f64) -> bool {
    let [b, w] = reasons;
    let text = match (b, w) {
        (None, None) => return false,
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
    true
}

/// Each point's owner at scoring (M20-SCORE-AREA and the clauses beside it): a square of the
/// owner's colour on empty points, dead stones, flowers and the stones that count for the
/// other side or nobody; a live stone counting for its own colour needs none.
fn owners(o: &mut String, f: &Figure, at: &Place) {
    let n = at.n;
    if let Some(owner) = &f.owner {
        for (i, &who) in owner.iter().enumerate() {
            let own = match f.stones[i] {
                Some(Stone::Black) => who == Owner::Black,
                Some(Stone::White) => who == Owner::White,
                _ => false,
            };
            if own && !f.dead[i] {
                continue;
            }
            territory(o, at.x(i % n), at.y(i / n), CELL * 0.34, who);
        }
    }
}

/// The move numbers on their stones (black with a white halo: readable on every stone) and the
/// red ring on the previous move's stone.
fn marks(o: &mut String, f: &Figure, at: &Place, numbers: Option<&[Option<u32>]>) {
    let n = at.n;
    for (i, k) in numbers.unwrap_or(&[]).iter().enumerate() {
        if let Some(k) = k {
            let digits = k.to_string().len() as f64;
            let _ = writeln!(
                o,
                r##"<text class="move-number" x="{:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="2.5" paint-order="stroke">{k}</text>"##,
                at.x(i % n),
                at.y(i / n) + CELL * 0.14,
                (CELL * 0.9 / digits.max(2.0)).min(CELL * 0.42)
            );
        }
    }
    if let Some(i) = f.last_move {
        let _ = writeln!(
            o,
            r##"<circle class="last-move" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"##,
            at.x(i % n),
            at.y(i / n),
            CELL * 0.3
        );
    }
}

/// A legend's icon centred on (`x`, `y`): a stone, a flower, a starred flower, an eye's shading,
/// an off-board point or a stone from a flower.
fn legend_icon(o: &mut String, x: f64, y: f64, kind: &str) {
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
}

/// A legend's line of text, its baseline level with an icon centred at height `y`.
fn legend_text(o: &mut String, x: f64, y: f64, s: &str) {
    let _ = writeln!(
        o,
        r#"<text class="legend" x="{x:.1}" y="{:.1}" font-size="13">{s}</text>"#,
        y + 4.5
    );
}

/// The legend of the layer shown, its first line at height `top` and left edge `lx`, in its
/// `legend` group.
fn legend(o: &mut String, f: &Figure, view: View, cjk: bool, lx: f64, top: f64) {
    let say = |en, zh| say(cjk, en, zh);
    let mut ly = top;
    o.push_str("<g class=\"legend\">\n");
    legend_icon(o, lx + 7.0, ly, "black");
    legend_text(o, lx + 18.0, ly, say("black", "black 黑"));
    legend_icon(o, lx + 87.0, ly, "white");
    legend_text(o, lx + 98.0, ly, say("white", "white 白"));
    if view != View::Upper {
        legend_icon(o, lx + 167.0, ly, "flower");
        legend_text(
            o,
            lx + 178.0,
            ly,
            say(
                "flower (grey zebra)",
                "flower 花子 (grey zebra, 灰底斑马纹)",
            ),
        );
    } else {
        legend_icon(o, lx + 167.0, ly, "offboard");
        legend_text(
            o,
            lx + 178.0,
            ly,
            say(
                "neutral flower: off-board in the upper board",
                "neutral flower: off-board in the upper board (中性花棋串)",
            ),
        );
    }
    ly += 22.0;
    legend_layer(o, view, cjk, lx, ly);
    ly += 22.0;
    legend_icon(o, lx + 7.0, ly, "beye");
    legend_icon(o, lx + 25.0, ly, "weye");
    legend_text(
        o,
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
        legend_text(o, lx + 418.0, ly, "the previous move");
    }
    if f.owner.is_some() {
        ly += 22.0;
        territory(o, lx + 7.0, ly, 12.0, Owner::Black);
        territory(o, lx + 25.0, ly, 12.0, Owner::White);
        territory(o, lx + 43.0, ly, 12.0, Owner::Seki);
        territory(o, lx + 61.0, ly, 12.0, Owner::Neutral);
        legend_text(
            o,
            lx + 72.0,
            ly,
            say(
                "at scoring: black's / white's / halved (seki or dame) / nobody's · faded, crossed: dead",
                "at scoring 数子: black's / white's / halved (seki 双活 or dame 单官) / nobody's · faded, crossed: dead 死子",
            ),
        );
    }
    ly += 22.0;
    legend_text(
        o,
        lx,
        ly,
        say(
            "flower forbidden points: C capture point · E one-liberty eye · T tiger's mouth",
            "flower forbidden points: C capture point 提吃点 · E one-liberty eye 一气眼 · T tiger's mouth 虎口",
        ),
    );
    ly += 22.0;
    legend_text(
        o,
        lx,
        ly,
        &format!(
            r#"<tspan fill="{RED}">red</tspan>: forbidden to both flowers (■ and ▲) · <tspan fill="{BLUE}">blue ■</tspan>: to black's {} only · <tspan fill="{BROWN}">brown ▲</tspan>: to white's {} only"#,
            say("flower", "华"),
            say("flower", "花")
        ),
    );
    o.push_str("</g>\n");
}

/// The legend's line of the layer shown: the stars of the holographic board, the direct board's
/// note, or the stones from flowers of the upper board.
fn legend_layer(o: &mut String, view: View, cjk: bool, lx: f64, ly: f64) {
    let say = |en, zh| say(cjk, en, zh);
    match view {
        View::Holographic => {
            legend_icon(o, lx + 7.0, ly, "bstar");
            legend_icon(o, lx + 25.0, ly, "wstar");
            legend_text(
                o,
                lx + 36.0,
                ly,
                say(
                    "black / white star: flower string of black / white attribute",
                    "black / white star: flower string of black / white attribute (黑性 / 白性花棋串)",
                ),
            );
        }
        View::Direct => legend_text(
            o,
            lx,
            ly,
            say(
                "direct board: every flower as placed, whatever its attribute",
                "direct board (直弈棋局): every flower as placed, whatever its attribute",
            ),
        ),
        View::Upper => {
            legend_icon(o, lx + 7.0, ly, "bfromflower");
            legend_icon(o, lx + 25.0, ly, "wfromflower");
            legend_text(
                o,
                lx + 36.0,
                ly,
                say(
                    "dashed ring: a flower of black / white attribute, a stone of that colour",
                    "dashed ring: a flower of black / white attribute, a stone of that colour (上层棋局)",
                ),
            );
        }
    }
}

/// The mark of a point's owner at scoring, a square of side `side` centred on (`x`, `y`):
/// black's filled black, white's white, seki's split on the diagonal into a black and a white
/// half (half a point to each), nobody's a grey square with a cross. Each has a stroke of the
/// other colour, so that it reads on the wood, on a stone and on a flower alike.
fn territory(o: &mut String, x: f64, y: f64, side: f64, who: Owner) {
    let (x0, y0, x1, y1) = (
        x - side / 2.0,
        y - side / 2.0,
        x + side / 2.0,
        y + side / 2.0,
    );
    let _ = match who {
        Owner::Black | Owner::White => {
            let (fill, stroke) = if who == Owner::Black {
                ("#111", "#f8f8f8")
            } else {
                ("#f8f8f8", "#111")
            };
            writeln!(
                o,
                r#"<rect class="territory territory-{who}" x="{x0:.1}" y="{y0:.1}" width="{side:.1}" height="{side:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
            )
        }
        Owner::Seki => writeln!(
            o,
            r##"<g class="territory territory-seki"><path d="M{x0:.1} {y0:.1} L{x1:.1} {y0:.1} L{x0:.1} {y1:.1} Z" fill="#111"/><path d="M{x1:.1} {y0:.1} L{x1:.1} {y1:.1} L{x0:.1} {y1:.1} Z" fill="#f8f8f8"/><rect x="{x0:.1}" y="{y0:.1}" width="{side:.1}" height="{side:.1}" fill="none" stroke="#7a5a1a" stroke-width="1.5"/></g>"##
        ),
        Owner::Neutral => writeln!(
            o,
            r##"<g class="territory territory-neutral"><rect x="{x0:.1}" y="{y0:.1}" width="{side:.1}" height="{side:.1}" fill="#9a9a9a" stroke="#f8f8f8" stroke-width="1.5"/><path d="M{x0:.1} {y0:.1} L{x1:.1} {y1:.1} M{x1:.1} {y0:.1} L{x0:.1} {y1:.1}" stroke="#111" stroke-width="1.2"/></g>"##
        ),
    };
}
