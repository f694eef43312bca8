//! The conformance runner: an implementation under test (`Oracle`: m3go itself or another
//! program driven through the JSON-lines protocol), its declared capabilities (`negotiate`),
//! one case run against it (`run_case`), a pool of implementations for parallel runs
//! (`OraclePool`), the suite loaded from a directory (`load_suite`) and the clause coverage of
//! rules.md (`Coverage`). The command line (`m3go conform`, `m3go diff`) only prints what these
//! return.

use crate::conform::answer::answer_value;
use crate::conform::capabilities::{clip_reason, SkippedCheck};
use crate::conform::capabilities::{Capabilities, CapabilitiesError};
use crate::conform::case::Case;
use crate::conform::case::ReplayMode;
use crate::conform::check::{check_only, checks_of};
use crate::conform::clause_id::{clause_ids, is_clause_id};
use crate::conform::failure::{AnswerFault, ProgramFailure, Stopped, UnreadableLine};
use crate::conform::protocol::{PROTOCOL, PROTOCOLS, PROTOCOL_1};
use crate::conform::suite::case_files;
use crate::io::clip;
use m3go_engine::{Engine, InputError, Rules};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::time::Duration;

/// Outcome of one case.
#[derive(Debug)]
pub enum Outcome {
    Passed,
    Failed(Vec<String>),
    Errored(String),
    Skipped(String),
}

/// An implementation under test. `Err` is a failure of the program itself (it could not be
/// started, crashed, hung or wrote something that is not a JSON answer), never a rules answer:
/// an answer with `error` is `Ok`.
pub trait Oracle: Send {
    /// The program's answer to one request (a `m3go-conform/1` request object).
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure>;

    /// [`Oracle::ask`], running `meanwhile` while the program works out its answer: a program
    /// that runs apart (an [`External`] one) is sent the request first and `meanwhile` runs
    /// before its answer is awaited; by default `meanwhile` runs first, then `ask`.
    /// `meanwhile` may return the request that will be asked next: an [`External`] program is
    /// sent it at once, before this answer is awaited, so that it starts on it as soon as it
    /// has written this one (the next `ask_while` of that request then only awaits its
    /// answer); by default it is asked when it is asked.
    fn ask_while(
        &mut self,
        request: &Value,
        meanwhile: &mut dyn FnMut() -> Option<Value>,
    ) -> Result<Value, ProgramFailure> {
        meanwhile();
        self.ask(request)
    }
}

/// m3go itself, on the fast engine.
pub struct Builtin;

impl Oracle for Builtin {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        BuiltinOn(Engine::Fast).ask(request)
    }
}

/// m3go itself, on the engine given (`m3go conform --reference`: the clause-by-clause
/// reference).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct BuiltinOn(pub Engine);

impl Oracle for BuiltinOn {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        Ok(answer_value(request, &Capabilities::m3go(), self.0))
    }
}

/// The longest answer line read from a program under test (a 19×19 answer is some 100 KB).
pub(crate) const MAX_ANSWER_BYTES: usize = 16 << 20;

/// The default time a program under test has for one answer (`--timeout`), before scaling by
/// the size of a replay ([`budget`]).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The moves of a replay that add one `--timeout` to a request's budget ([`budget`]).
pub(crate) const REPLAY_MOVES_PER_TIMEOUT: usize = 100;

/// The time a program under test has for one request (spec/README.md "Time budgets"):
/// `timeout` for a request without a replay; a request with a `replay` of N moves gets
/// `timeout × (1 + N / 100)`, since each replayed move costs what a move of `moves` does (a
/// 288-move replay: 3.88 × 60 s = 233 s by default).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn budget(timeout: Duration, request: &Value) -> Duration {
    let n = request["replay"]["moves"].as_array().map_or(0, Vec::len);
    timeout.mul_f64(1.0 + n as f64 / REPLAY_MOVES_PER_TIMEOUT as f64)
}

/// The process groups of the programs under test still running (each the pid of the program,
/// [`crate::conform::reaper::programs`]), stopped by [`stop_children_on_signal`]'s handler.
fn groups() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    crate::conform::reaper::programs()
}

/// Set by the signal handler before it stops the programs under test, so that a worker that
/// sees its program die does not report that as the program's failure.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Held by the signal handler from before [`INTERRUPTED`] is set until it ends m3go: a worker
/// that sees [`INTERRUPTED`] waits for it, so that m3go does not exit before the handler has
/// stopped everything the programs started.
static ENDING: Mutex<()> = Mutex::new(());

/// Stops a program under test and everything it started with SIGKILL: its process group, its
/// descendants and its orphans ([`crate::conform::reaper`]); it stays registered until its
/// status is read.
fn kill_group(pgid: i32, mark: &str) {
    crate::conform::reaper::end_program(pgid, mark);
}

/// Installs (once) a Ctrl-C / SIGTERM / SIGHUP handler that stops every program under test
/// still running, then ends m3go with exit 130: a program under test runs in its own process
/// group (so that a pipeline `prog | filter` is stopped whole), which a terminal's Ctrl-C does
/// not reach.
#[cfg(feature = "cli")]
pub(crate) fn stop_children_on_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let r = ctrlc::set_handler(|| {
            let _ending = ENDING.lock().unwrap_or_else(|e| e.into_inner());
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            crate::conform::reaper::end_all();
            std::process::exit(130);
        });
        if let Err(e) = r {
            errln!("warning: cannot stop the programs under test on Ctrl-C: {e}");
        }
    });
}

/// An answer line as the reader thread hands it on: read as JSON there (while m3go works out
/// its own answer), or kept as text when it is not JSON, for the error message.
#[derive(Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum ProgramLine {
    Json(Value),
    NotJson { line: String, error: String },
}

