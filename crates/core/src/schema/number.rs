//! Exact arithmetic on JSON numbers as `serde_json` holds them (`u64`, `i64` or `f64`),
//! shared by schema parsing (bounds, defaults) and validation.
//!
//! JSON Schema compares mathematical values: `1.0` is an integer, `1e2` is the integer
//! 100, and `9007199254740993` is above `9007199254740992.0` even though converting both
//! to `f64` would make them equal. These functions never convert an integer to `f64`.

use std::cmp::Ordering;

use serde_json::Number;

/// A JSON number in the widest exact form available.
#[derive(Debug, Clone, Copy)]
enum Exact {
    Int(i128),
    Float(f64),
}

/// 2^127 as an `f64` (exact): the first float at or past which every `i128` is smaller.
const TWO_POW_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// The number exactly; `None` for a non-finite float (which `serde_json` never produces
/// from JSON text).
fn exact(n: &Number) -> Option<Exact> {
    if let Some(u) = n.as_u64() {
        Some(Exact::Int(i128::from(u)))
    } else if let Some(i) = n.as_i64() {
        Some(Exact::Int(i128::from(i)))
    } else {
        n.as_f64().filter(|f| f.is_finite()).map(Exact::Float)
    }
}

/// Whether `n` is an integer in JSON Schema's sense: a number with no fractional part,
/// whatever its spelling (`1`, `1.0`, `1e2`, `-0.0`, `18446744073709551615`).
pub(crate) fn is_integer(n: &Number) -> bool {
    match exact(n) {
        Some(Exact::Int(_)) => true,
        Some(Exact::Float(f)) => f.fract() == 0.0,
        None => false,
    }
}

/// Whether the number is finite (always true for numbers parsed from JSON text).
pub(crate) fn is_finite(n: &Number) -> bool {
    exact(n).is_some()
}

/// Compares the mathematical values of two JSON numbers exactly; `None` only for a
/// non-finite float.
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (exact(a)?, exact(b)?) {
        (Exact::Int(x), Exact::Int(y)) => Some(x.cmp(&y)),
        (Exact::Float(x), Exact::Float(y)) => x.partial_cmp(&y),
        (Exact::Int(x), Exact::Float(y)) => Some(int_vs_float(x, y)),
        (Exact::Float(x), Exact::Int(y)) => Some(int_vs_float(y, x).reverse()),
    }
}

/// Orders an integer against a finite float without rounding either.
fn int_vs_float(i: i128, f: f64) -> Ordering {
    if f >= TWO_POW_127 {
        return Ordering::Less;
    }
    if f < -TWO_POW_127 {
        return Ordering::Greater;
    }
    let whole = f.trunc();
    // In range and integral, so the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    let whole_int = whole as i128;
    match i.cmp(&whole_int) {
        // Same integer part: the float's fraction decides.
        Ordering::Equal => whole.partial_cmp(&f).unwrap_or(Ordering::Equal),
        other => other,
    }
}

/// A finite JSON number as a decimal: `negative`, `digits` × 10^`exponent`, with the
/// digits as written (for a float, its shortest round-trip form: what the JSON said).
fn decimal(n: &Number) -> Option<(bool, u128, i32)> {
    if let Some(u) = n.as_u64() {
        return Some((false, u128::from(u), 0));
    }
    if let Some(i) = n.as_i64() {
        return Some((i < 0, u128::from(i.unsigned_abs()), 0));
    }
    let f = n.as_f64().filter(|f| f.is_finite())?;
    let text = format!("{:e}", f.abs());
    let (mantissa, exponent) = text.split_once('e')?;
    let mut exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: u128 = format!("{whole}{fraction}").parse().ok()?;
    exponent -= i32::try_from(fraction.len()).ok()?;
    Some((f < 0.0, digits, exponent))
}

