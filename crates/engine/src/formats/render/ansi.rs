//! The figure of a position for a colour terminal (256-colour ANSI).

use super::{letter, Figure, View};
use crate::board::coord::Labels;
use crate::board::grid::{Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::game::play::Position;
use std::fmt::Write as _;

const RESET: &str = "\x1b[0m";

fn bg(code: u8) -> String {
    format!("\x1b[48;5;{code}m")
}

fn fg(code: u8) -> String {
    format!("\x1b[38;5;{code}m")
}

impl View {
    /// The position for a colour terminal (256-colour ANSI) in this view, its edges labelled in
    /// `labels`: stones as discs, flowers as `◍`, a flower with a black / white star as `◉` in
    /// black / white, neutral flowers of the upper layer as `▒`, private eyes on a blue
    /// (black's) or red (white's) ground, forbidden points as their letters (red: both flowers,
    /// blue: black's only, brown: white's only).
    pub fn ansi(self, pos: &Position, labels: Labels) -> String {
        board_text(pos, self, labels, true)
    }

    /// The position as text without colour (a pipe, a file, `NO_COLOR`): every distinction of
    /// [`View::ansi`] kept in the glyph alone — black `●`, white `○`, flower `◍`, black / white
    /// star `◉` / `◎`, neutral upper flower `▒`, an empty point of black's / white's private eye
    /// `▪` / `▫`, forbidden points upper case for both flowers (`C E T`), lower case for black's
    /// flower only (`c e t`), circled for white's flower only (`ⓒ ⓔ ⓣ`).
    pub fn plain(self, pos: &Position, labels: Labels) -> String {
        board_text(pos, self, labels, false)
    }
}

/// One point's glyph: its ANSI foreground colour and its character in colour, its character
/// alone without.
struct Glyph {
    fg: u8,
    colour: char,
    plain: char,
}

const fn glyph(fg: u8, colour: char, plain: char) -> Glyph {
    Glyph { fg, colour, plain }
}

/// The circled lower-case letter of `c` (a–z), for a point forbidden to white's flower only.
fn circled(c: char) -> char {
    let c = c.to_ascii_lowercase();
    if c.is_ascii_lowercase() {
        char::from_u32(0x24D0 + (c as u32 - 'a' as u32)).unwrap_or(c)
    } else {
        c
    }
}

fn board_text(pos: &Position, view: View, labels: Labels, colour: bool) -> String {
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
            let g = match (f.stones[i], view) {
                (None, _) => match f.forbidden[i] {
                    [None, None] => match f.eye_owner[i] {
                        Some(Colour::Black) => glyph(94, '·', '▪'),
                        Some(Colour::White) => glyph(94, '·', '▫'),
                        None => glyph(94, '·', '·'),
                    },
                    [Some(b), Some(w)] if letter(b) == letter(w) => {
                        let l = letter(b);
                        glyph(160, l.to_ascii_lowercase(), l.to_ascii_uppercase())
                    }
                    [Some(b), _] => {
                        let l = letter(b).to_ascii_lowercase();
                        glyph(21, l, l)
                    }
                    [None, Some(w)] => {
                        let l = letter(w).to_ascii_lowercase();
                        glyph(130, l, circled(l))
                    }
                },
                (Some(Stone::Black), _) => glyph(16, '●', '●'),
                (Some(Stone::White), _) => glyph(231, '●', '○'),
                (Some(Stone::Flower), View::Upper) => match f.upper[i] {
                    Cell::Stone(Colour::Black) => glyph(16, '●', '●'),
                    Cell::Stone(Colour::White) => glyph(231, '●', '○'),
                    _ => glyph(242, '▒', '▒'),
                },
                (Some(Stone::Flower), View::Holographic) => match f.attribute[i] {
                    Some(Attribute::Black) => glyph(16, '◉', '◉'),
                    Some(Attribute::White) => glyph(231, '◉', '◎'),
                    _ => glyph(244, '◍', '◍'),
                },
                (Some(Stone::Flower), View::Direct) => glyph(244, '◍', '◍'),
            };
            if colour {
                let bold = if g.colour.is_ascii_alphabetic() {
                    "\x1b[1m"
                } else {
                    ""
                };
                let _ = write!(o, "{}{bold}{}{} {RESET}", bg(ground), fg(g.fg), g.colour);
            } else {
                let _ = write!(o, "{} ", g.plain);
            }
        }
        let _ = writeln!(o, " {yl}");
    }
    let _ = writeln!(o, "   {header}");
    if colour {
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
    } else {
        let _ = writeln!(
            o,
            "● black  ○ white  ◍ flower  ◉/◎ black/white star  ▒ neutral flower  ▪/▫ black's/white's eye  c e t: capture point, one-liberty eye, tiger's mouth (C E T both flowers, c e t black's flower, ⓒ ⓔ ⓣ white's flower)"
        );
    }
    o
}
