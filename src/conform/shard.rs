//! `--shard`: which part of a run's work items (cases, games, records) one process takes, given
//! on the command line (`K/N`) or read from the array-job environment of the scheduler that
//! started the process (`auto`, `auto/N`): Slurm job arrays, Kubernetes indexed Jobs, GNU
//! parallel.

/// The environment variable that gives the number of parts where the scheduler does not
/// (Kubernetes indexed Jobs, GNU parallel): `M3GO_SHARD_COUNT=8`.
pub(crate) const COUNT_VAR: &str = "M3GO_SHARD_COUNT";

/// The largest number of parts.
const MAX_PARTS: usize = 100_000;

/// `--shard K/N`: which of N parts of a list a run takes (the items whose index is K-1 modulo
/// N), so that a large run is spread over processes or machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Reads `K/N` with 1 ≤ K ≤ N ≤ 100000, or `auto` / `auto/N`: the part from the
    /// environment of the process ([`Shard::from_env`]).
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let t = s.trim();
        if let Some(rest) = t.strip_prefix("auto") {
            let count = match rest.strip_prefix('/') {
                Some(n) => Some(parse_count(n, s)?),
                None if rest.is_empty() => None,
                None => return Err(bad(s)),
            };
            return Shard::from_env(count, |v| std::env::var(v).ok());
        }
        let (k, n) = t.split_once('/').ok_or_else(|| bad(s))?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad(s))?,
            n.trim().parse().map_err(|_| bad(s))?,
        );
        Shard::new(k, n).ok_or_else(|| bad(s))
    }

    /// Reads `K/N` with 1 ≤ K ≤ N ≤ 100000 only, as a shard was resolved when it ran (a
    /// results file's header): `auto` is refused, never resolved from this process's
    /// environment.
    pub fn parse_resolved(s: &str) -> Result<Shard, ShardError> {
        let t = s.trim();
        let (k, n) = t.split_once('/').ok_or_else(|| resolved(s))?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| resolved(s))?,
            n.trim().parse().map_err(|_| resolved(s))?,
        );
        Shard::new(k, n).ok_or_else(|| resolved(s))
    }

    /// Part `k` of `n`, when 1 ≤ k ≤ n ≤ 100000.
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (k >= 1 && k <= n && n <= MAX_PARTS).then_some(Shard { k, n })
    }

    /// The part named by the array-job environment (`var` reads a variable), with `count` parts
    /// when given (`auto/N`):
    /// - Slurm job arrays (`sbatch --array=1-8`): `SLURM_ARRAY_TASK_ID`, counted from
    ///   `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP` (default 0 and 1), out of
    ///   `SLURM_ARRAY_TASK_COUNT`;
    /// - Kubernetes indexed Jobs (`completionMode: Indexed`): `JOB_COMPLETION_INDEX` (from 0),
    ///   out of N or `M3GO_SHARD_COUNT` (a Job does not tell its pods its `completions`);
    /// - GNU parallel: `PARALLEL_SEQ` (the job's sequence number, from 1), out of N or
    ///   `M3GO_SHARD_COUNT`. `PARALLEL_JOBSLOT` is the slot a job runs in, which the next job
    ///   reuses: it names no part of the work, and is not read.
    ///
    /// Exactly one of the three must be present.
    pub fn from_env(
        count: Option<usize>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Shard, ShardError> {
        let read = |name: &'static str| -> Result<Option<usize>, ShardError> {
            match var(name) {
                None => Ok(None),
                Some(value) => value
                    .trim()
                    .parse::<usize>()
                    .map(Some)
                    .map_err(|_| ShardError::NotANumber { name, value }),
            }
        };
        let count_of = |scheduler: &'static str| -> Result<usize, ShardError> {
            match (count, read(COUNT_VAR)?) {
                (Some(n), _) | (None, Some(n)) => Ok(n),
                (None, None) => Err(ShardError::NoCount { scheduler }),
            }
        };
        let slurm = read("SLURM_ARRAY_TASK_ID")?;
        let k8s = read("JOB_COMPLETION_INDEX")?;
        let parallel = read("PARALLEL_SEQ")?;
        let found: Vec<&'static str> = [
            (slurm.is_some(), "SLURM_ARRAY_TASK_ID"),
            (k8s.is_some(), "JOB_COMPLETION_INDEX"),
            (parallel.is_some(), "PARALLEL_SEQ"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
        if found.len() > 1 {
            return Err(ShardError::Several(found));
        }
        let (k, n, from) = if let Some(id) = slurm {
            let min = read("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = read("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let n = match (count, read("SLURM_ARRAY_TASK_COUNT")?) {
                (Some(n), _) | (None, Some(n)) => n,
                (None, None) => count_of("this Slurm job")?,
            };
            if id < min || (id - min) % step != 0 {
                return Err(ShardError::NotInArray { id, min, step });
            }
            let k = ((id - min) / step)
                .checked_add(1)
                .ok_or_else(|| too_large("SLURM_ARRAY_TASK_ID", id))?;
            (k, n, "SLURM_ARRAY_TASK_ID")
        } else if let Some(i) = k8s {
            (
                i.checked_add(1)
                    .ok_or_else(|| too_large("JOB_COMPLETION_INDEX", i))?,
                count_of("a Kubernetes indexed Job")?,
                "JOB_COMPLETION_INDEX",
            )
        } else if let Some(seq) = parallel {
            (seq, count_of("GNU parallel")?, "PARALLEL_SEQ")
        } else {
            return Err(ShardError::NoEnvironment);
        };
        Shard::new(k, n).ok_or(ShardError::OutOfRange { from, k, n })
    }

    /// Whether the item with this (0-based) index is in the shard.
    pub fn takes(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Why a `--shard` (or a results file's shard) names no part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// Not `K/N` within the bounds, `auto` or `auto/N` (the text as given).
    NotAShard(String),
    /// Not `K/N` within the bounds, as a results file must name its shard (the text).
    NotResolved(String),
    /// `auto/N` with N not a number of parts (the whole text).
    BadCount(String),
    /// A scheduler variable that is not a number.
    NotANumber { name: &'static str, value: String },
    /// A scheduler that does not say how many parts there are, and no N was given.
    NoCount { scheduler: &'static str },
    /// The environment names several schedulers.
    Several(Vec<&'static str>),
    /// A Slurm task id outside its array.
    NotInArray { id: usize, min: usize, step: usize },
    /// A part number past every count of parts (it would wrap to part 0 when counted from 1).
    TooLarge { var: &'static str, value: usize },
    /// No array-job environment.
    NoEnvironment,
    /// The environment names a part outside 1 <= K <= N <= 100000.
    OutOfRange {
        from: &'static str,
        k: usize,
        n: usize,
    },
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardError::NotAShard(s) => write!(
                f,
                "`{s}` is not a shard: expected K/N with 1 <= K <= N <= {MAX_PARTS} (e.g. 2/4), \
                 or auto / auto/N (the part from SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or \
                 PARALLEL_SEQ)"
            ),
            ShardError::NotResolved(s) => write!(
                f,
                "`{s}` is not a resolved shard: expected K/N with 1 <= K <= N <= {MAX_PARTS}, as \
                 the run resolved it (a results file never says auto)"
            ),
            ShardError::BadCount(s) => {
                write!(f, "`{s}`: expected a number of parts from 1 to {MAX_PARTS}")
            }
            ShardError::NotANumber { name, value } => write!(
                f,
                "--shard auto: {name}={value} is not a number: expected an integer"
            ),
            ShardError::NoCount { scheduler } => write!(
                f,
                "--shard auto: {scheduler} does not say how many parts there are: expected \
                 --shard auto/N or {COUNT_VAR}=N"
            ),
            ShardError::Several(found) => write!(
                f,
                "--shard auto: the environment names several schedulers ({}): expected one, or \
                 --shard K/N",
                found.join(", ")
            ),
            ShardError::NotInArray { id, min, step } => write!(
                f,
                "--shard auto: SLURM_ARRAY_TASK_ID={id} is not in the array (from {min} in \
                 steps of {step})"
            ),
            ShardError::TooLarge { var, value } => write!(
                f,
                "--shard auto: {var}={value} is too large: expected a part of at most \
                 {MAX_PARTS} parts"
            ),
            ShardError::NoEnvironment => f.write_str(
                "--shard auto: no array-job environment (SLURM_ARRAY_TASK_ID, \
                 JOB_COMPLETION_INDEX or PARALLEL_SEQ): expected one, or --shard K/N",
            ),
            ShardError::OutOfRange { from, k, n } => write!(
                f,
                "--shard auto: {from} gives part {k} of {n}: expected 1 <= K <= N <= {MAX_PARTS}"
            ),
        }
    }
}

impl std::error::Error for ShardError {}

fn too_large(var: &'static str, value: usize) -> ShardError {
    ShardError::TooLarge { var, value }
}

fn bad(s: &str) -> ShardError {
    ShardError::NotAShard(s.to_owned())
}

fn resolved(s: &str) -> ShardError {
    ShardError::NotResolved(s.to_owned())
}

/// `N` of `auto/N` (`s` is the whole text, for the message).
fn parse_count(n: &str, s: &str) -> Result<usize, ShardError> {
    n.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| (1..=MAX_PARTS).contains(&n))
        .ok_or_else(|| ShardError::BadCount(s.to_owned()))
}

/// Why the parts given to a merge are not exactly the parts of one split
/// ([`complete_split`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SplitProblem {
    /// Files of a whole run (no shard), given with others.
    Whole(Vec<String>),
    /// Shards of more than one N.
    DifferentSplits(Vec<usize>),
    /// The shard `shard` given twice: by `other` and by `file`.
    Twice {
        shard: Shard,
        other: String,
        file: String,
    },
    /// The shards `K/N` not given.
    Missing { missing: Vec<String>, n: usize },
}

/// The parts merged (each file with its shard, `None` for a whole run) are one run: a single
/// file of the whole run, or `K/N` for each K of one N exactly once (`conform --merge` and
/// `match --merge` alike).
pub(crate) fn complete_split(shards: &[(String, Option<Shard>)]) -> Result<(), SplitProblem> {
    let whole: Vec<String> = shards
        .iter()
        .filter(|(_, s)| s.is_none())
        .map(|(f, _)| f.clone())
        .collect();
    if !whole.is_empty() {
        if shards.len() == 1 {
            return Ok(());
        }
        return Err(SplitProblem::Whole(whole));
    }
    let ns: std::collections::BTreeSet<usize> =
        shards.iter().filter_map(|(_, s)| s.map(|s| s.n)).collect();
    if ns.len() > 1 {
        return Err(SplitProblem::DifferentSplits(ns.into_iter().collect()));
    }
    let n = ns.into_iter().next().unwrap_or(0);
    let mut have: std::collections::BTreeMap<usize, &str> = std::collections::BTreeMap::new();
    for (f, s) in shards {
        if let Some(s) = s {
            if let Some(other) = have.insert(s.k, f) {
                return Err(SplitProblem::Twice {
                    shard: *s,
                    other: other.to_string(),
                    file: f.clone(),
                });
            }
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !have.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(SplitProblem::Missing { missing, n });
    }
    Ok(())
}

/// Why a results file being merged could not be read ([`MergedLines`], or the file not opened).
#[derive(Debug)]
pub(crate) enum LineError {
    /// The file could not be opened, or the reader failed.
    Unreadable(std::io::Error),
    /// Line `line` is longer than `limit` bytes; `expected` says what a line holds.
    TooLong {
        line: usize,
        limit: usize,
        expected: &'static str,
    },
    /// Line `line` is not UTF-8.
    NotUtf8 {
        line: usize,
        source: std::str::Utf8Error,
    },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Unreadable(source) => write!(f, "cannot read: {source}"),
            LineError::TooLong {
                line,
                limit,
                expected,
            } => write!(
                f,
                "line {line}: longer than {limit} bytes: expected {expected}"
            ),
            LineError::NotUtf8 { line, source } => {
                write!(f, "line {line}: not UTF-8 text: {source}")
            }
        }
    }
}

impl std::error::Error for LineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LineError::Unreadable(source) => Some(source),
            LineError::NotUtf8 { source, .. } => Some(source),
            LineError::TooLong { .. } => None,
        }
    }
}

