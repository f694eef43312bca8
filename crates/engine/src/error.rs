//! The error of bad input: [`InputError`] says *where* ([`Place`]: the file, the line and column,
//! the key, the move) and *what* (the problem, and what was expected), as fields; one `Display`
//! writes them as a message. This module is the bottom layer: every other module may use it.
//!
//! A message reads from the outside in, each part ended by `: `:
//!
//! ```text
//! case.yaml: start: game.txt: line 3: `size: 4`: board size 4 is not allowed: expected an odd size from 3 to 19
//! ^outer place  ^outer key ^file   ^line  ^key: text  ^what                      ^expected
//! ```
//!
//! A position inside a YAML document (line *and* column) follows the problem, as the YAML reader
//! writes it (`… at line 2 column 7`); a move that is not placed in a file leads its message
//! (`move 3 (game.txt line 2, `黑3.七A`) is illegal: …`).

use std::fmt;

/// Where a bad input is: every field that is known. See the module doc for how it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The file (or the stream or flag the text came from: `stdin`, `--rules`).
    pub file: Option<String>,
    /// The line, 1-based.
    pub line: Option<usize>,
    /// The column, 1-based (YAML positions).
    pub column: Option<usize>,
    /// The key, field or flag (`rules`, `history[0]`, `--size`, a header key).
    pub key: Option<String>,
    /// The offending text as written (with `key`: the value of `key: value`).
    pub text: Option<String>,
    /// The number of the move.
    pub move_number: Option<u32>,
    /// A place named in words where no line says it (`SGF node 4`, `entry `ko-1``, a record
    /// move's `game.txt line 3`).
    pub at: Option<String>,
}

/// What kind of problem an [`InputError`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is malformed or inconsistent.
    #[default]
    Bad,
    /// A move reads, but the rules refuse it (`… is illegal: WHAT`).
    IllegalMove,
    /// A text the caller was asked for cannot be had (the position file a game record's
    /// `position:` header names, read by the caller's reader: missing, not permitted).
    Unreadable,
    /// m3go failed, not the input (a serialiser refusing a value m3go built): a bug to report.
    Internal,
}

/// A bad input: where, what is wrong, and what was expected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputError {
    /// Enclosing places, outermost first (the case file whose `start:` names the record file
    /// that holds the error).
    pub outer: Vec<Place>,
    /// Where the problem is (boxed, to keep `Result<_, InputError>` small).
    pub place: Box<Place>,
    pub kind: ErrorKind,
    /// The problem (may be empty when `expected` says it all).
    pub what: String,
    /// What the input should have been.
    pub expected: Option<String>,
    /// What the reader was doing when it found the problem (the YAML reader's `while scanning a
    /// quoted scalar at line 1 column 8`).
    pub during: Option<String>,
}

macro_rules! setters {
    () => {
        /// Names the file.
        pub fn file(mut self, file: impl Into<String>) -> Self {
            self.place_mut().file = Some(file.into());
            self
        }
        /// Names the line (1-based).
        pub fn line(mut self, line: usize) -> Self {
            self.place_mut().line = Some(line);
            self
        }
        /// Names the column (1-based; with `line`, a YAML position).
        pub fn column(mut self, column: usize) -> Self {
            self.place_mut().column = Some(column);
            self
        }
        /// Names the key, field or flag.
        pub fn key(mut self, key: impl Into<String>) -> Self {
            self.place_mut().key = Some(key.into());
            self
        }
        /// Quotes the offending text.
        pub fn text(mut self, text: impl Into<String>) -> Self {
            self.place_mut().text = Some(text.into());
            self
        }
        /// Names the move by its number.
        pub fn move_number(mut self, n: u32) -> Self {
            self.place_mut().move_number = Some(n);
            self
        }
        /// Names the place in words.
        pub fn at(mut self, at: impl Into<String>) -> Self {
            self.place_mut().at = Some(at.into());
            self
        }
    };
}

impl Place {
    fn place_mut(&mut self) -> &mut Place {
        self
    }

