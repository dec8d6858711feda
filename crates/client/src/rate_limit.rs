//! Per-server rate limiting of elicitation requests (clients SHOULD implement rate
//! limiting) that stops floods and lets wizards through.
//!
//! A token bucket: a server may send [`RateLimit::burst`] requests at once, then one
//! more every [`RateLimit::refill_every`]. Defaults: **burst 5, one token per 10 s**.
//!
//! What costs a token is a request that arrives **while an earlier request of the same
//! connection is still unanswered** (shown or queued behind the one on screen), or that
//! is dismissed **faster than a person can read it** (declined or cancelled less than
//! [`READ_TIME`] after it arrived): a server sending faster than a person can read and
//! answer, a flood. A request that arrives when nothing else is waiting and that the
//! user answers (accepts it, or says no after reading it; a person or a script) gets its
//! token back: a seven-step wizard answered one step at a time never runs dry, however
//! long it is. Requests refused without being answered (malformed, over the limit,
//! timed out, withdrawn by the server) keep their token: a flood of garbage is a flood.
//! Every request still needs a token to be shown, so a burst of requests is cut after
//! [`RateLimit::burst`].
//!
//! A request over the limit is answered `cancel` at once without being shown, and the
//! user gets a single [`Notice::RateLimited`](crate::Notice::RateLimited) per burst
//! (the notice is re-armed once the bucket has a token again), never a flood of prompts.
//! A user who is asked too often in sequence has "stop asking this server" (the hosts'
//! Ctrl-T) for the rest of the connection.
//!
//! Time comes from a [`Clock`]; [`TokioClock`] follows `tokio::time`, so tests can use
//! `tokio::time::pause` and `advance` instead of sleeping.

use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

/// Below this, a "no" (decline or cancel) came faster than a person can read the
/// request: the request keeps its token.
///
/// ```
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock, READ_TIME};
///
/// assert_eq!(READ_TIME, std::time::Duration::from_millis(250));
/// let policy = RateLimit { burst: 1, refill_every: std::time::Duration::from_secs(3600) };
///
/// // Declined at once: the token is spent, the next request is refused.
/// let limiter = RateLimiter::new(policy, TokioClock);
/// limiter.arrive().answered(false);
/// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
///
/// // Declined after reading it: the token comes back.
/// let limiter = RateLimiter::new(policy, TokioClock);
/// let request = limiter.arrive();
/// tokio::time::advance(READ_TIME).await;
/// request.answered(false);
/// assert_eq!(limiter.arrive().admission(), Admission::Allowed);
/// # }
/// ```
pub const READ_TIME: Duration = Duration::from_millis(250);

/// A source of monotonic time for a [`RateLimiter`]; the client uses [`TokioClock`].
/// See [`RateLimiter`] for a clock moved by hand.
///
/// ```
/// use mcp_elicit_client::rate_limit::{Admission, Clock, RateLimit, RateLimiter};
/// use tokio::time::Instant;
///
/// /// A clock that never moves: nothing is ever refilled.
/// struct Frozen(Instant);
/// impl Clock for Frozen {
///     fn now(&self) -> Instant {
///         self.0
///     }
/// }
/// let limiter = RateLimiter::new(RateLimit::parse("1/0.001")?, Frozen(Instant::now()));
/// assert_eq!(limiter.check(), Admission::Allowed);
/// assert_eq!(limiter.check(), Admission::RefusedNotify); // 1 ms never passes
/// # Ok::<(), String>(())
/// ```
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> Instant;
}

