//! The tools layer: the mechanical and strict replay of records, perft (on the fast engine where
//! it supports the rules), and `fast`: the fast engine of [`crate::game::fast`] re-exported with
//! the reference random game of the benches. Built on [`crate::game`] and [`crate::formats`].

pub mod fast;
pub mod perft;
pub mod replay;
