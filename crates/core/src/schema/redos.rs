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
    /// Its choice points (alternations, repetitions, backreferences), from which
    /// [`Paths::worst_case`] counts the paths a backtracking match may explore.
    pub(crate) paths: Paths,
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

/// The choice points of a pattern, as a tree kept in a flat list: every node comes
/// after the nodes it contains, so the count is computed in one pass without recursion
/// (a hostile pattern may nest groups thousands deep).
#[derive(Debug, Clone, Default)]
pub(crate) struct Paths {
    nodes: Vec<Node>,
}

#[derive(Debug, Clone)]
enum Node {
    /// A character, class or character escape: one way to match, taking a character.
    Char,
    /// `^`, `$`, `\b`, `\B`: one way to match, taking nothing.
    Assertion,
    /// A backreference: one way to match (the text its group captured), but comparing
    /// it costs up to the input's length on every path that reaches it.
    Backref,
    /// A group (or the whole pattern): its alternatives, each a sequence of nodes.
    Group {
        branches: Vec<Vec<usize>>,
        lookaround: bool,
    },
    /// A quantified node.
    Repeat {
        node: usize,
        min: u64,
        max: Option<u64>,
    },
}

/// Counts above this are all "too many" (and keep `f64` finite).
const SATURATED: f64 = 1e30;

fn sat(x: f64) -> f64 {
    if x.is_nan() {
        SATURATED
    } else {
        x.clamp(0.0, SATURATED)
    }
}

/// The ways a part can match: `empty` of them take no character, `taking` take some.
#[derive(Debug, Clone, Copy)]
struct Ways {
    empty: f64,
    taking: f64,
}

impl Ways {
    fn total(self) -> f64 {
        sat(self.empty + self.taking)
    }
}

impl Paths {
    /// The worst-case number of paths a backtracking engine may explore matching a
    /// `len`-character input, from every start position when the pattern is not anchored
    /// with `^`. Alternatives add up and a sequence multiplies, so `(|a|b)(|c|d)` has 9;
    /// a repetition multiplies the ways of its part once per repetition, except that at
    /// most `len` repetitions can take a character: `(|||){20}` has 4^20 ways on any
    /// input (refused), `(?:b?){1000}` about 1000^len, `a+` one per count, `len`. A
    /// deliberate over-estimate: `^[a-z]+$` is really linear, and the alternatives of
    /// `(ab|cd)` cannot both match. Each path then costs up to `len` steps per
    /// backreference (`(.*)\1` is cubic).
    pub(crate) fn worst_case(&self, anchored: bool, len: usize) -> f64 {
        let chars = len as f64;
        let mut ways: Vec<Ways> = Vec::with_capacity(self.nodes.len());
        let at = |ways: &[Ways], j: usize| {
            ways.get(j).copied().unwrap_or(Ways {
                empty: 1.0,
                taking: 0.0,
            })
        };
        for node in &self.nodes {
            let w = match node {
                Node::Char => Ways {
                    empty: 0.0,
                    taking: 1.0,
                },
                Node::Assertion => Ways {
                    empty: 1.0,
                    taking: 0.0,
                },
                Node::Backref => Ways {
                    empty: 0.0,
                    taking: 1.0,
                },
                Node::Group {
                    branches,
                    lookaround,
                } => {
                    let mut group = Ways {
                        empty: 0.0,
                        taking: 0.0,
                    };
                    for seq in branches {
                        // A failed path costs as much as the prefix it got through, so a
                        // part with no way to match still counts as one.
                        let (mut empty, mut total) = (1.0f64, 1.0f64);
                        for &j in seq {
                            let part = at(&ways, j);
                            empty = sat(empty * part.empty);
                            total = sat(total * part.total().max(1.0));
                        }
                        group.empty = sat(group.empty + empty);
                        group.taking = sat(group.taking + (total - empty).max(0.0));
                    }
                    if *lookaround {
                        // Explored in full, takes nothing.
                        Ways {
                            empty: group.total(),
                            taking: 0.0,
                        }
                    } else {
                        group
                    }
                }
                Node::Repeat { node, min, max } => {
                    repeat_ways(at(&ways, *node), *min as f64, max.map(|m| m as f64), chars)
                }
            };
            ways.push(w);
        }
        let root = ways.last().map_or(1.0, |w| w.total().max(1.0));
        let starts = if anchored { 1.0 } else { chars + 1.0 };
        // Steps on one path: each backreference compares up to the whole input.
        let backrefs = self
            .nodes
            .iter()
            .filter(|n| matches!(n, Node::Backref))
            .count() as f64;
        sat(root * starts * (1.0 + backrefs * (chars + 1.0)))
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }
}

