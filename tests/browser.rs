//! The adjudication page (`m3go serve`) in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) by fantoccini. Loads the page, places stones by clicking and sees
//! the analysis update (a private eye made, a flower attribute changed), clicks a point and reads
//! its clause trace with the clause's quote, switches layers, asks for the readings, plays and
//! undoes a move; then checks each bug of issue 24 fixed (latin labels never rewrite a clause
//! id, a refused set-up leaves board and state alone, rapid clicks are never lost, undo clears the
//! cascade, the status follows the position, the mechanical replay takes the rules chosen, the
//! same file loads twice, the error box never moves the board, a PNG is refused as not text,
//! variations are named, a replayed position exports as a game, the hover label clears) and each
//! board convention (a hover preview of the next stone, the move list, move numbers, keys ←/→,
//! Home/End, PgUp/PgDn with real key events, a keyboard-reachable board, a pass button, dead
//! stones for the score, an SGF dropped with a DataTransfer, the URL restoring the record's move
//! and a set-up position after a reload, the phone width, dark mode through the emulated media
//! feature, accessible names and a visible focus, markers by shape, the trace next to the board
//! on a wide screen, the first view's hint and the folded rule options). It times steps at move
//! 288 of Ke Jie vs AlphaGo game 1 (click to board, `performance.now`), and keeps screenshots at
//! 1400 and 420 px, light and dark, under target/browser/. The checks are collected: one run
//! lists every one that fails.
//!
//! Runs when `chromium` and `chromedriver` are installed (Debian: `apt-get install chromium
//! chromium-driver`); otherwise it prints a notice and passes, unless `M3GO_BROWSER_REQUIRED=1`
//! (set by .ci/run), when a missing browser fails it.

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Whether the record's status no longer says the page shows move 288.
const LEFT_288: &str =
    "!document.getElementById('record-status').textContent.startsWith('move 288 of')";

/// Children killed when the test ends, however it ends.
struct Kill(Vec<Child>);

