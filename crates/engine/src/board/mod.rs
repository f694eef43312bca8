//! The board layer: coordinates, the direct board, the lower and upper layers and the strings
//! of a layer. Depends only on [`crate::rules`]-free geometry; everything above builds on it.

#[cfg(feature = "testing")]
pub mod coord;
#[cfg(not(feature = "testing"))]
pub(crate) mod coord;
#[cfg(feature = "testing")]
pub mod grid;
#[cfg(not(feature = "testing"))]
pub(crate) mod grid;
#[cfg(feature = "testing")]
pub mod labeled;
#[cfg(not(feature = "testing"))]
pub(crate) mod labeled;
#[cfg(feature = "testing")]
pub mod layers;
#[cfg(not(feature = "testing"))]
pub(crate) mod layers;
#[cfg(feature = "testing")]
pub mod strings;
#[cfg(not(feature = "testing"))]
pub(crate) mod strings;

pub use coord::{CoordError, CoordProblem, LabelBuf, StringName, UnknownLabels};
pub use grid::{BoardError, BoardProblem, Neighbours};
pub use labeled::Labeled;
pub use strings::{flood, Group, Strings};
