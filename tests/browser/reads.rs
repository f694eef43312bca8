//! The page's checks of issue 54's finding 9 not in ending.rs: the page read without a CJK font
//! (a second Chromium whose fontconfig holds none: the coordinates, the stones' symbols and the
//! page's own labels drawn from the page's subset font, the note on the quoted rule texts), a
//! step announced by no live region (only a wait longer than a moment is), the messages of one
//! pasted link gone at the next, the cursor's description of a stone marked dead, the figure's
//! legend inside the figure on 9×9 and 5×5, the ruling in dark mode; and the screenshot of the
//! end of a game (the Ke Jie record's scoring phase at 1366×768, docs/screenshots.sh). The checks
//! of the font, the legend without a CJK font and the steps' live regions failed on the page
//! before; the others hold the fixes of the earlier round.

use super::{click, go_to, js, wait_for, wait_until, Checks, Client};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The CJK characters of the texts of `sel` as laid out in the page: each drawn a full em wide
/// (a CJK glyph), not as the fallback's narrower empty box (Chromium draws text laid out before
/// a web font arrived with the box for good: the width of each character's range in place, in
/// the element's em, scaled as the figure is).
const DRAWN: &str = "((sel) => { const bad = []; let seen = 0; for (const e of document.querySelectorAll(sel)) { const svg = e.ownerSVGElement; const k = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1; const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); for (let t = walk.nextNode(); t; t = walk.nextNode()) { if (!t.parentElement.getClientRects().length) continue; const em = parseFloat(getComputedStyle(t.parentElement).fontSize) * k; for (let i = 0; i < t.data.length; i++) { if (!/[\\u4e00-\\u9fff]/.test(t.data[i])) continue; const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1); const w = r.getBoundingClientRect().width; seen += 1; if (w < 0.9 * em) bad.push(t.data[i] + ' ' + w.toFixed(1) + '/' + em.toFixed(1)); } } } return { seen, bad: bad.join(', ') }; })";

/// The figure's legend texts: their count, the figure's width and height, and the boxes of
/// those outside it.
fn legend_outside(c: &Client) -> Value {
    js(c, "(() => { const s = document.querySelector('#board svg'); const v = s.viewBox.baseVal; const t = [...s.querySelectorAll('text.legend')]; return [t.length, v.width, v.height, t.map((e) => e.getBBox()).filter((b) => b.x < 0 || b.y < 0 || b.x + b.width > v.width + 0.5 || b.y + b.height > v.height + 0.5).map((b) => [b.x, b.y, b.width, b.height].map(Math.round))]; })()")
}

/// Everything of this module, on the page `url` of session `c` (chromium: the browser, for the
/// session without a CJK font; driver: chromedriver).
pub fn reads_checks(c: &Client, ck: &mut Checks, url: &str, chromium: &Path, driver: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kejie = root.join("spec/records/kejie-alphago-2017-g1.sgf");
    c.set_window_size(1500, 1300).expect("window size");
    c.goto(url).expect("the page");
    wait_for(c, "document.body.dataset.ready === '1'", 60);
    // the note as the machine's fontconfig has a CJK font or not (CI installs one with chromium)
    if let Ok(out) = Command::new("fc-list").arg(":lang=zh").output() {
        let has = !out.stdout.is_empty();
        ck.that_eq(
            "the note about the rule texts shown only without a CJK font on the machine (fc-list :lang=zh)",
            &js(c, "!document.getElementById('cjk-note').hidden"),
            &Value::Bool(!has),
        );
    }
    no_cjk(ck, url, chromium, driver);
    stale_messages(c, ck, &kejie);
    quiet_steps(c, ck, &kejie);
    finished_5x5(c, ck);
    end_of_game(c, ck, &kejie);
    ruling_dark(c, ck);
}

