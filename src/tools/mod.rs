//! The tools layer: the mechanical and strict replay of records, perft (on the fast engine where
//! it supports the rules), `fast` (the fast engine of [`crate::game::fast`] re-exported with the
//! reference random game of the benches) and the readings (a position under every rule option).
//! Built on [`crate::game`] and [`crate::formats`].

pub mod fast;
pub mod perft;
pub mod readings;
pub mod replay;
