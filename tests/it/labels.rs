//! `--labels latin` on every command that prints points in text (`explain`, `replay`'s
//! narration, `play`'s step lines, the readings): a latin label is printed and no Chinese point
//! label; and the points of a text are written in the label system asked for while its words
//! and clause ids stay as they are.

use m3go_engine::board::coord::CHINESE_LABELS;
use m3go_engine::board::StringName;
use m3go_engine::game::Text;
use m3go_engine::{Labels, Point};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/positions/example.yaml");
const KEJIE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/spec/records/kejie-alphago-2017-g1.sgf"
);

/// Runs m3go, expects exit 0, returns stdout.
fn m3go(args: &[&str]) -> String {
    crate::common::m3go_ok(args, None)
}

/// The Chinese label characters that no latin label and no English word contains.
fn chinese_numerals(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| "一二三四五六七八九".contains(*c))
        .collect()
}

/// Whether `line` holds a Chinese-system point label standing alone: two label characters not
/// inside a longer word or a clause id (`七A`, `六九` in `六九*`; not `GO` in `GO-CAPTURE`).
fn has_chinese_point(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let label = |c: char| CHINESE_LABELS.contains(&c);
    (0..chars.len().saturating_sub(1)).any(|k| {
        label(chars[k])
            && label(chars[k + 1])
            && (k == 0 || !word(chars[k - 1]))
            && chars.get(k + 2).is_none_or(|&c| !word(c))
    })
}

/// The lines of `text` that contain a Chinese-system point label standing alone.
fn chinese_points(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| has_chinese_point(l))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_chinese_point_finder_finds_points_and_not_words() {
    assert!(has_chinese_point("white upper string 六九* (3 stones)"));
    assert!(has_chinese_point("黑291.七A, AB be"));
    assert!(!has_chinese_point(
        "GO-CAPTURE: white upper string 69* removed; 黑291.7a"
    ));
    assert!(!has_chinese_point("M20-FORBID-CAPTURE (D9)"));
}

fn assert_latin_only(text: &str, latin: &str) {
    assert!(text.contains(latin), "no `{latin}` in:\n{text}");
    assert_eq!(chinese_numerals(text), Vec::<char>::new(), "{text}");
    assert_eq!(chinese_points(text), Vec::<String>::new());
}

#[test]
fn explain_a_string_with_latin_labels() {
    let zh = m3go(&["explain", EXAMPLE, "六九*"]);
    assert!(zh.contains("white string 六九*"), "{zh}");
    let la = m3go(&["explain", EXAMPLE, "六九*", "--labels", "latin"]);
    assert_latin_only(&la, "white string 69*");
    assert!(la.contains("private eye: region 79 89 99"), "{la}");
}

#[test]
fn explain_a_flower_string_a_refused_move_and_readings_with_latin_labels() {
    let la = m3go(&["explain", EXAMPLE, "CA*", "--labels", "latin"]);
    assert_latin_only(&la, "flower string ca*");
    let la = m3go(&["explain", EXAMPLE, "华289.五五", "--labels", "latin"]);
    assert_latin_only(&la, "U289.55 is refused");
    let la = m3go(&[
        "explain",
        EXAMPLE,
        "五五",
        "--labels",
        "latin",
        "--readings",
    ]);
    assert_latin_only(&la, "legal-move 99");
}

#[test]
fn replay_narration_and_gloss_with_latin_labels() {
    let args = ["replay", "--mechanical", KEJIE, "--to", "40", "--gloss"];
    let zh = m3go(&args);
    assert!(zh.contains("黑1.七六"), "{zh}");
    let la = m3go(&[&args[..], &["--labels", "latin"]].concat());
    assert_latin_only(&la, "K1.76");
    assert!(
        la.contains("makes private eye i9* for black string 76"),
        "{la}"
    );
}