/// `tokio::time::Instant::now()` (pausable in tests).
///
/// ```
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// use std::time::Duration;
/// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
///
/// let limiter = RateLimiter::new(RateLimit::default(), TokioClock); // burst 5, 1 per 10 s
/// for _ in 0..5 {
///     assert_eq!(limiter.check(), Admission::Allowed);
/// }
/// assert_eq!(limiter.check(), Admission::RefusedNotify);
/// // With paused time (`start_paused`, `tokio::time::pause`), the test moves the clock.
/// tokio::time::advance(Duration::from_secs(10)).await;
/// assert_eq!(limiter.check(), Admission::Allowed);
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A token-bucket policy: [`burst`](Self::burst) requests at once, then one more every
/// [`refill_every`](Self::refill_every). Default: burst 5, one per 10 s.
///
/// ```
/// use std::time::Duration;
/// use mcp_elicit_client::RateLimit;
///
/// let policy = RateLimit::default();
/// assert_eq!((policy.burst, policy.refill_every), (5, Duration::from_secs(10)));
/// // Serialized (in notices and JSON reports) with the period in seconds.
/// assert_eq!(
///     serde_json::to_value(policy).unwrap(),
///     serde_json::json!({"burst": 5, "refill_every": 10.0})
/// );
/// ```
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
    /// Parses `off` (no limit) or `BURST/SECONDS` (e.g. `5/10`: five at once, then one
    /// more every ten seconds; fractional seconds allowed). The error says what is wrong.
    ///
    /// `off` is case-insensitive and spaces around the parts are allowed; `SECONDS` must be
    /// above 0 and at most 86400 (one day); `BURST` 0 refuses every request.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_elicit_client::RateLimit;
    ///
    /// assert_eq!(
    ///     RateLimit::parse("5/10"),
    ///     Ok(RateLimit { burst: 5, refill_every: Duration::from_secs(10) })
    /// );
    /// assert_eq!(RateLimit::parse(" 3 / 0.5 ")?.refill_every, Duration::from_millis(500));
    /// assert_eq!(RateLimit::parse("OFF"), Ok(RateLimit::UNLIMITED));
    ///
    /// assert_eq!(
    ///     RateLimit::parse("5").unwrap_err(),
    ///     "rate limit \"5\": expected off or BURST/SECONDS, e.g. 5/10"
    /// );
    /// assert!(RateLimit::parse("many/10").unwrap_err().contains("BURST must be a whole number"));
    /// assert!(RateLimit::parse("5/0").unwrap_err().contains("SECONDS must be a number above 0"));
    /// assert!(RateLimit::parse("5/172800").is_err()); // two days: too slow to be useful
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("off") {
            return Ok(Self::UNLIMITED);
        }
        let Some((burst, secs)) = s.split_once('/') else {
            return Err(format!(
                "rate limit {s:?}: expected off or BURST/SECONDS, e.g. 5/10"
            ));
        };
        let burst: u32 = burst
            .trim()
            .parse()
            .map_err(|_| format!("rate limit {s:?}: BURST must be a whole number, e.g. 5/10"))?;
        let secs: f64 = secs
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v > 0.0 && *v <= 86_400.0)
            .ok_or_else(|| {
                format!("rate limit {s:?}: SECONDS must be a number above 0 and at most 86400")
            })?;
        Ok(Self {
            burst,
            refill_every: Duration::from_secs_f64(secs),
        })
    }

    /// No limit in practice (for trusted, scripted use): a bucket of `u32::MAX` that refills
    /// every nanosecond. What `off` parses to.
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::UNLIMITED, TokioClock);
    /// let flood: Vec<_> = (0..1000).map(|_| limiter.arrive()).collect();
    /// assert!(flood.iter().all(|a| a.admission() == Admission::Allowed));
    /// ```
    pub const UNLIMITED: RateLimit = RateLimit {
        burst: u32::MAX,
        refill_every: Duration::from_nanos(1),
    };
}

/// What [`RateLimiter::check`] (or [`RateLimiter::arrive`]) decided. The client answers a
/// refused request `cancel` without showing it, and sends the user one
/// [`Notice::RateLimited`](crate::Notice::RateLimited) on [`RefusedNotify`](Self::RefusedNotify).
///
/// ```
/// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
///
/// let limiter = RateLimiter::new(RateLimit::parse("1/60")?, TokioClock);
/// assert_eq!(limiter.check(), Admission::Allowed);
/// assert_eq!(limiter.check(), Admission::RefusedNotify); // first refusal: tell the user
/// assert_eq!(limiter.check(), Admission::RefusedSilently); // already told
/// assert_eq!(limiter.check(), Admission::RefusedSilently);
/// # Ok::<(), String>(())
/// ```
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
    /// Requests admitted and not answered or dropped yet.
    outstanding: usize,
}

