//! The table-creation rate limit: each client address (an IPv6 client by its /64) may create a
//! burst of tables, then a few per minute (GCRA, from the `governor` crate).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::config::Limits;
use crate::http::net::client_key;

/// Refused: this address created its allowance of tables; the next may come after
/// `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooSoon {
    pub retry_after: Duration,
}

pub struct CreationLimit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

impl CreationLimit {
    pub fn new(limits: &Limits) -> CreationLimit {
        let per_minute = NonZeroU32::new(limits.creates_per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.create_burst).unwrap_or(NonZeroU32::MIN);
        CreationLimit {
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute).allow_burst(burst)),
            clock: DefaultClock::default(),
        }
    }

    /// Count one creation from `client`, or refuse it with the time to wait.
    pub fn check(&self, client: IpAddr) -> Result<(), TooSoon> {
        self.limiter
            .check_key(&client_key(client))
            .map_err(|not_until| TooSoon {
                retry_after: not_until
                    .wait_time_from(self.clock.now())
                    .max(Duration::from_secs(1)),
            })
    }

    /// Forget addresses whose allowance has refilled (keeps memory bounded).
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }

    pub fn tracked(&self) -> usize {
        self.limiter.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals_naming_the_wait_and_other_addresses_unaffected() {
        let limits = Limits {
            create_burst: 3,
            creates_per_minute: 1,
            ..Limits::default()
        };
        let limit = CreationLimit::new(&limits);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            limit.check(a).unwrap();
        }
        match limit.check(a) {
            Err(TooSoon { retry_after }) => {
                assert!(retry_after > Duration::from_secs(50), "{retry_after:?}")
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        limit.check("192.0.2.2".parse().unwrap()).unwrap();
        // Two addresses of one IPv6 /64 share an allowance.
        let v6a: IpAddr = "2001:db8::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8::2".parse().unwrap();
        for _ in 0..3 {
            limit.check(v6a).unwrap();
        }
        assert!(limit.check(v6b).is_err());
    }
}