/// What the reader thread hands on for each line: an answer, or why the line could not be read
/// (after which it stops).
pub(crate) type Line = Result<ProgramLine, UnreadableLine>;

/// The bounds of what m3go reads from a program it drives (a program under test, a player):
/// every line, and the lines read but not yet taken (the backlog of a program that writes
/// ahead of its requests). A longer line is [`UnreadableLine::TooLong`]; a program whose
/// backlog would pass the bound is [`UnreadableLine::Unrequested`] and no more is read from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadBounds {
    /// The longest line, in bytes, its line end included.
    pub line: usize,
    /// The most the lines read and not yet taken may cost, each its bytes and `LINE_COST`.
    pub backlog: usize,
}

/// What a line waiting to be taken costs besides its bytes (its place in the queue), so that
/// a flood of empty lines is bounded too.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const LINE_COST: usize = 64;

impl ReadBounds {
    /// The JSON protocols' (`m3go conform --impl`, `m3go diff --impl`, a play-protocol player):
    /// lines of `MAX_ANSWER_BYTES`, two of them waiting (the answer to a request and to the
    /// one sent ahead) and 1 MiB more.
    pub const JSON: ReadBounds = ReadBounds {
        line: MAX_ANSWER_BYTES,
        backlog: 2 * MAX_ANSWER_BYTES + (1 << 20),
    };
}

/// The lines a program wrote that were read and not yet taken, shared by the thread reading
/// them ([`read_lines`]) and the one taking them: their cost, and whether the bound was
/// passed.
#[derive(Debug, Default)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Backlog {
    cost: std::sync::atomic::AtomicUsize,
    /// The bound passed, or 0.
    flooded: std::sync::atomic::AtomicUsize,
}

impl Backlog {
    /// The cost of the lines read and not yet taken.
    #[cfg(any(test, feature = "testing"))]
    pub fn cost(&self) -> usize {
        self.cost.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// A line of `cost` was taken.
    pub fn taken(&self, cost: usize) {
        self.cost
            .fetch_sub(cost, std::sync::atomic::Ordering::SeqCst);
    }

    /// The bound the backlog would have passed, once it did ([`UnreadableLine::Unrequested`]).
    pub fn flooded(&self) -> Option<usize> {
        match self.flooded.load(std::sync::atomic::Ordering::SeqCst) {
            0 => None,
            b => Some(b),
        }
    }

    /// Adds a line of `cost`, or, when that would pass `bound`, marks the backlog flooded.
    fn add(&self, cost: usize, bound: usize) -> bool {
        use std::sync::atomic::Ordering::SeqCst;
        let before = self.cost.fetch_add(cost, SeqCst);
        if before.saturating_add(cost) > bound {
            self.cost.fetch_sub(cost, SeqCst);
            self.flooded.store(bound.max(1), SeqCst);
            return false;
        }
        true
    }
}

/// Reads a program's output line by line within `bounds` (the reader thread of [`External`],
/// apart from the thread, so that it can be fuzzed): each line is handed to `hand` with its
/// cost, which is added to `backlog` (the taker subtracts it, [`Backlog::taken`]); a line that
/// is JSON is read as JSON (`skip`: the parts left out, [`crate::conform::pruned`]). Stops at
/// the end of the output, after a line that cannot be read (handed as its `Err`, of cost 0),
/// when the backlog would pass its bound (handed as [`UnreadableLine::Unrequested`], and
/// marked in `backlog`), or when `hand` returns `false`. What it holds at any time: one line of
/// at most `bounds.line` bytes and the lines handed on that were not taken, at most
/// `bounds.backlog`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn read_lines(
    mut input: impl BufRead,
    bounds: ReadBounds,
    skip: crate::conform::pruned::Paths,
    backlog: &Backlog,
    mut hand: impl FnMut(Line, usize) -> bool,
) {
    loop {
        let mut buf = Vec::new();
        let n = match std::io::Read::take(&mut input, bounds.line as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(n) => n,
            Err(e) => {
                hand(Err(UnreadableLine::Io(e.to_string())), 0);
                return;
            }
        };
        if n == 0 {
            return;
        }
        if buf.len() > bounds.line {
            hand(Err(UnreadableLine::TooLong(bounds.line)), 0);
            return;
        }
        let cost = buf.len() + LINE_COST;
        if !backlog.add(cost, bounds.backlog) {
            hand(Err(UnreadableLine::Unrequested(bounds.backlog)), 0);
            return;
        }
        // the whole line's UTF-8 is checked first: the parts read past are not read as
        // strings
        let line = match std::str::from_utf8(&buf) {
            Ok(l) => l.trim_end_matches(['\n', '\r']),
            Err(e) => {
                backlog.taken(cost);
                hand(Err(UnreadableLine::NotUtf8(e.to_string())), 0);
                return;
            }
        };
        let msg = match crate::conform::pruned::from_str_pruned(line, skip) {
            Ok(v) => ProgramLine::Json(v),
            Err(e) => ProgramLine::NotJson {
                line: line.to_string(),
                error: e.to_string(),
            },
        };
        if !hand(Ok(msg), cost) {
            return;
        }
    }
}

/// A request sent to the program before it was asked ([`Oracle::ask_while`]'s `meanwhile`
/// returned it).
struct Ahead {
    request: Value,
    /// Whether it reached the program's input (a program that exited after its last answer
    /// cannot read it: that is told when the request is asked).
    sent: bool,
}