/// A token bucket for one server connection.
///
/// A flood is cut after the burst, a wizard answered step by step is not:
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use std::time::Duration;
///
/// use mcp_elicit_client::rate_limit::{Admission, Clock, RateLimit, RateLimiter};
/// use tokio::time::Instant;
///
/// // A clock the example moves by hand (TokioClock with `tokio::time::pause` in tests).
/// #[derive(Clone)]
/// struct Manual(Arc<Mutex<Instant>>);
/// impl Clock for Manual {
///     fn now(&self) -> Instant {
///         *self.0.lock().unwrap()
///     }
/// }
/// let clock = Manual(Arc::new(Mutex::new(Instant::now())));
/// let policy = RateLimit::parse("2/10")?; // two at once, then one more every 10 s
///
/// // Three requests at once, none answered yet: the third is refused, the user told once.
/// let flood = RateLimiter::new(policy, clock.clone());
/// let (a, b, c, d) = (flood.arrive(), flood.arrive(), flood.arrive(), flood.arrive());
/// assert_eq!(a.admission(), Admission::Allowed);
/// assert_eq!(b.admission(), Admission::Allowed);
/// assert_eq!(c.admission(), Admission::RefusedNotify);
/// assert_eq!(d.admission(), Admission::RefusedSilently);
///
/// // Ten steps, each read and answered before the next arrives: all shown.
/// let wizard = RateLimiter::new(policy, clock.clone());
/// for _ in 0..10 {
///     let step = wizard.arrive();
///     assert_eq!(step.admission(), Admission::Allowed);
///     *clock.0.lock().unwrap() += Duration::from_secs(2); // the user reads, then answers
///     step.answered(true);
/// }
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct RateLimiter<C: Clock = TokioClock> {
    policy: RateLimit,
    clock: C,
    bucket: Mutex<Bucket>,
}

