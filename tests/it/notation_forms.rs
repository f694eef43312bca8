//! Issue 37, item 6: one notation reader for every command. Every form of writing a move the
//! texts define — 004's move-number notation (手数坐标记谱法, D3-NOTATION: `黑1.三三`, `华9.二二`,
//! `黑1.pass`, `黑1.虚着`), a bare point or pass that takes its turn from the schedule, 000's round
//! notation (回合式坐标记谱法, M16-NOTATION: `31A.三三`, `31D.DC`), the move-number form under the
//! 2016 team schedule (`黑61.三三`, `花63.DC`), each in both label systems (`三三` = `33`, `C三` =
//! `c3`) — is fed to every command that takes a move or a target: `play`, `explain`,
//! `protocol`, a game file (`replay`) and the page's API (`/api/play`, `/api/explain`,
//! `/api/replay`). Each must read it as the same move, which m3go writes the same way everywhere.

use crate::common::{m3go, m3go_stdin};
use crate::serve_api::post;
use serde_json::{json, Value};

/// (preset, number of the next move, the move as written, the move as m3go writes it).
const FORMS: &[(&str, u32, &str, &str)] = &[
    // 004's move-number notation, both label systems
    ("m3go-2020", 1, "黑1.三三", "黑1.三三"),
    ("m3go-2020", 1, "黑1.33", "黑1.三三"),
    ("m3go-2020", 1, "黑1.C三", "黑1.C三"),
    ("m3go-2020", 1, "黑1.c3", "黑1.C三"),
    ("m3go-2020", 1, "黑1.pass", "黑1.pass"),
    ("m3go-2020", 1, "黑1.虚着", "黑1.pass"),
    ("m3go-2020", 9, "华9.二二", "华9.二二"),
    ("m3go-2020", 9, "华9.22", "华9.二二"),
    ("dullstone", 10, "花10.DC", "花10.DC"),
    ("dullstone", 10, "花10.dc", "花10.DC"),
    // a bare point or pass: the turn from the schedule
    ("m3go-2020", 1, "三三", "黑1.三三"),
    ("m3go-2020", 1, "c3", "黑1.C三"),
    ("m3go-2020", 1, "pass", "黑1.pass"),
    ("m3go-2020", 1, "虚着", "黑1.pass"),
    ("m3go-2016", 63, "dc", "31D.DC"),
    // 000's round notation, both label systems
    ("m3go-2016", 61, "31A.三三", "31A.三三"),
    ("m3go-2016", 61, "31A.33", "31A.三三"),
    ("m3go-2016", 61, "31A.pass", "31A.pass"),
    ("m3go-2016", 63, "31D.DC", "31D.DC"),
    ("m3go-2016", 63, "31D.dc", "31D.DC"),
    ("m3go-2013", 62, "31C.四四", "31C.四四"),
    // the move-number form under the 2016 team schedule
    ("m3go-2016", 61, "黑61.三三", "31A.三三"),
    ("m3go-2016", 63, "花63.DC", "31D.DC"),
    ("m3go-2013", 63, "花63.dc", "31D.DC"),
];

/// An empty 9×9 position under `preset`, next move `number`, as YAML.
fn position(preset: &str, number: u32) -> String {
    format!(
        "rules: {preset}\nsize: 9\nmove: {number}\ndiagram: |\n{}",
        "  . . . . . . . . .\n".repeat(9)
    )
}

/// Whether `written` is a bare point (no turn symbol, number or round): `explain` then
/// explains the point, not a move.
fn bare_point(written: &str) -> bool {
    !written.contains('.') && !matches!(written, "pass" | "虚着")
}

/// What `explain` begins with for the target: the move's verdict, or the empty point.
fn explain_start(written: &str, canonical: &str) -> String {
    if bare_point(written) {
        let point = canonical.split_once('.').map_or(canonical, |(_, p)| p);
        format!("empty point {point}")
    } else {
        format!("{canonical} is legal")
    }
}

