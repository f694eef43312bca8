//! The board layer: coordinates, the direct board, the lower and upper layers and the strings
//! of a layer. Depends only on [`crate::rules`]-free geometry; everything above builds on it.

internal_mods!(coord, grid, labeled, layers, strings);

pub use coord::{CoordError, CoordProblem, LabelBuf, StringName, UnknownLabels};
pub use grid::{BoardError, BoardProblem, Neighbours};
pub use labeled::Labeled;
pub use strings::{flood, Group, Strings};
