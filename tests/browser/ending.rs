//! The page's checks of issue 54 (the page never shows a wrong ruling; the end of a game fits
//! one screen): the rules of every view from one source (the page's replay at move 288 of the Ke
//! Jie record against `m3go replay --mechanical` for every order of the toggle, the winner of
//! the eight professional records against the CLI's), a broken link in a new tab, a server
//! restart, the ruling of a finished game, a click in the scoring phase, the board's size and
//! the scoring panel in view, the SGF export's game information and the small ones. Each failed
//! on the page before.

use super::{click, go_to, js, pick_file, set_select, wait_for, wait_until, Checks, Client};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// What `m3go replay [--mechanical] [--to N]` gives at its last move, read by `m3go analyze`:
/// the stone to play with its number, black's and white's counts, the winner and the rules.
fn cli_at(file: &Path, mechanical: bool, to: Option<u32>) -> Value {
    let out = super::artifacts().join(format!(
        "cli-{}-{}-{}.yaml",
        file.file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("record"),
        mechanical,
        to.map_or("end".to_string(), |n| n.to_string())
    ));
    let mut args = vec!["replay".to_string(), "--quiet".to_string()];
    if mechanical {
        args.push("--mechanical".to_string());
    }
    if let Some(n) = to {
        args.extend(["--to".to_string(), n.to_string()]);
    }
    args.extend([
        "-o".to_string(),
        out.display().to_string(),
        file.display().to_string(),
    ]);
    let bin = env!("CARGO_BIN_EXE_m3go");
    let st = Command::new(bin).args(&args).output().expect("m3go replay");
    assert!(st.status.success(), "m3go {args:?}: {st:?}");
    let an = Command::new(bin)
        .args(["analyze", "--format", "json"])
        .arg(&out)
        .output()
        .expect("m3go analyze");
    assert!(
        an.status.success(),
        "m3go analyze {}: {an:?}",
        out.display()
    );
    let a: Value = serde_json::from_slice(&an.stdout).expect("analyze's JSON");
    summary(&a)
}

/// An analysis's stone to play, counts, winner and rules, as compared here.
fn summary(a: &Value) -> Value {
    let s = &a["score"];
    // the komi as a number (the page's JSON writes 0, the CLI's 0.0)
    let mut rules = a["rules"].clone();
    if let Some(k) = rules["komi"].as_f64() {
        rules["komi"] = serde_json::json!(k);
    }
    serde_json::json!({
        "to_play": format!("{}{}", a["to_move"]["symbol"].as_str().unwrap_or("?"), a["move"]),
        "black": s["black"], "white": s["white"], "winner": s["winner"],
        "rules": rules,
    })
}

/// The same of the page's analysis shown.
fn page_summary(c: &Client) -> Value {
    summary(&js(c, "state.analysis"))
}

/// Whether the page's record is loaded and settled (no status), its id not `old`.
fn loaded_since(c: &Client, old: &Value) -> bool {
    wait_until(
        c,
        &format!("!!state.record && state.record.id !== {old} && /^move 0 of /.test(document.getElementById('record-status').textContent) && document.getElementById('status').textContent === '' && document.getElementById('board').dataset.analysed === '0'"),
        240,
    )
}

/// Opens `file` with the mechanical box ticked or not (set before, no event: as a referee sets it
/// before choosing the file).
pub(crate) fn open_record(c: &Client, file: &Path, mechanical: bool) -> bool {
    let old = js(c, "state.record ? state.record.id : null");
    c.execute(
        "document.getElementById('mechanical').checked = arguments[0];",
        vec![Value::Bool(mechanical)],
    )
    .expect("js");
    pick_file(c, file);
    loaded_since(c, &old)
}

/// Ticks (or unticks) "mechanical replay" by a click, and waits for the record replayed again.
fn toggle_mechanical(c: &Client) -> bool {
    let old = js(c, "state.record ? state.record.id : null");
    click(c, "#mechanical");
    loaded_since(c, &old)
}

/// A 5×5 game ended by two passes, with its game information.
pub(crate) const FINISHED: &str = "(;GM[1]FF[4]SZ[5]PB[Black Player]PW[White Player]EV[Test Cup]DT[2026-12-07]RE[B+R]C[a game comment];B[cc];W[bb];B[];W[])";

