//! The page's checks of issue 54 item 10, the conventions players bring from Sabaki and OGS:
//! GTP's coordinates as a third label system (the board's edges, the move list, the cursor's
//! description, the link), a captures count per player, and "dame" for the halved points between
//! two walls that are no seki. Each failed on the page before.

use super::{artifacts, go_to, js, pick_file, set_select, wait_until, Checks, Client};
use serde_json::{json, Value};

/// A 9×9 game: black's third move takes white's corner stone A9 (GTP), white's fourth is tengen.
const CAPTURE: &str = "(;GM[1]FF[4]SZ[9];B[ba];W[aa];B[ab];W[ee])";

/// GTP's vertex of an SGF point on a board of `size`: the column letter without I, the row
/// counted from the bottom.
fn gtp_vertex(sgf: &str, size: usize) -> String {
    let b = sgf.as_bytes();
    let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    format!(
        "{}{}",
        "ABCDEFGHJKLMNOPQRST".as_bytes()[x] as char,
        size - y
    )
}

/// Everything of this module, on the page `url` of session `c`.
pub fn conventions_checks(c: &Client, ck: &mut Checks) {
    c.set_window_size(1500, 1300).expect("window size");
    let file = artifacts().join("capture-9x9.sgf");
    std::fs::write(&file, CAPTURE).expect("capture-9x9.sgf");
    let old = js(c, "state.record ? state.record.id : null");
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
    pick_file(c, &file);
    let loaded = wait_until(
        c,
        &format!("!!state.record && state.record.id !== {old} && document.getElementById('status').textContent === ''"),
        120,
    );
    ck.that("item 10: the 9×9 capture record loads", loaded);
    if !loaded {
        return;
    }
    gtp_labels(c, ck);
    captures(c, ck);
    set_select(c, "labels", "chinese");
    dame(c, ck);
}

/// Loads a position file's YAML text by the position box; whether it was judged.
fn load_position(c: &Client, yaml: &str) -> bool {
    let old = js(c, "JSON.stringify(state.setup)");
    c.execute(
        "document.getElementById('position-text').value = arguments[0]; document.getElementById('position-load').click();",
        vec![json!(yaml)],
    )
    .expect("load the position");
    wait_until(
        c,
        &format!("JSON.stringify(state.setup) !== {} && document.getElementById('status').textContent === '' && !!document.querySelector('#score table')", serde_json::to_string(&old).unwrap_or_default()),
        60,
    )
}

/// "dame" for the halved points between two walls in no seki, "seki" for a seki's shared
/// liberty: the owners' table, its legend and the count's trace.
fn dame(c: &Client, ck: &mut Checks) {
    // the owners' table's cell of row r, column c (from the top left): its class and letter
    let cell = |c: &Client, r: usize, col: usize| -> Value {
        js(
            c,
            &format!("(() => {{ const td = document.querySelectorAll('#score table tr')[{r}].children[{col}]; return [td.className, td.textContent]; }})()"),
        )
    };
    let walls = format!(
        "rules: m3go-2020\nsize: 5\ndiagram: |\n{}",
        "  X X . O O\n".repeat(5)
    );
    ck.that(
        "item 10, dame: the walls position loads",
        load_position(c, &walls),
    );
    let column: Vec<Value> = (0..5).map(|r| cell(c, r, 2)).collect();
    ck.that_eq(
        "item 10, dame: the column between the walls is dame in the owners' table",
        &json!(column),
        &json!(vec![["dame", "d"]; 5]),
    );
    ck.that(
        "item 10, dame: the legend and the trace say dame",
        js(c, "document.getElementById('score-legend').textContent.includes('d dame') && document.getElementById('score').textContent.includes('(dame)')"),
    );
    let seki = "rules: m3go-2020\nsize: 5\ndiagram: |\n  . X X O .\n  X X . O O\n  X X X O O\n  X X X O O\n  X X X O O\n";
    ck.that(
        "item 10, dame: the seki position loads",
        load_position(c, seki),
    );
    ck.that_eq(
        "item 10, dame: a seki's shared liberty stays seki",
        &cell(c, 1, 2),
        &json!(["seki", "s"]),
    );
}

