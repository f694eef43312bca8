//! m3go — the reference rules interpreter for three-colour Go: Meng three-colour Go (萌式三色围棋,
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
//! The engine is the crate `m3go-engine` (crates/engine), a dependency used by its own name: this
//! crate re-exports none of it. Without its default feature `cli` this crate builds the case checker, the protocol's
//! answers, the replays and the readings over the engine, with none of the command line's, the
//! server's or the runner's dependencies: `m3go = { version = "0.1", default-features = false }`;
//! the feature `runner` adds the conformance runner, the differential games and the match
//! referee, `serve` the page's server.
#![forbid(unsafe_code)]
// What only the command line uses is crate-private: without the feature `cli` it goes unused, and
// dead code is looked for in the build with it (the default).
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

/// `eprintln!` through [`io::write_err`]: a message to a closed standard error is dropped
/// instead of panicking (`eprintln!` panics when stderr is a closed pipe).
#[cfg_attr(not(feature = "cli"), allow(unused_macros))]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::io::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

#[cfg(feature = "cli")]
pub mod cli;
pub mod conform;
pub mod errors;
pub mod input;
pub mod io;
#[cfg(feature = "cli")]
pub mod outputs;
#[cfg(feature = "runner")]
pub mod referee;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tools;