/// Everything of this module, on the page `url` of session `c`.
pub fn ending_checks(c: &Client, ck: &mut Checks, url: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let records = root.join("spec/records");
    let kejie = records.join("kejie-alphago-2017-g1.sgf");
    c.set_window_size(1500, 1300).expect("window size");
    // the rules chosen: the default preset, as the CLI's `--mechanical` takes it
    set_select(c, "preset", "m3go-2020");

    // ---- item 1: the page's replay is the one its label names, whatever the toggle order ----
    let mech288 = cli_at(&kejie, true, Some(288));
    let strict288 = cli_at(&kejie, false, Some(288));
    type Order = (&'static str, &'static [bool]);
    // each order: the box when the file is opened, then the clicks on it
    let orders: [Order; 4] = [
        ("ticked, then opened", &[true]),
        ("opened normally, then ticked", &[false, true]),
        (
            "opened mechanically, unticked, ticked",
            &[true, false, true],
        ),
        (
            "opened normally, ticked, unticked, ticked",
            &[false, true, false, true],
        ),
    ];
    for (what, steps) in orders {
        let mut ok = open_record(c, &kejie, steps[0]);
        for _ in &steps[1..] {
            ok = ok && toggle_mechanical(c);
        }
        ck.that(&format!("item 1, {what}: the record is replayed"), ok);
        if !ok {
            continue;
        }
        go_to(c, 288);
        ck.that_eq(
            &format!("item 1, {what}: move 288 as `m3go replay --mechanical`"),
            &page_summary(c),
            &mech288,
        );
        ck.that_eq(
            &format!("item 1, {what}: the status names the rules used"),
            &js(c, "document.getElementById('record-status').textContent"),
            &Value::from("move 288 of 289 (mechanical, m3go-2020)"),
        );
        ck.that(
            &format!("item 1, {what}: the link carries the rules used"),
            js(c, "new URLSearchParams(location.hash.slice(1)).get('rules') === JSON.stringify({ preset: 'm3go-2020' })"),
        );
        ck.that(
            &format!("item 1, {what}: the KM notice names the komi the score applies"),
            js(c, "(() => { const t = document.getElementById('notice').textContent; return t.includes('KM[7.5]') && t.includes(\"the komi is the rules' komi, \" + state.analysis.score.komi_quarters / 4 + ')'); })()"),
        );
    }
    // unticked again: the record's own strict replay, under its own label
    if toggle_mechanical(c) {
        go_to(c, 288);
        ck.that_eq(
            "item 1, unticked: move 288 as `m3go replay`",
            &page_summary(c),
            &strict288,
        );
        ck.that(
            "item 1, unticked: the status names the record's rules",
            js(c, "/^move 288 of 289 \\(m3go-2020, .*komi 7\\.5/.test(document.getElementById('record-status').textContent)"),
        );
    } else {
        ck.fail("item 1: unticked, the record is replayed");
    }

    // the eight professional records: the winner the page shows after the worst order (opened
    // normally, then ticked) is the CLI's
    let mut names: Vec<_> = std::fs::read_dir(&records)
        .expect("spec/records")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("alphago-") || n.starts_with("kejie-"))
        })
        .collect();
    names.sort();
    ck.that_eq(
        "item 1: eight professional records",
        &Value::from(names.len()),
        &Value::from(8),
    );
    for file in &names {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let cli = cli_at(file, true, None);
        if !(open_record(c, file, false) && toggle_mechanical(c)) {
            ck.fail(&format!("item 1, {name}: replayed"));
            continue;
        }
        let last = js(c, "state.record.last").as_u64().unwrap_or(0) as u32;
        go_to(c, last);
        ck.that_eq(
            &format!("item 1, {name}: the winner shown is the CLI's"),
            &page_summary(c)["winner"],
            &cli["winner"],
        );
    }
    // ---- items 3, 7: the board scales to the space it has ----
    fits(c, ck, &kejie);
    // ---- item 2: a broken link in a new tab ----
    broken_links(c, ck, url);
    // ---- item 4: a server restart ----
    restart(c, ck, &kejie);
    c.goto(url).expect("the page");
    wait_for(c, "document.body.dataset.ready === '1'", 60);
    // ---- items 5, 6: a finished game: the scoring phase and its ruling ----
    let game = super::artifacts().join("finished-game.sgf");
    std::fs::write(&game, FINISHED).expect("finished-game.sgf");
    finished_game(c, ck, &game);
    // ---- item 3: the scoring panel in view, the passes named ----
    scoring_in_view(c, ck, &game);
    // back to the box unticked, for whatever follows
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
}

