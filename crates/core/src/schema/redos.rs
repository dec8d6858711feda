//! A conservative screen for `pattern`s that can make a backtracking regex engine run
//! for exponential time (ReDoS), and a cost estimate for the others.
//!
//! Patterns that translate to the linear-time engine (`linear.rs`) never backtrack, so
//! this analysis only matters for the rest (backreferences, lookarounds), which
//! `regress` runs by backtracking without a step budget. [`analyze`] reports, for such a
//! pattern:
//!
//! - whether it has a shape prone to exponential backtracking: a group repeated without
//!   upper bound that itself contains a repetition (`{2,}`, `*`, `+`) or an alternation
//!   (`(a+)*`, `(\w+\s?)+`, `(a|b)*`), or a group repeated at least twice that contains
//!   an unbounded repetition (`(.*a){3}`). The screen has false positives (`([a-z]+\.)*`
//!   is safe), which is why it only decides anything for patterns that cannot run on
//!   the linear-time engine;
//! - the upper bounds of its repetitions (a backreference counts as an unbounded one,
//!   since it compares as many characters as its group captured), from which
//!   [`max_len_within`] derives the longest input whose worst case stays within a step
//!   budget: `a+a+a+(?=x)` against 1,024 `a`s takes minutes with a backtracking engine.
//!
//! It also refuses a quantified assertion (`^*`, `\b{2}`, `(?=a)+`): a syntax error in
//! ECMA-262 with the `u` flag that `regress` 0.12 lets through.

/// What a group (or the whole pattern) contains, anywhere inside it.
#[derive(Debug, Default, Clone, Copy)]
struct Inside {
    /// A quantifier without upper bound (`*`, `+`, `{n,}`).
    unbounded: bool,
    /// A quantifier allowing two or more repetitions.
    repeat: bool,
    /// An alternation `|`.
    alternation: bool,
    /// A quantified group (`(?:b?)?`, `(ab){1,2}`).
    quantified_group: bool,
}

impl Inside {
    fn merge(&mut self, other: Inside) {
        self.unbounded |= other.unbounded;
        self.repeat |= other.repeat;
        self.alternation |= other.alternation;
        self.quantified_group |= other.quantified_group;
    }
}

/// A quantifiable atom: what it contains, and whether it is a group (so quantifying it
/// makes a quantified group).
#[derive(Debug, Clone, Copy)]
struct Atom {
    inside: Inside,
    group: bool,
}

impl Atom {
    /// A single character, escape or class.
    const CHAR: Atom = Atom {
        inside: Inside {
            unbounded: false,
            repeat: false,
            alternation: false,
            quantified_group: false,
        },
        group: false,
    };
}

/// The largest repetition count a pattern may use on the backtracking engine (linear-time
/// patterns are bounded by their automaton's size instead).
pub(crate) const MAX_BACKTRACKING_COUNT: u64 = 1_000;

/// The backtracking-relevant shape of a pattern.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    /// The first construct prone to exponential backtracking, as the end of a sentence
    /// (`it repeats ... a group that ...`), when there is one.
    pub(crate) exponential: Option<String>,
    /// The first repeated group that contains a quantified group (`(?:(?:b?)?){2}`), as
    /// the end of a sentence, when there is one. `regress` 0.12 answers such patterns
    /// wrongly (`^(?:(?:a{1,2}){2}){2}$` does not match `aaaa`) or never returns
    /// (`(?:(?:b?)?){2}$` on `ba`), so they must not run on it.
    pub(crate) nested_repetition: Option<String>,
    /// The first counted repetition (`{n}`, `{n,}`, `{n,m}`) with a count above
    /// [`MAX_BACKTRACKING_COUNT`], as the end of a sentence, when there is one. A
    /// backtracking engine pays such a count whatever the input's length when the repeated
    /// part can match the empty string (`(?:b?){2888888888888888}` never returns on a
    /// 19-character text), so the input-length bound does not protect it.
    pub(crate) huge_count: Option<String>,
    /// The upper bounds of its repetitions and backreferences (`None` = unbounded).
    pub(crate) bounds: Vec<Option<u64>>,
    /// Whether the pattern is anchored at the start (`^` and no alternation that could
    /// escape it), so a match is only tried from the first position.
    pub(crate) anchored: bool,
}

