//! Tool arguments: the form screen when the tool's `inputSchema` fits the flat form
//! subset, else a raw JSON editor.

use mcp_elicit_core::Schema;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Position, Rect};
use serde_json::{Map, Value};

use crate::form::{FormOutcome, FormPurpose, FormState};
use crate::json_editor::{JsonEditor, JsonOutcome};
use crate::server::ServerIdentity;
use crate::text;

/// What the arguments screen produced.
///
/// ```
/// # use mcp_elicit_tui::keys::press;
/// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
/// # let key = |code| press(code, KeyModifiers::NONE);
/// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_tui::{ArgsOutcome, ArgsState};
/// # use serde_json::json;
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// let mut args = ArgsState::new(server, "weather", None, &schema);
/// for c in "Paris".chars() {
///     args.handle_key(key(KeyCode::Char(c)));
/// }
/// assert_eq!(args.handle_key(ctrl('s')), None); // the review step
/// let Some(ArgsOutcome::Run(arguments)) = args.handle_key(key(KeyCode::Enter)) else {
///     panic!("expected the call")
/// };
/// assert_eq!(arguments, *json!({"city": "Paris"}).as_object().unwrap());
/// // Esc on the review goes back to editing; Esc there leaves for the tool list.
/// assert_eq!(args.handle_key(key(KeyCode::Esc)), None);
/// assert_eq!(args.handle_key(key(KeyCode::Esc)), Some(ArgsOutcome::Back));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ArgsOutcome {
    /// Call the tool with these arguments.
    Run(Map<String, Value>),
    /// Go back to the tool list.
    Back,
}

/// The arguments screen: a form or a JSON editor.
///
/// ```
/// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
/// # use mcp_elicit_tui::ArgsState;
/// # use serde_json::json;
/// let flat = json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// let nested = json!({"type": "object", "properties": {"filter": {"type": "object"}}});
/// assert!(matches!(ArgsState::new(server.clone(), "weather", None, &flat), ArgsState::Form(_)));
/// let ArgsState::Json { reason, .. } = ArgsState::new(server, "search", None, &nested) else {
///     panic!("a nested schema gets the JSON editor")
/// };
/// assert!(reason.starts_with("Its input schema is not a flat form ("));
/// assert!(reason.ends_with("enter the arguments as JSON."));
/// ```
#[derive(Debug, Clone)]
pub enum ArgsState {
    /// The schema fits the flat subset.
    Form(Box<FormState>),
    /// It does not; `reason` says why, shown above the editor.
    Json {
        /// The editor.
        editor: JsonEditor,
        /// The tool name.
        tool: String,
        /// Why a form could not be used.
        reason: String,
    },
}

impl ArgsState {
    /// The arguments screen for `tool` with `input_schema`.
    ///
    /// ```
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # fn screen(s: &mut mcp_elicit_tui::ArgsState, w: u16, h: u16) -> String {
    /// #     let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    /// #     let _ = s.render(buf.area, &mut buf);
    /// #     (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n").collect()
    /// # }
    /// # use mcp_elicit_tui::ArgsState;
    /// # use serde_json::json;
    /// let flat = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    /// let mut form = ArgsState::new(server.clone(), "weather", Some("Gets the weather"), &flat);
    /// let s = screen(&mut form, 80, 24);
    /// assert!(s.contains("Tool: weather") && s.contains("city *"));
    ///
    /// let nested = json!({"type": "object", "properties": {"filter": {"type": "object"}}});
    /// let mut editor = ArgsState::new(server, "search", None, &nested);
    /// let s = screen(&mut editor, 80, 24);
    /// assert!(s.contains("Arguments for tool \"search\""));
    /// assert!(s.contains("  1  {")); // the editor starts with an empty object
    /// ```
    pub fn new(
        server: ServerIdentity,
        tool: &str,
        description: Option<&str>,
        input_schema: &Value,
    ) -> Self {
        match Schema::parse(input_schema) {
            Ok(schema) => Self::Form(Box::new(FormState::new(
                server,
                FormPurpose::ToolArguments {
                    tool: tool.to_string(),
                    description: description.map(str::to_string),
                },
                schema,
            ))),
            Err(errors) => {
                let first = errors.first().to_string();
                Self::Json {
                    editor: JsonEditor::new("{\n  \n}"),
                    tool: tool.to_string(),
                    reason: format!(
                        "Its input schema is not a flat form ({first}); enter the arguments as JSON."
                    ),
                }
            }
        }
    }

