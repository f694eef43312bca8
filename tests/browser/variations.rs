//! Variations as a tree (issue 54 item 10, as Sabaki shows them): at a move where an SGF's lines
//! part, the page lists the branches (the line's own next move, each variation, the moves the
//! referee played from there) as buttons and marks each next move on the board with its letter;
//! a branch is followed from the keyboard; a move played at an earlier point is kept as a branch
//! when the record is taken up again; the link carries the line shown; the SGF export writes the
//! variations. Each failed on the page before.

use super::{click, go_to, js, key, pick_file, wait_until, Checks, Client};

/// A 9×9 Go record with one variation at move 3: the main line B[gg] W[gc], the variation B[cg].
const TREE: &str =
    "(;GM[1]FF[4]SZ[9]PB[Black]PW[White];B[ee];W[cc](;B[gg];W[gc])(;B[cg]C[the variation]))";

/// The label of the point in row `r`, column `c` of the board shown.
fn label(c: &Client, r: usize, col: usize) -> String {
    js(c, &format!("[...document.querySelectorAll('#board rect.point')].map((e) => e.dataset.point).find((l) => {{ const [a, b] = cellOf(l, state.size); return a === {r} && b === {col}; }})"))
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The letters marked on the board, by point.
fn markers(c: &Client) -> serde_json::Value {
    js(c, "Object.fromEntries([...document.querySelectorAll('#board .branch-marker')].map((t) => [t.dataset.point, t.textContent]))")
}

pub fn variation_checks(c: &Client, ck: &mut Checks) {
    let file = super::artifacts().join("variations.sgf");
    std::fs::write(&file, TREE).expect("variations.sgf");
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
    pick_file(c, &file);
    if !wait_until(
        c,
        "!!state.record && state.record.name === 'variations.sgf' && document.getElementById('status').textContent === ''",
        60,
    ) {
        return ck.fail("item 10: the record with a variation is replayed");
    }
    go_to(c, 1);
    ck.that(
        "item 10: no branch bar where the lines do not part",
        js(c, "document.getElementById('branches').hidden && !document.querySelector('#board .branch-marker')"),
    );
    go_to(c, 2);
    let (gg, cg) = (label(c, 6, 6), label(c, 6, 2));
    ck.that_wait(
        c,
        "item 10: at the move where the lines part, the branches are listed (A the line's, B the variation's)",
        "!document.getElementById('branches').hidden && [...document.querySelectorAll('#branches button.branch')].map((b) => b.dataset.letter).join() === 'A,B'",
        20,
    );
    ck.that_eq(
        "item 10: each branch's next move is marked on the board by its letter",
        &markers(c),
        &serde_json::json!({ gg.clone(): "A", cg.clone(): "B" }),
    );
    // the variation followed from the keyboard: Tab reaches its button, Enter follows it
    c.find("#branches button.branch[data-letter=B]")
        .expect("branch B")
        .send_keys(&key::ENTER.to_string())
        .expect("Enter on B");
    ck.that_wait(
        c,
        "item 10: Enter on branch B follows the variation to its next move",
        &format!("state.record.name.endsWith('(variation 1)') && state.record.at === 3 && state.inRecord && (() => {{ const [r, k] = cellOf('{cg}', state.size); return state.grid[r][k] === 'X'; }})() && document.getElementById('status').textContent === ''"),
        30,
    );
    ck.that(
        "item 10: the link carries the variation shown and the file's tree",
        js(c, "(() => { const p = new URLSearchParams(location.hash.replace(/^#/, '')); return p.get('record') === 'variations.sgf (variation 1)' && p.get('at') === '3' && p.get('line') === '1' && !!p.get('data'); })()"),
    );
    // the link read back: the variation at its move, the tree's lines listed again
    c.execute("location.reload();", vec![]).expect("reload");
    ck.that_wait(
        c,
        "item 10: the link read back shows the variation with the file's other lines kept",
        "document.body.dataset.ready === '1' && !!state.record && state.record.name === 'variations.sgf (variation 1)' && state.record.at === 3 && document.getElementById('lines').options.length === 2 && document.getElementById('lines').value === '1'",
        60,
    );
    // back at move 2 of the variation: its own move is A now, the main line's B
    go_to(c, 2);
    ck.that_wait(
        c,
        "item 10: on the variation, its own next move is A and the main line's B",
        &format!("document.querySelector('#board .branch-marker[data-point=\"{cg}\"]') && document.querySelector('#board .branch-marker[data-point=\"{cg}\"]').textContent === 'A' && document.querySelector('#board .branch-marker[data-point=\"{gg}\"]').textContent === 'B'"),
        20,
    );
    // a different move played at that earlier point, then the record taken up again
    let other = label(c, 7, 4);
    super::click_point_raw(c, &other);
    wait_until(c, "!state.inRecord && state.played.length === 1", 20);
    go_to(c, 2);
    ck.that_wait(
        c,
        "item 10: a move played at an earlier point is kept as branch C, marked on the board",
        &format!("[...document.querySelectorAll('#branches button.branch')].map((b) => b.dataset.letter).join() === 'A,B,C' && document.querySelector('#board .branch-marker[data-point=\"{other}\"]') && document.querySelector('#board .branch-marker[data-point=\"{other}\"]').textContent === 'C'"),
        20,
    );
    // the SGF export writes the three lines as one tree
    go_to(c, 3);
    let sgf = super::exported(c, "document.querySelector('[data-export=sgf]')", "(;", 20);
    let sgf = sgf.as_str();
    ck.that(
        &format!("item 10: the SGF export writes the variations (the main line's B[gg], the file's B[cg], the move played B[eh]): {sgf}"),
        sgf.contains("(;B[gg]") && sgf.contains("(;B[cg]") && sgf.contains("(;B[eh]") && sgf.contains("W[gc]"),
    );
    // the branch played followed back by a click: its moves played again
    go_to(c, 2);
    wait_until(c, "!document.getElementById('branches').hidden", 20);
    click(c, "#branches button.branch[data-letter=C]");
    ck.that_wait(
        c,
        "item 10: branch C followed plays the moves played from there again",
        &format!("!state.inRecord && state.played.length === 1 && (() => {{ const [r, k] = cellOf('{other}', state.size); return state.grid[r][k] === 'X'; }})()"),
        30,
    );
}
