//! The root crate reads the files (`m3go::input`), the engine parses the texts it is given: a
//! missing file, a folder, a device and a FIFO read through the root crate's reader get the
//! messages and kinds they had when the engine read them, and a game file's start position is
//! read by the reader its caller gives. The command's own kinds (an output that cannot be
//! written, a bound on the work) are the root crate's error, worded as an input error.

use m3go::conform::outputs::ErrorCode;
use m3go::errors::{Error, OfKind};
use m3go::input::{load_position, load_record, read_text};
use m3go_engine::formats::record::{Record, StartFiles};
use m3go_engine::{ErrorKind, InputError};
use std::path::PathBuf;

/// A new empty folder of this test process, named by `tag`.
fn temp_folder(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-layers-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

#[test]
fn layers_a_missing_file_a_folder_and_a_device_read_as_before() {
    let dir = temp_folder("missing");
    let missing = dir.join("none.yaml");
    let missing = missing.to_str().expect("utf-8 path");
    let e = read_text(missing).expect_err("missing");
    assert_eq!(e.kind, ErrorKind::Unreadable);
    assert_eq!(
        e.to_string(),
        format!("{missing}: cannot read: No such file or directory (os error 2)")
    );
    let e = load_position(missing).expect_err("missing");
    assert_eq!(e.kind, ErrorKind::Unreadable);

    let folder = dir.to_str().expect("utf-8 path");
    let e = read_text(folder).expect_err("a folder");
    assert_eq!(e.kind, ErrorKind::Unreadable);
    assert_eq!(
        e.to_string(),
        format!("{folder}: a folder: expected a file")
    );

    assert_eq!(
        read_text("/dev/null").expect("a device that ends at once"),
        ""
    );
}

#[cfg(unix)]
#[test]
fn layers_a_fifo_is_read_whole_through_the_root_crates_reader() {
    let dir = temp_folder("fifo");
    let fifo = dir.join("pos.yaml");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("a FIFO");
    let path = fifo.to_str().expect("utf-8 path").to_string();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            std::fs::write(&fifo, "\u{feff}diagram: |\n  . . .\n  . X .\n  . . .\n")
                .expect("written")
        })
    };
    let pos = load_position(&path).expect("the position the FIFO holds");
    writer.join().expect("the writer ends");
    assert_eq!(pos.board().size(), 3);
}

#[test]
fn layers_a_start_file_is_read_by_the_callers_reader() {
    let text = "position: start.yaml\n黑1.OO\n";
    let refuse = |path: &str| -> Result<String, InputError> {
        Err(InputError::new("not here")
            .file(path)
            .of_kind(ErrorKind::Unreadable))
    };
    let e = Record::parse_game_text(text, "g.txt", StartFiles::In("games", &refuse))
        .expect_err("the reader refuses");
    assert_eq!(e.kind, ErrorKind::Unreadable);
    assert_eq!(
        e.to_string(),
        "g.txt: line 1: position: games/start.yaml: not here"
    );
    let e = Record::parse_game_text(text, "g.txt", StartFiles::Refused).expect_err("refused");
    assert!(
        e.to_string().contains("may not name a start position file"),
        "{e}"
    );

    let dir = temp_folder("start");
    let game = dir.join("g.txt");
    std::fs::write(&game, text).expect("written");
    let e = load_record(game.to_str().expect("utf-8 path")).expect_err("no start file");
    assert_eq!(e.kind, ErrorKind::Unreadable);
    assert!(e.to_string().contains("start.yaml: cannot read: "), "{e}");
}

#[test]
fn layers_the_commands_kinds_are_the_root_crates_worded_as_input_errors() {
    let input = InputError::new("a folder")
        .file("out")
        .expected("a file or a new path");
    let written: Error = input.clone().unwritable();
    assert_eq!(written.to_string(), input.to_string());
    assert_eq!(ErrorCode::of_error(&written), ErrorCode::Unwritable);
    let limit = input.clone().limit_exceeded();
    assert_eq!(ErrorCode::of_error(&limit), ErrorCode::LimitExceeded);
    assert_eq!(limit.input(), &input);
    let bad: Error = input.into();
    assert_eq!(ErrorCode::of_error(&bad), ErrorCode::BadInput);
    assert_eq!(
        ErrorCode::of_error(&written.key("--out")),
        ErrorCode::Unwritable
    );
}
