//! `m3go completions SHELL` and `m3go manpage`: the shell completions and the roff man page,
//! both written from the clap definition the parser uses (clap_complete, clap_mangen), so they
//! list exactly the subcommands, flags and values `m3go` accepts.

use crate::cli::Cli;
use clap::CommandFactory;
use m3go_engine::InputError;

/// Print the completion script of a shell.
///
/// Install it as the shell expects, e.g. `m3go completions bash >
/// ~/.local/share/bash-completion/completions/m3go`, `m3go completions zsh >
/// ~/.zfunc/_m3go`, `m3go completions fish > ~/.config/fish/completions/m3go.fish`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

pub fn run(args: CompletionsArgs) -> Result<(), InputError> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "m3go", &mut out);
    out!("{}", String::from_utf8_lossy(&out));
    Ok(())
}

/// Print the man page (roff).
///
/// `m3go manpage > m3go.1 && man ./m3go.1`, or into a folder of MANPATH as `man1/m3go.1`. The
/// page of the whole command: every subcommand with its arguments (`m3go SUB --help` has
/// the same text).
#[derive(Debug, clap::Args)]
pub struct ManpageArgs {}

pub fn manpage(_: ManpageArgs) -> Result<(), InputError> {
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
    out!("{}", String::from_utf8_lossy(&out));
    Ok(())
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
