//! `m3go serve`: the adjudication page — a local HTTP server serving one page (HTML, CSS and
//! JavaScript embedded in the binary; nothing fetched from the network) and a small JSON API
//! ([`api`]) over the same engine the command line uses.
//!
//! This module is the HTTP plumbing, all of it: binding, who may call (`Access`: the `Host` and
//! `Origin` checks against DNS rebinding), the limits that keep any client from stopping the
//! server ([`Limits`]), the static files (`route`), and turning an [`api`] answer into a
//! response. The layer sits above `conform` and below `cli` (whose `serve` subcommand starts
//! it): it imports every layer below it and nothing imports it but that subcommand.
//!
//! The HTTP layer is hyper 1 (HTTP/1.1 only) on a small tokio runtime. It replaced tiny_http
//! (issue 20), which could not be made safe: it allocated a buffer of the size a request
//! *declared* (`Content-Length: 1000000000000000` aborted the process, even on a GET), had no
//! read or write timeout (stalled clients held their threads for ever), and read small bodies
//! before handing a request over. Here:
//! - a body is read chunk by chunk as it arrives, and only its first `MAX_BODY` bytes are
//!   kept: nothing is ever allocated from a declared size. A body over the limit is a 413; one
//!   declared past `DRAINED` gets it at once and its connection closes, a smaller one is read
//!   to its end first (so a client that sends before it reads sees the 413);
//! - the headers must arrive within [`Limits::header`] (hyper's header read timeout, which also
//!   closes an idle kept-alive connection), the body within [`Limits::body`], and every write
//!   must make progress within [`Limits::write`] (`WriteDeadline`);
//! - at most [`Limits::connections`] connections are open at once; when one more arrives, the
//!   oldest connection idle after an answer, or stalled in its first request for
//!   [`Limits::stalled`], is closed to make room, so stalled clients can never lock others out.
//!   A connection just accepted, or whose request is being read or answered, is never closed
//!   so (closing one with its request unread reset it: issue 49). When none can be closed, the
//!   new connection waits up to `REFUSAL_TIME` for room, then gets a 503 with `Retry-After`
//!   after its request's head is read (`refuse_busy`); at most [`Limits::refusing`] wait or
//!   are refused at once, more wait in the listen backlog (`BACKLOG`);
//! - the engine runs on tokio's blocking threads, so a long readings request holds no
//!   connection of another client; a panic in the engine is answered with a 500;
//! - the work is bounded, not only the connections (issue 36): a heavy request
//!   (`api::Request::heavy`: a record replayed, the readings, a long list of moves) runs on a
//!   pool of [`Limits::heavy_workers`] with at most [`Limits::heavy_queue`] more waiting; past
//!   that it is answered `503` with `Retry-After` at once (its connection is then idle, so the
//!   cap can close it for another client), while the light requests (the page's files, the
//!   options, one position's analysis) are answered beside them. Each request's work stops
//!   after [`Limits::work`] (503), and when its client leaves: hyper notices the closed
//!   connection and drops the request's future, which sets the flag the replay loops ask
//!   before each move (`api::Work`);
//! - hyper answers a request it cannot parse itself (400, 414, 431) with an empty body and no
//!   way to change it; `WriteDeadline` recognises that answer as it is written (an error
//!   status with `content-length: 0` when no request of the connection is being answered:
//!   every answer of the server's own has a JSON body) and writes the server's JSON error in
//!   its place.

pub mod api;
mod captures;
mod vertices;
pub(crate) mod watch;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{
    HeaderName, HeaderValue, CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST,
    RETRY_AFTER as RETRY_AFTER_HEADER,
};
use hyper::{Request, Response};
use m3go_engine::InputError;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

/// The largest request body accepted (a position, a record of 10·19² moves and its text).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_BODY: usize = 1 << 20;

const INDEX_HTML: &str = include_str!("page/index.html");
const STYLE_CSS: &str = include_str!("page/style.css");
const WATCH_HTML: &str = include_str!("page/watch.html");
/// The page's CJK subset font (page/font/subset.sh: the coordinates, the stones' symbols, the
/// figure's and the page's own labels, for a machine without a CJK font; OFL, page/font/OFL.txt).
const CJK_FONT: &[u8] = include_bytes!("page/font/m3go-cjk.woff2");

/// How long a client may take, and how many connections may be open.
#[derive(Clone, Debug)]
pub struct Limits {
    /// To send the request line and headers (and how long a kept-alive connection may idle).
    pub header: Duration,
    /// To send the body.
    pub body: Duration,
    /// For one write of the answer to make progress (a client that does not read).
    pub write: Duration,
    /// Connections open at once.
    pub connections: usize,
    /// How long an open connection that has had no answer yet must have waited for its client
    /// (stalled in its request) before it may be closed to make room for a new one; one idle
    /// after an answer may be closed at once.
    pub stalled: Duration,
    /// Connections past [`Limits::connections`] held at once only to be answered `503` with
    /// `Retry-After` (each for at most `REFUSAL_TIME`); past this, new connections wait in
    /// the listen backlog.
    pub refusing: usize,
    /// Heavy requests (`api::Request::heavy`) computed at once.
    pub heavy_workers: usize,
    /// Heavy requests waiting for a worker; one more is answered 503 with `Retry-After`.
    pub heavy_queue: usize,
    /// The time one request's work may take (its replay or its moves stop there: 503).
    pub work: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            header: Duration::from_secs(10),
            body: Duration::from_secs(30),
            write: Duration::from_secs(30),
            connections: 64,
            stalled: Duration::from_secs(1),
            refusing: 256,
            // a core left for the light requests
            heavy_workers: cores.saturating_sub(1).max(1),
            heavy_queue: 8,
            work: Duration::from_secs(60),
        }
    }
}

