//! Form screen: state-machine and rendering tests.

use mcp_elicit_core::Schema;
use ratatui::crossterm::event::KeyCode;
use serde_json::{Value, json};

use super::{FormOutcome, FormPurpose, FormState, FormStep};
use crate::testutil::{assert_has, assert_lacks, ctrl, key, screen, server, typing};

fn schema(v: Value) -> Schema {
    Schema::parse(&v).expect("test schema is valid")
}

fn form(v: Value) -> FormState {
    FormState::new(
        server(),
        FormPurpose::Elicitation {
            message: "Please provide your contact information".into(),
        },
        schema(v),
    )
}

fn contact() -> FormState {
    form(json!({
        "type": "object",
        "title": "Contact details",
        "properties": {
            "name": {"type": "string", "title": "Full name", "description": "As on your passport", "minLength": 3},
            "email": {"type": "string", "format": "email"},
            "birthday": {"type": "string", "format": "date", "title": "Birthday"},
            "age": {"type": "integer", "minimum": 18, "maximum": 130, "default": 30}
        },
        "required": ["name", "email"]
    }))
}

fn kinds() -> FormState {
    form(json!({
        "type": "object",
        "properties": {
            "subscribe": {"type": "boolean", "title": "Subscribe", "default": true},
            "color": {"type": "string", "title": "Colour", "oneOf": [
                {"const": "#FF0000", "title": "Red"},
                {"const": "#00FF00", "title": "Green"}
            ]},
            "size": {"type": "string", "enum": ["small", "large"], "default": "large"},
            "tags": {"type": "array", "title": "Tags", "minItems": 1, "maxItems": 2,
                     "items": {"anyOf": [
                        {"const": "a", "title": "Alpha"},
                        {"const": "b", "title": "Beta"},
                        {"const": "c", "title": "Gamma"}
                     ]}},
            "plain": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}}
        },
        "required": ["tags"]
    }))
}

fn draw(f: &mut FormState, w: u16, h: u16) -> Vec<String> {
    screen(w, h, |area, buf| {
        f.render(area, buf);
    })
}

fn press_all(
    f: &mut FormState,
    keys: Vec<ratatui::crossterm::event::KeyEvent>,
) -> Option<FormOutcome> {
    let mut out = None;
    for k in keys {
        out = f.handle_key(k);
        if out.is_some() {
            break;
        }
    }
    out
}

#[test]
fn header_names_the_server_and_shows_the_message_as_text() {
    let mut f = contact();
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "Form request from server: Demo Server");
    assert_has(&s, "name \"demo-server\", version 0.1.0, via");
    assert_has(&s, "stdio");
    assert_has(&s, "Please provide your contact information");
    assert_has(&s, "Contact details");
}

#[test]
fn labels_required_marks_descriptions_hints_and_defaults_show() {
    let mut f = contact();
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "Full name *");
    assert_has(&s, "email *");
    assert_has(&s, "As on your passport");
    assert_has(&s, "at least 3 characters");
    assert_has(&s, "email address, e.g. name@example.com");
    assert_has(&s, "YYYY-MM-DD");
    assert_has(&s, "whole number from 18 to 130");
    assert_has(&s, "[30 ");
    // The meaning of "*" is spelled out in words.
    assert_has(&s, "* required");
    // Birthday is optional: no star.
    assert_lacks(&s, "Birthday *");
}

#[test]
fn every_field_kind_renders_with_titles_not_values() {
    let mut f = kinds();
    let s = draw(&mut f, 80, 50);
    assert_has(&s, "[x] yes");
    assert_has(&s, "( ) Red");
    assert_has(&s, "( ) Green");
    assert_lacks(&s, "#FF0000");
    assert_has(&s, "(•) large");
    assert_has(&s, "( ) small");
    assert_has(&s, "[ ] Alpha");
    assert_has(&s, "[ ] Gamma");
    assert_has(&s, "choose 1 to 2");
    assert_has(&s, "[ ] x");
    assert_has(&s, "Tags *");
}