/// A running program under test.
struct Running {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    /// The lines read, each with its cost in the [`Backlog`].
    lines: std::sync::mpsc::Receiver<(Line, usize)>,
    /// The lines read and not yet taken.
    backlog: std::sync::Arc<Backlog>,
    pgid: i32,
    /// The program's mark ([`crate::conform::reaper::MARK_VAR`]).
    mark: String,
}

impl Running {
    /// Stops the program (its whole process group) and says how it ended.
    fn stop(mut self) -> String {
        let status = self.child.try_wait().ok().flatten();
        kill_group(self.pgid, &self.mark);
        let status = status.or_else(|| self.child.wait().ok());
        groups().remove(&self.pgid);
        // the orphans ended meanwhile reaped; the last program's strays stopped
        crate::conform::reaper::reap_orphans(true);
        match status {
            Some(s) if s.code() == Some(127) => "exit status 127: the command was not found".into(),
            Some(s) if s.code() == Some(126) => {
                "exit status 126: the command cannot be executed".into()
            }
            Some(s) => match s.code() {
                Some(c) => format!("exit status {c}"),
                None => "killed by a signal".into(),
            },
            None => "status unknown".into(),
        }
    }
}

/// Another program, driven through the JSON-lines protocol: started with `sh -c COMMAND` in
/// its own process group, given `timeout` for each answer, stopped (the whole group) when it
/// does not answer in time, crashes or writes something that is not one JSON answer, and
/// started again for the next request; stopped when dropped.
pub struct External {
    cmd: String,
    timeout: Duration,
    running: Option<Running>,
    /// The request sent ahead, whose answer is the next line the program writes.
    ahead: Option<Ahead>,
    /// The parts of every answer left out as it is read ([`External::skipping`]).
    skip: crate::conform::pruned::Paths,
    /// The bounds of what is read from it ([`External::bounded`]).
    bounds: ReadBounds,
    /// How many times the program was started.
    pub starts: u32,
}

impl External {
    /// `cmd` with the default timeout (60 s).
    pub fn spawn(cmd: &str) -> Result<External, ProgramFailure> {
        External::with_timeout(cmd, DEFAULT_TIMEOUT)
    }

    /// `cmd`, given `timeout` for each answer. Starts it at once (an error when `sh` itself
    /// cannot be started; a command that `sh` cannot find fails on the first request).
    pub fn with_timeout(cmd: &str, timeout: Duration) -> Result<External, ProgramFailure> {
        External::skipping(cmd, timeout, &[])
    }

    /// [`External::with_timeout`], with the parts `skip` of every answer left out (read as
    /// `null`) as the reader thread reads it ([`crate::conform::pruned`]): for a caller that
    /// never reads them (`m3go diff`, which compares a third of an answer).
    pub fn skipping(
        cmd: &str,
        timeout: Duration,
        skip: crate::conform::pruned::Paths,
    ) -> Result<External, ProgramFailure> {
        External::bounded(cmd, timeout, skip, ReadBounds::JSON)
    }

    /// [`External::skipping`], its output read within `bounds` (a GTP player's are tighter
    /// than the JSON protocols' [`ReadBounds::JSON`]).
    pub fn bounded(
        cmd: &str,
        timeout: Duration,
        skip: crate::conform::pruned::Paths,
        bounds: ReadBounds,
    ) -> Result<External, ProgramFailure> {
        let mut x = External {
            cmd: cmd.to_string(),
            timeout,
            running: None,
            ahead: None,
            skip,
            bounds,
            starts: 0,
        };
        x.start()?;
        Ok(x)
    }

    /// Sets the time the program has for each answer from now on (`m3go match`: a move's
    /// limit, the clock's time left).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    fn start(&mut self) -> Result<(), ProgramFailure> {
        use std::os::unix::process::CommandExt;
        let cmd = &self.cmd;
        // the registry is held from the start of the program to its registration, and no
        // program starts once the signal handler has begun: the handler, which waits for the
        // registry, then sees every program that runs
        let mut registry = groups();
        if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ProgramFailure::Stopping);
        }
        let mark = crate::conform::reaper::next_mark();
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .env(crate::conform::reaper::MARK_VAR, &mark)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| ProgramFailure::Start {
                command: cmd.clone(),
                error: e.to_string(),
            })?;
        let pgid = child.id() as i32;
        registry.insert(pgid);
        drop(registry);
        let stdin = child.stdin.take().ok_or(ProgramFailure::NoPipe("stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or(ProgramFailure::NoPipe("stdout"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        let skip = self.skip;
        let bounds = self.bounds;
        let backlog = std::sync::Arc::new(Backlog::default());
        let read = std::sync::Arc::clone(&backlog);
        std::thread::spawn(move || {
            read_lines(
                std::io::BufReader::new(stdout),
                bounds,
                skip,
                &read,
                |line, cost| tx.send((line, cost)).is_ok(),
            );
        });
        self.starts += 1;
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
            backlog,
            pgid,
            mark,
        });
        Ok(())
    }

    /// Stops the program after a failure, so that the next request starts it again: the
    /// failure `what` made of how it ended.
    fn fail(&mut self, what: impl FnOnce(Stopped) -> ProgramFailure) -> ProgramFailure {
        if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            // the handler stopped the program and ends m3go with 130 once it has stopped
            // everything the programs started
            let _ending = ENDING.lock().unwrap_or_else(|e| e.into_inner());
            std::process::exit(130);
        }
        // a request sent ahead went with the program
        self.ahead = None;
        let how = self.running.take().map(Running::stop).unwrap_or_default();
        // only that it was stopped: whether a next request starts it again is the caller's
        // (`m3go conform` goes on with the next case; a failed capabilities request, or a
        // failed game of `m3go diff`, ends the run)
        what(Stopped {
            how,
            command: self.cmd.clone(),
        })
    }
}

