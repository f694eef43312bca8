//! The tools layer: the mechanical and strict replay of records, perft (on the fast engine where
//! it supports the rules), `fast` (the fast engine of [`m3go_engine::game::FastPosition`] and its kin re-exported with the
//! reference random game of the benches) and the readings (a position under every rule option).
//! Built on [`m3go_engine::game`] and [`m3go_engine::formats`].

pub mod fast;
pub mod perft;
pub mod readings;
pub mod replay;
