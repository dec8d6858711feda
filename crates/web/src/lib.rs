//! # mcp-elicit-web
//!
//! The web side of MCP URL mode elicitation (specification 2025-11-25):
//!
//! - **Authorization** (MCP "Authorization"): the MCP endpoint as an OAuth 2.1 resource
//!   server. [`Web::router`] serves RFC 9728 protected resource metadata;
//!   [`Web::protect`] / [`require_bearer`] validate bearer JWTs (allowed algorithm,
//!   signature by the issuer's JWKS found by OpenID discovery, `iss`, `aud`, `exp`/`nbf`
//!   with leeway) and put the user's [`Principal`](mcp_elicit_server::Principal) into
//!   the HTTP request extensions, where rmcp hands it to the elicitation API. Refusals
//!   are 401 with `WWW-Authenticate: Bearer ... resource_metadata="..."`.
//! - **The pages a URL elicitation points to**: `GET /connect?elicitationId=...` signs
//!   the browser in with OpenID Connect (code + PKCE + nonce) at the same issuer, refuses
//!   a user other than the one the elicitation was created for (Phishing), and leads to
//!   what the tool [registered](Web::register): a secret entry form ([`Purpose::Secret`],
//!   stored encrypted in the vault), a third-party OAuth authorization
//!   ([`Purpose::OAuth`], tokens in the vault, [`Web::access_token_for`] refreshes), or a
//!   confirmation ([`Purpose::Confirm`], read back with [`Web::confirmation`]). Each
//!   completes the elicitation through the server's
//!   [`Elicitations::complete`](mcp_elicit_server::Elicitations::complete), which sends
//!   `notifications/elicitation/complete` to the originating client.
//!
//! Forms are CSRF-protected (session-bound token compared in constant time, plus an
//! Origin check); every page carries a strict Content-Security-Policy, `X-Frame-Options:
//! DENY`, `Cache-Control: no-store`; every value in HTML is escaped; no secret, token,
//! code or `state` is logged.
//!
//! Everything a browser flow needs between two requests lives in the [`WebStore`]
//! (database): browser sessions, third-party OAuth `state`, the purpose registered for
//! each elicitation's page and the answer given there. A sign-in in progress is the
//! exception: before the user has authenticated the server keeps nothing, so anonymous
//! requests cannot fill anything; its `nonce`, PKCE verifier and page to return to are
//! sealed (XChaCha20-Poly1305, under a key kept in the vault and shared by every node)
//! into an `HttpOnly`, `SameSite=Lax` cookie of the browser that started it, bound to
//! its `state`, and the callback records the used `state` only after authentication. So a flow
//! started before a restart finishes after it, and with several server nodes on one
//! database any node can serve any page; only the MCP endpoint needs sticky routing (its
//! sessions live in one process). Give every node's
//! [`Elicitations`](mcp_elicit_server::Elicitations) a completion relay
//! (`mcp_elicit_store::PgCompletionBus`) so the notification reaches the node holding
//! the client's connection.
//!
//! ## Wiring
//!
//! ```no_run
//! # async fn wire(
//! #     hub: mcp_elicit_server::Elicitations,
//! #     vault: mcp_elicit_store::Vault,
//! #     mcp: axum::Router,
//! # ) -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use mcp_elicit_web::{ClientRegistration, Web, WebConfig};
//!
//! let config = WebConfig::new(
//!     "https://auth.example.com",
//!     url::Url::parse("https://mcp.example.com")?,
//!     ClientRegistration::confidential("mcp-web", "client-secret"),
//! );
//! let web = Web::new(config, hub, Arc::new(vault)).await?;
//! let app = web.protect(mcp).merge(web.router());
//! # let _ = app;
//! // Without an authorization server, on loopback only: Web::local(...) signs every
//! // browser in as the local user (see its documentation for why and the limits).
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod config;
mod confirm;
mod connect;
mod csrf;
pub mod demo_provider;
mod error;
mod jwks;
mod login;
mod login_cookie;
mod outbound;
mod pages;
mod purpose;
mod resource_server;
mod secret_page;
mod session;
mod session_binding;
mod signin_limit;
mod third_party;
mod tools;
mod web;

pub use config::{ClientRegistration, ProviderConfig, ProviderEndpoints, WebConfig};
pub use error::WebError;
pub use purpose::{ConfirmOutcome, Purpose};
pub use resource_server::{BearerError, require_bearer};
pub use tools::{API_KEY_NAME, WebTools};
pub use web::{BODY_LIMIT, Web, WebStore, router};