/// The ways a part with `part` ways matches when repeated between `min` and `max` times
/// (unbounded: at most `min + chars + 1`) on a `chars`-character input. With `k`
/// repetitions of which `j` take a character (`j <= chars`) there are `C(k, j) t^j
/// e^(k-j)` ways (`t`, `e`: the part's taking and empty ways), at most `(e + t)^k` and at
/// most `e^k (1 + k t / e)^j`; they grow with `k`, so the sum is at most the number of
/// counts times the last.
fn repeat_ways(part: Ways, min: f64, max: Option<f64>, chars: f64) -> Ways {
    let upper = max.unwrap_or(min + chars + 1.0);
    let (e, t) = (part.empty, part.taking);
    if e < 1.0 {
        // Every repetition takes a character: at most `chars` of them.
        let top = upper.min(chars);
        if top < min {
            return Ways {
                empty: 0.0,
                taking: 0.0,
            };
        }
        let empty = if min == 0.0 { 1.0 } else { 0.0 };
        let from = min.max(1.0);
        let taking = if top < from {
            0.0
        } else if t <= 1.0 {
            top - from + 1.0
        } else {
            // t^from + ... + t^top
            t.powf(from) * (t.powf(top - from + 1.0) - 1.0) / (t - 1.0)
        };
        return Ways {
            empty,
            taking: sat(taking),
        };
    }
    let counts = upper - min + 1.0;
    let empty = sat(counts * e.powf(upper));
    let j = upper.min(chars);
    let all = (e + t).powf(upper);
    let few_taking = e.powf(upper) * (1.0 + upper * t / e).powf(j);
    let total = sat(counts * all.min(few_taking));
    Ways {
        empty,
        taking: sat(total - empty),
    }
}

/// The longest input length whose [`Paths::worst_case`] stays within `budget`
/// (`usize::MAX` when no length exceeds it, as for a pattern without repetitions).
pub(crate) fn max_len_within(anchored: bool, paths: &Paths, budget: f64) -> usize {
    const CAP: usize = 1 << 40;
    let fits = |len: usize| paths.worst_case(anchored, len) <= budget;
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
    // For each open group (and the whole pattern), its alternatives so far, each a
    // sequence of nodes of `shape.paths`.
    let mut frames: Vec<Vec<Vec<usize>>> = vec![vec![Vec::new()]];
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => {
                last_is_assertion = matches!(chars.get(i + 1), Some('b' | 'B'));
                // A backreference compares as much text as its group captured.
                let node = match chars.get(i + 1) {
                    Some('1'..='9' | 'k') => Node::Backref,
                    Some('b' | 'B') => Node::Assertion,
                    _ => Node::Char,
                };
                add(&mut frames, shape.paths.push(node));
                i = skip_escape(&chars, i);
                last_atom = Some(Atom::CHAR);
            }
            '[' => {
                i = skip_class(&chars, i);
                add(&mut frames, shape.paths.push(Node::Char));
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
                frames.push(vec![Vec::new()]);
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
                let lookaround = lookarounds.pop().unwrap_or(false);
                if frames.len() > 1
                    && let Some(branches) = frames.pop()
                {
                    let group = shape.paths.push(Node::Group {
                        branches,
                        lookaround,
                    });
                    add(&mut frames, group);
                }
                last_atom = Some(Atom {
                    inside: inner,
                    group: true,
                });
                last_is_assertion = lookaround;
                i += 1;
            }
            '|' => {
                if let Some(top) = stack.last_mut() {
                    top.alternation = true;
                }
                if let Some(branches) = frames.last_mut() {
                    branches.push(Vec::new());
                }
                last_atom = None;
                last_is_assertion = false;
                i += 1;
            }
            '*' | '+' | '?' | '{' => {
                let Some((min_max, next)) = quantifier(&chars, i) else {
                    // A `{` that does not start a quantifier is a literal (non-u syntax).
                    add(&mut frames, shape.paths.push(Node::Char));
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
                if last_atom.is_some()
                    && let Some(node) = frames
                        .last_mut()
                        .and_then(|branches| branches.last_mut())
                        .and_then(|seq| seq.pop())
                {
                    let repeated = shape.paths.push(Node::Repeat { node, min, max });
                    add(&mut frames, repeated);
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
                let assertion = matches!(c, '^' | '$');
                let node = if assertion {
                    Node::Assertion
                } else {
                    Node::Char
                };
                add(&mut frames, shape.paths.push(node));
                last_atom = Some(Atom::CHAR);
                last_is_assertion = assertion;
                i += 1;
            }
        }
    }
    // Groups left open (a pattern `regress` refused) close at the end; the whole pattern
    // is the last node.
    while frames.len() > 1 {
        if let Some(branches) = frames.pop() {
            let group = shape.paths.push(Node::Group {
                branches,
                lookaround: false,
            });
            add(&mut frames, group);
        }
    }
    let branches = frames.pop().unwrap_or_default();
    shape.paths.push(Node::Group {
        branches,
        lookaround: false,
    });
    Ok(shape)
}