/// Starts `m3go serve --port PORT` (a server to restart on the same port); its child. As the
/// page's own server, M3GO_BROWSER_BIN names another build to test.
fn serve_on(port: u16) -> std::process::Child {
    use std::io::BufRead;
    let bin = std::env::var_os("M3GO_BROWSER_BIN")
        .unwrap_or_else(|| std::ffi::OsString::from(env!("CARGO_BIN_EXE_m3go")));
    let mut child = Command::new(bin)
        .args(["serve", "--port", &port.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("start m3go serve");
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        std::io::BufReader::new(out)
            .read_line(&mut line)
            .expect("the URL line");
    }
    child
}

/// Item 2: a broken link opened in a new tab shows its error over the fallback board, and the
/// address keeps the link.
fn broken_links(c: &Client, ck: &mut Checks, url: &str) {
    for (what, hash) in [
        ("a record's", "#record=g.sgf&at=3&data=%21%21"),
        ("a position's", "#position=zzzzz"),
        ("a cut", "#reco"),
    ] {
        c.goto("about:blank").expect("blank");
        c.goto(&format!("{url}{hash}")).expect("open the link");
        let ready = wait_until(c, "document.body.dataset.ready === '1'", 60);
        std::thread::sleep(std::time::Duration::from_millis(800));
        ck.that(
            &format!("item 2, {what} broken link in a new tab: its error stays over the board"),
            ready && js(c, "!document.getElementById('error').hidden && document.getElementById('error-text').textContent.includes('link:') && !!document.querySelector('#board svg')") == true,
        );
        ck.that_eq(
            &format!("item 2, {what} broken link in a new tab: the address is kept"),
            &js(c, "location.hash"),
            &Value::from(hash),
        );
    }
    c.goto("about:blank").expect("blank");
    c.goto(url).expect("the page");
    wait_until(c, "document.body.dataset.ready === '1'", 60);
    // ---- item 9: no step buttons without a record; an icon of its own (no favicon request) ----
    ck.that(
        "item 9: no step buttons without a record",
        js(
            c,
            "!state.record && document.getElementById('next').offsetParent === null",
        ),
    );
    ck.that(
        "item 9: the page names its icon (the browser asks for no /favicon.ico)",
        js(c, "!!document.querySelector('link[rel~=icon]')"),
    );
    // dark mode: the pressed layer button stands out from the page, the figure is dimmed
    super::emulate_dark(c, true);
    std::thread::sleep(std::time::Duration::from_millis(300));
    ck.that(
        "item 9: dark mode: the pressed layer button stands out, the board is dimmed",
        js(c, "(() => { const lum = (e) => getComputedStyle(e).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0); const on = document.querySelector('#layers button.on'); return lum(on) - lum(document.body) > 250 && getComputedStyle(document.querySelector('#board svg')).filter !== 'none'; })()"),
    );
    super::emulate_dark(c, false);
}

/// Item 4: a record replayed under a rule option changed keeps it when the server restarts (the
/// page sends the rules again with the record).
fn restart(c: &Client, ck: &mut Checks, kejie: &Path) {
    let port = super::free_port();
    let mut server = serve_on(port);
    let url = format!("http://127.0.0.1:{port}/");
    c.goto(&url).expect("the second server's page");
    wait_for(c, "document.body.dataset.ready === '1'", 60);
    // the rules used, komi 7.5: in the analysis and in the URL
    let komi = "state.analysis.rules.komi === 7.5 && JSON.parse(new URLSearchParams(location.hash.slice(1)).get('rules')).komi === 7.5";
    if !open_record(c, kejie, true) {
        let _ = server.kill();
        let _ = server.wait();
        return ck.fail("item 4: the Ke Jie record is replayed");
    }
    // the record's link at move 100 under komi 7.5 (as a link sent with the option changed)
    let link = js(c, "(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set('at', '100'); p.set('rules', JSON.stringify({ preset: 'm3go-2020', komi: 7.5 })); return '#' + p.toString(); })()");
    // the option changed in its input: the mechanical record replayed under it
    let old = js(c, "state.record.id");
    c.execute("const i = document.getElementById('opt-komi'); i.value = '7.5'; i.dispatchEvent(new Event('change'));", vec![]).expect("komi");
    let replayed = loaded_since(c, &old);
    ck.that(
        "item 4: a rule option changed replays the mechanical record under it, the status naming it",
        replayed && js(c, &format!("{komi} && /, komi 7\\.5\\)$/.test(document.getElementById('record-status').textContent)")) == true,
    );
    c.execute("location.hash = arguments[0];", vec![link])
        .expect("the link");
    let at100 = wait_until(c, &format!("document.getElementById('record-status').textContent.startsWith('move 100 of') && document.getElementById('status').textContent === '' && {komi}"), 120);
    ck.that("item 4: komi 7.5 before the restart (rules, URL)", at100);
    if at100 {
        let _ = server.kill();
        let _ = server.wait();
        server = serve_on(port);
        go_to(c, 200);
        ck.that(
            "item 4: after a server restart, the record keeps komi 7.5 (rules, URL)",
            js(c, komi),
        );
    }
    let _ = server.kill();
    let _ = server.wait();
}

/// Items 5 and 6: a finished game (a record ending in two passes): in the scoring phase a click
/// marks whatever the tool; its ruling holds the count accepted, the dead stones, the trace and
/// the players, and, loaded back, returns accepted.
fn finished_game(c: &Client, ck: &mut Checks, game: &Path) {
    if !open_record(c, game, false) {
        return ck.fail("items 5, 6: the finished game is replayed");
    }
    go_to(c, 4);
    ck.that_wait(
        c,
        "items 5, 6: the scoring phase opens at the game's end",
        "state.scoring === 'marking'",
        20,
    );
    // ---- item 8: the SGF export keeps the game information, named after the file ----
    let sgf = super::exported(c, "document.querySelector('[data-export=sgf]')", "(;", 20);
    let sgf = sgf.as_str();
    for p in [
        "PB[Black Player]",
        "PW[White Player]",
        "EV[Test Cup]",
        "DT[2026-12-07]",
        "RE[B+R]",
        "C[a game comment]",
    ] {
        ck.that(
            &format!("item 8: the SGF export keeps {p}"),
            sgf.contains(p),
        );
    }
    ck.that_eq(
        "item 8: the SGF export is named after the file loaded",
        &js(c, "document.getElementById('download').download"),
        &Value::from("finished-game.sgf"),
    );
    let white = "[...document.querySelectorAll('#board rect.point')].map((r) => r.dataset.point).find((l) => { const [r, k] = cellOf(l, state.size); return state.grid[r][k] === 'O'; })";
    let label = js(c, white);
    let label = label.as_str().unwrap_or("?");
    assert!(super::choose_tool_opt(c, "explain"));
    super::click_point_raw(c, label);
    ck.that_wait(
        c,
        "item 6: in the scoring phase a click marks with the explain tool too",
        &format!("(state.setup.dead || []).includes('{label}') && document.getElementById('status').textContent === ''"),
        20,
    );
    // ---- item 9: the count's trace is one Tab stop, ↓ moves in it ----
    ck.that(
        "item 9: the count's trace is one Tab stop (its lines and clause buttons)",
        js(c, "(() => { const stops = [...document.querySelectorAll('#score-trace li, #score-trace button')].filter((e) => e.tabIndex >= 0 && !e.disabled); return document.querySelectorAll('#score-trace li').length >= 2 && stops.length === 1; })()"),
    );
    ck.that(
        "item 9: ↓ moves the focus to the trace's next line",
        js(c, "(() => { const l = document.querySelectorAll('#score-trace li'); l[0].focus(); l[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true })); return document.activeElement === l[1] && l[1].tabIndex === 0 && l[0].tabIndex === -1; })()"),
    );
    click(c, "#score-accept");
    wait_until(c, "state.scoring === 'accepted'", 20);
    ck.that(
        "item 9: one dead stone, in the singular",
        js(
            c,
            "/, 1 dead stone removed$/.test(document.getElementById('scoring-text').textContent)",
        ),
    );
    c.execute("document.getElementById('save-ruling').click();", vec![])
        .expect("save the ruling");
    wait_until(
        c,
        "document.getElementById('export-text').value.startsWith('<!doctype html>')",
        20,
    );
    let html = js(c, "document.getElementById('export-text').value");
    let html = html.as_str().unwrap_or("");
    for (what, needle) in [
        ("the count accepted", "count accepted: "),
        ("the dead stones", &format!("dead stones: 1: {label}")),
        ("the region trace with M20-SCORE-DEAD", "M20-SCORE-DEAD"),
        ("black's player", "Black Player"),
        ("white's player", "White Player"),
    ] {
        ck.that(
            &format!("item 5: the ruling of a finished game holds {what}"),
            html.contains(needle),
        );
    }
    // loaded back (another game shown first): the count accepted returns accepted
    open_record(c, game, false);
    c.execute("document.getElementById('position-text').value = arguments[0]; document.getElementById('position-load').click();", vec![Value::from(html)]).expect("load the ruling");
    ck.that_wait(
        c,
        "item 5: the ruling loaded back returns its count accepted, with its dead stones",
        &format!("state.scoring === 'accepted' && (state.setup.dead || []).includes('{label}') && document.getElementById('scoring-text').textContent.startsWith('count accepted') && location.hash.includes('scoring=accepted')"),
        20,
    );
}

/// Where the page's parts are at the window's size (scrolled to the top): the board's height and
/// whether the board, the step buttons, the record's status, the stone to play, the game
/// information and the current move of the list are all in view.
const FIT: &str = "((sel) => { scrollTo(0, 0); const H = innerHeight, W = innerWidth; const r = (s) => { const e = document.querySelector(s); return e && e.offsetParent !== null ? e.getBoundingClientRect() : null; }; const seen = (s) => { const b = r(s); return !!b && b.top >= 0 && b.bottom <= H + 0.5 && b.left >= 0 && b.right <= W + 0.5; }; const svg = r('#board svg'); return { board: Math.round(svg.height), shown: Object.fromEntries(sel.map((s) => [s, seen(s)])) }; })";

/// Items 3 and 7: at 1366×768 the 19×19 board is at least 700 px high with the step buttons,
/// the status, the stone to play, the game information and the current move in view; on a
/// phone the step buttons and the status are in view.
fn fits(c: &Client, ck: &mut Checks, kejie: &Path) {
    if !open_record(c, kejie, true) {
        return ck.fail("items 3, 7: the Ke Jie record is replayed");
    }
    go_to(c, 288);
    for (w, h, least) in [(1366u32, 768u32, 700u64), (1400, 900, 700), (420, 860, 380)] {
        c.set_window_size(w, h).expect("window size");
        std::thread::sleep(std::time::Duration::from_millis(500));
        c.cdp(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": w, "height": h, "deviceScaleFactor": 1, "mobile": false }),
        )
        .expect("the viewport's size");
        let sel = if w > 1000 {
            "['#board svg', '#next', '#record-status', '#tomove', '#record-info', '#movelist .current']"
        } else {
            "['#board svg', '#next', '#record-status']"
        };
        let fit = js(c, &format!("{FIT}({sel})"));
        let all = fit["shown"]
            .as_object()
            .is_some_and(|m| m.values().all(|v| v == true));
        let big = fit["board"].as_u64().is_some_and(|b| b >= least);
        ck.that(
            &format!("items 3, 7: at {w}×{h} the board is ≥ {least} px high and {sel} are in view: {fit}"),
            all && big,
        );
    }
    c.cdp(
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .expect("the viewport back");
    c.set_window_size(1500, 1300).expect("window size");
}

/// Item 3: the scoring panel is in view when the phase opens (at 1366×768, 1400×900 and
/// 420×860), and the record's status names every pass played from it.
fn scoring_in_view(c: &Client, ck: &mut Checks, game: &Path) {
    for (w, h) in [(1366u32, 768u32), (1400, 900), (420, 860)] {
        c.cdp(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": w, "height": h, "deviceScaleFactor": 1, "mobile": false }),
        )
        .expect("the viewport's size");
        if !open_record(c, game, false) {
            ck.fail("item 3: the finished game is replayed");
            continue;
        }
        go_to(c, 4);
        ck.that_wait(
            c,
            &format!("item 3: at {w}×{h} the scoring panel is in view when the phase opens, with the count"),
            "(() => { const r = document.getElementById('scoring').getBoundingClientRect(); return state.scoring === 'marking' && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && document.getElementById('scoring-text').textContent.includes('black '); })()",
            20,
        );
    }
    c.cdp(
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .expect("the viewport back");
    c.set_window_size(1500, 1300).expect("window size");
    // from move 2, the passes that end the game: the status names each one
    go_to(c, 2);
    let mut passes = 0;
    for _ in 0..4 {
        if js(c, "state.analysis.game_over") == true {
            break;
        }
        let n = js(c, "state.move");
        click(c, "#pass");
        super::settled_after(c, &n);
        passes += 1;
    }
    let status = js(c, "document.getElementById('record-status').textContent");
    let named = status.as_str().map_or(0, |t| t.matches("pass").count());
    ck.that(
        &format!("item 3: the status names all {passes} passes played: {status}"),
        passes >= 2 && named == passes,
    );
}
