//! What instances say to each other over NATS, and on which subjects.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The subject an instance answers on. Its name is hashed: names hold `/`, `:` and `.`, which a
/// subject gives meaning to.
pub(super) fn instance_subject(name: &str) -> String {
    subject_of_tag(&instance_tag(name))
}

/// The hashed name an instance's subject ends with ([`crate::quick::HOME_TAG_LEN`] hex digits),
/// which its quick-match tickets start with.
pub(super) fn instance_tag(name: &str) -> String {
    hex::encode(&Sha256::digest(name.as_bytes())[..crate::quick::HOME_TAG_LEN / 2])
}

/// The subject of the instance whose tag this is.
pub(super) fn subject_of_tag(tag: &str) -> String {
    format!("tabletop.instance.{tag}")
}

/// Where a table's owner publishes what one viewer on another instance is sent: one subject per
/// table and viewer connection, so an instance receives only the views of its own viewers.
pub(super) fn watch_subject(table: &str, watch: &str) -> String {
    format!("tabletop.table.{table}.watch.{watch}")
}

/// A table id that may name a subject (ids are made of hex digits; anything else is no table).
/// Now, in milliseconds since 1970, by this machine's clock.
pub(super) fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

pub(super) fn is_table_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A request to the instance that holds a table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(super) enum Ask {
    /// An API request about the table, as a client made it.
    Http {
        table: String,
        method: String,
        /// Path and query.
        uri: String,
        authorization: Option<String>,
        content_type: Option<String>,
        /// The `Prefer` header (`return=minimal`: no view in the answer).
        #[serde(default)]
        prefer: Option<String>,
        /// The headers a signed-in person's request is read by, as the asker got them: the
        /// session cookie, and `Host`, `Origin` and `Sec-Fetch-Site` (the owner checks that
        /// the request is not a forgery from another site, as the asker would have).
        #[serde(default)]
        person: Vec<(String, String)>,
        /// The client's address as the asker read it (its peer's, or the one a proxy it trusts
        /// forwarded): the owner counts the request by it, as the asker would have, rather than
        /// as one client for every request forwarded. Only an instance writes it (it travels on
        /// the bus, and no header of a client's sets it); absent (an instance of before),
        /// the request has no address, as one through the router alone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client: Option<std::net::IpAddr>,
        body: String,
        /// When the asker sent it (milliseconds since 1970; set on each try): held up past its
        /// time on the way (a bus that buffered it while down), it is not run, since the asker
        /// has answered 503 by then.
        sent_ms: u64,
    },
    /// A viewer connected to the asker: send it the table's changes on `watch_subject`.
    Watch { table: String, token: Option<String>, watch: String },
    /// The asker's viewers still connected; answered with those the owner no longer serves.
    Renew { watches: Vec<String> },
    /// A viewer left.
    Unwatch { watch: String },
    /// A quick-match queue socket connected to the asker, for a ticket whose home is the
    /// instance asked: where it stands now (`open`: the socket is still there), or that the
    /// socket closed. Answered as `Http` (the status, or the refusal).
    QueueRelay { ticket: String, open: bool },
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(super) enum Answer {
    /// The API's answer (also a refused `Watch`: a bad token, no spectators).
    Http {
        status: u16,
        body: String,
    },
    /// The viewer's full state, at `version`; its changes follow on the watch subject.
    Watching {
        first: String,
        version: u64,
    },
    /// The watches of a `Renew` the owner does not serve (it lost the table, or they expired).
    Unknown {
        watches: Vec<String>,
    },
    /// This instance does not hold the table (any more).
    NotHere,
    Done,
}

/// One message on a watch subject. Framed by hand rather than as JSON: the view inside is
/// already JSON, and quoting it again would cost as much as rendering it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Pushed {
    /// `update`: merged into what the viewer holds; otherwise a full state.
    View {
        version: u64,
        update: bool,
        text: String,
    },
    Close {
        code: u16,
        reason: String,
    },
    /// The version of the last view sent on this watch, said every `watch::RENEW_EVERY` even
    /// when nothing changes: a relay behind it lost a message (delivery is at most once, and a
    /// bus restart loses what was in flight) and reads its viewer's state again, so a lost
    /// update never waits for the next one to be noticed.
    Tick {
        version: u64,
    },
}

impl Pushed {
    pub(super) fn encode(&self) -> Vec<u8> {
        match self {
            Pushed::View { version, update, text } => {
                let mut out = format!("{} {version}\n", if *update { 'U' } else { 'S' }).into_bytes();
                out.extend_from_slice(text.as_bytes());
                out
            }
            Pushed::Close { code, reason } => format!("C {code}\n{reason}").into_bytes(),
            Pushed::Tick { version } => format!("T {version}\n").into_bytes(),
        }
    }

    pub(super) fn decode(bytes: &[u8]) -> Option<Pushed> {
        let text = std::str::from_utf8(bytes).ok()?;
        let (head, rest) = text.split_once('\n')?;
        let (kind, n) = head.split_once(' ')?;
        match kind {
            "U" | "S" => Some(Pushed::View { version: n.parse().ok()?, update: kind == "U", text: rest.to_string() }),
            "C" => Some(Pushed::Close { code: n.parse().ok()?, reason: rest.to_string() }),
            "T" => Some(Pushed::Tick { version: n.parse().ok()? }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_read_back_as_written() {
        for p in [
            Pushed::View { version: 7, update: true, text: "{\"a\":\"x\\ny\"}".into() },
            Pushed::View { version: 0, update: false, text: String::new() },
            Pushed::Close { code: 4002, reason: "table closed".into() },
            Pushed::Tick { version: 12 },
        ] {
            assert_eq!(Pushed::decode(&p.encode()), Some(p));
        }
        assert_eq!(Pushed::decode(b"X 1\n{}"), None);
        assert_eq!(Pushed::decode(b"U x\n{}"), None);
    }

    #[test]
    fn subjects_hold_no_separator_from_a_name() {
        let s = instance_subject("host.example/127.0.0.1:8080");
        assert_eq!(s.matches('.').count(), 2, "{s}");
        assert_ne!(s, instance_subject("host.example/127.0.0.1:8081"));
        assert!(is_table_id("0a1b2c3d4e5f6a7b"));
        assert!(!is_table_id("a.b") && !is_table_id("*") && !is_table_id(">") && !is_table_id(""));
    }
}
