//! The dead stones proposed when the scoring phase opens (issue 54 item 10, as OGS's
//! auto-score): the strings the engine's analysis judges dead are marked at once, shown as the
//! engine's proposal, edited by clicks, and the ruling says whether the count was the proposal as
//! proposed or edited; a link read back keeps its own marks. Each failed on the page before.

use super::{click, go_to, js, pick_file, wait_until, Checks, Client};
use serde_json::Value;

/// A 5×5 Go game ended by two passes: black's wall with its eyes around white's lone stone at
/// the centre (OO), which has one liberty and no room to live.
const WALLED: &str = "(;GM[1]FF[4]SZ[5]PB[Black]PW[White];B[ba];W[cc];B[da];W[];B[ab];W[];B[bb];W[];B[cb];W[];B[db];W[];B[eb];W[];B[ac];W[];B[dc];W[];B[ad];W[];B[bd];W[];B[cd];W[];B[dd];W[];B[ed];W[];B[be];W[];B[de];W[];B[])";

/// The last move of the record (white's pass and black's end it, after 16 black stones, white's
/// stone and white's other passes).
const LAST: u32 = 33;

/// The phase opened with the proposal marked, the count following it.
const PROPOSED: &str = "state.scoring === 'marking' && JSON.stringify(state.setup.dead || []) === '[\"OO\"]' && document.getElementById('scoring-proposal').textContent.startsWith('dead stones as proposed by the engine') && document.getElementById('status').textContent === ''";

/// The ruling saved of the view shown (its HTML text).
fn ruling(c: &Client) -> String {
    super::exported(
        c,
        "document.getElementById('save-ruling')",
        "<!doctype html>",
        20,
    )
}

pub fn proposal_checks(c: &Client, ck: &mut Checks) {
    let game = super::artifacts().join("walled-game.sgf");
    std::fs::write(&game, WALLED).expect("walled-game.sgf");
    c.execute(
        "document.getElementById('mechanical').checked = false;",
        vec![],
    )
    .expect("js");
    pick_file(c, &game);
    if !wait_until(
        c,
        "!!state.record && state.record.name === 'walled-game.sgf' && document.getElementById('status').textContent === ''",
        60,
    ) {
        return ck.fail("item 10: the walled game is replayed");
    }
    go_to(c, LAST);
    ck.that_wait(
        c,
        "item 10: the scoring phase opens with the engine's proposal marked (white's OO) and named",
        PROPOSED,
        30,
    );
    ck.that(
        "item 10: the count follows the proposal (black 50, white 0)",
        js(
            c,
            "/^black 50 · white 0 /.test(document.getElementById('score-line').textContent)",
        ),
    );
    ck.that(
        "item 10: the proposal names the string proposed",
        js(
            c,
            "document.getElementById('scoring-proposal').textContent.includes('1 string, 1 stone (OO)')",
        ),
    );
    // accepted as proposed: the ruling says so
    click(c, "#score-accept");
    wait_until(c, "state.scoring === 'accepted'", 20);
    let html = ruling(c);
    ck.that(
        "item 10: the ruling of a count accepted as proposed says so",
        html.contains("dead stones as proposed by the engine&#39;s analysis"),
    );
    // a reload of the view's link keeps its marks (the proposal's) and its acceptance
    c.execute("location.reload();", vec![]).expect("reload");
    ck.that_wait(
        c,
        "item 10: a reload keeps the count accepted with the proposal's marks",
        "document.body.dataset.ready === '1' && state.scoring === 'accepted' && JSON.stringify(state.setup.dead || []) === '[\"OO\"]' && document.getElementById('scoring-proposal').textContent.startsWith('dead stones as proposed')",
        60,
    );
    // edited: a click takes the proposed string off (the marks are the referee's now)
    click(c, "#score-accept");
    wait_until(c, "state.scoring === 'marking'", 20);
    js(
        c,
        "document.querySelector(\"#board rect.point[data-point='OO']\").dispatchEvent(new MouseEvent('click', { bubbles: true })) || true",
    );
    ck.that_wait(
        c,
        "item 10: a click edits the proposal, and the panel says what the referee changed",
        "(state.setup.dead || []).length === 0 && document.getElementById('scoring-proposal').textContent.startsWith('dead stones edited by the referee') && document.getElementById('scoring-proposal').textContent.endsWith('removed OO')",
        20,
    );
    // a link read back with no marks keeps none: the proposal is not forced on a view sent
    c.execute("location.reload();", vec![]).expect("reload");
    ck.that_wait(
        c,
        "item 10: a link without marks is read back without the proposal marked",
        "document.body.dataset.ready === '1' && state.scoring === 'marking' && (state.setup.dead || []).length === 0 && document.getElementById('scoring-proposal').textContent.startsWith('dead stones edited')",
        60,
    );
    click(c, "#score-accept");
    wait_until(c, "state.scoring === 'accepted'", 20);
    let html = ruling(c);
    ck.that(
        "item 10: the ruling of a count edited from the proposal says so",
        html.contains("dead stones edited by the referee from the engine&#39;s proposal")
            && html.contains("removed OO"),
    );
    ck.that_eq(
        "item 10: the ruling's dead stones are the referee's",
        &Value::Bool(html.contains("dead stones: none")),
        &Value::Bool(true),
    );
}
