//! Python objects to the JSON text of a request, a position or an answer, bounded: at most
//! [`MAX_DEPTH`] lists and dicts deep (a list that holds itself is infinitely deep, so a cycle
//! stops there too) and at most `limit` bytes of text, so that no object, however nested,
//! recursive or shared, takes the host's stack or memory. The text is then read by the same
//! `serde_json` parser as a protocol line, so a Python object and the line `json.dumps` makes
//! of it get the same answer from `m3go protocol` and from the module.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// The deepest nesting of lists and dicts converted: `serde_json`'s own recursion limit, the
/// one `m3go protocol` reads a request line with.
pub const MAX_DEPTH: usize = 128;

/// Why an object has no JSON text.
#[derive(Debug)]
pub enum ConvError {
    /// Nested deeper than [`MAX_DEPTH`] (or a list or dict that holds itself).
    Deep,
    /// The text would be longer than the limit.
    TooLarge { limit: usize },
    /// A value JSON has no form for (bytes, a set, an object, a key that is not a string, an
    /// integer too long to write).
    NotJson { at: String, what: String },
    /// A string holding a lone surrogate, which no UTF-8 text can hold.
    Surrogate { at: String, what: String },
    /// Python raised while the object was read (a failing `__len__`, a dict changed meanwhile).
    Python(PyErr),
}

impl ConvError {
    /// The message for people, naming `what` (`request`, `position`, `answer`).
    pub fn message(&self, what: &str) -> String {
        match self {
            ConvError::Deep => format!(
                "{what}: nested more than {MAX_DEPTH} lists and dicts deep (or a list or \
                 dict that holds itself): expected at most {MAX_DEPTH}"
            ),
            ConvError::TooLarge { limit } => format!(
                "{what}: its JSON text is longer than {limit} bytes: expected at most {limit} bytes"
            ),
            ConvError::NotJson { at, what: w } => format!("{what}{at}: {w}"),
            ConvError::Surrogate { at, what: w } => format!("{what}{at}: {w}"),
            ConvError::Python(e) => format!("{what}: {e}"),
        }
    }

    /// The error with `segment` (`[3]`, `.position`) put before its place.
    fn inside(mut self, segment: impl FnOnce() -> String) -> Self {
        // a depth error names no place: it would be MAX_DEPTH segments long
        if let ConvError::NotJson { at, .. } | ConvError::Surrogate { at, .. } = &mut self {
            *at = format!("{}{at}", segment());
        }
        self
    }
}

impl From<PyErr> for ConvError {
    fn from(e: PyErr) -> Self {
        ConvError::Python(e)
    }
}

/// The first lone surrogate of `s`, if any: its index in characters and its code.
pub fn lone_surrogate(s: &Bound<'_, PyString>) -> Option<(usize, u32)> {
    let bytes = s
        .call_method1("encode", ("utf-32-le", "surrogatepass"))
        .ok()?;
    let bytes = bytes.cast::<PyBytes>().ok()?.as_bytes();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .enumerate()
        .find(|(_, c)| (0xD800..=0xDFFF).contains(c))
}

/// The message for a string that holds a lone surrogate.
pub fn surrogate_message(s: &Bound<'_, PyString>) -> String {
    match lone_surrogate(s) {
        Some((i, c)) => format!(
            "the text holds a lone surrogate (U+{c:04X}) at character {i}, which is not \
             Unicode text: expected a string without lone surrogates"
        ),
        None => "the text is not Unicode text: expected a string without lone surrogates".into(),
    }
}

/// A Python string that is no Unicode text (it holds a lone surrogate): the message says where.
#[derive(Debug)]
pub struct NotUnicode(String);

impl std::fmt::Display for NotUnicode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotUnicode {}

/// The UTF-8 text of a Python string, or where its lone surrogate is.
pub fn text_of<'a>(s: &'a Bound<'_, PyString>) -> Result<&'a str, NotUnicode> {
    s.to_str().map_err(|_| NotUnicode(surrogate_message(s)))
}

/// The JSON text of `obj` (`json.dumps` of it, up to spacing and float digits), at most `limit`
/// bytes long. A lone surrogate is written as `json.dumps` writes it, a `\uD800` escape, when
/// `surrogates_escaped`, so the reader refuses the text as `m3go protocol` refuses that line;
/// otherwise it is an error naming its place.
pub fn json_text(
    obj: &Bound<'_, PyAny>,
    limit: usize,
    surrogates_escaped: bool,
) -> Result<String, ConvError> {
    let mut out = String::new();
    let mut w = Writer {
        out: &mut out,
        limit,
        surrogates_escaped,
    };
    w.value(obj, 0)?;
    Ok(out)
}