/// How a server is started: the names it answers besides its own, and its limits.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// More names (`board.example.org`, `10.0.0.5:8080`) a request's `Host` may give: for a
    /// deliberate bind to another address (`--allow-host`).
    pub allow_hosts: Vec<String>,
    /// ApiResult whatever `Host` and `Origin` a request gives (`--any-host`).
    pub any_host: bool,
    pub limits: Limits,
}

/// Who may call: the `Host` values the server answers (its own address: `localhost`,
/// `127.0.0.1` and `[::1]` with the port, the `--host` it was bound to, and the names allowed
/// besides), and, for a POST, the `Origin` of the page that sends it (`http://` and one of those).
/// A page of another site reaching the server through DNS rebinding names its own host, and a
/// cross-site form or fetch names its own origin: both are refused with 403.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Access {
    /// Accepted `Host` values, lowercase, each with its port (and without, on port 80).
    hosts: Vec<String>,
    any_host: bool,
}

impl Access {
    /// The access of a server bound to `host` on `port`, with the names of `options`.
    pub fn new(host: &str, port: u16, options: &Options) -> Access {
        let mut hosts = Vec::new();
        let mut add = |name: &str| {
            let name = name.trim().to_ascii_lowercase();
            let with_port = if name.parse::<std::net::Ipv6Addr>().is_ok() {
                format!("[{name}]:{port}")
            } else if has_port(&name) {
                name.clone()
            } else {
                format!("{name}:{port}")
            };
            if port == 80 {
                if let Some(bare) = with_port.strip_suffix(":80") {
                    hosts.push(bare.to_string());
                }
            }
            hosts.push(with_port);
        };
        for name in ["localhost", "127.0.0.1", "::1", host] {
            add(name);
        }
        for name in &options.allow_hosts {
            add(name);
        }
        Access {
            hosts,
            any_host: options.any_host,
        }
    }

