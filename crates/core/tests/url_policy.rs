//! Server-side URL policy: what a server may send in a URL-mode elicitation.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};

#[track_caller]
fn refused(input: &str, policy: &ServerUrlPolicy, rule: &str) {
    match check_server_url(input, policy) {
        Ok(u) => panic!("{input:?} was accepted as {u}"),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::InvalidUrl, "{input:?}");
            assert_eq!(e.pointer(), "/url");
            assert!(
                e.message().contains(rule),
                "{input:?}: expected rule {rule}, got {}",
                e.message()
            );
        }
    }
}

#[test]
fn default_policy_is_strict_but_allows_loopback_http() {
    let p = ServerUrlPolicy::default();
    assert!(p.allow_loopback_http);
    for ok in [
        "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        "https://mcp.example.com/ui/set_api_key",
        "https://example.com:8443/x#section",
        "https://münchen.de/",
        "http://localhost:8080/cb",
        "http://127.0.0.1:3000/",
        "http://127.10.0.1/",
        "http://[::1]:9000/",
        "https://203.0.113.7/",
    ] {
        let url = check_server_url(ok, &p).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert!(url.scheme() == "https" || url.scheme() == "http");
    }
}

#[test]
fn https_only_outside_loopback() {
    let p = ServerUrlPolicy::default();
    refused("http://mcp.example.com/", &p, "https_only");
    refused("http://localhost.evil.com/", &p, "https_only");
    refused("http://10.0.0.1/", &p, "https_only");
    refused("http://[::ffff:127.0.0.1]/", &p, "https_only");
    let strict = ServerUrlPolicy::https_only();
    refused("http://localhost:8080/", &strict, "https_only");
    refused(
        "http://127.0.0.1/",
        &ServerUrlPolicy {
            allow_loopback_http: false,
        },
        "https_only",
    );
    assert!(check_server_url("https://localhost/", &strict).is_ok());
}

#[test]
fn non_web_schemes_are_refused() {
    let p = ServerUrlPolicy::default();
    for input in [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "ftp://example.com/",
        "myapp://x",
        "blob:https://a.com/x",
    ] {
        refused(input, &p, "https_only");
    }
}

#[test]
fn relative_and_unparsable_urls_are_refused() {
    let p = ServerUrlPolicy::default();
    refused("/connect", &p, "absolute_url");
    refused("mcp.example.com/connect", &p, "absolute_url");
    refused("https://", &p, "absolute_url");
    refused("", &p, "absolute_url");
    refused("https://xn--zz.com/", &p, "absolute_url");
}

#[test]
fn whitespace_control_and_invisible_characters_are_refused() {
    let p = ServerUrlPolicy::default();
    for input in [
        " https://example.com/",
        "https://example.com/\n",
        "java\nscript:alert(1)",
        "https://exa\tmple.com/",
        "https://exa\u{200B}mple.com/",
        "https://example.com/\u{202E}gpj.exe",
        "https://example.com/\u{00A0}",
    ] {
        refused(input, &p, "no_whitespace_or_control");
    }
}

#[test]
fn userinfo_is_refused() {
    let p = ServerUrlPolicy::default();
    refused("https://google.com@evil.com/", &p, "no_userinfo");
    refused("https://user:pass@example.com/", &p, "no_userinfo");
    refused("https://:pass@example.com/", &p, "no_userinfo");
    refused("http://user@localhost/", &p, "no_userinfo");
}

#[test]
fn unusual_ip_notations_are_refused() {
    let p = ServerUrlPolicy::default();
    for input in [
        "http://0x7f.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "https://%31%32%37.0.0.1/",
        "https://[0:0:0:0:0:0:0:1]/",
    ] {
        refused(input, &p, "canonical_ip");
    }
}

#[test]
fn confusable_hosts_are_refused() {
    let p = ServerUrlPolicy::default();
    refused("https://аpple.com/", &p, "no_confusable_host");
    refused("https://xn--pple-43d.com/", &p, "no_confusable_host");
    refused("https://gοοgle.com/", &p, "no_confusable_host");
    refused("https://i❤.ws/", &p, "no_confusable_host");
}

#[test]
fn credentials_and_pre_authenticated_links_are_refused() {
    let p = ServerUrlPolicy::default();
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    for input in [
        "https://example.com/?access_token=x".to_owned(),
        "https://example.com/#access_token=x&token_type=bearer".to_owned(),
        "https://example.com/?apiKey=x".to_owned(),
        "https://example.com/?X-Amz-Signature=abc".to_owned(),
        "https://example.com/?session_id=abc".to_owned(),
        "https://example.com/?password=x".to_owned(),
        "https://example.com/cb?code=abc&state=xyz".to_owned(),
        format!("https://example.com/?t={jwt}"),
        format!("https://example.com/reset/{jwt}"),
    ] {
        refused(&input, &p, "no_credentials");
    }
    let err = check_server_url("https://example.com/?access_token=hunter2", &p).unwrap_err();
    assert!(
        !err.message().contains("hunter2"),
        "the credential itself is not echoed"
    );
}

#[test]
fn length_limit() {
    let p = ServerUrlPolicy::default();
    let long = format!("https://example.com/{}", "a".repeat(2000));
    refused(&long, &p, "max_length");
    // Short as written, long once percent-encoded (found by the fuzzer).
    let encoded = format!("https://example.com/{}", "é".repeat(700));
    assert!(encoded.len() < 2000);
    refused(&encoded, &p, "max_length");
    let fine = format!("https://example.com/{}", "a".repeat(1900));
    assert!(check_server_url(&fine, &p).is_ok());
}
