//! The adjudication page (`m3go serve`) in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) by fantoccini. Loads the page, places stones by clicking and sees
//! the analysis update (a private eye made, a flower attribute changed), clicks a point and reads
//! its clause trace with the clause's quote, switches layers, asks for the readings, plays a
//! move, loads Ke Jie vs AlphaGo game 1 through the file picker and steps the mechanical replay to
//! move 288, and keeps screenshots under target/browser/.
//!
//! Runs when `chromium` and `chromedriver` are installed (Debian: `apt-get install chromium
//! chromium-driver`); otherwise it prints a notice and passes, unless `M3GO_BROWSER_REQUIRED=1`
//! (set by .ci/run), when a missing browser fails it.

use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_m3go"))
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

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
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

    // the Ke Jie record through the file picker, mechanical replay, stepped to move 288
    c.find(Locator::Css("#mechanical"))
        .await
        .expect("mechanical")
        .click()
        .await
        .expect("click");
    let sgf = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/records/kejie-alphago-2017-g1.sgf");
    c.find(Locator::Css("#record-file"))
        .await
        .expect("file picker")
        .send_keys(&sgf.display().to_string())
        .await
        .expect("choose the file");
    wait_for(
        &c,
        "document.getElementById('record-status').textContent.startsWith('move 0 of')",
        120,
    )
    .await;
    let to = c.find(Locator::Css("#record-to")).await.expect("move box");
    to.clear().await.expect("clear");
    to.send_keys("287").await.expect("type");
    c.find(Locator::Css("#record-go"))
        .await
        .expect("go")
        .click()
        .await
        .expect("click");
    wait_for(
        &c,
        "document.getElementById('record-status').textContent.startsWith('move 287 of')",
        120,
    )
    .await;
    c.find(Locator::Css("#next"))
        .await
        .expect("next")
        .click()
        .await
        .expect("click");
    wait_for(
        &c,
        "document.getElementById('record-status').textContent.startsWith('move 288 of')",
        120,
    )
    .await;
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
    c.execute(
        "document.activeElement.blur(); window.scrollTo(0, 0); return 0",
        vec![],
    )
    .await
    .expect("scroll to the top");
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join("serve-kejie-288.png"), png).expect("write screenshot");
    c.close().await.expect("close the session");
    let _ = std::fs::remove_dir_all(&profile);
}