    /// Whether a request may be answered: its `Host` (and the authority of an absolute request
    /// target) is one of the server's names, and a POST's `Origin`, when it has one, is a page of
    /// the server. The refusal is a 403 naming the header.
    pub fn check(
        &self,
        method: &str,
        host: Option<&str>,
        target_authority: Option<&str>,
        origin: Option<&str>,
    ) -> Result<(), Reply> {
        if self.any_host {
            return Ok(());
        }
        let known = |h: &str| self.hosts.iter().any(|k| k.eq_ignore_ascii_case(h.trim()));
        let expected = || format!("expected one of {}", self.hosts.join(", "));
        match host {
            Some(h) if known(h) => {}
            other => {
                return Err(Reply::error(
                    403,
                    &format!(
                        "`Host: {}` is not this server's address ({}; a deliberate remote bind \
                         is allowed with `m3go serve --allow-host NAME`)",
                        m3go_engine::InputError::quote(other.unwrap_or("")),
                        expected()
                    ),
                ))
            }
        }
        if let Some(a) = target_authority.filter(|a| !known(a)) {
            return Err(Reply::error(
                403,
                &format!(
                    "the request target names `{}`, not this server's address: {}",
                    m3go_engine::InputError::quote(a),
                    expected()
                ),
            ));
        }
        if method == "POST" {
            if let Some(o) = origin {
                let ours = o
                    .strip_prefix("http://")
                    .is_some_and(|a| !a.contains('/') && known(a));
                if !ours {
                    return Err(Reply::error(
                        403,
                        &format!(
                            "`Origin: {}` is not a page of this server: expected http:// and {}",
                            m3go_engine::InputError::quote(o),
                            expected().trim_start_matches("expected ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Whether an authority ends with a port (`name:8080`, `[::1]:8080`), not counting the colons
/// of a bare IPv6 address.
fn has_port(name: &str) -> bool {
    let Some((before, port)) = name.rsplit_once(':') else {
        return false;
    };
    let bracketed_or_plain = before.ends_with(']') || !before.contains(':');
    bracketed_or_plain && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
}

/// A bound server, not yet answering.
pub struct Server {
    listener: std::net::TcpListener,
    addr: std::net::SocketAddr,
    runtime: Arc<tokio::runtime::Runtime>,
    state: Arc<State>,
}

/// What every connection shares.
struct State {
    access: Access,
    limits: Limits,
    /// Open connections by age (the oldest first), each with the way to close it and whether it
    /// is being answered now.
    open: Mutex<BTreeMap<u64, Open>>,
    /// The heavy requests' workers: a permit for each.
    workers: Arc<tokio::sync::Semaphore>,
    /// Heavy requests computing or waiting for a worker.
    heavy: AtomicUsize,
    /// The records kept for the clients (`record`, `record-move`).
    records: Arc<api::Records>,
    /// The connections past the cap being answered 503: a permit for each.
    refusing: Arc<tokio::sync::Semaphore>,
    /// When the server started: the clock of [`Activity::waiting_since`].
    epoch: std::time::Instant,
    /// The number of the next connection opened (their order of age).
    next: AtomicU64,
    /// The match watched, if any.
    watch: Option<Arc<watch::Live>>,
}

struct Open {
    close: tokio::task::AbortHandle,
    activity: Arc<Activity>,
}

/// What a connection is doing, as the cap sees it.
struct Activity {
    /// A request of it is being answered (its body read).
    answering: AtomicBool,
    /// A request of it was answered: waiting after that, it is idle (or stalled in its next
    /// request) and may be closed at once.
    served: AtomicBool,
    /// When its last read found nothing to read (milliseconds since [`State::epoch`], plus 1);
    /// 0 while it reads or before its first read. A connection just accepted, or whose
    /// request arrived and is being read, is never closed to make room.
    waiting_since: AtomicU64,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            answering: AtomicBool::new(false),
            served: AtomicBool::new(false),
            waiting_since: AtomicU64::new(0),
        }
    }

    /// Whether the connection may be closed to make room at `now` (milliseconds since the
    /// epoch): not answering, and waiting for its client, after an answer or for at least
    /// `stalled` milliseconds.
    fn closable(&self, now: u64, stalled: u64) -> bool {
        let since = self.waiting_since.load(Ordering::SeqCst);
        !self.answering.load(Ordering::SeqCst)
            && since != 0
            && (self.served.load(Ordering::SeqCst) || now + 1 >= since + stalled)
    }
}

/// Milliseconds since `epoch`.
fn millis_since(epoch: std::time::Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Server {
    /// Binds `host:port` (port 0: any free port), answering the server's own names only.
    pub fn bind(host: &str, port: u16) -> Result<Server, InputError> {
        Server::bind_with(host, port, &Options::default())
    }

    /// Binds `host:port` with `options` (more names to answer, the limits).
    pub fn bind_with(host: &str, port: u16, options: &Options) -> Result<Server, InputError> {
        Server::bind_watching(host, port, options, None)
    }

    /// [`Server::bind_with`], the server also answering the live view of the match `watch`
    /// (`m3go match --serve`, [`watch`]).
    pub(crate) fn bind_watching(
        host: &str,
        port: u16,
        options: &Options,
        watch: Option<Arc<watch::Live>>,
    ) -> Result<Server, InputError> {
        let place = || format!("--host {host} --port {port}");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(options.limits.connections.max(1))
            .thread_name("m3go-serve")
            .enable_all()
            .build()
            .map_err(|e| InputError::new(format!("cannot start the server: {e}")))?;
        let listener = listen(host, port, &runtime).map_err(|e| {
            InputError::new(format!("cannot listen: {e}"))
                .key(place())
                .expected("a free port on a local address")
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| InputError::new(format!("cannot listen: {e}")).key(place()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| InputError::new(format!("cannot listen: {e}")).key(place()))?;
        Ok(Server {
            listener,
            addr,
            runtime: Arc::new(runtime),
            state: Arc::new(State {
                access: Access::new(host, addr.port(), options),
                limits: options.limits.clone(),
                open: Mutex::new(BTreeMap::new()),
                workers: Arc::new(tokio::sync::Semaphore::new(
                    options.limits.heavy_workers.max(1),
                )),
                heavy: AtomicUsize::new(0),
                records: Arc::new(api::Records::default()),
                refusing: Arc::new(tokio::sync::Semaphore::new(options.limits.refusing.max(1))),
                epoch: std::time::Instant::now(),
                next: AtomicU64::new(0),
                watch,
            }),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Answers requests until the process ends.
    pub fn run(self) {
        for t in self.spawn() {
            let _ = t.join();
        }
    }

    /// Answers requests on a background thread (and the runtime's threads); returns it (it runs
    /// until the process ends).
    pub fn spawn(&self) -> Vec<std::thread::JoinHandle<()>> {
        let listener = self.listener.try_clone();
        let (runtime, state) = (Arc::clone(&self.runtime), Arc::clone(&self.state));
        vec![std::thread::spawn(move || {
            let Ok(listener) = listener else {
                crate::io::write_err(format_args!("m3go serve: cannot share the socket\n"));
                return;
            };
            runtime.block_on(accept(listener, state));
        })]
    }
}

/// The listen backlog asked for: connections the kernel completes and holds before the server
/// accepts them (the system's `net.core.somaxconn` may lower it). The standard library's 128
/// overflowed with 200 clients connecting at once.
const BACKLOG: u32 = 1024;

/// A socket listening on the first address `host:port` names that can be bound, with
/// [`BACKLOG`]. tokio's socket is bound inside `runtime` (it registers there) and handed back
/// as a standard one.
fn listen(
    host: &str,
    port: u16,
    runtime: &tokio::runtime::Runtime,
) -> std::io::Result<std::net::TcpListener> {
    use std::net::ToSocketAddrs;
    let _inside = runtime.enter();
    let mut last = std::io::Error::new(
        std::io::ErrorKind::AddrNotAvailable,
        "the host names no address",
    );
    for addr in (host, port).to_socket_addrs()? {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()
        } else {
            tokio::net::TcpSocket::new_v6()
        };
        let bound = socket.and_then(|s| {
            s.set_reuseaddr(true)?;
            s.bind(addr)?;
            s.listen(BACKLOG)
        });
        match bound.and_then(|l| l.into_std()) {
            Ok(l) => return Ok(l),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Accepts connections for ever, each served on a task of its own.
async fn accept(listener: std::net::TcpListener, state: Arc<State>) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            crate::io::write_err(format_args!("m3go serve: cannot listen: {e}\n"));
            return;
        }
    };
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            // out of file descriptors and the like: wait for connections to close
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Err(stream) = admit(&state, stream) else {
            continue;
        };
        // past the refusals' cap too: wait for one to end (new connections wait in the listen
        // backlog meanwhile)
        let Ok(permit) = Arc::clone(&state.refusing).acquire_owned().await else {
            continue;
        };
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let _permit = permit;
            wait_for_room(&state, stream).await;
        });
    }
}

/// Opens a connection: when [`Limits::connections`] are open, closes the oldest one waiting for
/// its client after an answer (idle), or for [`Limits::stalled`] before its first (stalled in
/// its request), to make room. The stream back when none is: every open connection is being
/// answered, or reading a request that arrived, or was opened just now.
fn admit(state: &Arc<State>, stream: tokio::net::TcpStream) -> Result<(), tokio::net::TcpStream> {
    // held while the task is spawned and registered, so that its own removal comes after
    let mut open = state.open.lock().unwrap_or_else(|e| e.into_inner());
    let mut victim = None;
    if open.len() >= state.limits.connections {
        let now = millis_since(state.epoch);
        let stalled = u64::try_from(state.limits.stalled.as_millis()).unwrap_or(u64::MAX);
        let oldest_stalled = open
            .iter()
            .find(|(_, c)| c.activity.closable(now, stalled))
            .map(|(&id, _)| id);
        match oldest_stalled.and_then(|id| open.remove(&id)) {
            Some(c) => victim = Some(c.close),
            None => return Err(stream),
        }
    }
    let id = state.next.fetch_add(1, Ordering::SeqCst);
    let activity = Arc::new(Activity::new());
    let task = tokio::spawn(connection(
        stream,
        Arc::clone(state),
        id,
        Arc::clone(&activity),
    ));
    open.insert(
        id,
        Open {
            close: task.abort_handle(),
            activity,
        },
    );
    drop(open);
    if let Some(v) = victim {
        v.abort();
    }
    Ok(())
}

/// A connection past the cap waits up to [`REFUSAL_TIME`] for room (a connection ending, or
/// becoming one that may be closed); then it is refused ([`refuse_busy`]).
async fn wait_for_room(state: &Arc<State>, stream: tokio::net::TcpStream) {
    let started = tokio::time::Instant::now();
    let mut stream = stream;
    while started.elapsed() < REFUSAL_TIME {
        tokio::time::sleep(Duration::from_millis(10)).await;
        match admit(state, stream) {
            Ok(()) => return,
            Err(s) => stream = s,
        }
    }
    refuse_busy(stream).await;
}

/// The longest a connection past the cap waits for room, and then is held to be refused: to
/// send its request's head, to take the 503, and to close its side.
pub(crate) const REFUSAL_TIME: Duration = Duration::from_secs(2);

/// The most bytes read from a connection past the cap (its request's head, then what it sends
/// before it closes); the rest is left unread.
const REFUSAL_READ: usize = 2 * MAX_BODY;

/// The answer to a connection past the cap when no open one can be closed for it: its request's
/// head is read (what arrives within [`REFUSAL_TIME`], at most [`REFUSAL_READ`] bytes, nothing
/// of it kept), then a 503 with `Retry-After` is written and the connection closed: first the
/// server's side, then, once the client has read the answer and closed its own (or the time or
/// the bytes are up), the socket. Closing a socket with its request unread would reset the
/// connection and lose the answer.
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    let body = Reply::error(
        503,
        "the server is answering too many connections: try again in a few seconds",
    )
    .body;
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n\
         Content-Length: {}\r\nCache-Control: no-store\r\nRetry-After: {RETRY_AFTER}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let mut read = 0usize;
    let mut buf = [0u8; 4096];
    // the request's head: up to its blank line (the last 3 bytes kept across reads)
    let head_read = async {
        let mut tail: Vec<u8> = Vec::with_capacity(4096 + 3);
        loop {
            let n = read_some(&mut stream, &mut buf).await.unwrap_or(0);
            if n == 0 {
                return;
            }
            read += n;
            tail.extend_from_slice(&buf[..n]);
            if tail.windows(4).any(|w| w == b"\r\n\r\n") || read >= REFUSAL_READ {
                return;
            }
            let keep = tail.len().saturating_sub(3);
            tail.drain(..keep);
        }
    };
    let _ = tokio::time::timeout(REFUSAL_TIME, head_read).await;
    let answer = [head.as_bytes(), &body].concat();
    let written = tokio::time::timeout(REFUSAL_TIME, async {
        let mut sent = 0;
        while sent < answer.len() {
            let rest = &answer[sent..];
            let write = |cx: &mut Context<'_>| {
                tokio::io::AsyncWrite::poll_write(Pin::new(&mut stream), cx, rest)
            };
            match std::future::poll_fn(write).await? {
                0 => return Err(std::io::ErrorKind::WriteZero.into()),
                n => sent += n,
            }
        }
        std::future::poll_fn(|cx| tokio::io::AsyncWrite::poll_shutdown(Pin::new(&mut stream), cx))
            .await
    })
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    // what the client still sends (its body), until it closes
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        while read < REFUSAL_READ {
            match read_some(&mut stream, &mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => read += n,
            }
        }
    })
    .await;
}

/// One read of what `stream` has (0: it is closed).
async fn read_some(stream: &mut tokio::net::TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut buf = tokio::io::ReadBuf::new(buf);
    std::future::poll_fn(|cx| {
        tokio::io::AsyncRead::poll_read(Pin::new(&mut *stream), cx, &mut buf)
    })
    .await?;
    Ok(buf.filled().len())
}

/// Removes a connection from the open ones when its task ends (or is closed to make room).
struct Leave {
    state: Arc<State>,
    id: u64,
}

impl Drop for Leave {
    fn drop(&mut self) {
        let mut open = self.state.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&self.id);
    }
}

/// Serves one connection: HTTP/1.1 with keep-alive, the header timeout, the write deadline.
async fn connection(
    stream: tokio::net::TcpStream,
    state: Arc<State>,
    id: u64,
    activity: Arc<Activity>,
) {
    let _leave = Leave {
        state: Arc::clone(&state),
        id,
    };
    let dispatched = Arc::new(AtomicU64::new(0));
    let io = hyper_util::rt::TokioIo::new(WriteDeadline::new(
        stream,
        state.limits.write,
        Arc::clone(&dispatched),
        (Arc::clone(&activity), state.epoch),
    ));
    let service = hyper::service::service_fn(|req| {
        let (state, activity) = (Arc::clone(&state), Arc::clone(&activity));
        dispatched.fetch_add(1, Ordering::SeqCst);
        async move {
            let answer = handle(&state, &activity.answering, req).await;
            activity.served.store(true, Ordering::SeqCst);
            Ok::<_, std::convert::Infallible>(answer)
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(state.limits.header)
        .max_headers(MAX_HEADERS)
        .max_buf_size(HEAD_BUFFER);
    let _ = http.serve_connection(io, service).await;
}

/// Marks a connection as being answered while it lives.
struct Answering<'a>(&'a AtomicBool);

impl<'a> Answering<'a> {
    fn new(flag: &'a AtomicBool) -> Answering<'a> {
        flag.store(true, Ordering::SeqCst);
        Answering(flag)
    }
}

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// One request: the access check, the body (within the limit and the time), the answer.
async fn handle(
    state: &State,
    answering: &AtomicBool,
    req: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let (parts, body) = req.into_parts();
    let header = |name| {
        parts
            .headers
            .get(name)
            .map(|v: &HeaderValue| v.to_str().unwrap_or("\u{fffd}"))
    };
    let method = parts.method.as_str().to_string();
    let hosts = parts.headers.get_all(HOST).iter().count();
    if hosts > 1 {
        return response(
            Reply::error(
                400,
                &format!("`Host`: {hosts} headers: expected one (RFC 9112, section 3.2)"),
            ),
            true,
        );
    }
    if let Err(reply) = state.access.check(
        &method,
        header(HOST),
        parts.uri.authority().map(|a| a.as_str()),
        header(hyper::header::ORIGIN),
    ) {
        return response(reply, true);
    }
    let declared = header(CONTENT_LENGTH).and_then(|v| v.trim().parse::<u64>().ok());
    let (body, unread) = if declared.is_some_and(|n| n > DRAINED) {
        // not read at all: the answer goes out at once and the connection closes
        (None, true)
    } else {
        match read_body(body, state.limits.body).await {
            Ok(Body::Whole(b)) => (Some(b), false),
            Ok(Body::TooLarge { drained }) => (None, !drained),
            Err(reply) => return response(reply, true),
        }
    };
    let path = parts.uri.path().to_string();
    let client = header(HeaderName::from_static(CLIENT))
        .filter(|c| client_token(c))
        .unwrap_or("")
        .to_string();
    let _answering = Answering::new(answering);
    let query = parts.uri.query();
    if let Some(reply) = watch::route(state.watch.as_ref(), &method, &path, query).await {
        return response(reply, unread);
    }
    let routed = match read_request(&method, &path, body.as_deref()) {
        Ok(Routed::Page(reply)) | Err(reply) => return response(reply, unread),
        Ok(Routed::Api(request)) => request,
    };
    // set when this future is dropped (its connection closed): the work stops at its next move
    let cancelled = Arc::new(AtomicBool::new(false));
    let _cancel = CancelOnDrop(Arc::clone(&cancelled));
    let budget = state.limits.work;
    let heavy = routed.heavy();
    let records = Arc::clone(&state.records);
    let run = move || {
        let work = api::Work::new(&client, records, cancelled, budget);
        answer_reply(api::answer_within(routed, &work))
    };
    let failed = |_| Reply::error(500, "internal error: the engine failed on this request");
    if !heavy {
        return response(
            tokio::task::spawn_blocking(run)
                .await
                .unwrap_or_else(failed),
            unread,
        );
    }
    // a heavy request: a worker, or a place in the queue, or 503 at once
    let limit = state.limits.heavy_workers.max(1) + state.limits.heavy_queue;
    if state.heavy.fetch_add(1, Ordering::SeqCst) >= limit {
        state.heavy.fetch_sub(1, Ordering::SeqCst);
        let mut reply = Reply::error(
            503,
            &format!(
                "the server is computing {limit} heavy requests (record replays, readings, long \
                 move lists): try again in a few seconds"
            ),
        );
        reply.retry_after = Some(RETRY_AFTER);
        return response(reply, unread);
    }
    let _queued = Queued(&state.heavy);
    let Ok(worker) = Arc::clone(&state.workers).acquire_owned().await else {
        return response(
            Reply::error(500, "internal error: the workers are gone"),
            true,
        );
    };
    // the worker is held until the work ends, even when its client left before
    let run = move || {
        let _worker = worker;
        run()
    };
    response(
        tokio::task::spawn_blocking(run)
            .await
            .unwrap_or_else(failed),
        unread,
    )
}

/// The header that names a page's client (a random token the page keeps for its tab): the
/// records it loads are kept for it alone ([`api::MAX_KEPT_PER_CLIENT`]).
pub(crate) const CLIENT: &str = "x-m3go-client";

/// Whether a client token is one the server keeps records under: 1 to 64 letters, digits, `-`
/// or `_` (another value counts as no token).
fn client_token(c: &str) -> bool {
    (1..=64).contains(&c.len())
        && c.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The seconds a heavy request refused for a full queue is told to wait (`Retry-After`).
const RETRY_AFTER: u64 = 2;

/// Sets its flag when dropped: the request's future is gone (its client closed the connection,
/// or it was answered).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Counts a heavy request as computing or queued while it lives.
struct Queued<'a>(&'a AtomicUsize);

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An API answer as a reply.
fn answer_reply(answer: api::ApiResult) -> Reply {
    match answer {
        Ok(v) => Reply {
            status: 200,
            content_type: "application/json; charset=utf-8",
            body: v.to_string().into_bytes(),
            retry_after: None,
        },
        Err(e) => Reply::error(e.status, &e.message),
    }
}

/// The most bytes of a body over [`MAX_BODY`] that are read (and dropped as they come) so that
/// a client that sends its whole body before reading gets its 413 rather than a broken pipe;
/// past this, or past the body time, the connection is closed instead.
const DRAINED: u64 = 16 * MAX_BODY as u64;

/// A request body as read.
enum Body {
    Whole(Vec<u8>),
    /// Over [`MAX_BODY`]; `drained`: read to its end (at most [`DRAINED`] bytes), so the
    /// connection can go on.
    TooLarge {
        drained: bool,
    },
}

/// The body, at most [`MAX_BODY`] bytes kept (the rest of a larger one read and dropped chunk
/// by chunk, up to [`DRAINED`]), within `time`. Nothing is allocated from a declared size:
/// only the chunks that arrive are kept, up to the limit. A body that does not arrive in time
/// is a 408, one that is malformed (a broken chunk) a 400.
async fn read_body(mut body: Incoming, time: Duration) -> Result<Body, Reply> {
    let read = async {
        let mut kept: Vec<u8> = Vec::new();
        let mut total: u64 = 0;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                Reply::error(
                    400,
                    &format!(
                        "request body: cannot be read ({e}): expected a well-formed HTTP/1.1 body"
                    ),
                )
            })?;
            let Ok(data) = frame.into_data() else {
                continue; // trailers
            };
            total = total.saturating_add(data.len() as u64);
            if total > DRAINED {
                return Ok(Body::TooLarge { drained: false });
            }
            if total <= MAX_BODY as u64 {
                kept.extend_from_slice(&data);
            }
        }
        Ok(if total > MAX_BODY as u64 {
            Body::TooLarge { drained: true }
        } else {
            Body::Whole(kept)
        })
    };
    tokio::time::timeout(time, read).await.unwrap_or_else(|_| {
        Err(Reply::error(
            408,
            &format!(
                "request body: not received within {} s: expected the whole body at once",
                time.as_secs()
            ),
        ))
    })
}

/// A reply as an HTTP response; `close`: the connection closes after it (the body was not read).
fn response(reply: Reply, close: bool) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(reply.body)));
    *r.status_mut() = hyper::StatusCode::from_u16(reply.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if close {
        h.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    if let Some(s) = reply.retry_after {
        h.insert(RETRY_AFTER_HEADER, HeaderValue::from(s));
    }
    r
}

/// A socket whose writes fail with `TimedOut` when one makes no progress for `limit` (a client
/// that stops reading its answer); reads are bounded by the header and body timeouts instead.
/// It also writes the server's JSON error in place of the empty-bodied answer hyper writes
/// itself to a request it cannot parse ([`hyper_answer`]).
struct WriteDeadline {
    io: tokio::net::TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Requests hyper handed to the server on this connection.
    dispatched: Arc<AtomicU64>,
    /// Final answers (status 200 and up) written on it.
    answered: u64,
    /// The server's error written in place of hyper's, and how much of it is written.
    replacement: Vec<u8>,
    sent: usize,
    /// The connection's activity (whether its reads wait for the client), and its clock.
    activity: (Arc<Activity>, std::time::Instant),
}

impl WriteDeadline {
    fn new(
        io: tokio::net::TcpStream,
        limit: Duration,
        dispatched: Arc<AtomicU64>,
        activity: (Arc<Activity>, std::time::Instant),
    ) -> WriteDeadline {
        WriteDeadline {
            io,
            limit,
            stalled: None,
            dispatched,
            answered: 0,
            replacement: Vec::new(),
            sent: 0,
            activity,
        }
    }

    /// Writes what is left of the replacement; ready when all of it is written.
    fn drive_replacement(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.sent < self.replacement.len() {
            let rest = std::mem::take(&mut self.replacement);
            let sent = self.sent;
            let r = self.bounded(cx, |io, cx| {
                tokio::io::AsyncWrite::poll_write(io, cx, &rest[sent..])
            });
            self.replacement = rest;
            match r {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()))
                }
                Poll::Ready(Ok(n)) => self.sent += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Sees a write of hyper's: the head of an answer is counted, and hyper's own answer to a
    /// request it could not parse (an error status with no body, no request of the server's
    /// being answered) is replaced. `true`: `buf` was replaced (not to be written).
    fn replaced(&mut self, buf: &[u8]) -> bool {
        let Some(status) = buf
            .strip_prefix(b"HTTP/1.1 ")
            .and_then(|r| r.get(..3))
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| d.parse::<u16>().ok())
        else {
            return false;
        };
        if status < 200 {
            return false; // 100 Continue
        }
        let ours = self.dispatched.load(Ordering::SeqCst) > self.answered;
        self.answered += 1;
        if ours || status < 400 {
            return false;
        }
        let head_end = buf
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or(buf.len());
        let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
        if !head.contains("\r\ncontent-length: 0") {
            return false;
        }
        self.replacement = hyper_answer(status);
        self.sent = 0;
        true
    }

    /// `poll`'s result, or `TimedOut` when it has been pending for longer than the limit.
    fn bounded<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut tokio::net::TcpStream>, &mut Context<'_>) -> Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        match poll(Pin::new(&mut self.io), cx) {
            Poll::Ready(r) => {
                self.stalled = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let limit = self.limit;
                let sleep = self
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the client does not read its answer",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

/// The server's answer in place of hyper's own to a request it could not parse: the same
/// status, a JSON error saying what was wrong, and the connection closed (hyper closes it after
/// its answer).
fn hyper_answer(status: u16) -> Vec<u8> {
    let message = match status {
        400 => "the request is not well-formed HTTP/1.1 (a malformed request line, header name \
                or value, a bad or repeated Content-Length, …): expected a request as RFC 9112 \
                writes it"
            .to_string(),
        414 => "the request target is too long: expected a shorter path".to_string(),
        431 => format!(
            "the request's headers are too large: expected at most {MAX_HEADERS} headers in at \
             most {} KiB",
            HEAD_BUFFER / 1024
        ),
        other => format!("the request could not be read as HTTP/1.1 (status {other})"),
    };
    let body = Reply::error(status, &message).body;
    let reason = hyper::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json; charset=utf-8\r\n\
         content-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    out
}

/// hyper's limit of headers in a request (its default).
const MAX_HEADERS: usize = 100;

/// The read buffer of a connection: a request's line and headers must fit in it.
const HEAD_BUFFER: usize = 64 * 1024;

impl tokio::io::AsyncRead for WriteDeadline {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.io).poll_read(cx, buf);
        let (activity, epoch) = &this.activity;
        if r.is_pending() {
            if activity.waiting_since.load(Ordering::SeqCst) == 0 {
                let now = millis_since(*epoch).saturating_add(1);
                activity.waiting_since.store(now, Ordering::SeqCst);
            }
        } else {
            activity.waiting_since.store(0, Ordering::SeqCst);
        }
        r
    }
}

impl tokio::io::AsyncWrite for WriteDeadline {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        if this.drive_replacement(cx)?.is_pending() {
            return Poll::Pending;
        }
        if this.replaced(buf) {
            // hyper's answer is taken as written; the server's goes out in its place
            let _ = this.drive_replacement(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        this.bounded(cx, |io, cx| io.poll_write(cx, buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if this.drive_replacement(cx)?.is_pending() {
            return Poll::Pending;
        }
        this.bounded(cx, |io, cx| io.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if this.drive_replacement(cx)?.is_pending() {
            return Poll::Pending;
        }
        this.bounded(cx, |io, cx| io.poll_shutdown(cx))
    }
}

/// A response: status, content type, body, and for a 503 the seconds to wait.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// `Retry-After` (seconds).
    pub retry_after: Option<u64>,
}

/// The longest error message the server sends, in bytes: a longer one (an error that echoes
/// its input) is cut there, with the number of bytes left out. Written as JSON, where a control
/// character takes six bytes, an error body stays under 64 KiB.
pub(crate) const MAX_ERROR: usize = 8 * 1024;

impl Reply {
    /// A JSON error `{"error": message}` with a 4xx or 5xx status, the message cut at
    /// [`MAX_ERROR`] bytes.
    pub fn error(status: u16, message: &str) -> Reply {
        let cut;
        let message = if message.len() > MAX_ERROR {
            let mut end = MAX_ERROR;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            cut = format!("{}… ({} more bytes)", &message[..end], message.len() - end);
            &cut
        } else {
            message
        };
        let body = serde_json::json!({ "error": message }).to_string();
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: body.into_bytes(),
            retry_after: None,
        }
    }
}

/// What a request asks for: a page of the server, or an API call read from its body.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum Routed {
    Page(Reply),
    Api(api::Request),
}

/// A JavaScript module of the page, embedded: its path, type and text.
macro_rules! js {
    ($file:literal) => {
        (
            concat!("/", $file),
            "text/javascript; charset=utf-8",
            include_str!(concat!("page/", $file)),
        )
    };
}

/// The pages the server serves, with their content type and text.
const PAGES: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", INDEX_HTML),
    ("/index.html", "text/html; charset=utf-8", INDEX_HTML),
    ("/style.css", "text/css; charset=utf-8", STYLE_CSS),
    // the page's ES modules (index.html loads main.js, which imports the others)
    js!("main.js"),
    js!("state.js"),
    js!("position.js"),
    js!("keys.js"),
    js!("keyboard.js"),
    js!("api.js"),
    js!("board.js"),
    js!("edit.js"),
    js!("explain.js"),
    js!("records.js"),
    js!("movelist.js"),
    js!("controls.js"),
    js!("view.js"),
    js!("score.js"),
    js!("scoring.js"),
    js!("proposal.js"),
    js!("branches.js"),
    js!("variations.js"),
    js!("links.js"),
    js!("share.js"),
    js!("ruling.js"),
    js!("recordtext.js"),
    js!("describe.js"),
    js!("captures.js"),
    // the live view of a match (`m3go match --serve`)
    ("/watch", "text/html; charset=utf-8", WATCH_HTML),
    js!("watch.js"),
];

/// Reads a request (`body`: `None` when it is over [`MAX_BODY`]) into what it asks for, or the
/// refusal: an unknown path is a 404 whatever the method, a known one with the wrong method a
/// 405, a body over the limit a 413, one that is not a request of the endpoint a 400. Pure:
/// nothing is read but the request (the fuzz target `serve_request` calls it).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn read_request(method: &str, path: &str, body: Option<&[u8]>) -> Result<Routed, Reply> {
    let path = path.split('?').next().unwrap_or("");
    let page = match PAGES.iter().find(|(p, _, _)| *p == path) {
        Some(&(_, kind, text)) => Some((kind, text.as_bytes())),
        None if path == "/m3go-cjk.woff2" => Some(("font/woff2", CJK_FONT)),
        None => None,
    };
    if let Some((kind, body)) = page {
        if method != "GET" {
            return Err(Reply::error(
                405,
                &format!("{path}: expected GET, not {method}"),
            ));
        }
        return Ok(Routed::Page(Reply {
            status: 200,
            content_type: kind,
            body: body.to_vec(),
            retry_after: None,
        }));
    }
    let Some(name) = path.strip_prefix("/api/") else {
        return Err(Reply::error(
            404,
            &format!("no page `{path}`: the page is at /"),
        ));
    };
    let Some(endpoint) = api::ENDPOINTS.iter().find(|e| e.name == name) else {
        return Err(Reply::error(
            404,
            &format!(
                "no API endpoint `{path}`: expected one of /api/{}",
                api::names().join(", /api/")
            ),
        ));
    };
    if method != endpoint.method {
        return Err(Reply::error(
            405,
            &format!("{path}: expected {}, not {method}", endpoint.method),
        ));
    }
    let Some(body) = body else {
        return Err(Reply::error(
            413,
            &format!("request body too large: expected at most {MAX_BODY} bytes"),
        ));
    };
    api::parse(name, body)
        .map(Routed::Api)
        .map_err(|e| Reply::error(e.status, &e.message))
}

/// The reply to one request: a static file, an API call, or an error. Never panics on any input
/// (the API's answers are `Result`s; a panic inside the engine would still be caught by the
/// caller and reported as a 500).
#[cfg(any(test, feature = "testing"))]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn route(method: &str, path: &str, body: Option<&[u8]>) -> Reply {
    match read_request(method, path, body) {
        Ok(Routed::Page(reply)) | Err(reply) => reply,
        Ok(Routed::Api(request)) => answer_reply(api::answer(request)),
    }
}
