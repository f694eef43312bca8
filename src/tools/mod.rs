//! The tools layer: the mechanical and strict replay of records, perft (on the position's
//! engine) and the readings (a position under every rule option).
//! Built on [`m3go_engine::game`] and [`m3go_engine::formats`].

pub mod perft;
pub mod readings;
pub mod replay;
