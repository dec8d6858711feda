//! Personal data in a URL. Servers MUST NOT put personal identifiable information about
//! the end-user in a URL-mode elicitation URL (client/elicitation.mdx, "Safe URL
//! Handling"). Three kinds can be recognised without false alarms on ordinary links:
//!
//! - e-mail addresses anywhere (`@handle` paths and `pkg@1.2.3` versions are not
//!   addresses);
//! - non-empty query or fragment parameters whose name says they hold personal data
//!   (`ssn`, `date_of_birth`, `last_name`, `card_number`, `iban`...; `phone`, `tel`,
//!   `mobile` only with a phone number's digits, since `?mobile=1` picks a layout);
//! - payment card numbers: 13 to 19 digits (spaces or dashes between groups allowed)
//!   with a card network's prefix and a valid Luhn check digit, anywhere. Hex ids, UUIDs
//!   and 18- or 19-digit snowflake ids (which start with 1) do not look like that.
//!
//! A name or a phone number in a parameter of another name cannot be told apart from an
//! ordinary id, so it is not looked for.

use url::Url;

use super::params::normalize_name;

/// Where in `url` (`"path"`, `"query"` or `"fragment"`, percent-decoded) personal data
/// appears, and what it looks like (`"an e-mail address"`), if anywhere. Never the data
/// itself: the answer goes into error messages and logs.
pub(crate) fn personal_data(url: &Url) -> Option<(&'static str, String)> {
    let parts = [
        ("path", Some(url.path())),
        ("query", url.query()),
        ("fragment", url.fragment()),
    ];
    parts.into_iter().find_map(|(place, part)| {
        let part = part?;
        let decoded = percent_encoding::percent_decode_str(part).decode_utf8_lossy();
        if contains_email(&decoded) {
            return Some((place, "an e-mail address".to_owned()));
        }
        if contains_card_number(&decoded) {
            return Some((place, "what looks like a payment card number".to_owned()));
        }
        if place == "path" {
            return None;
        }
        // A fragment may hold a client-side route with its own query (`#/x?phone=...`).
        let pairs = if place == "fragment" {
            part.split_once('?').map_or(part, |(_, q)| q)
        } else {
            part
        };
        url::form_urlencoded::parse(pairs.as_bytes()).find_map(|(name, value)| {
            (!value.trim().is_empty() && is_personal_parameter(&name, &value)).then(|| {
                (
                    place,
                    // Escaped: the name ends up in logs.
                    format!(
                        "a parameter named for personal data (`{}`)",
                        name.escape_debug()
                    ),
                )
            })
        })
    })
}

/// Parameter names (normalized as for credentials: lowercase, no `-`, `_`, `.`, `[`,
/// `]` or spaces) that hold personal data about a person.
const PERSONAL_NAMES: &[&str] = &[
    "email",
    "emailaddress",
    "mail",
    "phonenumber",
    "telephone",
    "mobilenumber",
    "ssn",
    "socialsecuritynumber",
    "nationalid",
    "nationalidnumber",
    "nino",
    "passport",
    "passportnumber",
    "driverslicense",
    "driverlicense",
    "taxid",
    "dob",
    "dateofbirth",
    "birthdate",
    "birthday",
    "firstname",
    "lastname",
    "surname",
    "fullname",
    "givenname",
    "familyname",
    "middlename",
    "maidenname",
    "streetaddress",
    "homeaddress",
    "billingaddress",
    "shippingaddress",
    "mailingaddress",
    "cardnumber",
    "creditcard",
    "creditcardnumber",
    "ccnumber",
    "cardno",
    "iban",
    "bankaccount",
    "accountnumber",
];

/// Suffixes that make a normalized name personal (`user_email`, `customer_phone`).
const PERSONAL_SUFFIXES: &[&str] = &[
    "email",
    "emailaddress",
    "phone",
    "phonenumber",
    "ssn",
    "dateofbirth",
    "birthdate",
    "firstname",
    "lastname",
    "fullname",
    "surname",
    "streetaddress",
    "cardnumber",
];

/// Names with a personal suffix that name no personal data.
const NOT_PERSONAL: &[&str] = &["verifyemail", "sendemail", "noemail", "emailverified"];

/// Names that say "phone number" only when the value has the digits of one
/// (`?mobile=1` asks for a mobile layout).
const PHONE_NAMES: &[&str] = &["tel", "mobile", "cellphone", "msisdn", "phone"];

fn is_personal_parameter(name: &str, value: &str) -> bool {
    let n = normalize_name(name);
    if PHONE_NAMES.contains(&n.as_str()) {
        return value.chars().filter(char::is_ascii_digit).count() >= 6;
    }
    !NOT_PERSONAL.contains(&n.as_str())
        && (PERSONAL_NAMES.contains(&n.as_str())
            || PERSONAL_SUFFIXES
                .iter()
                .any(|s| n.len() > s.len() && n.ends_with(s)))
}

