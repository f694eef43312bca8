//! The game layer: who plays which stone when (schedules), the move notation, the position and
//! its moves with the capture cascade, advancing a position without a report on the engine of
//! choice, and the validated setup a position is built from. Builds on [`crate::judge`].

#[cfg(feature = "testing")]
pub mod cascade;
#[cfg(not(feature = "testing"))]
pub(crate) mod cascade;
pub(crate) mod fast;
#[cfg(feature = "testing")]
pub mod history;
#[cfg(not(feature = "testing"))]
pub(crate) mod history;
#[cfg(feature = "testing")]
pub mod move_report;
#[cfg(not(feature = "testing"))]
pub(crate) mod move_report;
#[cfg(feature = "testing")]
pub mod moves;
#[cfg(not(feature = "testing"))]
pub(crate) mod moves;
#[cfg(feature = "testing")]
pub mod notation;
#[cfg(not(feature = "testing"))]
pub(crate) mod notation;
#[cfg(feature = "testing")]
pub mod order;
#[cfg(not(feature = "testing"))]
pub(crate) mod order;
#[cfg(feature = "testing")]
pub mod position;
#[cfg(not(feature = "testing"))]
pub(crate) mod position;
#[cfg(feature = "testing")]
pub mod refusal;
#[cfg(not(feature = "testing"))]
pub(crate) mod refusal;
#[cfg(feature = "testing")]
pub mod setup;
#[cfg(not(feature = "testing"))]
pub(crate) mod setup;
#[cfg(feature = "testing")]
pub mod text;
#[cfg(not(feature = "testing"))]
pub(crate) mod text;

/// The position's two ways of moving, submodules of [`position`] (every `impl Position` is
/// there), at the paths the rest of the crate names them by: `game::play` (the reference
/// move and its report) and `game::advance` (the engine choice and the next position without
/// a report).
pub(crate) use position::{advance, play};

pub use cascade::CascadeStep;
pub use history::History;
pub use move_report::{AttributeChange, NamedString};
pub use notation::{MovePastLimit, NotationError, NotationProblem, Prefix};
pub use order::{FlystoneRecord, FlystoneState, Seat, Sides, SplitMix64, TeamTurn};
pub use setup::{from_yaml, parse_yaml, without_bom, PositionError, Problem};
pub use text::{Part, Piece, Text};
