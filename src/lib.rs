//! m3go — the reference rules interpreter for three-colour Go: Meng three-colour Go (萌式三色围棋,
//! M3Go, 2016 and 2020 texts), Dullstone Go (钝石三色围棋) and Flystone Go (飞石围棋).
//!
//! Data flows one way: direct board → lower layer → strings → private eyes → flower attributes →
//! upper layer → legality, captures, score. Each rule clause has an id in `rules.md` and one
//! function whose doc comment starts with that id.
#![forbid(unsafe_code)]

/// `eprintln!` through [`error::write_err`]: a message to a closed standard error is dropped
/// instead of panicking (`eprintln!` panics when stderr is a closed pipe).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::error::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub mod board;
pub mod cli;
pub mod conform;
pub mod error;
pub mod formats;
pub mod game;
pub mod judge;
pub mod rules;
pub mod serve;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tools;

pub use board::coord::{Labels, Point, Target};
pub use board::grid::{Board, Colour, Stone};
pub use board::layers::{Attribute, Cell, Layer};
pub use formats::report::AnalysisReport;
pub use game::order::{Kind, Turn};
pub use game::play::{Action, Illegal, Move, Position, Report};
pub use game::refusal::Refusal;
pub use game::setup::{InputError, Setup};
pub use judge::analysis::Analysis;
pub use judge::scoring::Score;
pub use rules::Rules;