/// Finding 9: the ruling saved (one HTML file) follows dark mode: its page dark, its figure
/// dimmed as the page's.
fn ruling_dark(c: &Client, ck: &mut Checks) {
    let html = super::exported(
        c,
        "document.getElementById('save-ruling')",
        "<!doctype html>",
        30,
    );
    let html = html.as_str();
    let path = super::artifacts().join("ruling-dark.html");
    std::fs::write(&path, html).expect("the ruling");
    super::emulate_dark(c, true);
    c.goto(&format!("file://{}", path.display()))
        .expect("open the ruling");
    ck.that_wait(
        c,
        "finding 9: the ruling in dark mode: a dark page, the figure dimmed",
        "(() => { const m = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); const f = document.querySelector('figure svg'); return m[0] + m[1] + m[2] < 200 && !!f && getComputedStyle(f).filter !== 'none'; })()",
        10,
    );
    super::emulate_dark(c, false);
}

/// The page in a Chromium whose fontconfig knows no CJK font (FONTCONFIG_FILE, read by the
/// browser that chromedriver starts): the figure's coordinates, the stones' symbols and the
/// page's labels are drawn (wider than the empty box), from the page's own font; the note says
/// the quoted rule texts need one.
fn no_cjk(ck: &mut Checks, url: &str, chromium: &Path, driver: &Path) {
    let dir = super::artifacts().join("no-cjk");
    let _ = std::fs::remove_dir_all(&dir);
    let fonts = dir.join("fonts");
    std::fs::create_dir_all(&fonts).expect("the font folder");
    // the Latin fonts only: Debian's DejaVu when there (chromium brings it), else none at all
    for f in [
        "DejaVuSans.ttf",
        "DejaVuSansMono.ttf",
        "DejaVuSans-Bold.ttf",
    ] {
        let from = Path::new("/usr/share/fonts/truetype/dejavu").join(f);
        if from.is_file() {
            let _ = std::fs::copy(&from, fonts.join(f));
        }
    }
    let conf = dir.join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig><dir>{}</dir><cachedir>{}</cachedir></fontconfig>\n",
            fonts.display(),
            dir.join("cache").display()
        ),
    )
    .expect("fonts.conf");
    let port = super::free_port();
    let mut child = Command::new(driver)
        .arg(format!("--port={port}"))
        .env("FONTCONFIG_FILE", &conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let until = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = dir.join("profile");
    let c = super::share::fresh_session(port, chromium, &profile, "1400,900");
    c.goto(url).expect("the page");
    wait_for(&c, "document.body.dataset.ready === '1'", 60);
    // a move played: the stone's symbol in the cascade and in "to play"
    super::choose_tool(&c, "play");
    super::click_point(&c, "OA");
    wait_until(
        &c,
        "document.getElementById('report').textContent.includes('黑1')",
        30,
    );
    ck.that(
        "no CJK font: the machine has none (the check's own premise: 规 drawn as the empty box)",
        js(&c, "(() => { const c = document.createElement('canvas').getContext('2d'); c.font = '40px sans-serif'; return Math.abs(c.measureText('规').width - c.measureText('\\u{10FFFD}').width) < 0.5; })()"),
    );
    let drawn = js(
        &c,
        &format!("{DRAWN}('#board svg text, #layers button, header h1, #report li, #tomove')"),
    );
    ck.that(
        &format!("no CJK font: the coordinates, the stones' symbols and the page's labels are drawn, not empty boxes ({drawn})"),
        drawn["seen"].as_u64().is_some_and(|n| n >= 15) && drawn["bad"] == "",
    );
    ck.that(
        "no CJK font: the page's own font is loaded",
        js(&c, "document.fonts.check('40px m3go-cjk', '黑白华花一九') && [...document.fonts].some((f) => f.family.replace(/\"/g, '') === 'm3go-cjk' && f.status === 'loaded')"),
    );
    ck.that(
        "no CJK font: a note says the quoted rule texts need one",
        js(&c, "!document.getElementById('cjk-note').hidden && document.getElementById('cjk-note').textContent.includes('rule texts')"),
    );
    if let Ok(png) = c.screenshot() {
        let _ = std::fs::write(super::artifacts().join("serve-no-cjk.png"), png);
    }
    // the Latin fallback is wider than a CJK font's Latin: the legend of a small board held
    for size in ["9", "5"] {
        super::set_select(&c, "size", size);
        let out = legend_outside(&c);
        ck.that(
            &format!("no CJK font: on {size}×{size} the figure's legend lies inside the figure (legend texts, the figure's width and height, those outside: {out})"),
            out[0].as_u64().is_some_and(|n| n >= 5) && out[3].as_array().is_some_and(|a| a.is_empty()),
        );
    }
    let _ = c.close();
    let _ = child.kill();
    let _ = child.wait();
}

