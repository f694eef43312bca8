//! Test support for `tests/` and `fuzz/`, one concept a file:
//! - [`boards`]: the cell codes, settling a board, a fresh validated position;
//! - [`generators`]: settled positions, move sequences and eye-simulation cases
//!   (`arbitrary::Arbitrary`), each with its encoder so that seed corpora can be written from
//!   `spec/cases`;
//! - [`rule_sets`]: every preset (a preset that fails to build panics, naming it) and the
//!   single-option variants that "fast equals reference" compares on;
//! - [`symmetry`]: the eight board symmetries, the colour swap and the point facts they map;
//! - [`cascade`]: a literal re-reading of the capture cascade, round by round;
//! - [`literal_eyes`]: the LITERAL fill-simulation oracle of 003's private eye;
//! - [`eye_checks`]: the engine's private-eye verdicts against that oracle and the fast engine;
//! - [`checks`]: one checker per invariant (each returns a [`CheckFailure`] naming the position
//!   and the failing part);
//! - [`fast`]: the fast engine (crate-private otherwise) and the reference's random game;
//! - [`round_trips`]: the setup's YAML and JSON round trips, and what a record's must keep.
//!
//! Every item is also re-exported here (`m3go::testing::check_move`, …). Nothing here is a rule
//! of the game: the engine never calls this module.

pub mod boards;
pub mod cascade;
pub mod checks;
pub mod eye_checks;
pub mod failure;
pub mod fast;
pub mod generators;
pub mod literal_eyes;
pub mod round_trips;
pub mod rule_sets;
pub mod symmetry;

pub use boards::*;
pub use cascade::*;
pub use checks::*;
pub use eye_checks::*;
pub use failure::CheckFailure;
pub use fast::*;
pub use generators::*;
pub use literal_eyes::*;
pub use round_trips::*;
pub use rule_sets::*;
pub use symmetry::*;
