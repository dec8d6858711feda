//! Client-side URL analysis: one test per rule, with hostile examples.

use mcp_elicit_core::url_safety::{Severity, UrlAnalysis, UrlFindingCode as C, Verdict, analyze};

fn codes(a: &UrlAnalysis) -> Vec<C> {
    a.warnings.iter().map(|f| f.code).collect()
}

#[track_caller]
fn assert_blocked(input: &str, code: C) {
    let a = analyze(input);
    assert_eq!(a.verdict, Verdict::Block, "{input:?}: {:?}", a.warnings);
    assert!(a.has(code), "{input:?} should have {code}: {:?}", codes(&a));
}

#[track_caller]
fn assert_warns(input: &str, code: C) -> UrlAnalysis {
    let a = analyze(input);
    assert_eq!(a.verdict, Verdict::Warn, "{input:?}: {:?}", a.warnings);
    assert!(a.has(code), "{input:?} should have {code}: {:?}", codes(&a));
    a
}

#[test]
fn plain_https_url_is_ok_with_all_fields() {
    let a = analyze(
        "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
    );
    assert_eq!(a.verdict, Verdict::Ok, "{:?}", a.warnings);
    assert!(a.warnings.is_empty());
    assert_eq!(a.scheme.as_deref(), Some("https"));
    assert_eq!(a.host_ascii.as_deref(), Some("mcp.example.com"));
    assert_eq!(a.host_unicode.as_deref(), Some("mcp.example.com"));
    assert_eq!(a.registrable_domain.as_deref(), Some("example.com"));
    assert_eq!(
        a.highlight_parts(),
        Some((
            "https://mcp.",
            "example.com",
            "/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000"
        ))
    );
    let host = a.host_range.unwrap();
    assert_eq!(&a.url.as_deref().unwrap()[host.range()], "mcp.example.com");
}

#[test]
fn non_web_schemes_are_blocked_however_disguised() {
    for input in [
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "java\nscript:alert(1)",
        "java\tscript:alert(document.cookie)",
        "\u{0}javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "DATA:text/html;base64,PHNjcmlwdD4=",
        "file:///etc/passwd",
        "blob:https://example.com/uuid",
        "about:blank",
        "vbscript:msgbox(1)",
        "ftp://example.com/file",
        "mailto:someone@example.com",
        "myapp://open?x=1",
        "ws://example.com/",
        "chrome://settings",
    ] {
        assert_blocked(input, C::DisallowedScheme);
    }
}

#[test]
fn relative_unparsable_and_hostless_urls_are_blocked() {
    assert_blocked("/login", C::RelativeUrl);
    assert_blocked("example.com/login", C::RelativeUrl);
    assert_blocked("//evil.com/x", C::RelativeUrl);
    assert_blocked("", C::RelativeUrl);
    assert_blocked("http://", C::EmptyHost);
    assert_blocked("https://?x", C::EmptyHost);
    assert_blocked("https://exa mple.com/", C::Unparsable);
    assert_blocked("https://a\u{202E}b.com/", C::Unparsable);
    assert_blocked("https://xn--zz.com/", C::Unparsable);
    assert_blocked("https://[::1/", C::Unparsable);
    assert_blocked("http://999.1.1.1/", C::Unparsable);
}

#[test]
fn absurdly_long_input_is_blocked_without_parsing() {
    let input = format!("https://example.com/{}", "a".repeat(9000));
    let a = analyze(&input);
    assert_eq!(a.verdict, Verdict::Block);
    assert!(a.has(C::TooLong));
    assert!(a.url.is_none());
}

#[test]
fn long_urls_warn() {
    let a = assert_warns(
        &format!("https://example.com/{}", "a".repeat(2100)),
        C::LongUrl,
    );
    assert!(a.finding(C::LongUrl).unwrap().message.contains("very long"));
    assert!(!analyze(&format!("https://example.com/{}", "a".repeat(1900))).has(C::LongUrl));
}

#[test]
fn http_warns_except_on_loopback() {
    let a = assert_warns("http://example.com/", C::InsecureHttp);
    assert!(
        a.finding(C::InsecureHttp)
            .unwrap()
            .message
            .contains("example.com")
    );
    let a = analyze("http://localhost:8080/cb");
    assert_eq!(a.verdict, Verdict::Ok, "{:?}", a.warnings);
    assert_eq!(a.finding(C::LoopbackHttp).unwrap().severity, Severity::Info);
    assert!(a.has(C::NonDefaultPort));
    assert_eq!(a.port, Some(8080));
    // A look-alike of localhost is not loopback.
    assert_warns("http://localhost.evil.com/", C::InsecureHttp);
    // An IP loopback gets the IP warning but not the http one.
    let a = analyze("http://127.0.0.1:3000/");
    assert!(a.has(C::LoopbackHttp) && !a.has(C::InsecureHttp));
}

