//! The results file of `m3go conform --results`: a header line recording the run's selection
//! (the suite, `--id`, `--filter`, the cases chosen and the capabilities declared, hashed), then
//! one JSON line a case ([`ResultRecord`]), which `conform --merge` reads back
//! ([`super::merge`]).

use crate::conform::capabilities::SkippedCheck;
use crate::conform::case::Case;
use crate::conform::runner::{outside, run_case_in, CaseRun, Declared, OraclePool, Outcome};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A case's outcome, and whether a skip came from the declared capabilities.
pub(crate) struct Ran {
    pub(crate) run: CaseRun,
    pub(crate) by_capability: bool,
    /// Seconds the case took (asked and compared); none for a case not sent.
    pub(crate) seconds: Option<f64>,
}

/// The format tag of the header line of a results file (`--results`).
pub(crate) const RESULTS_FORMAT: &str = "m3go-conform-results/2";

/// The format of the results files of older m3go, which did not record the run's selection:
/// refused by `--merge`, with that said.
pub(crate) const RESULTS_FORMAT_1: &str = "m3go-conform-results/1";

/// The longest line of a results file `--merge` reads (one case's result with its
/// differences); the file itself is read line by line, of any length.
pub(crate) const MAX_RESULTS_LINE: usize = 16 << 20;

/// The problems of one kind `--merge` names before "… and N more".
pub(crate) const MAX_LISTED: usize = 5;

/// How a case ended, as a results file writes it (`passed`, `failed`, `errored`, `skipped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CaseOutcome {
    Passed,
    Failed,
    Errored,
    Skipped,
}

impl CaseOutcome {
    /// Every outcome, in the order a message lists them.
    pub(crate) const ALL: [CaseOutcome; 4] = [
        CaseOutcome::Passed,
        CaseOutcome::Failed,
        CaseOutcome::Errored,
        CaseOutcome::Skipped,
    ];

    /// The name a results file writes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            CaseOutcome::Passed => "passed",
            CaseOutcome::Failed => "failed",
            CaseOutcome::Errored => "errored",
            CaseOutcome::Skipped => "skipped",
        }
    }

    /// The outcome a results file names `name`, if any.
    pub(crate) fn named(name: &str) -> Option<CaseOutcome> {
        CaseOutcome::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// What a run selected, recorded in each results file: `--merge` merges only the shards of one
/// selection. The hashes are SHA-256, in hex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Selection {
    /// The suite: each case file (its path inside the suite's folder) with its case, and the
    /// files that did not read.
    pub(crate) suite: String,
    /// `--id`, `--filter` as given.
    pub(crate) id: Option<String>,
    pub(crate) filter: Option<String>,
    /// The cases selected (before `--shard`), and the hash of their ids in order.
    pub(crate) cases: usize,
    pub(crate) ids: String,
    /// The capabilities the program declared, with the protocol version negotiated; null when
    /// the shard held no case (the program was not asked).
    pub(crate) capabilities: Option<String>,
}

/// The first line of a results file: the run's selection, the shard it holds (`K/N` as it was
/// resolved, null for a whole run), the number of cases of the shard (the lines that follow)
/// and the case files that did not read.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultsHeader {
    pub(crate) format: String,
    pub(crate) selection: Selection,
    pub(crate) shard: Option<String>,
    pub(crate) cases: usize,
    pub(crate) load_errors: Vec<(String, String)>,
}

/// A SHA-256 of a sequence of byte strings, each with its length (so that no two sequences
/// hash alike by their concatenation).
struct Hash(sha2::Sha256);

impl Hash {
    fn new() -> Hash {
        use sha2::Digest;
        Hash(sha2::Sha256::new())
    }

    fn add(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn hex(self) -> String {
        use sha2::Digest;
        format!("{:x}", self.0.finalize())
    }
}

/// The hash of a suite: every case (its file's path inside `dir`, the case as JSON) and every
/// file that did not read.
pub(crate) fn suite_hash(
    dir: &str,
    cases: &[(String, Case)],
    load_errors: &[(String, String)],
) -> String {
    let rel = |f: &str| {
        f.strip_prefix(dir)
            .unwrap_or(f)
            .trim_start_matches('/')
            .to_string()
    };
    let mut h = Hash::new();
    for (f, c) in cases {
        h.add(rel(f).as_bytes());
        h.add(serde_json::to_string(c).unwrap_or_default().as_bytes());
    }
    for (f, _) in load_errors {
        h.add(b"unreadable");
        h.add(rel(f).as_bytes());
    }
    h.hex()
}

/// The hash of the ids of a selection's cases, in order.
pub(crate) fn ids_hash<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let mut h = Hash::new();
    for id in ids {
        h.add(id.as_bytes());
    }
    h.hex()
}

