//! `m3go serve`: the adjudication page — a local HTTP server (tiny_http, synchronous) serving
//! one page (HTML, CSS and JavaScript embedded in the binary; nothing fetched from the network)
//! and a small JSON API ([`api`]) over the same engine the command line uses.
//!
//! This module is the HTTP plumbing, all of it: binding, the worker threads, the size limit on
//! request bodies, the static files, and turning an [`api::Answer`] into a response. The
//! layer sits above `conform` and below `cli` (whose `serve` subcommand starts it): it imports
//! every layer below it and nothing imports it but that subcommand.

pub mod api;

use crate::game::setup::InputError;
use std::io::Read;
use std::sync::Arc;

/// The largest request body accepted (a position, a record of 10·19² moves and its text).
pub const MAX_BODY: usize = 1 << 20;

/// Worker threads answering requests (a readings request takes a while on a big board).
const WORKERS: usize = 4;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// A bound server, not yet answering.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: std::net::SocketAddr,
}

impl Server {
    /// Binds `host:port` (port 0: any free port).
    pub fn bind(host: &str, port: u16) -> Result<Server, InputError> {
        let http = tiny_http::Server::http((host, port)).map_err(|e| {
            InputError::new(format!("cannot listen: {e}"))
                .key(format!("--host {host} --port {port}"))
                .expected("a free port on a local address")
        })?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| InputError::new("not an IP address").key(format!("--host {host}")))?;
        Ok(Server {
            http: Arc::new(http),
            addr,
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

    /// Answers requests on [`WORKERS`] threads until the process ends.
    pub fn run(self) {
        let workers = self.spawn();
        for w in workers {
            let _ = w.join();
        }
    }

    /// Answers requests on background threads; returns them (they run until the process ends).
    pub fn spawn(&self) -> Vec<std::thread::JoinHandle<()>> {
        (0..WORKERS)
            .map(|_| {
                let http = Arc::clone(&self.http);
                std::thread::spawn(move || loop {
                    match http.recv() {
                        Ok(req) => dispatch(req),
                        Err(_) => continue,
                    }
                })
            })
            .collect()
    }
}

/// A response: status, content type, body.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn text(status: u16, content_type: &'static str, body: &str) -> Reply {
        Reply {
            status,
            content_type,
            body: body.as_bytes().to_vec(),
        }
    }

    /// A JSON error `{"error": message}` with a 4xx status.
    pub fn error(status: u16, message: &str) -> Reply {
        let body = serde_json::json!({ "error": message }).to_string();
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: body.into_bytes(),
        }
    }
}

/// The reply to one request: a static file, an API call, or an error. Never panics on any input
/// (the API's answers are `Result`s; a panic inside the engine would still be caught by
/// [`answer`] and reported as a 500).
pub fn route(method: &str, path: &str, body: Option<&[u8]>) -> Reply {
    let path = path.split('?').next().unwrap_or("");
    match (method, path) {
        ("GET", "/") | ("GET", "/index.html") => {
            Reply::text(200, "text/html; charset=utf-8", INDEX_HTML)
        }
        ("GET", "/app.js") => Reply::text(200, "text/javascript; charset=utf-8", APP_JS),
        ("GET", "/style.css") => Reply::text(200, "text/css; charset=utf-8", STYLE_CSS),
        (_, p) if p.starts_with("/api/") => {
            let name = &p[5..];
            if !api::ENDPOINTS.iter().any(|e| e.name == name) {
                return Reply::error(
                    404,
                    &format!(
                        "no API endpoint `{p}`: expected one of /api/{}",
                        api::names().join(", /api/")
                    ),
                );
            }
            let wanted = api::ENDPOINTS
                .iter()
                .find(|e| e.name == name)
                .map_or("POST", |e| e.method);
            if method != wanted {
                return Reply::error(405, &format!("{p}: expected {wanted}, not {method}"));
            }
            let Some(body) = body else {
                return Reply::error(
                    413,
                    &format!("request body too large: expected at most {MAX_BODY} bytes"),
                );
            };
            match api::call(name, body) {
                Ok(v) => Reply {
                    status: 200,
                    content_type: "application/json; charset=utf-8",
                    body: v.to_string().into_bytes(),
                },
                Err(e) => Reply::error(e.status, &e.message),
            }
        }
        ("GET", p) => Reply::error(404, &format!("no page `{p}`: the page is at /")),
        (m, p) => Reply::error(405, &format!("{p}: expected GET, not {m}")),
    }
}

/// Most requests answered at once. Each is answered on a thread of its own, so that a client that
/// sends its headers and then stalls its body holds that thread only, never one of the
/// [`WORKERS`] that take requests; past this many, a request gets 503 at once.
const MAX_ACTIVE: usize = 64;

/// Requests being answered now.
static ACTIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts one request being answered while it lives (also when answering panics).
struct Active;

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Answers `req` on a thread of its own, or with 503 when [`MAX_ACTIVE`] requests are being
/// answered already (or no thread can be started).
fn dispatch(req: tiny_http::Request) {
    use std::sync::atomic::Ordering;
    if ACTIVE.fetch_add(1, Ordering::SeqCst) >= MAX_ACTIVE {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
        let busy = Reply::error(503, "the server is answering too many requests: try again");
        let _ =
            req.respond(tiny_http::Response::from_data(busy.body).with_status_code(busy.status));
        return;
    }
    let guard = Active;
    let spawned = std::thread::Builder::new().spawn(move || {
        let _guard = guard;
        answer(req);
    });
    if spawned.is_err() {
        // the closure (with the request and the guard) is dropped: the client sees the
        // connection close, and the count goes down
    }
}

/// Reads the body (at most [`MAX_BODY`] bytes; `None` if larger), routes the request, and sends
/// the reply. A panic while answering is caught: the client gets a 500 and the worker goes on.
fn answer(mut req: tiny_http::Request) {
    let method = req.method().as_str().to_string();
    let path = req.url().to_string();
    let declared_too_large = req.body_length().is_some_and(|n| n > MAX_BODY);
    let body = if declared_too_large {
        None
    } else {
        let mut buf = Vec::new();
        let read = req
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut buf);
        (read.is_ok() && buf.len() <= MAX_BODY).then_some(buf)
    };
    let reply = std::panic::catch_unwind(|| route(&method, &path, body.as_deref()))
        .unwrap_or_else(|_| Reply::error(500, "internal error: the engine failed on this request"));
    let header =
        tiny_http::Header::from_bytes(&b"Content-Type"[..], reply.content_type.as_bytes()).ok();
    let mut resp = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
    if let Some(h) = header {
        resp = resp.with_header(h);
    }
    if let Ok(h) = tiny_http::Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..]) {
        resp = resp.with_header(h);
    }
    let _ = req.respond(resp);
}
