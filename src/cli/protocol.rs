//! `m3go protocol`: m3go as the implementation under test, answering `m3go-conform/2` and `/1` requests.

use crate::conform::capabilities::Capabilities;
use crate::conform::protocol::{code, error_answer};
use crate::input::ReadError;
use crate::io::read_line_bounded;
use m3go_engine::InputError;
use serde_json::Value;

/// Answer conformance requests (m3go-conform/2 and /1, JSON lines) on stdin.
///
/// Reads one JSON request per line and writes one JSON answer per line to stdout, flushing
/// after each: m3go as the implementation under test (`m3go conform --impl 'm3go protocol'`).
/// A request that does not parse, is not UTF-8 or is longer than 4 MiB is answered with an
/// error object (`{"id":…,"error":{"code","field","message"}}`) and the session goes on with
/// the next line; a `capabilities` request with the versions and rule sets supported. A closed
/// stdout ends the session quietly.
#[derive(Debug, clap::Args)]
pub struct ProtocolArgs {
    /// Declare and answer only these presets (comma-separated), answering `unsupported` to
    /// the others: a restricted implementation, for trying a runner's capability handling.
    #[arg(long, value_name = "PRESET,…", value_delimiter = ',')]
    pub presets: Option<Vec<String>>,
    /// Decline a preset's own reading, as a program that lacks it: `m3go-2020:flower-enclosed=score`
    /// declares (`by_preset.m3go-2020.declines`) that m3go-2020's own `flower-enclosed` is
    /// lacked and the `score` check depends on it (`+` between several checks), and answers
    /// such requests without those fields (repeatable).
    #[arg(long, value_name = "PRESET:OPTION=CHECK[+CHECK…]")]
    pub decline: Vec<String>,
    #[command(flatten)]
    pub engine: crate::cli::common::EngineArgs,
}

/// The answer to one request line, whatever its bytes (at most [`ReadError::MAX_INPUT_BYTES`] of them are
/// read per line by [`run`]): the answer of [`crate::conform::answer::answer_line`], or an error answer naming
/// the problem. The request's position is loaded on `engine`.
pub fn answer_line(line: &[u8], caps: &Capabilities, engine: m3go_engine::Engine) -> String {
    match std::str::from_utf8(line) {
        Ok(text) => crate::conform::answer::answer_line_text(
            m3go_engine::game::without_bom(text),
            caps,
            engine,
        ),
        Err(e) => crate::conform::answer::text(&error_answer(
            Value::Null,
            code::BAD_REQUEST,
            None,
            format!("the request is not UTF-8 text: {e}"),
        )),
    }
}

/// `PRESET:OPTION=CHECK[+CHECK…]` added to the capabilities' `by_preset` declines.
fn add_decline(caps: &mut Capabilities, text: &str) -> Result<(), DeclineError> {
    let (preset, rest) = text.split_once(':').ok_or(DeclineError::Malformed)?;
    let (option, checks) = rest.split_once('=').ok_or(DeclineError::Malformed)?;
    m3go_engine::Rules::preset(preset).map_err(DeclineError::Preset)?;
    let preset = m3go_engine::Rules::canonical_preset(preset).to_string();
    if !caps
        .presets
        .iter()
        .any(|p| m3go_engine::Rules::canonical_preset(p) == preset)
    {
        return Err(DeclineError::NotDeclared(preset));
    }
    let entry = caps.by_preset.entry(preset.clone()).or_default();
    entry.declines.push(crate::conform::capabilities::Decline {
        option: option.to_string(),
        checks: checks.split('+').map(str::to_string).collect(),
        reason: Some(format!("m3go protocol --decline {text}")),
    });
    caps.validate().map_err(DeclineError::Invalid)
}

/// Why a `--decline` is refused.
#[derive(Debug)]
enum DeclineError {
    /// Not `PRESET:OPTION=CHECK[+CHECK…]`.
    Malformed,
    /// The preset is not one.
    Preset(m3go_engine::rules::RulesError),
    /// The preset is not among those declared.
    NotDeclared(String),
    /// The declaration it makes names an option or a check that does not exist.
    Invalid(crate::conform::capabilities::CapabilitiesError),
}

impl std::fmt::Display for DeclineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeclineError::Malformed => f.write_str(
                "expected PRESET:OPTION=CHECK[+CHECK…] (m3go-2020:flower-enclosed=score)",
            ),
            DeclineError::Preset(e) => write!(f, "{e}"),
            DeclineError::NotDeclared(preset) => {
                write!(f, "preset `{preset}` is not among the presets declared")
            }
            DeclineError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DeclineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DeclineError::Preset(e) => Some(e),
            DeclineError::Invalid(e) => Some(e),
            DeclineError::Malformed | DeclineError::NotDeclared(_) => None,
        }
    }
}

/// As a bad input, with this error's message.
impl From<DeclineError> for m3go_engine::InputError {
    fn from(e: DeclineError) -> Self {
        m3go_engine::InputError::new(e.to_string())
    }
}

pub fn run(args: ProtocolArgs) -> Result<(), InputError> {
    let caps = match &args.presets {
        None => Capabilities::m3go(),
        Some(p) => {
            for name in p {
                m3go_engine::Rules::preset(name)
                    .map_err(|e| InputError::from(e).key("--presets"))?;
            }
            Capabilities::only_presets(p)
        }
    };
    let mut caps = caps;
    for d in &args.decline {
        add_decline(&mut caps, d).map_err(|e| InputError::from(e).key(format!("--decline {d}")))?;
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    while let Some(line) = read_line_bounded(&mut input, ReadError::MAX_INPUT_BYTES) {
        let ans = match line {
            Ok(l) if l.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(l) => answer_line(&l, &caps, args.engine.engine()),
            Err(ReadError::TooLarge { limit }) => crate::conform::answer::text(&error_answer(
                Value::Null,
                code::TOO_LARGE,
                None,
                format!("the line is longer than {limit} bytes: expected at most {limit} bytes"),
            )),
            Err(ReadError::Io(e)) => {
                return Err(InputError::new(format!("cannot read: {e}")).file("stdin"))
            }
        };
        // one string, one write: `Value`'s `Display` would write it piece by piece through
        // the line-buffered stdout (a 19×19 answer is some 100 KB)
        outln!("{ans}");
        crate::cli::common::flush_out();
    }
    Ok(())
}