/// The hash of what the program declared, and the protocol version negotiated.
pub(crate) fn capabilities_hash(declared: &Declared, protocol: &str) -> String {
    let caps = match declared {
        Declared::Capabilities(c) => serde_json::to_value(c).unwrap_or(Value::Null),
        Declared::Nothing(_) => Value::Null,
    };
    let mut h = Hash::new();
    h.add(protocol.as_bytes());
    h.add(caps.to_string().as_bytes());
    h.hex()
}

/// One case of a results file: what `m3go conform` printed about it, as data. A line is read
/// with its outcome as written (`ResultRecord<String>`), then typed ([`ResultRecord::typed`]).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultRecord<O = CaseOutcome> {
    pub(crate) id: String,
    /// The case's place in the run's selection (before `--shard`), from 0.
    pub(crate) index: usize,
    pub(crate) file: String,
    pub(crate) clauses: Vec<String>,
    /// passed | failed | errored | skipped
    pub(crate) outcome: O,
    /// The differences (failed), the failure of the program (errored), the reason (skipped).
    pub(crate) details: Vec<String>,
    /// A skip that came from the declared capabilities (not from an `unsupported` answer).
    #[serde(default)]
    pub(crate) by_capability: bool,
    /// The checks left out of a case that was run, each with its reason.
    #[serde(default)]
    pub(crate) skipped_checks: Vec<(String, String)>,
    /// Seconds the case took, for the JUnit report; not kept in a results file (the merged
    /// report has no times).
    #[serde(skip)]
    pub(crate) seconds: Option<f64>,
}

impl ResultRecord {
    /// The record of case `c` (of file `file`, at `index` in the selection) that ran as `r`.
    pub(crate) fn of(file: &str, c: &Case, r: Ran, index: usize) -> ResultRecord {
        let (outcome, details) = match r.run.outcome {
            Outcome::Passed => (CaseOutcome::Passed, vec![]),
            Outcome::Failed(d) => (CaseOutcome::Failed, d),
            Outcome::Errored(e) => (CaseOutcome::Errored, vec![e]),
            Outcome::Skipped(why) => (CaseOutcome::Skipped, vec![why]),
        };
        ResultRecord {
            id: c.id.clone(),
            index,
            file: file.to_string(),
            clauses: c.clauses.clone(),
            outcome,
            details,
            by_capability: r.by_capability,
            skipped_checks: r
                .run
                .skipped_checks
                .into_iter()
                .map(|s| (s.check, s.reason))
                .collect(),
            seconds: r.seconds,
        }
    }
}

impl ResultRecord<String> {
    /// The record with its outcome typed, or the outcome as written when m3go writes no such
    /// outcome.
    pub(crate) fn typed(self) -> Result<ResultRecord, String> {
        let Some(outcome) = CaseOutcome::named(&self.outcome) else {
            return Err(self.outcome);
        };
        Ok(ResultRecord {
            id: self.id,
            index: self.index,
            file: self.file,
            clauses: self.clauses,
            outcome,
            details: self.details,
            by_capability: self.by_capability,
            skipped_checks: self.skipped_checks,
            seconds: self.seconds,
        })
    }
}

/// The results file of a run: the header, then one JSON line a case.
pub(crate) fn results_text(header: &ResultsHeader, records: &[ResultRecord]) -> String {
    let mut out = serde_json::to_string(header).unwrap_or_default();
    out.push('\n');
    for r in records {
        out.push_str(&serde_json::to_string(r).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// One case: skipped when outside the declared capabilities, else asked (with the checks the
/// program declined left out) and timed.
pub(crate) fn run_one(
    c: &Case,
    pool: &OraclePool,
    declared: &Declared,
    protocol: &'static str,
) -> Ran {
    let began = std::time::Instant::now();
    match outside(c, declared) {
        Some(why) => Ran {
            run: CaseRun {
                outcome: Outcome::Skipped(format!("outside the declared capabilities: {why}")),
                skipped_checks: Vec::new(),
            },
            by_capability: true,
            seconds: None,
        },
        None => {
            let declined: Vec<SkippedCheck> = c
                .position
                .rules
                .resolve()
                .map(|rules| declared.declined(&rules))
                .unwrap_or_default();
            Ran {
                run: pool
                    .with(|o| run_case_in(c, o, protocol, &declined))
                    .unwrap_or_else(|e| CaseRun {
                        outcome: Outcome::Errored(e.to_string()),
                        skipped_checks: Vec::new(),
                    }),
                by_capability: false,
                seconds: Some(began.elapsed().as_secs_f64()),
            }
        }
    }
}
