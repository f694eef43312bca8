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