#[test]
fn play_step_lines_with_latin_labels() {
    let la = m3go(&["play", EXAMPLE, "I九", "H九", "--labels", "latin"]);
    assert_latin_only(&la, "placed flower at i9");
    assert!(la.contains("V290.h9"), "{la}");
    // JSON keeps the Chinese labels
    let js = m3go(&[
        "play", EXAMPLE, "I九", "--labels", "latin", "--format", "json",
    ]);
    assert!(js.contains("\"action\": \"I九\""), "{js}");
}

#[test]
fn a_text_writes_its_points_in_either_system_and_its_words_as_they_are() {
    let mut t = Text::from("GO-CAPTURE: white upper string ");
    t.push(StringName(Point::new(6, 9)))
        .push(" (3 stones) has no liberty: removed; AB be; 做出私眼")
        .push(StringName(Point::new(0, 6)));
    assert_eq!(
        t.format(Labels::Latin),
        "GO-CAPTURE: white upper string 69* (3 stones) has no liberty: removed; AB be; 做出私眼06*"
    );
    assert_eq!(
        t.format(Labels::Chinese),
        "GO-CAPTURE: white upper string 六九* (3 stones) has no liberty: removed; AB be; 做出私眼O六*"
    );
    assert_eq!(t.to_string(), t.format(Labels::Chinese));
}

/// Whether `c` is a CJK character (ideographs, CJK punctuation, full-width forms).
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF)
}

