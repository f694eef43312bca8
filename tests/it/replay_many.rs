//! `m3go replay` of many records: one summary line per record in the order given, a total,
//! the same output on any number of workers, shards that add up to the whole, and a failing
//! record listed with its error (exit 2) without stopping the others.

/// Runs m3go; returns the exit code (-1 if killed), stdout and stderr.
fn m3go(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = crate::common::m3go(args);
    (code.unwrap_or(-1), out, err)
}

/// Three small game files and one whose second move is on an occupied point.
fn records() -> (std::path::PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("m3go-replay-many-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let games = [
        ("a.txt", "size: 5\n黑1.OO 白2.一一 黑3.二二\n"),
        ("b.txt", "size: 5\n黑1.一O 白2.OO\n"),
        ("bad.txt", "size: 5\n黑1.OO 白2.OO\n"),
        ("c.txt", "size: 7\n黑1.OO pass pass\n"),
    ];
    let mut paths = Vec::new();
    for (name, text) in games {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
        paths.push(p.to_string_lossy().into_owned());
    }
    (dir, paths)
}

#[test]
fn replay_many_records_summarises_each_and_totals_on_any_number_of_workers() {
    let (dir, paths) = records();
    let p: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut args = vec!["replay"];
    args.extend(&p);
    let (code, out, err) = m3go(&args);
    assert_eq!(code, 2, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (line, path) in lines.iter().zip(&paths) {
        assert!(line.starts_with(&format!("{path}: ")), "{line}");
    }
    assert!(
        lines[2].contains("error:") && lines[2].contains("occupied"),
        "{out}"
    );
    assert!(lines[0].contains("打谱至第3手"), "{out}");
    assert!(
        lines[4].starts_with("3 records replayed, 1 failed; 8 moves"),
        "{out}"
    );
    assert!(err.contains("1 of 4 records failed to replay"), "{err}");
    // the same output on two workers
    let mut par = args.clone();
    par.extend(["--jobs", "2"]);
    let (code2, out2, _) = m3go(&par);
    assert_eq!((code2, out2.as_str()), (code, out.as_str()));
    // two shards hold the records between them
    let mut first = args.clone();
    first.extend(["--shard", "1/2"]);
    let (_, o1, _) = m3go(&first);
    let mut second = args.clone();
    second.extend(["--shard", "2/2"]);
    let (_, o2, _) = m3go(&second);
    assert!(
        o1.contains("a.txt: ") && o1.contains("bad.txt: error"),
        "{o1}"
    );
    assert!(o2.contains("b.txt: ") && o2.contains("c.txt: "), "{o2}");
    // -o and --save write one record's result
    let mut save = args.clone();
    save.extend(["--save", "x.sgf"]);
    let (code, _, err) = m3go(&save);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--save") && err.contains("a single GAME"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