/// Whether `text` holds a run of 13 to 19 digits (single spaces or dashes between digit
/// groups allowed, no letter or digit directly before or after) with a card network's
/// prefix and a valid Luhn check digit.
fn contains_card_number(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        // A run starts at a digit that is not inside a word (`a4111...` is an id).
        if !chars[i].is_ascii_digit() || (i > 0 && chars[i - 1].is_alphanumeric()) {
            i += 1;
            continue;
        }
        // A run of digits, with one separator at a time between them.
        let mut digits = String::new();
        let mut j = i;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                digits.push(c);
                j += 1;
            } else if matches!(c, ' ' | '-')
                && chars.get(j + 1).is_some_and(char::is_ascii_digit)
                && !digits.is_empty()
            {
                j += 1;
            } else {
                break;
            }
        }
        let ends_word = chars.get(j).is_none_or(|c| !c.is_alphanumeric());
        if ends_word && is_card_number(&digits) {
            return true;
        }
        i = j.max(i + 1);
    }
    false
}

fn is_card_number(digits: &str) -> bool {
    let len = digits.len();
    let prefix = |n: usize| digits.get(..n).and_then(|p| p.parse::<u32>().ok());
    let network = match (prefix(1), prefix(2), prefix(3), prefix(4), prefix(6)) {
        // Visa; Mastercard; American Express; Discover; JCB; Diners; UnionPay.
        (Some(4), ..) => matches!(len, 13 | 16 | 19),
        (_, Some(51..=55), ..) | (.., Some(2221..=2720), _) => len == 16,
        (_, Some(34 | 37), ..) => len == 15,
        (.., Some(6011), _) | (_, Some(65), ..) | (_, _, Some(644..=649), ..) => {
            (16..=19).contains(&len)
        }
        (.., Some(3528..=3589), _) => (16..=19).contains(&len),
        (_, Some(36 | 38), ..) | (_, _, Some(300..=305), ..) => (14..=19).contains(&len),
        (_, Some(62), ..) => (16..=19).contains(&len),
        _ => false,
    };
    network && luhn(digits)
}

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let d2 = d * 2;
                if d2 > 9 { d2 - 9 } else { d2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Whether `text` contains `local@domain.tld`: a non-empty local part of the usual
/// characters, and a domain of at least two labels whose last is alphabetic.
pub(crate) fn contains_email(text: &str) -> bool {
    text.match_indices('@').any(|(at, _)| {
        // `@` is one byte, so `at` and `at + 1` are character boundaries.
        let before = text.get(..at).unwrap_or_default();
        let after = text.get(at + 1..).unwrap_or_default();
        let local = before
            .chars()
            .rev()
            .take_while(|&c| is_local_char(c))
            .count();
        let domain_len = after
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '-' || c == '.'))
            .map_or(after.len(), |(i, _)| i);
        let domain = after.get(..domain_len).unwrap_or_default();
        local > 0 && is_mail_domain(domain.trim_end_matches('.'))
    })
}

fn is_local_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
}

fn is_mail_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let Some(tld) = labels.last() else {
        return false;
    };
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
        && tld.chars().count() >= 2
        && tld.chars().all(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::{contains_card_number, contains_email, is_personal_parameter};

    #[test]
    fn phone_like_names_need_a_phone_numbers_digits() {
        assert!(is_personal_parameter("mobile", "+44 7700 900123"));
        assert!(is_personal_parameter("tel", "0155-5555"));
        assert!(is_personal_parameter("customer_phone", "x"));
        assert!(!is_personal_parameter("mobile", "1"));
        assert!(!is_personal_parameter("phone", "true"));
    }

    #[test]
    fn card_numbers_are_found_and_ids_are_not() {
        for text in [
            "4111111111111111",
            "/pay/4111 1111 1111 1111/confirm",
            "card=5500-0000-0000-0004",
            "x=378282246310005&y=1",
            "6011111111111117",
            "3530111333300000",
            "4222222222222",
        ] {
            assert!(contains_card_number(text), "{text}");
        }
        for text in [
            // Luhn fails.
            "4111111111111112",
            // Snowflake ids, order numbers, timestamps, phone-length numbers.
            "1234567890123456789",
            "1098765432109876543",
            "1733072400000",
            "order=20261201123456",
            "41111111111111111111111",
            "a4111111111111111b",
            "94111111111111111",
            "550e8400-e29b-41d4-a716-446655440000",
            "4111 1111  1111 1111",
            "",
        ] {
            assert!(!contains_card_number(text), "{text}");
        }
    }

    #[test]
    fn personal_parameter_names_in_every_style() {
        for name in [
            "phone",
            "Phone_Number",
            "user-email",
            "customerPhone",
            "DOB",
            "last_name",
            "ssn",
            "card[number]",
            "IBAN",
        ] {
            assert!(is_personal_parameter(name, "+1 415 555 2671"), "{name}");
        }
        for name in [
            "elicitationId",
            "state",
            "page",
            "name",
            "q",
            "telemetry",
            "verify_email",
            "mailbox",
            "phoneme",
            "addressbook",
        ] {
            assert!(!is_personal_parameter(name, "+1 415 555 2671"), "{name}");
        }
    }

    #[test]
    fn addresses_are_found_and_look_alikes_are_not() {
        for text in [
            "alice@example.com",
            "/u/alice.smith+tag@mail.example.co.uk/x",
            "email=bob@example.org&x=1",
            "李@例子.中国",
        ] {
            assert!(contains_email(text), "{text}");
        }
        for text in [
            "/@alice/post",
            "/npm/react@18.2.0/index.js",
            "/npm/pkg@latest/x",
            "a@b",
            "x@-bad-.com",
            "x@.com",
            "@example.com",
            "",
        ] {
            assert!(!contains_email(text), "{text}");
        }
    }
}