impl Drop for Kill {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// Starts `m3go serve --port 0`; returns the child and the page's URL from its first line.
fn start_server() -> (Child, String) {
    // M3GO_BROWSER_BIN: another build of m3go to test (the page before a change, say)
    let bin = std::env::var_os("M3GO_BROWSER_BIN")
        .unwrap_or_else(|| std::ffi::OsString::from(env!("CARGO_BIN_EXE_m3go")));
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start m3go serve");
    let mut line = String::new();
    let out = child.stdout.take().expect("stdout");
    BufReader::new(out)
        .read_line(&mut line)
        .expect("read the URL line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    (child, url)
}

/// Starts chromedriver on a free port and waits until it accepts connections.
fn start_driver(driver: &Path) -> (Child, u16) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let until = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    (child, port)
}

/// Polls a JavaScript expression until it is truthy (at most `secs` seconds); returns its value.
async fn wait_for(c: &Client, expr: &str, secs: u64) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = c
            .execute(&format!("return ({expr});"), vec![])
            .await
            .expect("execute");
        let truthy = match &v {
            serde_json::Value::Null | serde_json::Value::Bool(false) => false,
            serde_json::Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return v;
        }
        if Instant::now() > until {
            let err = c
                .execute(
                    "return document.getElementById('error').textContent",
                    vec![],
                )
                .await
                .unwrap_or_default();
            panic!("waited {secs} s for `{expr}`; the page's error box: {err}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

/// Clicks the point `label` of the board and waits for the judged position to change.
async fn click_point(c: &Client, label: &str) {
    let css = format!("#board rect.point[data-point='{label}']");
    c.find(Locator::Css(&css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .expect("click");
    wait_for(
        c,
        "document.getElementById('status').textContent === ''",
        60,
    )
    .await;
}

async fn choose_tool(c: &Client, tool: &str) {
    c.find(Locator::Css(&format!("input[name=tool][value={tool}]")))
        .await
        .expect("tool")
        .click()
        .await
        .expect("click tool");
}

/// Waits until the page has left move `n` and shows no status (a move played or undone).
async fn settled_after(c: &Client, n: &serde_json::Value) {
    wait_for(
        c,
        &format!("state.move !== {n} && document.getElementById('status').textContent === ''"),
        30,
    )
    .await;
}

/// Clicks "undo" `times` times, each time until the page has settled.
async fn undo(c: &Client, times: usize) {
    for _ in 0..times {
        let n = js(c, "state.move").await;
        click(c, "#undo").await;
        settled_after(c, &n).await;
    }
}

/// The lines of the last move's cascade as the page lists them.
async fn report_lines(c: &Client) -> Vec<String> {
    let report = js(
        c,
        "[...document.querySelectorAll('#report li')].map((l) => l.textContent)",
    )
    .await;
    report
        .as_array()
        .map(|a| {
            a.iter()
                .map(|v| v.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The value of a JavaScript expression (null when it throws: an element the page lacks).
async fn js(c: &Client, expr: &str) -> serde_json::Value {
    c.execute(
        &format!("try {{ return ({expr}); }} catch (e) {{ return null; }}"),
        vec![],
    )
    .await
    .unwrap_or(serde_json::Value::Null)
}

/// Polls `expr` until it is true, at most `secs` seconds; whether it became true.
async fn wait_until(c: &Client, expr: &str, secs: u64) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        if js(c, expr).await == true {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The checks of the page's conventions and of its bugs' fixes: each is recorded, and the test
/// fails at the end listing every one that failed (so that one run on the code before a fix
/// shows every bug at once).
#[derive(Default)]
struct Checks {
    failed: Vec<String>,
    passed: usize,
}

impl Checks {
    fn that(&mut self, what: &str, ok: impl Into<Truth>) {
        if ok.into().0 {
            self.passed += 1;
        } else {
            eprintln!("FAILED: {what}");
            self.failed.push(what.to_string());
        }
    }
    fn that_eq(&mut self, what: &str, a: &serde_json::Value, b: &serde_json::Value) {
        self.that(&format!("{what} ({a} vs {b})"), a == b);
    }
    async fn that_wait(&mut self, c: &Client, what: &str, expr: &str, secs: u64) {
        let ok = wait_until(c, expr, secs).await;
        self.that(what, ok);
    }
    fn fail(&mut self, what: &str) {
        self.that(what, false);
    }
    fn done(self) {
        eprintln!(
            "{} checks passed, {} failed",
            self.passed,
            self.failed.len()
        );
        assert!(
            self.failed.is_empty(),
            "failed checks:\n{}",
            self.failed.join("\n")
        );
    }
}

/// A check's outcome: a bool, or a JavaScript value that must be `true`.
struct Truth(bool);
impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        Truth(b)
    }
}
impl From<serde_json::Value> for Truth {
    fn from(v: serde_json::Value) -> Truth {
        Truth(v == true)
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Clicks the point `label` without waiting for the answer.
async fn click_point_raw(c: &Client, label: &str) {
    click(c, &format!("#board rect.point[data-point='{label}']")).await;
}

/// Chooses `value` in the select `id` (a change event, as a choice by hand gives).
async fn set_select(c: &Client, id: &str, value: &str) {
    c.execute(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
        vec![serde_json::json!(id), serde_json::json!(value)],
    )
    .await
    .expect("choose");
    tokio::time::sleep(Duration::from_millis(100)).await;
    wait_for(
        c,
        "document.getElementById('status').textContent === ''",
        180,
    )
    .await;
}

/// Chooses the tool `tool` if the page has it.
async fn choose_tool_opt(c: &Client, tool: &str) -> bool {
    match c
        .find(Locator::Css(&format!("input[name=tool][value={tool}]")))
        .await
    {
        Ok(e) => e.click().await.is_ok(),
        Err(_) => false,
    }
}

/// Picks `file` in the record's file picker.
async fn pick_file(c: &Client, file: &Path) {
    c.find(Locator::Css("#record-file"))
        .await
        .expect("file picker")
        .send_keys(&file.display().to_string())
        .await
        .expect("choose the file");
}

/// Goes to move `n` of the loaded record by its move box.
async fn go_to(c: &Client, n: u32) {
    let to = c.find(Locator::Css("#record-to")).await.expect("move box");
    to.clear().await.expect("clear");
    to.send_keys(&n.to_string()).await.expect("type");
    click(c, "#record-go").await;
    wait_for(
        c,
        &format!("document.getElementById('record-status').textContent.startsWith('move {n} of') && document.getElementById('status').textContent === '' && state.move === {} && ['{n}', undefined].includes(document.getElementById('board').dataset.analysed)", n + 1),
        180,
    )
    .await;
}

/// Emulates `prefers-color-scheme: dark` (or light) through chromedriver's DevTools command.
async fn emulate_dark(c: &Client, port: u16, dark: bool) {
    let sid = c
        .session_id()
        .await
        .expect("session")
        .expect("a session id");
    let url = format!("http://127.0.0.1:{port}/session/{sid}/goog/cdp/execute");
    let body = serde_json::json!({
        "cmd": "Emulation.setEmulatedMedia",
        "params": { "features": [{ "name": "prefers-color-scheme", "value": if dark { "dark" } else { "light" } }] },
    });
    tokio::task::spawn_blocking(move || {
        ureq::post(&url)
            .send_json(body)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .await
    .expect("join")
    .expect("emulate the colour scheme");
}

/// Where the screenshots and step times go: target/browser/, or M3GO_BROWSER_OUT.
fn artifacts() -> PathBuf {
    let dir = std::env::var_os("M3GO_BROWSER_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser"));
    std::fs::create_dir_all(&dir).expect("target/browser");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_adjudication_page() {
    let required = std::env::var("M3GO_BROWSER_REQUIRED").is_ok_and(|v| v == "1");
    let (Some(chromium), Some(driver)) = (
        which(&["chromium", "chromium-browser", "google-chrome"]),
        which(&["chromedriver"]),
    ) else {
        assert!(
            !required,
            "M3GO_BROWSER_REQUIRED=1 but chromium or chromedriver is not installed"
        );
        eprintln!("browser test skipped: install chromium and chromium-driver (apt-get) to run it");
        return;
    };
    let (server, url) = start_server();
    let (driver_child, port) = start_driver(&driver);
    let _guard = Kill(vec![server, driver_child]);
    let profile = std::env::temp_dir().join(format!("m3go-browser-{}", std::process::id()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1500,1300",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session");
    c.goto(&url).await.expect("load the page");
    wait_for(&c, "document.body.dataset.ready === '1'", 60).await;
    assert!(text(&c, "h1").await.starts_with("m3go"));
    // the empty 9x9 board, holographic by default, clickable points in the documents' labels
    let points = c
        .find_all(Locator::Css("#board rect.point"))
        .await
        .expect("points");
    assert_eq!(points.len(), 81);
    assert_eq!(
        wait_for(&c, "document.getElementById('board').dataset.layer", 5).await,
        "holographic"
    );

    // set up by clicking: a white stone at the centre, a flower at B四, black C四 and C三
    choose_tool(&c, "white").await;
    click_point(&c, "OO").await;
    choose_tool(&c, "flower").await;
    click_point(&c, "B四").await;
    choose_tool(&c, "black").await;
    click_point(&c, "C四").await;
    click_point(&c, "C三").await;
    let flowers = text(&c, "#flowers").await;
    let yaml = c
        .execute("return state.yaml", vec![])
        .await
        .expect("the position");
    assert!(flowers.contains("B四*: neutral"), "{flowers}\n{yaml}");
    assert_eq!(text(&c, "#eyes").await, "none");
    // black D三 closes the corner: a private eye of black at D四, and the flower turns black
    click_point(&c, "D三").await;
    let eyes = text(&c, "#eyes").await;
    assert!(eyes.contains("black C四*: private eye D四"), "{eyes}");
    let flowers = text(&c, "#flowers").await;
    assert!(flowers.contains("B四*: black (Hs=1"), "{flowers}");
    // the figure shows the eye shading and the flower's star
    assert!(c.find(Locator::Css("#board rect.eye-black")).await.is_ok());
    assert!(c
        .find(Locator::Css("#board circle.star-black"))
        .await
        .is_ok());

    // click a point and read its clause trace, with the clause's quote from the register
    choose_tool(&c, "explain").await;
    click_point(&c, "D四").await;
    wait_for(&c, "document.getElementById('trace').textContent", 30).await;
    let trace = text(&c, "#trace").await;
    assert!(trace.contains("D四"), "{trace}");
    assert!(trace.contains("M20-FORBID-EYE"), "{trace}");
    wait_for(
        &c,
        "document.querySelector('#clauses .clause[data-clause=\"M20-FORBID-EYE\"]')",
        30,
    )
    .await;
    let clause = text(&c, "#clauses .clause[data-clause='M20-FORBID-EYE']").await;
    assert!(clause.contains("一气眼"), "{clause}");

    // switch layers: the upper layer draws the black flower as a black stone
    for layer in ["direct", "upper", "holographic"] {
        c.find(Locator::Css(&format!("#layers button[data-layer={layer}]")))
            .await
            .expect("layer button")
            .click()
            .await
            .expect("click layer");
        wait_for(
            &c,
            &format!(
                "document.querySelector('#board svg title').textContent.includes('{layer} layer')"
            ),
            30,
        )
        .await;
    }
    let upper_check = |layer: &str| {
        format!(
            "document.querySelector('#layers button[data-layer={layer}]').classList.contains('on')"
        )
    };
    assert_eq!(wait_for(&c, &upper_check("holographic"), 5).await, true);

    // the readings of this position
    c.find(Locator::Css("#target"))
        .await
        .expect("target")
        .clear()
        .await
        .expect("clear");
    c.find(Locator::Css("#readings-btn"))
        .await
        .expect("readings button")
        .click()
        .await
        .expect("click");
    wait_for(
        &c,
        "document.querySelector('#readings .reading-entry')",
        120,
    )
    .await;
    let rd = text(&c, "#readings").await;
    assert!(rd.contains("forbidden-owner: opponent"), "{rd}");

    // play a move by clicking: the cascade is listed, undo brings the position back
    choose_tool(&c, "play").await;
    click_point(&c, "OA").await;
    wait_for(
        &c,
        "document.querySelectorAll('#report li').length >= 2",
        30,
    )
    .await;
    assert!(text(&c, "#report").await.contains("黑1.OA"));
    // a click on the move gives its clause trace on the position it was played on
    c.find(Locator::Css("#report li.move-link"))
        .await
        .expect("the move")
        .click()
        .await
        .expect("click");
    wait_for(
        &c,
        "document.getElementById('trace').textContent.startsWith('黑1.OA is legal')",
        30,
    )
    .await;
    c.find(Locator::Css("#undo"))
        .await
        .expect("undo")
        .click()
        .await
        .expect("click");
    wait_for(&c, "document.getElementById('move').value === '1'", 30).await;

    c.screenshot()
        .await
        .map(|png| std::fs::write(artifacts().join("serve-setup.png"), png))
        .expect("screenshot")
        .expect("write screenshot");

    let mut ck = Checks::default();
    let kejie =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/records/kejie-alphago-2017-g1.sgf");
    let kejie_text = std::fs::read_to_string(&kejie).expect("the Ke Jie record");

    // ---- the first view: a one-line hint; the rule options folded under the preset ----
    ck.that("hint", js(&c, "document.getElementById('hint') && document.getElementById('hint').textContent.length > 20 && document.getElementById('hint').getBoundingClientRect().top < 200").await);
    ck.that("rule options folded", js(&c, "!!document.getElementById('rule-options') && !document.getElementById('rule-options').open && document.getElementById('rule-options').contains(document.getElementById('options'))").await);

    // ---- bug 1: latin labels never rewrite clause ids ----
    set_select(&c, "labels", "latin").await;
    choose_tool(&c, "explain").await;
    click_point(&c, "D四").await;
    ck.that_wait(&c, "bug 1: clause ids intact with latin labels", "document.getElementById('trace').textContent.includes('M20-FORBID-EYE') && document.getElementById('trace').textContent.includes('d4')", 20).await;
    set_select(&c, "labels", "chinese").await;

    // ---- bug 8: the error box does not move the board ----
    let top = "Math.round(document.getElementById('board').getBoundingClientRect().top)";
    let before = js(&c, top).await;
    c.execute(
        "document.getElementById('position-text').value = 'size: [';",
        vec![],
    )
    .await
    .expect("js");
    click(&c, "#position-load").await;
    wait_for(&c, "!document.getElementById('error').hidden", 20).await;
    let after = js(&c, top).await;
    ck.that_eq("bug 8: the board stays put under an error", &before, &after);

    // ---- bug 9: a cascade step said twice is shown once; a refusal names the move by its text ----
    set_select(&c, "size", "5").await;
    wait_for(
        &c,
        "state.size === 5 && document.querySelectorAll('#board rect.point').length === 25",
        20,
    )
    .await;
    choose_tool(&c, "white").await;
    click_point(&c, "OO").await;
    choose_tool(&c, "black").await;
    for p in ["AO", "一O", "OA"] {
        click_point(&c, p).await;
    }
    choose_tool(&c, "play").await;
    click_point(&c, "O一").await;
    wait_for(
        &c,
        "document.querySelectorAll('#report li').length >= 2",
        20,
    )
    .await;
    let lines = report_lines(&c).await;
    ck.that(
        "bug 9: a capture lists its cascade",
        lines.iter().any(|l| l.contains("GO-CAPTURE")),
    );
    ck.that(
        &format!("bug 9: no cascade step twice in a row {lines:?}"),
        lines.windows(2).all(|w| w[0] != w[1]),
    );
    click_point_raw(&c, "O一").await;
    wait_for(&c, "!document.getElementById('error').hidden", 20).await;
    let err = text(&c, "#error").await;
    ck.that(
        &format!("bug 9: the refusal names the move by its text: {err}"),
        !err.contains("move 1 (`"),
    );

    // ---- bug 2: a refused set-up leaves the board and the state as they were ----
    c.execute("document.getElementById('clear').click()", vec![])
        .await
        .expect("clear");
    wait_for(&c, "state.grid.every((r) => r.every((x) => x === '.'))", 20).await;
    choose_tool(&c, "white").await;
    click_point(&c, "A二").await;
    click_point(&c, "B一").await;
    choose_tool(&c, "black").await;
    click_point_raw(&c, "B二").await;
    let refused = wait_until(&c, "!document.getElementById('error').hidden", 10).await;
    ck.that("bug 2: black B二 refused", refused);
    click_point_raw(&c, "二B").await;
    ck.that_wait(&c, "bug 2: black 二B accepted after the refusal", "document.getElementById('error').hidden && state.grid[cellOf('二B', 5)[0]][cellOf('二B', 5)[1]] === 'X' && state.grid[cellOf('B二', 5)[0]][cellOf('B二', 5)[1]] === '.' && document.querySelectorAll('#board circle.stone.black').length === 1", 20).await;

    // ---- dead-stone marking changes the score ----
    let score = "document.getElementById('score').textContent";
    let s0 = js(&c, score).await;
    if choose_tool_opt(&c, "dead").await {
        click_point_raw(&c, "A二").await;
        ck.that_wait(
            &c,
            "dead stones: marked and counted",
            &format!("state.yaml.includes('dead') && {score} !== {s0}"),
            20,
        )
        .await;
    } else {
        ck.fail("dead stones: no mark-dead tool");
    }
    set_select(&c, "size", "9").await;
    wait_for(&c, "state.size === 9", 20).await;

    // ---- bug 9: a PNG chosen as a record is refused as not text ----
    c.find(Locator::Css("#record-file"))
        .await
        .expect("file picker")
        .send_keys(&artifacts().join("serve-setup.png").display().to_string())
        .await
        .expect("choose");
    ck.that_wait(
        &c,
        "bug 9: a PNG is not a text record",
        "document.getElementById('error').textContent.includes('not a text file')",
        20,
    )
    .await;

    // ---- bug 9: variations are reported ----
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))';",
        vec![],
    )
    .await
    .expect("js");
    click(&c, "#record-load").await;
    ck.that_wait(
        &c,
        "bug 9: an SGF's variations are named",
        "document.body.textContent.includes('variation')",
        20,
    )
    .await;

    // ---- bug 6: the rules chosen are those of the mechanical replay ----
    choose_tool(&c, "black").await;
    set_select(&c, "preset", "dullstone").await;
    wait_for(
        &c,
        "document.getElementById('status').textContent === ''",
        60,
    )
    .await;
    let mech = js(&c, "document.getElementById('mechanical').checked").await;
    if mech != true {
        click(&c, "#mechanical").await;
    }
    pick_file(&c, &kejie).await;
    wait_for(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 180).await;
    ck.that_wait(
        &c,
        "bug 6: replayed under dullstone",
        "document.getElementById('summary').textContent.includes('rules dullstone')",
        10,
    )
    .await;
    // bug 5: browsing a record, a click on the board plays, never edits the position
    ck.that(
        "bug 5: the tool is play while browsing a record",
        js(
            &c,
            "document.querySelector('input[name=tool]:checked').value === 'play'",
        )
        .await,
    );
    set_select(&c, "preset", "m3go-2020").await;
    wait_for(&c, "document.getElementById('status').textContent === '' && document.getElementById('summary').textContent.includes('rules m3go-2020')", 180).await;

    // ---- bug 7: the same file picked again after a pasted record loads again ----
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee];W[cc])';",
        vec![],
    )
    .await
    .expect("js");
    click(&c, "#record-load").await;
    wait_for(&c, "/^move 0 of [1-9]\\b/.test(document.getElementById('record-status').textContent) && !document.getElementById('record-status').textContent.includes('of 289')", 60).await;
    pick_file(&c, &kejie).await;
    let again = wait_until(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 120).await;
    ck.that("bug 7: the same file picked again is loaded", again);
    if !again {
        c.execute("document.getElementById('record-text').value = arguments[0]; document.getElementById('record-load').click();", vec![serde_json::json!(kejie_text)]).await.expect("js");
        wait_for(
            &c,
            "document.getElementById('record-status').textContent.startsWith('move 0 of 289')",
            180,
        )
        .await;
    }

    // ---- speed: one step at move 288, click to board ----
    // a cold step (nothing fetched ahead): from 283, a click on 288 in the move list
    go_to(&c, 283).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let cold = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
           const t0 = performance.now();
           document.querySelector('#movelist .mv[data-move="288"]').click();
           const poll = () => (document.getElementById('board').dataset.at === undefined ? document.getElementById('record-status').textContent.startsWith('move 288 of') && document.getElementById('status').textContent === '' : document.getElementById('board').dataset.at === '288')
             ? requestAnimationFrame(() => done(performance.now() - t0)) : setTimeout(poll, 2);
           poll();"#,
            vec![],
        )
        .await
        .map(|v| v.as_f64().unwrap_or(f64::MAX))
        .unwrap_or(f64::MAX);
    if cold < f64::MAX {
        eprintln!("a cold step, 283 to 288 by the move list (ms): {cold:.1}");
    } else {
        eprintln!("a cold step: the page has no move list");
    }
    // steps as a referee takes them, one look at the board between clicks: the moves either
    // side were fetched meanwhile
    go_to(&c, 283).await;
    let mut times = Vec::new();
    for to in 284..=288 {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let ms = c.execute_async(
            r#"const done = arguments[arguments.length - 1];
               const want = 'move ' + arguments[0] + ' of';
               const t0 = performance.now();
               document.getElementById('next').click();
               const poll = () => {
                 if (document.getElementById('record-status').textContent.startsWith(want) && (document.getElementById('board').dataset.at === undefined ? document.getElementById('status').textContent === '' : document.getElementById('board').dataset.at === String(arguments[0]))) {
                   requestAnimationFrame(() => done(performance.now() - t0));
                 } else {
                   setTimeout(poll, 2);
                 }
               };
               poll();"#,
            vec![serde_json::json!(to)],
        ).await.expect("a timed step");
        times.push(ms.as_f64().unwrap_or(f64::MAX));
    }
    let worst = times.iter().cloned().fold(0.0, f64::max);
    eprintln!("step click to board, moves 284..=288 (ms): {times:?}");
    std::fs::write(
        artifacts().join("step-ms.txt"),
        format!("steps 284..=288 (ms): {times:?}\ncold step 283 to 288 (ms): {cold:.1}\n"),
    )
    .expect("write step times");
    // the median step at most 100 ms, and none more than 250 ms: a 2-core machine shared with
    // other builds delays a single step now and then
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    ck.that(
        &format!("speed: the median step to 288 at most 100 ms, none over 250 (took {times:?})"),
        median <= 100.0 && worst <= 250.0,
    );
    wait_for(&c, "document.getElementById('move').value === '289'", 60).await;
    let summary = text(&c, "#summary").await;
    assert!(summary.starts_with("19×19"), "{summary}");
    // 003: after 288, 「白棋串AD*有私眼BD，所以，中性花棋串AC*和OE*皆变为白性花棋串」
    let flower_at =
        |p: &str| format!("state.analysis.flowers.find((f) => f.points.includes('{p}')).attribute");
    assert_eq!(wait_for(&c, &flower_at("AC"), 5).await, "white");
    assert_eq!(wait_for(&c, &flower_at("OE"), 5).await, "white");
    let eyes = text(&c, "#eyes").await;
    assert!(eyes.contains("private eye BD"), "{eyes}");
    let log = text(&c, "#record-log").await;
    assert!(log.contains("288"), "{log}");
    ck.that(
        "markers differ by shape",
        js(
            &c,
            "document.querySelectorAll('#board .forbid-mark').length > 0",
        )
        .await,
    );
    ck.that("the move list highlights move 288", js(&c, "!!document.querySelector('#movelist .current[data-move=\"288\"]') && document.querySelectorAll('#movelist .mv').length === 289").await);

    // ---- screenshots of 288 at 1400 and 420 px, light and dark ----
    for (w, h) in [(1400, 1000), (420, 900)] {
        for dark in [false, true] {
            emulate_dark(&c, port, dark).await;
            c.set_window_size(w, h).await.expect("window size");
            tokio::time::sleep(Duration::from_millis(300)).await;
            c.execute(
                "document.activeElement.blur(); window.scrollTo(0, 0); return 0",
                vec![],
            )
            .await
            .expect("scroll");
            let png = c.screenshot().await.expect("screenshot");
            let name = format!(
                "serve-kejie-288-{w}-{}.png",
                if dark { "dark" } else { "light" }
            );
            std::fs::write(artifacts().join(&name), png).expect("write screenshot");
            if dark {
                ck.that(&format!("dark mode at {w}"), js(&c, "(() => { const m = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return m[0] + m[1] + m[2] < 200; })()").await);
            }
            if w == 420 {
                ck.that(
                    &format!("phone width, dark {dark}: no horizontal scrolling"),
                    js(
                        &c,
                        "document.documentElement.scrollWidth <= window.innerWidth",
                    )
                    .await,
                );
                ck.that(&format!("phone width, dark {dark}: the board fully visible"), js(&c, "(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth && r.width > 300; })()").await);
            } else {
                ck.that("wide: the trace and the analysis next to the board", js(&c, "(() => { const b = document.getElementById('board').getBoundingClientRect(); const t = document.getElementById('trace').getBoundingClientRect(); const s = document.getElementById('summary').getBoundingClientRect(); return t.left >= b.right && s.left >= b.right && t.top < b.bottom && s.top < window.innerHeight; })()").await);
            }
        }
    }
    emulate_dark(&c, port, false).await;
    c.set_window_size(1500, 1300).await.expect("window size");

    // ---- move numbers on the stones ----
    if js(&c, "!!document.getElementById('numbers')").await == true {
        click(&c, "#numbers").await;
        ck.that_wait(&c, "move numbers: 288 written on its stone", "[...document.querySelectorAll('#board text.move-number')].some((t) => t.textContent === '288')", 20).await;
        click(&c, "#numbers").await;
        wait_for(&c, "!document.querySelector('#board text.move-number')", 20).await;
    } else {
        ck.fail("move numbers: no option");
    }

    // ---- the move list: a click goes to that move ----
    if js(
        &c,
        "!!document.querySelector('#movelist .mv[data-move=\"100\"]')",
    )
    .await
        == true
    {
        click(&c, "#movelist .mv[data-move='100']").await;
        ck.that_wait(&c, "the move list: a click goes to move 100", "document.getElementById('record-status').textContent.startsWith('move 100 of') && !!document.querySelector('#movelist .current[data-move=\"100\"]')", 30).await;
    } else {
        ck.fail("the move list: no move 100");
        go_to(&c, 100).await;
    }

    // ---- bug 3: rapid clicks are never lost ----
    go_to(&c, 100).await;
    for _ in 0..4 {
        click(&c, "#next").await;
    }
    ck.that_wait(&c, "bug 3: four quick clicks from 100 reach 104", "document.getElementById('record-status').textContent.startsWith('move 104 of') && document.getElementById('status').textContent === ''", 60).await;
    go_to(&c, 200).await;
    c.execute(
        "for (let k = 0; k < 5; k++) document.getElementById('next').click();",
        vec![],
    )
    .await
    .expect("clicks");
    ck.that_wait(&c, "bug 3: five clicks at once from 200 reach 205", "document.getElementById('record-status').textContent.startsWith('move 205 of') && document.getElementById('status').textContent === ''", 60).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    ck.that(
        "bug 3: and stay there",
        js(
            &c,
            "document.getElementById('record-status').textContent.startsWith('move 205 of')",
        )
        .await,
    );

    // ---- keyboard: real key events ----
    let body = c.find(Locator::Css("body")).await.expect("body");
    for (key, want) in [
        (Key::Right, 206),
        (Key::Left, 205),
        (Key::PageDown, 215),
        (Key::PageUp, 205),
        (Key::End, 289),
        (Key::Home, 0),
    ] {
        let k: char = key.into();
        body.send_keys(&k.to_string()).await.expect("a key");
        ck.that_wait(&c, &format!("keyboard: {key:?} goes to {want}"), &format!("document.getElementById('record-status').textContent.startsWith('move {want} of') && document.getElementById('status').textContent === ''"), 30).await;
    }
    // the board is reachable from the keyboard: focus it, move the cursor, press Enter
    choose_tool(&c, "explain").await;
    c.execute("document.getElementById('board').focus(); document.getElementById('trace').textContent = '';", vec![]).await.expect("focus");
    let board = c.active_element().await.expect("the focused element");
    let (right, enter): (char, char) = (Key::Right.into(), Key::Enter.into());
    board
        .send_keys(&format!("{right}{enter}"))
        .await
        .expect("keys on the board");
    ck.that("keyboard: the board takes the focus", js(&c, "document.activeElement === document.getElementById('board') && document.getElementById('board').tabIndex >= 0").await);
    ck.that_wait(
        &c,
        "keyboard: Enter on the board explains the cursor's point",
        "document.getElementById('trace').textContent.includes('一O')",
        30,
    )
    .await;

    // ---- the stone preview on hover, and the hover label cleared when the pointer leaves ----
    go_to(&c, 288).await;
    choose_tool(&c, "play").await;
    let empty = js(&c, "state.analysis.legal_moves[0].split('.').pop()").await;
    let empty = empty.as_str().unwrap_or("").to_string();
    let rect = c
        .find(Locator::Css(&format!(
            "#board rect.point[data-point='{empty}']"
        )))
        .await
        .expect("an empty point");
    c.perform_actions(
        MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: rect,
            duration: None,
            x: 0.0,
            y: 0.0,
        }),
    )
    .await
    .expect("hover");
    ck.that_wait(&c, "hover: the preview of the stone the schedule places next", "(() => { const p = document.querySelector('#board .preview'); return !!p && p.dataset.symbol === state.analysis.to_move.symbol; })()", 10).await;
    let away = c.find(Locator::Css("#summary")).await.expect("summary");
    c.perform_actions(
        MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: away,
            duration: None,
            x: 0.0,
            y: 0.0,
        }),
    )
    .await
    .expect("leave");
    ck.that_wait(&c, "bug 9: the hover label clears when the pointer leaves", "document.getElementById('hover').textContent === '' && !document.querySelector('#board .preview')", 10).await;

    // ---- bug 4 and 5: play 289..292, undo all four ----
    let status_288 = text(&c, "#record-status").await;
    for _ in 0..4 {
        let n = js(&c, "state.move").await;
        let mv = js(
            &c,
            "state.analysis.legal_moves.find((m) => !m.endsWith('pass')).split('.').pop()",
        )
        .await;
        click_point_raw(&c, mv.as_str().unwrap_or("")).await;
        wait_for(
            &c,
            &format!("state.move !== {n} && document.getElementById('status').textContent === ''"),
            30,
        )
        .await;
    }
    ck.that_wait(
        &c,
        "bug 4: the cascade of 292 is shown",
        "document.getElementById('report').textContent.includes('292')",
        10,
    )
    .await;
    ck.that(
        &format!("bug 5: after playing, the status no longer says `{status_288}`"),
        js(
            &c,
            &format!(
                "document.getElementById('record-status').textContent !== {}",
                serde_json::json!(status_288)
            ),
        )
        .await,
    );
    undo(&c, 4).await;
    ck.that("bug 4: undone to 289", js(&c, "state.move === 289").await);
    ck.that(
        "bug 4: the last move no longer shows 292's cascade",
        js(
            &c,
            "!document.getElementById('report').textContent.includes('292')",
        )
        .await,
    );

    // ---- bug 9: 003's 289..291; 黑291.七A captures 五O* and its cascade recomputes twice
    // (`m3go play` lists "GO-CASCADE: … recomputed" on two lines), shown once with its count ----
    for point in ["H九", "六三", "七A"] {
        let n = js(&c, "state.move").await;
        click_point_raw(&c, point).await;
        settled_after(&c, &n).await;
    }
    let lines = report_lines(&c).await;
    ck.that(
        &format!("bug 9: 黑291's two recomputations shown once, with their count {lines:?}"),
        lines.first().is_some_and(|l| l.contains("291"))
            && lines.windows(2).all(|w| w[0] != w[1])
            && lines.iter().any(|l| l.contains("recomputed (×2)")),
    );
    undo(&c, 3).await;
    ck.that(
        "bug 9: undone to 289 again",
        js(&c, "state.move === 289").await,
    );

    // ---- the pass button ----
    if js(&c, "!!document.getElementById('pass')").await == true {
        click(&c, "#pass").await;
        ck.that_wait(
            &c,
            "pass: a pass is played",
            "state.move === 290 && document.getElementById('report').textContent.includes('pass')",
            30,
        )
        .await;
        click(&c, "#undo").await;
        wait_for(&c, "state.move === 289", 30).await;
    } else {
        ck.fail("pass: no button");
    }

    // ---- bug 5: a stray edit leaves the record, and says so ----
    go_to(&c, 288).await;
    choose_tool(&c, "black").await;
    click_point_raw(&c, &empty).await;
    wait_for(
        &c,
        "document.getElementById('status').textContent === ''",
        30,
    )
    .await;
    ck.that(
        "bug 5: an edit says the record is left",
        js(&c, LEFT_288).await,
    );
    // and a failed load does not leave the old status
    go_to(&c, 288).await;
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee];W[ee]';",
        vec![],
    )
    .await
    .expect("js");
    click(&c, "#record-load").await;
    wait_for(&c, "!document.getElementById('error').hidden", 30).await;
    ck.that(
        "bug 5: a failed load is said in the status",
        js(&c, LEFT_288).await,
    );

