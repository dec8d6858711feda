//! The message parsers never panic on arbitrary JSON, and whatever they accept
//! round-trips through `to_value`.

use mcp_elicit_core::message::{
    Capability, CompleteNotification, CreateRequest, CreateResult, UrlElicitationRequired,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Arbitrary JSON biased towards the members the parsers look at.
fn arb_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("mode".to_owned()),
        Just("message".to_owned()),
        Just("url".to_owned()),
        Just("elicitationId".to_owned()),
        Just("requestedSchema".to_owned()),
        Just("action".to_owned()),
        Just("content".to_owned()),
        Just("_meta".to_owned()),
        Just("elicitations".to_owned()),
        Just("form".to_owned()),
        "[a-z/~]{0,4}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop_oneof![
            Just("form".to_owned()),
            Just("url".to_owned()),
            Just("accept".to_owned()),
            Just("decline".to_owned()),
            Just("https://example.com/a?b=c".to_owned()),
            Just("object".to_owned()),
            Just("string".to_owned()),
            any::<String>(),
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| Value::Object(
                members.into_iter().collect::<Map<String, Value>>()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic_and_accepted_input_round_trips(value in arb_json()) {
        if let Ok(request) = CreateRequest::parse(&value) {
            let again = CreateRequest::parse(&request.to_value()).expect("own output parses");
            prop_assert_eq!(again.to_value(), request.to_value());
        }
        if let Ok(result) = CreateResult::parse(&value) {
            prop_assert_eq!(CreateResult::parse(&result.to_value()).expect("own output parses"), result);
        }
        if let Ok(n) = CompleteNotification::parse(&value) {
            prop_assert_eq!(CompleteNotification::parse(&n.to_value()).expect("own output parses"), n);
        }
        if let Ok(required) = UrlElicitationRequired::parse_data(&value) {
            prop_assert_eq!(UrlElicitationRequired::parse_data(&required.data()).expect("own output parses"), required);
        }
        if let Ok(cap) = Capability::from_value(Some(&value)) {
            prop_assert_eq!(Capability::from_value(cap.to_value().as_ref()).expect("own output parses"), cap);
        }
    }

    #[test]
    fn url_requests_with_arbitrary_strings(message in any::<String>(), url in any::<String>(), id in any::<String>()) {
        let params = json!({"mode": "url", "message": message, "url": url, "elicitationId": id});
        if let Ok(request) = CreateRequest::parse(&params) {
            prop_assert_eq!(request.to_value(), params);
        }
    }
}