struct Writer<'o> {
    out: &'o mut String,
    limit: usize,
    surrogates_escaped: bool,
}

impl Writer<'_> {
    fn room(&self) -> Result<(), ConvError> {
        if self.out.len() > self.limit {
            return Err(ConvError::TooLarge { limit: self.limit });
        }
        Ok(())
    }

    fn string(&mut self, s: &Bound<'_, PyString>) -> Result<(), ConvError> {
        match s.to_str() {
            Ok(t) => {
                if t.len() > self.limit {
                    return Err(ConvError::TooLarge { limit: self.limit });
                }
                // a `str` always serialises
                self.out
                    .push_str(&serde_json::to_string(t).unwrap_or_default());
            }
            Err(_) if self.surrogates_escaped => {
                let json = s.py().import("json")?;
                let text = json.call_method1("dumps", (s,))?;
                self.out
                    .push_str(text.cast::<PyString>().map_err(PyErr::from)?.to_str()?);
            }
            Err(_) => {
                return Err(ConvError::Surrogate {
                    at: String::new(),
                    what: surrogate_message(s),
                })
            }
        }
        self.room()
    }

    fn array<'py>(
        &mut self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        depth: usize,
    ) -> Result<(), ConvError> {
        if depth >= MAX_DEPTH {
            return Err(ConvError::Deep);
        }
        self.out.push('[');
        for (n, item) in items.enumerate() {
            if n > 0 {
                self.out.push(',');
            }
            self.value(&item, depth + 1)
                .map_err(|e| e.inside(|| format!("[{n}]")))?;
        }
        self.out.push(']');
        Ok(())
    }

    fn value(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> Result<(), ConvError> {
        self.room()?;
        if obj.is_none() {
            self.out.push_str("null");
        } else if let Ok(b) = obj.cast::<PyBool>() {
            self.out
                .push_str(if b.is_true() { "true" } else { "false" });
        } else if let Ok(i) = obj.cast::<PyInt>() {
            if let Ok(n) = i.extract::<i64>() {
                self.out.push_str(&n.to_string());
            } else if let Ok(n) = i.extract::<u64>() {
                self.out.push_str(&n.to_string());
            } else {
                // int.__str__, not str(): an IntEnum's str is its name
                let text = obj
                    .py()
                    .get_type::<PyInt>()
                    .call_method1("__str__", (obj,))
                    .map_err(|_| ConvError::NotJson {
                        at: String::new(),
                        what: "an integer too long to write in decimal: expected an integer \
                               of at most 4300 digits"
                            .into(),
                    })?;
                self.out
                    .push_str(text.cast::<PyString>().map_err(PyErr::from)?.to_str()?);
            }
        } else if let Ok(f) = obj.cast::<PyFloat>() {
            let v = f.value();
            if v.is_finite() {
                // a finite f64 always serialises
                self.out
                    .push_str(&serde_json::to_string(&v).unwrap_or_default());
            } else {
                // as json.dumps writes it: not JSON, refused by the reader
                self.out.push_str(if v.is_nan() {
                    "NaN"
                } else if v > 0.0 {
                    "Infinity"
                } else {
                    "-Infinity"
                });
            }
        } else if let Ok(s) = obj.cast::<PyString>() {
            self.string(s)?;
        } else if let Ok(d) = obj.cast::<PyDict>() {
            if depth >= MAX_DEPTH {
                return Err(ConvError::Deep);
            }
            self.out.push('{');
            for (n, (k, v)) in d.iter().enumerate() {
                if n > 0 {
                    self.out.push(',');
                }
                let Ok(key) = k.cast::<PyString>() else {
                    return Err(ConvError::NotJson {
                        at: String::new(),
                        what: format!("a key of type {}: expected a string", k.get_type().name()?),
                    });
                };
                let name = || {
                    format!(".{}", key.to_string_lossy())
                        .chars()
                        .take(64)
                        .collect::<String>()
                };
                self.string(key).map_err(|e| e.inside(name))?;
                self.out.push(':');
                self.value(&v, depth + 1).map_err(|e| e.inside(name))?;
            }
            self.out.push('}');
        } else if let Ok(l) = obj.cast::<PyList>() {
            // the list's items by index (no `__iter__` of a subclass runs)
            self.array(l.iter(), depth)?;
        } else if let Ok(t) = obj.cast::<PyTuple>() {
            self.array(t.iter(), depth)?;
        } else {
            return Err(ConvError::NotJson {
                at: String::new(),
                what: format!(
                    "a value of type {}: expected a dict, list, tuple, str, int, float, bool or None",
                    obj.get_type().name()?
                ),
            });
        }
        self.room()
    }
}
