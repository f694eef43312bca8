//! The JUnit XML report of `m3go conform --junit FILE` and `m3go diff --junit FILE`, the test
//! report format GitHub, GitLab and Jenkins read: a `testsuites` root holding one `testsuite`
//! (`m3go-conform` or `m3go-diff`) with the counts (`tests`, `failures`, `errors`, `skipped`)
//! and the time, and one `testcase` per case or game: `<failure>` with the clauses and the
//! differences, `<error>` where the program under test could not answer, `<skipped>` with the
//! reason. Written by quick-xml's writer, which escapes text and attributes; the characters
//! XML 1.0 cannot hold at all (control characters a program under test may have written) are
//! written as `\u{..}` first.

use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;

/// How a test case ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Passed,
    /// `message` (one line, the attribute) and `text` (the element's body, in full).
    Failed {
        message: String,
        text: String,
    },
    Errored {
        message: String,
        text: String,
    },
    Skipped {
        message: String,
    },
}

/// One `testcase`.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub name: String,
    pub classname: String,
    /// The file the case comes from (the `file` attribute GitLab reads).
    pub file: Option<String>,
    /// Seconds, when measured.
    pub time: Option<f64>,
    pub verdict: Verdict,
    /// More about a case that is not its verdict (the checks left out of a case that was run).
    pub system_out: Option<String>,
}

/// One `testsuite` and what it is made of.
#[derive(Clone, Debug)]
pub struct TestSuite {
    pub name: String,
    /// Seconds, when measured.
    pub time: Option<f64>,
    /// Name-value pairs of the run (the seed, the program under test), as `<properties>`.
    pub properties: Vec<(String, String)>,
    pub cases: Vec<TestCase>,
}

/// The report of a run that could not start or finish (`--impl` that does not run, a suite or
/// an output refused): one test case, `run`, whose `<error>` is the run's error, so that a CI job
/// that publishes the report finds it, and the reason in it.
pub fn run_error(suite: &str, message: &str) -> TestSuite {
    TestSuite {
        name: suite.to_string(),
        time: None,
        properties: Vec::new(),
        cases: vec![TestCase {
            name: "run".to_string(),
            classname: suite.to_string(),
            file: None,
            time: None,
            verdict: Verdict::Errored {
                message: message.lines().next().unwrap_or_default().to_string(),
                text: message.to_string(),
            },
            system_out: None,
        }],
    }
}

/// The suite with its skips made failures (`message` says why), for a run that fails on skips
/// (no `--allow-skips`): a report that shows no failure would be green where the run is not.
/// A case run with checks left out (its `system-out`) is one of them.
pub fn skips_failing(suite: &mut TestSuite, message: &str) {
    for t in &mut suite.cases {
        let text = match (&t.verdict, &t.system_out) {
            (Verdict::Skipped { message }, _) => message.clone(),
            (Verdict::Passed, Some(out)) => out.clone(),
            _ => continue,
        };
        t.verdict = Verdict::Failed {
            message: message.to_string(),
            text,
        };
    }
}

/// A suite of no test case made one failing case, `run` (`message` says why), for a run that
/// fails when nothing was tested (no `--allow-empty`): an empty report is green.
pub fn nothing_failing(suite: &mut TestSuite, message: &str) {
    if suite.cases.is_empty() {
        let mut run = run_error(&suite.name, message).cases;
        for t in &mut run {
            t.verdict = Verdict::Failed {
                message: message.to_string(),
                text: message.to_string(),
            };
        }
        suite.cases = run;
    }
}

/// The counts of a suite: tests, failures, errors, skipped.
pub fn counts(suite: &TestSuite) -> (usize, usize, usize, usize) {
    let mut c = (suite.cases.len(), 0, 0, 0);
    for t in &suite.cases {
        match t.verdict {
            Verdict::Passed => {}
            Verdict::Failed { .. } => c.1 += 1,
            Verdict::Errored { .. } => c.2 += 1,
            Verdict::Skipped { .. } => c.3 += 1,
        }
    }
    c
}

/// `s` with every character XML 1.0 does not allow (C0 controls other than tab, line feed and
/// carriage return; U+FFFE, U+FFFF) written as `\u{..}`, so the report stays well-formed
/// whatever a program under test wrote.
pub fn xml_safe(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c.to_string(),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                format!("\\u{{{:x}}}", c as u32)
            }
            c => c.to_string(),
        })
        .collect()
}

/// A one-line attribute value: line breaks as spaces (a parser would turn them into spaces
/// anyway), cut to `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = xml_safe(s)
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    crate::io::clip(&flat, max)
}

fn seconds(t: f64) -> String {
    format!("{t:.3}")
}

/// The report: the XML declaration, `testsuites`, the one `testsuite`.
pub fn xml(suite: &TestSuite) -> Result<String, JunitError> {
    write(suite).map_err(JunitError)
}

/// The JUnit report could not be written (the XML writer's error).
#[derive(Debug)]
pub struct JunitError(pub std::io::Error);

impl std::fmt::Display for JunitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write the JUnit report: {}", self.0)
    }
}

/// As a bad input (the message only), for the commands whose errors are
/// [`InputError`](m3go_engine::InputError)s.
impl From<JunitError> for m3go_engine::InputError {
    fn from(e: JunitError) -> Self {
        m3go_engine::InputError::new(e.to_string())
    }
}

impl std::error::Error for JunitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

