//! The rules engine of m3go, the reference interpreter for three-colour Go: Meng three-colour Go (萌式三色围棋,
//! M3Go, 2016 and 2020 texts), Dullstone Go (钝石三色围棋) and Flystone Go (飞石围棋).
//!
//! Data flows one way: direct board → lower layer → strings → private eyes → flower attributes →
//! upper layer → legality, captures, score. Each rule clause has an id in `rules.md` and one
//! function whose doc comment starts with that id.
//!
//! # Example: load a position, analyse it, play a move, undo it, score
//!
//! ```
//! use m3go_engine::formats::report::AnalysisReport;
//! use m3go_engine::game::from_yaml;
//! use m3go_engine::{Move, Setup};
//!
//! // A position file (docs/src/referee.md, "Position files"): black's flower (华) plays move 289.
//! let yaml = "rules: m3go-2020
//! move: 289
//! diagram: |
//!   . . . . .
//!   . X X X .
//!   . X . X #
//!   . X X X .
//!   . . . O O
//! ";
//! let pos = from_yaml::<Setup>(yaml, "example.yaml")?.to_position("example.yaml")?;
//!
//! // The analysis `m3go analyze` prints; serialized, it is the `--format json` object.
//! let report = AnalysisReport::new(&pos);
//! assert_eq!(report.size, 5);
//! assert_eq!(report.to_move.symbol, "华");
//! let a1 = m3go_engine::Point::parse("A一", 5)?;
//! let black = report.strings.iter().find(|s| s.points.contains(&a1));
//! assert_eq!(black.map(|s| s.private_eyes.len()), Some(1)); // OO is black's private eye
//! assert!(report.legal_moves.iter().any(|m| m.to_string() == "华289.二二"));
//! let json = serde_json::to_value(&report)?;
//! assert_eq!(json["format"], m3go_engine::formats::report::AnalysisReport::FORMAT);
//!
//! // Play a move: the next position and the report of what the move did.
//! let mv = Move::parse_in("二二", pos.rules(), pos.board().size())?;
//! let (next, played) = pos.play_reported(&mv)?;
//! assert_eq!(played.notation.to_string(), "华289.二二");
//! assert_eq!(next.move_number(), 290);
//!
//! // The legal moves are moves `play` takes (the fast engine the position keeps); a move made
//! // in place is taken back exactly; the score of the position.
//! let legal = pos.legal_moves();
//! assert!(legal.iter().any(|m| m.action == mv.action));
//! assert_eq!(pos.play(mv)?, next);
//! let mut here = pos.clone();
//! let undo = here.play_in_place(legal[0])?;
//! assert_eq!(here.move_number(), 290);
//! here.undo(undo);
//! assert_eq!(here, pos);
//! let score = pos.score()?;
//! println!("{:?} wins", score.winner);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate is the engine alone — the board, the judge, the game and the position and
//! record formats — with only its rule dependencies. The conformance runner, the match
//! referee, the server and the `m3go` command are the crate `m3go` above it.
#![forbid(unsafe_code)]

/// Declares the files below a layer: crate-private, and public with the `testing` feature (for
/// the workspace's tests, benches and fuzz targets); the layer re-exports what users name.
macro_rules! internal_mods {
    ($($name:ident),* $(,)?) => {
        $(
            #[cfg(feature = "testing")]
            pub mod $name;
            #[cfg(not(feature = "testing"))]
            pub(crate) mod $name;
        )*
    };
}

// The crate's face: the nouns at the root (one path each), the secondary items of each layer in
// `board`, `game`, `judge`, the rule options in `rules`, the output and record formats in
// `formats`. The files below each layer are crate-private (public with the `testing` feature,
// for the workspace's tests, benches and fuzz targets).
pub mod board;
#[cfg(feature = "testing")]
pub mod error;
#[cfg(not(feature = "testing"))]
mod error;
pub mod formats;
pub mod game;
pub mod judge;
// rules.rs is the crate's `rule_set`: `rules` below shows its options and keeps the crate's
// `crate::rules::…` paths, while `Rules` itself is named at the root only.
#[path = "rules.rs"]
mod rule_set;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// The options of a rule set, one enum per option of `rules.md` (what a [`Rules`] holds), and
/// the errors of reading one.
pub mod rules {
    #[allow(unused_imports)]
    pub(crate) use crate::rule_set::*;
    pub use crate::rule_set::{
        AttributeRule, CaptureTiming, ClosedRegion, ClosedRegion2016, EyeRule, FalseEye2016,
        FlowerCaptureCheck, FlowerEnclosed, FlystoneMode, ForbiddenOwner, GameEnd, GreyFreeze, Ko,
        Komi, LongLifeEyes, Preset, RulesError, RulesField, RulesProblem, RulesSpec, Schedule,
        Suicide, SuicideTiming, TigersMouth,
    };
}

pub use board::coord::{Labels, Point, Target};
pub use board::grid::{Board, Colour, Stone};
pub use board::layers::{Attribute, Cell, Layer};
pub use error::{ErrorKind, InputError, Listed, Place, MAX_INPUT_BYTES};
pub use game::advance::Engine;
pub use game::advance::Undo;
pub use game::move_report::{Illegal, Report};
pub use game::moves::{Action, Move};
pub use game::notation::Notation;
pub use game::order::{StoneKind, Turn};
pub use game::position::Position;
pub use game::refusal::Refusal;
pub use game::setup::Setup;
pub use judge::analysis::Analysis;
pub use judge::scoring::{Score, ScoreError};
pub use judge::units::{HalfPoints, QuarterPoints};
pub use rule_set::Rules;