#[test]
fn typing_edits_the_focused_text_field() {
    let mut f = contact();
    assert_eq!(press_all(&mut f, typing("Ada Lovelace")), None);
    assert_eq!(f.content().get("name"), Some(&json!("Ada Lovelace")));
    press_all(
        &mut f,
        vec![key(KeyCode::Backspace), key(KeyCode::Backspace)],
    );
    assert_eq!(f.content().get("name"), Some(&json!("Ada Lovela")));
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "> [Ada Lovela");
}

#[test]
fn cursor_sits_in_the_focused_input() {
    let mut f = contact();
    press_all(&mut f, typing("Ada"));
    let mut pos = None;
    let s = screen(80, 24, |area, buf| pos = f.render(area, buf));
    let pos = pos.expect("a text input is focused");
    let row = &s[usize::from(pos.y)];
    assert!(row.starts_with("> [Ada"), "{row}");
    assert_eq!(pos.x, 6);
}

#[test]
fn space_toggles_booleans_and_y_n_set_them() {
    let mut f = kinds();
    assert_eq!(f.content().get("subscribe"), Some(&json!(true)));
    f.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(f.content().get("subscribe"), Some(&json!(false)));
    assert_has(&draw(&mut f, 80, 40), "[ ] no");
    f.handle_key(key(KeyCode::Char('y')));
    assert_eq!(f.content().get("subscribe"), Some(&json!(true)));
    f.handle_key(key(KeyCode::Delete));
    assert_eq!(f.content().get("subscribe"), None);
    assert_has(&draw(&mut f, 80, 40), "[ ] not set");
}

#[test]
fn selecting_a_titled_option_sends_its_value() {
    let mut f = kinds();
    // Down: Red, Down: Green, Space selects.
    press_all(
        &mut f,
        vec![
            key(KeyCode::Down),
            key(KeyCode::Down),
            key(KeyCode::Char(' ')),
        ],
    );
    assert_eq!(f.content().get("color"), Some(&json!("#00FF00")));
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "> (•) Green");
    assert_has(&s, "( ) Red");
}

#[test]
fn multi_select_ticks_in_option_order() {
    let mut f = kinds();
    // Tab to tags (subscribe → color → size → tags).
    press_all(
        &mut f,
        vec![key(KeyCode::Tab), key(KeyCode::Tab), key(KeyCode::Tab)],
    );
    press_all(
        &mut f,
        vec![key(KeyCode::Down), key(KeyCode::Down), key(KeyCode::Enter)],
    );
    press_all(
        &mut f,
        vec![key(KeyCode::Up), key(KeyCode::Up), key(KeyCode::Char(' '))],
    );
    assert_eq!(f.content().get("tags"), Some(&json!(["a", "c"])));
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "> [x] Alpha");
    assert_has(&s, "[x] Gamma");
    // An untouched optional multi-select is left out, a required one is sent.
    assert_eq!(f.content().get("plain"), None);
}

#[test]
fn submit_with_invalid_data_shows_errors_and_does_not_submit() {
    let mut f = contact();
    // Name too short, email missing.
    press_all(&mut f, typing("Al"));
    assert_eq!(f.handle_key(ctrl('s')), None);
    assert_eq!(f.step(), FormStep::Edit);
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "Not sent: 2 problems to fix");
    assert_has(&s, "Error:");
    // Enter on the Submit button also refuses.
    assert_eq!(f.handle_key(key(KeyCode::Enter)), None);
    assert_eq!(f.step(), FormStep::Edit);
}

#[test]
fn errors_of_untouched_fields_wait_until_they_are_touched() {
    let mut f = contact();
    let s = draw(&mut f, 80, 40);
    assert_lacks(&s, "Error:");
    press_all(&mut f, typing("Al"));
    let s = draw(&mut f, 80, 40);
    // Live: the short name shows its error at once, the untouched email does not.
    let errors = s.iter().filter(|l| l.contains("Error:")).count();
    assert_eq!(errors, 1, "{}", s.join("\n"));
}

