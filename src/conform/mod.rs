//! The conformance layer: case files and the protocol answer (`case`), the runner that drives an
//! implementation through the suite (`runner`), and differential random games (`diff`).

pub mod case;
pub mod diff;
pub mod runner;
