//! The sign-in side of the command line ([`AuthorizationUi`]): for a person in the
//! terminal host ([`PersonSignIn`]: the consent screen, then the browser) and for `call`
//! ([`CallSignIn`]: refuses unless `--sign-in`, then says on stderr what it opens). Both
//! listen on a loopback redirect ([`super::loopback`]).

use std::sync::Mutex;
use std::time::Duration;

use futures::future::BoxFuture;
use mcp_elicit_client::auth::{AuthUiError, AuthorizationPrompt, AuthorizationUi};
use mcp_elicit_core::url_safety::{Severity, analyze};
use mcp_elicit_tui::host::BrowserChoice;
use mcp_elicit_tui::signin::{self, SignInAbort, SignInReason, SignInRequest};
use secrecy::ExposeSecret;

use super::loopback::{Callback, LoopbackRedirect};

/// How long a browser sign-in may take.
pub(crate) const SIGN_IN_TIMEOUT: Duration = Duration::from_secs(300);

/// The listener bound for the next sign-in (its URI was handed out by `redirect_uri`).
#[derive(Debug, Default)]
struct Listeners {
    pending: Mutex<Option<LoopbackRedirect>>,
}

impl Listeners {
    async fn redirect_uri(&self) -> Result<String, AuthUiError> {
        let l = LoopbackRedirect::bind()
            .await
            .map_err(|e| AuthUiError::Failed(e.to_string()))?;
        let uri = l.redirect_uri();
        *self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(l);
        Ok(uri)
    }

    /// The listener for `redirect_uri`: the one bound for it, or (a step-up reusing the
    /// URI of an earlier sign-in) a new one on its port.
    async fn take(&self, redirect_uri: &str) -> Result<LoopbackRedirect, AuthUiError> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        match pending {
            Some(l) if l.redirect_uri() == redirect_uri => Ok(l),
            _ => {
                let port = url::Url::parse(redirect_uri)
                    .ok()
                    .and_then(|u| u.port())
                    .ok_or_else(|| {
                        AuthUiError::Failed(format!("{redirect_uri} is not this program's"))
                    })?;
                let l = LoopbackRedirect::bind_port(port)
                    .await
                    .map_err(|e| AuthUiError::Failed(e.to_string()))?;
                if l.redirect_uri() == redirect_uri {
                    Ok(l)
                } else {
                    Err(AuthUiError::Failed(format!(
                        "{redirect_uri} is not this program's"
                    )))
                }
            }
        }
    }
}

/// The `state` of an authorization request.
fn state_of(authorization_url: &str) -> Result<String, AuthUiError> {
    url::Url::parse(authorization_url)
        .ok()
        .and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "state")
                .map(|(_, v)| v.into_owned())
        })
        .filter(|s| !s.is_empty())
        .ok_or_else(|| AuthUiError::Failed("the authorization request has no state".into()))
}

/// The URL the browser was sent back to, as the client library wants it.
fn returned_url(redirect_uri: &str, cb: &Callback) -> String {
    format!("{redirect_uri}?{}", cb.query.expose_secret())
}

/// A person's sign-in in the terminal host: the consent screen, then the browser.
#[derive(Debug)]
pub(crate) struct PersonSignIn {
    listeners: Listeners,
    browser: BrowserChoice,
    kept: Option<String>,
}

impl PersonSignIn {
    /// Opens `browser`; `kept` says where the sign-in is kept (shown on the screen).
    pub(crate) fn new(browser: BrowserChoice, kept: Option<String>) -> Self {
        Self {
            listeners: Listeners::default(),
            browser,
            kept,
        }
    }
}

impl AuthorizationUi for PersonSignIn {
    fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>> {
        Box::pin(self.listeners.redirect_uri())
    }

    fn authorize<'a>(
        &'a self,
        prompt: &'a AuthorizationPrompt,
    ) -> BoxFuture<'a, Result<String, AuthUiError>> {
        Box::pin(async move {
            if mcp_elicit_tui::terminal::in_use() {
                // The host is on screen (a step-up or an expired sign-in in the middle of
                // a call): a second screen would draw over it and restore the terminal
                // under it. The call ends with this text, and nothing is opened.
                return Err(AuthUiError::Failed(in_host_sign_in_message(prompt)));
            }
            let listener = self.listeners.take(&prompt.redirect_uri).await?;
            let state = state_of(&prompt.authorization_url)?;
            let request = SignInRequest {
                server: prompt.server.clone(),
                issuer: prompt.issuer.clone(),
                authorization_url: prompt.authorization_url.clone(),
                redirect_uri: prompt.redirect_uri.clone(),
                scopes: prompt.scopes.clone(),
                reason: if prompt.step_up {
                    SignInReason::MoreScopes
                } else {
                    SignInReason::Required
                },
                kept: self.kept.clone(),
            };
            let wait = listener.wait(&state, SIGN_IN_TIMEOUT);
            match signin::run(request, self.browser.clone(), wait).await {
                Ok(Ok(cb)) => Ok(returned_url(&prompt.redirect_uri, &cb)),
                Ok(Err(e)) => Err(AuthUiError::Failed(e.to_string())),
                Err(SignInAbort::Cancelled) => Err(AuthUiError::Declined),
                Err(e) => Err(AuthUiError::Failed(e.to_string())),
            }
        })
    }
}

