//! The adjudication page (`m3go serve`) in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) by a small blocking client on `ureq` (tests/browser/webdriver.rs).
//! Loads the page, places stones by clicking and sees
//! the analysis update (a private eye made, a flower attribute changed), clicks a point and reads
//! its clause trace with the clause's quote, switches layers, asks for the readings, plays and
//! undoes a move; then checks each bug of issue 24 fixed (latin labels never rewrite a clause
//! id, a refused set-up leaves board and state alone, rapid clicks are never lost, undo clears the
//! cascade, the status follows the position, the mechanical replay takes the rules chosen, the
//! same file loads twice, the error box never moves the board, a PNG is refused as not text,
//! variations are named, a replayed position exports as a game, the hover label clears) and each
//! board convention (a hover preview of the next stone, the move list, move numbers, keys ←/→,
//! Home/End, PgUp/PgDn with real key events, the move list one Tab stop with ↑/↓ in it, an
//! arrow on a tool radio leaving the tool, `?` listing the keys, `p` and `u`, a keyboard-reachable
//! board, a pass button, dead
//! stones for the score, an SGF dropped with a DataTransfer, the URL restoring the record's move
//! and a set-up position after a reload, a match record's context (its players and result, the
//! forfeit with its clause at the last move, comments inserted as text), the phone width, dark mode through the emulated media
//! feature, accessible names and a visible focus, markers by shape, the trace next to the board
//! on a wide screen, the first view's hint and the folded rule options). It times steps at move
//! 288 of Ke Jie vs AlphaGo game 1 (click to board, `performance.now`) and prints the times
//! (the median and the slowest) on stderr and in target/browser/step-ms.txt without asserting
//! on them (a loaded machine would fail the test, not the page), and keeps screenshots at
//! 1400 and 420 px, light and dark, and one of a match record's forfeit at its last move
//! (serve-record-context.png), under target/browser/. The checks are collected: one run
//! lists every one that fails.
//!
//! Built by every `cargo test` (no feature: the client's only dependencies, ureq and serde_json,
//! are built by the other tests anyway). Runs when `chromium` and `chromedriver` are installed
//! (Debian: `apt-get install chromium chromium-driver`); otherwise the harness (libtest-mimic:
//! `harness = false`) reports it `ignored` with why, in its own summary (`0 passed; 0 failed;
//! 1 ignored`), never `ok`, unless `M3GO_BROWSER_REQUIRED=1` (set by .ci/run), when a missing
//! browser fails it.

#[path = "browser/conventions.rs"]
mod conventions;
#[path = "browser/ending.rs"]
mod ending;
#[path = "browser/proposal.rs"]
mod proposal;
#[path = "browser/reads.rs"]
mod reads;
#[path = "browser/share.rs"]
mod share;
#[path = "browser/variations.rs"]
mod variations;
#[path = "browser/watch.rs"]
mod watch;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use webdriver::{key, Client};

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
fn wait_for(c: &Client, expr: &str, secs: u64) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = c
            .execute(&format!("return ({expr});"), vec![])
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
                .unwrap_or_default();
            // what the page shows, for the reader of a failure
            let seen = c
                .execute(
                    "return JSON.stringify({status: document.getElementById('status').textContent, record: (document.getElementById('record-status') || {}).textContent, move: state.move, analysed: document.getElementById('board').dataset.analysed, scoring: state.scoring})",
                    vec![],
                )
                .unwrap_or_default();
            panic!("waited {secs} s for `{expr}`; the page's error box: {err}; the page: {seen}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn text(c: &Client, css: &str) -> String {
    c.find(css)
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .expect("text")
}

/// Clicks the point `label` of the board and waits for the judged position to change.
fn click_point(c: &Client, label: &str) {
    let css = format!("#board rect.point[data-point='{label}']");
    c.find(&css)
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .expect("click");
    wait_for(
        c,
        "document.getElementById('status').textContent === ''",
        60,
    );
}

fn choose_tool(c: &Client, tool: &str) {
    c.find(&format!("input[name=tool][value={tool}]"))
        .expect("tool")
        .click()
        .expect("click tool");
}

/// Waits until the page has left move `n` and shows no status (a move played or undone).
fn settled_after(c: &Client, n: &serde_json::Value) {
    wait_for(
        c,
        &format!("state.move !== {n} && document.getElementById('status').textContent === ''"),
        30,
    );
}

/// Clicks "undo" `times` times, each time until the page has settled.
fn undo(c: &Client, times: usize) {
    for _ in 0..times {
        let n = js(c, "state.move");
        click(c, "#undo");
        settled_after(c, &n);
    }
}

