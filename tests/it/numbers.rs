//! `render --numbers`: each stone placed after the set-up position carries the number of the
//! move that placed it, found from the history boards; the set-up stones carry none.

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/positions/example.yaml");

/// Runs m3go; returns the exit code and stderr.
fn m3go(args: &[&str]) -> (Option<i32>, String) {
    let (code, _, err) = crate::common::m3go(args);
    (code, err)
}

/// The move numbers written on the figure, in document order.
fn numbers(svg: &str) -> Vec<String> {
    svg.split("class=\"move-number\"")
        .skip(1)
        .filter_map(|t| t.split_once('>').and_then(|(_, r)| r.split_once('<')))
        .map(|(k, _)| k.to_string())
        .collect()
}

#[test]
fn render_numbers_marks_the_stones_played_since_the_set_up() {
    let dir = std::env::temp_dir().join(format!("m3go-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = |f: &str| dir.join(f).to_str().expect("path").to_string();
    // three moves on the top row, left to right: 289, 290, 291
    let (code, err) = m3go(&["play", EXAMPLE, "I九", "H九", "G九", "-o", &path("p.yaml")]);
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = m3go(&[
        "render",
        &path("p.yaml"),
        "--numbers",
        "--svg",
        &path("p.svg"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let svg = std::fs::read_to_string(path("p.svg")).expect("svg");
    assert_eq!(numbers(&svg), ["289", "290", "291"]);
    // without --numbers, or on the set-up position alone, no number is written
    let (code, _) = m3go(&["render", &path("p.yaml"), "--svg", &path("q.svg")]);
    assert_eq!(code, Some(0));
    let q = std::fs::read_to_string(path("q.svg")).expect("svg");
    assert_eq!(numbers(&q), Vec::<String>::new());
    let (code, _) = m3go(&["render", EXAMPLE, "--numbers", "--svg", &path("e.svg")]);
    assert_eq!(code, Some(0));
    let e = std::fs::read_to_string(path("e.svg")).expect("svg");
    assert_eq!(numbers(&e), Vec::<String>::new());
    // the numbers are drawn on the figure only
    let (code, err) = m3go(&["render", EXAMPLE, "--numbers"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--svg"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
