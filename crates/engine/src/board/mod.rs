//! The board layer: coordinates, the direct board, the lower and upper layers and the strings
//! of a layer. Depends only on [`crate::rules`]-free geometry; everything above builds on it.

pub mod coord;
pub mod grid;
pub mod labeled;
pub mod layers;
pub mod strings;