/// Finding 9: a link pasted into the tab leaves no message of the view before (the record's KM
/// note, a broken link's error).
fn stale_messages(c: &Client, ck: &mut Checks, kejie: &Path) {
    super::set_select(c, "size", "9");
    super::choose_tool(c, "white");
    super::click_point(c, "OO");
    let position = js(c, "location.hash");
    super::ending::open_record(c, kejie, true);
    wait_until(
        c,
        "document.getElementById('notice').textContent.includes('KM[')",
        30,
    );
    go_to(c, 10);
    let record = js(c, "location.hash");
    c.execute("location.hash = arguments[0];", vec![position])
        .expect("paste");
    ck.that_wait(
        c,
        "finding 9: a position's link pasted after a record's: the record's note is gone",
        "!state.inRecord && state.size === 9 && document.getElementById('status').textContent === '' && document.getElementById('notice').textContent === '' && document.getElementById('error').hidden",
        60,
    );
    c.execute("location.hash = '#position=zzzzz';", vec![])
        .expect("paste");
    wait_until(c, "!document.getElementById('error').hidden", 30);
    c.execute("location.hash = arguments[0];", vec![record])
        .expect("paste");
    ck.that_wait(
        c,
        "finding 9: a record's link pasted after a broken one: the error is gone",
        "document.getElementById('record-status').textContent.startsWith('move 10 of') && document.getElementById('status').textContent === '' && document.getElementById('error').hidden",
        120,
    );
}

/// Finding 9: a step is announced by no live region ("analysing move N…" was said at every
/// step); the record's status, a live region, names the move; a wait longer than a moment is
/// said.
fn quiet_steps(c: &Client, ck: &mut Checks, kejie: &Path) {
    super::ending::open_record(c, kejie, true);
    go_to(c, 200);
    c.execute(
        "window.said = []; const live = () => [...document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]')]; window.saying = new MutationObserver(() => { for (const e of live()) if (e.textContent && !window.said.includes(e.textContent)) window.said.push(e.textContent); }); window.saying.observe(document.body, { subtree: true, childList: true, characterData: true });",
        vec![],
    )
    .expect("observe the live regions");
    for n in 201..=204 {
        click(c, "#next");
        wait_until(
            c,
            &format!("document.getElementById('board').dataset.analysed === '{n}' && document.getElementById('status').textContent === ''"),
            60,
        );
    }
    let said = js(c, "window.said");
    let texts: Vec<&str> = said
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    ck.that(
        &format!("finding 9: a step is said by no live region but the record's status: {texts:?}"),
        !texts.is_empty()
            && texts
                .iter()
                .all(|t| !t.contains("analysing") && !t.ends_with('…'))
            && texts.iter().any(|t| t.starts_with("move 204 of")),
    );
    c.execute("window.saying.disconnect();", vec![])
        .expect("js");
    // a wait longer than a moment is said (the status line's text, in the live region)
    let said = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; import('/api.js').then((m) => { m.busy('a long wait…'); setTimeout(() => { const t = document.getElementById('announce').textContent; m.busy(''); done(t); }, 1600); }, (e) => done(String(e)));",
            vec![],
        )
        .unwrap_or(Value::Null);
    ck.that_eq(
        "finding 9: a wait longer than a moment is said",
        &said,
        &Value::from("a long wait…"),
    );
}

/// Waits until the scoring phase is open and the engine's proposal of dead stones, when there
/// is one, is marked: the board is redrawn with it, so a point found before would go stale.
fn proposal_settled(c: &Client) {
    wait_until(
        c,
        "state.scoring === 'marking' && document.getElementById('status').textContent === '' && ((state.proposal || []).flat().length === 0 || (state.setup.dead || []).length > 0)",
        30,
    );
}

