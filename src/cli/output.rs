//! The command line's ways out: standard output that cannot panic ([`crate::io::write_out`],
//! behind the `out!` and `outln!` macros) and the files m3go writes, decided and written by
//! [`crate::outputs`].

pub(crate) use crate::io::{flush_out, write_out};
pub(crate) use crate::outputs::{decide, Folder};
