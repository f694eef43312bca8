//! The conformance layer: case files and the protocol answer (`case`), the runner that drives an
//! implementation through the suite (`runner`), differential random games (`diff`), and the
//! clause and disputed-points registers of rules.md embedded in the binary (`register`), and
//! the JSON Schemas of the contract (`schema`).

pub mod case;
pub mod diff;
pub mod register;
pub mod runner;
pub mod schema;
