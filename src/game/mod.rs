//! The game layer: who plays which stone when (schedules), the move notation, the position and
//! its moves with the capture cascade, advancing a position without a report on the engine of
//! choice, and the validated setup a position is built from. Builds on [`crate::judge`].

pub mod advance;
pub mod cascade;
pub mod fast;
pub mod move_report;
pub mod moves;
pub mod notation;
pub mod order;
pub mod play;
pub mod position;
pub mod refusal;
pub mod setup;
pub mod text;
