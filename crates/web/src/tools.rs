//! Demo tools that use the pages: `set_api_key` (secret entry), `connect_provider`
//! (third-party OAuth) and `approve_purchase` (confirmation). Each asks for the connect
//! page through `Ask::url` until the user has finished there (-32042 on 2025-11-25, input
//! rounds on 2026-07-28), then succeeds on retry. Nothing secret is ever put in a result:
//! the key and the tokens stay on the server.
//!
//! Chain [`WebTools::call`] into a `ServerHandler::call_tool` and list
//! [`WebTools::definitions`] in `list_tools`.

use std::sync::Arc;

use mcp_elicit_core::message::Mode;
use mcp_elicit_server::{Ask, Principal, Stop, UrlElicitation, UrlOutcome};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use serde_json::{Value, json};

use crate::error::WebError;
use crate::purpose::{ConfirmOutcome, Purpose};
use crate::web::Web;

/// The vault name `set_api_key` stores the key under.
///
/// ```
/// assert_eq!(mcp_elicit_web::API_KEY_NAME, "demo-api-key");
/// ```
pub const API_KEY_NAME: &str = "demo-api-key";
/// The longest `item` / `amount` accepted by `approve_purchase`.
const MAX_ARG: usize = 200;

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t.into())])
}

fn bad_args(message: impl Into<String>) -> ErrorData {
    ErrorData::invalid_params(message.into(), None)
}

/// A failure of ours: `-32603`, except a store that is unavailable just now, which is the
/// retryable `-32000` of [`ErrorKind::StoreUnavailable`](mcp_elicit_server::ErrorKind::StoreUnavailable).
fn internal(e: &WebError) -> ErrorData {
    match e {
        WebError::Store(s) if s.is_unavailable() => server_error(e).to_error_data(),
        e => ErrorData::internal_error(e.to_string(), None),
    }
}

/// The server crate's error for `e`: [`ErrorKind::StoreUnavailable`](mcp_elicit_server::ErrorKind::StoreUnavailable)
/// when the store is unavailable just now, else [`ErrorKind::Store`](mcp_elicit_server::ErrorKind::Store).
fn server_error(e: &WebError) -> mcp_elicit_server::Error {
    let kind = match e {
        WebError::Store(s) if s.is_unavailable() => mcp_elicit_server::ErrorKind::StoreUnavailable,
        _ => mcp_elicit_server::ErrorKind::Store,
    };
    mcp_elicit_server::Error::new(kind, e.to_string())
}

/// The demo tools.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use std::sync::Arc;
/// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
/// # use mcp_elicit_store::{Keyring, Store, VaultKey};
/// # use mcp_elicit_web::Web;
/// # let user = Principal::local_user("ada");
/// # let db = Store::connect("sqlite::memory:").await?;
/// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
/// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
/// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
/// use mcp_elicit_web::WebTools;
///
/// let tools = WebTools::new(web);
/// let names: Vec<String> = tools.definitions().iter().map(|t| t.name.to_string()).collect();
/// assert_eq!(names, ["set_api_key", "connect_provider", "approve_purchase"]);
/// assert!(names.iter().all(|n| WebTools::handles(n)));
/// assert!(!WebTools::handles("search"));
/// # Ok(())
/// # }
/// ```
pub struct WebTools {
    web: Web,
}

impl std::fmt::Debug for WebTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebTools").finish_non_exhaustive()
    }
}

impl Web {
    /// A URL elicitation pointing to this server's connect page, with `purpose`
    /// registered for `principal` in the store. Send it with `Elicitor::url_required`
    /// (or `Elicitor::url`).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// use mcp_elicit_web::Purpose;
    ///
    /// let purpose = Purpose::Confirm { summary: "Pay 5 EUR".into() };
    /// let e = web.url_elicitation(&user, "Confirm the payment", purpose).await?;
    /// assert_eq!(e.message(), "Confirm the payment");
    /// assert_eq!(e.url(), web.connect_url(e.id().as_str()));
    /// // Registered: the page knows it (no answer yet).
    /// assert_eq!(web.confirmation(&user, e.id().as_str()).await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn url_elicitation(
        &self,
        principal: &Principal,
        message: &str,
        purpose: Purpose,
    ) -> Result<UrlElicitation, mcp_elicit_server::Error> {
        let elicitation = UrlElicitation::new(message, |id| self.connect_url(id.as_str()))?;
        self.register(principal, elicitation.id().as_str(), purpose)
            .await
            .map_err(|e| server_error(&e))?;
        Ok(elicitation)
    }
}

