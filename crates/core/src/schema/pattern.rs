//! A compiled `pattern`: the one place where a pattern is compiled and the one safe path
//! every match goes through.
//!
//! Every valid ECMA-262 pattern (with the `u` flag) compiles, checked by `regress`,
//! except the few described below. The engine that runs matches is chosen once, at
//! compile time:
//!
//! - a pattern that translates exactly to the `regex` crate's syntax (`linear.rs`:
//!   everything but backreferences, lookarounds, modifier groups and lone surrogate
//!   escapes) runs on its
//!   linear-time automata, on inputs of any length, as long as the automaton fits in
//!   [`MAX_AUTOMATON_BYTES`] and in what is left of the schema's budget
//!   ([`ParseLimits::max_pattern_automata_bytes`](super::ParseLimits::max_pattern_automata_bytes));
//! - any other pattern (or one whose automaton does not fit) runs on `regress`, which
//!   backtracks, and only on inputs short enough for the worst case to stay under about
//!   10^8 steps (`redos.rs` estimates the bound when the pattern is compiled); longer
//!   inputs are not checked, and a caller reports them as such, failing closed;
//! - a pattern of the second kind whose alternatives and repetitions multiply into more
//!   than 10^8 paths even for an empty value is refused: `(?=x)(|a|b)(|a|b)...` with
//!   twenty groups has 3^20 ways to match the empty string, all tried before a mismatch
//!   is reported (a 759-byte schema found by fuzzing took seconds to validate its
//!   three-character default);
//! - a pattern of the second kind that also has a shape prone to exponential
//!   backtracking (a repeated group that itself repeats or alternates, as in `(a+)+\1`)
//!   is refused with a sentence saying why: no input bound makes it safe;
//! - so is one of the second kind that repeats a group containing a quantified group
//!   (`(?=.)((ab)?){2}`): `regress` 0.12 answers such nestings wrongly or loops forever
//!   (`(?:(?:b?)?){2}$` on `ba`; differential runs against V8 found both), and a
//!   validator that hangs on a hostile schema's default is a denial of service.

use super::{linear, redos};

/// Most backtracking steps a match may need in the worst case before it is refused.
const STEP_BUDGET: f64 = 1e8;

/// Most automaton memory one pattern may take (building it costs time in proportion:
/// about 25 ms for 4 MB).
pub(crate) const MAX_AUTOMATON_BYTES: usize = 8 << 20;

/// A compiled ECMA-262 `pattern`, with its source kept verbatim.
///
/// Matching is exact (ECMA-262 semantics) and never runs long: see
/// [`is_match_bounded`](Self::is_match_bounded).
///
/// A pattern comes from a parsed schema ([`StringSpec::pattern`](crate::schema::StringSpec::pattern)):
///
/// ```
/// use mcp_elicit_core::Schema;
/// use mcp_elicit_core::schema::PropertyKind;
/// use serde_json::json;
///
/// let schema = Schema::parse(&json!({"type": "object", "properties": {
///     "tag": {"type": "string", "pattern": "^\\p{Lu}\\u{1F600}.$"}}}))?;
/// let PropertyKind::String(tag) = schema.property("tag").unwrap().kind() else { panic!() };
/// let p = tag.pattern().unwrap();
/// assert!(p.is_linear());
/// assert!(p.is_match("É😀😀")); // `u` flag: escapes and `.` work on code points
/// assert!(!p.is_match("e😀x"));
/// # Ok::<(), mcp_elicit_core::error::Errors>(())
/// ```
#[derive(Debug, Clone)]
pub struct Pattern {
    pub(crate) source: String,
    engine: Engine,
}

/// How matches run, decided at compile time.
#[derive(Debug, Clone)]
enum Engine {
    /// The exact linear-time translation: every input, any length.
    Linear(linear::Automaton),
    /// `regress` (backtracking), on inputs of at most `max_chars` code points.
    Backtracking {
        regex: regress::Regex,
        max_chars: usize,
    },
}

impl Pattern {
    /// Compiles `source` as an ECMA-262 regular expression with the `u` (Unicode) flag,
    /// the dialect JSON Schema specifies: `\u{1F600}` escapes are understood and `.`
    /// matches a whole code point. Fails, with a sentence saying why, for invalid
    /// syntax and for patterns no engine can match safely (see the module docs).
    /// Parsing uses [`compile_within`](Self::compile_within) with the schema's budget.
    #[cfg(test)]
    pub(crate) fn compile(source: &str) -> Result<Pattern, String> {
        let mut budget = MAX_AUTOMATON_BYTES;
        Self::compile_within(source, &mut budget)
    }

