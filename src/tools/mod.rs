//! The tools layer: the mechanical and strict replay of records, perft, and the checked fast
//! path for the hot loops. Built on [`crate::game`] and [`crate::formats`].

pub mod fast;
pub mod perft;
pub mod replay;