/// Analyses a pattern `regress` compiled with the `u` flag; anything else is scanned
/// without panicking. `Err(sentence)` for a quantified assertion, a syntax error.
pub(crate) fn analyze(source: &str) -> Result<Shape, String> {
    let mut shape = scan(source)?;
    shape.anchored = source.starts_with('^') && !source.contains('|');
    Ok(shape)
}

/// The worst-case number of backtracking steps for matching a `len`-character input:
/// every repetition may be tried at every length up to `len`, from every start position
/// when the pattern is not anchored with `^`. A deliberate over-estimate (`^[a-z]+$` is
/// really linear).
pub(crate) fn worst_case_steps(anchored: bool, bounds: &[Option<u64>], len: usize) -> f64 {
    let n = len as f64 + 1.0;
    let mut cost = if anchored { 1.0 } else { n };
    for bound in bounds {
        cost *= bound.map_or(n, |m| (m as f64).min(n));
        if cost > 1e30 {
            break;
        }
    }
    cost
}

/// The longest input length whose [`worst_case_steps`] stay within `budget`
/// (`usize::MAX` when no length exceeds it, as for a pattern without repetitions).
pub(crate) fn max_len_within(anchored: bool, bounds: &[Option<u64>], budget: f64) -> usize {
    const CAP: usize = 1 << 40;
    let fits = |len: usize| worst_case_steps(anchored, bounds, len) <= budget;
    if !fits(0) {
        return 0;
    }
    let mut hi = 1usize;
    while fits(hi) {
        if hi >= CAP {
            return usize::MAX;
        }
        hi *= 2;
    }
    // fits(lo) and !fits(hi); the cost grows with the length.
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Scans the pattern: `Err(sentence)` for a quantified assertion, else its shape (with
/// `anchored` left for the caller).
fn scan(source: &str) -> Result<Shape, String> {
    let mut shape = Shape::default();
    let chars: Vec<char> = source.chars().collect();
    let mut stack: Vec<Inside> = vec![Inside::default()];
    // The atom just before the current position: what it contains (a group's contents,
    // or nothing for a single character or class) and whether it is a group; `None` when
    // nothing quantifiable precedes.
    let mut last_atom: Option<Atom> = None;
    // Whether that atom is an assertion (`^`, `$`, `\b`, `\B`, a lookaround), which
    // ECMA-262 with the `u` flag does not allow to be quantified (regress does).
    let mut last_is_assertion = false;
    // For each open group, whether it is a lookaround.
    let mut lookarounds: Vec<bool> = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => {
                last_is_assertion = matches!(chars.get(i + 1), Some('b' | 'B'));
                // A backreference compares as much text as its group captured.
                if chars
                    .get(i + 1)
                    .is_some_and(|c| matches!(c, '1'..='9' | 'k'))
                {
                    shape.bounds.push(None);
                }
                i = skip_escape(&chars, i);
                last_atom = Some(Atom::CHAR);
            }
            '[' => {
                i = skip_class(&chars, i);
                last_atom = Some(Atom::CHAR);
                last_is_assertion = false;
            }
            '(' => {
                stack.push(Inside::default());
                let lookaround = chars.get(i + 1) == Some(&'?')
                    && (matches!(chars.get(i + 2), Some('=' | '!'))
                        || (chars.get(i + 2) == Some(&'<')
                            && matches!(chars.get(i + 3), Some('=' | '!'))));
                lookarounds.push(lookaround);
                i = skip_group_prefix(&chars, i);
                last_atom = None;
                last_is_assertion = false;
            }
            ')' => {
                let inner = if stack.len() > 1 {
                    stack.pop().unwrap_or_default()
                } else {
                    Inside::default()
                };
                if let Some(top) = stack.last_mut() {
                    top.merge(inner);
                }
                last_atom = Some(Atom {
                    inside: inner,
                    group: true,
                });
                last_is_assertion = lookarounds.pop().unwrap_or(false);
                i += 1;
            }
            '|' => {
                if let Some(top) = stack.last_mut() {
                    top.alternation = true;
                }
                last_atom = None;
                last_is_assertion = false;
                i += 1;
            }
            '*' | '+' | '?' | '{' => {
                let Some((min_max, next)) = quantifier(&chars, i) else {
                    // A `{` that does not start a quantifier is a literal (non-u syntax).
                    last_atom = Some(Atom::CHAR);
                    last_is_assertion = false;
                    i += 1;
                    continue;
                };
                if last_is_assertion {
                    return Err(format!(
                        "nothing to repeat: an assertion (`^`, `$`, `\\b`, `\\B`, a lookaround) \
                         cannot take the quantifier at character {} in ECMA-262 with the u flag",
                        i + 1
                    ));
                }
                let (min, max) = min_max;
                if shape.huge_count.is_none()
                    && (min > MAX_BACKTRACKING_COUNT
                        || max.is_some_and(|m| m > MAX_BACKTRACKING_COUNT))
                {
                    let quant: String = chars.get(i..next).unwrap_or_default().iter().collect();
                    shape.huge_count = Some(format!(
                        "it repeats something {quant} times (at character {}), more than the \
                         {MAX_BACKTRACKING_COUNT} a backtracking match can afford whatever the \
                         input's length",
                        i + 1
                    ));
                }
                let unbounded = max.is_none();
                let repeat = max.is_none_or(|m| m >= 2);
                if let Some(atom) = last_atom
                    && shape.exponential.is_none()
                    && ((unbounded && (atom.inside.repeat || atom.inside.alternation))
                        || (repeat && atom.inside.unbounded))
                {
                    shape.exponential = Some(risk_sentence(&chars, i, next));
                }
                if let Some(atom) = last_atom
                    && shape.nested_repetition.is_none()
                    && repeat
                    && atom.inside.quantified_group
                {
                    shape.nested_repetition = Some(nesting_sentence(&chars, i, next));
                }
                if repeat {
                    shape.bounds.push(max);
                }
                if let Some(top) = stack.last_mut() {
                    top.unbounded |= unbounded;
                    top.repeat |= repeat;
                    top.quantified_group |= last_atom.is_some_and(|a| a.group);
                }
                last_atom = None;
                // A lazy quantifier (`*?`) is a quantifier too: skip its `?`.
                i = if chars.get(next) == Some(&'?') {
                    next + 1
                } else {
                    next
                };
            }
            _ => {
                last_atom = Some(Atom::CHAR);
                last_is_assertion = matches!(c, '^' | '$');
                i += 1;
            }
        }
    }
    Ok(shape)
}

