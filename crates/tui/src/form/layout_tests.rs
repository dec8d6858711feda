//! What a person sees of a form at 80x24 and 120x40: the focused element and every
//! action button on screen (whole, not cut, not wrapped) at every focus stop, also for
//! hostile forms (a 10,000-character message, 200 fields, titles of combining marks).

use mcp_elicit_core::Schema;
use ratatui::crossterm::event::KeyCode;
use serde_json::{Map, Value, json};

use super::{Focus, FormOutcome, FormPurpose, FormState, FormStep};
use crate::testutil::{
    assert_buttons, assert_focused_button, assert_focused_row, assert_has, ctrl, focus_markers,
    key, screen, server,
};

const EDIT_BUTTONS: [&str; 3] = [
    "Review & submit (Ctrl-S)",
    "Decline (Ctrl-D)",
    "Cancel (Esc)",
];

fn form_with(message: &str, schema: Value) -> FormState {
    FormState::new(
        server(),
        FormPurpose::Elicitation {
            message: message.into(),
        },
        Schema::parse(&schema).expect("valid schema"),
    )
}

/// The reference server's `demo_form` shape: text, e-mail, date, number, integer, a
/// choice, several checkboxes and a boolean.
fn demo_form() -> FormState {
    form_with(
        "Tell us about yourself",
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "default": "octo-cat", "minLength": 2},
                "email": {"type": "string", "title": "E-mail", "format": "email"},
                "birthday": {"type": "string", "title": "Birthday", "format": "date"},
                "height": {"type": "number", "title": "Height (m)", "minimum": 0.5, "maximum": 2.5},
                "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
                "colour": {"type": "string", "title": "Favourite colour", "enum": ["Red", "Green", "Blue"], "default": "Green"},
                "roles": {"type": "array", "title": "Roles", "items": {"anyOf": [
                    {"const": "dev", "title": "Developer"},
                    {"const": "ops", "title": "Operations"},
                    {"const": "pro", "title": "Professional"}
                ]}},
                "newsletter": {"type": "boolean", "title": "Newsletter", "default": false}
            },
            "required": ["email", "age"]
        }),
    )
}

fn draw(f: &mut FormState, w: u16, h: u16) -> Vec<String> {
    screen(w, h, |area, buf| {
        f.render(area, buf);
    })
}

fn rows_fit(s: &[String], w: u16) {
    for (i, l) in s.iter().enumerate() {
        // Display columns (combining marks take none); never print a hostile row whole.
        assert!(
            crate::text::width(l) <= usize::from(w),
            "row {i} is {} columns wide, more than {w}",
            crate::text::width(l)
        );
    }
}

/// Walks every focus stop with ↓ and checks, at each, that the focused element and all
/// the buttons are visible.
fn walk(f: &mut FormState, w: u16, h: u16) {
    let stops = f.stops().len();
    for step in 0..=stops {
        let s = draw(f, w, h);
        rows_fit(&s, w);
        assert_buttons(&s, &EDIT_BUTTONS, w);
        match f.focus {
            Focus::Button(_) => {
                let name = match f.focus {
                    Focus::Button(super::Button::Submit) => EDIT_BUTTONS[0],
                    Focus::Button(super::Button::Decline) => EDIT_BUTTONS[1],
                    _ => EDIT_BUTTONS[2],
                };
                assert_focused_button(&s, name, w);
            }
            Focus::Field { .. } => assert_eq!(
                focus_markers(&s),
                1,
                "stop {step}: the focused field is not on screen:\n{}",
                s.join("\n")
            ),
        }
        f.handle_key(key(KeyCode::Down));
    }
}

#[test]
fn every_stop_of_demo_form_is_visible_with_the_buttons_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        walk(&mut demo_form(), w, h);
    }
}

#[test]
fn tab_past_the_last_field_lands_on_a_visible_submit_button() {
    let mut f = demo_form();
    for _ in 0..8 {
        f.handle_key(key(KeyCode::Tab));
    }
    let s = draw(&mut f, 80, 24);
    assert_focused_button(&s, "Review & submit (Ctrl-S)", 80);
    f.handle_key(key(KeyCode::Tab));
    assert_focused_button(&draw(&mut f, 80, 24), "Decline (Ctrl-D)", 80);
}

#[test]
fn the_server_message_and_the_first_field_show_first_despite_long_warnings() {
    let mut f = form_with(
        "Please sign in to continue",
        json!({"type": "object", "properties": {"user": {"type": "string", "title": "User"}}}),
    );
    f.set_warnings(
        (0..6)
            .map(|i| {
                format!(
                    "Field number {i} looks like a password, an API key or a token; {}",
                    "really ".repeat(12)
                )
            })
            .collect(),
        vec![],
    );
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "Please sign in to continue");
    assert_has(
        &s,
        "Warning: this form looks like it asks for a secret (6 findings",
    );
    assert_focused_row(&s, "[");
    assert_buttons(&s, &EDIT_BUTTONS, 80);
}

fn review_buttons(s: &[String], w: u16) {
    assert_buttons(
        s,
        &[
            "Send (Enter)",
            "Back (Esc)",
            "Decline (Ctrl-D)",
            "Cancel (Ctrl-C)",
        ],
        w,
    );
}