/// One request as the program reads it: one line, written in one `write` (`Value`'s `Display`
/// into the unbuffered pipe would write it token by token, each write waking the program to
/// read a fragment: some 115 writes and 65 reads a 9×9 move).
fn send_line(stdin: &mut std::process::ChildStdin, request: &Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(request).unwrap_or_else(|_| request.to_string().into());
    line.push(b'\n');
    stdin.write_all(&line).and_then(|_| stdin.flush())
}

impl External {
    /// Awaits the next line the program writes (the answer to the oldest request it has not
    /// answered) until `deadline`, `limit` the budget that request was given.
    fn receive(
        &mut self,
        deadline: std::time::Instant,
        limit: Duration,
    ) -> Result<Value, ProgramFailure> {
        let scaled_from = (limit > self.timeout).then_some(self.timeout);
        match self.next_line(deadline, limit, scaled_from)? {
            ProgramLine::Json(v) if v.is_object() => Ok(v),
            ProgramLine::Json(v) => {
                Err(self.fail(|s| ProgramFailure::not_object(&v.to_string(), s)))
            }
            ProgramLine::NotJson { line, error } => {
                Err(self.fail(|s| ProgramFailure::not_json(error, &line, s)))
            }
        }
    }

    /// The next line the program writes, read as JSON when it is, awaited until `deadline`
    /// (`limit` the time it was given and `scaled_from` the `--timeout` it was scaled from when
    /// it is longer, for the message); a line that cannot be read, no line in time or a program
    /// gone is a failure ([`External::fail`]).
    fn next_line(
        &mut self,
        deadline: std::time::Instant,
        limit: Duration,
        scaled_from: Option<Duration>,
    ) -> Result<ProgramLine, ProgramFailure> {
        self.check_backlog()?;
        let Some(run) = self.running.as_mut() else {
            return Err(ProgramFailure::NotRunning);
        };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match run.lines.recv_timeout(left) {
            Ok((Ok(answer), cost)) => {
                run.backlog.taken(cost);
                Ok(answer)
            }
            Ok((Err(why), _)) => {
                Err(self.fail(|stopped| ProgramFailure::Unreadable { why, stopped }))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                Err(self.fail(|stopped| ProgramFailure::Timeout {
                    limit,
                    scaled_from,
                    stopped,
                }))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                Err(self.fail(|stopped| ProgramFailure::Exited { stopped }))
            }
        }
    }
}

impl External {
    /// A program that wrote more than its backlog holds fails at once, whatever lines it wrote
    /// before (not answers to anything asked yet), before anything is sent to it (its reader
    /// has stopped: a program killed by the broken pipe is not a crash).
    fn check_backlog(&mut self) -> Result<(), ProgramFailure> {
        let flooded = self.running.as_ref().and_then(|r| r.backlog.flooded());
        match flooded {
            Some(bound) => {
                let why = UnreadableLine::Unrequested(bound);
                Err(self.fail(|stopped| ProgramFailure::Unreadable { why, stopped }))
            }
            None => Ok(()),
        }
    }

    /// Writes `text` to the program's input as it is, for a program of another line protocol
    /// (GTP, `m3go match --player NAME=gtp:COMMAND`); a program not running is started.
    pub fn send_text(&mut self, text: &str) -> Result<(), ProgramFailure> {
        if self.running.is_none() {
            self.start()?;
        }
        self.check_backlog()?;
        let Some(run) = self.running.as_mut() else {
            return Err(ProgramFailure::NotRunning);
        };
        if run
            .stdin
            .write_all(text.as_bytes())
            .and_then(|_| run.stdin.flush())
            .is_err()
        {
            return Err(self.fail(|stopped| ProgramFailure::ExitedBeforeRequest { stopped }));
        }
        Ok(())
    }

    /// The next line the program writes, as text without its line end (JSON or not), awaited
    /// until `deadline`; `limit` is the time it was given (for the message).
    pub fn receive_text(
        &mut self,
        deadline: std::time::Instant,
        limit: Duration,
    ) -> Result<String, ProgramFailure> {
        Ok(match self.next_line(deadline, limit, None)? {
            ProgramLine::Json(v) => v.to_string(),
            ProgramLine::NotJson { line, .. } => line,
        })
    }
}

impl Oracle for External {
    fn ask(&mut self, request: &Value) -> Result<Value, ProgramFailure> {
        self.ask_while(request, &mut || None)
    }

    fn ask_while(
        &mut self,
        request: &Value,
        meanwhile: &mut dyn FnMut() -> Option<Value>,
    ) -> Result<Value, ProgramFailure> {
        if self.running.is_none() {
            self.start()?;
        }
        self.check_backlog()?;
        let sent_ahead = match self.ahead.take() {
            Some(a) if a.request == *request => {
                if !a.sent {
                    return Err(
                        self.fail(|stopped| ProgramFailure::ExitedBeforeRequest { stopped })
                    );
                }
                true
            }
            Some(a) => {
                // sent ahead but not asked after all (its game stopped): its answer is read
                // and set aside; a program that fails on it is started again for this one
                if a.sent {
                    let limit = budget(self.timeout, &a.request);
                    let _ = self.receive(std::time::Instant::now() + limit, limit);
                }
                if self.running.is_none() {
                    self.start()?;
                }
                false
            }
            None => false,
        };
        let Some(run) = self.running.as_mut() else {
            return Err(ProgramFailure::NotRunning);
        };
        if !sent_ahead && send_line(&mut run.stdin, request).is_err() {
            return Err(self.fail(|stopped| ProgramFailure::ExitedBeforeRequest { stopped }));
        }
        // the budget runs from the request (for a request sent ahead, from its asking, the
        // program having answered the one before), `meanwhile`'s time included
        let limit = budget(self.timeout, request);
        let deadline = std::time::Instant::now() + limit;
        if let Some(next) = meanwhile() {
            let sent = self
                .running
                .as_mut()
                .is_some_and(|run| send_line(&mut run.stdin, &next).is_ok());
            self.ahead = Some(Ahead {
                request: next,
                sent,
            });
        }
        self.receive(deadline, limit)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop();
        }
    }
}

