//! Unguessable elicitation ids.

use std::fmt;

use rand::TryRngCore;
use rand::rngs::OsRng;

use crate::error::{Error, ErrorKind};

/// Bytes of randomness in an id (128 bits).
const ID_BYTES: usize = 16;

/// The `elicitationId` of a URL-mode elicitation: 128 bits from the operating system's
/// CSPRNG, written as 32 lowercase hex digits.
///
/// The only way to make one is [`ElicitationId::generate`], so every id this crate sends
/// is unguessable: an id in a URL is a capability to *find* the elicitation, never to
/// complete it (completion also checks the user, see
/// [`Elicitations::complete`](crate::Elicitations::complete)).
///
/// ```
/// use mcp_elicit_server::ElicitationId;
///
/// let id = ElicitationId::generate()?;
/// assert_eq!(id.as_str().len(), 32);
/// assert!(id.as_str().bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
/// assert_ne!(id, ElicitationId::generate()?);
/// # Ok::<(), mcp_elicit_server::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ElicitationId(String);

impl ElicitationId {
    /// A fresh id from the OS random number generator.
    ///
    /// ```
    /// use mcp_elicit_server::ElicitationId;
    ///
    /// let ids: std::collections::HashSet<String> =
    ///     (0..100).map(|_| ElicitationId::generate().map(|id| id.to_string())).collect::<Result<_, _>>()?;
    /// assert_eq!(ids.len(), 100);
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn generate() -> Result<Self, Error> {
        let mut bytes = [0u8; ID_BYTES];
        OsRng.try_fill_bytes(&mut bytes).map_err(|e| {
            Error::new(
                ErrorKind::Random,
                format!("the OS random number generator failed: {e}"),
            )
        })?;
        let mut text = String::with_capacity(ID_BYTES * 2);
        for b in bytes {
            text.push(hex_digit(b >> 4));
            text.push(hex_digit(b & 0x0f));
        }
        Ok(Self(text))
    }

    /// The id as sent on the wire.
    ///
    /// ```
    /// use mcp_elicit_server::ElicitationId;
    ///
    /// let id = ElicitationId::generate()?;
    /// assert_eq!(id.as_str(), id.to_string());
    /// assert_eq!(format!("{id:?}"), format!("ElicitationId({})", id.as_str()));
    /// # Ok::<(), mcp_elicit_server::Error>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn hex_digit(nibble: u8) -> char {
    char::from(b"0123456789abcdef"[usize::from(nibble & 0x0f)])
}

impl fmt::Display for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ElicitationId({})", self.0)
    }
}

impl AsRef<str> for ElicitationId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            let id = ElicitationId::generate().expect("os rng");
            assert_eq!(id.as_str().len(), 32);
            assert!(
                id.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            );
            assert!(seen.insert(id));
        }
    }
}
