//! `m3go conform --merge`: the results files of the shards of one run read back (each as a
//! stream) and checked to be exactly the shards of one selection, each case once.

use super::results::{
    ids_hash, CaseOutcome, ResultRecord, ResultsHeader, Selection, MAX_LISTED, MAX_RESULTS_LINE,
    RESULTS_FORMAT, RESULTS_FORMAT_1,
};
use crate::conform::shard::{LineError, MergedLines, Shard};
use crate::io::clip;
use serde_json::Value;
use std::collections::BTreeMap;

/// Why `--merge` refuses its results files: a file that does not read as results, or files that
/// are not the shards of one selection holding its cases exactly.
#[derive(Debug)]
pub(crate) enum MergeError {
    /// A file that cannot be read, or a line that does not (too long, not UTF-8).
    Read { file: String, source: LineError },
    /// An empty file.
    Empty { file: String },
    /// A first line that is not a results header (`source`: why it does not read; none when it
    /// has no `format`).
    NotHeader {
        file: String,
        source: Option<serde_json::Error>,
    },
    /// A results file of an older m3go (format `m3go-conform-results/1`).
    OlderFormat { file: String },
    /// A results header of another format.
    UnknownFormat { file: String, format: String },
    /// A header's shard that is not a resolved shard.
    Shard {
        file: String,
        source: crate::conform::shard::ShardError,
    },
    /// Two files of different selections (`first`, the file compared with; what differs).
    DifferentSelections {
        first: String,
        file: String,
        differences: Vec<String>,
    },
    /// A line that is not a case's result.
    NotARecord {
        file: String,
        line: usize,
        source: serde_json::Error,
    },
    /// A case's result with an outcome m3go does not write.
    UnknownOutcome {
        file: String,
        line: usize,
        outcome: String,
    },
    /// A file with another number of results than its header says.
    LineCount {
        file: String,
        lines: usize,
        header: usize,
    },
    /// Cases not of a file's shard, given twice, or missing (the problems, each said).
    DoNotAddUp(Vec<String>),
    /// The ids of the results are not those of the selection.
    IdsDiffer { file: String },
    /// Files holding a whole run among several files.
    WholeRun(Vec<String>),
    /// Shards of different splits (the numbers of parts).
    DifferentSplits(Vec<usize>),
    /// A shard given by two files.
    ShardTwice {
        shard: crate::conform::shard::Shard,
        other: String,
        file: String,
    },
    /// Shards no file gives, of a split into `n`.
    ShardsMissing { missing: Vec<String>, n: usize },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Read { file, source } => write!(f, "{file}: {source}"),
            MergeError::Empty { file } => write!(
                f,
                "{file}: empty: expected the results `m3go conform --results` writes"
            ),
            MergeError::NotHeader { file, source } => {
                let why = match source {
                    Some(e) => e.to_string(),
                    None => "no `format`".to_string(),
                };
                write!(
                    f,
                    "{file}: line 1: not a results header ({why}): expected the first line `m3go conform --results` writes"
                )
            }
            MergeError::OlderFormat { file } => write!(
                f,
                "{file}: written by an older m3go (format `{RESULTS_FORMAT_1}`), which did not record the run's selection: expected `{RESULTS_FORMAT}` (run the shards again with this m3go)"
            ),
            MergeError::UnknownFormat { file, format } => write!(
                f,
                "{file}: line 1: format `{}`: expected `{RESULTS_FORMAT}`",
                clip(format, 60)
            ),
            MergeError::Shard { file, source } => write!(f, "{file}: line 1: shard: {source}"),
            MergeError::DifferentSelections {
                first,
                file,
                differences,
            } => write!(
                f,
                "{first} and {file} are results of different selections ({}): expected the shards of one run",
                differences.join("; ")
            ),
            MergeError::NotARecord { file, line, source } => write!(
                f,
                "{file}: line {line}: not a case's result ({source}): expected a line `m3go conform --results` writes"
            ),
            MergeError::UnknownOutcome {
                file,
                line,
                outcome,
            } => write!(
                f,
                "{file}: line {line}: outcome `{}` is unknown: expected {}",
                clip(outcome, 40),
                CaseOutcome::ALL.map(CaseOutcome::name).join(", ")
            ),
            MergeError::LineCount {
                file,
                lines,
                header,
            } => write!(
                f,
                "{file}: has {lines} lines of results, its header says {header}"
            ),
            MergeError::DoNotAddUp(problems) => write!(
                f,
                "the results do not add up to the cases of the selection: {}",
                problems.join("; ")
            ),
            MergeError::IdsDiffer { file } => write!(
                f,
                "the ids of the cases in the results are not those of the selection the headers record ({file} and the others): expected the files `m3go conform --results` wrote, unedited"
            ),
            MergeError::WholeRun(whole) => write!(
                f,
                "{} holds a whole run (no --shard), not a shard: expected the shards of one run",
                whole.join(", ")
            ),
            MergeError::DifferentSplits(ns) => write!(
                f,
                "the files are shards of different splits (of {} parts): expected one split",
                ns.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            MergeError::ShardTwice { shard, other, file } => {
                write!(f, "shard {shard} is given twice ({other}, {file})")
            }
            MergeError::ShardsMissing { missing, n } => write!(
                f,
                "shard(s) {} missing: expected the results of all {n} shards",
                crate::referee::results::listed(missing, missing.len())
            ),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Read { source, .. } => Some(source),
            MergeError::NotHeader {
                source: Some(source),
                ..
            } => Some(source),
            MergeError::Shard { source, .. } => Some(source),
            MergeError::NotARecord { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The first [`MAX_LISTED`] of `items` (of `total`), then "… and N more".
pub(crate) fn listed(items: &[String], total: usize) -> String {
    let shown: Vec<&str> = items.iter().take(MAX_LISTED).map(String::as_str).collect();
    let more = total.saturating_sub(shown.len());
    if more > 0 {
        format!("{} … and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The header of a results file (its first line).
pub(crate) fn header_of(f: &str, line: &str) -> Result<ResultsHeader, MergeError> {
    let not_header = |source: Option<serde_json::Error>| MergeError::NotHeader {
        file: f.to_string(),
        source,
    };
    let v: Value = serde_json::from_str(line).map_err(|e| not_header(Some(e)))?;
    match v.get("format").and_then(Value::as_str) {
        Some(RESULTS_FORMAT) => {}
        Some(RESULTS_FORMAT_1) => {
            return Err(MergeError::OlderFormat {
                file: f.to_string(),
            })
        }
        Some(other) => {
            return Err(MergeError::UnknownFormat {
                file: f.to_string(),
                format: other.to_string(),
            })
        }
        None => return Err(not_header(None)),
    }
    serde_json::from_value(v).map_err(|e| not_header(Some(e)))
}

/// What differs between two selections, for people.
pub(crate) fn selection_differences(a: &Selection, b: &Selection) -> Vec<String> {
    let flag = |x: &Option<String>| {
        x.as_ref()
            .map_or("none".to_string(), |v| format!("`{}`", clip(v, 60)))
    };
    let mut d = Vec::new();
    if a.suite != b.suite {
        d.push("the suites (case files) differ".to_string());
    }
    if a.id != b.id {
        d.push(format!("--id {} against {}", flag(&a.id), flag(&b.id)));
    }
    if a.filter != b.filter {
        d.push(format!(
            "--filter {} against {}",
            flag(&a.filter),
            flag(&b.filter)
        ));
    }
    if a.cases != b.cases {
        d.push(format!("{} cases selected against {}", a.cases, b.cases));
    } else if a.ids != b.ids {
        d.push("the ids of the cases selected differ".to_string());
    }
    if let (Some(x), Some(y)) = (&a.capabilities, &b.capabilities) {
        if x != y {
            d.push("the program declared different capabilities".to_string());
        }
    }
    d
}

/// How many of `cases` items (indices 0..cases) a shard takes.
pub(crate) fn taken(cases: usize, shard: Option<Shard>) -> usize {
    match shard {
        None => cases,
        Some(s) if cases >= s.k => (cases - s.k) / s.n + 1,
        Some(_) => 0,
    }
}

/// The case files that did not read: (file, error).
pub(crate) type LoadErrors = Vec<(String, String)>;

/// Reads the results files of `--merge` (each as a stream) and checks that they are the shards
/// of one selection holding its cases exactly: the records and the case files that did not
/// read, or the first problem found (the cases missing or given twice: a few named, then how
/// many more).
pub(crate) fn read_results(
    files: &[String],
) -> Result<(Vec<ResultRecord>, LoadErrors), MergeError> {
    let mut m = Merging::default();
    for (fi, f) in files.iter().enumerate() {
        m.read_file(files, fi, f)?;
    }
    m.finish()
}

/// The results read so far by `--merge`, and the problems found.
#[derive(Default)]
pub(crate) struct Merging {
    records: Vec<ResultRecord>,
    load_errors: LoadErrors,
    shards: Vec<(String, Option<Shard>)>,
    /// The first file and its selection.
    first: Option<(String, Selection)>,
    /// index in the selection -> (file, line); id -> (file, line)
    at_index: BTreeMap<usize, (usize, usize)>,
    at_id: BTreeMap<String, (usize, usize)>,
    problems: Vec<String>,
}

/// What one results file held besides the cases kept: its lines of results, the cases not of
/// its shard and the cases given a second time (a few named, all counted).
#[derive(Default)]
pub(crate) struct FileTally {
    lines: usize,
    kept: usize,
    foreign: Vec<String>,
    n_foreign: usize,
    twice: Vec<String>,
    n_twice: usize,
}

impl Merging {
    /// Reads the results file `f` (number `fi` of `files`): its header (of the selection of the
    /// first file), then its cases.
    fn read_file(&mut self, files: &[String], fi: usize, f: &str) -> Result<(), MergeError> {
        let opened = crate::io::open_regular(f).map_err(|e| MergeError::Read {
            file: f.to_string(),
            source: LineError::Unreadable(e),
        })?;
        let mut lines = MergedLines::new(
            std::io::BufReader::new(opened),
            MAX_RESULTS_LINE,
            "one case's result a line, as `m3go conform --results` writes",
        );
        let header = match lines.next_line().map_err(|e| MergeError::Read {
            file: f.to_string(),
            source: e,
        })? {
            Some((_, l)) => header_of(f, l)?,
            None => {
                return Err(MergeError::Empty {
                    file: f.to_string(),
                })
            }
        };
        let shard = header
            .shard
            .as_deref()
            .map(Shard::parse_resolved)
            .transpose()
            .map_err(|source| MergeError::Shard {
                file: f.to_string(),
                source,
            })?;
        match &self.first {
            None => self.first = Some((f.to_string(), header.selection.clone())),
            Some((g, sel)) => {
                let differences = selection_differences(sel, &header.selection);
                if !differences.is_empty() {
                    return Err(MergeError::DifferentSelections {
                        first: g.clone(),
                        file: f.to_string(),
                        differences,
                    });
                }
            }
        }
        let sel = &header.selection;
        let mut t = FileTally::default();
        while let Some((line, text)) = lines.next_line().map_err(|e| MergeError::Read {
            file: f.to_string(),
            source: e,
        })? {
            t.lines += 1;
            self.read_record(files, fi, f, line, text, sel, shard, &mut t)?;
        }
        if t.lines != header.cases {
            return Err(MergeError::LineCount {
                file: f.to_string(),
                lines: t.lines,
                header: header.cases,
            });
        }
        self.note_problems(fi, f, sel, shard, &t);
        self.load_errors.extend(header.load_errors);
        self.shards.push((f.to_string(), shard));
        Ok(())
    }

    /// Reads one case's result (line `line` of `f`): kept, or tallied as not of the shard or
    /// given a second time.
    #[allow(clippy::too_many_arguments)]
    fn read_record(
        &mut self,
        files: &[String],
        fi: usize,
        f: &str,
        line: usize,
        text: &str,
        sel: &Selection,
        shard: Option<Shard>,
        t: &mut FileTally,
    ) -> Result<(), MergeError> {
        let r: ResultRecord<String> =
            serde_json::from_str(text).map_err(|source| MergeError::NotARecord {
                file: f.to_string(),
                line,
                source,
            })?;
        let r = r.typed().map_err(|outcome| MergeError::UnknownOutcome {
            file: f.to_string(),
            line,
            outcome,
        })?;
        if r.index >= sel.cases || shard.is_some_and(|s| !s.takes(r.index)) {
            t.n_foreign += 1;
            if t.foreign.len() < MAX_LISTED {
                t.foreign
                    .push(format!("`{}` (line {line})", clip(&r.id, 60)));
            }
            return Ok(());
        }
        let again = self
            .at_index
            .get(&r.index)
            .or_else(|| self.at_id.get(&r.id));
        if let Some(&(gi, gl)) = again {
            t.n_twice += 1;
            if t.twice.len() < MAX_LISTED {
                t.twice.push(format!(
                    "`{}` (line {line}; also {} line {gl})",
                    clip(&r.id, 60),
                    files[gi]
                ));
            }
            return Ok(());
        }
        self.at_index.insert(r.index, (fi, line));
        self.at_id.insert(r.id.clone(), (fi, line));
        t.kept += 1;
        self.records.push(r);
        Ok(())
    }

    /// The problems of file `f`: cases not of its shard, given twice, or missing.
    fn note_problems(
        &mut self,
        fi: usize,
        f: &str,
        sel: &Selection,
        shard: Option<Shard>,
        t: &FileTally,
    ) {
        let part = shard.map_or("the whole run".to_string(), |s| format!("shard {s}"));
        if t.n_foreign > 0 {
            self.problems.push(format!(
                "{f} holds {} case(s) not of {part} of the selection: {}",
                t.n_foreign,
                listed(&t.foreign, t.n_foreign)
            ));
        }
        if t.n_twice > 0 {
            self.problems.push(format!(
                "{f} gives {} case(s) a second time: {}",
                t.n_twice,
                listed(&t.twice, t.n_twice)
            ));
        }
        let want = taken(sel.cases, shard);
        if t.kept < want {
            // the first few places of the shard no line holds: at most `kept` places are
            // passed over before they are found
            let (start, step) = shard.map_or((0, 1), |s| (s.k - 1, s.n));
            let missing: Vec<String> = (start..sel.cases)
                .step_by(step)
                .filter(|k| self.at_index.get(k).is_none_or(|&(gi, _)| gi != fi))
                .take(MAX_LISTED)
                .map(|k| (k + 1).to_string())
                .collect();
            self.problems.push(format!(
                "{f} lacks {} of the {want} case(s) of {part}: the selection's case number {} (counted from 1, in the order `m3go conform --list` lists the selection)",
                want - t.kept,
                listed(&missing, want - t.kept)
            ));
        }
    }

    /// The records and the case files that did not read, once every file is read: the files
    /// are one split, no problem was found, and the ids are those of the selection.
    fn finish(self) -> Result<(Vec<ResultRecord>, LoadErrors), MergeError> {
        complete_split(&self.shards)?;
        if !self.problems.is_empty() {
            return Err(MergeError::DoNotAddUp(self.problems));
        }
        // every place of the selection is held once: the ids must be those selected, in order
        if let Some((f, sel)) = &self.first {
            let mut by_index: Vec<&ResultRecord> = self.records.iter().collect();
            by_index.sort_by_key(|r| r.index);
            if ids_hash(by_index.iter().map(|r| r.id.as_str())) != sel.ids {
                return Err(MergeError::IdsDiffer { file: f.clone() });
            }
        }
        Ok((self.records, self.load_errors))
    }
}

/// The files merged are the shards of one run: all whole runs (one file), or `K/N` for each K
/// of one N exactly once.
pub(crate) fn complete_split(shards: &[(String, Option<Shard>)]) -> Result<(), MergeError> {
    use crate::conform::shard::SplitProblem;
    crate::conform::shard::complete_split(shards).map_err(|p| match p {
        SplitProblem::Whole(files) => MergeError::WholeRun(files),
        SplitProblem::DifferentSplits(ns) => MergeError::DifferentSplits(ns),
        SplitProblem::Twice { shard, other, file } => MergeError::ShardTwice { shard, other, file },
        SplitProblem::Missing { missing, n } => MergeError::ShardsMissing { missing, n },
    })
}

/// The results files of `--merge` read and checked ([`read_results`]): every case's record, by
/// file then id, and the case files that did not read, each once.
pub(crate) fn merged(files: &[String]) -> Result<(Vec<ResultRecord>, LoadErrors), MergeError> {
    let (mut records, load_errors) = read_results(files)?;
    let load_errors: LoadErrors = load_errors
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    records.sort_by(|a, b| a.file.cmp(&b.file).then(a.id.cmp(&b.id)));
    Ok((records, load_errors))
}