#[test]
fn invalid_number_text_is_an_error_not_a_silent_omission() {
    let mut f = contact();
    press_all(&mut f, typing("Ada"));
    f.handle_key(key(KeyCode::Tab));
    press_all(&mut f, typing("ada@example.com"));
    f.handle_key(key(KeyCode::Tab));
    f.handle_key(key(KeyCode::Tab));
    // age: replace 30 by "old".
    press_all(
        &mut f,
        vec![key(KeyCode::Backspace), key(KeyCode::Backspace)],
    );
    press_all(&mut f, typing("old"));
    assert_eq!(f.handle_key(ctrl('s')), None);
    assert_eq!(f.step(), FormStep::Edit);
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "Error: \"old\" is not a whole number");
}

#[test]
fn review_shows_exact_json_and_allows_going_back() {
    let mut f = contact();
    press_all(&mut f, typing("Ada"));
    f.handle_key(key(KeyCode::Tab));
    press_all(&mut f, typing("ada@example.com"));
    assert_eq!(f.handle_key(ctrl('s')), None);
    assert_eq!(f.step(), FormStep::Review);
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "This exact JSON will be sent to Demo Server");
    assert_has(&s, "\"name\": \"Ada\",");
    assert_has(&s, "\"email\": \"ada@example.com\",");
    assert_has(&s, "\"age\": 30");
    assert_lacks(&s, "birthday");
    // Back to edit, change the name, review again, send.
    f.handle_key(key(KeyCode::Char('e')));
    assert_eq!(f.step(), FormStep::Edit);
    press_all(&mut f, vec![key(KeyCode::BackTab)]);
    press_all(&mut f, typing("!"));
    f.handle_key(ctrl('s'));
    let out = f.handle_key(key(KeyCode::Enter));
    let Some(FormOutcome::Accept(content)) = out else {
        panic!("expected accept, got {out:?}")
    };
    assert_eq!(
        Value::Object(content),
        json!({"name": "Ada!", "email": "ada@example.com", "age": 30})
    );
}

#[test]
fn esc_cancels_and_ctrl_d_declines_in_both_steps() {
    let mut f = contact();
    assert_eq!(f.handle_key(key(KeyCode::Esc)), Some(FormOutcome::Cancel));
    let mut f = contact();
    assert_eq!(f.handle_key(ctrl('d')), Some(FormOutcome::Decline));
    let mut f = contact();
    assert_eq!(f.handle_key(ctrl('c')), Some(FormOutcome::Cancel));
    let mut f = kinds();
    press_all(&mut f, vec![key(KeyCode::Tab); 3]);
    press_all(&mut f, vec![key(KeyCode::Char(' '))]);
    f.handle_key(ctrl('s'));
    assert_eq!(f.step(), FormStep::Review);
    assert_eq!(f.handle_key(ctrl('d')), Some(FormOutcome::Decline));
    f.handle_key(key(KeyCode::Esc));
    assert_eq!(
        f.clone().handle_key(key(KeyCode::Esc)),
        Some(FormOutcome::Cancel)
    );
}

#[test]
fn decline_and_cancel_buttons_work_from_the_keyboard() {
    let mut f = contact();
    // Shift-Tab from the first field wraps to the last button (Cancel).
    assert_eq!(f.handle_key(key(KeyCode::BackTab)), None);
    assert_eq!(f.handle_key(key(KeyCode::Enter)), Some(FormOutcome::Cancel));
    let mut f = contact();
    press_all(&mut f, vec![key(KeyCode::BackTab), key(KeyCode::BackTab)]);
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "> < Decline (Ctrl-D) >");
    assert_eq!(
        f.handle_key(key(KeyCode::Enter)),
        Some(FormOutcome::Decline)
    );
}

