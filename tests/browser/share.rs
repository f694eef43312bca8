//! The page's checks of issue 40 items 1, 3 and 4 (the rest): a record link opened in a fresh
//! browser profile, a link pasted into an open tab, the URL after pass and undo, back and
//! forward, the record too large for a link, the ruling saved and loaded back, variations
//! browsable, the Go-only note of a mechanical replay, a game file through the record input, the
//! desktop fit at 1366×768 and 1400×900, the legend at 420 px, the cursor's live region, the
//! "confirm moves" setting and the message for `{{{`. Each failed on the page before. The
//! position in a ruling and in a link is its JSON object (packed in a link).

use super::{
    click, click_point, go_to, js, pick_file, set_select, wait_for, wait_until, Checks, Client,
};
use std::path::Path;
use std::time::Duration;

/// The page's state after a record's move is shown and analysed: the figure (without the
/// keyboard cursor), the analysis and the score line, to compare two sessions by.
const VIEW: &str = "JSON.stringify([(() => { const s = document.querySelector('#board svg').cloneNode(true); for (const e of s.querySelectorAll('.cursor, .preview')) e.remove(); return s.outerHTML; })(), state.analysis, (document.getElementById('score-line') || {}).textContent])";

/// Whether the page shows move `n` of the record, analysed, with nothing pending.
fn at_move(n: u32) -> String {
    format!("document.getElementById('record-status').textContent.startsWith('move {n} of') && document.getElementById('board').dataset.analysed === '{n}' && document.getElementById('status').textContent === '' && !!document.getElementById('score-line')")
}

/// Opens a WebDriver session with a profile of its own (nothing of another session's storage):
/// the page test's first session, and the fresh profiles that open a copied link.
pub(crate) fn fresh_session(port: u16, chromium: &Path, profile: &Path, size: &str) -> Client {
    let caps = serde_json::json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                format!("--window-size={size}"),
                format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    Client::new(&format!("http://127.0.0.1:{port}"), caps).expect("a WebDriver session")
}