    /// Handles a key.
    ///
    /// ```
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::{ArgsOutcome, ArgsState};
    /// # use serde_json::json;
    /// // The JSON editor starts as "{", "  ", "}" with the cursor at the start: go down a
    /// // line and type a member.
    /// let nested = json!({"type": "object", "properties": {"filter": {"type": "object"}}});
    /// let mut args = ArgsState::new(server, "search", None, &nested);
    /// args.handle_key(key(KeyCode::Down));
    /// for c in r#""filter": {"kind": "pdf"}"#.chars() {
    ///     args.handle_key(key(KeyCode::Char(c)));
    /// }
    /// let Some(ArgsOutcome::Run(arguments)) = args.handle_key(ctrl('s')) else {
    ///     panic!("expected the call")
    /// };
    /// assert_eq!(arguments, *json!({"filter": {"kind": "pdf"}}).as_object().unwrap());
    /// ```
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<ArgsOutcome> {
        match self {
            Self::Form(f) => match f.handle_key(key)? {
                FormOutcome::Accept(m) => Some(ArgsOutcome::Run(m)),
                _ => Some(ArgsOutcome::Back),
            },
            Self::Json { editor, .. } => match editor.handle_key(key)? {
                JsonOutcome::Submit(m) => Some(ArgsOutcome::Run(m)),
                JsonOutcome::Back => Some(ArgsOutcome::Back),
            },
        }
    }

    /// Draws the screen; returns the cursor position.
    ///
    /// ```
    /// # let server = mcp_elicit_tui::ServerIdentity { name: "demo".into(), ..Default::default() };
    /// # use mcp_elicit_tui::keys::press;
    /// # use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    /// # let key = |code| press(code, KeyModifiers::NONE);
    /// # let ctrl = |c| press(KeyCode::Char(c), KeyModifiers::CONTROL);
    /// # use mcp_elicit_tui::ArgsState;
    /// # use ratatui::{buffer::Buffer, layout::Rect};
    /// # use serde_json::json;
    /// let flat = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// let mut args = ArgsState::new(server, "weather", None, &flat);
    /// args.handle_key(key(KeyCode::Char('X')));
    /// let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    /// let cursor = args.render(buf.area, &mut buf).expect("the text input has the focus");
    /// assert_eq!(buf[(cursor.x - 1, cursor.y)].symbol(), "X"); // just after what was typed
    /// ```
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Position> {
        match self {
            Self::Form(f) => f.render(area, buf),
            Self::Json {
                editor,
                tool,
                reason,
            } => {
                let title = format!(
                    "Arguments for tool \"{}\". {}",
                    text::one_line(tool),
                    reason
                );
                editor.render(&title, area, buf)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_has, ctrl, key, screen, server, typing};
    use ratatui::crossterm::event::KeyCode;
    use serde_json::json;

    #[test]
    fn flat_schemas_get_a_form() {
        let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
        let mut a = ArgsState::new(server(), "weather", Some("Gets the weather"), &schema);
        assert!(matches!(a, ArgsState::Form(_)));
        let s = screen(80, 24, |ar, b| {
            a.render(ar, b);
        });
        assert_has(&s, "Tool: weather");
        assert_has(&s, "city *");
        for k in typing("Paris") {
            a.handle_key(k);
        }
        assert_eq!(a.handle_key(ctrl('s')), None);
        let Some(ArgsOutcome::Run(m)) = a.handle_key(key(KeyCode::Enter)) else {
            panic!("expected run")
        };
        assert_eq!(Value::Object(m), json!({"city": "Paris"}));
    }

    #[test]
    fn nested_schemas_get_the_json_editor() {
        let schema = json!({"type": "object", "properties": {"filter": {"type": "object", "properties": {}}}});
        let mut a = ArgsState::new(server(), "search", None, &schema);
        assert!(matches!(a, ArgsState::Json { .. }));
        let s = screen(80, 24, |ar, b| {
            a.render(ar, b);
        });
        assert_has(&s, "Arguments for tool \"search\"");
        assert_has(&s, "enter the arguments as JSON");
        assert_eq!(a.handle_key(key(KeyCode::Esc)), Some(ArgsOutcome::Back));
    }
}