/// Asks `oracle` and checks that the answer echoes the request's id (every answer does, the
/// `capabilities` one included); a wrong id is a failure of the program, like a crash.
pub(crate) fn ask_checked(
    oracle: &mut dyn Oracle,
    request: &Value,
) -> Result<Value, ProgramFailure> {
    ask_checked_while(oracle, request, &mut || None)
}

/// [`ask_checked`] running `meanwhile` while the program answers ([`Oracle::ask_while`]).
pub(crate) fn ask_checked_while(
    oracle: &mut dyn Oracle,
    request: &Value,
    meanwhile: &mut dyn FnMut() -> Option<Value>,
) -> Result<Value, ProgramFailure> {
    let ans = oracle.ask_while(request, meanwhile)?;
    if ans.get("id") != request.get("id") {
        return Err(ProgramFailure::NotAnAnswer(AnswerFault::WrongId {
            got: ans.get("id").unwrap_or(&Value::Null).to_string(),
            expected: request["id"].to_string(),
        }));
    }
    check_answer_shape(request, &ans).map_err(ProgramFailure::NotAnAnswer)?;
    Ok(ans)
}

/// The fields of an answer to a case request (answer.schema.json).
const CASE_ANSWER_FIELDS: [&str; 11] = [
    "declined",
    "id",
    "protocol",
    "analysis",
    "reports",
    "probes",
    "numbered",
    "extras",
    "error",
    "unsupported",
    "reason",
];

/// The fields of an answer to the capabilities request (capabilities.schema.json, or an error).
const CAPABILITIES_ANSWER_FIELDS: [&str; 8] = [
    "id",
    "protocol",
    "protocols",
    "implementation",
    "capabilities",
    "error",
    "unsupported",
    "reason",
];

/// An answer is an answer: it has no field that no answer has (a program that echoes its
/// request, `cat`, writes `position` and `moves`) and says something besides its id (an
/// analysis, reports, probes, a diagram, capabilities, an error or `unsupported`). Anything else
/// is a failure of the program, never a disagreement on the rules.
fn check_answer_shape(request: &Value, ans: &Value) -> Result<(), AnswerFault> {
    let capabilities = request.get("action").is_some();
    let fields: &[&str] = if capabilities {
        &CAPABILITIES_ANSWER_FIELDS
    } else {
        &CASE_ANSWER_FIELDS
    };
    let Some(obj) = ans.as_object() else {
        return Err(AnswerFault::NotObject);
    };
    if let Some(k) = obj.keys().find(|k| !fields.contains(&k.as_str())) {
        return Err(AnswerFault::UnknownField {
            field: clip(k, 40),
            answer: clip(&ans.to_string(), 200),
        });
    }
    if let Some(d) = obj.get("declined") {
        check_declined(d)?;
    }
    if obj.keys().all(|k| k == "id" || k == "protocol") {
        return Err(AnswerFault::Empty { capabilities });
    }
    Ok(())
}

/// An answer's `declined` is an object of checks, each with its reason as a string
/// (`{"score": "why"}`, spec/README.md): anything else is a failure of the program, said with
/// the field's name, never read as declining nothing.
fn check_declined(d: &Value) -> Result<(), AnswerFault> {
    let Some(d) = d.as_object() else {
        return Err(AnswerFault::DeclinedNotObject {
            declined: clip(&d.to_string(), 200),
        });
    };
    for (c, why) in d {
        if !crate::conform::check::is_check(c) {
            return Err(AnswerFault::DeclinedUnknownCheck { check: clip(c, 40) });
        }
        if !why.is_string() {
            return Err(AnswerFault::DeclinedReasonNotText {
                check: c.clone(),
                reason: clip(&why.to_string(), 200),
            });
        }
    }
    Ok(())
}

/// The request for an implementation's capabilities (spec/README.md "Capabilities"): in
/// `m3go-conform/1`, which every program reads, with every version the runner speaks.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn capabilities_request() -> Value {
    json!({"protocol": PROTOCOL_1, "id": "capabilities", "action": "capabilities", "protocols": PROTOCOLS})
}

/// What the program under test declared.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum Declared {
    /// Its capabilities: cases outside them are skipped.
    Capabilities(Capabilities),
    /// An answer without capabilities (a program of before the request): every case is asked,
    /// and only per-case `unsupported` answers skip one. The text says what it answered.
    Nothing(String),
}

/// What the capabilities request settled: what the program declared, and the version the
/// case requests are sent in.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Negotiated {
    pub declared: Declared,
    /// The newest version both speak (`m3go-conform/1` for a program that declared nothing).
    pub protocol: &'static str,
}

/// Why the capabilities request settled nothing: the run ends, as nothing can be tested.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum NegotiationError {
    /// The program could not be started.
    Start(ProgramFailure),
    /// The program failed on the request (crashed, hung, wrote something that is not an
    /// answer).
    Failed(ProgramFailure),
    /// It speaks none of the runner's versions (`speaks`: the versions it listed, as JSON).
    NoCommonVersion { speaks: String },
    /// Its capabilities do not read (`error` and `capabilities` clipped for the message).
    Unreadable { error: String, capabilities: String },
    /// Its capabilities name options or checks that do not exist.
    Invalid(CapabilitiesError),
}

