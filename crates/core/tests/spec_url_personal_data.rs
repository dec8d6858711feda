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

#[test]
fn personal_parameters_and_card_numbers_are_refused_without_being_echoed() {
    let p = ServerUrlPolicy::default();
    for input in [
        "https://example.com/connect?elicitationId=abc&phone=%2B14155552671",
        "https://example.com/connect?customer_phone=4155552671",
        "https://example.com/connect?Last-Name=Smithson",
        "https://example.com/connect?dob=1990-04-01",
        "https://example.com/connect?user%5Bssn%5D=078051120",
        "https://example.com/#/pay?iban=DE89370400440532013000",
        "https://example.com/pay?card=4111111111111111",
        "https://example.com/pay/4111-1111-1111-1111/confirm",
        "https://example.com/pay?x=1#card%3D5500%200000%200000%200004",
        "http://localhost:8080/confirm?amex=378282246310005",
    ] {
        let err = check_server_url(input, &p).expect_err(input);
        assert_eq!(err.kind(), ErrorKind::InvalidUrl, "{input}");
        assert_eq!(err.pointer(), "/url", "{input}");
        let message = err.message();
        assert!(message.contains("no_personal_data"), "{input}: {message}");
        for value in [
            "4155552671",
            "Smithson",
            "1990",
            "078051120",
            "DE89",
            "4111",
            "5500",
            "3782",
        ] {
            assert!(
                !message.contains(value),
                "the value is not echoed: {message}"
            );
        }
    }
}

#[test]
fn ordinary_ids_and_parameters_are_not_taken_for_personal_data() {
    let p = ServerUrlPolicy::default();
    for input in [
        // The spec's own connect URL, with the kinds of ids servers put there.
        "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
        "https://mcp.example.com/connect?elicitationId=9f86d081884c7d659a2feaa0c55ad015",
        "https://discord.example/channels/1098765432109876543/1234567890123456789",
        "https://shop.example/orders/20261201123456?mobile=1&page=2&lang=en",
        "https://example.com/pay?amount=4111&currency=EUR&ref=a4111111111111111b",
        "https://example.com/pay?card=4111111111111112",
        "https://example.com/profile?name=settings&verify_email=true&phone=",
    ] {
        assert!(
            check_server_url(input, &p).is_ok(),
            "{input}: {:?}",
            check_server_url(input, &p).err()
        );
    }
}
