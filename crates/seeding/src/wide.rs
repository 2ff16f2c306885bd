//! 64-bit numbers (seeds, generator state) in JSON: written as decimal strings, so a reader
//! whose numbers are doubles (JavaScript, `jq`) keeps every digit; read from a string or, as
//! older records wrote them, from a number.
//!
//! Use with `#[serde(with = "seeding::wide")]` on a `u64` field (`uno::wide` is the same
//! module): UNO's records and positions, Duel's records and the analyses write their seeds with
//! it, so every 64-bit number the project writes in JSON has one form.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// Writes `value` as a decimal string.
///
/// # Errors
/// Whatever the serializer returns.
pub fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Reads a `u64` from a decimal string or a non-negative integer.
///
/// # Errors
/// A string that is not a `u64` in decimal, a negative or fractional number, or another type.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    deserializer.deserialize_any(WideVisitor)
}

struct WideVisitor;

impl Visitor<'_> for WideVisitor {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a whole number from 0 to 18446744073709551615, as a string (\"123\") or a number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        u64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        v.parse().map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

/// The same for an `Option<u64>`: `null` (or a missing field, with `#[serde(default)]`) is
/// `None`.
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `Some(v)` as a decimal string, `None` as `null`.
    ///
    /// # Errors
    /// Whatever the serializer returns.
    pub fn serialize<S: Serializer>(value: &Option<u64>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => serializer.collect_str(v),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `null`, a decimal string or a non-negative integer.
    ///
    /// # Errors
    /// As [`super::deserialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super")] u64);
        Ok(Option::<Wrap>::deserialize(deserializer)?.map(|Wrap(v)| v))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Seeded {
        #[serde(with = "crate::wide")]
        seed: u64,
        #[serde(default, with = "crate::wide::option")]
        other: Option<u64>,
    }

    #[test]
    fn writes_strings_and_reads_both_forms() {
        let big = Seeded { seed: u64::MAX, other: Some((1 << 53) + 1) };
        let text = serde_json::to_string(&big).expect("json");
        assert_eq!(text, r#"{"seed":"18446744073709551615","other":"9007199254740993"}"#);
        assert_eq!(serde_json::from_str::<Seeded>(&text).expect("back"), big);
        let old: Seeded = serde_json::from_str(r#"{"seed":9007199254740993,"other":7}"#).expect("numbers");
        assert_eq!(old, Seeded { seed: (1 << 53) + 1, other: Some(7) });
        let none: Seeded = serde_json::from_str(r#"{"seed":"1"}"#).expect("missing");
        assert_eq!(none.other, None);
        for bad in [r#"{"seed":-1}"#, r#"{"seed":"x"}"#, r#"{"seed":1.5}"#, r#"{"seed":"18446744073709551616"}"#] {
            assert!(serde_json::from_str::<Seeded>(bad).is_err(), "{bad}");
        }
    }
}