impl std::fmt::Display for NegotiationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NegotiationError::Start(e) => write!(f, "{e}"),
            NegotiationError::Failed(e) => write!(
                f,
                "the program did not answer the capabilities request: {e}; the run ends, as nothing can be tested without it"
            ),
            NegotiationError::NoCommonVersion { speaks } => write!(
                f,
                "the program speaks {speaks}, none of the versions this runner speaks ({})",
                PROTOCOLS.join(", ")
            ),
            NegotiationError::Unreadable {
                error,
                capabilities,
            } => write!(
                f,
                "the program's capabilities do not read: {error}: {capabilities}"
            ),
            NegotiationError::Invalid(e) => write!(f, "the program's capabilities: {e}"),
        }
    }
}

impl std::error::Error for NegotiationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NegotiationError::Start(e) | NegotiationError::Failed(e) => Some(e),
            NegotiationError::Invalid(e) => Some(e),
            NegotiationError::NoCommonVersion { .. } | NegotiationError::Unreadable { .. } => None,
        }
    }
}

/// Asks the program for its capabilities, first of all. A failure of the program (it cannot
/// be started, crashed, hung) is an error: nothing can be tested. A program that speaks none
/// of the runner's versions is an error too, as are capabilities that do not read or name
/// options or checks that do not exist.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn negotiate(oracle: &mut dyn Oracle) -> Result<Negotiated, NegotiationError> {
    let ans = ask_checked(oracle, &capabilities_request()).map_err(NegotiationError::Failed)?;
    let protocol = match ans.get("protocols").and_then(Value::as_array) {
        Some(ps) => PROTOCOLS
            .iter()
            .copied()
            .find(|v| ps.iter().any(|p| p.as_str() == Some(*v)))
            .ok_or_else(|| NegotiationError::NoCommonVersion {
                speaks: Value::Array(ps.clone()).to_string(),
            })?,
        None => PROTOCOL_1,
    };
    let declared = match ans.get("capabilities") {
        Some(c) => {
            let caps: Capabilities =
                serde_json::from_value(c.clone()).map_err(|e| NegotiationError::Unreadable {
                    error: clip(&e.to_string(), 300),
                    capabilities: clip(&c.to_string(), 200),
                })?;
            caps.validate().map_err(NegotiationError::Invalid)?;
            Declared::Capabilities(caps)
        }
        None => Declared::Nothing(
            crate::conform::check::error_message(&ans)
                .unwrap_or_else(|| clip(&ans.to_string(), 200)),
        ),
    };
    Ok(Negotiated { declared, protocol })
}

impl Declared {
    /// The checks the capabilities decline under `rules` (none when nothing was declared).
    pub fn declined(&self, rules: &Rules) -> Vec<SkippedCheck> {
        match self {
            Declared::Capabilities(caps) => caps.declined(rules),
            Declared::Nothing(_) => Vec::new(),
        }
    }
}

/// The checks of a request, screened against what the program declared ([`screen`]): those
/// the capabilities decline under the request's rules, left out with their reasons, and the
/// others, asked (a `/2` request names them in `checks`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Screened {
    pub asked: Vec<&'static str>,
    pub declined: Vec<SkippedCheck>,
}

/// The negotiation of one request, the same for `m3go conform` (a case) and `m3go diff` (every
/// move of a game): `checks` (what `what` would be compared on) under `rules` and `replay`
/// against the declaration. `Err(why)` when the request is outside it: its rules or replay mode
/// are not declared, or every one of `checks` is declined (spec/README.md "Capabilities",
/// "Partial support"); otherwise the checks asked and those declined by capability.
pub(crate) fn screen(
    checks: &[&'static str],
    rules: &Rules,
    replay: Option<ReplayMode>,
    declared: &Declared,
    what: &str,
) -> Result<Screened, Outside> {
    if let Declared::Capabilities(caps) = declared {
        if let Some(why) = caps.refuses(rules, replay) {
            return Err(Outside::Refused(why));
        }
    }
    let declined: Vec<SkippedCheck> = declared
        .declined(rules)
        .into_iter()
        .filter(|d| checks.contains(&d.check.as_str()))
        .collect();
    let asked: Vec<&'static str> = checks
        .iter()
        .copied()
        .filter(|c| !declined.iter().any(|d| d.check == *c))
        .collect();
    if asked.is_empty() && !checks.is_empty() {
        let why: BTreeSet<&str> = declined.iter().map(|d| d.reason.as_str()).collect();
        return Err(Outside::AllDeclined {
            what: what.to_string(),
            checks: checks.to_vec(),
            reasons: why.into_iter().map(str::to_string).collect(),
        });
    }
    Ok(Screened { asked, declined })
}

/// Why a request is outside what the program declared ([`screen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outside {
    /// Its rules or replay mode are not declared (why, as the capabilities say).
    Refused(String),
    /// Every one of its checks is declined (`what` the request is; the reasons, each once).
    AllDeclined {
        what: String,
        checks: Vec<&'static str>,
        reasons: Vec<String>,
    },
}

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outside::Refused(why) => f.write_str(why),
            Outside::AllDeclined {
                what,
                checks,
                reasons,
            } => write!(
                f,
                "every check of {what} ({}) is declined: {}",
                checks.join(", "),
                reasons.join("; ")
            ),
        }
    }
}

impl std::error::Error for Outside {}