fn risk_sentence(chars: &[char], start: usize, end: usize) -> String {
    let quant: String = chars.get(start..end).unwrap_or_default().iter().collect();
    format!(
        "it repeats (with `{quant}` at character {}) a group that itself contains a \
         repetition or an alternation, as in `(a+)+` or `(a|b)*`",
        start + 1
    )
}

fn nesting_sentence(chars: &[char], start: usize, end: usize) -> String {
    let quant: String = chars.get(start..end).unwrap_or_default().iter().collect();
    format!(
        "it repeats (with `{quant}` at character {}) a group that itself contains a \
         quantified group, as in `((ab)?){{2}}`, which the backtracking engine (regress \
         0.12) can answer wrongly or never finish",
        start + 1
    )
}

/// Index just past the escape starting at `i` (a `\`).
fn skip_escape(chars: &[char], i: usize) -> usize {
    let braced = |open: char, close: char| -> Option<usize> {
        if chars.get(i + 2) == Some(&open) {
            chars
                .get(i + 3..)
                .and_then(|rest| rest.iter().position(|&c| c == close))
                .map(|p| i + 3 + p + 1)
        } else {
            None
        }
    };
    match chars.get(i + 1) {
        Some('u') => braced('{', '}').unwrap_or(i + 2),
        Some('p' | 'P') => braced('{', '}').unwrap_or(i + 2),
        Some('k') => braced('<', '>').unwrap_or(i + 2),
        Some(_) => i + 2,
        None => i + 1,
    }
}

