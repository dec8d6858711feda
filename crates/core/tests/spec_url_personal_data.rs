//! client/elicitation.mdx, "Safe URL Handling", servers rule 1: servers MUST NOT include
//! sensitive information about the end-user (credentials, personal identifiable
//! information) in the URL sent in a URL elicitation request. Credentials are covered in
//! `url_policy.rs`; this file tries to slip an e-mail address past the server policy.

use mcp_elicit_core::error::ErrorKind;
use mcp_elicit_core::url_safety::{ServerUrlPolicy, check_server_url};

#[test]
fn e_mail_addresses_anywhere_in_the_url_are_refused_without_being_echoed() {
    let p = ServerUrlPolicy::default();
    for input in [
        "https://example.com/connect?email=alice%40example.com",
        "https://example.com/connect?user=alice@example.com&elicitationId=abc",
        "https://example.com/u/alice.smith@example.co.uk/connect",
        "https://example.com/u/alice%2Bwork%40example.com",
        "https://example.com/#/connect?email=alice@example.com",
        "http://localhost:8080/connect?login=alice@example.com",
    ] {
        let err = check_server_url(input, &p).expect_err(input);
        assert_eq!(err.kind(), ErrorKind::InvalidUrl, "{input}");
        assert_eq!(err.pointer(), "/url", "{input}");
        assert!(
            err.message().contains("no_personal_data"),
            "{input}: {}",
            err.message()
        );
        assert!(
            !err.message().contains("alice"),
            "the address itself is not echoed: {}",
            err.message()
        );
    }
}

#[test]
fn at_signs_that_are_not_addresses_are_allowed() {
    let p = ServerUrlPolicy::default();
    for input in [
        "https://mastodon.example/@alice/109",
        "https://cdn.example.com/npm/react@18.2.0/index.js",
        "https://cdn.example.com/npm/pkg@latest/dist/x.js",
        "https://example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        "https://example.com/search?q=a@b",
    ] {
        assert!(check_server_url(input, &p).is_ok(), "{input}");
    }
}
