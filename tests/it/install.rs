//! Installing the man page and the shell completions (issue 53, item 5): `m3go manpage
//! --install DIR` writes `DIR/man1/m3go.1` and `m3go completions SHELL --install DIR` the
//! script in DIR under the name that shell loads it by, each the text the command prints without
//! `--install`, creating the folders, and prints the path it wrote. Something that is not a
//! regular file at that name is refused and left as it is.

use crate::common::{m3go, m3go_ok};

#[test]
fn the_man_page_and_the_completions_install_where_they_say() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // a folder that does not exist yet, two levels deep: created
    let man = dir.path().join("share").join("man");
    let (code, out, err) = m3go(&["manpage", "--install", &man.to_string_lossy()]);
    assert_eq!(code, Some(0), "{err}");
    let page = man.join("man1").join("m3go.1");
    assert_eq!(out, format!("wrote {}\n", page.display()));
    let printed = m3go_ok(&["manpage"], None);
    assert!(printed.contains(".TH m3go 1"), "{printed:.200}");
    assert_eq!(std::fs::read_to_string(&page).expect("the page"), printed);

    for (shell, name) in [
        ("bash", "m3go"),
        ("zsh", "_m3go"),
        ("fish", "m3go.fish"),
        ("elvish", "m3go.elv"),
        ("powershell", "_m3go.ps1"),
    ] {
        let folder = dir.path().join("completions").join(shell);
        let (code, out, err) =
            m3go(&["completions", shell, "--install", &folder.to_string_lossy()]);
        assert_eq!(code, Some(0), "{shell}: {err}");
        let file = folder.join(name);
        assert_eq!(out, format!("wrote {}\n", file.display()), "{shell}");
        let written = std::fs::read_to_string(&file).expect("the script");
        assert_eq!(written, m3go_ok(&["completions", shell], None), "{shell}");
        // nothing else in the folder
        assert_eq!(std::fs::read_dir(&folder).expect("the folder").count(), 1);
    }

    // installed again: the file is replaced, not refused
    let (code, _, err) = m3go(&["manpage", "--install", &man.to_string_lossy()]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn an_install_refuses_what_is_not_a_file_and_an_empty_folder_name() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let blocked = dir.path().join("m3go");
    std::fs::create_dir(&blocked).expect("a folder at the script's name");
    let (code, out, err) = m3go(&[
        "completions",
        "bash",
        "--install",
        &dir.path().to_string_lossy(),
    ]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        err.contains("a folder, where the run writes a file"),
        "{err}"
    );
    assert!(
        err.contains(&blocked.to_string_lossy().into_owned()),
        "{err}"
    );
    assert!(blocked.is_dir(), "the folder in the way is left as it is");

    for args in [
        ["manpage", "--install", ""].as_slice(),
        ["completions", "zsh", "--install", " "].as_slice(),
    ] {
        let (code, out, err) = m3go(args);
        assert_eq!(code, Some(2), "{args:?}: {out}");
        assert!(
            err.contains("--install") && err.contains("an empty folder name"),
            "{args:?}: {err}"
        );
    }
}
