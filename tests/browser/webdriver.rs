//! A small blocking WebDriver client (W3C WebDriver: JSON over HTTP) on `ureq`, the HTTP client
//! the API tests already use: what the page test needs of chromedriver and no more. It replaces
//! fantoccini, whose async stack (tokio, hyper-util's client) was built only for this test,
//! behind a feature that changed the features of shared dependencies, so that switching between
//! `cargo test` with and without it rebuilt them.
//!
//! Commands (the WebDriver specification's endpoints, relative to `/session/{id}`): navigation
//! (`url`, `refresh`), scripts (`execute/sync`, `execute/async`), elements (`element`,
//! `elements`, `element/active`, and per element `click`, `text`, `clear`, `value`), pointer
//! `actions`, `window/rect`, `screenshot`, and chromedriver's DevTools passage
//! (`goog/cdp/execute`). An error answer (`{"value": {"error", "message"}}`) becomes an [`Error`].

use serde_json::{json, Value};
use std::fmt;
use std::time::Duration;

/// The key under which WebDriver names an element in JSON (the specification's constant).
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The WebDriver codes of the special keys the test presses (the specification's key table),
/// sent inside the text of "element send keys".
pub mod key {
    pub const TAB: char = '\u{E004}';
    pub const ENTER: char = '\u{E007}';
    pub const PAGE_UP: char = '\u{E00E}';
    pub const PAGE_DOWN: char = '\u{E00F}';
    pub const END: char = '\u{E010}';
    pub const HOME: char = '\u{E011}';
    pub const LEFT: char = '\u{E012}';
    pub const RIGHT: char = '\u{E014}';
    pub const UP: char = '\u{E013}';
    pub const DOWN: char = '\u{E015}';
    pub const ESCAPE: char = '\u{E00C}';
}

/// A failed command: WebDriver's error code and message, or the HTTP transport's failure.
#[derive(Debug)]
pub struct Error {
    pub error: String,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.message.lines().next().unwrap_or("");
        write!(f, "{}: {message}", self.error)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// A WebDriver session; deleted by [`Client::close`], or when dropped.
pub struct Client {
    agent: ureq::Agent,
    /// `http://HOST:PORT/session/ID`
    session: String,
    closed: bool,
}

/// An element of the page, found through its session.
pub struct Element<'c> {
    client: &'c Client,
    id: String,
}

/// Sends one command; the `value` of its answer, or its error.
fn send(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> Result<Value> {
    let req = agent.request(method, url);
    let answer = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let (ok, response) = match answer {
        Ok(r) => (true, r),
        Err(ureq::Error::Status(_, r)) => (false, r),
        Err(e) => {
            return Err(Error {
                error: "transport".into(),
                message: format!("{method} {url}: {e}"),
            })
        }
    };
    let status = response.status();
    let v: Value = response.into_json().map_err(|e| Error {
        error: "bad answer".into(),
        message: format!("{method} {url}: HTTP {status}, not JSON: {e}"),
    })?;
    let value = v.get("value").cloned().unwrap_or(Value::Null);
    if ok {
        return Ok(value);
    }
    let field = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_string);
    Err(Error {
        error: field("error").unwrap_or_else(|| format!("HTTP {status}")),
        message: field("message").unwrap_or_else(|| v.to_string()),
    })
}

impl Client {
    /// Opens a session at the WebDriver server `base` (`http://127.0.0.1:PORT`) with the given
    /// capabilities (`alwaysMatch`).
    pub fn new(base: &str, capabilities: Value) -> Result<Client> {
        // the longest command waits for a page load or an async script (30 s each by default)
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(300))
            .build();
        let body = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let v = send(&agent, "POST", &format!("{base}/session"), Some(body))?;
        let id = v.get("sessionId").and_then(Value::as_str).ok_or(Error {
            error: "bad answer".into(),
            message: format!("no sessionId in {v}"),
        })?;
        Ok(Client {
            agent,
            session: format!("{base}/session/{id}"),
            closed: false,
        })
    }

    fn get(&self, path: &str) -> Result<Value> {
        send(&self.agent, "GET", &format!("{}{path}", self.session), None)
    }

    fn post(&self, path: &str, body: Value) -> Result<Value> {
        send(
            &self.agent,
            "POST",
            &format!("{}{path}", self.session),
            Some(body),
        )
    }

    /// Navigates to `url` and waits for the page to load.
    pub fn goto(&self, url: &str) -> Result<()> {
        self.post("/url", json!({ "url": url })).map(drop)
    }

    /// Reloads the page.
    pub fn refresh(&self) -> Result<()> {
        self.post("/refresh", json!({})).map(drop)
    }

    /// Runs `script` (a function body: `return` gives its value) with `args` as `arguments`.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.post("/execute/sync", json!({ "script": script, "args": args }))
    }

    /// Runs `script` with `args` and a callback as the last of `arguments`; the value given to
    /// the callback.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.post("/execute/async", json!({ "script": script, "args": args }))
    }

    fn element(&self, v: &Value) -> Result<Element<'_>> {
        let id = v.get(ELEMENT_KEY).and_then(Value::as_str).ok_or(Error {
            error: "bad answer".into(),
            message: format!("not an element: {v}"),
        })?;
        Ok(Element {
            client: self,
            id: id.to_string(),
        })
    }

    /// The first element that matches the CSS selector `css`.
    pub fn find(&self, css: &str) -> Result<Element<'_>> {
        let v = self.post("/element", json!({ "using": "css selector", "value": css }))?;
        self.element(&v)
    }

    /// Every element that matches the CSS selector `css`.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element<'_>>> {
        let v = self.post(
            "/elements",
            json!({ "using": "css selector", "value": css }),
        )?;
        v.as_array()
            .map(|a| a.iter().map(|e| self.element(e)).collect())
            .unwrap_or_else(|| {
                Err(Error {
                    error: "bad answer".into(),
                    message: format!("not a list of elements: {v}"),
                })
            })
    }

    /// The element that has the focus.
    pub fn active_element(&self) -> Result<Element<'_>> {
        let v = self.get("/element/active")?;
        self.element(&v)
    }

    /// Moves the mouse to the centre of `element` (a pointer action), as a hover does.
    pub fn hover(&self, element: &Element<'_>) -> Result<()> {
        let actions = json!({ "actions": [{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": [{
                "type": "pointerMove",
                "duration": 0,
                "origin": { ELEMENT_KEY: element.id },
                "x": 0,
                "y": 0,
            }],
        }]});
        self.post("/actions", actions).map(drop)
    }

    /// Sets the window's outer size in CSS pixels.
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        self.post("/window/rect", json!({ "width": width, "height": height }))
            .map(drop)
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>> {
        let v = self.get("/screenshot")?;
        let text = v.as_str().ok_or(Error {
            error: "bad answer".into(),
            message: "the screenshot is not a string".into(),
        })?;
        base64_decode(text).ok_or(Error {
            error: "bad answer".into(),
            message: "the screenshot is not base64".into(),
        })
    }

    /// Runs a Chrome DevTools Protocol command through chromedriver (`goog/cdp/execute`).
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        self.post("/goog/cdp/execute", json!({ "cmd": cmd, "params": params }))
    }

    /// Deletes the session (the browser quits).
    pub fn close(mut self) -> Result<()> {
        self.closed = true;
        send(&self.agent, "DELETE", &self.session, None).map(drop)
    }
}