/// Index just past the class starting at `i` (a `[`). `[]` and `[^]` are complete classes.
fn skip_class(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    if chars.get(j) == Some(&'^') {
        j += 1;
    }
    while let Some(&c) = chars.get(j) {
        match c {
            '\\' => j += 2,
            ']' => return j + 1,
            _ => j += 1,
        }
    }
    j
}

/// Index just past the opening of the group starting at `i` (a `(`): `(`, `(?:`, `(?=`,
/// `(?!`, `(?<=`, `(?<!`, `(?<name>`.
fn skip_group_prefix(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) != Some(&'?') {
        return i + 1;
    }
    match chars.get(i + 2) {
        Some(':' | '=' | '!') => i + 3,
        Some('<') => match chars.get(i + 3) {
            Some('=' | '!') => i + 4,
            _ => chars
                .get(i + 3..)
                .and_then(|rest| rest.iter().position(|&c| c == '>'))
                .map_or(i + 3, |p| i + 3 + p + 1),
        },
        _ => i + 2,
    }
}

/// Parses the quantifier starting at `i`: `((min, max), index after it)`; `max` is
/// `None` when unbounded. `None` when `{` does not start a valid `{n}`, `{n,}`, `{n,m}`.
#[allow(clippy::type_complexity)]
fn quantifier(chars: &[char], i: usize) -> Option<((u64, Option<u64>), usize)> {
    match chars.get(i)? {
        '*' => Some(((0, None), i + 1)),
        '+' => Some(((1, None), i + 1)),
        '?' => Some(((0, Some(1)), i + 1)),
        '{' => {
            let mut j = i + 1;
            let min = digits(chars, &mut j)?;
            match chars.get(j)? {
                '}' => Some(((min, Some(min)), j + 1)),
                ',' => {
                    j += 1;
                    if chars.get(j) == Some(&'}') {
                        return Some(((min, None), j + 1));
                    }
                    let max = digits(chars, &mut j)?;
                    (chars.get(j) == Some(&'}')).then_some(((min, Some(max)), j + 1))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn digits(chars: &[char], j: &mut usize) -> Option<u64> {
    let start = *j;
    let mut n: u64 = 0;
    while let Some(d) = chars.get(*j).and_then(|c| c.to_digit(10)) {
        n = n.saturating_mul(10).saturating_add(u64::from(d));
        *j += 1;
    }
    (*j > start).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::{analyze, max_len_within, worst_case_steps};

    fn exponential(p: &str) -> Option<String> {
        analyze(p).ok().and_then(|shape| shape.exponential)
    }

    #[test]
    fn flags_exponential_shapes() {
        for p in [
            "^(a+)+$",
            "(a*)*b",
            r"^(\w+\s?)*$",
            "(a|aa)+",
            "(a|a?)+",
            "((ab)*c)*",
            "(.*a){20}",
            "(?:x+y?)+",
            "(?<n>a+){2,}",
            "([a-z]+)*?$",
            // The shape is flagged wherever it is, even after an earlier safe part.
            r"^\d+-(a+)+$",
        ] {
            assert!(exponential(p).is_some(), "{p} should be flagged");
        }
        let sentence = exponential("^(a+)+$").unwrap_or_default();
        assert!(sentence.contains("`+` at character 6"), "{sentence}");
    }

    #[test]
    fn passes_ordinary_patterns() {
        for p in [
            "^[A-Za-z]+$",
            r"^\d{3}-\d{4}$",
            r"^(\d{1,3}\.){3}\d{1,3}$",
            r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
            r"^\+?[0-9 ]{7,15}$",
            "^(foo|bar)$",
            r"^[(+*]+$",
            r"\(a+\)+",
            r"^\u{1F600}+$",
            r"^\p{L}+$",
            "[]a*",
            "[^]+",
            "(a?){1}",
            "^a$",
            r"\bword\b",
            "(?=a)a+",
        ] {
            assert_eq!(exponential(p), None, "{p} should pass");
        }
    }

    fn nested(p: &str) -> Option<String> {
        analyze(p).ok().and_then(|shape| shape.nested_repetition)
    }

    #[test]
    fn flags_repeated_groups_that_contain_quantified_groups() {
        // Each of these makes regress 0.12 answer wrongly or loop forever (found by
        // differential runs against V8); the shape is found at any depth.
        for p in [
            "(?:(?:b?)?){2}$",
            "^(?:(?:a{1,2}){2}){2}$",
            "^(?:(?:a..|a)?){0,2}$",
            r"(?:(?:\s{1,3}.?){2}){2}",
            "^(?=[ab])(?:(?:.(?:b|b?){2}?a+))*$",
            "^(?:x(?:y(a)?)){1,3}",
            "((ab)?){2}",
        ] {
            assert!(nested(p).is_some(), "{p} should be flagged");
        }
        let sentence = nested("^(?:(?:b?)?){2}$").unwrap_or_default();
        assert!(sentence.contains("`{2}` at character 13"), "{sentence}");
        // A repeated group of quantified characters, a quantified group under an
        // optional one, groups in sequence, and classes that look like groups are fine.
        for p in [
            r"^(\d{1,3}\.){3}\d{1,3}$",
            "(?:a?b{1,2}|c*){2}",
            "(?:x(?:ab)?)?",
            "(?:ab)?(?:cd){2}",
            "(?:(?:ab)){2}",
            r"[(]a?[)]{2}",
            r"\(a?\){2}",
        ] {
            assert_eq!(nested(p), None, "{p} should pass");
        }
    }

    #[test]
    fn refuses_quantified_assertions() {
        for p in ["^*a", "a$+", r"\b{1,3}", r"\B*", "(?=a)+", "(?<!a)?b"] {
            let err = analyze(p).err();
            assert!(
                err.as_deref()
                    .is_some_and(|r| r.starts_with("nothing to repeat")),
                "{p}: {err:?}"
            );
        }
    }

    #[test]
    fn estimates_polynomial_cost() {
        let cost = |p: &str, n: usize| {
            let shape = analyze(p).unwrap_or_default();
            worst_case_steps(p.starts_with('^'), &shape.bounds, n)
        };
        assert!(cost(r"^\d{3}-\d{4}$", 10_000) < 100.0);
        assert!(cost("^[a-z]+$", 1000) <= 1001.0);
        assert!(cost("a+a+a+x", 1024) > 1e12);
        assert!(cost("a+x", 100) < 1e5);
        // A backreference counts as an unbounded repetition: `(.*)\1` is cubic.
        assert!(cost(r"(.*)\1", 1000) > 1e9);
        assert!(cost(r"(?<x>.*)\k<x>", 1000) > 1e9);
    }

    #[test]
    fn bounds_the_input_length_by_the_budget() {
        let bound = |p: &str| {
            let shape = analyze(p).unwrap_or_default();
            max_len_within(shape.anchored, &shape.bounds, 1e8)
        };
        // n^4 <= 1e8 up to n = 100 (n counts the positions, one more than characters).
        assert_eq!(bound("a+a+a+(?=x)"), 99);
        assert_eq!(bound("^(?=a)b$"), usize::MAX);
        // Alternation defeats the anchor: `^a|a+` is tried from every position.
        assert!(bound("^a+|b+") < bound("^a+b+"));
        assert!(bound(r"^(?=.*[A-Z])(?=.*\d).{8,}$") >= 400);
    }

    #[test]
    fn never_panics_on_malformed_input() {
        for p in [
            "(", ")", "\\", "[", "{", "a{", "a{1,", "a{1,2", "(?<", "\\u{", "\\k<", ")))*",
        ] {
            let _ = analyze(p);
        }
    }
}