impl<C: Clock> RateLimiter<C> {
    /// A full bucket: [`RateLimit::burst`] requests are admitted at once.
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::parse("3/10")?, TokioClock);
    /// let admitted = (0..4).filter(|_| limiter.check() == Admission::Allowed).count();
    /// assert_eq!(admitted, 3);
    ///
    /// let closed = RateLimiter::new(RateLimit::parse("0/10")?, TokioClock);
    /// assert_ne!(closed.check(), Admission::Allowed); // burst 0 refuses everything
    /// # Ok::<(), String>(())
    /// ```
    pub fn new(policy: RateLimit, clock: C) -> Self {
        let last = clock.now();
        Self {
            policy,
            clock,
            bucket: Mutex::new(Bucket {
                millitokens: u64::from(policy.burst) * 1000,
                last,
                notified: false,
                outstanding: 0,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Bucket> {
        match self.bucket.lock() {
            Ok(b) => b,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// A request arrived: takes a token when one is available and returns the
    /// [`Arrival`] to hold until the request is answered. Call [`Arrival::answered`]
    /// when the user (or a script) answered it: a request that arrived while no other
    /// was waiting then gets its token back. Dropping the arrival without that keeps
    /// the token.
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::parse("3/3600")?, TokioClock);
    /// // A server sending three requests at once, none answered yet: all shown (queued)...
    /// let queued: Vec<_> = (0..3).map(|_| limiter.arrive()).collect();
    /// assert!(queued.iter().all(|a| a.admission() == Admission::Allowed));
    /// // ...the fourth is a flood.
    /// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
    /// // Only the first arrived alone: answering all three gives one token back.
    /// for arrival in queued {
    ///     arrival.answered(true);
    /// }
    /// assert_eq!(limiter.arrive().admission(), Admission::Allowed);
    /// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
    /// # Ok::<(), String>(())
    /// ```
    pub fn arrive(&self) -> Arrival<'_, C> {
        let admission = self.check();
        let mut b = self.lock();
        let alone = b.outstanding == 0;
        let admitted = admission == Admission::Allowed;
        if admitted {
            b.outstanding += 1;
        }
        Arrival {
            limiter: self,
            admission,
            refund: admitted && alone,
            admitted,
            at: self.clock.now(),
        }
    }

    /// The policy (as given to [`new`](Self::new)).
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::default(), TokioClock);
    /// assert_eq!(limiter.policy(), RateLimit::default());
    /// ```
    pub fn policy(&self) -> RateLimit {
        self.policy
    }

    /// Takes a token when one is available, without tracking the request: no refund later
    /// (what [`arrive`](Self::arrive) adds). Fractions of a refill period add up.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() -> Result<(), String> {
    /// use std::time::Duration;
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::parse("1/10")?, TokioClock);
    /// assert_eq!(limiter.check(), Admission::Allowed);
    /// for _ in 0..3 {
    ///     tokio::time::advance(Duration::from_millis(2500)).await;
    ///     assert_ne!(limiter.check(), Admission::Allowed);
    /// }
    /// tokio::time::advance(Duration::from_millis(2500)).await; // 4 × 2.5 s = one token
    /// assert_eq!(limiter.check(), Admission::Allowed);
    /// # Ok(())
    /// # }
    /// ```
    pub fn check(&self) -> Admission {
        let now = self.clock.now();
        let mut b = self.lock();
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

/// A request admitted by [`RateLimiter::arrive`], held until it is answered.
///
/// Hold it while the request is shown or queued: requests that arrive meanwhile count as a
/// flood and never get their token back.
///
/// ```
/// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
///
/// let limiter = RateLimiter::new(RateLimit::parse("2/3600")?, TokioClock);
/// let first = limiter.arrive(); // alone: refundable
/// let second = limiter.arrive(); // arrived while `first` waits: not refundable
/// assert_eq!(second.admission(), Admission::Allowed);
/// second.answered(true);
/// first.answered(true); // one token back
/// assert_eq!(limiter.arrive().admission(), Admission::Allowed);
/// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct Arrival<'a, C: Clock = TokioClock> {
    limiter: &'a RateLimiter<C>,
    admission: Admission,
    /// It arrived while nothing else was waiting: answering it gives the token back.
    refund: bool,
    admitted: bool,
    at: Instant,
}

impl<C: Clock> Arrival<'_, C> {
    /// What the limiter decided for this request (see [`Admission`]).
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::parse("1/60")?, TokioClock);
    /// let shown = limiter.arrive();
    /// assert_eq!(shown.admission(), Admission::Allowed);
    /// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
    /// # Ok::<(), String>(())
    /// ```
    pub fn admission(&self) -> Admission {
        self.admission
    }

    /// The request was answered (by the user or a script), `accepted` or not: a request
    /// that arrived while no other was waiting gets its token back, unless it was
    /// turned down faster than a person can read ([`READ_TIME`]). Dropping the arrival
    /// instead (the request was never answered) keeps the token spent.
    ///
    /// ```
    /// use mcp_elicit_client::rate_limit::{Admission, RateLimit, RateLimiter, TokioClock};
    ///
    /// let limiter = RateLimiter::new(RateLimit::parse("1/3600")?, TokioClock);
    /// for _ in 0..100 {
    ///     let step = limiter.arrive(); // one wizard step at a time...
    ///     assert_eq!(step.admission(), Admission::Allowed);
    ///     step.answered(true); // ...accepted: the token comes back
    /// }
    /// drop(limiter.arrive()); // withdrawn without an answer: the token stays spent
    /// assert_eq!(limiter.arrive().admission(), Admission::RefusedNotify);
    /// # Ok::<(), String>(())
    /// ```
    pub fn answered(mut self, accepted: bool) {
        let read = self.limiter.clock.now().saturating_duration_since(self.at) >= READ_TIME;
        if std::mem::take(&mut self.refund) && (accepted || read) {
            let cap = u64::from(self.limiter.policy.burst) * 1000;
            let mut b = self.limiter.lock();
            b.millitokens = b.millitokens.saturating_add(1000).min(cap);
        }
    }
}

