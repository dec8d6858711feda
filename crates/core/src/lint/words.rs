//! Splitting identifiers and prose into lowercase words.
//!
//! `apiKey`, `api_key`, `API-KEY`, `x.api.key`, `APIKey` and "API key" all become
//! `api` `key`; `oauth2Token` becomes `oauth2` `token`; digits stay attached (`2fa`,
//! `cvv2`). Han, kana and hangul are separators here: those scripts have no spaces
//! between words and are matched by substring instead (see `rules::CJK`).

/// One word, lowercase, with its byte span in the source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub(crate) lower: String,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Han, kana, hangul and their compatibility/half-width forms.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF
        | 0xF900..=0xFAFF | 0xFF66..=0xFFDC | 0x20000..=0x3134F)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Splits `text` into words at separators and camelCase boundaries.
pub(crate) fn split(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut start: Option<usize> = None;
    for (i, &(pos, c)) in chars.iter().enumerate() {
        if !is_word_char(c) {
            if let Some(s) = start.take() {
                push(&mut words, text, s, pos);
            }
            continue;
        }
        if let Some(s) = start {
            let prev = chars.get(i.wrapping_sub(1)).map(|&(_, p)| p);
            let next = chars.get(i + 1).map(|&(_, n)| n);
            let boundary = c.is_uppercase()
                && match prev {
                    Some(p) if p.is_lowercase() => true,
                    // `oauth2Token` splits after the digit; a word of digits only
                    // (`2FA`, `3DS`) does not.
                    Some(p) if p.is_ascii_digit() => text
                        .get(s..pos)
                        .is_some_and(|w| w.chars().any(char::is_alphabetic)),
                    Some(p) if p.is_uppercase() => next.is_some_and(char::is_lowercase),
                    _ => false,
                };
            if boundary {
                push(&mut words, text, s, pos);
                start = Some(pos);
            }
        } else {
            start = Some(pos);
        }
    }
    if let Some(s) = start {
        push(&mut words, text, s, text.len());
    }
    words
}

fn push(words: &mut Vec<Word>, text: &str, start: usize, end: usize) {
    if let Some(w) = text.get(start..end) {
        words.push(Word {
            lower: w.to_lowercase(),
            start,
            end,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(s: &str) -> Vec<String> {
        split(s).into_iter().map(|w| w.lower).collect()
    }

    #[test]
    fn identifier_styles() {
        assert_eq!(lower("apiKey"), ["api", "key"]);
        assert_eq!(lower("api_key"), ["api", "key"]);
        assert_eq!(lower("API-KEY"), ["api", "key"]);
        assert_eq!(lower("APIKey"), ["api", "key"]);
        assert_eq!(lower("APIKEY"), ["apikey"]);
        assert_eq!(lower("x-api-key"), ["x", "api", "key"]);
        assert_eq!(lower("oauth2Token"), ["oauth2", "token"]);
        assert_eq!(lower("cvv2"), ["cvv2"]);
        assert_eq!(lower("2FA"), ["2fa"]);
        assert_eq!(lower("your 2FA code"), ["your", "2fa", "code"]);
        assert_eq!(lower("2FACode"), ["2fa", "code"]);
        assert_eq!(lower("my2faCode"), ["my2fa", "code"]);
        assert_eq!(
            lower("Your API key, please."),
            ["your", "api", "key", "please"]
        );
        assert_eq!(lower("contraseña"), ["contraseña"]);
        assert_eq!(lower("mot de passe"), ["mot", "de", "passe"]);
        assert_eq!(lower("API 密钥"), ["api"]);
        assert_eq!(lower(""), Vec::<String>::new());
    }

    #[test]
    fn spans_point_into_the_source() {
        let s = "x-apiKey";
        let w = split(s);
        assert_eq!(&s[w[1].start..w[2].end], "apiKey");
    }
}
