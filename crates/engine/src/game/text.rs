//! Text that names points: a cascade step, a refusal message, a clause trace, a reading's
//! verdict. Its words are fixed when it is built; its points, string names and moves stay typed
//! ([`Piece`]) and are written in a label system only when the text is formatted
//! ([`Text::format`]): Chinese by [`fmt::Display`] and in JSON (or the system of a
//! [`Labeled`](crate::board::labeled::Labeled) value), Latin when asked. A clause id is a word,
//! so no label system ever touches it.

use crate::board::coord::{Labels, Point, StringName};
use crate::game::moves::Action;
use crate::game::notation::Notation;
use std::fmt;

/// One piece of a [`Text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Words, written as they are in every label system.
    Words(String),
    /// A point (`七A`).
    Point(Point),
    /// A string named by its first point (`七九*`).
    Name(StringName),
    /// A move in the documents' notation (`华289.七A`).
    Notation(Notation),
    /// A point or `pass`.
    Action(Action),
}

impl Piece {
    fn write(&self, out: &mut String, labels: Labels) {
        match self {
            Piece::Words(w) => out.push_str(w),
            Piece::Point(p) => out.push_str(&p.format(labels)),
            Piece::Name(n) => out.push_str(&n.format(labels)),
            Piece::Notation(n) => out.push_str(&n.format(labels)),
            Piece::Action(Action::Place(p)) => out.push_str(&p.format(labels)),
            Piece::Action(Action::Pass) => out.push_str("pass"),
        }
    }
}

/// Words with typed points in them (built with the crate's `text!` macro, or [`Text::push`]).
/// Adjacent words are kept as one piece, so two texts written alike are equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(Vec<Piece>);

impl Text {
    /// An empty text.
    pub fn new() -> Text {
        Text(Vec::new())
    }

    /// Appends `part` (words, a number, a point, a string name, a notation, an action or
    /// another text).
    pub fn push(&mut self, part: impl Part) -> &mut Text {
        part.put(self);
        self
    }

    fn push_piece(&mut self, piece: Piece) {
        match (self.0.last_mut(), piece) {
            (_, Piece::Words(w)) if w.is_empty() => {}
            (Some(Piece::Words(last)), Piece::Words(w)) => last.push_str(&w),
            (_, piece) => self.0.push(piece),
        }
    }

    /// The texts of `parts` joined by `sep`.
    pub fn join<P: Part>(parts: impl IntoIterator<Item = P>, sep: &str) -> Text {
        let mut t = Text::new();
        for (k, p) in parts.into_iter().enumerate() {
            if k > 0 {
                t.push(sep);
            }
            t.push(p);
        }
        t
    }

    /// The text with its points in the label system `labels`.
    pub fn format(&self, labels: Labels) -> String {
        let mut out = String::new();
        for p in &self.0 {
            p.write(&mut out, labels);
        }
        out
    }

    /// Drops one newline that ends the text (the last line of a clause trace's step).
    pub fn trim_final_newline(&mut self) {
        if let Some(Piece::Words(w)) = self.0.last_mut() {
            if w.ends_with('\n') {
                w.pop();
                if w.is_empty() {
                    self.0.pop();
                }
            }
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.0
    }
}

impl fmt::Display for Text {
    /// In the Chinese system.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(Labels::Chinese))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        let mut t = Text::new();
        t.push(s);
        t
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        let mut t = Text::new();
        t.push(s);
        t
    }
}

/// In JSON a string, its points in the Chinese system (or those of the enclosing
/// [`Labeled`](crate::board::labeled::Labeled) value).
impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.format(crate::board::coord::Labels::serializing()))
    }
}

/// In the schemas a string, as the text it is written as.
impl schemars::JsonSchema for Text {
    fn inline_schema() -> bool {
        String::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(g)
    }
}

/// What a [`Text`] is built from.
pub trait Part {
    /// Appends this part to `t`.
    fn put(self, t: &mut Text);
}

impl Part for &str {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Words(self.to_string()));
    }
}

impl Part for String {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Words(self));
    }
}

impl Part for &String {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Words(self.clone()));
    }
}

macro_rules! words_of_display {
    ($($ty:ty),*) => {
        $(impl Part for $ty {
            fn put(self, t: &mut Text) {
                t.push_piece(Piece::Words(self.to_string()));
            }
        })*
    };
}
words_of_display!(char, u32, u64, usize, i32, i64);

impl Part for Point {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Point(self));
    }
}

impl Part for StringName {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Name(self));
    }
}

impl Part for Notation {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Notation(self));
    }
}

impl Part for Action {
    fn put(self, t: &mut Text) {
        t.push_piece(Piece::Action(self));
    }
}

impl Part for Text {
    fn put(self, t: &mut Text) {
        for p in self.0 {
            t.push_piece(p);
        }
    }
}

impl Part for &Text {
    fn put(self, t: &mut Text) {
        for p in &self.0 {
            t.push_piece(p.clone());
        }
    }
}

/// A [`Text`] of its parts in order: `text!("move ", n, ": ", p, " is occupied")`, each part
/// words, a number, a point, a string name, a notation, an action or a text.
#[macro_export]
macro_rules! text {
    ($($part:expr),* $(,)?) => {{
        let mut t = $crate::game::Text::new();
        $( t.push($part); )*
        t
    }};
}
pub use text;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_writes_its_points_in_the_system_asked_and_its_words_as_they_are() {
        let t = text!(
            "GO-CAPTURE: white upper string ",
            StringName(Point::new(6, 9)),
            " (",
            3usize,
            " stones) at ",
            Point::new(7, -1),
            "; AB be"
        );
        assert_eq!(
            t.to_string(),
            "GO-CAPTURE: white upper string 六九* (3 stones) at 七A; AB be"
        );
        assert_eq!(
            t.format(Labels::Latin),
            "GO-CAPTURE: white upper string 69* (3 stones) at 7a; AB be"
        );
        assert_eq!(t.pieces().len(), 5, "adjacent words are one piece");
        assert_eq!(
            serde_json::to_string(&t).expect("json"),
            serde_json::to_string(&t.to_string()).expect("json")
        );
        let la = crate::board::labeled::Labeled::new(&t, Labels::Latin);
        assert_eq!(
            serde_json::to_string(&la).expect("json"),
            serde_json::to_string(&t.format(Labels::Latin)).expect("json")
        );
        assert_eq!(
            Text::join([Point::new(0, 0), Point::new(1, 1)], ", ").format(Labels::Latin),
            "00, 11"
        );
    }
}
