//! The judging layer: the clauses that decide verdicts on one board — closed regions and private
//! eyes (2020 and 2016), flower attributes, the analysis that chains them, the forbidden points,
//! long life and scoring. Reads [`crate::board`] and [`crate::rules`]; knows nothing of moves.

internal_mods!(
    analysis,
    attribute,
    concepts2016,
    eyes,
    eyes2016,
    forbidden,
    freeze,
    longlife,
    rings2016,
    scoring,
    units
);

pub use analysis::FlowerInfo;
pub use attribute::Counts;
pub use concepts2016::EyeKind;
pub use eyes::{private_eyes, Region, RegionVerdict, VerdictCode};
pub use eyes2016::{common_eyes_2016, CommonEye2016, Verdict2016};
pub use forbidden::{is_one_liberty_eye, Forbidden, UpperView};
pub use freeze::{boards_needed, freezes, FrozenString};
pub use scoring::{DeadStoneProblem, Owner, ScorePoint, Winner};
