//! The interactive terminal host behind `mcp-elicit connect` and `mcp-elicit demo`:
//! [`TuiUi`] implements the client library's `ElicitationUi` by putting each prompt on
//! screen; [`run`] connects and runs the screens until the user quits.

mod app;
mod bridge;
pub(crate) mod browser;
mod child;
mod convert;
pub(crate) mod driver;
#[cfg(test)]
mod e2e_tests;
#[cfg(test)]
mod tests;

pub use bridge::TuiUi;
pub use browser::BrowserChoice;
pub use driver::{HostError, HostOptions, run};
