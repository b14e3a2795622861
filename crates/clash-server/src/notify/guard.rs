//! A webhook is a request the server makes on a player's behalf, so it must not reach what only
//! the server can reach: loopback, private networks, link-local and cloud metadata addresses,
//! carrier-grade NAT, and the like, in IPv4 and IPv6. Every IPv6 form that carries or routes to
//! an IPv4 address is classified: IPv4-mapped and IPv4-translated addresses and the well-known
//! NAT64 prefix are judged by the IPv4 address inside; tunnels and translations into networks of
//! their own (6to4, Teredo, local-use NAT64, IPv4-compatible) are never sent to, and neither are
//! ORCHIDs, documentation, benchmarking, discard, multicast and unassigned addresses. A host on
//! a LAN can allow private addresses ([`super::Settings::allow_private`]: loopback, unique local,
//! link- and site-local); metadata addresses stay refused even then.
//!
//! A target's host is resolved once per delivery and the request connects to the address that
//! was checked (see [`super::deliver`]), so a name that resolves elsewhere the second time
//! (DNS rebinding) gains nothing.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::LazyLock;
use std::time::Duration;

use ipnet::Ipv6Net;

/// Why an address is refused, in words; `None` when the server may connect to it.
pub fn refusal(ip: IpAddr, allow_private: bool) -> Option<Cow<'static, str>> {
    match ip {
        IpAddr::V4(v4) => refusal_v4(v4, allow_private).map(Cow::Borrowed),
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
        (192, 88, 99) => Some("a 6to4 relay address (deprecated)"),
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

/// Where an IPv6 form keeps the IPv4 address it carries.
type Embedded = fn(Ipv6Addr) -> Ipv4Addr;

/// The IPv4 address in the last 32 bits (IPv4-mapped, IPv4-translated, NAT64).
fn last_32(ip: Ipv6Addr) -> Ipv4Addr {
    let o = ip.octets();
    Ipv4Addr::new(o[12], o[13], o[14], o[15])
}

/// 6to4 (`2002:AABB:CCDD::/48`): the IPv4 address in bits 16 to 47.
fn six_to_four(ip: Ipv6Addr) -> Ipv4Addr {
    let o = ip.octets();
    Ipv4Addr::new(o[2], o[3], o[4], o[5])
}

/// Teredo (`2001::/32`): the client's IPv4 address, each bit inverted, in the last 32 bits.
fn teredo_client(ip: Ipv6Addr) -> Ipv4Addr {
    Ipv4Addr::from(!u32::from(last_32(ip)))
}

/// What an IPv6 prefix is, as the server judges it (the IANA IPv6 Special-Purpose Address
/// Registry, and the forms that carry an IPv4 address).
#[derive(Clone, Copy)]
enum Form {
    /// Reaches the IPv4 address it carries, and is judged by that address.
    Carries(&'static str, Embedded),
    /// A tunnel or translation into a network of its own: never sent to (it names the IPv4
    /// address inside, when it holds one).
    Tunnel(&'static str, Option<Embedded>),
    /// Never sent to.
    Refused(&'static str),
    /// A private range: refused unless the host allows a LAN.
    Private(&'static str),
}

/// The special IPv6 prefixes, most specific first; the first that holds an address decides.
/// `ipnet` does the prefix arithmetic.
const PREFIXES: [(&str, Form); 22] = [
    ("::/128", Form::Refused("the unspecified address")),
    ("::1/128", Form::Private("a loopback address")),
    (
        "fd00:ec2::254/128",
        Form::Refused("a cloud metadata address"),
    ),
    (
        "::ffff:0:0/96",
        Form::Carries("an IPv4-mapped address", last_32),
    ),
    (
        "::ffff:0:0:0/96",
        Form::Carries("an IPv4-translated address", last_32),
    ),
    (
        "::/96",
        Form::Tunnel("an IPv4-compatible address (deprecated)", Some(last_32)),
    ),
    ("64:ff9b::/96", Form::Carries("a NAT64 address", last_32)),
    (
        "64:ff9b:1::/48",
        Form::Tunnel(
            "a local-use NAT64 address, translated inside its own network",
            Some(last_32),
        ),
    ),
    ("100::/64", Form::Refused("a discard-only address")),
    (
        "2001::/32",
        Form::Tunnel("a Teredo address", Some(teredo_client)),
    ),
    ("2001:2::/48", Form::Refused("a benchmarking address")),
    (
        "2001:10::/28",
        Form::Tunnel("an ORCHID address (deprecated), which is not routed", None),
    ),
    (
        "2001:20::/28",
        Form::Tunnel("an ORCHIDv2 address, which is not routed", None),
    ),
    ("2001:db8::/32", Form::Refused("a documentation address")),
    (
        "2001::/23",
        Form::Refused("an IETF protocol assignment address"),
    ),
    (
        "2002::/16",
        Form::Tunnel("a 6to4 address", Some(six_to_four)),
    ),
    ("3fff::/20", Form::Refused("a documentation address")),
    ("5f00::/16", Form::Refused("a segment routing address")),
    (
        "fc00::/7",
        Form::Private("a private (unique local) address"),
    ),
    ("fe80::/10", Form::Private("a link-local address")),
    (
        "fec0::/10",
        Form::Private("a site-local address (deprecated)"),
    ),
    ("ff00::/8", Form::Refused("a multicast address")),
];

static FORMS: LazyLock<Vec<(Ipv6Net, Form)>> = LazyLock::new(|| {
    PREFIXES
        .iter()
        .map(|(prefix, form)| (prefix.parse().expect("a valid IPv6 prefix"), *form))
        .collect()
});

/// Outside the table above, only the global unicast range (`2000::/3`) is assigned.
fn unassigned(ip: Ipv6Addr) -> bool {
    ip.segments()[0] & 0xe000 != 0x2000
}

fn refusal_v6(ip: Ipv6Addr, allow_private: bool) -> Option<Cow<'static, str>> {
    let form = FORMS
        .iter()
        .find(|(net, _)| net.contains(&ip))
        .map(|(_, f)| *f);
    match form {
        Some(Form::Carries(what, inside)) => {
            let v4 = inside(ip);
            refusal_v4(v4, allow_private).map(|why| format!("{what} carrying {v4} ({why})").into())
        }
        Some(Form::Tunnel(what, inside)) => Some(match inside.map(|f| f(ip)) {
            Some(v4) => match refusal_v4(v4, false) {
                Some(why) => format!("{what} carrying {v4} ({why})").into(),
                None => format!("{what} carrying {v4}").into(),
            },
            None => what.into(),
        }),
        Some(Form::Refused(why)) => Some(why.into()),
        Some(Form::Private(why)) => (!allow_private).then_some(why.into()),
        None if unassigned(ip) => Some("an unassigned address".into()),
        None => None,
    }
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

    /// One row per form that carries or routes to an IPv4 or internal address: the address,
    /// and what the refusal must say (`None`: it may be sent to).
    #[test]
    fn every_ipv6_form_is_classified() {
        let table: [(&str, Option<&str>); 30] = [
            (
                "2002:a9fe:a9fe::",
                Some("6to4 address carrying 169.254.169.254 (a cloud metadata"),
            ),
            (
                "2002:7f00:1::",
                Some("6to4 address carrying 127.0.0.1 (a loopback"),
            ),
            ("2002:808:808::1", Some("6to4 address carrying 8.8.8.8")),
            (
                "::ffff:0:7f00:1",
                Some("IPv4-translated address carrying 127.0.0.1 (a loopback"),
            ),
            (
                "::ffff:0:a9fe:a9fe",
                Some("IPv4-translated address carrying 169.254.169.254"),
            ),
            ("::ffff:0:808:808", None),
            (
                "::ffff:7f00:1",
                Some("IPv4-mapped address carrying 127.0.0.1"),
            ),
            ("::ffff:8.8.8.8", None),
            (
                "64:ff9b::a9fe:a9fe",
                Some("NAT64 address carrying 169.254.169.254"),
            ),
            ("64:ff9b::7f00:1", Some("NAT64 address carrying 127.0.0.1")),
            ("64:ff9b::808:808", None),
            ("64:ff9b:1::a9fe:a9fe", Some("local-use NAT64 address")),
            ("64:ff9b:1::808:808", Some("local-use NAT64 address")),
            (
                "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                Some("Teredo address carrying 192.0.2.45"),
            ),
            ("2001::ffff:ffff", Some("Teredo address carrying 0.0.0.0")),
            (
                "::7f00:1",
                Some("IPv4-compatible address (deprecated) carrying 127.0.0.1"),
            ),
            ("2001:10::1", Some("ORCHID address (deprecated)")),
            ("2001:20::1", Some("ORCHIDv2 address")),
            ("fec0::1", Some("site-local address")),
            ("fd12:3456::1", Some("unique local")),
            ("fc00::1", Some("unique local")),
            ("fe80::1", Some("link-local")),
            ("ff05::2", Some("multicast")),
            ("ff02::1", Some("multicast")),
            ("2001:db8::1", Some("documentation")),
            ("3fff::1", Some("documentation")),
            ("2001:2::1", Some("benchmarking")),
            ("100::1", Some("discard-only")),
            ("4000::1", Some("unassigned")),
            ("2606:4700::1111", None),
        ];
        for (ip, expected) in table {
            let got = refusal(ip.parse().unwrap(), false);
            match (expected, got.as_deref()) {
                (None, None) => {}
                (Some(part), Some(why)) => assert!(why.contains(part), "{ip}: {why}"),
                (expected, got) => panic!("{ip}: expected {expected:?}, got {got:?}"),
            }
        }
        // A LAN host may reach its own networks, never through a tunnel nor to metadata.
        let lan = |t: &str| refusal(t.parse().unwrap(), true);
        assert_eq!(lan("fec0::1"), None);
        assert_eq!(lan("fd12::1"), None);
        assert_eq!(lan("64:ff9b::a00:1"), None);
        assert!(lan("2002:7f00:1::").is_some());
        assert!(lan("64:ff9b::a9fe:a9fe").is_some());
        assert!(lan("::ffff:0:a9fe:a9fe").is_some());
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
