//! The formats layer: game records (move-number game files and SGF), the analysis report, the
//! clause trace of `explain` and the diagrams. Reads and writes what [`crate::game`] plays.

pub mod explain;
mod load;
pub mod record;
pub mod render;
pub mod report;
pub mod score_trace;
pub mod sgf;
