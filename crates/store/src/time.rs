//! Times as stored: signed 64-bit nanoseconds since the Unix epoch (years 1677 to 2262).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::Error;

/// The stored form of `t`. Times past 2262 are stored as the latest representable time
/// (an expiry that far out never passes); times before 1970 are refused.
pub(crate) fn to_db(t: SystemTime, what: &str) -> Result<i64, Error> {
    let since = t
        .duration_since(UNIX_EPOCH)
        .map_err(|_| Error::Config(format!("{what} is before 1970")))?;
    Ok(i64::try_from(since.as_nanos()).unwrap_or(i64::MAX))
}

/// The time a stored value stands for.
pub(crate) fn from_db(nanos: i64) -> SystemTime {
    let magnitude = Duration::from_nanos(nanos.unsigned_abs());
    if nanos >= 0 {
        UNIX_EPOCH + magnitude
    } else {
        UNIX_EPOCH.checked_sub(magnitude).unwrap_or(UNIX_EPOCH)
    }
}

/// `now + ttl`, refusing a zero time to live.
pub(crate) fn expiry(now: SystemTime, ttl: Duration, what: &str) -> Result<SystemTime, Error> {
    if ttl.is_zero() {
        return Err(Error::Config(format!("the time to live of {what} is zero")));
    }
    now.checked_add(ttl)
        .ok_or_else(|| Error::Config(format!("the time to live of {what} is too long")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_nanoseconds_and_saturates_far_future() {
        let t = UNIX_EPOCH + Duration::new(1_764_000_000, 123_456_789);
        assert_eq!(from_db(to_db(t, "t").expect("in range")), t);
        let far = UNIX_EPOCH + Duration::from_secs(400 * 365 * 86_400);
        assert_eq!(to_db(far, "far"), Ok(i64::MAX));
        assert!(to_db(UNIX_EPOCH - Duration::from_secs(1), "old").is_err());
        assert_eq!(from_db(-5), UNIX_EPOCH - Duration::from_nanos(5));
    }
}
