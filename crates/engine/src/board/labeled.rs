//! The label system m3go's JSON writes its points in. A point, a string name, a move's
//! notation and every text that carries points serialize in the Chinese system
//! ([`Labels::Chinese`], the JSON contract) unless they are serialized inside a [`Labeled`]
//! value, which writes them in the system it names (the server's `shown` answers). The points
//! are formatted in that system by their own formatter, never rewritten afterwards.

use crate::board::coord::{replace_json_labels, Labels};

/// Restores the label system of the enclosing serialization when dropped (also on unwinding).
struct Restore(Labels);

impl Drop for Restore {
    fn drop(&mut self) {
        replace_json_labels(self.0);
    }
}

/// A value serialized with every point in `labels` (a point, a string name, a notation, a
/// text with points: each written by its formatter in that system).
#[derive(Clone, Copy, Debug)]
pub struct Labeled<'a, T: ?Sized> {
    pub value: &'a T,
    pub labels: Labels,
}

impl<'a, T: ?Sized> Labeled<'a, T> {
    /// `value`, to be written with `labels`.
    pub fn new(value: &'a T, labels: Labels) -> Labeled<'a, T> {
        Labeled { value, labels }
    }
}

impl<T: serde::Serialize + ?Sized> serde::Serialize for Labeled<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let _restore = Restore(replace_json_labels(self.labels));
        self.value.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::{Point, StringName};

    #[test]
    fn a_labeled_value_writes_its_points_in_its_system_and_restores_the_default() {
        let v = (Point::new(7, -1), vec![StringName(Point::new(6, 9))]);
        let la = serde_json::to_string(&Labeled::new(&v, Labels::Latin)).expect("json");
        assert_eq!(la, r#"["7a",["69*"]]"#);
        let nested = (Labeled::new(&v, Labels::Chinese), Point::new(0, 0));
        let mixed = serde_json::to_string(&Labeled::new(&nested, Labels::Latin)).expect("json");
        assert_eq!(mixed, r#"[["七A",["六九*"]],"00"]"#);
        assert_eq!(Labels::serializing(), Labels::Chinese);
        assert_eq!(
            serde_json::to_string(&v).expect("json"),
            r#"["七A",["六九*"]]"#
        );
    }
}
