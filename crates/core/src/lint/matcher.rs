//! The engine of the secret-field lint: finds the phrases of `rules.rs` in one text.

use std::sync::OnceLock;

use super::finding::{Part, SecretCategory};
use super::rules::{self, Ctx, Phrase, Side};
use super::words::{self, Word};

/// One match in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) category: SecretCategory,
    /// The matched text as written.
    pub(crate) matched: String,
}

/// How a text is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    pub(crate) part: Part,
    /// The property holds a number: a bare "token" there is a count.
    pub(crate) numeric: bool,
}

fn phrases_longest_first() -> &'static [&'static Phrase] {
    static SORTED: OnceLock<Vec<&'static Phrase>> = OnceLock::new();
    SORTED.get_or_init(|| {
        let mut v: Vec<&'static Phrase> = rules::PHRASES.iter().collect();
        v.sort_by_key(|p| std::cmp::Reverse(p.words.len()));
        v
    })
}

/// `(first word, index in [`phrases_longest_first`])` of every phrase, sorted by word: a
/// text is only tried against the phrases whose first word it has (most texts have
/// none of them), in the same order as before.
fn phrases_by_first_word() -> &'static [(&'static str, usize)] {
    static INDEX: OnceLock<Vec<(&'static str, usize)>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut v: Vec<(&'static str, usize)> = phrases_longest_first()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.words.first().map(|w| (*w, i)))
            .collect();
        v.sort_unstable();
        v
    })
}

