//! Arbitrary bytes as the JSON of every elicitation wire message: `elicitation/create`
//! params, results, completion params, `-32042` data and the client capability. No
//! parser may panic, and whatever one accepts must survive a round trip through its own
//! serialization, and the lifecycle must accept the result's action from `Pending`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::{
    Capability, CompleteNotification, CreateRequest, CreateResult, Mode, UrlElicitationRequired,
};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if let Ok(request) = CreateRequest::parse(&value) {
        let again = CreateRequest::parse(&request.to_value()).expect("own output parses");
        assert_eq!(again.to_value(), request.to_value());
        assert_eq!(again.mode(), request.mode());
    }
    if let Ok(result) = CreateResult::parse(&value) {
        assert_eq!(
            CreateResult::parse(&result.to_value()).expect("own output parses"),
            result
        );
        for mode in Mode::ALL {
            let _ = result.check_for(mode);
            assert!(
                State::Pending
                    .apply(mode, Event::from(result.action))
                    .is_ok()
            );
        }
    }
    if let Ok(n) = CompleteNotification::parse(&value) {
        assert_eq!(
            CompleteNotification::parse(&n.to_value()).expect("own output parses"),
            n
        );
    }
    if let Ok(required) = UrlElicitationRequired::parse_data(&value) {
        assert!(!required.elicitations().is_empty());
        assert_eq!(
            UrlElicitationRequired::parse_data(&required.data()).expect("own output parses"),
            required
        );
    }
    if let Ok(cap) = Capability::from_value(Some(&value)) {
        assert_eq!(
            Capability::from_value(cap.to_value().as_ref()).expect("own output parses"),
            cap
        );
    }
});