fn write(suite: &TestSuite) -> std::io::Result<String> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let (tests, failures, errors, skipped) = counts(suite);
    let (tests, failures, errors, skipped) = (
        tests.to_string(),
        failures.to_string(),
        errors.to_string(),
        skipped.to_string(),
    );
    let time = suite.time.map(seconds);
    let name = xml_safe(&suite.name);
    // the name, counts and time that `testsuites` and its one `testsuite` both carry
    let attrs: Vec<(&str, &str)> = [
        ("name", name.as_str()),
        ("tests", tests.as_str()),
        ("failures", failures.as_str()),
        ("errors", errors.as_str()),
        ("skipped", skipped.as_str()),
    ]
    .into_iter()
    .chain(time.as_deref().map(|t| ("time", t)))
    .collect();
    let root = w
        .create_element("testsuites")
        .with_attributes(attrs.iter().copied());
    root.write_inner_content(|w| {
        let s = w
            .create_element("testsuite")
            .with_attributes(attrs.iter().copied());
        s.write_inner_content(|w| {
            if !suite.properties.is_empty() {
                w.create_element("properties").write_inner_content(|w| {
                    for (k, v) in &suite.properties {
                        let (k, v) = (xml_safe(k), one_line(v, 1000));
                        w.create_element("property")
                            .with_attribute(("name", k.as_str()))
                            .with_attribute(("value", v.as_str()))
                            .write_empty()?;
                    }
                    Ok(())
                })?;
            }
            for t in &suite.cases {
                test_case(w, t)?;
            }
            Ok(())
        })?;
        Ok(())
    })?;
    let mut out = String::from_utf8(w.into_inner())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    out.push('\n');
    Ok(out)
}

fn test_case(w: &mut Writer<Vec<u8>>, t: &TestCase) -> std::io::Result<()> {
    let (name, classname) = (xml_safe(&t.name), xml_safe(&t.classname));
    let file = t.file.as_deref().map(xml_safe);
    let time = t.time.map(seconds);
    let mut e = w
        .create_element("testcase")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("classname", classname.as_str()));
    if let Some(f) = &file {
        e = e.with_attribute(("file", f.as_str()));
    }
    if let Some(x) = &time {
        e = e.with_attribute(("time", x.as_str()));
    }
    if t.verdict == Verdict::Passed && t.system_out.is_none() {
        e.write_empty()?;
        return Ok(());
    }
    e.write_inner_content(|w| {
        match &t.verdict {
            Verdict::Passed => {}
            Verdict::Failed { message, text } | Verdict::Errored { message, text } => {
                let (tag, kind) = match t.verdict {
                    Verdict::Failed { .. } => ("failure", "mismatch"),
                    _ => ("error", "error"),
                };
                let message = one_line(message, 1000);
                w.create_element(tag)
                    .with_attribute(("message", message.as_str()))
                    .with_attribute(("type", kind))
                    .write_text_content(BytesText::new(&xml_safe(text)))?;
            }
            Verdict::Skipped { message } => {
                let message = one_line(message, 1000);
                w.create_element("skipped")
                    .with_attribute(("message", message.as_str()))
                    .write_empty()?;
            }
        }
        if let Some(out) = &t.system_out {
            w.create_element("system-out")
                .write_text_content(BytesText::new(&xml_safe(out)))?;
        }
        Ok(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, verdict: Verdict) -> TestCase {
        TestCase {
            name: name.into(),
            classname: "M20-EYE-1".into(),
            file: Some("spec/cases/a.yaml".into()),
            time: Some(0.25),
            verdict,
            system_out: None,
        }
    }

    #[test]
    fn the_report_is_well_formed_with_the_counts_and_escapes_what_a_program_wrote() {
        let suite = TestSuite {
            name: "m3go-conform".into(),
            time: Some(1.5),
            properties: vec![("impl".into(), "./prog --x \"<&>\"".into())],
            cases: vec![
                case("ok", Verdict::Passed),
                case(
                    "bad",
                    Verdict::Failed {
                        message: "clauses M20-EYE-1\nmore".into(),
                        text: "- legal: expected <a> & \"b\", got \u{1b}[31m\u{0}".into(),
                    },
                ),
                case(
                    "crash",
                    Verdict::Errored {
                        message: "exited".into(),
                        text: "exited with 3".into(),
                    },
                ),
                case(
                    "skip",
                    Verdict::Skipped {
                        message: "preset `dullstone` is not declared".into(),
                    },
                ),
            ],
        };
        assert_eq!(counts(&suite), (4, 1, 1, 1));
        let x = xml(&suite).expect("xml");
        let doc = reads_back(&x);
        assert!(doc, "{x}");
        assert!(
            x.contains(r#"tests="4" failures="1" errors="1" skipped="1""#),
            "{x}"
        );
        assert!(x.contains("&lt;a&gt; &amp;"), "{x}");
        assert!(x.contains("\\u{1b}[31m\\u{0}"), "{x}");
        assert!(!x.contains('\u{1b}'), "{x}");
        assert!(x.contains(r#"message="clauses M20-EYE-1 more""#), "{x}");
    }

    /// Reads the report back with quick-xml's reader: every event parses and the tags balance.
    fn reads_back(x: &str) -> bool {
        let mut r = quick_xml::Reader::from_str(x);
        let mut depth = 0i32;
        loop {
            match r.read_event() {
                Ok(Event::Start(_)) => depth += 1,
                Ok(Event::End(_)) => depth -= 1,
                Ok(Event::Eof) => return depth == 0,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }
}
