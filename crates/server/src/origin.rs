//! The site's public origin (`--public-origin`, `https://uno.example.org`), which passkeys are
//! bound to: its host is the relying party id. Its own module so that the host's configuration
//! can hold it without reaching into the accounts' routes.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use webauthn_rs::prelude::{Url, Webauthn, WebauthnBuilder};

/// How long a ceremony may take, from its start to its finish (the browser is told the same).
pub const CEREMONY_LIFE: Duration = Duration::from_secs(300);

/// Why an origin cannot be the site's public origin.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OriginError {
    #[error("{0:?} is not a URL: {1}")]
    NotUrl(String, String),
    #[error("the public origin must be https:// (or http://localhost), not {0}")]
    Scheme(String),
    #[error("the public origin is a scheme, a host and a port only (no path, query or user)")]
    NotOrigin,
    #[error("the public origin needs a host name: browsers refuse passkeys on an IP address")]
    NoDomain,
    #[error("passkeys cannot be set up for this origin: {0}")]
    Webauthn(String),
}

/// The origin people reach the site at (`https://uno.example.org`), which passkeys are bound to:
/// its host is the relying party id. `http://localhost` (on any port) unless configured.
#[derive(Clone)]
pub struct PublicOrigin {
    origin: String,
    rp_id: String,
    pub(crate) webauthn: Arc<Webauthn>,
}

impl fmt::Debug for PublicOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicOrigin({})", self.origin)
    }
}

impl Default for PublicOrigin {
    fn default() -> Self {
        PublicOrigin::localhost()
    }
}

impl PublicOrigin {
    /// `http://localhost` on any port: a developer's machine and the tests (a browser counts
    /// `localhost` as a secure context; it refuses passkeys on `127.0.0.1`).
    pub fn localhost() -> PublicOrigin {
        // A constant origin, which builds: checked by the tests.
        PublicOrigin::build("http://localhost", "localhost", true).expect("http://localhost is a relying party")
    }

    /// The origin as configured: `https://` and a host name (`http://` only for `localhost`),
    /// with a port if not the scheme's own, nothing else.
    pub fn parse(origin: &str) -> Result<PublicOrigin, OriginError> {
        let url = Url::parse(origin.trim()).map_err(|e| OriginError::NotUrl(origin.to_string(), e.to_string()))?;
        let Some(host) = url.domain().map(str::to_ascii_lowercase) else { return Err(OriginError::NoDomain) };
        let local = host == "localhost" || host.ends_with(".localhost");
        match url.scheme() {
            "https" => {}
            "http" if local => {}
            other => return Err(OriginError::Scheme(other.to_string())),
        }
        if url.path() != "/" || url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
            return Err(OriginError::NotOrigin);
        }
        let text = url.origin().ascii_serialization();
        PublicOrigin::build(&text, &host, false)
    }

    fn build(origin: &str, rp_id: &str, any_port: bool) -> Result<PublicOrigin, OriginError> {
        let url = Url::parse(origin).map_err(|e| OriginError::NotUrl(origin.to_string(), e.to_string()))?;
        let webauthn = WebauthnBuilder::new(rp_id, &url)
            .map_err(|e| OriginError::Webauthn(e.to_string()))?
            .rp_name("tabletop")
            .allow_any_port(any_port)
            .timeout(CEREMONY_LIFE)
            .build()
            .map_err(|e| OriginError::Webauthn(e.to_string()))?;
        Ok(PublicOrigin { origin: origin.to_string(), rp_id: rp_id.to_string(), webauthn: Arc::new(webauthn) })
    }

    /// The origin, as a browser writes it (`https://uno.example.org`).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The relying party id passkeys are made for: the origin's host.
    pub fn rp_id(&self) -> &str {
        &self.rp_id
    }
}