/// What a sign-in asked for while the host is on screen says instead of opening anything.
fn in_host_sign_in_message(prompt: &AuthorizationPrompt) -> String {
    let why = if prompt.step_up {
        "asks for more permissions (a new sign-in)"
    } else {
        "asks to sign in again"
    };
    format!(
        "{} {why} at {} in the middle of this call; the sign-in screen cannot be shown over \
         this one: quit and run `mcp-elicit connect {}` again to sign in",
        prompt.server, prompt.issuer, prompt.server
    )
}

/// `call`'s sign-in: refused unless `--sign-in` (a script never opens a browser by
/// surprise); with it, what is opened is said on stderr first.
#[derive(Debug)]
pub(crate) struct CallSignIn {
    listeners: Listeners,
    /// `None`: refuse (no `--sign-in`).
    browser: Option<BrowserChoice>,
    /// What to suggest when refusing.
    hint: String,
}

impl CallSignIn {
    pub(crate) fn refuse(hint: impl Into<String>) -> Self {
        Self {
            listeners: Listeners::default(),
            browser: None,
            hint: hint.into(),
        }
    }

    pub(crate) fn browser(browser: BrowserChoice) -> Self {
        Self {
            listeners: Listeners::default(),
            browser: Some(browser),
            hint: String::new(),
        }
    }
}

impl AuthorizationUi for CallSignIn {
    fn redirect_uri(&self) -> BoxFuture<'_, Result<String, AuthUiError>> {
        Box::pin(async move {
            if self.browser.is_none() {
                return Err(AuthUiError::Failed(self.hint.clone()));
            }
            self.listeners.redirect_uri().await
        })
    }

    fn authorize<'a>(
        &'a self,
        prompt: &'a AuthorizationPrompt,
    ) -> BoxFuture<'a, Result<String, AuthUiError>> {
        Box::pin(async move {
            let Some(browser) = self.browser.clone() else {
                return Err(AuthUiError::Failed(format!(
                    "sign-in at {} needed: {}",
                    prompt.issuer, self.hint
                )));
            };
            let listener = self.listeners.take(&prompt.redirect_uri).await?;
            let state = state_of(&prompt.authorization_url)?;
            let page = analyze(&prompt.authorization_url);
            let issuer = analyze(&prompt.issuer);
            eprintln!(
                "mcp-elicit call: sign-in {}for MCP server {}",
                if prompt.step_up {
                    "(more permissions) "
                } else {
                    ""
                },
                prompt.server
            );
            eprintln!(
                "  authorization server: {}{}",
                prompt.issuer,
                issuer
                    .registrable_domain_unicode
                    .as_deref()
                    .or(issuer.registrable_domain.as_deref())
                    .map(|d| format!(" (site: {d})"))
                    .unwrap_or_default()
            );
            if !prompt.scopes.is_empty() {
                eprintln!("  permissions asked:    {}", prompt.scopes.join(" "));
            }
            for f in issuer.warnings.iter().chain(&page.warnings) {
                if f.severity != Severity::Info {
                    eprintln!("  [{}] {}", f.severity.as_str(), f.message);
                }
            }
            if page.is_blocked() || issuer.is_blocked() {
                return Err(AuthUiError::Failed(format!(
                    "the sign-in page of {} is blocked: not opened",
                    prompt.issuer
                )));
            }
            let Some(url) = page.url.clone() else {
                return Err(AuthUiError::Failed("no sign-in page to open".into()));
            };
            let launched = {
                let url = url.clone();
                tokio::task::spawn_blocking(move || browser.launch(&url))
                    .await
                    .unwrap_or_else(|e| Err(e.to_string()))
            };
            match launched {
                Ok(()) => eprintln!("  opened the sign-in page in the browser; waiting ..."),
                Err(e) => {
                    eprintln!("  could not start a browser ({e}); open this page on this machine:");
                    eprintln!("  {url}");
                }
            }
            match listener.wait(&state, SIGN_IN_TIMEOUT).await {
                Ok(cb) => Ok(returned_url(&prompt.redirect_uri, &cb)),
                Err(e) => Err(AuthUiError::Failed(e.to_string())),
            }
        })
    }
}
