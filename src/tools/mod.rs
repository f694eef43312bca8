//! The tools layer: the mechanical and strict replay of records, perft, the checked fast
//! path for the hot loops, and the readings (a position under every rule option). Built on [`crate::game`] and [`crate::formats`].

pub mod fast;
pub mod perft;
pub mod readings;
pub mod replay;
