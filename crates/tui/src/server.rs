//! Who is asking: the requesting server's identity, shown at the top of every screen.

use ratatui::text::{Line, Span};

use crate::{text, theme};

/// The identity a server gave in its `initialize` result, plus how we reach it.
///
/// Every field comes from the server (except `transport`) and is untrusted: it is drawn
/// through [`text::one_line`] so it cannot inject terminal controls.
///
/// ```
/// use mcp_elicit_tui::ServerIdentity;
///
/// let id = ServerIdentity {
///     name: "demo".into(),
///     title: Some("Demo Server".into()),
///     version: Some("1.2.3".into()),
///     transport: "stdio: ./server".into(),
/// };
/// assert_eq!(id.display_name(), "Demo Server");
/// assert_eq!(id.describe(), "Demo Server (name \"demo\", version 1.2.3, via stdio: ./server)");
/// // A hostile name cannot reach the terminal as a control sequence.
/// let evil = ServerIdentity { name: "evil\u{1b}]0;pwned\u{7}".into(), ..Default::default() };
/// assert_eq!(evil.describe(), "evil\\u{1B}]0;pwned\\u{7}");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerIdentity {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.title`, when given.
    pub title: Option<String>,
    /// `serverInfo.version`, when given.
    pub version: Option<String>,
    /// How we are connected, e.g. `stdio: ./server --flag` or `http: http://127.0.0.1:8080/mcp`.
    pub transport: String,
}

impl ServerIdentity {
    /// A short one-line label: the title when given, else the name.
    ///
    /// ```
    /// use mcp_elicit_tui::ServerIdentity;
    ///
    /// let mut id = ServerIdentity { name: "demo".into(), ..Default::default() };
    /// assert_eq!(id.display_name(), "demo");
    /// id.title = Some("   ".into()); // a blank title does not count
    /// assert_eq!(id.display_name(), "demo");
    /// id.title = Some("Demo Server".into());
    /// assert_eq!(id.display_name(), "Demo Server");
    /// ```
    pub fn display_name(&self) -> String {
        let shown = self
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(&self.name);
        text::one_line(shown).into_owned()
    }

    /// The full identity as one line of text: `Title (name "n", version v, via transport)`.
    ///
    /// ```
    /// use mcp_elicit_tui::ServerIdentity;
    ///
    /// let bare = ServerIdentity { name: "x".into(), ..Default::default() };
    /// assert_eq!(bare.describe(), "x");
    /// let titled = ServerIdentity { title: Some("X".into()), transport: "stdio".into(), ..bare };
    /// assert_eq!(titled.describe(), "X (name \"x\", via stdio)");
    /// ```
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.title.as_deref().is_some_and(|t| !t.trim().is_empty()) {
            parts.push(format!("name \"{}\"", text::one_line(&self.name)));
        }
        if let Some(v) = self.version.as_deref().filter(|v| !v.is_empty()) {
            parts.push(format!("version {}", text::one_line(v)));
        }
        if !self.transport.is_empty() {
            parts.push(format!("via {}", text::one_line(&self.transport)));
        }
        if parts.is_empty() {
            self.display_name()
        } else {
            format!("{} ({})", self.display_name(), parts.join(", "))
        }
    }

    /// The header lines for a screen, wrapped to `width`: `"<what> from server: <identity>"`.
    ///
    /// ```
    /// use mcp_elicit_tui::ServerIdentity;
    ///
    /// let id = ServerIdentity { name: "demo".into(), version: Some("0.1.0".into()), ..Default::default() };
    /// let lines = id.header_lines("Form request", 80);
    /// assert_eq!(lines.len(), 1);
    /// assert_eq!(lines[0].to_string(), "Form request from server: demo (version 0.1.0)");
    /// assert!(id.header_lines("Form request", 20).len() > 1); // wrapped, never cut
    /// ```
    pub fn header_lines(&self, what: &str, width: u16) -> Vec<Line<'static>> {
        let prefix = format!("{what} from server: ");
        let full = format!("{prefix}{}", self.describe());
        text::wrap(&full, width)
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                if i == 0 && l.starts_with(&prefix) {
                    let rest = l[prefix.len()..].to_string();
                    Line::from(vec![
                        Span::raw(prefix.clone()),
                        Span::styled(rest, theme::label()),
                    ])
                } else {
                    Line::from(Span::styled(l, theme::label()))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_names_title_name_version_and_transport() {
        let id = ServerIdentity {
            name: "demo".into(),
            title: Some("Demo Server".into()),
            version: Some("1.2.3".into()),
            transport: "stdio".into(),
        };
        assert_eq!(
            id.describe(),
            "Demo Server (name \"demo\", version 1.2.3, via stdio)"
        );
        let bare = ServerIdentity {
            name: "x".into(),
            ..Default::default()
        };
        assert_eq!(bare.describe(), "x");
    }

    #[test]
    fn hostile_names_are_escaped() {
        let id = ServerIdentity {
            name: "evil\u{1b}]0;pwned\u{7}".into(),
            ..Default::default()
        };
        assert!(!id.describe().contains('\u{1b}'));
    }
}
