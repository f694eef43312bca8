//! `m3go completions SHELL` and `m3go manpage`: the shell completions and the roff man page,
//! both written from the clap definition the parser uses (clap_complete, clap_mangen), so they
//! list exactly the subcommands, flags and values `m3go` accepts. With `--install DIR` each is
//! written into a folder, under the name the shell or `man` looks for, instead of printed.

use crate::cli::Cli;
use crate::outputs::Folder;
use clap::CommandFactory;
use clap_complete::Shell;
use m3go_engine::InputError;

/// Print the completion script of a shell.
///
/// Install it as the shell expects with `--install DIR`, e.g. `m3go completions bash --install
/// ~/.local/share/bash-completion/completions`, `m3go completions zsh --install ~/.zfunc` (a
/// folder of `fpath`), `m3go completions fish --install ~/.config/fish/completions`; or print it:
/// `m3go completions bash > ~/.local/share/bash-completion/completions/m3go`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
    /// Write the script into DIR (created if missing) under the name the shell loads it by —
    /// bash `m3go`, zsh `_m3go`, fish `m3go.fish`, elvish `m3go.elv`, powershell `_m3go.ps1` —
    /// and print its path, instead of printing the script.
    #[arg(long, value_name = "DIR")]
    pub install: Option<String>,
}

/// The file name a shell loads m3go's completions from, in its completions folder.
fn script_name(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "m3go",
        Shell::Zsh => "_m3go",
        Shell::Fish => "m3go.fish",
        Shell::Elvish => "m3go.elv",
        Shell::PowerShell => "_m3go.ps1",
        // clap_complete's list is closed for m3go's parser; a later shell gets its own name
        _ => "m3go.completions",
    }
}

pub fn run(args: CompletionsArgs) -> Result<(), crate::errors::Error> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "m3go", &mut out);
    let text = String::from_utf8_lossy(&out);
    match &args.install {
        Some(dir) => install(dir, script_name(args.shell), &text),
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

/// Writes `text` as `name` into the folder `dir` (created if missing; a link, folder or device
/// at the name is refused and left as it is) and prints the path written.
fn install(dir: &str, name: &str, text: &str) -> Result<(), crate::errors::Error> {
    if dir.trim().is_empty() {
        return Err(InputError::new("an empty folder name")
            .key("--install")
            .expected("the folder to write into")
            .into());
    }
    let folder = Folder::open(dir).map_err(|e| e.key("--install"))?;
    folder.check(&[name.to_string()])?;
    folder.write(name, text)?;
    outln!("wrote {}", folder.path_of(name));
    Ok(())
}

/// Print the man page (roff).
///
/// `m3go manpage --install DIR` writes it as `DIR/man1/m3go.1`, where `man m3go` finds it when
/// DIR is a folder of the manual's search path: `~/.local/share/man`, or the `share/man` beside
/// the `bin/` that holds m3go (`~/.cargo/share/man`, a virtual environment's `share/man`), which
/// man-db searches for every folder of PATH. Or print it: `m3go manpage > m3go.1 && man ./m3go.1`.
/// The page of the whole command: every subcommand with its arguments (`m3go SUB --help` has
/// the same text).
#[derive(Debug, clap::Args)]
pub struct ManpageArgs {
    /// Write the page as DIR/man1/m3go.1 (the folders created if missing) and print its path,
    /// instead of printing the page.
    #[arg(long, value_name = "DIR")]
    pub install: Option<String>,
}

pub fn manpage(args: ManpageArgs) -> Result<(), crate::errors::Error> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    let io = |e: std::io::Error| InputError::new(format!("cannot write the man page: {e}"));
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut out).map_err(io)?;
    // NAME and SUBCOMMANDS written here: clap_mangen's repeat the name (`m3go \- m3go — …`)
    // and cite a page per subcommand (`m3go-analyze(1)`) that is not shipped: each is a
    // section of this page
    let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    let about = about.trim_start_matches("m3go — ").trim_end_matches('.');
    out.extend_from_slice(format!(".SH NAME\nm3go \\- {}\n", roff(about)).as_bytes());
    man.render_synopsis_section(&mut out).map_err(io)?;
    man.render_description_section(&mut out).map_err(io)?;
    man.render_options_section(&mut out).map_err(io)?;
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
        .collect();
    out.extend_from_slice(b".SH SUBCOMMANDS\n");
    for sub in &subs {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        out.extend_from_slice(
            format!(
                ".TP\n\\fBm3go {}\\fR\n{}\n",
                roff(sub.get_name()),
                roff(&about)
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(
        b".PP\nEach is described in its own section below (M3GO ANALYZE, ...), as \\fBm3go\n\\fISUBCOMMAND\\fB \\-\\-help\\fR prints it.\n",
    );
    if cmd.get_after_help().is_some() || cmd.get_after_long_help().is_some() {
        man.render_extra_section(&mut out).map_err(io)?;
    }
    man.render_version_section(&mut out).map_err(io)?;
    for sub in subs {
        out.extend_from_slice(
            format!(".SH \"M3GO {}\"\n", sub.get_name().to_uppercase()).as_bytes(),
        );
        let man = clap_mangen::Man::new(sub.clone());
        man.render_description_section(&mut out).map_err(io)?;
        man.render_synopsis_section(&mut out).map_err(io)?;
        man.render_options_section(&mut out).map_err(io)?;
    }
    let text = String::from_utf8_lossy(&out);
    match &args.install {
        Some(dir) if dir.trim().is_empty() => Err(InputError::new("an empty folder name")
            .key("--install")
            .expected("the folder of the manual to write man1/m3go.1 into")
            .into()),
        Some(dir) => install(
            &std::path::Path::new(dir).join("man1").to_string_lossy(),
            "m3go.1",
            &text,
        ),
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

/// `text` as roff text on its own lines: backslashes and hyphens escaped, and a line that would
/// begin with a control character (`.` or `'`) made plain text.
fn roff(text: &str) -> String {
    text.replace('\\', "\\e")
        .replace('-', "\\-")
        .lines()
        .map(|l| {
            if l.starts_with(['.', '\'']) {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