/// The phrases (indices in [`phrases_longest_first`], ascending) that could match in a
/// text of `words`: their first word is one of the words, or, for one-word phrases (whose
/// only word also matches with a plural `s`), one of the words without its final `s`.
fn candidates(words: &[Word]) -> Vec<usize> {
    let index = phrases_by_first_word();
    let phrases = phrases_longest_first();
    let mut out = Vec::new();
    let mut add = |word: &str, single_only: bool| {
        let start = index.partition_point(|(w, _)| *w < word);
        for &(w, i) in &index[start..] {
            if w != word {
                break;
            }
            if !single_only || phrases[i].words.len() == 1 {
                out.push(i);
            }
        }
    };
    for w in words {
        add(&w.lower, false);
        if let Some(singular) = w.lower.strip_suffix('s') {
            add(singular, true);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn cjk_longest_first() -> &'static [(&'static str, SecretCategory)] {
    static SORTED: OnceLock<Vec<(&'static str, SecretCategory)>> = OnceLock::new();
    SORTED.get_or_init(|| {
        let mut v = rules::CJK.to_vec();
        v.sort_by_key(|(s, _)| std::cmp::Reverse(s.chars().count()));
        v
    })
}

fn word_matches(word: &str, wanted: &str, last: bool) -> bool {
    word == wanted
        || (last
            && word.len() == wanted.len() + 1
            && word.starts_with(wanted)
            && word.ends_with('s'))
}

/// Whether a word outside a match turns it into something else: in a property name,
/// any qualifier before it or head noun after it (`min_password_length`,
/// `api_key_id`); elsewhere only the word right before or right after ("password
/// hint", "max tokens").
struct Modifiers<'a> {
    words: &'a [Word],
    part: Part,
    /// Per category, lazily: prefix counts of qualifiers and head nouns (names only).
    prefix: Vec<Option<Prefix>>,
}

/// `before[i]`: qualifiers among `words[..i]`; `after[i]`: head nouns among `words[..i]`.
#[derive(Clone)]
struct Prefix {
    before: Vec<usize>,
    after: Vec<usize>,
}

impl Prefix {
    fn new(words: &[Word], category: SecretCategory) -> Self {
        let mut before = vec![0];
        let mut after = vec![0];
        for w in words {
            let b = before.last().copied().unwrap_or(0);
            let a = after.last().copied().unwrap_or(0);
            before.push(b + usize::from(rules::is_modifier(category, &w.lower, Side::Before)));
            after.push(a + usize::from(rules::is_modifier(category, &w.lower, Side::After)));
        }
        Self { before, after }
    }

    fn modified(&self, start: usize, end: usize) -> bool {
        let before = self.before.get(start).copied().unwrap_or(0);
        let after_total = self.after.last().copied().unwrap_or(0);
        let after_upto_end = self.after.get(end).copied().unwrap_or(after_total);
        before > 0 || after_total > after_upto_end
    }
}

impl<'a> Modifiers<'a> {
    fn new(words: &'a [Word], part: Part) -> Self {
        Self {
            words,
            part,
            prefix: vec![None; 16],
        }
    }

    fn modified(&mut self, start: usize, end: usize, category: SecretCategory) -> bool {
        if self.part == Part::Name {
            let words = self.words;
            match self.prefix.get_mut(category as usize) {
                Some(slot) => slot
                    .get_or_insert_with(|| Prefix::new(words, category))
                    .modified(start, end),
                None => Prefix::new(words, category).modified(start, end),
            }
        } else {
            let before = start.checked_sub(1).and_then(|i| self.words.get(i));
            let after = self.words.get(end);
            before.is_some_and(|w| rules::is_modifier(category, &w.lower, Side::Before))
                || after.is_some_and(|w| rules::is_modifier(category, &w.lower, Side::After))
        }
    }
}

/// Every secret-looking phrase in `text`, at most one per category, in order of
/// appearance.
pub(crate) fn find(text: &str, reading: Reading) -> Vec<Match> {
    let words = words::split(text);
    let mut taken = vec![false; words.len()];
    let mut found: Vec<(usize, Match)> = Vec::new();
    let label = reading.part.is_label();
    let mut modifiers = Modifiers::new(&words, reading.part);

    let phrases = phrases_longest_first();
    for phrase in candidates(&words).into_iter().map(|i| phrases[i]) {
        if phrase.ctx == Ctx::Label && !label {
            continue;
        }
        let n = phrase.words.len();
        if n == 0 || n > words.len() {
            continue;
        }
        for start in 0..=(words.len() - n) {
            let end = start + n;
            if taken[start..end].iter().any(|&t| t) {
                continue;
            }
            let hit = phrase
                .words
                .iter()
                .enumerate()
                .all(|(k, w)| word_matches(&words[start + k].lower, w, k + 1 == n));
            if !hit || !special_ok(phrase, &words[start..end], text, reading) {
                continue;
            }
            if modifiers.modified(start, end, phrase.category) {
                continue;
            }
            taken[start..end].iter_mut().for_each(|t| *t = true);
            let matched = text
                .get(words[start].start..words[end - 1].end)
                .unwrap_or_default();
            found.push((
                words[start].start,
                Match {
                    category: phrase.category,
                    matched: matched.to_owned(),
                },
            ));
        }
    }

    // Single words that are compounds, or contain a strong substring.
    for (i, w) in words.iter().enumerate() {
        if taken[i] {
            continue;
        }
        let category = rules::COMPOUNDS
            .iter()
            .find(|(c, _)| word_matches(&w.lower, c, true))
            .or_else(|| {
                // (The length test first: most words are shorter than the substrings,
                // and a substring search costs its setup every time.)
                let has = |s: &str| w.lower.len() >= s.len() && w.lower.contains(s);
                if rules::SUBSTRING_EXCEPTIONS.iter().any(|e| has(e)) {
                    return None;
                }
                rules::SUBSTRINGS.iter().find(|(s, _)| has(s))
            })
            .map(|&(_, c)| c);
        if let Some(category) = category {
            if modifiers.modified(i, i + 1, category) {
                continue;
            }
            taken[i] = true;
            let matched = text.get(w.start..w.end).unwrap_or_default();
            found.push((
                w.start,
                Match {
                    category,
                    matched: matched.to_owned(),
                },
            ));
        }
    }

    found.extend(find_cjk(text));
    found.sort_by_key(|(pos, _)| *pos);
    let mut out: Vec<Match> = Vec::new();
    for (_, m) in found {
        if !out.iter().any(|o| o.category == m.category) {
            out.push(m);
        }
    }
    out
}

/// Extra conditions of a few ambiguous words.
fn special_ok(phrase: &Phrase, matched: &[Word], text: &str, reading: Reading) -> bool {
    match phrase.words {
        // "PIN" in a title is a PIN; "Pin" or "pin" in a title is more likely a verb.
        ["pin"] if reading.part != Part::Name => {
            matched.first().and_then(|w| text.get(w.start..w.end)) == Some("PIN")
        }
        // A numeric "token" is a count of tokens, and a bare plural is LLM tokens.
        ["token"] => !reading.numeric && matched.first().is_some_and(|w| w.lower == "token"),
        _ => true,
    }
}

fn find_cjk(text: &str) -> Vec<(usize, Match)> {
    if !text.chars().any(words::is_cjk) {
        return Vec::new();
    }
    // Lowercase with whitespace removed, remembering each char's offset in `text`.
    let mut squeezed = String::new();
    let mut offsets: Vec<usize> = Vec::new();
    for (pos, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        for l in c.to_lowercase() {
            for _ in 0..l.len_utf8() {
                offsets.push(pos);
            }
            squeezed.push(l);
        }
    }
    // Bytes of `squeezed` already claimed by an exception or a longer match.
    let mut covered = vec![false; squeezed.len()];
    for exception in rules::CJK_EXCEPTIONS {
        for (at, _) in squeezed.match_indices(exception) {
            covered
                .iter_mut()
                .skip(at)
                .take(exception.len())
                .for_each(|c| *c = true);
        }
    }
    let mut found = Vec::new();
    for &(needle, category) in cjk_longest_first() {
        for (at, _) in squeezed.match_indices(needle) {
            let end = at + needle.len();
            if covered
                .get(at..end)
                .is_none_or(|span| span.iter().any(|&c| c))
            {
                continue;
            }
            covered
                .iter_mut()
                .skip(at)
                .take(needle.len())
                .for_each(|c| *c = true);
            let from = offsets.get(at).copied().unwrap_or(0);
            let to = offsets
                .get(end - 1)
                .and_then(|&p| {
                    text.get(p..)
                        .and_then(|t| t.chars().next())
                        .map(|c| p + c.len_utf8())
                })
                .unwrap_or(text.len());
            let matched = text.get(from..to).unwrap_or(needle);
            found.push((
                from,
                Match {
                    category,
                    matched: matched.to_owned(),
                },
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cats(text: &str, part: Part) -> Vec<SecretCategory> {
        find(
            text,
            Reading {
                part,
                numeric: false,
            },
        )
        .into_iter()
        .map(|m| m.category)
        .collect()
    }

    #[test]
    fn longest_phrase_wins() {
        assert_eq!(
            cats("one_time_password", Part::Name),
            [SecretCategory::OneTimeCode]
        );
        assert_eq!(
            cats("secret recovery phrase", Part::Description),
            [SecretCategory::RecoveryPhrase]
        );
        assert_eq!(cats("API 密钥", Part::Title), [SecretCategory::ApiKey]);
    }

    #[test]
    fn matched_text_is_as_written() {
        let m = find(
            "x-apiKey",
            Reading {
                part: Part::Name,
                numeric: false,
            },
        );
        assert_eq!(m[0].matched, "apiKey");
        let m = find(
            "请输入您的 支付 密码",
            Reading {
                part: Part::Description,
                numeric: false,
            },
        );
        assert_eq!(m[0].matched, "支付 密码");
    }

    #[test]
    fn cjk_exceptions() {
        assert!(cats("密码提示", Part::Title).is_empty());
        assert_eq!(cats("密码", Part::Title), [SecretCategory::Password]);
    }
}
