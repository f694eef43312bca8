//! The judging layer: the clauses that decide verdicts on one board — closed regions and private
//! eyes (2020 and 2016), flower attributes, the analysis that chains them, the forbidden points,
//! long life and scoring. Reads [`crate::board`] and [`crate::rules`]; knows nothing of moves.

pub mod analysis;
pub mod attribute;
pub mod concepts2016;
pub mod eyes;
pub mod eyes2016;
pub mod forbidden;
pub mod freeze;
pub mod longlife;
pub mod scoring;