impl WebTools {
    /// The tools over `web`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// let tools = mcp_elicit_web::WebTools::new(web.clone());
    /// assert_eq!(tools.definitions().len(), 3);
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(web: Web) -> Self {
        Self { web }
    }

    /// Whether `name` is one of these tools.
    ///
    /// ```
    /// use mcp_elicit_web::WebTools;
    ///
    /// assert!(WebTools::handles("approve_purchase"));
    /// assert!(!WebTools::handles("Approve_Purchase"));
    /// ```
    pub fn handles(name: &str) -> bool {
        matches!(
            name,
            "set_api_key" | "connect_provider" | "approve_purchase"
        )
    }

    /// The tool definitions.
    ///
    /// `connect_provider`'s `provider` argument lists the configured providers:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::Arc;
    /// # use mcp_elicit_server::{ElicitationConfig, Elicitations, IdentityPolicy, Principal};
    /// # use mcp_elicit_store::{Keyring, Store, VaultKey};
    /// # use mcp_elicit_web::Web;
    /// # let user = Principal::local_user("ada");
    /// # let db = Store::connect("sqlite::memory:").await?;
    /// # let store = Arc::new(db.vault(Keyring::new(VaultKey::generate()?)));
    /// # let hub = Elicitations::new(ElicitationConfig::new(IdentityPolicy::LocalUser(user.clone())));
    /// # let web = Web::local(url::Url::parse("http://127.0.0.1:8391")?, user.clone(), Vec::new(), hub, store).await?;
    /// let tools = mcp_elicit_web::WebTools::new(web);
    /// let defs = tools.definitions();
    /// let connect = defs.iter().find(|t| t.name == "connect_provider").ok_or("no connect_provider")?;
    /// // No provider configured here: an empty enum.
    /// assert_eq!(connect.input_schema["properties"]["provider"]["enum"], serde_json::json!([]));
    /// let approve = defs.iter().find(|t| t.name == "approve_purchase").ok_or("no approve_purchase")?;
    /// assert_eq!(approve.input_schema["required"], serde_json::json!(["item", "amount"]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn definitions(&self) -> Vec<Tool> {
        let providers: Vec<&str> = self
            .web
            .inner
            .config
            .providers
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        vec![
            Tool::new(
                "set_api_key",
                "Uses your Example Co API key. The first time (or with replace=true) it asks you to enter the key \
                 on this server's own page (URL mode): the key is stored encrypted for your account and never \
                 passes through the MCP client.",
                schema(json!({"type": "object", "properties": {
                    "replace": {"type": "boolean", "description": "Ask for a new key even if one is on file."}
                }})),
            ),
            Tool::new(
                "connect_provider",
                "Connects your account at a third-party provider through OAuth on this server's page (URL mode); \
                 the tokens stay on the server.",
                schema(json!({"type": "object", "properties": {
                    "provider": {"type": "string", "enum": providers, "description": "Which provider (default: the first)."}
                }})),
            ),
            Tool::new(
                "approve_purchase",
                "Asks you to confirm a purchase on this server's page (URL mode) and reports your answer.",
                schema(
                    json!({"type": "object", "required": ["item", "amount"], "properties": {
                        "item": {"type": "string", "maxLength": MAX_ARG},
                        "amount": {"type": "string", "maxLength": MAX_ARG, "description": "e.g. 42.00 EUR"}
                    }}),
                ),
            ),
        ]
    }

    /// Runs tool `name` for the user of `ask` (on its revision); `None` when it is not
    /// one of these. Finish the handler with `mcp_elicit_server::respond`.
    pub async fn call(
        &self,
        ask: &mut Ask,
        name: &str,
        args: &JsonObject,
    ) -> Option<Result<CallToolResult, Stop>> {
        Some(match name {
            "set_api_key" => self.set_api_key(ask, args).await,
            "connect_provider" => self.connect_provider(ask, args).await,
            "approve_purchase" => self.approve_purchase(ask, args).await,
            _ => return None,
        })
    }

    /// Asks for the page of `purpose` (registered only when a new elicitation is made):
    /// -32042 on 2025-11-25, rounds on 2026-07-28, or a text without the URL when the
    /// client has no URL mode. `done` is what the tool answers once the page is finished
    /// (on 2026-07-28, the retry that learns of it).
    async fn require(
        &self,
        ask: &mut Ask,
        message: &str,
        purpose: Purpose,
        done: impl FnOnce() -> CallToolResult,
    ) -> Result<CallToolResult, Stop> {
        if !ask.supports(Mode::Url) {
            let text = ask.elicitor().url_unsupported(message);
            return Ok(CallToolResult::error(vec![ContentBlock::text(text)]));
        }
        let user = ask.elicitor().principal().clone();
        let outcome = ask
            .url("page", || self.web.url_elicitation(&user, message, purpose))
            .await?;
        Ok(match outcome {
            UrlOutcome::Declined => text("You declined to open the page: nothing was done."),
            UrlOutcome::Cancelled => text("You dismissed the request: nothing was done."),
            _ => done(),
        })
    }

    async fn set_api_key(&self, ask: &mut Ask, args: &JsonObject) -> Result<CallToolResult, Stop> {
        let user = ask.elicitor().principal().clone();
        let user = &user;
        let replace = args
            .get("replace")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let stored = self
            .web
            .inner
            .store
            .get_secret(user, API_KEY_NAME)
            .await
            .map_err(|e| internal(&WebError::Store(e)))?;
        if let Some(secret) = stored
            && !replace
        {
            let age = secret
                .updated_at
                .elapsed()
                .map(|d| d.as_secs())
                .unwrap_or(0);
            return Ok(text(format!(
                "Your Example Co API key is on file (saved {age} s ago) and was used for this call. \
                 It stays on the server."
            )));
        }
        self.require(
            ask,
            "Enter your Example Co API key on the server's page.",
            Purpose::Secret {
                name: API_KEY_NAME.into(),
                label: "Example Co API key".into(),
            },
            || text("Your Example Co API key was saved on the server's page. It stays on the server."),
        )
        .await
    }

    async fn connect_provider(
        &self,
        ask: &mut Ask,
        args: &JsonObject,
    ) -> Result<CallToolResult, Stop> {
        let providers = &self.web.inner.config.providers;
        let provider = match args.get("provider") {
            Some(Value::String(p)) => p.clone(),
            Some(_) => return Err(bad_args("provider must be a string").into()),
            None => match providers.first() {
                Some(p) => p.name.clone(),
                None => return Err(bad_args("no third-party provider is configured").into()),
            },
        };
        let Some(config) = providers.iter().find(|p| p.name == provider) else {
            return Err(bad_args(format!("unknown provider {provider:?}")).into());
        };
        let user = ask.elicitor().principal().clone();
        match self.web.access_token_for(&user, &provider).await {
            Ok(_token) => Ok(text(format!(
                "Your {} account is connected; this server holds a valid token for it (never shown to the client).",
                config.display_name
            ))),
            Err(WebError::NotConnected { .. }) => {
                let name = config.display_name.clone();
                self.require(
                    ask,
                    &format!("Connect your {name} account on the server's page."),
                    Purpose::OAuth { provider },
                    || {
                        text(format!(
                            "Your {name} account is connected; the token stays on this server."
                        ))
                    },
                )
                .await
            }
            Err(e) => Err(internal(&e).into()),
        }
    }

    async fn approve_purchase(
        &self,
        ask: &mut Ask,
        args: &JsonObject,
    ) -> Result<CallToolResult, Stop> {
        let arg = |name: &str| -> Result<String, ErrorData> {
            match args.get(name) {
                Some(Value::String(s)) if !s.trim().is_empty() && s.chars().count() <= MAX_ARG => {
                    Ok(s.trim().to_owned())
                }
                _ => Err(bad_args(format!(
                    "{name} must be a non-empty string of at most {MAX_ARG} characters"
                ))),
            }
        };
        let (item, amount) = (arg("item")?, arg("amount")?);
        let summary = format!("Buy {item} for {amount}");
        let user = ask.elicitor().principal().clone();
        let purpose = Purpose::Confirm {
            summary: summary.clone(),
        };
        // The answer to an earlier confirmation of the same purchase, given on the page
        // (on any node, before or after a restart): used once, then forgotten, so the
        // next purchase asks again.
        match self.web.purposes().answered(&user, &purpose).await {
            Ok(Some(outcome)) => {
                return Ok(match outcome {
                    ConfirmOutcome::Confirmed => text(format!("Approved: {summary}.")),
                    _ => text(format!("You cancelled: {summary}. Nothing was bought.")),
                });
            }
            Ok(None) => {}
            Err(e) => return Err(internal(&e).into()),
        }
        self.require(
            ask,
            &format!("Confirm on the server's page: {summary}."),
            purpose.clone(),
            || text(format!("The confirmation page was finished: call again to see the answer for {summary}.")),
        )
        .await
    }
}