/// The checks of `asked` an answer declines itself (`declined`, `/2`: a reading that depends
/// on the position), each with its reason: left out of the comparison, as those declined by
/// capability are, by `m3go conform` and `m3go diff` alike.
pub(crate) fn declined_by_answer(ans: &Value, asked: &[&str]) -> Vec<SkippedCheck> {
    let Some(d) = ans.get("declined").and_then(Value::as_object) else {
        return Vec::new();
    };
    asked
        .iter()
        .filter_map(|c| {
            d.get(*c).map(|why| SkippedCheck {
                check: c.to_string(),
                reason: format!(
                    "declined by the answer: {}",
                    clip_reason(why.as_str().unwrap_or_default())
                ),
            })
        })
        .collect()
}

/// Why a case is outside the declared capabilities, or `None`: its rules or replay mode are
/// not declared, or the program declines every check it makes ([`screen`]).
pub(crate) fn outside(case: &Case, declared: &Declared) -> Option<String> {
    let rules = case.position.rules.resolve().ok()?;
    screen(
        &checks_of(case),
        &rules,
        case.start.as_ref().map(|s| s.replay),
        declared,
        "the case",
    )
    .err()
    .map(|why| why.to_string())
}

/// One case run: its outcome, and the checks left out (declined by capability or by the
/// answer), each with its reason.
#[derive(Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct CaseRun {
    pub outcome: Outcome,
    pub skipped_checks: Vec<SkippedCheck>,
}

/// Runs one case against an oracle (`m3go-conform/2`, every check asked).
pub fn run_case(case: &Case, oracle: &mut dyn Oracle) -> Outcome {
    run_case_in(case, oracle, PROTOCOL, &[]).outcome
}

/// Runs one case against an oracle in `protocol`, leaving out the checks `declined` by the
/// declared capabilities (under `m3go-conform/2` the request's `checks` are the others) and
/// those the answer declines (`declined`): the answer is compared on the remaining checks
/// only, and the checks left out are returned with their reasons. A case whose every check is
/// left out is skipped.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn run_case_in(
    case: &Case,
    oracle: &mut dyn Oracle,
    protocol: &str,
    declined: &[SkippedCheck],
) -> CaseRun {
    let all = checks_of(case);
    let mut skipped: Vec<SkippedCheck> = declined
        .iter()
        .filter(|d| all.contains(&d.check.as_str()))
        .cloned()
        .collect();
    let asked: Vec<&str> = all
        .iter()
        .copied()
        .filter(|c| !skipped.iter().any(|d| d.check == *c))
        .collect();
    let run = |outcome| CaseRun {
        outcome,
        skipped_checks: Vec::new(),
    };
    let ans = match ask_checked(oracle, &case.request_in(protocol, Some(&asked))) {
        Err(e) => return run(Outcome::Errored(e.to_string())),
        Ok(a) => a,
    };
    if ans
        .get("unsupported")
        .is_some_and(|u| u.as_bool() == Some(true))
    {
        let why = ans
            .get("reason")
            .and_then(Value::as_str)
            .map_or_else(|| "no reason given".to_string(), clip_reason);
        return run(Outcome::Skipped(format!(
            "the implementation answered unsupported: {why}"
        )));
    }
    skipped.extend(declined_by_answer(&ans, &asked));
    let left: BTreeSet<String> = asked
        .iter()
        .filter(|c| !skipped.iter().any(|d| d.check == **c))
        .map(|c| c.to_string())
        .collect();
    if left.is_empty() && !all.is_empty() {
        let why: BTreeSet<&str> = skipped.iter().map(|d| d.reason.as_str()).collect();
        return run(Outcome::Skipped(format!(
            "every check of the case is declined: {}",
            why.into_iter().collect::<Vec<_>>().join("; ")
        )));
    }
    let d = check_only(case, &ans, Some(&left));
    CaseRun {
        outcome: if d.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Failed(d)
        },
        skipped_checks: skipped,
    }
}

/// A factory of oracles.
pub(crate) type MakeOracle = dyn Fn() -> Result<Box<dyn Oracle>, ProgramFailure> + Sync;

/// Oracles for parallel work: a worker takes one (a new one when none is idle) and gives it
/// back, so that at most as many programs under test run as workers.
pub(crate) struct OraclePool<'a> {
    make: &'a MakeOracle,
    idle: Mutex<Vec<Box<dyn Oracle>>>,
}

impl<'a> OraclePool<'a> {
    pub fn new(make: &'a MakeOracle) -> OraclePool<'a> {
        OraclePool {
            make,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Runs `f` with an oracle of the pool; `Err` when none could be made (a program that
    /// cannot be started).
    pub fn with<T>(&self, f: impl FnOnce(&mut dyn Oracle) -> T) -> Result<T, ProgramFailure> {
        let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut o = match taken {
            Some(o) => o,
            None => (self.make)()?,
        };
        let t = f(o.as_mut());
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(o);
        Ok(t)
    }
}

/// [`negotiate`] with an oracle of `pool` (one made when none is idle).
pub(crate) fn negotiate_in(pool: &OraclePool) -> Result<Negotiated, NegotiationError> {
    pool.with(negotiate)
        .map_err(NegotiationError::Start)
        .and_then(|n| n)
}

/// A thread pool of `jobs` workers (at least 1).
pub(crate) fn thread_pool(jobs: usize) -> Result<rayon::ThreadPool, WorkersError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|source| WorkersError { jobs, source })
}

/// The workers of a run could not be started.
#[derive(Debug)]
pub struct WorkersError {
    pub jobs: usize,
    pub source: rayon::ThreadPoolBuildError,
}

impl std::fmt::Display for WorkersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start {} workers: {}", self.jobs, self.source)
    }
}