    /// Like [`compile`](Self::compile), drawing the linear-time automaton's memory from
    /// `budget` (shared by all the patterns of a schema, so a hostile schema cannot make
    /// parsing build hundreds of megabytes of automata). A pattern whose automaton does
    /// not fit runs on the bounded backtracking engine; an attempt that fails is charged
    /// its whole limit, the work it cost.
    pub(crate) fn compile_within(source: &str, budget: &mut usize) -> Result<Pattern, String> {
        let flags = regress::Flags {
            unicode: true,
            ..regress::Flags::default()
        };
        let regex = regress::Regex::with_flags(source, flags)
            .map_err(|e| format!("not a valid ECMA-262 regular expression (u flag): {e}"))?;
        // Syntax errors `regress` lets through, and the shape of the pattern.
        let shape = redos::analyze(source)?;
        let translatable = linear::translate(source).is_some();
        let limit = (*budget).min(MAX_AUTOMATON_BYTES);
        let automaton = if translatable && limit > 0 {
            let automaton = linear::compile(source, limit);
            let cost = automaton.as_ref().map_or(limit, |a| a.memory_usage());
            *budget = budget.saturating_sub(cost);
            automaton
        } else {
            None
        };
        let engine = match automaton {
            Some(linear) => Engine::Linear(linear),
            None => {
                let why = if translatable {
                    "its automaton is larger than the linear-time engine allows for this \
                     schema"
                } else {
                    "it uses a backreference, a lookaround, a modifier group such as \
                     `(?i:...)` or a lone surrogate escape, which only a backtracking engine \
                     can run"
                };
                if let Some(risk) = shape.exponential {
                    return Err(format!(
                        "the pattern cannot be matched in linear time ({why}), and {risk}: a \
                         backtracking match could take exponential time, so it is refused"
                    ));
                }
                if let Some(risk) = shape.nested_repetition {
                    return Err(format!(
                        "the pattern cannot be matched in linear time ({why}), and {risk}: \
                         it is refused rather than checked wrongly (repeat the inner group's \
                         contents without the outer group, or drop the lookaround or \
                         backreference)"
                    ));
                }
                if let Some(risk) = shape.huge_count {
                    return Err(format!(
                        "the pattern cannot be matched in linear time ({why}), and {risk}: it \
                         is refused (write a smaller count, or drop the lookaround or \
                         backreference)"
                    ));
                }
                if shape.paths.worst_case(shape.anchored, 0) > STEP_BUDGET {
                    return Err(format!(
                        "the pattern cannot be matched in linear time ({why}), and its \
                         alternatives and repetitions multiply into more than 10^8 \
                         backtracking paths even for an empty value: it is refused (use fewer \
                         alternatives or repetitions, or drop the lookaround or backreference)"
                    ));
                }
                let max_chars = redos::max_len_within(shape.anchored, &shape.paths, STEP_BUDGET);
                Engine::Backtracking { regex, max_chars }
            }
        };
        Ok(Pattern {
            source: source.to_owned(),
            engine,
        })
    }

    /// The pattern exactly as written in the schema.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::{Pattern, PropertyKind};
    /// # fn pattern(source: &str) -> Pattern {
    /// #     let json = serde_json::json!({"type": "object", "properties": {"w": {"type": "string", "pattern": source}}});
    /// #     let schema = Schema::parse(&json).unwrap();
    /// #     let PropertyKind::String(s) = schema.property("w").unwrap().kind() else { panic!() };
    /// #     s.pattern().unwrap().clone()
    /// # }
    /// assert_eq!(pattern("^[a-z]+$").source(), "^[a-z]+$");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match (ECMA-262 semantics). JSON Schema patterns are
    /// not anchored: `"b"` matches `"abc"`; write `^...$` to match the whole string.
    ///
    /// Fails closed: `false` when the text is too long to check safely (see
    /// [`is_match_bounded`](Self::is_match_bounded), which tells that case apart).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::{Pattern, PropertyKind};
    /// # fn pattern(source: &str) -> Pattern {
    /// #     let json = serde_json::json!({"type": "object", "properties": {"w": {"type": "string", "pattern": source}}});
    /// #     let schema = Schema::parse(&json).unwrap();
    /// #     let PropertyKind::String(s) = schema.property("w").unwrap().kind() else { panic!() };
    /// #     s.pattern().unwrap().clone()
    /// # }
    /// assert!(pattern("b").is_match("abc")); // unanchored
    /// assert!(!pattern("^b$").is_match("abc"));
    /// let backref = pattern("(a)\\1");
    /// assert!(backref.is_match("xaax"));
    /// assert!(!backref.is_match(&"a".repeat(100_000))); // too long to check: false
    /// ```
    pub fn is_match(&self, text: &str) -> bool {
        self.is_match_bounded(text).unwrap_or(false)
    }

