//! The elicitation state machine: the full transition table, both modes.

use mcp_elicit_core::ErrorKind;
use mcp_elicit_core::lifecycle::{Event, State};
use mcp_elicit_core::message::{Action, Mode};

/// The expected table, written out independently of the implementation.
fn expected(mode: Mode, state: State, event: Event) -> Option<State> {
    use Event::*;
    use State::*;
    match (mode, state, event) {
        (Mode::Form, Pending, Accept) => Some(Accepted),
        (Mode::Form, Pending, Decline) => Some(Declined),
        (Mode::Form, Pending, Cancel) => Some(Cancelled),
        (Mode::Form, Pending, Expire) => Some(Expired),
        (Mode::Url, Pending, Accept) => Some(Accepted),
        (Mode::Url, Pending, Decline) => Some(Declined),
        (Mode::Url, Pending, Cancel) => Some(Cancelled),
        (Mode::Url, Pending, Expire) => Some(Expired),
        (Mode::Url, Pending, Complete) => Some(Completed),
        (Mode::Url, Accepted, Complete) => Some(Completed),
        (Mode::Url, Accepted, Decline) => Some(Declined),
        (Mode::Url, Accepted, Cancel) => Some(Cancelled),
        (Mode::Url, Accepted, Expire) => Some(Expired),
        _ => None,
    }
}

#[test]
fn exhaustive_transition_table() {
    let mut allowed = 0;
    for mode in Mode::ALL {
        for state in State::ALL {
            for event in Event::ALL {
                match (state.apply(mode, event), expected(mode, state, event)) {
                    (Ok(next), Some(want)) => {
                        assert_eq!(next, want, "{mode} {state} --{event}-->");
                        allowed += 1;
                    }
                    (Err(e), None) => {
                        assert_eq!(e.kind(), ErrorKind::InvalidTransition);
                        assert!(e.message().contains(event.as_str()), "{e}");
                        assert!(e.message().contains(mode.as_str()), "{e}");
                    }
                    (got, want) => panic!("{mode} {state} --{event}--> got {got:?}, want {want:?}"),
                }
            }
        }
    }
    assert_eq!(allowed, 13);
}

#[test]
fn terminal_states_accept_no_event() {
    for mode in Mode::ALL {
        for state in State::ALL {
            let any_allowed = Event::ALL.into_iter().any(|e| state.apply(mode, e).is_ok());
            assert_eq!(state.is_terminal(mode), !any_allowed, "{mode} {state}");
        }
    }
    assert!(State::Accepted.is_terminal(Mode::Form));
    assert!(!State::Accepted.is_terminal(Mode::Url));
    assert!(!State::Pending.is_terminal(Mode::Url));
    assert!(State::Completed.is_terminal(Mode::Url));
}

#[test]
fn spec_flows() {
    // Form: answer accepted, nothing after.
    let s = State::Pending
        .apply(Mode::Form, Action::Accept.into())
        .unwrap();
    assert_eq!(s, State::Accepted);
    assert!(
        s.apply(Mode::Form, Event::Accept).is_err(),
        "accept a form twice"
    );
    assert!(s.apply(Mode::Form, Event::Complete).is_err());
    assert!(
        State::Pending.apply(Mode::Form, Event::Complete).is_err(),
        "forms never complete"
    );

    // URL: consent, then the out-of-band completion; a duplicate notification is refused.
    let s = State::Pending.apply(Mode::Url, Event::Accept).unwrap();
    let s = s.apply(Mode::Url, Event::Complete).unwrap();
    assert_eq!(s, State::Completed);
    let err = s.apply(Mode::Url, Event::Complete).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidTransition);
    assert!(err.message().contains("already completed"), "{err}");

    // -32042 flow: no elicitation/create answer, completion straight from pending.
    assert_eq!(
        State::Pending.apply(Mode::Url, Event::Complete).unwrap(),
        State::Completed
    );

    // A declined URL elicitation cannot complete later.
    let s = State::Pending
        .apply(Mode::Url, Action::Decline.into())
        .unwrap();
    assert!(s.apply(Mode::Url, Event::Complete).is_err());
    let s = State::Pending
        .apply(Mode::Url, Action::Cancel.into())
        .unwrap();
    assert_eq!(s, State::Cancelled);
}

#[test]
fn names_round_trip() {
    for state in State::ALL {
        assert_eq!(State::parse(state.as_str()).unwrap(), state);
        assert_eq!(
            serde_json::to_value(state).unwrap(),
            serde_json::json!(state.as_str())
        );
        assert_eq!(state.to_string(), state.as_str());
    }
    for event in Event::ALL {
        assert_eq!(Event::parse(event.as_str()).unwrap(), event);
        assert_eq!(
            serde_json::to_value(event).unwrap(),
            serde_json::json!(event.as_str())
        );
    }
    let err = State::parse("Pending").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert!(State::parse("").is_err());
    assert!(Event::parse("completed").is_err());
}
