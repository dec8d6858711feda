//! Anonymous sign-ins per client: how many sign-ins one client address may start in a
//! minute without the connect link of a registered elicitation
//! ([`WebConfig::max_signins_per_client`](crate::WebConfig::max_signins_per_client)).
//!
//! A fixed one-minute window per address (IPv6 addresses by their /64, which one
//! client can rotate within). The table is pruned of finished windows when it grows,
//! so a flood from many addresses holds at most one small entry per address and minute.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window.
const WINDOW: Duration = Duration::from_secs(60);
/// Entries above which finished windows are pruned.
const PRUNE_ABOVE: usize = 10_000;

/// Sign-ins started per client address in the current window.
#[derive(Default)]
pub(crate) struct SignInLimiter {
    map: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

/// The key of an address: IPv4 as is, IPv6 by its /64.
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

impl SignInLimiter {
    /// Counts a sign-in from `ip`: `Err(seconds to wait)` when it is over `max` in the
    /// window (`max` 0: no limit).
    pub(crate) fn allow(&self, ip: IpAddr, max: u32) -> Result<(), u64> {
        if max == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut map = self
            .map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() >= PRUNE_ABOVE {
            map.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = map.entry(key(ip)).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        if entry.1 >= max {
            let left = WINDOW.saturating_sub(now.duration_since(entry.0));
            return Err(left.as_secs().max(1));
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_gets_its_own_budget_and_ipv6_counts_by_its_64() {
        let l = SignInLimiter::default();
        let a: IpAddr = "192.0.2.1".parse().expect("ip");
        let b: IpAddr = "192.0.2.2".parse().expect("ip");
        for _ in 0..3 {
            assert_eq!(l.allow(a, 3), Ok(()));
        }
        let wait = l.allow(a, 3).expect_err("over the limit");
        assert!((1..=60).contains(&wait), "{wait}");
        assert_eq!(l.allow(b, 3), Ok(()), "another client is not affected");
        let v6a: IpAddr = "2001:db8:1:2::1".parse().expect("ip");
        let v6b: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        assert_eq!(l.allow(v6a, 1), Ok(()));
        assert!(l.allow(v6b, 1).is_err(), "same /64, same client");
        assert_eq!(l.allow(a, 0), Ok(()), "0 turns the limit off");
    }
}
