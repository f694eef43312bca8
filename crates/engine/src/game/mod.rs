//! The game layer: who plays which stone when (schedules), the move notation, the position and
//! its moves with the capture cascade, advancing a position without a report on the engine of
//! choice, and the validated setup a position is built from. Builds on [`crate::judge`].

internal_mods!(
    cascade,
    history,
    move_report,
    moves,
    notation,
    order,
    position,
    refusal,
    setup,
    text
);
pub(crate) mod fast;

/// The position's two ways of moving, submodules of [`position`] (every `impl Position` is
/// there), at the paths the rest of the crate names them by: `game::play` (the reference
/// move and its report) and `game::advance` (the engine choice and the next position without
/// a report).
pub(crate) use position::{advance, play};

pub use cascade::CascadeStep;
pub use history::History;
pub use move_report::{AttributeChange, NamedString};
pub use notation::{MovePastLimit, NotationError, NotationProblem, Prefix, Written};
pub use order::{FlystoneRecord, FlystoneState, Seat, Sides, SplitMix64, TeamTurn};
pub use setup::{from_yaml, parse_yaml, without_bom, PositionError, Problem};
pub use text::{Part, Piece, Text};