    // ---- bug 9: game-file export of a replayed position; a failed export leaves no stale link ----
    go_to(&c, 288).await;
    c.execute(
        "document.querySelector('[data-export]').closest('details').open = true;",
        vec![],
    )
    .await
    .expect("open the export box");
    click(&c, "[data-export=game]").await;
    ck.that_wait(&c, "bug 9: the game file of a replayed position", "document.getElementById('error').hidden && document.getElementById('export-text').value.includes('288') && !document.getElementById('download').hidden", 30).await;
    // a successful export shows its link; then a failed one must not leave it
    click(&c, "[data-export=yaml]").await;
    wait_for(
        &c,
        "!document.getElementById('download').hidden && document.getElementById('download').download === 'position.yaml'",
        30,
    )
    .await;
    c.execute(
        "state.yaml = 'size: ['; document.querySelector('[data-export=yaml]').click();",
        vec![],
    )
    .await
    .expect("js");
    wait_for(&c, "!document.getElementById('error').hidden", 30).await;
    ck.that(
        "bug 9: a failed export hides the previous download link",
        js(&c, "document.getElementById('download').hidden").await,
    );
    go_to(&c, 288).await;

    // ---- drag and drop of an SGF (a DataTransfer with the file) ----
    c.execute(
        "const dt = new DataTransfer(); dt.items.add(new File([arguments[0]], 'dropped.sgf', { type: 'application/x-go-sgf' }));
         document.getElementById('board').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));",
        vec![serde_json::json!("(;GM[1]SZ[9];B[ee];W[cc];B[gg])")],
    ).await.expect("drop");
    ck.that_wait(
        &c,
        "drag and drop: the dropped SGF is loaded",
        "document.getElementById('record-status').textContent.startsWith('move 0 of 3')",
        30,
    )
    .await;

    // ---- the URL restores the record's move after a reload, and a set-up position ----
    pick_file(&c, &kejie).await;
    wait_for(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 180).await;
    go_to(&c, 288).await;
    c.refresh().await.expect("reload");
    ck.that_wait(&c, "URL: the record's move 288 after a reload", "document.body.dataset.ready === '1' && document.getElementById('record-status').textContent.startsWith('move 288 of 289')", 180).await;
    set_select(&c, "size", "9").await;
    choose_tool(&c, "white").await;
    click_point(&c, "OO").await;
    let yaml = js(&c, "state.yaml").await;
    c.refresh().await.expect("reload");
    ck.that_wait(
        &c,
        "URL: the set-up position after a reload",
        &format!("document.body.dataset.ready === '1' && state.yaml === {yaml}"),
        60,
    )
    .await;

    // ---- accessible names and a visible focus ----
    let unnamed = js(&c, "[...document.querySelectorAll('button, input, select, textarea')].filter((e) => e.offsetParent !== null && !(e.getAttribute('aria-label') || (e.labels && e.labels.length) || e.textContent.trim() || e.title)).map((e) => e.outerHTML.slice(0, 80))").await;
    ck.that(
        &format!("accessible names: {unnamed}"),
        unnamed.as_array().is_some_and(|a| a.is_empty()),
    );
    let body = c.find(Locator::Css("body")).await.expect("body");
    let tab: char = Key::Tab.into();
    body.send_keys(&tab.to_string()).await.expect("tab");
    ck.that("a visible focus", js(&c, "(() => { const s = getComputedStyle(document.activeElement); return document.activeElement !== document.body && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; })()").await);

    c.close().await.expect("close the session");
    let _ = std::fs::remove_dir_all(&profile);
    ck.done();
}