fn load_kejie(c: &Client, kejie: &Path) {
    c.execute(
        "document.getElementById('mechanical').checked = true;",
        vec![],
    )
    .expect("js");
    pick_file(c, kejie);
    wait_for(c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === ''", 180);
}

/// Everything of this module, on the page `url` of session `c` (driver at `port`).
pub fn share_checks(c: &Client, ck: &mut Checks, url: &str, port: u16, chromium: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kejie = root.join("spec/records/kejie-alphago-2017-g1.sgf");
    let out = super::artifacts();
    c.set_window_size(1500, 1300).expect("window size");

    // ---- item 1: a record link opened in a fresh profile shows the same board and score ----
    load_kejie(c, &kejie);
    ck.that(
        "Ke Jie, mechanical: the page says what the replay does not use of the Go record (KM, RE), as the CLI does",
        js(c, "(() => { const t = document.getElementById('notice').textContent; return t.includes('KM[7.5]') && t.includes('RE[W+0.5]') && t.includes('do not hold for the three-colour game'); })()"),
    );
    go_to(c, 288);
    wait_until(c, &at_move(288), 120);
    let link = js(c, "location.href").as_str().unwrap_or("").to_string();
    let boards288 = js(c, "JSON.stringify(state.analysis.boards)");
    let view = js(c, VIEW);
    eprintln!(
        "the Ke Jie link at move 288: {} characters (Chromium opens URLs of up to 2 MB)",
        link.len()
    );
    ck.that(
        &format!(
            "the Ke Jie link carries the record and fits a URL ({} characters)",
            link.len()
        ),
        link.contains("data=") && link.len() < 2 * 1024 * 1024,
    );
    let profile2 = std::env::temp_dir().join(format!("m3go-browser-2-{}", std::process::id()));
    let c2 = fresh_session(port, chromium, &profile2, "1500,1300");
    c2.goto(&link).expect("open the link");
    let shown = wait_until(
        &c2,
        &format!("document.body.dataset.ready === '1' && {}", at_move(288)),
        180,
    );
    ck.that(
        "a link opened in a fresh profile shows the record's move 288",
        shown,
    );
    ck.that_eq(
        "a link opened in a fresh profile: the same figure, analysis and score",
        &js(&c2, VIEW),
        &view,
    );
    // a link naming a record it does not carry says so, and how to open the file
    c2.goto(&format!("{url}#record=elsewhere.sgf&at=3"))
        .expect("open the link");
    ck.that_wait(
        &c2,
        "a link naming a record it does not carry: a message with the limit and the file input",
        "document.body.dataset.ready === '1' && document.getElementById('notice').textContent.includes('does not carry it') && document.getElementById('notice').textContent.includes('64 K') && document.activeElement === document.getElementById('record-file')",
        60,
    );
    c2.close().expect("close the second session");
    let _ = std::fs::remove_dir_all(&profile2);

    // ---- a link pasted into the open tab takes effect; pass then undo; back and forward ----
    let hash288 = js(c, "location.hash");
    go_to(c, 5);
    c.execute("location.hash = arguments[0];", vec![hash288.clone()])
        .expect("paste the link");
    ck.that_wait(
        c,
        "a link pasted into the open tab (hashchange) shows its move",
        &at_move(288),
        120,
    );
    click(c, "#pass");
    ck.that_wait(
        c,
        "after a pass from move 288, the link names the record, the move and the pass",
        "!state.inRecord && document.getElementById('status').textContent === '' && location.hash.includes('at=288') && location.hash.includes('moves=')",
        60,
    );
    click(c, "#undo");
    ck.that_wait(
        c,
        "after pass then undo, the URL is the move 288 view again",
        &format!(
            "state.inRecord && document.getElementById('status').textContent === '' && location.hash === {hash288}"
        ),
        60,
    );
    go_to(c, 100);
    c.execute("history.back();", vec![]).expect("back");
    ck.that_wait(c, "back returns to move 288", &at_move(288), 120);
    c.execute("history.forward();", vec![]).expect("forward");
    ck.that_wait(c, "forward returns to move 100", &at_move(100), 120);
    go_to(c, 288);
    wait_until(c, &at_move(288), 120);

    // ---- item 4: the desktop fit, the legend on a phone, the cursor's live region ----
    for (w, h) in [(1366u32, 768u32), (1400, 900)] {
        c.set_window_size(w, h).expect("window size");
        std::thread::sleep(Duration::from_millis(400));
        let fit = js(c, "(() => { scrollTo(0, 0); const H = innerHeight; const b = (s) => document.querySelector(s).getBoundingClientRect().bottom; return [b('#board svg'), b('#next'), b('#record-status'), b('#tomove'), H]; })()");
        let ok = fit.as_array().is_some_and(|a| {
            let h = a[4].as_f64().unwrap_or(0.0);
            a[..4]
                .iter()
                .all(|v| v.as_f64().is_some_and(|x| x > 0.0 && x <= h))
        });
        ck.that(
            &format!("at {w}×{h} the board, the step buttons and the current move fit without scrolling (bottoms of svg, next, status, to-move, window: {fit})"),
            ok,
        );
    }
    c.set_window_size(420, 900).expect("window size");
    std::thread::sleep(Duration::from_millis(400));
    let legend = js(c, "(() => { const svg = document.querySelector('#board svg'); const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; const inSvg = [...svg.querySelectorAll('text.legend')].filter((t) => t.getBoundingClientRect().width > 0).map((t) => parseFloat(getComputedStyle(t).fontSize) * k); const html = [...document.querySelectorAll('#legend li')].filter((e) => e.offsetParent !== null).map((e) => parseFloat(getComputedStyle(e).fontSize)); return [inSvg, html]; })()");
    let readable = legend.as_array().is_some_and(|a| {
        let sizes: Vec<f64> = a
            .iter()
            .flat_map(|l| l.as_array().cloned().unwrap_or_default())
            .filter_map(|v| v.as_f64())
            .collect();
        sizes.len() >= 3 && sizes.iter().all(|&s| s >= 11.0)
    });
    ck.that(
        &format!("at 420 px the figure's legend is readable, ≥ 11 px (svg, list: {legend})"),
        readable,
    );
    c.set_window_size(1500, 1300).expect("window size");
    c.execute("document.getElementById('board').focus();", vec![])
        .expect("focus");
    let body = c.active_element().expect("board");
    body.send_keys(&super::key::LEFT.to_string()).expect("key");
    ck.that_wait(
        c,
        "the cursor's live region says what is on the point (stone, empty, eye, forbidden), not only its name",
        "/, (black stone|white stone|flower|empty)/.test(document.getElementById('hover').textContent)",
        10,
    );

    // ---- item 1: the ruling, saved as one HTML file, opened offline, loaded back ----
    c.execute("document.getElementById('target').value = 'OO'; document.getElementById('explain-btn').click();", vec![]).expect("explain");
    wait_until(c, "document.querySelector('#clauses .clause') !== null", 30);
    let setup = js(c, "JSON.stringify(state.setup)");
    let score = js(c, "document.getElementById('score-line').textContent");
    js(
        c,
        "document.getElementById('save-ruling').closest('details').open = true",
    );
    let saved = c.find("#save-ruling").and_then(|b| b.click()).is_ok()
        && wait_until(c, "!document.getElementById('download').hidden && document.getElementById('download').download.endsWith('.html')", 30);
    ck.that("one action saves the ruling as an HTML file", saved);
    let html = c
        .execute_async(
            "const done = arguments[0]; const a = document.getElementById('download'); a.href ? fetch(a.href).then((r) => r.text()).then(done, () => done('')) : done('');",
            vec![],
        )
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let version = js(c, "state.options.version");
    ck.that(
        "the ruling holds the figure, the verdict with its clause, the score, the rules and the version",
        html.contains("<svg")
            && html.contains("class=\"clause\"")
            && html.contains(score.as_str().unwrap_or("?"))
            && html.contains("m3go-2020")
            && version.as_str().is_some_and(|v| html.contains(&format!("m3go {v}"))),
    );
    let file = out.join("m3go-ruling.html");
    std::fs::write(&file, &html).expect("write the ruling");
    c.goto(&format!("file://{}", file.display()))
        .expect("open the ruling");
    ck.that(
        "the ruling opens offline: its figure drawn, nothing fetched",
        js(c, "document.querySelector('figure svg rect.point') !== null && performance.getEntriesByType('resource').length === 0"),
    );
    c.goto(url).expect("back to the page");
    wait_for(c, "document.body.dataset.ready === '1'", 60);
    c.find("#position-file")
        .expect("position input")
        .send_keys(&file.display().to_string())
        .expect("choose the ruling");
    ck.that_wait(
        c,
        "the ruling loads back through “open a position”: the same position and score",
        &format!("JSON.stringify(JSON.parse(document.getElementById('position-text').value)) === {setup} && JSON.stringify(state.analysis.boards) === {boards288} && document.getElementById('score-line') && document.getElementById('score-line').textContent === {score}"),
        60,
    );

    // ---- item 3: variations browsable; a game file loads like an SGF ----
    let sgf = "(;GM[1]SZ[9];B[ee];W[dd](;B[cc];W[gg])(;B[cg]))";
    c.execute("document.getElementById('mechanical').checked = true; document.getElementById('record-text').value = arguments[0]; document.getElementById('record-load').click();", vec![serde_json::json!(sgf)]).expect("js");
    wait_for(c, "document.getElementById('record-status').textContent.startsWith('move 0 of 4') && document.getElementById('status').textContent === ''", 60);
    ck.that(
        "variations: a chooser lists the main line and the variation",
        js(c, "!document.getElementById('lines-box').hidden && document.getElementById('lines').options.length === 2"),
    );
    if js(c, "!!document.getElementById('lines')") == true {
        set_select(c, "lines", "1");
        ck.that_wait(
            c,
            "variations: the variation chosen is replayed (3 moves, its last B[cg])",
            "document.getElementById('record-status').textContent.startsWith('move 0 of 3') && state.record.name.includes('variation 1') && document.getElementById('status').textContent === ''",
            60,
        );
    }
    let game = std::env::temp_dir().join(format!("m3go-kejie-{}.txt", std::process::id()));
    let saved = std::process::Command::new(env!("CARGO_BIN_EXE_m3go"))
        .args(["replay", "--mechanical", "--quiet", "--save"])
        .arg(&game)
        .arg(&kejie)
        .output()
        .expect("m3go replay --save");
    assert!(saved.status.success(), "{saved:?}");
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
    pick_file(c, &game);
    let loaded = wait_until(c, "document.getElementById('record-status').textContent.startsWith('move 0 of 289') && document.getElementById('status').textContent === '' && state.record.name.endsWith('.txt')", 180);
    ck.that(
        "a game file (move-number form) loads through the record input",
        loaded,
    );
    if loaded {
        go_to(c, 288);
        wait_until(c, &at_move(288), 120);
        ck.that(
            "the game file's move 288 is the SGF's (its mechanical replay)",
            js(c, "JSON.stringify(state.analysis.boards)") == boards288,
        );
    }
    let _ = std::fs::remove_file(&game);

    // ---- a record too large for a link: said, with the limit ----
    c.execute("const b = new Uint8Array(110000); for (let k = 0; k < b.length; k += 65536) crypto.getRandomValues(b.subarray(k, k + 65536)); const t = btoa(String.fromCharCode(...b.subarray(0, 60000))) + btoa(String.fromCharCode(...b.subarray(60000))); document.getElementById('mechanical').checked = true; document.getElementById('record-text').value = '(;GM[1]SZ[9]C[' + t + '];B[ee])'; document.getElementById('record-load').click();", vec![]).expect("js");
    let big = wait_until(c, "document.getElementById('record-status').textContent.startsWith('move 0 of 1') && document.getElementById('status').textContent === ''", 60);
    ck.that(
        "a record too large for a link: the page says so with the limit, and its link names it without carrying it",
        big && js(c, "document.getElementById('notice').textContent.includes('more than a link carries (64 K)') && location.hash.includes('record=') && !location.hash.includes('data=')") == true,
    );

    // ---- item 4: confirm moves; `{{{` as a position ----
    set_select(c, "size", "9");
    let confirm = c.find("#confirm-moves").and_then(|e| e.click()).is_ok();
    super::choose_tool(c, "play");
    let before = js(c, "state.analysis.move");
    if confirm {
        c.find("#board rect.point[data-point='OO']")
            .and_then(|e| e.click())
            .expect("tap");
        std::thread::sleep(Duration::from_millis(300));
    }
    ck.that(
        "confirm moves: a first tap selects the point and plays nothing",
        confirm
            && js(c, "state.analysis.move") == before
            && js(c, "document.querySelector(\"#board rect.point.pending[data-point='OO']\") !== null && !document.getElementById('confirm-play').hidden") == true,
    );
    if confirm {
        click_point(c, "OO");
        ck.that_wait(
            c,
            "confirm moves: a second tap on the point plays it",
            "state.played.length === 1",
            30,
        );
        c.find("#confirm-moves")
            .and_then(|e| e.click())
            .expect("confirm off");
    }
    // back to the record loaded before, then forward to the position played: a position's view
    // leaves the record (its URL is the position's, not the record's)
    c.execute("history.go(-2);", vec![]).expect("back");
    ck.that_wait(
        c,
        "back from a position set up returns to the record loaded before it",
        "state.inRecord && document.getElementById('status').textContent === '' && location.hash.includes('record=')",
        60,
    );
    c.execute("history.go(2);", vec![]).expect("forward");
    ck.that_wait(
        c,
        "forward from a record to a position played: the position (its JSON packed in the link), out of the record",
        "!state.inRecord && state.analysis.move === 2 && /^#position=[A-Za-z0-9_-]+(&|$)/.test(location.hash) && document.getElementById('status').textContent === ''",
        60,
    );
    c.execute("document.getElementById('position-text').value = '{{{'; document.getElementById('position-load').click();", vec![]).expect("js");
    ck.that_wait(
        c,
        "`{{{` as a position: the message names the line and what a field name is, not serde's bare words",
        "(() => { const t = document.getElementById('error-text').textContent; return t.includes('line 1') && t.includes('field name') && !t.includes('expected field identifier'); })()",
        30,
    );
    let bad = std::env::temp_dir().join(format!("m3go-bad-{}.yaml", std::process::id()));
    std::fs::write(&bad, "{{{").expect("write");
    c.find("#position-file")
        .expect("position input")
        .send_keys(&bad.display().to_string())
        .expect("choose");
    ck.that_wait(
        c,
        "`{{{` in a position file: the message names the file",
        &format!(
            "document.getElementById('error-text').textContent.includes({})",
            serde_json::json!(bad.file_name().unwrap().to_string_lossy())
        ),
        30,
    );
    let _ = std::fs::remove_file(&bad);
    c.execute("document.getElementById('error-close').click();", vec![])
        .expect("close the error");
}