/// Whether `n` is a multiple of `m` (> 0), exactly on the decimal values as written:
/// `7` of `2` is false, `0.3` of `0.1` is true (a binary-float division would say
/// 2.9999999999999996), `1e308` of `0.5` is true. `false` for a non-finite number.
pub(crate) fn is_multiple_of(n: &Number, m: &Number) -> bool {
    let (Some((_, a, ea)), Some((_, b, eb))) = (decimal(n), decimal(m)) else {
        return false;
    };
    if a == 0 {
        return true;
    }
    if b == 0 {
        return false;
    }
    // n / m = (a / b) * 10^(ea - eb): scale the one with the larger exponent.
    if ea >= eb {
        // a * 10^(ea-eb) mod b, without overflow (b < 2^64 for any JSON number's digits).
        let mut r = a % b;
        for _ in 0..(ea - eb) {
            r = (r * 10) % b;
            if r == 0 {
                break;
            }
        }
        r == 0
    } else {
        // a mod (b * 10^(eb-ea)): a smaller non-zero a is no multiple.
        let mut big = b;
        for _ in 0..(eb - ea) {
            match big.checked_mul(10) {
                Some(v) if v <= a => big = v,
                _ => return false,
            }
        }
        a % big == 0
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering::{self, Equal, Greater, Less};

    use serde_json::Number;

    use super::{compare, is_finite, is_integer, is_multiple_of};

    fn n(text: &str) -> Number {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn integers_in_every_spelling() {
        for t in [
            "0",
            "1",
            "-1",
            "1.0",
            "3.0",
            "1e2",
            "-0",
            "-0.0",
            "18446744073709551615",
            "-9223372036854775808",
            "1e300",
        ] {
            assert!(is_integer(&n(t)), "{t} is an integer");
        }
        for t in ["1.5", "3.5", "-0.5", "1e-2", "4.9e-324"] {
            assert!(!is_integer(&n(t)), "{t} is not an integer");
        }
    }

    #[test]
    fn numbers_from_json_text_are_finite() {
        for t in ["0", "-1", "1.5", "1e300", "-1e-300", "18446744073709551615"] {
            assert!(is_finite(&n(t)), "{t}");
        }
        let nan = Number::from_f64(f64::NAN);
        assert!(nan.is_none(), "serde_json refuses NaN outright");
    }

    #[test]
    fn exact_comparisons_across_representations() {
        let cases: [(&str, &str, Ordering); 21] = [
            ("1", "2", Less),
            ("-1", "18446744073709551615", Less),
            ("30", "30.0", Equal),
            ("30.5", "30", Greater),
            ("-30.5", "-30", Less),
            ("1", "1.0", Equal),
            ("-0.0", "0", Equal),
            ("100", "1e2", Equal),
            ("18446744073709551615", "18446744073709551616.0", Less),
            ("18446744073709551615", "18446744073709551614", Greater),
            ("9007199254740993", "9007199254740992.0", Greater),
            ("-9223372036854775808", "-9223372036854775808.0", Equal),
            ("3", "2.9999", Greater),
            ("-3", "-2.5", Less),
            ("-2", "-2.0001", Greater),
            ("0", "1e-300", Less),
            ("0", "-1e-300", Greater),
            ("5", "1e300", Less),
            ("5", "-1e300", Greater),
            ("2.5", "2.4", Greater),
            ("0.1", "0.2", Less),
        ];
        for (a, b, want) in cases {
            assert_eq!(compare(&n(a), &n(b)), Some(want), "{a} vs {b}");
            assert_eq!(compare(&n(b), &n(a)), Some(want.reverse()), "{b} vs {a}");
        }
        assert_eq!(
            compare(&n("1e300"), &n("18446744073709551615")),
            Some(Greater)
        );
        assert_eq!(
            compare(&n("-1e300"), &n("-9223372036854775808")),
            Some(Less)
        );
    }

    #[test]
    fn multiples_exact_on_decimals() {
        let yes = [
            ("4", "2"),
            ("0.3", "0.1"),
            ("1e308", "0.5"),
            ("-6", "3"),
            ("0", "7"),
            ("10.5", "0.01"),
            ("18446744073709551615", "5"),
            ("1e2", "25"),
        ];
        for (a, b) in yes {
            assert!(is_multiple_of(&n(a), &n(b)), "{a} is a multiple of {b}");
        }
        let no = [
            ("7", "2"),
            ("0.35", "0.1"),
            ("1e-5", "0.5"),
            ("1", "1e300"),
            ("10.001", "0.01"),
            ("9007199254740993", "2"),
        ];
        for (a, b) in no {
            assert!(
                !is_multiple_of(&n(a), &n(b)),
                "{a} is not a multiple of {b}"
            );
        }
    }
}
