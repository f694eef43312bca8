//! m3go — the reference rules interpreter for three-colour Go: Meng three-colour Go (萌式三色围棋,
//! M3Go, 2016 and 2020 texts), Dullstone Go (钝石三色围棋) and Flystone Go (飞石围棋).
//!
//! Data flows one way: direct board → lower layer → strings → private eyes → flower attributes →
//! upper layer → legality, captures, score. Each rule clause has an id in `rules.md` and one
//! function whose doc comment starts with that id.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod attribute;
pub mod board;
pub mod cli;
pub mod conform;
pub mod coord;
pub mod diff;
pub mod explain;
pub mod eyes;
pub mod eyes2016;
pub mod fast;
pub mod forbidden;
pub mod layers;
pub mod longlife;
pub mod notation;
pub mod order;
pub mod perft;
pub mod play;
pub mod position;
pub mod record;
pub mod render;
pub mod replay;
pub mod report;
pub mod rules;
pub mod scoring;
pub mod sgf;
pub mod strings;
#[cfg(feature = "testing")]
pub mod testing;

pub use analysis::Analysis;
pub use board::{Board, Colour, Stone};
pub use coord::{Labels, Point, Target};
pub use layers::{Attribute, Cell, Layer};
pub use order::{Kind, Turn};
pub use play::{Action, Illegal, Move, Position, Report};
pub use position::{InputError, Setup};
pub use report::AnalysisReport;
pub use rules::Rules;
pub use scoring::Score;