    setters!();

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        *self == Place::default()
    }

    /// Whether the place is a move told by its number alone (no file, no line): it then leads
    /// the message, `move N (AT, `TEXT`)`.
    fn is_bare_move(&self) -> bool {
        self.move_number.is_some() && self.file.is_none() && self.line.is_none()
    }

    /// Writes the place as the prefix of a message, each part followed by `: ` (a bare move is
    /// written by [`InputError`]'s `Display`; line and column together follow the problem).
    fn write_prefix(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let (Some(l), None) = (self.line, self.column) {
            write!(f, "line {l}")?;
            if let Some(n) = self.move_number {
                write!(f, ", move {n}")?;
            }
            f.write_str(": ")?;
        }
        if let Some(at) = &self.at {
            f.write_str(at)?;
            if let (Some(n), None) = (self.move_number, self.line) {
                write!(f, " (move {n})")?;
            }
            f.write_str(": ")?;
        }
        match (&self.key, &self.text) {
            (Some(k), Some(t)) => {
                write!(f, "`{}: {}`: ", InputError::quote(k), InputError::quote(t))
            }
            (Some(k), None) => write!(f, "{}: ", InputError::quote(k)),
            (None, Some(t)) => write!(f, "`{}`: ", InputError::quote(t)),
            (None, None) => Ok(()),
        }
    }
}

impl InputError {
    fn place_mut(&mut self) -> &mut Place {
        &mut self.place
    }

    /// A bad input: `what` is the problem.
    pub fn new(what: impl Into<String>) -> Self {
        InputError {
            what: what.into(),
            ..InputError::default()
        }
    }

    /// A bad input said entirely by what was expected (`expected a move number`).
    pub fn expecting(expected: impl Into<String>) -> Self {
        InputError::default().expected(expected)
    }

    /// A failure of m3go's own rather than of the input ([`ErrorKind::Internal`]): a serialiser
    /// refusing a value m3go built; `e` says what failed.
    pub fn internal(e: impl fmt::Display) -> Self {
        InputError {
            kind: ErrorKind::Internal,
            ..InputError::new(e.to_string())
        }
    }

    /// A move the rules refuse: `reason` says why.
    pub fn illegal_move(reason: impl Into<String>) -> Self {
        InputError {
            kind: ErrorKind::IllegalMove,
            ..InputError::new(reason)
        }
    }

    /// The same error, of `kind`.
    pub fn of_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Says what was expected.
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Says what the reader was doing.
    pub fn during(mut self, during: impl Into<String>) -> Self {
        self.during = Some(during.into());
        self
    }

    setters!();

    /// Puts the error inside `outer`: an error found in a file that another one names.
    pub fn within(mut self, outer: Place) -> Self {
        self.outer.insert(0, outer);
        self
    }

    /// Puts the error in `file`: names the file when none is known yet, else the file is an
    /// enclosing place (the file that names the file of the error).
    pub fn in_file(self, file: impl Into<String>) -> Self {
        if self.outer.is_empty() && self.place.file.is_none() {
            self.file(file)
        } else {
            self.within(Place::default().file(file))
        }
    }
}

impl fmt::Display for InputError {
    /// The message, with every run of more than `MAX_WORD_CHARS` characters without a space
    /// cut (a 1 MB value quoted by the YAML reader is not echoed whole).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&InputError::shorten_words(&Whole(self).to_string()))
    }
}

/// Longest run of characters without a space that a message keeps whole.
pub(crate) const MAX_WORD_CHARS: usize = 200;

impl InputError {
    /// `text` for a message: as written when short, else its first `MAX_QUOTE_CHARS` characters
    /// and the length (`abc… (1048576 bytes)`).
    pub fn quote(text: &str) -> String {
        match text.char_indices().nth(MAX_QUOTE_CHARS) {
            None => text.to_string(),
            Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
        }
    }

    /// `text` with each run of more than `MAX_WORD_CHARS` non-space characters cut to its first
    /// `MAX_QUOTE_CHARS` and its length in bytes.
    pub fn shorten_words(text: &str) -> String {
        let mut out = String::with_capacity(text.len().min(4096));
        for (k, word) in text.split(' ').enumerate() {
            if k > 0 {
                out.push(' ');
            }
            if word.chars().nth(MAX_WORD_CHARS).is_some() {
                out.push_str(&InputError::quote(word));
            } else {
                out.push_str(word);
            }
        }
        out
    }
}

