//! The typed input error: representative sites fill the place and the expectation as fields,
//! and the one `Display` writes them as the message.

use m3go_engine::formats::record::Record;
use m3go_engine::game::from_yaml;
use m3go_engine::{ErrorKind, InputError, Place, Rules, Setup};

#[test]
fn errors_yaml_syntax_error_has_file_line_and_column() {
    let e = from_yaml::<Setup>("size: 3\ndiagram: \"unclosed\n", "p.yaml").unwrap_err();
    assert_eq!(e.place.file.as_deref(), Some("p.yaml"));
    assert_eq!(e.place.line, Some(3));
    assert_eq!(e.place.column, Some(1));
    assert_eq!(e.what, "found unexpected end of stream");
    assert_eq!(
        e.during.as_deref(),
        Some("while scanning a quoted scalar at line 2 column 10")
    );
    assert_eq!(
        e.to_string(),
        "p.yaml: found unexpected end of stream at line 3 column 1, while scanning a quoted \
         scalar at line 2 column 10"
    );
}

#[test]
fn errors_a_key_that_is_no_field_name_is_said_as_such_by_the_cli_and_the_page_alike() {
    // `{{{` (a mapping where a field name goes): serde's "expected field identifier" said as
    // what the file holds and what it should hold, with the line and column; the page's
    // server reads positions through the same function, so it shows the same message
    let e = from_yaml::<Setup>("{{{\n", "bad.yaml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad.yaml: a key is a mapping (`{` opens one) where a field name goes: expected a field \
         name and its value, one a line, as `size: 9` at line 1 column 2"
    );
    let e = from_yaml::<Setup>("- a\n- b\n", "bad.yaml").unwrap_err();
    assert!(!e.to_string().contains("field identifier"), "{e}");
}

#[test]
fn errors_yaml_type_error_keeps_the_readers_path_and_position() {
    let e = from_yaml::<Setup>("size: nine\ndiagram: x\n", "p.yaml").unwrap_err();
    assert_eq!((e.place.line, e.place.column), (Some(1), Some(7)));
    assert_eq!(
        e.to_string(),
        "p.yaml: size: invalid type: string \"nine\", expected a whole number at line 1 column 7"
    );
}

