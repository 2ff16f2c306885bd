//! Trusted reverse proxies (`--trusted-proxy CIDR`): behind one, every connection comes from the
//! proxy's address, and the client's is in the header the proxy adds. The headers are read only
//! on connections from an address the operator named; from anyone else they are ignored (a
//! client may write any header it likes), and without the option nothing changes.
//!
//! `X-Forwarded-For` is read from its right end: each proxy appends the address it got the
//! request from, so the rightmost address that is not itself a trusted proxy is the client's
//! (what sits left of it the client may have written). Without it, the standard `Forwarded`
//! header's `for=` parameters are read the same way.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// An address block: an IP address and how many of its leading bits count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    bits: u8,
}

/// Why a `--trusted-proxy` value is not an address block.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not an IP address or an address block (e.g. 10.0.0.0/8, 127.0.0.1, ::1/128)")]
pub struct CidrError(String);

impl FromStr for Cidr {
    type Err = CidrError;

    fn from_str(s: &str) -> Result<Cidr, CidrError> {
        let bad = || CidrError(s.chars().take(64).collect());
        let (ip, bits) = match s.split_once('/') {
            Some((ip, bits)) => (ip, Some(bits.parse::<u8>().map_err(|_| bad())?)),
            None => (s, None),
        };
        let addr: IpAddr = ip.parse().map_err(|_| bad())?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = bits.unwrap_or(max);
        if bits > max {
            return Err(bad());
        }
        Ok(Cidr { addr, bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// An address as one number of its family's width, IPv4-mapped IPv6 addresses as IPv4.
fn bits_of(ip: IpAddr) -> (bool, u128) {
    match ip {
        IpAddr::V4(v4) => (true, u128::from(u32::from(v4))),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => (true, u128::from(u32::from(v4))),
            None => (false, u128::from(v6)),
        },
    }
}

impl Cidr {
    /// Whether `ip` is in the block.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let (v4, net) = bits_of(self.addr);
        let (ip_v4, ip) = bits_of(ip);
        if v4 != ip_v4 {
            return false;
        }
        let width = if v4 { 32 } else { 128 };
        let shift = width - u32::from(self.bits);
        if shift >= 128 {
            return true;
        }
        (net >> shift) == (ip >> shift)
    }
}

/// The operator's trusted proxies.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Vec<Cidr>);

impl TrustedProxies {
    /// Whether connections from `ip` are a trusted proxy's.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|c| c.contains(ip))
    }

    /// The client's address for a request that came over a connection from `peer`: `peer`
    /// itself unless it is a trusted proxy; then the rightmost address of `X-Forwarded-For`
    /// (else of `Forwarded`) that is not a trusted proxy (the leftmost if all are). A header
    /// that does not parse stops the walk there: the last address read (or `peer`) is the one.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded_for: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .collect();
        let hops: Vec<&str> = if forwarded_for.is_empty() {
            headers
                .get_all("forwarded")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|element| {
                    element.split(';').find_map(|pair| {
                        let (k, v) = pair.trim().split_once('=')?;
                        k.trim().eq_ignore_ascii_case("for").then_some(v.trim())
                    })
                })
                .collect()
        } else {
            forwarded_for
        };
        let mut client = peer;
        for hop in hops.iter().rev() {
            match parse_hop(hop) {
                Some(ip) => {
                    client = ip;
                    if !self.trusts(ip) {
                        break;
                    }
                }
                None => break,
            }
        }
        client
    }
}

/// One hop's address: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:80`, each maybe
/// quoted (as `Forwarded` writes them); `unknown` and obfuscated names are no address.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim().trim_matches('"');
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        return rest.split_once(']').and_then(|(ip, _)| ip.parse().ok());
    }
    hop.rsplit_once(':').filter(|(ip, _)| !ip.contains(':')).and_then(|(ip, _)| ip.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().expect("a header value"));
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("an address")
    }

    #[test]
    fn blocks_parse_and_hold_their_addresses() {
        let c: Cidr = "10.0.0.0/8".parse().expect("a block");
        assert!(c.contains(ip("10.200.3.4")));
        assert!(!c.contains(ip("11.0.0.1")));
        assert!(c.contains(ip("::ffff:10.1.1.1")), "an IPv4-mapped address is its IPv4 one");
        let one: Cidr = "127.0.0.1".parse().expect("an address alone");
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let v6: Cidr = "2001:db8::/32".parse().expect("a block");
        assert!(v6.contains(ip("2001:db8:1::5")) && !v6.contains(ip("2001:db9::1")));
        let all: Cidr = "0.0.0.0/0".parse().expect("every IPv4 address");
        assert!(all.contains(ip("8.8.8.8")) && !all.contains(ip("::2")));
        for bad in ["10.0.0.0/33", "::/129", "nginx", "10.0.0/8", "", "1.2.3.4/x"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_headers_are_read_only_from_a_trusted_proxy() {
        let trusted = TrustedProxies(vec!["10.0.0.0/8".parse().expect("block")]);
        let spoofed = headers(&[("x-forwarded-for", "6.6.6.6")]);
        assert_eq!(trusted.client(ip("1.2.3.4"), &spoofed), ip("1.2.3.4"), "a client's own header is ignored");
        assert_eq!(trusted.client(ip("10.0.0.5"), &spoofed), ip("6.6.6.6"));
        assert_eq!(TrustedProxies::default().client(ip("10.0.0.5"), &spoofed), ip("10.0.0.5"), "no option, no change");
        // The client wrote 6.6.6.6 itself; nginx appended the address it saw (5.5.5.5), and an
        // inner proxy (10.0.0.7) its own view.
        let chain = headers(&[("x-forwarded-for", "6.6.6.6, 5.5.5.5"), ("x-forwarded-for", "10.0.0.7")]);
        assert_eq!(trusted.client(ip("10.0.0.5"), &chain), ip("5.5.5.5"), "the rightmost untrusted hop");
        let forwarded = headers(&[("forwarded", "for=6.6.6.6, for=\"[2001:db8::7]:4711\";proto=https")]);
        assert_eq!(trusted.client(ip("10.0.0.5"), &forwarded), ip("2001:db8::7"));
        let garbage = headers(&[("x-forwarded-for", "5.5.5.5, not-an-address")]);
        assert_eq!(trusted.client(ip("10.0.0.5"), &garbage), ip("10.0.0.5"), "a bad hop stops the walk");
        assert_eq!(trusted.client(ip("10.0.0.5"), &HeaderMap::new()), ip("10.0.0.5"), "no header: the proxy");
        let port = headers(&[("x-forwarded-for", "5.5.5.5:5000")]);
        assert_eq!(trusted.client(ip("10.0.0.5"), &port), ip("5.5.5.5"));
    }
}