/// Finding 9: on the 5×5 finished game, the cursor on a stone marked dead says so (and "1
/// stone"), and the figure's legend lies inside the figure.
fn finished_5x5(c: &Client, ck: &mut Checks) {
    let game = super::artifacts().join("finished-game-5x5.sgf");
    std::fs::write(&game, super::ending::FINISHED).expect("the game");
    if !super::ending::open_record(c, &game, false) {
        return ck.fail("finding 9: the 5×5 finished game is replayed");
    }
    go_to(c, 4);
    proposal_settled(c);
    super::click_point_raw(c, "A一");
    wait_until(
        c,
        "(state.setup.dead || []).includes('A一') && document.getElementById('status').textContent === ''",
        20,
    );
    let said = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; import('/board.js').then((m) => { m.placeCursor('A一'); done(document.getElementById('hover').textContent); }, (e) => done(String(e)));",
            vec![],
        )
        .unwrap_or(Value::Null);
    let said = said.as_str().unwrap_or("");
    ck.that(
        &format!("finding 9: the cursor on a stone marked dead says so, 1 stone in the singular ({said})"),
        said.contains("marked dead") && said.contains("(1 stone,"),
    );
    let out = legend_outside(c);
    ck.that(
        &format!("finding 9: on 5×5 the figure's legend lies inside the figure (legend texts, the figure's width and height, those outside: {out})"),
        out[0].as_u64().is_some_and(|n| n >= 5) && out[3].as_array().is_some_and(|a| a.is_empty()),
    );
}

/// The end of a game for the README (docs/screenshots.sh): the Ke Jie record's mechanical replay
/// at its last move, passed until the game is over, a string marked dead, at 1366×768.
fn end_of_game(c: &Client, ck: &mut Checks, kejie: &Path) {
    if !super::ending::open_record(c, kejie, true) {
        return ck.fail("end of a game: the Ke Jie record is replayed");
    }
    let last = js(c, "state.record.last").as_u64().unwrap_or(289) as u32;
    go_to(c, last);
    for _ in 0..4 {
        if js(c, "state.analysis.game_over") == true {
            break;
        }
        let n = js(c, "state.move");
        click(c, "#pass");
        super::settled_after(c, &n);
    }
    // beside the engine's proposal, the smallest white string it does not propose marked dead
    proposal_settled(c);
    let before = js(c, "(state.setup.dead || []).length");
    let stone = js(c, "state.analysis.upper_strings.filter((s) => s.colour === 'white' && !s.points.some((p) => (state.setup.dead || []).includes(p))).sort((a, b) => a.points.length - b.points.length)[0].points[0]");
    super::click_point_raw(c, stone.as_str().unwrap_or("OO"));
    let marked = wait_until(
        c,
        &format!("state.scoring === 'marking' && (state.setup.dead || []).length > {before} && document.getElementById('status').textContent === ''"),
        30,
    );
    ck.that(
        "end of a game: the Ke Jie game's scoring phase, a string marked dead",
        marked,
    );
    c.cdp(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({ "width": 1366, "height": 768, "deviceScaleFactor": 1, "mobile": false }),
    )
    .expect("the viewport's size");
    std::thread::sleep(Duration::from_millis(500));
    c.execute("scrollTo(0, 0);", vec![]).expect("js");
    // the pointer off the board: no hover label in the picture
    if let Ok(away) = c.find("#summary") {
        let _ = c.hover(&away);
    }
    c.execute("scrollTo(0, 0);", vec![]).expect("js");
    let shot = c.screenshot().map(|png| {
        std::fs::write(
            super::artifacts().join("serve-kejie-end-1366-light.png"),
            png,
        )
    });
    ck.that(
        &format!("end of a game: the screenshot written ({shot:?})"),
        matches!(shot, Ok(Ok(()))),
    );
    c.cdp(
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .expect("the viewport back");
}