#[test]
fn userinfo_warns_and_the_real_host_is_reported() {
    let a = assert_warns("https://google.com@evil.com/", C::Userinfo);
    assert_eq!(a.host_ascii.as_deref(), Some("evil.com"));
    assert_eq!(a.registrable_domain.as_deref(), Some("evil.com"));
    let msg = &a.finding(C::Userinfo).unwrap().message;
    assert!(
        msg.contains("google.com@") && msg.contains("evil.com"),
        "{msg}"
    );
    let a = assert_warns("https://user:hunter2@example.com/", C::Userinfo);
    let msg = &a.finding(C::Userinfo).unwrap().message;
    assert!(
        msg.contains("password") && !msg.contains("hunter2"),
        "{msg}"
    );
    assert_warns("https://:secret@example.com/", C::Userinfo);
}

#[test]
fn ip_hosts_in_every_notation_warn_and_show_the_normalized_address() {
    for (input, normalized, unusual) in [
        ("http://127.0.0.1/", "127.0.0.1", false),
        ("http://0x7f.1/", "127.0.0.1", true),
        ("http://0x7f000001/", "127.0.0.1", true),
        ("http://2130706433/", "127.0.0.1", true),
        ("http://0177.0.0.1/", "127.0.0.1", true),
        ("http://017700000001/", "127.0.0.1", true),
        ("http://127.1/", "127.0.0.1", true),
        ("http://%31%32%37.0.0.1/", "127.0.0.1", true),
        ("http://１２７.０.０.１/", "127.0.0.1", true),
        (
            "https://169.254.169.254/latest/meta-data/",
            "169.254.169.254",
            false,
        ),
        ("https://[::1]/", "::1", false),
        ("https://[0:0:0:0:0:0:0:1]/", "::1", true),
        ("https://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", true),
        ("https://[::ffff:7f00:1]/", "::ffff:127.0.0.1", false),
        ("https://[2001:db8::1]:8443/", "2001:db8::1", false),
    ] {
        let a = assert_warns(input, C::IpAddress);
        assert_eq!(a.ip_address.as_deref(), Some(normalized), "{input}");
        assert_eq!(
            a.has(C::IpUnusualNotation),
            unusual,
            "{input}: {:?}",
            codes(&a)
        );
        let msg = &a.finding(C::IpAddress).unwrap().message;
        assert!(msg.contains(normalized), "{msg}");
        assert!(a.registrable_domain.is_none());
        assert_eq!(a.highlight, a.host_range, "IP hosts are highlighted whole");
    }
    let a = analyze("https://[::ffff:127.0.0.1]/");
    assert!(a.finding(C::IpAddress).unwrap().message.contains("IPv4"));
    let a = analyze("https://169.254.169.254/");
    assert!(
        a.finding(C::IpAddress)
            .unwrap()
            .message
            .contains("link-local")
    );
    let a = analyze("http://0x7f.1/");
    assert!(
        a.finding(C::IpUnusualNotation)
            .unwrap()
            .message
            .contains("0x7f.1")
    );
}

#[test]
fn punycode_warns_with_both_forms() {
    let a = assert_warns("https://xn--pple-43d.com/", C::Punycode);
    assert_eq!(a.host_ascii.as_deref(), Some("xn--pple-43d.com"));
    assert_eq!(a.host_unicode.as_deref(), Some("аpple.com"));
    let msg = &a.finding(C::Punycode).unwrap().message;
    assert!(
        msg.contains("xn--pple-43d.com") && msg.contains("аpple.com"),
        "{msg}"
    );
    // A legitimate IDN still gets the punycode warning, but no confusable one.
    let a = assert_warns("https://münchen.de/", C::Punycode);
    assert_eq!(a.host_ascii.as_deref(), Some("xn--mnchen-3ya.de"));
    assert_eq!(a.registrable_domain_unicode.as_deref(), Some("münchen.de"));
    assert!(
        !a.has(C::ConfusableHost) && !a.has(C::MixedScript),
        "{:?}",
        codes(&a)
    );
    let a = analyze("https://例え.jp/");
    assert!(a.has(C::Punycode) && !a.has(C::ConfusableHost) && !a.has(C::MixedScript));
}