impl std::error::Error for WorkersError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// As a bad input (the message only), for the commands whose errors are [`InputError`]s.
impl From<WorkersError> for InputError {
    fn from(e: WorkersError) -> Self {
        InputError::new(e.to_string())
    }
}

/// The case files of a directory, loaded: the cases that load (with their file) and, for each
/// file that does not, its error; a second case with an id already taken is a load error too.
pub struct Suite {
    pub cases: Vec<(String, Case)>,
    pub load_errors: Vec<(String, String)>,
}

/// Loads every case file under `dir`, checking each case's clauses against the clause ids of
/// `rules_md` when that file can be read. Only an unreadable directory is an error.
pub fn load_suite(dir: &str, rules_md: &str) -> Result<Suite, InputError> {
    let known: Option<BTreeSet<String>> = crate::input::read_text(rules_md)
        .ok()
        .map(|t| clause_ids(&t).into_iter().collect());
    let files = case_files(dir)?;
    let mut cases = Vec::new();
    let mut load_errors = Vec::new();
    for f in &files {
        match Case::load(f, known.as_ref()) {
            Ok(c) => cases.push((f.clone(), c)),
            Err(e) => load_errors.push((f.clone(), e.to_string())),
        }
    }
    let mut seen = BTreeMap::new();
    for (f, c) in &cases {
        if let Some(other) = seen.insert(c.id.clone(), f.clone()) {
            load_errors.push((
                f.clone(),
                format!("duplicate id `{}` (also in {other})", c.id),
            ));
        }
    }
    Ok(Suite { cases, load_errors })
}

/// The clause coverage of rules.md: for every clause id, the cases that cite it.
pub(crate) struct Coverage {
    /// The clause ids in the order rules.md lists them.
    pub ids: Vec<String>,
    /// For each clause id, the ids of the cases citing it (in the cases' order).
    pub by: BTreeMap<String, Vec<String>>,
}

impl Coverage {
    /// The coverage of the clauses of `rules_md` (the text of rules.md) by `cases`.
    pub fn new(rules_md: &str, cases: &[(String, Case)]) -> Coverage {
        let ids = clause_ids(rules_md);
        let mut by: BTreeMap<String, Vec<String>> =
            ids.iter().map(|i| (i.clone(), Vec::new())).collect();
        for (_, c) in cases {
            for cl in &c.clauses {
                if let Some(v) = by.get_mut(cl.as_str()) {
                    v.push(c.id.clone());
                }
            }
        }
        Coverage { ids, by }
    }

    /// The clause ids no case cites, in id order.
    pub fn uncovered(&self) -> Vec<&str> {
        self.by
            .iter()
            .filter(|(_, v)| v.is_empty())
            .map(|(k, _)| k.as_str())
            .collect()
    }

    /// The text of rules.md with the cases column (the second last) of every clause row set
    /// to the cases citing that clause (`—` for none).
    pub fn update_rules_md(&self, text: &str) -> String {
        let mut out = String::new();
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').collect();
            let id = cells
                .get(1)
                .map(|c| c.trim().trim_matches('`'))
                .unwrap_or("");
            if line.trim_start().starts_with('|') && is_clause_id(id) && cells.len() >= 8 {
                let list = self.by.get(id).map(|v| v.join(", ")).unwrap_or_default();
                let mut c: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
                let n = c.len();
                c[n - 2] = format!(" {} ", if list.is_empty() { "—".into() } else { list });
                out.push_str(&c.join("|"));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines `input` gives under `bounds` when nothing is taken.
    fn untaken(input: &[u8], bounds: ReadBounds) -> (Vec<Line>, Backlog) {
        let backlog = Backlog::default();
        let mut out = Vec::new();
        read_lines(input, bounds, &[], &backlog, |l, _| {
            out.push(l);
            true
        });
        (out, backlog)
    }

    /// Lines nobody takes stop the reader at the backlog's bound, empty lines too.
    #[test]
    fn a_backlog_past_its_bound_stops_the_reader() {
        let bounds = ReadBounds {
            line: 100,
            backlog: 3 * LINE_COST + 30,
        };
        let (lines, backlog) = untaken(b"{\"a\":1}\n\n\n\n\n\n", bounds);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(matches!(lines[0], Ok(ProgramLine::Json(_))));
        assert_eq!(
            lines[3].as_ref().err(),
            Some(&UnreadableLine::Unrequested(bounds.backlog))
        );
        assert_eq!(backlog.flooded(), Some(bounds.backlog));
        assert!(backlog.cost() <= bounds.backlog);
    }

    /// Lines taken as they come are never a flood, however many.
    #[test]
    fn lines_taken_as_they_come_are_read_to_the_end() {
        let bounds = ReadBounds {
            line: 100,
            backlog: LINE_COST + 10,
        };
        let input = "x\n".repeat(1000);
        let backlog = Backlog::default();
        let mut n = 0;
        read_lines(input.as_bytes(), bounds, &[], &backlog, |l, cost| {
            assert!(l.is_ok(), "{l:?}");
            backlog.taken(cost);
            n += 1;
            true
        });
        assert_eq!(n, 1000);
        assert_eq!(backlog.flooded(), None);
        assert_eq!(backlog.cost(), 0);
    }

    /// A line longer than the bound, its line end counted, is refused and ends the reading.
    #[test]
    fn a_line_past_the_bound_is_too_long() {
        let bounds = ReadBounds {
            line: 4,
            backlog: 1 << 20,
        };
        let (lines, _) = untaken(b"abc\nabcd\nz\n", bounds);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[1].as_ref().err(), Some(&UnreadableLine::TooLong(4)));
    }
}
