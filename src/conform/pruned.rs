//! An answer line read as JSON with the parts its reader never looks at left out: each part
//! named by a path of object keys from the root (`*` for every element of an array) is read
//! past (checked as JSON syntax, kept as `null`), so that a 17 KB answer of which `m3go diff`
//! compares a third is not built whole as a [`Value`] tree, an allocation for every string and
//! map entry. The rest is the [`Value`] `serde_json` reads. (A part read past is checked less
//! than a value is built: `serde_json` does not look for a lone surrogate in a `\u` escape of
//! a string it skips.)

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// The parts of an answer left out: paths of object keys from the root, `*` matching every
/// element of an array (and every key of an object).
pub(crate) type Paths = &'static [&'static [&'static str]];

/// `text` read as JSON with the parts at `skip` left as `null`: the error of
/// `serde_json::from_str` for a text that is not JSON (the parts left out are checked as JSON
/// all the same).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn from_str_pruned(text: &str, skip: Paths) -> serde_json::Result<Value> {
    let live: Vec<&[&str]> = skip.to_vec();
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Node(&live).deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// One node of the tree being read: the rest of every path that leads through it.
struct Node<'a>(&'a [&'a [&'a str]]);

impl<'a> Node<'a> {
    /// The rest of the paths through the child `key` (an element of an array: `None`).
    fn child(&self, key: Option<&str>) -> Vec<&'a [&'a str]> {
        self.0
            .iter()
            .filter_map(|&p| {
                let (first, rest) = p.split_first()?;
                (*first == "*" || Some(*first) == key).then_some(rest)
            })
            .collect()
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.0.iter().any(|p| p.is_empty()) {
            // a part left out: read past it
            <IgnoredAny as serde::Deserialize>::deserialize(d)?;
            return Ok(Value::Null);
        }
        if self.0.is_empty() {
            return serde::Deserialize::deserialize(d);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let each = self.child(None);
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Node(&each))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let rest = self.child(Some(&key));
            let v = map.next_value_seed(Node(&rest))?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKIP: Paths = &[&["a", "big"], &["list", "*", "x"], &["gone"]];

    #[test]
    fn the_parts_named_are_null_and_the_rest_as_serde_json_reads_it() {
        let text = r#"{"a":{"big":[1,{"deep":"\u00e9"}],"small":2.5},"list":[{"x":[1],"y":true},{"y":null},3],"gone":"x","kept":"\"q\""}"#;
        let mut want: Value = serde_json::from_str(text).unwrap_or_default();
        want["a"]["big"] = Value::Null;
        want["list"][0]["x"] = Value::Null;
        want["gone"] = Value::Null;
        assert_eq!(from_str_pruned(text, SKIP).ok(), Some(want));
        // nothing to leave out: the same value
        assert_eq!(
            from_str_pruned(text, &[]).ok(),
            serde_json::from_str::<Value>(text).ok()
        );
    }

    #[test]
    fn a_line_that_is_not_json_fails_as_serde_json_fails_even_in_a_part_left_out() {
        for bad in [
            r#"{"a":{"big":[1,}}"#,
            r#"{"gone":tru}"#,
            r#"{"a":1} trailing"#,
            r#"{"a":"#,
            "",
        ] {
            let want = serde_json::from_str::<Value>(bad).map_err(|e| e.to_string());
            assert!(want.is_err(), "{bad}");
            assert_eq!(
                from_str_pruned(bad, SKIP).map_err(|e| e.to_string()),
                want,
                "{bad}"
            );
        }
    }
}