/// The message before [`shorten_words`].
struct Whole<'a>(&'a InputError);

impl fmt::Display for Whole<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        for p in &s.outer {
            p.write_prefix(f)?;
        }
        let p = &s.place;
        let lead = match s.kind {
            ErrorKind::IllegalMove => " is illegal: ",
            ErrorKind::Bad | ErrorKind::Unreadable | ErrorKind::Internal => ": ",
        };
        if let (true, Some(n)) = (p.is_bare_move(), p.move_number) {
            write!(f, "move {n}")?;
            let mut words: Vec<String> = p.at.iter().cloned().collect();
            words.extend(p.text.iter().map(|t| format!("`{}`", InputError::quote(t))));
            if !words.is_empty() {
                write!(f, " ({})", words.join(", "))?;
            }
            f.write_str(lead)?;
            if let Some(k) = &p.key {
                write!(f, "{k}: ")?;
            }
        } else {
            p.write_prefix(f)?;
            if s.kind == ErrorKind::IllegalMove {
                f.write_str("illegal: ")?;
            }
        }
        f.write_str(&s.what)?;
        if let Some(x) = &s.expected {
            if !s.what.is_empty() {
                f.write_str(": ")?;
            }
            write!(f, "expected {x}")?;
        }
        if let (Some(l), Some(c)) = (p.line, p.column) {
            write!(f, " at line {l} column {c}")?;
        }
        if let Some(d) = &s.during {
            write!(f, ", {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}

/// Most problems an error lists: the first [`MAX_LISTED`] are kept and shown, the rest only
/// counted (`…; and 999980 more`), so that an input listing a bad point a million times gives a
/// short message in bounded memory (the command line, the server's JSON errors and Python's
/// exceptions all show this text).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_LISTED: usize = 20;

/// The problems an error found, in the order found: the first `MAX_LISTED` kept, the rest
/// counted. Reads as a slice of the kept ones; shown as `A; B; …; and N more`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed<T> {
    kept: Vec<T>,
    more: usize,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            kept: Vec::new(),
            more: 0,
        }
    }
}

impl<T> Listed<T> {
    /// An empty list.
    pub fn new() -> Listed<T> {
        Listed::default()
    }

    /// Adds a problem: kept while fewer than `MAX_LISTED` are, else counted.
    pub fn push(&mut self, item: T) {
        if self.kept.len() < MAX_LISTED {
            self.kept.push(item);
        } else {
            self.more += 1;
        }
    }

    /// Every problem found, the counted ones included.
    pub fn total(&self) -> usize {
        self.kept.len() + self.more
    }

    /// The problems found beyond the kept ones.
    pub fn more(&self) -> usize {
        self.more
    }
}

impl<T> Extend<T> for Listed<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

impl<T> FromIterator<T> for Listed<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = Listed::new();
        list.extend(items);
        list
    }
}

impl<T> std::ops::Deref for Listed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.kept
    }
}

impl<T: fmt::Display> fmt::Display for Listed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_joined(f, &self.kept)?;
        if self.more > 0 {
            write!(f, "; and {} more", self.more)?;
        }
        Ok(())
    }
}

/// Writes `items` separated by `; ` — how an error that lists the problems it found shows
/// them — at most [`MAX_LISTED`] of them, then how many more there are.
pub(crate) fn write_joined<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
) -> fmt::Result {
    for (k, item) in items.iter().take(MAX_LISTED).enumerate() {
        if k > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{item}")?;
    }
    if items.len() > MAX_LISTED {
        write!(f, "; and {} more", items.len() - MAX_LISTED)?;
    }
    Ok(())
}

/// Largest text m3go takes from one source (a file, a device, a pipe, standard input, one
/// protocol request line): a longer text is refused before it is parsed.
pub const MAX_INPUT_BYTES: usize = 4 << 20;

/// Longest offending text quoted whole in a message; a longer one is cut (on a character
/// boundary) and says how long it was.
pub(crate) const MAX_QUOTE_CHARS: usize = 80;
