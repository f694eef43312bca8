//! The conformance layer, one concept a file: the case file (`case`), the request it becomes
//! (`request`), the protocol's messages (`protocol`), what an implementation declares it supports (`capabilities`), m3go's own
//! answers (`answer`), the comparison of expectations with answers (`check`), the suite's files
//! and the suite built into the binary (`suite`), clause ids (`clause_id`), the runner that
//! drives an implementation through the suite (`runner`), a failure of a program it drives
//! (`failure`), differential random games (`diff`),
//! the clause and disputed-points registers of rules.md embedded in the binary (`register`),
//! the JSON summaries of `conform` and `diff` (`report`), the results file of `conform --results`
//! (`results`) and its `--merge` (`merge`), what a run reports and its exit status (`summary`), the
//! clause coverage's report (`coverage`), the JSON summary of `diff` (`diff_summary`), the JUnit XML report (`junit`), the other JSON outputs of the command line and its JSON error object (`outputs`) and the JSON Schemas of the contract
//! (`schema`).

pub mod answer;
pub mod capabilities;
pub mod case;
pub mod check;
pub mod clause_id;
#[cfg(feature = "cli")]
pub(crate) mod coverage;
#[cfg(feature = "runner")]
pub mod diff;
#[cfg(feature = "cli")]
pub(crate) mod diff_summary;
#[cfg(feature = "runner")]
pub mod failure;
#[cfg(feature = "cli")]
pub(crate) mod junit;
#[cfg(feature = "cli")]
pub(crate) mod merge;
pub mod outputs;
pub mod play_protocol;
pub mod protocol;
pub mod pruned;
#[cfg(feature = "runner")]
pub(crate) mod reaper;
pub mod register;
pub mod report;
pub mod request;
#[cfg(feature = "cli")]
pub(crate) mod results;
#[cfg(feature = "runner")]
pub mod runner;
pub mod schema;
#[cfg(feature = "runner")]
pub mod shard;
pub mod suite;
#[cfg(feature = "cli")]
pub(crate) mod summary;