/// GTP's A–T / 1–19 coordinates: chosen like the other two, on the edges, in the move list and
/// the cursor's description, kept in the link.
fn gtp_labels(c: &Client, ck: &mut Checks) {
    set_select(c, "labels", "gtp");
    ck.that_eq(
        "item 10, gtp: the label system is selectable",
        &js(c, "document.getElementById('labels').value"),
        &json!("gtp"),
    );
    go_to(c, 4);
    let edges = js(
        c,
        "[...new Set([...document.querySelectorAll('#board text.label')].map((t) => t.textContent))].sort().join(' ')",
    );
    ck.that_eq(
        "item 10, gtp: the board's edges are A–J without I and 1–9",
        &edges,
        &json!("1 2 3 4 5 6 7 8 9 A B C D E F G H J"),
    );
    let moves = js(
        c,
        "[...document.querySelectorAll('#movelist .mv')].map((b) => b.textContent).join(' ')",
    );
    let want: Vec<String> = ["ba", "aa", "ab", "ee"]
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{}{}.{}", ["K", "W"][k % 2], k + 1, gtp_vertex(p, 9)))
        .collect();
    ck.that_eq(
        "item 10, gtp: the move list names the points by their vertices",
        &moves,
        &json!(want.join(" ")),
    );
    // the keyboard cursor starts on tengen: the white stone of move 4
    c.execute("document.getElementById('board').focus();", vec![])
        .expect("focus the board");
    let hover = "document.getElementById('hover').textContent";
    wait_until(c, &format!("{hover}.startsWith('E5, ')"), 10);
    ck.that_eq(
        "item 10, gtp: the cursor's description names the point and string E5",
        &js(c, &format!("{hover}.slice(0, 34)")),
        &json!("E5, white stone, string E5* (1 sto"),
    );
    // the link keeps the label system: opened again, the page shows GTP's edges
    let link = js(c, "location.href");
    ck.that(
        "item 10, gtp: the link carries labels=gtp",
        link.as_str().is_some_and(|l| l.contains("labels=gtp")),
    );
    if let Some(l) = link.as_str() {
        // a fresh load (from the page itself the link would only change the fragment)
        c.goto("about:blank").expect("another page");
        c.goto(l).expect("the link");
        let opened = "document.body.dataset.ready === '1' && document.getElementById('status').textContent === '' && document.getElementById('record-status').textContent.startsWith('move 4 of')";
        wait_until(c, opened, 120);
        ck.that_eq(
            "item 10, gtp: the link opens at its move with GTP's labels and edges",
            &js(
                c,
                "[document.getElementById('labels').value, document.getElementById('record-status').textContent.slice(0, 12), [...document.querySelectorAll('#board text.label')].some((t) => t.textContent === 'J'), document.querySelector('#movelist .mv').textContent]",
            ),
            &json!(["gtp", "move 4 of 4 ", true, "K1.B9"]),
        );
    }
}

/// The captures count: black has taken one stone after move 3, none before; shown as the
/// engine's replay counts it.
fn captures(c: &Client, ck: &mut Checks) {
    let count = |c: &Client| -> Value {
        js(
            c,
            "document.getElementById('captures').hidden ? null : [document.getElementById('captures').dataset.black, document.getElementById('captures').dataset.white, document.getElementById('captures').textContent]",
        )
    };
    go_to(c, 2);
    ck.that_eq(
        "item 10, captures: none at move 2",
        &count(c),
        &json!(["0", "0", "captures: black 0 · white 0"]),
    );
    go_to(c, 3);
    ck.that_eq(
        "item 10, captures: black has taken white's A9 at move 3",
        &count(c),
        &json!(["1", "0", "captures: black 1 · white 0"]),
    );
    go_to(c, 4);
    ck.that_eq(
        "item 10, captures: still one at move 4",
        &count(c),
        &json!(["1", "0", "captures: black 1 · white 0"]),
    );
}
