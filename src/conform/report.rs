//! The summaries CI systems read: `m3go conform --format json` (`m3go-conform-summary/1`) and
//! `m3go diff --format json` (`m3go-diff-summary/1`), as types, so that their JSON Schemas
//! (spec/schema/, `m3go schema`) are generated from what m3go writes. The JUnit XML report of
//! both commands (`--junit FILE`) is written by the command line (`crate::conform::junit`) from the
//! same results.

use crate::conform::case::Case;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// The format tag of `m3go conform --format json`.
pub(crate) const CONFORM_SUMMARY: &str = "m3go-conform-summary/1";

/// The format tag of `m3go diff --format json`.
pub(crate) const DIFF_SUMMARY: &str = "m3go-diff-summary/1";

/// The summary of a conformance run (or of the merged shards of one, `--merge`): the counts the
/// text's last line gives, the skipped cases and checks by reason, every failure with its
/// clauses and differences, every case the program could not answer.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub(crate) struct ConformSummary {
    /// `m3go-conform-summary/1`.
    pub format: String,
    /// The cases that passed.
    pub passed: usize,
    /// The cases that failed (the program answered, and the answer differs from the case).
    pub failed: usize,
    /// The cases the program could not answer (it crashed, hung, wrote no answer), and the case
    /// files that did not read.
    pub errored: usize,
    /// The cases not run: outside the program's declared capabilities, or answered
    /// `unsupported`.
    pub skipped: usize,
    /// The skipped cases, one entry a reason, with how many and which.
    pub skipped_by_reason: Vec<SkipReason>,
    /// The checks left out of cases that were run (declined by the program), and in how many
    /// cases.
    pub checks_skipped: usize,
    pub cases_with_skipped_checks: usize,
    /// The checks left out, one entry a reason, with how many times each check was.
    pub checks_skipped_by_reason: Vec<CheckSkipReason>,
    /// Every failed case, in the order of the run.
    pub failures: Vec<CaseFailure>,
    /// Every errored case, and every case file that did not read (`id` null).
    pub errors: Vec<CaseError>,
}

/// Cases skipped for one reason.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct SkipReason {
    /// The reason, as the text report gives it.
    pub reason: String,
    /// `true`: skipped without being sent, by the declared capabilities; `false`: the program
    /// answered `unsupported`.
    pub by_capability: bool,
    /// How many cases.
    pub cases: usize,
    /// Their ids, in the order of the run.
    pub ids: Vec<String>,
}

/// Checks left out for one reason.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct CheckSkipReason {
    /// The reason.
    pub reason: String,
    /// Each check left out (`score`, `legal`, …) with in how many cases (`m3go diff`: moves).
    pub checks: BTreeMap<String, usize>,
}

/// A failed case.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct CaseFailure {
    pub id: String,
    /// The case file.
    pub file: String,
    /// The clauses the case cites (rules.md).
    pub clauses: Vec<String>,
    /// Each expected-against-actual difference, as the text report gives it.
    pub differences: Vec<String>,
}

/// An errored case, or a case file that did not read.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct CaseError {
    /// The case's id; null for a case file that did not read.
    pub id: Option<String>,
    pub file: String,
    pub clauses: Vec<String>,
    /// What went wrong.
    pub message: String,
}

/// How a differential run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DiffVerdict {
    /// Every move compared agreed.
    Agree,
    /// A disagreement was found (the first, of the lowest-numbered game, shrunk).
    Disagree,
    /// The program under test failed: not a rules disagreement.
    Errored,
    /// The program's declared capabilities exclude the rules: nothing was played.
    Unsupported,
}

/// The summary of `m3go diff`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct DiffSummary {
    /// `m3go-diff-summary/1`.
    pub format: String,
    pub outcome: DiffVerdict,
    /// `--seed`, `--size` and the rules' preset.
    pub seed: u64,
    pub size: usize,
    pub rules: String,
    /// The games of this run (of its shard, with `--shard`).
    pub games: usize,
    /// The games played to their end with every move agreeing.
    pub games_agreed: usize,
    /// The moves compared, and those the program answered `unsupported` (not compared).
    pub moves_compared: u64,
    pub moves_skipped: u64,
    /// The checks left out of the moves compared (declined by the program's capabilities or
    /// by its answers; the fields that depend on them were not compared), counted once a move.
    pub checks_skipped: u64,
    /// The checks left out, one entry a reason, with in how many moves each check was.
    pub checks_skipped_by_reason: Vec<CheckSkipReason>,
    /// The first disagreement (`outcome` `disagree`).
    pub disagreement: Option<DiffDisagreement>,
    /// The program's failure (`outcome` `errored`).
    pub error: Option<DiffError>,
    /// Why the declared capabilities exclude the rules (`outcome` `unsupported`).
    pub unsupported: Option<String>,
}

/// One field on which the two programs' answers differ.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct FieldDifference {
    /// error | board | captured | private_eyes | attributes | forbidden | legal_moves | events |
    /// score
    pub field: String,
    pub detail: String,
}

/// The first disagreement of a differential run, and the case it was shrunk to.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct DiffDisagreement {
    /// The game (from 1) and its own seed (the game's SplitMix64 stream).
    pub game: u32,
    /// The game's own seed: any 64-bit integer, most above 2^53, which JavaScript's
    /// `JSON.parse` rounds: `game_seed_text` holds it exactly.
    pub game_seed: u64,
    /// `game_seed` as a decimal string, exact for every JSON reader.
    pub game_seed_text: String,
    /// The move at which the answers differ, by number and in notation.
    pub move_number: u32,
    #[serde(rename = "move")]
    pub mv: String,
    pub differences: Vec<FieldDifference>,
    /// The stones on the board where it was found, and after shrinking.
    pub stones_before: usize,
    pub stones_after: usize,
    /// The shrunk case's id, the file it was written to (`-o DIR`; null without), and the
    /// case itself.
    pub case_id: String,
    pub case_path: Option<String>,
    pub case: Case,
}

/// The program under test failed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub(crate) struct DiffError {
    /// The game (0: before the first game, answering the capabilities request) and the move.
    pub game: u32,
    pub move_number: u32,
    pub message: String,
}