    /// Whether `text` contains a match; `None` when the pattern can only run on a
    /// backtracking engine (backreferences, lookarounds) and `text` is longer than the
    /// bound computed for it at compile time (see [`may_be_slow`](Self::may_be_slow)).
    /// Never runs for long, whatever the pattern and the text.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::{Pattern, PropertyKind};
    /// # fn pattern(source: &str) -> Pattern {
    /// #     let json = serde_json::json!({"type": "object", "properties": {"w": {"type": "string", "pattern": source}}});
    /// #     let schema = Schema::parse(&json).unwrap();
    /// #     let PropertyKind::String(s) = schema.property("w").unwrap().kind() else { panic!() };
    /// #     s.pattern().unwrap().clone()
    /// # }
    /// let backref = pattern("(a)\\1");
    /// assert_eq!(backref.is_match_bounded("aa"), Some(true));
    /// assert_eq!(backref.is_match_bounded("ab"), Some(false));
    /// assert_eq!(backref.is_match_bounded(&"a".repeat(100_000)), None); // not checked
    /// assert_eq!(pattern("a+").is_match_bounded(&"a".repeat(100_000)), Some(true));
    /// ```
    pub fn is_match_bounded(&self, text: &str) -> Option<bool> {
        match &self.engine {
            Engine::Linear(linear) => Some(linear.is_match(text)),
            Engine::Backtracking { regex, max_chars } => {
                // Bytes bound code points from above: count only when it matters.
                let short = text.len() <= *max_chars || text.chars().count() <= *max_chars;
                short.then(|| regex.find(text).is_some())
            }
        }
    }

    /// Whether every input is matched in linear time (the pattern translates exactly to
    /// a non-backtracking automaton). When `false`, inputs longer than a bound are not
    /// checked (see [`may_be_slow`](Self::may_be_slow)).
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::{Pattern, PropertyKind};
    /// # fn pattern(source: &str) -> Pattern {
    /// #     let json = serde_json::json!({"type": "object", "properties": {"w": {"type": "string", "pattern": source}}});
    /// #     let schema = Schema::parse(&json).unwrap();
    /// #     let PropertyKind::String(s) = schema.property("w").unwrap().kind() else { panic!() };
    /// #     s.pattern().unwrap().clone()
    /// # }
    /// assert!(pattern("^[a-z0-9._-]+@[a-z]+$").is_linear());
    /// assert!(!pattern("(?<=a)b").is_linear()); // a lookaround
    /// assert!(!pattern("(a)\\1").is_linear()); // a backreference
    /// ```
    pub fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear(_))
    }

    /// Whether an input of `len` code points is too long for this pattern to be
    /// matched safely: always `false` for a [linear](Self::is_linear) pattern; for the
    /// others, whether a pessimistic estimate of the backtracking work exceeds 10^8
    /// steps (for example an unanchored `(a)\1a+a+x` beyond about a hundred characters).
    /// [`is_match_bounded`](Self::is_match_bounded) answers `None` exactly then.
    ///
    /// ```
    /// # use mcp_elicit_core::Schema;
    /// # use mcp_elicit_core::schema::{Pattern, PropertyKind};
    /// # fn pattern(source: &str) -> Pattern {
    /// #     let json = serde_json::json!({"type": "object", "properties": {"w": {"type": "string", "pattern": source}}});
    /// #     let schema = Schema::parse(&json).unwrap();
    /// #     let PropertyKind::String(s) = schema.property("w").unwrap().kind() else { panic!() };
    /// #     s.pattern().unwrap().clone()
    /// # }
    /// let p = pattern("(a)\\1a+a+x");
    /// assert!(!p.may_be_slow(10));
    /// assert!(p.may_be_slow(1_000));
    /// assert_eq!(p.is_match_bounded(&"a".repeat(1_000)), None);
    /// assert!(!pattern("a+a+x").may_be_slow(1_000_000)); // linear
    /// ```
    pub fn may_be_slow(&self, len: usize) -> bool {
        match &self.engine {
            Engine::Linear(_) => false,
            Engine::Backtracking { max_chars, .. } => len > *max_chars,
        }
    }
}
