//! The judging layer: the clauses that decide verdicts on one board — closed regions and private
//! eyes (2020 and 2016), flower attributes, the analysis that chains them, the forbidden points,
//! long life and scoring. Reads [`crate::board`] and [`crate::rules`]; knows nothing of moves.

#[cfg(feature = "testing")]
pub mod analysis;
#[cfg(not(feature = "testing"))]
pub(crate) mod analysis;
#[cfg(feature = "testing")]
pub mod attribute;
#[cfg(not(feature = "testing"))]
pub(crate) mod attribute;
#[cfg(feature = "testing")]
pub mod concepts2016;
#[cfg(not(feature = "testing"))]
pub(crate) mod concepts2016;
#[cfg(feature = "testing")]
pub mod eyes;
#[cfg(not(feature = "testing"))]
pub(crate) mod eyes;
#[cfg(feature = "testing")]
pub mod eyes2016;
#[cfg(not(feature = "testing"))]
pub(crate) mod eyes2016;
#[cfg(feature = "testing")]
pub mod forbidden;
#[cfg(not(feature = "testing"))]
pub(crate) mod forbidden;
#[cfg(feature = "testing")]
pub mod freeze;
#[cfg(not(feature = "testing"))]
pub(crate) mod freeze;
#[cfg(feature = "testing")]
pub mod longlife;
#[cfg(not(feature = "testing"))]
pub(crate) mod longlife;
#[cfg(feature = "testing")]
pub mod scoring;
#[cfg(not(feature = "testing"))]
pub(crate) mod scoring;
#[cfg(feature = "testing")]
pub mod units;
#[cfg(not(feature = "testing"))]
pub(crate) mod units;

pub use analysis::FlowerInfo;
pub use attribute::Counts;
pub use concepts2016::EyeKind;
pub use eyes::{private_eyes, Region, RegionVerdict, VerdictCode};
pub use eyes2016::{common_eyes_2016, true_eye_2016, Verdict2016};
pub use forbidden::{is_one_liberty_eye, Forbidden, UpperView};
pub use freeze::{boards_needed, freezes, FrozenString};
pub use scoring::{DeadStoneProblem, Owner, ScorePoint, Winner};