/// The lines of the last move's cascade as the page lists them.
fn report_lines(c: &Client) -> Vec<String> {
    let report = js(
        c,
        "[...document.querySelectorAll('#report li')].map((l) => l.textContent)",
    );
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
fn js(c: &Client, expr: &str) -> serde_json::Value {
    c.execute(
        &format!("try {{ return ({expr}); }} catch (e) {{ return null; }}"),
        vec![],
    )
    .unwrap_or(serde_json::Value::Null)
}

/// Polls `expr` until it is true, at most `secs` seconds; whether it became true.
fn wait_until(c: &Client, expr: &str, secs: u64) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        if js(c, expr) == true {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
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
    fn that_wait(&mut self, c: &Client, what: &str, expr: &str, secs: u64) {
        let ok = wait_until(c, expr, secs);
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

fn click(c: &Client, css: &str) {
    c.find(css)
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Clicks the point `label` without waiting for the answer.
fn click_point_raw(c: &Client, label: &str) {
    click(c, &format!("#board rect.point[data-point='{label}']"));
}

/// Chooses `value` in the select `id` (a change event, as a choice by hand gives).
fn set_select(c: &Client, id: &str, value: &str) {
    c.execute(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
        vec![serde_json::json!(id), serde_json::json!(value)],
    )
    .expect("choose");
    std::thread::sleep(Duration::from_millis(100));
    wait_for(
        c,
        "document.getElementById('status').textContent === ''",
        180,
    );
}

/// Chooses the tool `tool` if the page has it.
fn choose_tool_opt(c: &Client, tool: &str) -> bool {
    match c.find(&format!("input[name=tool][value={tool}]")) {
        Ok(e) => e.click().is_ok(),
        Err(_) => false,
    }
}

/// Picks `file` in the record's file picker.
fn pick_file(c: &Client, file: &Path) {
    c.find("#record-file")
        .expect("file picker")
        .send_keys(&file.display().to_string())
        .expect("choose the file");
}

/// The text the page puts in its export box when `button` (a JavaScript expression naming the
/// element) is clicked: the box emptied first, then awaited until it starts with `starts` (at
/// most `secs` seconds); empty when it never does.
fn exported(c: &Client, button: &str, starts: &str, secs: u64) -> String {
    c.execute(
        &format!("document.getElementById('export-text').value = ''; {button}.click();"),
        vec![],
    )
    .expect("click the export");
    wait_until(
        c,
        &format!("document.getElementById('export-text').value.startsWith({starts:?})"),
        secs,
    );
    js(c, "document.getElementById('export-text').value")
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Goes to move `n` of the loaded record by its move box: reached when the record's status names
/// it and its analysis is shown — or, at the end of a game, the engine's proposal of dead stones
/// marked on it (the marked view is no longer the record's move: `analysed` is empty).
fn go_to(c: &Client, n: u32) {
    let to = c.find("#record-to").expect("move box");
    to.clear().expect("clear");
    to.send_keys(&n.to_string()).expect("type");
    click(c, "#record-go");
    wait_for(
        c,
        &format!("document.getElementById('record-status').textContent.startsWith('move {n} of') && document.getElementById('status').textContent === '' && state.move === {} && (['{n}', undefined].includes(document.getElementById('board').dataset.analysed) || (state.scoring === 'marking' && document.getElementById('board').dataset.analysed === ''))", n + 1),
        180,
    );
}

/// Emulates `prefers-color-scheme: dark` (or light) through chromedriver's DevTools command.
fn emulate_dark(c: &Client, dark: bool) {
    let params = serde_json::json!({
        "features": [{ "name": "prefers-color-scheme", "value": if dark { "dark" } else { "light" } }],
    });
    c.cdp("Emulation.setEmulatedMedia", params)
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

/// The page test, one trial of the harness: run when the browser is installed; without it,
/// reported `ignored` (with why) by the harness's own summary, or failed when
/// `M3GO_BROWSER_REQUIRED=1`.
fn main() {
    use libtest_mimic::{Arguments, Failed, Trial};
    let args = Arguments::from_args();
    let required = std::env::var("M3GO_BROWSER_REQUIRED").is_ok_and(|v| v == "1");
    let found = (
        which(&["chromium", "chromium-browser", "google-chrome"]),
        which(&["chromedriver"]),
    );
    let missing = found.0.is_none() || found.1.is_none();
    let trial = Trial::test("browser_adjudication_page", move || {
        let (Some(chromium), Some(driver)) = found else {
            return Err(Failed::from(if required {
                "M3GO_BROWSER_REQUIRED=1 but chromium or chromedriver is not installed"
            } else {
                "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
            }));
        };
        browser_adjudication_page(chromium, driver);
        Ok(())
    })
    // without the browser (and not required): ignored, which the summary counts as such
    .with_ignored_flag(missing && !required);
    if missing && !required && !args.list {
        eprintln!(
            "browser_adjudication_page ignored: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
        );
    }
    // a match watched live (`m3go match --serve`), run on its own: `cargo test --test browser
    // watch`
    let (chromium, driver) = (
        which(&["chromium", "chromium-browser", "google-chrome"]),
        which(&["chromedriver"]),
    );
    let watch = Trial::test("browser_watch_match", move || match (chromium, driver) {
        (Some(chromium), Some(driver)) => {
            watch::watch_match(chromium, driver);
            Ok(())
        }
        _ if required => Err(Failed::from("chromium or chromedriver is not installed")),
        _ => Ok(()),
    })
    .with_ignored_flag(missing && !required);
    libtest_mimic::run(&args, vec![trial, watch]).exit();
}

fn browser_adjudication_page(chromium: PathBuf, driver: PathBuf) {
    let (server, url) = start_server();
    let (driver_child, port) = start_driver(&driver);
    let _guard = Kill(vec![server, driver_child]);
    let profile = std::env::temp_dir().join(format!("m3go-browser-{}", std::process::id()));
    let c = share::fresh_session(port, &chromium, &profile, "1500,1300");
    c.goto(&url).expect("load the page");
    wait_for(&c, "document.body.dataset.ready === '1'", 60);
    // M3GO_BROWSER_ONLY=NAME: only the checks of tests/browser/NAME.rs (for working on them)
    if let Ok(only) = std::env::var("M3GO_BROWSER_ONLY") {
        let mut ck = Checks::default();
        match only.as_str() {
            "share" => share::share_checks(&c, &mut ck, &url, port, &chromium),
            "reads" => reads::reads_checks(&c, &mut ck, &url, &chromium, &driver),
            "proposal" => proposal::proposal_checks(&c, &mut ck),
            "variations" => variations::variation_checks(&c, &mut ck),
            "ending" => ending::ending_checks(&c, &mut ck, &url),
            "conventions" => conventions::conventions_checks(&c, &mut ck),
            other => panic!(
                "M3GO_BROWSER_ONLY={other}: expected share, reads, proposal, variations, ending or conventions"
            ),
        }
        c.close().expect("close the session");
        let _ = std::fs::remove_dir_all(&profile);
        return ck.done();
    }
    assert!(text(&c, "h1").starts_with("m3go"));
    // the empty 9x9 board, holographic by default, clickable points in the documents' labels
    let points = c.find_all("#board rect.point").expect("points");
    assert_eq!(points.len(), 81);
    assert_eq!(
        wait_for(&c, "document.getElementById('board').dataset.layer", 5),
        "holographic"
    );

    // set up by clicking: a white stone at the centre, a flower at B四, black C四 and C三
    choose_tool(&c, "white");
    click_point(&c, "OO");
    choose_tool(&c, "flower");
    click_point(&c, "B四");
    choose_tool(&c, "black");
    click_point(&c, "C四");
    click_point(&c, "C三");
    let flowers = text(&c, "#flowers");
    let yaml = c
        .execute("return JSON.stringify(state.setup)", vec![])
        .expect("the position");
    assert!(flowers.contains("B四*: neutral"), "{flowers}\n{yaml}");
    assert_eq!(text(&c, "#eyes"), "none");
    // black D三 closes the corner: a private eye of black at D四, and the flower turns black
    click_point(&c, "D三");
    let eyes = text(&c, "#eyes");
    assert!(eyes.contains("black C四*: private eye D四"), "{eyes}");
    let flowers = text(&c, "#flowers");
    assert!(flowers.contains("B四*: black (Hs=1"), "{flowers}");
    // the figure shows the eye shading and the flower's star
    assert!(c.find("#board rect.eye-black").is_ok());
    assert!(c.find("#board circle.star-black").is_ok());

    // click a point and read its clause trace, with the clause's quote from the register
    choose_tool(&c, "explain");
    click_point(&c, "D四");
    wait_for(&c, "document.getElementById('trace').textContent", 30);
    let trace = text(&c, "#trace");
    assert!(trace.contains("D四"), "{trace}");
    assert!(trace.contains("M20-FORBID-EYE"), "{trace}");
    wait_for(
        &c,
        "document.querySelector('#clauses .clause[data-clause=\"M20-FORBID-EYE\"]')",
        30,
    );
    let clause = text(&c, "#clauses .clause[data-clause='M20-FORBID-EYE']");
    assert!(clause.contains("一气眼"), "{clause}");

    // switch layers: the upper layer draws the black flower as a black stone
    for layer in ["direct", "upper", "holographic"] {
        c.find(&format!("#layers button[data-layer={layer}]"))
            .expect("layer button")
            .click()
            .expect("click layer");
        wait_for(
            &c,
            &format!(
                "document.querySelector('#board svg title').textContent.includes('{layer} layer')"
            ),
            30,
        );
    }
    let upper_check = |layer: &str| {
        format!(
            "document.querySelector('#layers button[data-layer={layer}]').classList.contains('on')"
        )
    };
    assert_eq!(wait_for(&c, &upper_check("holographic"), 5), true);

    // the readings of this position
    c.find("#target").expect("target").clear().expect("clear");
    c.find("#readings-btn")
        .expect("readings button")
        .click()
        .expect("click");
    wait_for(
        &c,
        "document.querySelector('#readings .reading-entry')",
        120,
    );
    let rd = text(&c, "#readings");
    assert!(rd.contains("forbidden-owner: opponent"), "{rd}");

    // play a move by clicking: the cascade is listed, undo brings the position back
    choose_tool(&c, "play");
    click_point(&c, "OA");
    wait_for(
        &c,
        "document.querySelectorAll('#report li').length >= 2",
        30,
    );
    assert!(text(&c, "#report").contains("黑1.OA"));
    // a click on the move gives its clause trace on the position it was played on
    c.find("#report li.move-link")
        .expect("the move")
        .click()
        .expect("click");
    wait_for(
        &c,
        "document.getElementById('trace').textContent.startsWith('黑1.OA is legal')",
        30,
    );
    c.find("#undo").expect("undo").click().expect("click");
    wait_for(&c, "document.getElementById('move').value === '1'", 30);

    c.screenshot()
        .map(|png| std::fs::write(artifacts().join("serve-setup.png"), png))
        .expect("screenshot")
        .expect("write screenshot");

    let mut ck = Checks::default();
    let kejie =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/records/kejie-alphago-2017-g1.sgf");
    let kejie_text = std::fs::read_to_string(&kejie).expect("the Ke Jie record");

    // ---- the first view: a one-line hint; the rule options folded under the preset ----
    ck.that("hint", js(&c, "document.getElementById('hint') && document.getElementById('hint').textContent.length > 20 && document.getElementById('hint').getBoundingClientRect().top < 200"));
    ck.that("rule options folded", js(&c, "!!document.getElementById('rule-options') && !document.getElementById('rule-options').open && document.getElementById('rule-options').contains(document.getElementById('options'))"));

    // ---- bug 1: latin labels never rewrite clause ids ----
    set_select(&c, "labels", "latin");
    choose_tool(&c, "explain");
    click_point(&c, "D四");
    ck.that_wait(&c, "bug 1: clause ids intact with latin labels", "document.getElementById('trace').textContent.includes('M20-FORBID-EYE') && document.getElementById('trace').textContent.includes('d4')", 20);
    set_select(&c, "labels", "chinese");

    // ---- bug 8: the error box does not move the board ----
    // in the page's coordinates: WebDriver scrolls the window to bring the button it clicks into
    // view (the right column is longer with the score's trace), which is no move of the board
    let top =
        "Math.round(document.getElementById('board').getBoundingClientRect().top + window.scrollY)";
    let before = js(&c, top);
    c.execute(
        "document.getElementById('position-text').value = 'size: [';",
        vec![],
    )
    .expect("js");
    click(&c, "#position-load");
    wait_for(&c, "!document.getElementById('error').hidden", 20);
    let after = js(&c, top);
    ck.that_eq("bug 8: the board stays put under an error", &before, &after);

    // ---- bug 9: a cascade step said twice is shown once; a refusal names the move by its text ----
    set_select(&c, "size", "5");
    wait_for(
        &c,
        "state.size === 5 && document.querySelectorAll('#board rect.point').length === 25",
        20,
    );
    choose_tool(&c, "white");
    click_point(&c, "OO");
    choose_tool(&c, "black");
    for p in ["AO", "一O", "OA"] {
        click_point(&c, p);
    }
    choose_tool(&c, "play");
    click_point(&c, "O一");
    wait_for(
        &c,
        "document.querySelectorAll('#report li').length >= 2",
        20,
    );
    let lines = report_lines(&c);
    ck.that(
        "bug 9: a capture lists its cascade",
        lines.iter().any(|l| l.contains("GO-CAPTURE")),
    );
    ck.that(
        &format!("bug 9: no cascade step twice in a row {lines:?}"),
        lines.windows(2).all(|w| w[0] != w[1]),
    );
    click_point_raw(&c, "O一");
    wait_for(&c, "!document.getElementById('error').hidden", 20);
    let err = text(&c, "#error");
    ck.that(
        &format!("bug 9: the refusal names the move by its text: {err}"),
        !err.contains("move 1 (`"),
    );

    // ---- bug 2: a refused set-up leaves the board and the state as they were ----
    c.execute("document.getElementById('clear').click()", vec![])
        .expect("clear");
    wait_for(&c, "state.grid.every((r) => r.every((x) => x === '.'))", 20);
    choose_tool(&c, "white");
    click_point(&c, "A二");
    click_point(&c, "B一");
    choose_tool(&c, "black");
    click_point_raw(&c, "B二");
    let refused = wait_until(&c, "!document.getElementById('error').hidden", 10);
    ck.that("bug 2: black B二 refused", refused);
    click_point_raw(&c, "二B");
    ck.that_wait(&c, "bug 2: black 二B accepted after the refusal", "document.getElementById('error').hidden && state.grid[cellOf('二B', 5)[0]][cellOf('二B', 5)[1]] === 'X' && state.grid[cellOf('B二', 5)[0]][cellOf('B二', 5)[1]] === '.' && document.querySelectorAll('#board circle.stone.black').length === 1", 20);

    // ---- dead-stone marking changes the score, and the figure draws them dead ----
    let score = "document.getElementById('score-line').textContent";
    let s0 = js(&c, score);
    let figure = "document.querySelector('#board svg').outerHTML";
    let svg0 = js(&c, figure);
    if choose_tool_opt(&c, "dead") {
        click_point_raw(&c, "A二");
        ck.that_wait(
            &c,
            "dead stones: marked and counted",
            &format!("(state.setup.dead || []).includes('A二') && {score} !== {s0}"),
            20,
        );
        // issue 40 item 2: the figure was byte-identical with and without the marks
        ck.that(
            "dead stones drawn: the figure differs with the marks, the string faded and crossed",
            js(&c, &format!("{figure} !== {svg0} && document.querySelectorAll('#board g.dead').length === 1 && document.querySelectorAll('#board .dead-cross').length === 1")),
        );
        ck.that(
            "territory drawn: each empty point carries its owner's mark at scoring",
            js(&c, "document.querySelectorAll('#board .territory').length >= state.grid.flat().filter((x) => x === '.').length"),
        );
    } else {
        ck.fail("dead stones: no mark-dead tool");
    }

    // ---- the scoring phase: the game's end passes, marks by a click, the count, accept ----
    choose_tool(&c, "black");
    for _ in 0..4 {
        if js(&c, "state.analysis.game_over") == true {
            break;
        }
        let n = js(&c, "state.move");
        click(&c, "#pass");
        settled_after(&c, &n);
    }
    ck.that_wait(
        &c,
        "scoring phase: entered when the game ends",
        "state.scoring === 'marking' && !document.getElementById('scoring').hidden && document.getElementById('scoring-text').textContent.includes('mark')",
        20,
    );
    let s1 = js(&c, score);
    // the tool is "black": in the phase a click marks the stone's whole string dead instead
    click_point_raw(&c, "二B");
    ck.that_wait(
        &c,
        "scoring phase: a click marks the string dead and the count follows",
        &format!("(state.setup.dead || []).includes('二B') && {score} !== {s1} && state.grid.flat().filter((x) => x === 'X').length === 1 && document.querySelectorAll('#board g.dead').length >= 1"),
        20,
    );
    if c.find("#score-accept").and_then(|b| b.click()).is_ok() {
        ck.that_wait(
            &c,
            "scoring phase: accepted, the link carries the marks and the acceptance",
            "state.scoring === 'accepted' && document.getElementById('scoring-text').textContent.startsWith('count accepted') && location.hash.includes('dead=') && location.hash.includes('scoring=accepted')",
            20,
        );
    } else {
        ck.fail("scoring phase: no accept button");
    }
    emulate_dark(&c, true);
    if let Ok(png) = c.screenshot() {
        let _ = std::fs::write(artifacts().join("serve-scoring-dark.png"), png);
    }
    emulate_dark(&c, false);
    c.refresh().expect("reload");
    ck.that_wait(
        &c,
        "scoring phase: the marks and the accepted count survive a reload",
        "document.body.dataset.ready === '1' && (state.setup.dead || []).includes('二B') && state.scoring === 'accepted' && document.querySelectorAll('#board g.dead').length >= 1",
        30,
    );
    // the score's clause trace, reached by Tab, each region with its clause id; the table's legend
    c.execute(
        "document.getElementById('score').closest('details').querySelector('summary').focus()",
        vec![],
    )
    .expect("focus");
    let in_trace = "document.activeElement.closest('#score-trace') !== null";
    for _ in 0..80 {
        if js(&c, in_trace) == true {
            break;
        }
        // a file input takes keys as a file name: past the score, the trace was not reached
        if js(&c, "document.activeElement.type === 'file'") == true {
            break;
        }
        let focused = c.active_element().expect("the focused element");
        focused.send_keys(&key::TAB.to_string()).expect("tab");
    }
    ck.that(
        "score trace: reached by Tab, the line focused names its clause id",
        js(&c, "(() => { const l = document.activeElement.closest('#score-trace li'); return l !== null && /M20-SCORE-[A-Z-]+/.test(l.textContent); })()"),
    );
    ck.that(
        "score trace: the komi line and a dead region with M20-SCORE-DEAD",
        js(&c, "[...document.querySelectorAll('#score-trace li')].some((l) => l.textContent.includes('M20-SCORE-KOMI')) && [...document.querySelectorAll('#score-trace li')].some((l) => l.textContent.includes('M20-SCORE-DEAD'))"),
    );
    ck.that(
        "score table: a legend of its letters",
        js(&c, "(() => { const t = document.getElementById('score-legend'); return t !== null && document.querySelector('#score table').getAttribute('aria-describedby') === 'score-legend' && ['b ', 'w ', 's ', 'n '].every((x) => t.textContent.includes(x)) && t.textContent.includes('seki'); })()"),
    );
    set_select(&c, "size", "9");
    wait_for(&c, "state.size === 9", 20);

    // ---- a rule option changed in its input: the position judged again under it ----
    let komi0 = js(&c, "state.rules.komi").as_f64().unwrap_or(0.0);
    set_select(&c, "opt-komi", &format!("{}", komi0 + 1.25));
    ck.that_wait(
        &c,
        "a rule option changed: judged under it and marked changed from the preset",
        &format!(
            "state.rules.komi === {k} && state.setup.rules.komi === {k} && \
             document.getElementById('options-count').textContent.includes('1 changed') && \
             document.querySelector('#options label.changed #opt-komi') !== null",
            k = komi0 + 1.25
        ),
        20,
    );
    set_select(&c, "opt-komi", &format!("{komi0}"));
    wait_for(
        &c,
        &format!("state.rules.komi === {komi0} && document.getElementById('options-count').textContent === ''"),
        20,
    );

    // ---- bug 9: a PNG chosen as a record is refused as not text ----
    c.find("#record-file")
        .expect("file picker")
        .send_keys(&artifacts().join("serve-setup.png").display().to_string())
        .expect("choose");
    ck.that_wait(
        &c,
        "bug 9: a PNG is not a text record",
        "document.getElementById('error').textContent.includes('not a text file')",
        20,
    );

    // ---- bug 9: variations are reported ----
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))';",
        vec![],
    )
    .expect("js");
    click(&c, "#record-load");
    ck.that_wait(
        &c,
        "bug 9: an SGF's variations are named",
        "document.body.textContent.includes('variation')",
        20,
    );

    // ---- bug 6: the rules chosen are those of the mechanical replay ----
    choose_tool(&c, "black");
    set_select(&c, "preset", "dullstone");
    wait_for(
        &c,
        "document.getElementById('status').textContent === ''",
        60,
    );
    let mech = js(&c, "document.getElementById('mechanical').checked");
    if mech != true {
        click(&c, "#mechanical");
    }
    pick_file(&c, &kejie);
    wait_for(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 180);
    ck.that_wait(
        &c,
        "bug 6: replayed under dullstone",
        "document.getElementById('summary').textContent.includes('rules dullstone')",
        10,
    );
    // bug 5: browsing a record, a click on the board plays, never edits the position
    ck.that(
        "bug 5: the tool is play while browsing a record",
        js(
            &c,
            "document.querySelector('input[name=tool]:checked').value === 'play'",
        ),
    );
    set_select(&c, "preset", "m3go-2020");
    wait_for(&c, "document.getElementById('status').textContent === '' && document.getElementById('summary').textContent.includes('rules m3go-2020')", 180);

    // ---- bug 7: the same file picked again after a pasted record loads again ----
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee];W[cc])';",
        vec![],
    )
    .expect("js");
    click(&c, "#record-load");
    wait_for(&c, "/^move 0 of [1-9]\\b/.test(document.getElementById('record-status').textContent) && !document.getElementById('record-status').textContent.includes('of 289')", 60);
    pick_file(&c, &kejie);
    let again = wait_until(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 120);
    ck.that("bug 7: the same file picked again is loaded", again);
    if !again {
        c.execute("document.getElementById('record-text').value = arguments[0]; document.getElementById('record-load').click();", vec![serde_json::json!(kejie_text)]).expect("js");
        wait_for(
            &c,
            "document.getElementById('record-status').textContent.startsWith('move 0 of 289')",
            180,
        );
    }

    // ---- speed: one step at move 288, click to board ----
    // a cold step (nothing fetched ahead): from 283, a click on 288 in the move list
    go_to(&c, 283);
    std::thread::sleep(Duration::from_millis(1500));
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
        .map(|v| v.as_f64().unwrap_or(f64::MAX))
        .unwrap_or(f64::MAX);
    if cold < f64::MAX {
        eprintln!("a cold step, 283 to 288 by the move list (ms): {cold:.1}");
    } else {
        eprintln!("a cold step: the page has no move list");
    }
    // steps as a referee takes them, one look at the board between clicks: the moves either
    // side were fetched meanwhile
    go_to(&c, 283);
    let mut times = Vec::new();
    for to in 284..=288 {
        std::thread::sleep(Duration::from_millis(1500));
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
        ).expect("a timed step");
        times.push(ms.as_f64().unwrap_or(f64::MAX));
    }
    // measured and reported, never asserted: on a machine loaded by other work the times say
    // more about the machine than about the page, and a test must not fail on them
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let (median, worst) = (sorted[sorted.len() / 2], sorted[sorted.len() - 1]);
    eprintln!(
        "step click to board, moves 284..=288 (ms): {times:?}; median {median:.1}, slowest {worst:.1}"
    );
    std::fs::write(
        artifacts().join("step-ms.txt"),
        format!(
            "steps 284..=288 (ms): {times:?}\nmedian {median:.1}, slowest {worst:.1}\ncold step 283 to 288 (ms): {cold:.1}\n"
        ),
    )
    .expect("write step times");
    wait_for(&c, "document.getElementById('move').value === '289'", 60);
    let summary = text(&c, "#summary");
    assert!(summary.starts_with("19×19"), "{summary}");
    // 003: after 288, 「白棋串AD*有私眼BD，所以，中性花棋串AC*和OE*皆变为白性花棋串」
    let flower_at =
        |p: &str| format!("state.analysis.flowers.find((f) => f.points.includes('{p}')).attribute");
    assert_eq!(wait_for(&c, &flower_at("AC"), 5), "white");
    assert_eq!(wait_for(&c, &flower_at("OE"), 5), "white");
    let eyes = text(&c, "#eyes");
    assert!(eyes.contains("private eye BD"), "{eyes}");
    let log = text(&c, "#record-log");
    assert!(log.contains("288"), "{log}");
    ck.that(
        "markers differ by shape",
        js(
            &c,
            "document.querySelectorAll('#board .forbid-mark').length > 0",
        ),
    );
    ck.that("the move list highlights move 288", js(&c, "!!document.querySelector('#movelist .current[data-move=\"288\"]') && document.querySelectorAll('#movelist .mv').length === 289"));

    // ---- screenshots of 288 at 1400 and 420 px, light and dark ----
    for (w, h) in [(1400, 1000), (420, 900)] {
        for dark in [false, true] {
            emulate_dark(&c, dark);
            c.set_window_size(w, h).expect("window size");
            std::thread::sleep(Duration::from_millis(300));
            c.execute(
                "document.activeElement.blur(); window.scrollTo(0, 0); return 0",
                vec![],
            )
            .expect("scroll");
            let png = c.screenshot().expect("screenshot");
            let name = format!(
                "serve-kejie-288-{w}-{}.png",
                if dark { "dark" } else { "light" }
            );
            std::fs::write(artifacts().join(&name), png).expect("write screenshot");
            if dark {
                ck.that(&format!("dark mode at {w}"), js(&c, "(() => { const m = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return m[0] + m[1] + m[2] < 200; })()"));
            }
            if w == 420 {
                ck.that(
                    &format!("phone width, dark {dark}: no horizontal scrolling"),
                    js(
                        &c,
                        "document.documentElement.scrollWidth <= window.innerWidth",
                    ),
                );
                ck.that(&format!("phone width, dark {dark}: the board fully visible"), js(&c, "(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth && r.width > 300; })()"));
            } else {
                ck.that("wide: the trace and the analysis next to the board", js(&c, "(() => { const b = document.getElementById('board').getBoundingClientRect(); const t = document.getElementById('trace').getBoundingClientRect(); const s = document.getElementById('summary').getBoundingClientRect(); return t.left >= b.right && s.left >= b.right && t.top < b.bottom && s.top < window.innerHeight; })()"));
            }
        }
    }
    emulate_dark(&c, false);
    c.set_window_size(1500, 1300).expect("window size");

    // ---- move numbers on the stones ----
    if js(&c, "!!document.getElementById('numbers')") == true {
        click(&c, "#numbers");
        ck.that_wait(&c, "move numbers: 288 written on its stone", "[...document.querySelectorAll('#board text.move-number')].some((t) => t.textContent === '288')", 20);
        click(&c, "#numbers");
        wait_for(&c, "!document.querySelector('#board text.move-number')", 20);
    } else {
        ck.fail("move numbers: no option");
    }

    // ---- the move list: a click goes to that move ----
    if js(
        &c,
        "!!document.querySelector('#movelist .mv[data-move=\"100\"]')",
    ) == true
    {
        click(&c, "#movelist .mv[data-move='100']");
        ck.that_wait(&c, "the move list: a click goes to move 100", "document.getElementById('record-status').textContent.startsWith('move 100 of') && !!document.querySelector('#movelist .current[data-move=\"100\"]')", 30);
    } else {
        ck.fail("the move list: no move 100");
        go_to(&c, 100);
    }

    // ---- bug 3: rapid clicks are never lost ----
    go_to(&c, 100);
    for _ in 0..4 {
        click(&c, "#next");
    }
    ck.that_wait(&c, "bug 3: four quick clicks from 100 reach 104", "document.getElementById('record-status').textContent.startsWith('move 104 of') && document.getElementById('status').textContent === ''", 60);
    go_to(&c, 200);
    c.execute(
        "for (let k = 0; k < 5; k++) document.getElementById('next').click();",
        vec![],
    )
    .expect("clicks");
    ck.that_wait(&c, "bug 3: five clicks at once from 200 reach 205", "document.getElementById('record-status').textContent.startsWith('move 205 of') && document.getElementById('status').textContent === ''", 60);
    std::thread::sleep(Duration::from_millis(500));
    ck.that(
        "bug 3: and stay there",
        js(
            &c,
            "document.getElementById('record-status').textContent.startsWith('move 205 of')",
        ),
    );

    // ---- keyboard: real key events ----
    let body = c.find("body").expect("body");
    for (name, k, want) in [
        ("Right", key::RIGHT, 206),
        ("Left", key::LEFT, 205),
        ("PageDown", key::PAGE_DOWN, 215),
        ("PageUp", key::PAGE_UP, 205),
        ("End", key::END, 289),
        ("Home", key::HOME, 0),
    ] {
        body.send_keys(&k.to_string()).expect("a key");
        ck.that_wait(&c, &format!("keyboard: {name} goes to {want}"), &format!("document.getElementById('record-status').textContent.startsWith('move {want} of') && document.getElementById('status').textContent === ''"), 30);
    }
    // ---- keyboard (issue 40 item 4): the move list is one Tab stop, ↓ in it steps the board ----
    // from the control before the list (the step buttons are under the board, before the file input)
    c.execute("document.getElementById('record-load').focus()", vec![])
        .expect("focus");
    let mut stops = 0;
    for _ in 0..400 {
        let focused = c.active_element().expect("the focused element");
        focused.send_keys(&key::TAB.to_string()).expect("tab");
        if js(
            &c,
            "document.getElementById('movelist').contains(document.activeElement)",
        ) == true
        {
            stops += 1;
        } else if stops > 0 {
            break;
        }
    }
    ck.that(
        &format!("keyboard: the move list is one Tab stop ({stops} to cross it)"),
        stops == 1,
    );
    js(&c, "(document.querySelector('#movelist .mv[tabindex=\"0\"]') || document.querySelector('#movelist .mv')).focus()");
    for (name, k, want) in [("↓", key::DOWN, 1), ("↓", key::DOWN, 2), ("↑", key::UP, 1)] {
        let focused = c.active_element().expect("the focused element");
        focused.send_keys(&k.to_string()).expect("an arrow");
        ck.that_wait(&c, &format!("keyboard: {name} in the move list goes to move {want}, the focus on it"), &format!("document.getElementById('record-status').textContent.startsWith('move {want} of') && document.getElementById('status').textContent === '' && document.activeElement === document.querySelector('#movelist .current[data-move=\"{want}\"]')"), 30);
    }
    // an arrow on the focused tool radio never changes the tool
    choose_tool(&c, "play");
    c.execute(
        "document.querySelector('input[name=tool][value=play]').focus()",
        vec![],
    )
    .expect("focus the tool");
    let radio = c.active_element().expect("the focused element");
    radio.send_keys(&key::RIGHT.to_string()).expect("right");
    wait_for(
        &c,
        "document.getElementById('status').textContent === ''",
        30,
    );
    ck.that(
        "keyboard: → on the focused tool radio leaves the tool `play`",
        js(
            &c,
            "document.querySelector('input[name=tool]:checked').value === 'play'",
        ),
    );
    // `?` shows every key, the pass and undo keys among them; Escape closes it
    c.execute("document.activeElement.blur()", vec![])
        .expect("blur");
    body.send_keys("?").expect("?");
    ck.that_wait(&c, "keyboard: ? opens the help listing the pass and undo keys", "(() => { const h = document.getElementById('help'); if (!h || !h.open) return false; const rows = [...h.querySelectorAll('tr')].map((r) => r.textContent); return rows.some((r) => r.startsWith('p') && r.includes('pass')) && rows.some((r) => r.startsWith('u') && r.includes('undo')); })()", 10);
    let focused = c.active_element().expect("the focused element");
    focused.send_keys(&key::ESCAPE.to_string()).expect("escape");
    ck.that_wait(
        &c,
        "keyboard: Escape closes the help",
        "!document.getElementById('help').open",
        10,
    );
    // p passes, u undoes
    c.execute("document.activeElement.blur()", vec![])
        .expect("blur");
    let n = js(&c, "state.move");
    body.send_keys("p").expect("p");
    ck.that_wait(&c, "keyboard: p plays a pass", &format!("state.move === {n} + 1 && document.getElementById('report').textContent.includes('pass') && document.getElementById('status').textContent === ''"), 30);
    body.send_keys("u").expect("u");
    ck.that_wait(&c, "keyboard: u undoes it", &format!("state.move === {n} && document.getElementById('report').textContent === '' && document.getElementById('status').textContent === ''"), 30);
    // the board is reachable from the keyboard: focus it, move the cursor, press Enter
    choose_tool(&c, "explain");
    c.execute("document.getElementById('board').focus(); document.getElementById('trace').textContent = '';", vec![]).expect("focus");
    let board = c.active_element().expect("the focused element");
    board
        .send_keys(&format!("{}{}", key::RIGHT, key::ENTER))
        .expect("keys on the board");
    ck.that("keyboard: the board takes the focus", js(&c, "document.activeElement === document.getElementById('board') && document.getElementById('board').tabIndex >= 0"));
    ck.that_wait(
        &c,
        "keyboard: Enter on the board explains the cursor's point",
        "document.getElementById('trace').textContent.includes('一O')",
        30,
    );

    // ---- the stone preview on hover, and the hover label cleared when the pointer leaves ----
    go_to(&c, 288);
    choose_tool(&c, "play");
    let empty = js(&c, "state.analysis.legal_moves[0].split('.').pop()");
    let empty = empty.as_str().unwrap_or("").to_string();
    let rect = c
        .find(&format!("#board rect.point[data-point='{empty}']"))
        .expect("an empty point");
    c.hover(&rect).expect("hover");
    ck.that_wait(&c, "hover: the preview of the stone the schedule places next", "(() => { const p = document.querySelector('#board .preview'); return !!p && p.dataset.symbol === state.analysis.to_move.symbol; })()", 10);
    let away = c.find("#summary").expect("summary");
    c.hover(&away).expect("leave");
    ck.that_wait(&c, "bug 9: the hover label clears when the pointer leaves", "document.getElementById('hover').textContent === '' && !document.querySelector('#board .preview')", 10);

    // ---- bug 4 and 5: play 289..292, undo all four ----
    let status_288 = text(&c, "#record-status");
    for _ in 0..4 {
        let n = js(&c, "state.move");
        let mv = js(
            &c,
            "state.analysis.legal_moves.find((m) => !m.endsWith('pass')).split('.').pop()",
        );
        click_point_raw(&c, mv.as_str().unwrap_or(""));
        wait_for(
            &c,
            &format!("state.move !== {n} && document.getElementById('status').textContent === ''"),
            30,
        );
    }
    ck.that_wait(
        &c,
        "bug 4: the cascade of 292 is shown",
        "document.getElementById('report').textContent.includes('292')",
        10,
    );
    ck.that(
        &format!("bug 5: after playing, the status no longer says `{status_288}`"),
        js(
            &c,
            &format!(
                "document.getElementById('record-status').textContent !== {}",
                serde_json::json!(status_288)
            ),
        ),
    );
    undo(&c, 4);
    ck.that("bug 4: undone to 289", js(&c, "state.move === 289"));
    ck.that(
        "bug 4: the last move no longer shows 292's cascade",
        js(
            &c,
            "!document.getElementById('report').textContent.includes('292')",
        ),
    );

    // ---- bug 9: 003's 289..291; 黑291.七A captures 五O* and its cascade recomputes twice
    // (`m3go play` lists "GO-CASCADE: … recomputed" on two lines), shown once with its count ----
    for point in ["H九", "六三", "七A"] {
        let n = js(&c, "state.move");
        click_point_raw(&c, point);
        settled_after(&c, &n);
    }
    let lines = report_lines(&c);
    ck.that(
        &format!("bug 9: 黑291's two recomputations shown once, with their count {lines:?}"),
        lines.first().is_some_and(|l| l.contains("291"))
            && lines.windows(2).all(|w| w[0] != w[1])
            && lines.iter().any(|l| l.contains("recomputed (×2)")),
    );
    undo(&c, 3);
    ck.that("bug 9: undone to 289 again", js(&c, "state.move === 289"));

    // ---- the pass button ----
    if js(&c, "!!document.getElementById('pass')") == true {
        click(&c, "#pass");
        ck.that_wait(
            &c,
            "pass: a pass is played",
            "state.move === 290 && document.getElementById('report').textContent.includes('pass')",
            30,
        );
        click(&c, "#undo");
        wait_for(&c, "state.move === 289", 30);
    } else {
        ck.fail("pass: no button");
    }

    // ---- bug 5: a stray edit leaves the record, and says so ----
    go_to(&c, 288);
    choose_tool(&c, "black");
    click_point_raw(&c, &empty);
    wait_for(
        &c,
        "document.getElementById('status').textContent === ''",
        30,
    );
    ck.that("bug 5: an edit says the record is left", js(&c, LEFT_288));
    // and a failed load does not leave the old status
    go_to(&c, 288);
    c.execute(
        "document.getElementById('record-text').value = '(;GM[1]SZ[9];B[ee];W[ee]';",
        vec![],
    )
    .expect("js");
    click(&c, "#record-load");
    wait_for(&c, "!document.getElementById('error').hidden", 30);
    ck.that(
        "bug 5: a failed load is said in the status",
        js(&c, LEFT_288),
    );

    // ---- bug 9: game-file export of a replayed position; a failed export leaves no stale link ----
    go_to(&c, 288);
    c.execute(
        "document.querySelector('[data-export]').closest('details').open = true;",
        vec![],
    )
    .expect("open the export box");
    click(&c, "[data-export=game]");
    ck.that_wait(&c, "bug 9: the game file of a replayed position", "document.getElementById('error').hidden && document.getElementById('export-text').value.includes('288') && !document.getElementById('download').hidden", 30);
    // a successful export shows its link; then a failed one must not leave it
    click(&c, "[data-export=yaml]");
    wait_for(
        &c,
        "!document.getElementById('download').hidden && document.getElementById('download').download === 'position.yaml'",
        30,
    );
    c.execute(
        "state.setup = 'size: ['; document.querySelector('[data-export=yaml]').click();",
        vec![],
    )
    .expect("js");
    wait_for(&c, "!document.getElementById('error').hidden", 30);
    ck.that(
        "bug 9: a failed export hides the previous download link",
        js(&c, "document.getElementById('download').hidden"),
    );
    go_to(&c, 288);

    // ---- drag and drop of an SGF (a DataTransfer with the file) ----
    c.execute(
        "const dt = new DataTransfer(); dt.items.add(new File([arguments[0]], 'dropped.sgf', { type: 'application/x-go-sgf' }));
         document.getElementById('board').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));",
        vec![serde_json::json!("(;GM[1]SZ[9];B[ee];W[cc];B[gg])")],
    ).expect("drop");
    ck.that_wait(
        &c,
        "drag and drop: the dropped SGF is loaded",
        "document.getElementById('record-status').textContent.startsWith('move 0 of 3')",
        30,
    );

    // ---- the record's context: a match record's players, result and forfeit clause ----
    let forfeit =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/records/match-forfeit-suicide-5x5.sgf");
    pick_file(&c, &forfeit);
    wait_for(&c, "state.record.name === 'match-forfeit-suicide-5x5.sgf' && document.getElementById('record-status').textContent.startsWith('move 0 of 3') && document.getElementById('status').textContent === ''", 60);
    let info = text(&c, "#record-info");
    ck.that(
        &format!("record context: the players and the result show ({info})"),
        [
            "black: alice",
            "white: bob",
            "result: B+F",
            "event: m3go match",
        ]
        .iter()
        .all(|t| info.contains(t)),
    );
    go_to(&c, 3);
    let said = text(&c, "#comment");
    ck.that(
        &format!("record context: the forfeit shows at the last move ({said})"),
        said.contains("黑3.B一: scripted B一")
            && said.contains("bob (white) forfeits at move 4: illegal (suicide, GO-SUICIDE)")
            && said.contains("game: m3go: bob (white) forfeits"),
    );
    ck.that(
        "record context: the clause id stands out as a link to the clause",
        js(&c, "[...document.querySelectorAll('#comment button.clause-ref code')].map((e) => e.textContent).every((t) => t === 'GO-SUICIDE') && document.querySelectorAll('#comment button.clause-ref').length === 2"),
    );
    click(&c, "#comment button.clause-ref");
    ck.that_wait(
        &c,
        "record context: a click on the clause id shows the clause's quote",
        "!!document.querySelector('#clauses .clause[data-clause=\"GO-SUICIDE\"] .quote') && document.querySelector('#clauses .quote').textContent.length > 0 && document.getElementById('trace').textContent.includes('forfeits at move 4')",
        10,
    );
    c.screenshot()
        .map(|png| std::fs::write(artifacts().join("serve-record-context.png"), png))
        .expect("screenshot")
        .expect("write screenshot");
    go_to(&c, 1);
    let said = text(&c, "#comment");
    ck.that(
        &format!("record context: move 1 shows its own comment only ({said})"),
        said.contains("scripted A二") && !said.contains("forfeits"),
    );
    // comments and information come from programs: inserted as text, never as markup
    c.execute(
        "document.getElementById('record-text').value = arguments[0]; document.getElementById('record-load').click();",
        vec![serde_json::json!("(;GM[1]SZ[9]PB[<i>p</i>];B[ee]C[<img src=x onerror=\"document.body.dataset.injected=1\">])")],
    )
    .expect("js");
    wait_for(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 1') && document.getElementById('status').textContent === ''", 60);
    go_to(&c, 1);
    ck.that(
        "record context: markup in a comment is shown as text",
        js(&c, "document.querySelector('#comment img, #record-info i') === null && document.getElementById('comment').textContent.includes('<img src=x') && document.getElementById('record-info').textContent.includes('<i>p</i>') && document.body.dataset.injected === undefined"),
    );

    // ---- the URL restores the record's move after a reload, and a set-up position ----
    pick_file(&c, &kejie);
    wait_for(&c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 180);
    go_to(&c, 288);
    c.refresh().expect("reload");
    ck.that_wait(&c, "URL: the record's move 288 after a reload", "document.body.dataset.ready === '1' && document.getElementById('record-status').textContent.startsWith('move 288 of 289')", 180);
    // dead marks on a record's move travel in its link (dead=) and survive a reload
    wait_for(
        &c,
        "document.getElementById('board').dataset.analysed === '288' && state.analysis !== null",
        60,
    );
    let stone = js(
        &c,
        "state.analysis.upper_strings.find((s) => s.colour === 'black').points[0]",
    );
    let stone = stone.as_str().unwrap_or("OO").to_string();
    choose_tool(&c, "dead");
    click_point_raw(&c, &stone);
    ck.that_wait(
        &c,
        "dead marks on a record's move: in the link beside the record and its move",
        &format!("(state.setup.dead || []).includes('{stone}') && state.inRecord && location.hash.includes('record=') && location.hash.includes('dead=') && document.querySelectorAll('#board g.dead').length > 0"),
        30,
    );
    c.refresh().expect("reload");
    ck.that_wait(
        &c,
        "dead marks on a record's move: back after a reload",
        &format!("document.body.dataset.ready === '1' && document.getElementById('record-status').textContent.startsWith('move 288 of 289') && (state.setup.dead || []).includes('{stone}') && document.querySelectorAll('#board g.dead').length > 0"),
        180,
    );
    set_select(&c, "size", "9");
    choose_tool(&c, "white");
    click_point(&c, "OO");
    let yaml = js(&c, "JSON.stringify(state.setup)");
    c.refresh().expect("reload");
    ck.that_wait(
        &c,
        "URL: the set-up position after a reload",
        &format!("document.body.dataset.ready === '1' && JSON.stringify(state.setup) === {yaml}"),
        60,
    );

    // ---- accessible names and a visible focus ----
    let unnamed = js(&c, "[...document.querySelectorAll('button, input, select, textarea')].filter((e) => e.offsetParent !== null && !(e.getAttribute('aria-label') || (e.labels && e.labels.length) || e.textContent.trim() || e.title)).map((e) => e.outerHTML.slice(0, 80))");
    ck.that(
        &format!("accessible names: {unnamed}"),
        unnamed.as_array().is_some_and(|a| a.is_empty()),
    );
    // the file inputs (a record, a position) are told apart by their accessible names (aria-label
    // first, as assistive technology reads it)
    let names = js(&c, "[...document.querySelectorAll('input[type=file]')].map((e) => (e.getAttribute('aria-label') || (e.labels && e.labels.length ? e.labels[0].textContent : '')).trim())");
    let distinct = names.as_array().is_some_and(|a| {
        let mut v: Vec<String> = a.iter().map(|n| n.to_string()).collect();
        let n = v.len();
        v.sort();
        v.dedup();
        n >= 2 && v.len() == n
    });
    ck.that(
        &format!("distinct names of the file inputs: {names}"),
        distinct,
    );
    let body = c.find("body").expect("body");
    body.send_keys(&key::TAB.to_string()).expect("tab");
    ck.that("a visible focus", js(&c, "(() => { const s = getComputedStyle(document.activeElement); return document.activeElement !== document.body && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; })()"));

    // ---- links, the ruling, variations, the desktop fit and the rest of issue 40 (share.rs) ----
    share::share_checks(&c, &mut ck, &url, port, &chromium);
    // ---- the rules of every view from one source, the end of a game (ending.rs) ----
    ending::ending_checks(&c, &mut ck, &url);
    // ---- the dead stones the engine proposes when the scoring phase opens (proposal.rs) ----
    proposal::proposal_checks(&c, &mut ck);
    // ---- variations as a tree (variations.rs) ----
    variations::variation_checks(&c, &mut ck);
    // ---- the conventions of Sabaki and OGS (conventions.rs) ----
    conventions::conventions_checks(&c, &mut ck);
    // ---- the page without a CJK font, quiet steps, the end of a game's screenshot (reads.rs;
    // last: it leaves the session on the saved ruling's file) ----
    reads::reads_checks(&c, &mut ck, &url, &chromium, &driver);

    c.close().expect("close the session");
    let _ = std::fs::remove_dir_all(&profile);
    ck.done();
}