#[test]
fn render_latin_svg_needs_no_cjk_font() {
    let dir = std::env::temp_dir().join(format!("m3go-labels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for layer in ["direct", "holographic", "upper"] {
        let (zh, la) = (dir.join("zh.svg"), dir.join("la.svg"));
        let (zh, la) = (zh.to_str().expect("path"), la.to_str().expect("path"));
        m3go(&["render", EXAMPLE, "--layer", layer, "--svg", zh]);
        m3go(&[
            "render", EXAMPLE, "--layer", layer, "--svg", la, "--labels", "latin",
        ]);
        let zh = std::fs::read_to_string(zh).expect("svg");
        let la = std::fs::read_to_string(la).expect("svg");
        assert!(
            zh.chars().any(is_cjk),
            "{layer}: the Chinese figure has CJK text"
        );
        let cjk: String = la.chars().filter(|&c| is_cjk(c)).collect();
        // data-point names the points in Chinese for the page; nothing else may be CJK
        let without_points: String = la
            .lines()
            .filter(|l| !l.contains("data-point="))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !without_points.chars().any(is_cjk),
            "{layer}: CJK characters {cjk} in the latin figure"
        );
        assert!(la.contains("font-family=\"'Noto Sans CJK SC'"), "{layer}");
        assert!(
            la.contains(",sans-serif\""),
            "{layer}: a generic family last"
        );
        assert!(la.contains("flower forbidden points: C capture point · E one-liberty eye"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The clause ids a text cites (`M20-FORBID-CAPTURE`, `GO-CASCADE`), in order.
fn clause_ids(text: &str) -> Vec<String> {
    let id_char = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-';
    text.split(|c: char| !id_char(c))
        .map(|w| w.trim_matches('-'))
        .filter(|w| w.contains('-') && w.chars().any(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect()
}

/// Issue 24, bug 1: with latin labels the trace of BD at move 288 of the Ke Jie record read
/// `M20-f0RbiD-caPTURE`, `M20-EYE-Regi0N`. `explain`, `analyze` (with the readings), `play`'s
/// steps and `replay`'s log with `--labels latin` cite the same clause ids, letter for letter,
/// as with Chinese labels.
#[test]
fn latin_labels_leave_clause_ids_intact_in_explain_and_analyze() {
    let dir = std::env::temp_dir().join(format!("m3go-labels-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pos = dir.join("kejie-288.yaml");
    let pos = pos.to_str().expect("a UTF-8 path");
    m3go(&["replay", "--mechanical", KEJIE, "--to", "288", "-o", pos]);
    for args in [
        vec!["explain", pos, "BD"],
        vec!["explain", pos, "AC*"],
        vec!["explain", pos, "BD", "--readings"],
        vec!["analyze", pos, "--verbose"],
        vec!["analyze", EXAMPLE, "--readings"],
        vec!["play", EXAMPLE, "I九", "H九", "七A", "pass"],
        vec!["replay", "--mechanical", KEJIE, "--to", "288", "--gloss"],
    ] {
        let zh = m3go(&args);
        let la = m3go(&[&args[..], &["--labels", "latin"]].concat());
        let ids = clause_ids(&zh);
        assert!(!ids.is_empty(), "{args:?} cites no clause:\n{zh}");
        assert_eq!(clause_ids(&la), ids, "{args:?} with latin labels:\n{la}");
        for id in &ids {
            assert!(
                m3go::conform::register::clause(id).is_some(),
                "{id} is not a clause of the register"
            );
        }
    }
    let la = m3go(&["explain", pos, "BD", "--labels", "latin"]);
    assert!(
        la.contains("M20-EYE-REGION") || la.contains("M20-FORBID"),
        "{la}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every clause id of the register, written as the engine writes clause ids in its text (in
/// parentheses, before a colon, in a list, next to points), is written letter for letter in
/// latin labels, though many are made of label letters (`M20-FORBID-CAPTURE`: F O B I D C A):
/// a text's words are never labels.
#[test]
fn latin_labels_leave_every_clause_id_of_the_register_intact() {
    let clauses = m3go::conform::register::clauses();
    assert!(clauses.len() > 150, "{} clauses", clauses.len());
    for c in &clauses {
        let id = &c.id;
        let (p, s) = (Point::new(7, -1), StringName(Point::new(6, 9)));
        let mut texts = vec![
            Text::from(id.as_str()),
            Text::from(format!("({id})")),
            Text::from(format!("{id} / {id}")),
        ];
        texts.push({
            let mut t = Text::from(format!("{id}: "));
            t.push(s).push(" removed");
            t
        });
        texts.push({
            let mut t = Text::new();
            t.push(p)
                .push(format!(" is a capture point ({id}, {id}) next to "))
                .push(s);
            t
        });
        for text in texts {
            let zh = text.format(Labels::Chinese);
            assert_eq!(
                clause_ids(&text.format(Labels::Latin)),
                clause_ids(&zh),
                "{zh}"
            );
            assert!(clause_ids(&zh).contains(id), "{zh}");
        }
    }
}

/// The text of `analyze --verbose`, of `explain` (of every string, flower string and of the
/// case's first move), the steps and refusals of the case's moves played in turn, and (every
/// tenth case) the readings, with latin labels, over the position of every case of the suite
/// that starts from one: each clause id the Chinese text cites is cited, letter for letter and
/// in the same order, by the latin one, and the latin text names no Chinese point (what
/// `m3go analyze`/`explain`/`play --labels latin` print, built by the same functions in
/// process).
#[test]
fn latin_labels_leave_the_clause_ids_of_every_case_position_intact() {
    use m3go_engine::formats::explain::Trace;
    use m3go_engine::formats::report::{AnalysisReport, TextOptions};
    let mut seen = std::collections::BTreeSet::new();
    let mut positions = 0;
    for (place, case, pos) in case_positions() {
        positions += 1;
        let report = AnalysisReport::new(&pos);
        let text_in = |labels| {
            report.to_text_with(TextOptions {
                labels,
                verbose: true,
            })
        };
        let mut texts = vec![(text_in(Labels::Chinese), text_in(Labels::Latin))];
        let mut targets: Vec<String> = report.strings.iter().map(|s| s.name.to_string()).collect();
        targets.extend(report.flowers.iter().map(|s| s.name.to_string()));
        if let Some(m) = case
            .get("moves")
            .and_then(|m| m.as_sequence())
            .and_then(|m| m.first())
            .and_then(|m| m.as_str())
        {
            targets.push(m.to_string());
        }
        for t in &targets {
            if let Ok(trace) = Trace::explain(&pos, t) {
                texts.push((trace.format(Labels::Chinese), trace.format(Labels::Latin)));
            }
        }
        let moves = case.get("moves").and_then(|m| m.as_sequence());
        let mut p = pos.clone();
        for m in moves.into_iter().flatten().filter_map(|m| m.as_str()) {
            let Ok(mv) = m3go_engine::Move::parse_in(m, p.rules(), p.board().size()) else {
                break;
            };
            match p.play_reported(&mv) {
                Ok((next, r)) => {
                    for s in &r.steps {
                        texts.push((s.format(Labels::Chinese), s.format(Labels::Latin)));
                    }
                    p = next;
                }
                Err(e) => {
                    let (zh, la) = (
                        e.message.format(Labels::Chinese),
                        e.message.format(Labels::Latin),
                    );
                    texts.push((
                        format!("{zh} ({})", e.clause),
                        format!("{la} ({})", e.clause),
                    ));
                    break;
                }
            }
        }
        if positions % 10 == 1 {
            let register = m3go::conform::register::option_entries();
            if let Ok(rd) = m3go::tools::readings::readings(&pos, None, &register) {
                texts.push((rd.to_text_in(Labels::Chinese), rd.to_text_in(Labels::Latin)));
            }
        }
        for (zh, la) in texts {
            let ids = clause_ids(&zh);
            assert_eq!(clause_ids(&la), ids, "{place}:\n{la}");
            assert_eq!(chinese_points(&la), Vec::<String>::new(), "{place}");
            seen.extend(ids);
        }
    }
    assert!(positions > 150, "only {positions} case positions");
    let clauses = m3go::conform::register::clauses();
    for id in &seen {
        // a clause, or a family of clauses (`M20-ATTR` for M20-ATTR-1, M20-ATTR-2B, …)
        assert!(
            clauses
                .iter()
                .any(|c| c.id == *id || c.id.starts_with(&format!("{id}-"))),
            "{id} is cited but neither a clause nor a family of clauses of the register"
        );
    }
    assert!(seen.len() >= 30, "only {} clause ids cited", seen.len());
}

/// A reading under which a case position is no position (an upper string left without a
/// liberty) says so naming the string in the label system asked for: the setup's problems
/// hold typed points, so the latin readings name no Chinese point there either.
#[test]
fn a_reading_that_makes_the_position_invalid_names_its_string_in_latin() {
    let register = m3go::conform::register::option_entries();
    for (place, _, pos) in case_positions() {
        let Ok(rd) = m3go::tools::readings::readings(&pos, None, &register) else {
            continue;
        };
        let zh = rd.to_text_in(Labels::Chinese);
        if !zh.contains("has no liberty") {
            continue;
        }
        let la = rd.to_text_in(Labels::Latin);
        assert!(la.contains("has no liberty"), "{place}:\n{la}");
        assert_eq!(chinese_points(&la), Vec::<String>::new(), "{place}:\n{la}");
        assert_ne!(zh, la, "{place}: the string is named in either system");
        return;
    }
    panic!("no case position is invalid under any reading of the register");
}

/// The cases of the suite that start from a position, in file order: the file, the case as
/// YAML and its position (cases whose position is refused are left out).
fn case_positions() -> Vec<(String, serde_yaml::Value, m3go_engine::Position)> {
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/cases"))
        .expect("spec/cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a case");
        let case: serde_yaml::Value = serde_yaml::from_str(&text).expect("YAML");
        let Some(position) = case.get("position") else {
            continue;
        };
        let place = f.to_string_lossy().into_owned();
        let yaml = serde_yaml::to_string(position).expect("YAML");
        let Ok(setup) = m3go_engine::game::from_yaml::<m3go_engine::Setup>(&yaml, &place) else {
            continue;
        };
        let Ok(pos) = setup.to_position(&place) else {
            continue;
        };
        out.push((place, case, pos));
    }
    out
}
