//! A webhook is a request the server makes on a player's behalf, so it must not reach what only
//! the server can reach: loopback, private networks, link-local and cloud metadata addresses,
//! carrier-grade NAT, and the like, in IPv4 and IPv6 (IPv4-mapped and NAT64 addresses are
//! judged by the IPv4 address inside). A host on a LAN can allow private addresses
//! ([`super::Settings::allow_private`]); metadata addresses stay refused even then.
//!
//! A target's host is resolved once per delivery and the request connects to the address that
//! was checked (see [`super::deliver`]), so a name that resolves elsewhere the second time
//! (DNS rebinding) gains nothing.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Why an address is refused, in words; `None` when the server may connect to it.
pub fn refusal(ip: IpAddr, allow_private: bool) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refusal_v4(v4, allow_private),
        IpAddr::V6(v6) => refusal_v6(v6, allow_private),
    }
}

fn refusal_v4(ip: Ipv4Addr, allow_private: bool) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        return Some("a cloud metadata address");
    }
    let special = match (a, b, c) {
        (0, _, _) => Some("a 'this network' address"),
        (224..=239, _, _) => Some("a multicast address"),
        (240..=255, _, _) => Some("a reserved or broadcast address"),
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => Some("a documentation address"),
        (198, 18..=19, _) => Some("a benchmarking address"),
        (192, 0, 0) => Some("a protocol assignment address"),
        _ => None,
    };
    if special.is_some() {
        return special;
    }
    let private = match (a, b) {
        (127, _) => Some("a loopback address"),
        (10, _) | (192, 168) => Some("a private address"),
        (172, 16..=31) => Some("a private address"),
        (169, 254) => Some("a link-local address"),
        (100, 64..=127) => Some("a carrier-grade NAT address"),
        _ => None,
    };
    private.filter(|_| !allow_private)
}

fn refusal_v6(ip: Ipv6Addr, allow_private: bool) -> Option<&'static str> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refusal_v4(v4, allow_private);
    }
    let s = ip.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return refusal_v4(Ipv4Addr::new(a, b, c, d), allow_private);
    }
    if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        return Some("a cloud metadata address");
    }
    if ip.is_unspecified() {
        return Some("the unspecified address");
    }
    if ip.is_multicast() {
        return Some("a multicast address");
    }
    if s[0] == 0x2001 && s[1] == 0xdb8 {
        return Some("a documentation address");
    }
    // ::/96 (IPv4-compatible, deprecated) and 100::/64 (discard).
    if s[..6] == [0; 6] && !ip.is_loopback() || s[..4] == [0x100, 0, 0, 0] {
        return Some("a reserved address");
    }
    let private = if ip.is_loopback() {
        Some("a loopback address")
    } else if s[0] & 0xfe00 == 0xfc00 {
        Some("a private (unique local) address")
    } else if s[0] & 0xffc0 == 0xfe80 || s[0] & 0xffc0 == 0xfec0 {
        Some("a link-local address")
    } else {
        None
    };
    private.filter(|_| !allow_private)
}

/// How long a name may take to resolve.
const RESOLVE_TIME: Duration = Duration::from_secs(5);

/// Resolve `host` once and check every address it gives: the one to connect to, or why not.
/// A name with any refused address is refused whole (its owner controls which one is used).
pub async fn resolve(host: &str, port: u16, allow_private: bool) -> Result<SocketAddr, String> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<IpAddr>() {
        return match refusal(ip, allow_private) {
            Some(why) => Err(format!(
                "{host} is {why}, which this server does not send to"
            )),
            None => Ok(SocketAddr::new(ip, port)),
        };
    }
    let found = tokio::time::timeout(RESOLVE_TIME, tokio::net::lookup_host((host, port)))
        .await
        .map_err(|_| format!("looking up {host} took too long"))?
        .map_err(|_| format!("{host} cannot be found"))?;
    let addrs: Vec<SocketAddr> = found.take(16).collect();
    for addr in &addrs {
        if let Some(why) = refusal(addr.ip(), allow_private) {
            return Err(format!(
                "{host} leads to {why}, which this server does not send to"
            ));
        }
    }
    addrs
        .first()
        .copied()
        .ok_or_else(|| format!("{host} has no address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> bool {
        refusal(text.parse().unwrap(), false).is_some()
    }

    #[test]
    fn private_and_special_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "169.254.1.1",
            "100.64.0.1",
            "100.127.255.255",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "ff02::1",
            "2001:db8::1",
            "::127.0.0.1",
        ] {
            assert!(refused(ip), "{ip} should be refused");
        }
        for ip in [
            "93.184.216.34",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!refused(ip), "{ip} should be allowed");
        }
    }

    #[test]
    fn a_lan_host_allows_private_addresses_but_never_metadata() {
        let lan = |t: &str| refusal(t.parse().unwrap(), true);
        assert_eq!(lan("127.0.0.1"), None);
        assert_eq!(lan("192.168.1.10"), None);
        assert_eq!(lan("::1"), None);
        assert!(lan("169.254.169.254").is_some());
        assert!(lan("::ffff:169.254.169.254").is_some());
        assert!(lan("fd00:ec2::254").is_some());
    }

    #[tokio::test]
    async fn a_name_is_resolved_and_checked() {
        assert!(resolve("localhost", 80, false).await.is_err());
        assert_eq!(resolve("127.0.0.1", 80, true).await.unwrap().port(), 80);
        assert!(
            resolve("[::1]", 80, false)
                .await
                .unwrap_err()
                .contains("loopback")
        );
    }
}