/// The lines of a results file read for a merge (`conform --merge`, `match --merge`): one at a
/// time, each at most `limit` bytes (the file itself of any length, read no further than one
/// byte past a line too long), numbered from 1, blank lines skipped; `expected` says what a line
/// holds, in the error of a line too long.
pub(crate) struct MergedLines<R> {
    reader: R,
    limit: usize,
    expected: &'static str,
    line: usize,
    buf: Vec<u8>,
}

impl<R: std::io::BufRead> MergedLines<R> {
    pub fn new(reader: R, limit: usize, expected: &'static str) -> Self {
        MergedLines {
            reader,
            limit,
            expected,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// The next line that is not blank, with its number (from 1) and without its `\n` or
    /// `\r\n`; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, LineError> {
        use std::io::{BufRead, Read};
        loop {
            self.buf.clear();
            let n = (&mut self.reader)
                .take(self.limit as u64 + 1)
                .read_until(b'\n', &mut self.buf)
                .map_err(LineError::Unreadable)?;
            if n == 0 {
                return Ok(None);
            }
            self.line += 1;
            let line = self.line;
            if self.buf.len() > self.limit {
                return Err(LineError::TooLong {
                    line,
                    limit: self.limit,
                    expected: self.expected,
                });
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let text = std::str::from_utf8(&self.buf)
                .map_err(|source| LineError::NotUtf8 { line, source })?;
            return Ok(Some((line, text.trim_end_matches(['\n', '\r']))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: BTreeMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn each_scheduler_names_its_part() {
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(Shard::from_env(None, slurm), Ok(Shard { k: 5, n: 8 }));
        let stepped = env(&[
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(Shard::from_env(None, stepped), Ok(Shard { k: 4, n: 4 }));
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0"), (COUNT_VAR, "3")]);
        assert_eq!(Shard::from_env(None, k8s), Ok(Shard { k: 1, n: 3 }));
        let k8s = env(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(Shard::from_env(Some(3), &k8s), Ok(Shard { k: 3, n: 3 }));
        assert!(Shard::from_env(None, &k8s)
            .is_err_and(|e| e.to_string().contains("M3GO_SHARD_COUNT=N")));
        assert!(
            Shard::from_env(Some(2), &k8s).is_err_and(|e| e.to_string().contains("part 3 of 2"))
        );
        let parallel = env(&[("PARALLEL_SEQ", "2"), ("PARALLEL_JOBSLOT", "1")]);
        assert_eq!(Shard::from_env(Some(4), parallel), Ok(Shard { k: 2, n: 4 }));
    }

    #[test]
    fn no_scheduler_or_two_of_them_is_an_error() {
        assert!(Shard::from_env(Some(2), env(&[]))
            .is_err_and(|e| e.to_string().contains("no array-job")));
        let both = env(&[("SLURM_ARRAY_TASK_ID", "1"), ("PARALLEL_SEQ", "1")]);
        assert!(Shard::from_env(Some(2), both).is_err_and(|e| e.to_string().contains("several")));
        let bad = env(&[("PARALLEL_SEQ", "x")]);
        assert!(
            Shard::from_env(Some(2), bad).is_err_and(|e| e.to_string().contains("not a number"))
        );
        assert_eq!(Shard::parse("2/4"), Ok(Shard { k: 2, n: 4 }));
        assert!(Shard::parse("0/4").is_err());
        assert!(Shard::parse("autox").is_err());
        assert!(Shard::parse("auto/0").is_err());
    }

    /// The largest index a scheduler variable can hold names no part: it is refused, never
    /// wrapped round to part 0 (or 1).
    #[test]
    fn an_index_of_two_to_the_64_minus_1_is_refused() {
        let max = usize::MAX.to_string();
        let k8s = env(&[("JOB_COMPLETION_INDEX", &max)]);
        assert!(Shard::from_env(Some(3), k8s).is_err_and(|e| e
            .to_string()
            .contains("JOB_COMPLETION_INDEX=18446744073709551615 is too large")));
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", &max),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert!(Shard::from_env(None, slurm).is_err_and(|e| e
            .to_string()
            .contains("SLURM_ARRAY_TASK_ID=18446744073709551615 is too large")));
    }

    /// A results file names its shard as it was resolved: `auto` is not read there.
    #[test]
    fn a_resolved_shard_is_never_auto() {
        assert_eq!(Shard::parse_resolved("2/3"), Ok(Shard { k: 2, n: 3 }));
        assert!(Shard::parse_resolved("auto/3").is_err_and(|e| e.to_string().contains("auto/3")));
        assert!(Shard::parse_resolved("auto").is_err());
        assert!(Shard::parse_resolved("4/3").is_err());
    }
}