#[test]
fn errors_unknown_header_key_has_the_key_and_the_expectation() {
    let e = Record::parse_game_text(
        "size: 9\ncolour: red\n",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_err();
    assert_eq!(e.place.file.as_deref(), Some("g.txt"));
    assert_eq!(e.place.line, Some(2));
    assert_eq!(e.place.key.as_deref(), Some("colour"));
    assert_eq!(e.place.text.as_deref(), Some("red"));
    assert!(
        e.what
            .starts_with("unknown header key: expected rules, size"),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("g.txt: line 2: `colour: red`: unknown header key: expected rules"),
        "{e}"
    );
}

#[test]
fn errors_bad_move_has_the_move_number() {
    let e = Record::parse_game_text(
        "size: 9\n黑1.B二\n白2.Z二\n",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap_err();
    assert_eq!(e.place.file.as_deref(), Some("g.txt"));
    assert_eq!(e.place.line, Some(3));
    assert_eq!(e.place.move_number, Some(2));
    assert!(
        e.to_string()
            .starts_with("g.txt: line 3, move 2: move `白2.Z二`: "),
        "{e}"
    );
}

#[test]
fn errors_illegal_record_move_leads_with_the_move() {
    let r: Record = Record::parse_game_text(
        "size: 9\n黑1.B二\n白2.B二\n",
        "g.txt",
        m3go_engine::formats::record::StartFiles::Refused,
    )
    .unwrap();
    let e = r.replay_strict(&Rules::m3go_2020(), None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    assert_eq!(e.place.move_number, Some(2));
    assert_eq!(e.place.at.as_deref(), Some("g.txt line 3"));
    assert_eq!(e.place.text.as_deref(), Some("白2.B二"));
    assert_eq!(
        e.to_string(),
        format!("move 2 (g.txt line 3, `白2.B二`) is illegal: {}", e.what)
    );
}

#[test]
fn errors_context_is_added_outside_the_place() {
    let inner = InputError::new("board size 4 is not allowed")
        .file("game.txt")
        .line(3)
        .key("size")
        .text("4")
        .expected("an odd size from 3 to 19");
    let e = inner.within(Place::default().file("case.yaml").key("start"));
    assert_eq!(
        e.to_string(),
        "case.yaml: start: game.txt: line 3: `size: 4`: board size 4 is not allowed: expected \
         an odd size from 3 to 19"
    );
    // `in_file` names the file when none is known, else it encloses the place
    let e = InputError::expecting("a move number")
        .key("move")
        .in_file("p.yaml");
    assert_eq!(e.place.file.as_deref(), Some("p.yaml"));
    assert_eq!(e.to_string(), "p.yaml: move: expected a move number");
    let e = e.in_file("outer.yaml");
    assert_eq!(e.outer.len(), 1);
    assert_eq!(
        e.to_string(),
        "outer.yaml: p.yaml: move: expected a move number"
    );
}

/// A position listing `dead` points `n` times (all `point`), on a 5×5 board with one stone.
fn dead_many(point: &str, n: usize) -> String {
    let list = vec![point; n].join(", ");
    format!("size: 5\ndiagram: |\n  . . . . .\n  . . . . .\n  . . X . .\n  . . . . .\n  . . . . .\ndead: [{list}]\n")
}

/// Finding 6 of issue 36: a position listing a bad `dead` point 300,000 times gave a message
/// of 29 MB (one problem per entry); an error keeps the first `MAX_LISTED` problems and counts
/// the rest, in the library's error and in its text.
#[test]
fn errors_a_position_lists_at_most_max_listed_problems_then_counts_the_rest() {
    use m3go_engine::error::MAX_LISTED;
    let n = 300_000;
    for point in ["K10", "一A"] {
        let setup = from_yaml::<Setup>(&dead_many(point, n), "p.yaml").unwrap();
        let e = setup.to_position("p.yaml").unwrap_err();
        assert_eq!(e.problems.len(), MAX_LISTED, "{point}");
        assert_eq!(e.problems.total(), n, "{point}");
        assert_eq!(e.problems.more(), n - MAX_LISTED, "{point}");
        let shown = e.to_string();
        assert!(
            shown.ends_with(&format!("; and {} more", n - MAX_LISTED)),
            "{shown}"
        );
        assert!(
            shown.contains("dead[19]:") && !shown.contains("dead[20]:"),
            "{shown}"
        );
        assert!(shown.len() < 4096, "{} bytes", shown.len());
        let text = e.text().format(m3go_engine::Labels::Latin);
        assert!(
            text.ends_with(&format!("; and {} more", n - MAX_LISTED)),
            "{text}"
        );
        assert!(text.len() < 4096, "{} bytes", text.len());
    }
}

/// The same through the command line: one short line on standard error, exit 2.
#[test]
fn errors_the_command_line_shows_a_bounded_problem_list() {
    let dir = std::env::temp_dir().join(format!("m3go-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dead.yaml");
    std::fs::write(&path, dead_many("K10", 200_000)).unwrap();
    let (code, out, err) = crate::common::m3go(&["analyze", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.trim_end().ends_with("; and 199980 more"), "{err}");
    assert!(err.len() < 4096, "{} bytes", err.len());
}

/// A failure of m3go's own (a serialiser refusing a value m3go built) is no bad input: its kind
/// is `Internal`, answered with the protocol's `internal` code, and its message is the failure's.
#[test]
fn errors_a_serialiser_failure_is_internal_not_bad_input() {
    use m3go::conform::outputs::ErrorCode;
    let mut map = std::collections::HashMap::new();
    map.insert(vec![1u8], 1u8); // a map whose keys are no strings: JSON has no form for it
    let failure = serde_json::to_string(&map).unwrap_err();
    let e = InputError::internal(&failure);
    assert_eq!(e.kind, ErrorKind::Internal);
    assert_eq!(ErrorCode::of_kind(e.kind), ErrorCode::Internal);
    assert_eq!(e.to_string(), failure.to_string());
    assert_eq!(ErrorCode::of_kind(ErrorKind::Bad), ErrorCode::BadInput);
}