#[test]
fn review_buttons_are_pinned_and_esc_goes_back_on_every_review() {
    let mut f = demo_form();
    f.set_values(&Map::from_iter([
        ("email".to_string(), json!("octo@example.com")),
        ("age".to_string(), json!(42)),
    ]));
    f.handle_key(ctrl('s'));
    assert_eq!(f.step(), FormStep::Review);
    let s = draw(&mut f, 80, 24);
    review_buttons(&s, 80);
    assert_focused_button(&s, "Send (Enter)", 80);
    // Esc is Back, never cancel, on the review.
    assert_eq!(f.handle_key(key(KeyCode::Esc)), None);
    assert_eq!(f.step(), FormStep::Edit);
    f.handle_key(ctrl('s'));
    // Tab to Back, Enter: back to editing too.
    f.handle_key(key(KeyCode::Tab));
    assert_focused_button(&draw(&mut f, 80, 24), "Back (Esc)", 80);
    assert_eq!(f.handle_key(key(KeyCode::Enter)), None);
    assert_eq!(f.step(), FormStep::Edit);
    // Cancel has its own key.
    f.handle_key(ctrl('s'));
    assert_eq!(f.handle_key(ctrl('c')), Some(FormOutcome::Cancel));

    // The same on the tool-argument review.
    let mut t = FormState::new(
        server(),
        FormPurpose::ToolArguments {
            tool: "weather".into(),
            description: None,
        },
        Schema::parse(&json!({"type": "object", "properties": {"city": {"type": "string", "default": "Paris"}}}))
            .expect("schema"),
    );
    t.handle_key(ctrl('s'));
    let s = draw(&mut t, 80, 24);
    assert_buttons(&s, &["Run tool (Enter)", "Back (Esc)"], 80);
    assert_eq!(t.handle_key(key(KeyCode::Esc)), None);
    assert_eq!(t.step(), FormStep::Edit);
}

#[test]
fn the_last_line_of_a_long_review_can_be_scrolled_to() {
    let props: Map<String, Value> = (0..40)
        .map(|i| {
            (
                format!("f{i:02}"),
                json!({"type": "string", "default": format!("v{i}")}),
            )
        })
        .collect();
    let mut f = form_with("Many", json!({"type": "object", "properties": props}));
    f.handle_key(ctrl('s'));
    for _ in 0..200 {
        f.handle_key(key(KeyCode::Down));
    }
    let s = draw(&mut f, 80, 24);
    assert!(s.iter().any(|l| l.trim() == "}"), "{}", s.join("\n"));
    review_buttons(&s, 80);
}

#[test]
fn a_ten_thousand_character_message_scrolls_and_keeps_the_buttons() {
    let message = "All work and no play makes a long message. ".repeat(240);
    assert!(message.len() > 10_000);
    let mut f = form_with(
        &message,
        json!({"type": "object", "properties": {"a": {"type": "string", "title": "Answer"}}}),
    );
    walk(&mut f, 80, 24);
    // No word of the message is lost: scrolling reaches its end.
    let mut f = form_with(
        &format!("{message}THE-END"),
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
    );
    f.handle_key(key(KeyCode::Tab));
    f.scroll = 0;
    let mut seen = false;
    for _ in 0..400 {
        let s = draw(&mut f, 80, 24);
        if s.iter().any(|l| l.contains("THE-END")) {
            seen = true;
            break;
        }
        f.scroll += 5;
    }
    assert!(seen, "the end of the message is reachable");
}

#[test]
fn two_hundred_fields_are_all_reachable_with_the_buttons_visible() {
    let props: Map<String, Value> = (0..200)
        .map(|i| {
            (
                format!("field_{i:03}"),
                json!({"type": "string", "title": format!("Field {i}")}),
            )
        })
        .collect();
    let mut f = form_with(
        "A very long form",
        json!({"type": "object", "properties": props}),
    );
    walk(&mut f, 80, 24);
    // The last field, reached with Shift-Tab from the top, is on screen.
    let mut f = form_with(
        "again",
        json!({"type": "object", "properties": props_of(200)}),
    );
    for _ in 0..4 {
        f.handle_key(key(KeyCode::BackTab));
    }
    let s = draw(&mut f, 80, 24);
    assert_has(&s, "Field 199");
    assert_eq!(focus_markers(&s), 1, "{}", s.join("\n"));
}

fn props_of(n: usize) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|i| {
            (
                format!("field_{i:03}"),
                json!({"type": "string", "title": format!("Field {i}")}),
            )
        })
        .collect();
    Value::Object(props)
}

#[test]
fn titles_of_combining_marks_do_not_overlap_or_panic() {
    let zalgo: String = std::iter::once('Z')
        .chain(std::iter::repeat_n('\u{0301}', 3000))
        .collect();
    let mut f = form_with(
        &zalgo,
        json!({
            "type": "object",
            "title": zalgo,
            "properties": {
                "x": {"type": "string", "title": zalgo, "description": zalgo},
                "y": {"type": "string", "enum": ["a", "b"], "enumNames": [zalgo, zalgo]}
            }
        }),
    );
    walk(&mut f, 80, 24);
}