/// How a replay's log, which narrates in 003's words, writes the move: a pass is `虚着`
/// (「用虚着（Pass）代替」).
fn log_start(canonical: &str) -> String {
    canonical.replace(".pass", ".虚着")
}

#[test]
fn notation_every_form_reads_the_same_in_every_command() {
    let dir = std::env::temp_dir().join(format!("m3go-notation-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut check = |what: String, ok: bool| {
        if !ok {
            failures.push(what);
        }
    };
    for (k, &(preset, number, written, canonical)) in FORMS.iter().enumerate() {
        let yaml = position(preset, number);
        let pos = dir.join(format!("p{k}.yaml"));
        std::fs::write(&pos, &yaml).unwrap();
        let pos = pos.to_str().unwrap();
        let form = format!("{preset} move {number}: `{written}`");

        // play
        let (code, out, err) = m3go(&["play", pos, written, "--format", "json"]);
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        check(
            format!(
                "play, {form}: exit {code:?}, {err}, notation {}",
                v["reports"][0]["notation"]
            ),
            code == Some(0) && v["reports"][0]["notation"] == canonical,
        );

        // explain
        let (code, out, err) = m3go(&["explain", pos, written]);
        let start = explain_start(written, canonical);
        check(
            format!("explain, {form}: exit {code:?}, {err}, expected `{start}…`, got {out:.80}"),
            code == Some(0) && out.starts_with(&start),
        );

        // protocol: the move played, and the same move probed on the position before it
        let diagram = ". . . . . . . . .\n".repeat(9);
        let request = |id: &str, field: &str| {
            json!({
                "protocol": "m3go-conform/2", "id": id,
                "position": { "rules": preset, "size": 9, "move": number, "diagram": diagram },
                field: [written], "checks": ["notations", "legal"],
            })
        };
        let input = format!(
            "{}\n{}\n",
            request("play", "moves"),
            request("probe", "probes")
        );
        let (code, out, err) = m3go_stdin(&["protocol"], &input);
        let answers: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect();
        check(
            format!("protocol, {form}: exit {code:?}, {err}, answers {out:.400}"),
            code == Some(0)
                && answers.len() == 2
                && answers.iter().all(|a| a.get("error").is_none())
                && answers[0]["reports"][0]["notation"] == canonical
                && answers[1]["probes"][0]["legal"] == true,
        );

        // a game file, replayed
        let game = dir.join(format!("g{k}.txt"));
        std::fs::write(
            &game,
            format!("rules: {preset}\nsize: 9\nmove: {number}\n{written}\n"),
        )
        .unwrap();
        let (code, out, err) = m3go(&["replay", game.to_str().unwrap()]);
        check(
            format!("replay of a game file, {form}: exit {code:?}, {err}, log {out:.120}"),
            code == Some(0) && out.starts_with(&log_start(canonical)),
        );

        // the page's API
        let (status, v) = post("play", json!({ "position": yaml, "moves": [written] }));
        check(
            format!("/api/play, {form}: {status} {v:.200}"),
            status == 200 && v["reports"][0]["notation"] == canonical,
        );
        let (status, v) = post("explain", json!({ "position": yaml, "target": written }));
        check(
            format!("/api/explain, {form}: {status} {v:.200}"),
            status == 200 && v["trace"].as_str().is_some_and(|t| t.starts_with(&start)),
        );
        let record = format!("rules: {preset}\nsize: 9\nmove: {number}\n{written}\n");
        let (status, v) = post("replay", json!({ "record": record }));
        check(
            format!("/api/replay, {form}: {status} {v:.200}"),
            status == 200
                && v["log"]
                    .as_str()
                    .is_some_and(|l| l.starts_with(&log_start(canonical))),
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        failures.is_empty(),
        "{} reading(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Issue 52, item 5: every form m3go *writes* is read by every command that takes moves. A move
/// the rules refused and replaced by a pass (M20-REPLAY-PASS) is written `华139.六D=pass` — by
/// the game file a mechanical replay saves and by the referee in its requests to players (both
/// write `game::Written::REPLACED` after the move's notation). The form is taken from a game
/// file m3go wrote (the Ke Jie record replayed mechanically), then fed to `play`, `protocol`
/// and the page's `/api/play` on the position before it: each plays the pass in its place, and
/// each refuses `=pass` after a move the rules allow.
#[test]
fn notation_the_replaced_form_m3go_writes_is_read_by_every_command() {
    let dir = std::env::temp_dir().join(format!("m3go-replaced-form-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = format!(
        "{}/spec/records/kejie-alphago-2017-g1.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let game = dir.join("game.txt");
    let (code, _, err) = m3go(&[
        "replay",
        "--mechanical",
        &record,
        "--save",
        game.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&game).unwrap();
    let written = text
        .split_whitespace()
        .find(|t| t.ends_with(m3go_engine::game::Written::REPLACED))
        .expect("the game file writes a replaced move")
        .to_string();
    let number: u32 = written
        .split('.')
        .next()
        .and_then(|h| {
            h.trim_start_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .expect("a numbered move");
    let before = dir.join("before.yaml");
    let (code, _, err) = m3go(&[
        "replay",
        "--mechanical",
        &record,
        "--to",
        &(number - 1).to_string(),
        "-o",
        before.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let yaml = std::fs::read_to_string(&before).unwrap();
    let pass = format!("{}.pass", written.split('.').next().unwrap());

    // play
    let (code, out, err) = m3go(&[
        "play",
        before.to_str().unwrap(),
        &written,
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(0), "play `{written}`: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["reports"][0]["notation"], pass.as_str(), "{out:.300}");

    // protocol
    let position: Value = serde_yaml::from_str::<Value>(&yaml).unwrap();
    let request = json!({
        "protocol": "m3go-conform/2", "id": "replaced",
        "position": position, "moves": [written], "checks": ["notations"],
    });
    let (code, out, err) = m3go_stdin(&["protocol"], &format!("{request}\n"));
    assert_eq!(code, Some(0), "{err}");
    let a: Value = serde_json::from_str(out.lines().next().unwrap_or("")).unwrap();
    assert!(a.get("error").is_none(), "protocol `{written}`: {a}");
    assert_eq!(a["reports"][0]["notation"], pass.as_str(), "{a}");

    // the page's API
    let (status, v) = post("play", json!({ "position": yaml, "moves": [written] }));
    assert_eq!(status, 200, "/api/play `{written}`: {v:.300}");
    assert_eq!(v["reports"][0]["notation"], pass.as_str());

    // `=pass` after a move the rules allow is refused, by name
    let allowed = "黑1.三三";
    let empty = dir.join("empty.yaml");
    std::fs::write(
        &empty,
        "rules: m3go-2020\nsize: 19\ndiagram: |\n".to_string()
            + &"  . . . . . . . . . . . . . . . . . . .\n".repeat(19),
    )
    .unwrap();
    let (code, _, err) = m3go(&["play", empty.to_str().unwrap(), &format!("{allowed}=pass")]);
    assert_ne!(code, Some(0), "`{allowed}=pass` on an empty board");
    assert!(err.contains("rules allow"), "{err}");
    let request = json!({
        "protocol": "m3go-conform/2", "id": "allowed",
        "position": serde_yaml::from_str::<Value>(&std::fs::read_to_string(&empty).unwrap()).unwrap(),
        "moves": [format!("{allowed}=pass")],
    });
    let (_, out, _) = m3go_stdin(&["protocol"], &format!("{request}\n"));
    let a: Value = serde_json::from_str(out.lines().next().unwrap_or("")).unwrap();
    assert!(
        a["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("rules allow")),
        "protocol, `{allowed}=pass` on an empty board: {a}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
