//! Styles. Meaning is never carried by colour alone: every coloured element also has a
//! word or a symbol (`*`, `Error:`, `Warning:`, `>`), and focus is shown with a marker
//! as well as reverse video.

use ratatui::style::{Color, Modifier, Style};

/// Section headings and labels.
pub(crate) fn label() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// The focused element (always paired with a `>` marker).
pub(crate) fn focus() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

/// Secondary text: descriptions, hints.
pub(crate) fn dim() -> Style {
    Style::new().fg(Color::Gray)
}

/// Error text (always prefixed with the word "Error" or a message saying what is wrong).
pub(crate) fn error() -> Style {
    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
}

/// Warning text (always prefixed with the word "Warning").
pub(crate) fn warning() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

/// The registrable domain inside a URL: bold and underlined, and marked with carets.
pub(crate) fn domain() -> Style {
    Style::new()
        .add_modifier(Modifier::BOLD)
        .add_modifier(Modifier::UNDERLINED)
}

/// Key hints in help bars.
pub(crate) fn key() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// Borders and frames.
pub(crate) fn border() -> Style {
    Style::new().fg(Color::DarkGray)
}