/// Appends node `id` to the current alternative of the innermost open group.
fn add(frames: &mut [Vec<Vec<usize>>], id: usize) {
    if let Some(seq) = frames.last_mut().and_then(|branches| branches.last_mut()) {
        seq.push(id);
    }
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
/// `(?!`, `(?<=`, `(?<!`, `(?<name>`, `(?i:` (modifiers).
fn skip_group_prefix(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) != Some(&'?') {
        return i + 1;
    }
    match chars.get(i + 2) {
        Some(':' | '=' | '!') => i + 3,
        // Modifiers: `(?i:`, `(?ims-s:`.
        Some('i' | 'm' | 's' | '-') => {
            let mut j = i + 2;
            while chars
                .get(j)
                .is_some_and(|c| matches!(c, 'i' | 'm' | 's' | '-'))
            {
                j += 1;
            }
            if chars.get(j) == Some(&':') {
                j + 1
            } else {
                i + 2
            }
        }
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
    use super::{analyze, max_len_within};

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
            shape.paths.worst_case(p.starts_with('^'), n)
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
            max_len_within(shape.anchored, &shape.paths, 1e8)
        };
        // n^4 <= 1e8 up to n = 100 (n counts the positions, one more than characters).
        assert_eq!(bound("a+a+a+(?=x)"), 99);
        assert_eq!(bound("^(?=a)b$"), usize::MAX);
        // Alternation defeats the anchor: `^a|a+` is tried from every position.
        assert!(bound("^a+|b+") < bound("^a+b+"));
        assert!(bound(r"^(?=.*[A-Z])(?=.*\d).{8,}$") >= 400);
    }

    #[test]
    fn alternatives_multiply_and_repetitions_of_them_more_so() {
        let empty = |p: &str| {
            let shape = analyze(p).unwrap_or_default();
            shape.paths.worst_case(shape.anchored, 0)
        };
        assert_eq!(empty("^(a|b|c)(d|e|f)$"), 9.0);
        // Empty alternatives all match the empty string: tried one after another.
        assert_eq!(empty("^(|a|b)(|c|d)(|e|f)$"), 27.0);
        assert!(
            empty("^(?=x)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)(||)")
                > 1e8
        );
        assert_eq!(empty("^(?:|||){20}$"), 4f64.powi(20));
        // Modifier groups are groups: `(?i:` is not three characters to match.
        assert_eq!(empty("^(?i:|a)(?ms-i:|b)$"), 4.0);
        // A repetition of a part that takes a character can only repeat as often as
        // there are characters: `(?:b?){1000}` is cheap on short inputs only.
        let shape = analyze("^(?=x)(?:b?){1000}").unwrap_or_default();
        assert!(shape.paths.worst_case(true, 0) <= 1000.0);
        assert!(shape.paths.worst_case(true, 1) <= 1e6);
        assert!(shape.paths.worst_case(true, 3) > 1e8);
        // One character at a time stays polynomial.
        let shape = analyze("^(?=x)(?:ab|cd)+$").unwrap_or_default();
        assert!(shape.paths.worst_case(true, 10) <= 2f64.powi(11));
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
