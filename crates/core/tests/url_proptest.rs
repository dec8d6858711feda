//! `analyze` and `check_server_url` never panic, and their results stay consistent,
//! whatever the input.

use mcp_elicit_core::url_safety::{
    ServerUrlPolicy, Severity, UrlFindingCode as C, Verdict, analyze, check_server_url,
};
use proptest::prelude::*;

fn url_like() -> impl Strategy<Value = String> {
    let scheme = prop_oneof![
        Just("https://"),
        Just("http://"),
        Just("HtTp:\\\\"),
        Just("javascript:"),
        Just("data:"),
        Just(""),
        Just("//"),
        Just("http:")
    ];
    let userinfo = prop_oneof![Just(""), Just("user@"), Just("a:b@"), Just("google.com@")];
    let host = prop_oneof![
        Just("example.com".to_owned()),
        Just("0x7f.1".to_owned()),
        Just("2130706433".to_owned()),
        Just("[::ffff:127.0.0.1]".to_owned()),
        Just("аpple.com".to_owned()),
        Just("xn--pple-43d.com".to_owned()),
        Just("localhost".to_owned()),
        "[a-zA-Z0-9.\\-]{0,20}",
        "\\PC{0,12}",
    ];
    let port = prop_oneof![
        Just(""),
        Just(":8080"),
        Just(":0"),
        Just(":99999"),
        Just(":")
    ];
    let rest = prop_oneof![
        Just(String::new()),
        "[/?#&=a-z0-9%._\\-]{0,30}",
        "\\PC{0,20}",
        ".{0,20}"
    ];
    (scheme, userinfo, host, port, rest).prop_map(|(s, u, h, p, r)| format!("{s}{u}{h}{p}/{r}"))
}

fn check_consistency(input: &str) {
    let a = analyze(input);
    let max = a.warnings.iter().map(|f| f.severity).max();
    let expected = match max {
        Some(Severity::Block) => Verdict::Block,
        Some(Severity::Warn) => Verdict::Warn,
        _ => Verdict::Ok,
    };
    assert_eq!(a.verdict, expected);
    assert_eq!(a.input, input);
    if let Some(url) = &a.url {
        for r in [a.host_range, a.highlight].into_iter().flatten() {
            assert!(
                url.get(r.range()).is_some(),
                "range {r:?} not within {url:?}"
            );
        }
        if let (Some(h), Some(rd)) = (a.highlight_parts(), &a.registrable_domain) {
            assert_eq!(h.1, rd);
        }
    }
    if a.verdict != Verdict::Block {
        assert!(matches!(a.scheme.as_deref(), Some("http" | "https")));
        assert!(a.host_ascii.is_some());
    }
    // Whatever the server policy accepts, a client never blocks.
    if let Ok(url) = check_server_url(input, &ServerUrlPolicy::default()) {
        assert_ne!(a.verdict, Verdict::Block, "{input:?}");
        assert_eq!(a.url.as_deref(), Some(url.as_str()));
        // ... and has none of the warnings the policy exists to prevent.
        for code in [
            C::InsecureHttp,
            C::Userinfo,
            C::IpUnusualNotation,
            C::MixedScript,
            C::ConfusableHost,
            C::CredentialParameter,
            C::AuthorizationCode,
            C::TokenLikeValue,
            C::PersonalData,
            C::LongUrl,
            C::InvisibleCharacters,
            C::ControlCharacters,
        ] {
            assert!(
                !a.has(code),
                "{input:?} accepted by the server policy but the client warns {code}"
            );
        }
    }
    let _ = serde_json::to_string(&a).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_on_arbitrary_strings(input in "\\PC{0,80}") {
        check_consistency(&input);
    }

    #[test]
    fn never_panics_on_strings_with_controls(input in ".{0,40}") {
        check_consistency(&input);
    }

    #[test]
    fn never_panics_on_url_like_strings(input in url_like()) {
        check_consistency(&input);
    }

    #[test]
    fn never_panics_on_arbitrary_bytes_as_lossy_utf8(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        check_consistency(&String::from_utf8_lossy(&bytes));
    }
}