impl<C: Clock> Drop for Arrival<'_, C> {
    fn drop(&mut self) {
        if self.admitted {
            let mut b = self.limiter.lock();
            b.outstanding = b.outstanding.saturating_sub(1);
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

    #[tokio::test(start_paused = true)]
    async fn a_long_wizard_answered_step_by_step_never_runs_dry() {
        let rl = RateLimiter::new(RateLimit::default(), TokioClock);
        for step in 0..50 {
            let a = rl.arrive();
            assert_eq!(a.admission(), Admission::Allowed, "step {step}");
            // The user submits the step; the next step arrives at once.
            a.answered(true);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn requests_arriving_while_one_is_unanswered_are_a_flood() {
        let rl = RateLimiter::new(RateLimit::default(), TokioClock);
        let first = rl.arrive();
        assert_eq!(first.admission(), Admission::Allowed);
        // Four more arrive while the first is on screen: the burst allows them (queued)...
        let queued: Vec<_> = (0..4).map(|_| rl.arrive()).collect();
        assert!(queued.iter().all(|a| a.admission() == Admission::Allowed));
        // ...and the sixth is refused, with one notice.
        assert_eq!(rl.arrive().admission(), Admission::RefusedNotify);
        assert_eq!(rl.arrive().admission(), Admission::RefusedSilently);
        // Answering the queued ones gives nothing back: they came in a flood.
        for a in queued {
            a.answered(true);
        }
        // The first arrived alone: answering it refunds one token.
        first.answered(true);
        assert_eq!(rl.arrive().admission(), Admission::Allowed);
        assert_eq!(rl.arrive().admission(), Admission::RefusedNotify);
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_dismissed_faster_than_anyone_can_read_is_cut() {
        let rl = RateLimiter::new(RateLimit::default(), TokioClock);
        for _ in 0..5 {
            let a = rl.arrive();
            assert_eq!(a.admission(), Admission::Allowed);
            a.answered(false);
        }
        assert_eq!(rl.arrive().admission(), Admission::RefusedNotify);
        // A "no" after reading gives the token back.
        tokio::time::advance(Duration::from_secs(10)).await;
        let a = rl.arrive();
        assert_eq!(a.admission(), Admission::Allowed);
        tokio::time::advance(READ_TIME).await;
        a.answered(false);
        assert_eq!(rl.arrive().admission(), Admission::Allowed);
    }

    #[tokio::test(start_paused = true)]
    async fn unanswered_requests_keep_their_token() {
        let rl = RateLimiter::new(RateLimit::default(), TokioClock);
        for _ in 0..5 {
            // Dropped without an answer (malformed, timed out, withdrawn).
            drop(rl.arrive());
        }
        assert_eq!(rl.arrive().admission(), Admission::RefusedNotify);
        tokio::time::advance(Duration::from_secs(10)).await;
        assert_eq!(rl.arrive().admission(), Admission::Allowed);
    }

    #[test]
    fn parse_accepts_off_and_burst_over_seconds() {
        assert_eq!(RateLimit::parse("off"), Ok(RateLimit::UNLIMITED));
        assert_eq!(
            RateLimit::parse("10/2.5"),
            Ok(RateLimit {
                burst: 10,
                refill_every: Duration::from_millis(2500)
            })
        );
        for bad in ["", "5", "x/10", "5/0", "5/-1", "5/NaN", "5/1e9", "-1/3"] {
            let e = RateLimit::parse(bad).unwrap_err();
            assert!(e.contains("rate limit"), "{bad}: {e}");
        }
    }
}