impl Drop for Client {
    /// A session left open by a failing test is deleted, so that its browser does not outlive it.
    fn drop(&mut self) {
        if !self.closed {
            let _ = send(&self.agent, "DELETE", &self.session, None);
        }
    }
}

impl Element<'_> {
    fn post(&self, what: &str, body: Value) -> Result<Value> {
        self.client
            .post(&format!("/element/{}/{what}", self.id), body)
    }

    /// Clicks the element's centre (scrolled into view first).
    pub fn click(&self) -> Result<()> {
        self.post("click", json!({})).map(drop)
    }

    /// The element's rendered text.
    pub fn text(&self) -> Result<String> {
        let v = self.client.get(&format!("/element/{}/text", self.id))?;
        Ok(v.as_str().unwrap_or("").to_string())
    }

    /// Empties an input or a text area.
    pub fn clear(&self) -> Result<()> {
        self.post("clear", json!({})).map(drop)
    }

    /// Types `text` into the element; the characters of [`key`] press those keys. For a file
    /// input, `text` is the path of the file to choose.
    pub fn send_keys(&self, text: &str) -> Result<()> {
        self.post("value", json!({ "text": text })).map(drop)
    }
}

/// Standard base64 (with padding, as WebDriver's screenshots are); None when `text` is not.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    fn sextet(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let bytes: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &b in &chunk[..4 - pad] {
            n = n << 6 | sextet(b)?;
        }
        n <<= 6 * pad as u32;
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad]);
    }
    Some(out)
}
