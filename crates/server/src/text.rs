//! [`Text`]: a JSON text rendered once for a change and shared by every connection that shows
//! it. The table code renders and publishes it; the WebSocket edge (`ws`) turns it into a frame.
//! A type of this crate's own, so the table code names no transport type.

use bytes::Bytes;

/// UTF-8 text, cheap to clone (shared, reference-counted). Made only from `String`s and
/// `&'static str`s, so it is always UTF-8.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(Bytes);

impl Text {
    /// The text's bytes (shared, not copied).
    pub(crate) fn into_bytes(self) -> Bytes {
        self.0
    }

    /// The text as a `str` (checks the bytes again).
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Bytes::from(s))
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Text {
        Text(Bytes::from_static(s.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn a_text_keeps_what_it_was_made_of() {
        let t = Text::from(String::from("{\"type\":\"update\",\"name\":\"Zoë\"}"));
        assert_eq!(t.as_str(), "{\"type\":\"update\",\"name\":\"Zoë\"}");
        assert_eq!(t.clone().into_bytes().as_ref(), "{\"type\":\"update\",\"name\":\"Zoë\"}".as_bytes());
        assert_eq!(Text::from("pong").as_str(), "pong");
    }
}
