//! Arbitrary text through the URL analysis, the server URL policy and the message lint:
//! none may panic, the verdict is the highest severity, the highlight ranges lie inside
//! the normalized URL, and a URL the server policy accepts is never blocked by a client
//! nor gets a warning the policy exists to prevent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_core::lint::lint_message;
use mcp_elicit_core::url_safety::{
    ServerUrlPolicy, Severity, UrlFindingCode as C, Verdict, analyze, check_server_url,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let a = analyze(&text);
    let expected = match a.warnings.iter().map(|f| f.severity).max() {
        Some(Severity::Block) => Verdict::Block,
        Some(Severity::Warn) => Verdict::Warn,
        _ => Verdict::Ok,
    };
    assert_eq!(a.verdict, expected);
    if let Some(url) = &a.url {
        for r in [a.host_range, a.highlight].into_iter().flatten() {
            assert!(url.get(r.range()).is_some(), "range {r:?} outside {url:?}");
        }
    }
    for policy in [ServerUrlPolicy::default(), ServerUrlPolicy::https_only()] {
        if let Ok(url) = check_server_url(&text, &policy) {
            assert_ne!(
                a.verdict,
                Verdict::Block,
                "server-accepted URL blocked: {text:?}"
            );
            assert_eq!(a.url.as_deref(), Some(url.as_str()));
            for code in [
                C::InsecureHttp,
                C::Userinfo,
                C::IpUnusualNotation,
                C::MixedScript,
                C::ConfusableHost,
                C::CredentialParameter,
                C::AuthorizationCode,
                C::TokenLikeValue,
                C::LongUrl,
                C::InvisibleCharacters,
                C::ControlCharacters,
            ] {
                assert!(!a.has(code), "server-accepted URL warns {code}: {text:?}");
            }
        }
    }
    let _ = lint_message(&text);
});