#[test]
fn tool_argument_forms_have_no_decline() {
    let mut f = FormState::new(
        server(),
        FormPurpose::ToolArguments {
            tool: "book_table".into(),
            description: Some("Books a table".into()),
        },
        schema(json!({"type": "object", "properties": {"guests": {"type": "integer"}}})),
    );
    assert_eq!(f.handle_key(ctrl('d')), None);
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "Tool arguments from server: Demo Server");
    assert_has(&s, "Tool: book_table");
    assert_lacks(&s, "Decline");
}

#[test]
fn long_forms_scroll_to_keep_the_focused_field_visible() {
    let mut props = serde_json::Map::new();
    for i in 0..20 {
        props.insert(
            format!("field{i:02}"),
            json!({"type": "string", "description": format!("Description {i}")}),
        );
    }
    let mut f = form(json!({"type": "object", "properties": props}));
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "field00");
    assert_has(&s, "↓ more below");
    for _ in 0..19 {
        f.handle_key(key(KeyCode::Tab));
    }
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "field19");
    assert_has(&s, "Description 19");
    assert_has(&s, "> [");
    assert_lacks(&s, "field00");
    assert_has(&s, "↑ more above");
}

#[test]
fn hostile_text_cannot_reach_the_terminal() {
    let mut f = FormState::new(
        server(),
        FormPurpose::Elicitation {
            message: "Hi\u{1b}[2J\u{1b}]8;;https://evil.example\u{7}click\u{202E}txt.exe".into(),
        },
        schema(json!({"type": "object", "properties": {
            "x": {"type": "string", "title": "Na\u{1b}[31mme", "default": "a\u{9b}b"}
        }})),
    );
    let s = draw(&mut f, 80, 24);
    for l in &s {
        assert!(
            !l.chars().any(|c| c.is_control() || c == '\u{202E}'),
            "control character on screen: {l:?}"
        );
    }
    assert_has(&s, "\\u{1B}[2J");
    assert_has(&s, "\\u{202E}");
}

#[test]
fn tiny_and_resized_terminals_draw_without_panicking() {
    for (w, h) in [(1, 1), (10, 3), (20, 5), (80, 24), (200, 60)] {
        let mut f = kinds();
        let _ = draw(&mut f, w, h);
        f.handle_key(ctrl('s'));
        let _ = draw(&mut f, w, h);
    }
}

#[test]
fn empty_schema_can_still_be_submitted() {
    let mut f = form(json!({"type": "object", "properties": {}}));
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "This form has no fields.");
    f.handle_key(ctrl('s'));
    assert_eq!(f.step(), FormStep::Review);
    assert_eq!(
        f.handle_key(key(KeyCode::Enter)),
        Some(FormOutcome::Accept(Default::default()))
    );
}

#[test]
fn stop_asking_toggle_turns_decline_into_stop_asking() {
    let mut f = contact();
    assert_has(&draw(&mut f, 80, 24), "[ ] Stop asking this server");
    assert_eq!(f.handle_key(ctrl('t')), None);
    assert!(f.stop_asking());
    assert_has(&draw(&mut f, 80, 24), "[x] Stop asking this server");
    assert_eq!(
        f.clone().handle_key(ctrl('d')),
        Some(FormOutcome::StopAsking)
    );
    // Cancel stays cancel.
    assert_eq!(f.handle_key(key(KeyCode::Esc)), Some(FormOutcome::Cancel));
}

#[test]
fn previous_values_and_errors_are_shown_again() {
    let mut f = contact();
    let values = json!({"name": "Al", "email": "not-an-email", "age": "wrong type"});
    let Value::Object(values) = values else {
        unreachable!()
    };
    f.set_values(&values);
    f.show_previous_errors(&["\"name\": must be at least 3 characters long".into()]);
    assert_eq!(f.content().get("name"), Some(&json!("Al")));
    assert_eq!(
        f.content().get("age"),
        Some(&json!(30)),
        "wrong-typed value ignored"
    );
    let s = draw(&mut f, 80, 40);
    assert_has(&s, "Your last answer was not accepted");
    assert_has(&s, "[Al ");
    assert!(
        s.iter().filter(|l| l.contains("Error:")).count() >= 2,
        "{}",
        s.join("\n")
    );
}
