//! The game layer: who plays which stone when (schedules), the move notation, the position and
//! its moves with the capture cascade, advancing a position without a report on the engine of
//! choice, and the validated setup a position is built from. Builds on [`crate::judge`].

pub mod cascade;
pub(crate) mod fast;
pub mod history;
pub mod move_report;
pub mod moves;
pub mod notation;
pub mod order;
pub mod position;
pub mod refusal;
pub mod setup;
pub mod text;

/// The position's two ways of moving, submodules of [`position`] (every `impl Position` is
/// there), at the paths the rest of the crate names them by: `game::play` (the reference
/// move and its report) and `game::advance` (the engine choice and the next position without
/// a report).
pub use position::{advance, play};