#[test]
fn cyrillic_homographs_warn_as_confusable_and_mixed_script() {
    // Cyrillic 'а' (U+0430) in a Latin name: mixed script and confusable.
    let a = assert_warns("https://аpple.com/", C::ConfusableHost);
    assert!(a.has(C::MixedScript));
    assert!(
        a.finding(C::ConfusableHost)
            .unwrap()
            .message
            .contains("apple.com")
    );
    // Whole-script Cyrillic that spells a Latin word: single script, still confusable.
    let a = assert_warns("https://аррӏе.com/", C::ConfusableHost);
    assert!(!a.has(C::MixedScript), "{:?}", codes(&a));
    // Greek omicrons in google.
    assert_warns("https://gοοgle.com/", C::ConfusableHost);
    assert_warns("https://paypal.com.xn--80ak6aa92e.com/", C::Punycode);
}

#[test]
fn symbols_in_host_labels_warn() {
    let a = assert_warns("https://i❤.ws/", C::MixedScript);
    assert!(
        a.finding(C::MixedScript)
            .unwrap()
            .message
            .contains("symbols")
    );
}

#[test]
fn registrable_domain_defeats_subdomain_spoofing() {
    let a = analyze("https://accounts.google.com.evil.com/signin");
    assert_eq!(a.registrable_domain.as_deref(), Some("evil.com"));
    assert_eq!(a.highlight_parts().unwrap().1, "evil.com");
    let a = analyze("https://www.evil.co.uk/");
    assert_eq!(a.registrable_domain.as_deref(), Some("evil.co.uk"));
    assert_eq!(a.highlight_parts().unwrap().1, "evil.co.uk");
    let a = analyze("https://attacker.github.io/");
    assert_eq!(a.registrable_domain.as_deref(), Some("attacker.github.io"));
    let a = analyze("https://user@example.com:8443/x");
    assert_eq!(
        a.highlight_parts(),
        Some(("https://user@", "example.com", ":8443/x"))
    );
    let a = analyze("https://example.com./x");
    assert_eq!(
        a.highlight_parts(),
        Some(("https://", "example.com", "./x"))
    );
}

#[test]
fn hosts_without_registrable_domain_or_known_suffix_are_noted() {
    let a = analyze("https://intranet/");
    assert!(a.has(C::NoRegistrableDomain));
    assert_eq!(a.highlight_parts().unwrap().1, "intranet");
    let a = analyze("https://co.uk/");
    assert!(a.has(C::NoRegistrableDomain));
    let a = analyze("https://evil.notatld/");
    assert!(a.has(C::UnknownSuffix));
    assert_eq!(a.verdict, Verdict::Ok);
}

#[test]
fn credential_parameters_warn() {
    for input in [
        "https://example.com/cb?access_token=abc",
        "https://example.com/cb#access_token=abc&token_type=bearer",
        "https://example.com/cb#/callback?id_token=abc",
        "https://example.com/?refresh_token=abc",
        "https://example.com/?password=hunter2",
        "https://example.com/?passwd=x",
        "https://example.com/?pwd=x",
        "https://example.com/?api_key=x",
        "https://example.com/?apikey=x",
        "https://example.com/?secret=x",
        "https://example.com/?client_secret=x",
        "https://example.com/?token=x",
        "https://example.com/?session=x",
        "https://example.com/?sid=x",
        "https://bucket.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abcd",
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=abcd",
        "https://example.com/?auth=x",
        "https://maps.example.com/?key=AIzaSomething",
    ] {
        let a = assert_warns(input, C::CredentialParameter);
        let msg = &a.finding(C::CredentialParameter).unwrap().message;
        assert!(msg.contains("pre-authenticated"), "{msg}");
    }
}

#[test]
fn authorization_responses_and_token_values_warn() {
    assert_warns(
        "https://app.example.com/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
        C::AuthorizationCode,
    );
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    assert_warns(&format!("https://example.com/?x={jwt}"), C::TokenLikeValue);
    assert_warns(
        &format!("https://example.com/magic/{jwt}"),
        C::TokenLikeValue,
    );
    assert_warns(
        "https://example.com/?q=ghp_0123456789abcdefghijklmnopqrstuvwxyz",
        C::TokenLikeValue,
    );
}

#[test]
fn ordinary_parameters_do_not_warn() {
    for input in [
        "https://mcp.example.com/connect?elicitationId=42",
        "https://example.com/search?q=tokens&page=2",
        "https://example.com/?code=SAVE10",
        "https://example.com/?state=abc",
        "https://example.com/?redirect_uri=https%3A%2F%2Fexample.com&nonce=n",
        "https://example.com/?csrf_token=x&pageToken=y",
    ] {
        let a = analyze(input);
        assert_eq!(a.verdict, Verdict::Ok, "{input}: {:?}", a.warnings);
    }
}

