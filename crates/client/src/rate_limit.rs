//! Per-server rate limiting of elicitation requests (clients SHOULD implement rate
//! limiting).
//!
//! A token bucket: a server may send [`RateLimit::burst`] requests at once, then one
//! more every [`RateLimit::refill_every`]. Defaults: **burst 5, one token per 10 s**
//! (a person cannot meaningfully answer more than a handful of prompts in a row; a
//! legitimate multi-step flow asks a few questions, then waits for the answers).
//! A request over the limit is answered `cancel` at once without being shown, and the
//! user gets a single [`Notice::RateLimited`](crate::Notice::RateLimited) per burst
//! (the notice is re-armed once the bucket has a token again), never a flood of prompts.
//!
//! Time comes from a [`Clock`]; [`TokioClock`] follows `tokio::time`, so tests can use
//! `tokio::time::pause` and `advance` instead of sleeping.

use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

/// A source of monotonic time.
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> Instant;
}

/// `tokio::time::Instant::now()` (pausable in tests).
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A token-bucket policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RateLimit {
    /// Requests allowed at once (bucket size). 0 refuses everything.
    pub burst: u32,
    /// Time to earn one more request.
    #[serde(serialize_with = "serialize_secs")]
    pub refill_every: Duration,
}

fn serialize_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Default for RateLimit {
    fn default() -> Self {
        Self {
            burst: 5,
            refill_every: Duration::from_secs(10),
        }
    }
}

impl RateLimit {
    /// No limit in practice (for trusted, scripted use).
    pub const UNLIMITED: RateLimit = RateLimit {
        burst: u32::MAX,
        refill_every: Duration::from_nanos(1),
    };
}

/// What [`RateLimiter::check`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Go ahead.
    Allowed,
    /// Over the limit; tell the user (first refusal of this burst).
    RefusedNotify,
    /// Over the limit; the user was already told.
    RefusedSilently,
}

#[derive(Debug)]
struct Bucket {
    /// Tokens available, in units of 1/1000 token to keep fractional refills exact enough.
    millitokens: u64,
    last: Instant,
    notified: bool,
}

/// A token bucket for one server connection.
#[derive(Debug)]
pub struct RateLimiter<C: Clock = TokioClock> {
    policy: RateLimit,
    clock: C,
    bucket: Mutex<Bucket>,
}

impl<C: Clock> RateLimiter<C> {
    /// A full bucket.
    pub fn new(policy: RateLimit, clock: C) -> Self {
        let last = clock.now();
        Self {
            policy,
            clock,
            bucket: Mutex::new(Bucket {
                millitokens: u64::from(policy.burst) * 1000,
                last,
                notified: false,
            }),
        }
    }

    /// The policy.
    pub fn policy(&self) -> RateLimit {
        self.policy
    }

    /// Takes a token when one is available.
    pub fn check(&self) -> Admission {
        let now = self.clock.now();
        let mut b = match self.bucket.lock() {
            Ok(b) => b,
            Err(poisoned) => poisoned.into_inner(),
        };
        let cap = u64::from(self.policy.burst) * 1000;
        let elapsed = now.saturating_duration_since(b.last);
        let period = self.policy.refill_every.as_nanos().max(1);
        let earned = elapsed.as_nanos().saturating_mul(1000) / period;
        if earned > 0 {
            let earned = u64::try_from(earned).unwrap_or(u64::MAX);
            b.millitokens = b.millitokens.saturating_add(earned).min(cap);
            // Keep the remainder: advance `last` only by the time that earned whole millitokens.
            if b.millitokens >= cap {
                b.last = now;
            } else {
                let used = Duration::from_nanos(
                    u64::try_from(u128::from(earned) * period / 1000).unwrap_or(u64::MAX),
                );
                b.last += used;
            }
        }
        if b.millitokens >= 1000 {
            b.millitokens -= 1000;
            b.notified = false;
            Admission::Allowed
        } else if b.notified {
            Admission::RefusedSilently
        } else {
            b.notified = true;
            Admission::RefusedNotify
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn burst_then_refill_with_one_notice() {
        let rl = RateLimiter::new(RateLimit::default(), TokioClock);
        for _ in 0..5 {
            assert_eq!(rl.check(), Admission::Allowed);
        }
        assert_eq!(rl.check(), Admission::RefusedNotify);
        for _ in 0..20 {
            assert_eq!(rl.check(), Admission::RefusedSilently);
        }
        tokio::time::advance(Duration::from_secs(9)).await;
        assert_eq!(rl.check(), Admission::RefusedSilently);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(rl.check(), Admission::Allowed);
        // A new burst of refusals notifies again, once.
        assert_eq!(rl.check(), Admission::RefusedNotify);
        assert_eq!(rl.check(), Admission::RefusedSilently);
        // The bucket never holds more than `burst`.
        tokio::time::advance(Duration::from_secs(3600)).await;
        for _ in 0..5 {
            assert_eq!(rl.check(), Admission::Allowed);
        }
        assert_eq!(rl.check(), Admission::RefusedNotify);
    }

    #[tokio::test(start_paused = true)]
    async fn fractional_refills_accumulate() {
        let rl = RateLimiter::new(
            RateLimit {
                burst: 1,
                refill_every: Duration::from_secs(10),
            },
            TokioClock,
        );
        assert_eq!(rl.check(), Admission::Allowed);
        for _ in 0..4 {
            tokio::time::advance(Duration::from_millis(2500)).await;
        }
        assert_eq!(rl.check(), Admission::Allowed);
    }

    #[test]
    fn zero_burst_refuses() {
        let rl = RateLimiter::new(
            RateLimit {
                burst: 0,
                refill_every: Duration::from_secs(1),
            },
            TokioClock,
        );
        assert_ne!(rl.check(), Admission::Allowed);
    }
}
