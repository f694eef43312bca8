//! A UTF-8 byte-order mark (EF BB BF) at the start of a text is skipped wherever m3go reads text:
//! a position file, a rules file, an SGF record, a game file, a protocol line, a request body of
//! the page's API and the position and record texts it carries. Windows editors write one; YAML
//! 1.2 and the other SGF and YAML parsers accept it. Each input with the mark must give exactly
//! what the same input without it gives.

use crate::common::{m3go, m3go_stdin};
use crate::serve_api::{post, post_raw};
use serde_json::{json, Value};

const BOM: &str = "\u{feff}";

const POSITION: &str = "rules: m3go-2020\nsize: 5\nmove: 3\ndiagram: |\n  . . . . .\n  . X . . .\n  . . O . .\n  . . . . .\n  . . . . .\n";
const GAME: &str = "rules: m3go-2020\nsize: 5\n黑1.OO 白2.A一 黑3.一A\n";
const SGF: &str = "(;GM[1]FF[4]SZ[5];B[cc];W[bb];B[dd])";
const RULES: &str = "preset: dullstone\nko: positional\n";

/// Runs `m3go ARGS…FILE` on `text` written to a file, with and without the mark.
fn with_and_without(name: &str, text: &str, args: &[&str]) -> [(Option<i32>, String, String); 2] {
    let dir = std::env::temp_dir().join(format!("m3go-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    [String::new(), BOM.to_string()].map(|mark| {
        let path = dir.join(format!(
            "{}{name}",
            if mark.is_empty() { "" } else { "bom-" }
        ));
        std::fs::write(&path, format!("{mark}{text}")).unwrap();
        let path = path.to_str().unwrap().to_string();
        let mut full: Vec<&str> = args.to_vec();
        full.push(&path);
        let (code, out, err) = m3go(&full);
        // the file's name is in some outputs: compare without it
        let name_of = |s: String| s.replace(&path, "FILE");
        (code, name_of(out), name_of(err))
    })
}

#[test]
fn bom_is_skipped_in_every_file_m3go_reads() {
    for (name, text, args) in [
        ("p.yaml", POSITION, &["analyze", "--format", "json"][..]),
        ("g.txt", GAME, &["replay"][..]),
        ("r.sgf", SGF, &["replay", "--mechanical"][..]),
        ("rules.yaml", RULES, &["rules", "check"][..]),
    ] {
        let [plain, marked] = with_and_without(name, text, args);
        assert_eq!(plain.0, Some(0), "{name} without a mark: {}", plain.2);
        assert_eq!(
            marked, plain,
            "{name}: with a byte-order mark it reads otherwise"
        );
    }
}

#[test]
fn bom_is_skipped_in_a_protocol_line_and_in_the_page_api() {
    let diagram = ". . .\n. . .\n. . .\n";
    let request = json!({
        "protocol": "m3go-conform/2", "id": 1,
        "position": { "rules": "m3go-2020", "size": 3, "move": 1, "diagram": diagram },
        "moves": ["OO"], "checks": ["notations"],
    })
    .to_string();
    let plain = m3go_stdin(&["protocol"], &format!("{request}\n"));
    let marked = m3go_stdin(&["protocol"], &format!("{BOM}{request}\n"));
    assert!(!plain.1.contains("\"error\""), "{}", plain.1);
    assert_eq!(marked, plain, "a protocol line with a byte-order mark");

    // a request body that starts with the mark
    let body = json!({ "position": POSITION }).to_string();
    let (status, plain) = post_raw("analyze", &body);
    assert_eq!(status, 200, "{plain}");
    assert_eq!(post_raw("analyze", &format!("{BOM}{body}")), (200, plain));

    // the position and record texts a request carries
    let (status, plain) = post("analyze", json!({ "position": POSITION }));
    assert_eq!(status, 200, "{plain}");
    let (status, marked) = post("analyze", json!({ "position": format!("{BOM}{POSITION}") }));
    assert_eq!((status, &marked["analysis"]), (200, &plain["analysis"]));
    for record in [GAME, SGF] {
        let (status, plain) = post("replay", json!({ "record": record, "mechanical": true }));
        assert_eq!(status, 200, "{plain}");
        let (status, marked): (u16, Value) = post(
            "replay",
            json!({ "record": format!("{BOM}{record}"), "mechanical": true }),
        );
        assert_eq!((status, marked), (200, plain), "{record}");
    }
}