#[test]
fn invisible_and_control_characters_in_the_input_warn() {
    let a = assert_warns("https://exa\u{200B}mple.com/", C::InvisibleCharacters);
    assert_eq!(
        a.host_ascii.as_deref(),
        Some("example.com"),
        "IDNA drops the zero-width space"
    );
    assert!(
        a.finding(C::InvisibleCharacters)
            .unwrap()
            .message
            .contains("U+200B ZERO WIDTH SPACE")
    );
    let a = assert_warns(
        "https://example.com/\u{202E}fdp.exe",
        C::InvisibleCharacters,
    );
    assert!(a.url.as_deref().unwrap().contains("%E2%80%AE"));
    assert_warns("https://exa\tmple.com/", C::ControlCharacters);
    assert_warns("https://example.com/a\nb", C::ControlCharacters);
    // Surrounding whitespace is harmless and trimmed.
    assert_eq!(analyze("  https://example.com/ \n").verdict, Verdict::Ok);
}

#[test]
fn findings_are_most_serious_first_and_verdict_is_the_maximum() {
    let a = analyze("http://user@0x7f.1:8080/?token=x");
    assert_eq!(a.verdict, Verdict::Warn);
    let sev: Vec<Severity> = a.warnings.iter().map(|f| f.severity).collect();
    let mut sorted = sev.clone();
    sorted.sort_by(|x, y| y.cmp(x));
    assert_eq!(sev, sorted);
    assert!(
        a.has(C::Userinfo)
            && a.has(C::IpAddress)
            && a.has(C::IpUnusualNotation)
            && a.has(C::CredentialParameter)
    );
}

#[test]
fn serializes_with_lowercase_verdict_and_snake_case_codes() {
    let a = analyze("https://google.com@evil.com/");
    let v = serde_json::to_value(&a).unwrap();
    assert_eq!(v["verdict"], "warn");
    assert_eq!(v["warnings"][0]["code"], "userinfo");
    assert_eq!(v["warnings"][0]["severity"], "warn");
    assert_eq!(v["registrable_domain"], "evil.com");
    assert_eq!(v["highlight"]["start"], 19); // after "https://google.com@"
    assert_eq!(
        serde_json::to_value(analyze("javascript:x")).unwrap()["verdict"],
        "block"
    );
    assert_eq!(
        serde_json::to_value(analyze("https://example.com")).unwrap()["verdict"],
        "ok"
    );
    for code in C::ALL {
        assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        assert!(
            code.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
        );
    }
}

#[test]
fn delimiter_tricks_resolve_to_the_real_host() {
    // Full-width or percent-encoded slashes inside a host are not separators: refused.
    assert_blocked("https://evil.com／google.com/", C::Unparsable);
    assert_blocked("https://evil.com%2Fgoogle.com/", C::Unparsable);
    // `#@` and `\@` leave the host alone; `%2F@` is userinfo.
    for (input, host) in [
        ("https://evil.com#@google.com", "evil.com"),
        ("https://evil.com\\@google.com", "evil.com"),
        ("https://example.com%2F@evil.com/", "evil.com"),
    ] {
        let a = analyze(input);
        assert_eq!(a.host_ascii.as_deref(), Some(host), "{input}");
        assert_eq!(a.highlight_parts().unwrap().1, host, "{input}");
    }
    assert!(analyze("https://example.com%2F@evil.com/").has(C::Userinfo));
    // A trailing dot on an IPv4 address is the normal form with a dot, not an obfuscation.
    assert!(!analyze("https://127.0.0.1./").has(C::IpUnusualNotation));
}

#[test]
fn personal_data_in_the_link_is_pointed_out_without_being_repeated() {
    for (input, what) in [
        (
            "https://example.com/connect?email=alice@example.com",
            "e-mail address",
        ),
        (
            "https://example.com/pay?card=4111111111111111",
            "payment card number",
        ),
        ("https://example.com/#/me?phone=%2B14155552671", "`phone`"),
    ] {
        let a = assert_warns(input, C::PersonalData);
        let message = a
            .warnings
            .iter()
            .find(|w| w.code == C::PersonalData)
            .map(|w| w.message.clone())
            .unwrap_or_default();
        assert!(message.contains(what), "{input}: {message}");
        for value in ["alice", "4111", "4155552671"] {
            assert!(!message.contains(value), "{input}: {message}");
        }
    }
    // Ordinary ids are not personal data.
    let a = analyze("https://shop.example/orders/1098765432109876543?mobile=1");
    assert!(!a.has(C::PersonalData), "{:?}", a.warnings);
}
