//! [`Authorizer`]: one MCP server's sign-in state, used by the HTTP transport on 401 and
//! 403 `insufficient_scope`.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::transport::auth::{
    AuthError as RmcpAuthError, AuthorizationCallback, AuthorizationManager, AuthorizationRequest,
    AuthorizationSession, ClientCredentialsConfig, ScopeUpgradeConfig, WWWAuthenticateParams,
};
use url::Url;

use crate::auth::AuthConfig;
use crate::auth::error::{AuthError, AuthErrorKind};
use crate::auth::store::{Keyed, TokenStore};
use crate::auth::ui::{AuthUiError, AuthorizationPrompt, AuthorizationUi, loopback_redirect};

/// One MCP server's authorization: the stored sign-in, the sign-in flow on 401 and the
/// step-up on 403 `insufficient_scope`. Share it (`Arc`) with the transport through
/// [`Config::with_authorizer`](crate::Config::with_authorizer).
///
/// ```
/// use std::sync::Arc;
/// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
/// let authorizer = Authorizer::new(
///     "https://mcp.example.com/mcp",
///     AuthConfig::new("my-host"),
///     Arc::new(MemoryTokenStore::default()),
///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
/// )?;
/// assert_eq!(authorizer.resource(), "https://mcp.example.com/mcp");
/// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
/// ```
pub struct Authorizer {
    server: String,
    base: Url,
    resource: String,
    config: AuthConfig,
    store: Arc<dyn TokenStore>,
    ui: Arc<dyn AuthorizationUi>,
    state: tokio::sync::Mutex<State>,
    last_error: Mutex<Option<AuthError>>,
}

impl std::fmt::Debug for Authorizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorizer")
            .field("server", &self.server)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct State {
    /// The engine of the last sign-in (its client registration, tokens, scopes).
    manager: Option<AuthorizationManager>,
    /// The redirect URI of that sign-in (a step-up uses it again).
    redirect_uri: Option<String>,
    /// The issuer of that sign-in.
    issuer: Option<String>,
}

impl Authorizer {
    /// Authorization for the MCP server at `server_url`; sign-ins are kept in `store` and
    /// run through `ui`. Nothing is fetched yet. The URL must be `http(s)`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::auth::{AuthConfig, AuthErrorKind, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let refused = Authorizer::new(
    ///     "ws://mcp.example.com/mcp",
    ///     AuthConfig::new("my-host"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
    /// ).unwrap_err();
    /// assert!(matches!(refused.kind, AuthErrorKind::Config(_)));
    /// assert_eq!(refused.to_string(), "authorization for ws://mcp.example.com/mcp: authorization needs an http(s) server URL");
    /// ```
    pub fn new(
        server_url: &str,
        config: AuthConfig,
        store: Arc<dyn TokenStore>,
        ui: Arc<dyn AuthorizationUi>,
    ) -> Result<Self, AuthError> {
        let base = Url::parse(server_url).map_err(|e| {
            AuthError::new(server_url, AuthErrorKind::Config(format!("not a URL: {e}")))
        })?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(AuthError::new(
                server_url,
                AuthErrorKind::Config("authorization needs an http(s) server URL".into()),
            ));
        }
        let resource = canonical(&base);
        Ok(Self {
            server: server_url.to_owned(),
            base,
            resource,
            config,
            store,
            ui,
            state: tokio::sync::Mutex::new(State::default()),
            last_error: Mutex::new(None),
        })
    }

    /// The canonical URI of the MCP server (RFC 8707 `resource`, and the [`TokenStore`] key).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let authorizer = Authorizer::new(
    ///     "HTTPS://MCP.Example.com:443/mcp?session=1",
    ///     AuthConfig::new("my-host"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
    /// )?;
    /// assert_eq!(authorizer.resource(), "https://mcp.example.com/mcp"); // no query, default port
    /// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
    /// ```
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The MCP server URL as given.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let authorizer = Authorizer::new(
    ///     "HTTPS://MCP.Example.com:443/mcp?session=1",
    ///     AuthConfig::new("my-host"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
    /// )?;
    /// assert_eq!(authorizer.server(), "HTTPS://MCP.Example.com:443/mcp?session=1");
    /// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
    /// ```
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The error of the last failed sign-in, if the last one failed (`None` before any).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_elicit_client::auth::{AuthConfig, Authorizer, HeadlessRedirect, MemoryTokenStore};
    ///
    /// let authorizer = Authorizer::new(
    ///     "HTTPS://MCP.Example.com:443/mcp?session=1",
    ///     AuthConfig::new("my-host"),
    ///     Arc::new(MemoryTokenStore::default()),
    ///     Arc::new(HeadlessRedirect::new("http://127.0.0.1:8976/callback")),
    /// )?;
    /// assert!(authorizer.last_error().is_none());
    /// # Ok::<(), mcp_elicit_client::auth::AuthError>(())
    /// ```
    pub fn last_error(&self) -> Option<AuthError> {
        self.last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn error(&self, kind: AuthErrorKind) -> AuthError {
        let e = AuthError::new(self.server.clone(), kind);
        *self
            .last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(e.clone());
        e
    }

    fn rmcp_error(&self, e: &RmcpAuthError) -> AuthError {
        self.error(AuthErrorKind::from(e))
    }

    /// Records that the server refused a token it was just given.
    pub(crate) fn refused(&self, status: u16) -> AuthError {
        self.error(AuthErrorKind::TokenRefused { status })
    }

    /// The access token to send, if there is one (refreshed when it is about to expire).
    pub(crate) async fn access_token(&self) -> Option<String> {
        let state = self.state.lock().await;
        if let Some(manager) = &state.manager {
            return match manager.get_access_token().await {
                Ok(token) => Some(token),
                Err(e) => {
                    tracing::debug!(server = %self.server, error = %e, "no usable access token");
                    None
                }
            };
        }
        // A sign-in kept from an earlier run: sent to the server it was issued for only
        // (the store is keyed by this server's canonical URI).
        match self.store.load(&self.resource) {
            Ok(Some(stored)) => stored
                .token_response
                .as_ref()
                .map(|t| oauth2::TokenResponse::access_token(t).secret().clone()),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(server = %self.server, error = %e, "the token store failed");
                None
            }
        }
    }

    fn manager_builder(&self) -> Result<AuthorizationManagerFuture, AuthError> {
        Ok(AuthorizationManagerFuture {
            base: self.base.clone(),
            private: self.config.allow_private_addresses,
        })
    }

    /// The server answered 401 to `rejected` (or to no token): refresh, or sign in again.
    /// Returns the new access token.
    pub(crate) async fn on_unauthorized(
        &self,
        challenge: &str,
        rejected: Option<&str>,
    ) -> Result<String, AuthError> {
        let mut state = self.state.lock().await;
        // Another request signed in while this one waited.
        if let Some(manager) = &state.manager
            && let Ok(current) = manager.get_access_token().await
            && Some(current.as_str()) != rejected
        {
            return Ok(current);
        }
        let result = self.sign_in(&mut state, challenge).await;
        if result.is_ok() {
            *self
                .last_error
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = None;
        }
        result
    }

    async fn sign_in(&self, state: &mut State, challenge: &str) -> Result<String, AuthError> {
        let mut manager = self
            .manager_builder()?
            .build()
            .await
            .map_err(|e| self.rmcp_error(&e))?;
        let mut upgrade = ScopeUpgradeConfig::default();
        upgrade.max_upgrade_attempts = self.config.max_step_ups;
        manager.set_scope_upgrade_config(upgrade);
        let resolution = manager
            .resolve_metadata_from_challenge(Some(challenge))
            .await
            .map_err(|e| self.rmcp_error(&e))?;
        let issuer = resolution.metadata.issuer.clone();
        manager.set_metadata(resolution.metadata);

        // A refresh token of the same authorization server first.
        if let Some(token) = self.try_refresh(&mut manager, issuer.as_deref()).await {
            state.manager = Some(manager);
            state.issuer = issuer;
            return Ok(token);
        }

        let keyed = Keyed::new(self.store.clone(), self.resource.clone(), false);
        manager.set_credential_store(keyed.clone());
        if let Some(token) = self.client_credentials(&mut manager, &keyed).await? {
            state.manager = Some(manager);
            state.redirect_uri = None;
            state.issuer = issuer;
            return Ok(token);
        }
        let redirect_uri = self.ui.redirect_uri().await.map_err(|e| self.ui_error(e))?;
        let redirect =
            loopback_redirect(&redirect_uri).map_err(|m| self.error(AuthErrorKind::Redirect(m)))?;

        let mut request = AuthorizationRequest::new(redirect_uri.clone())
            .with_initial_scope_selection()
            .with_client_name(self.config.client_name.clone())
            .with_challenge(challenge);
        if let Some(id) = &self.config.client_id {
            request = request.with_preregistered_client(id.clone());
            if let Some(secret) = &self.config.client_secret {
                request = request.with_client_secret(secret.clone());
            }
        }
        if let Some(url) = &self.config.client_metadata_url {
            request = request.with_client_metadata_url(url.clone());
        }
        let session = AuthorizationSession::new(manager, request)
            .await
            .map_err(|(_, e)| self.rmcp_error(&e))?;
        let prompt = AuthorizationPrompt {
            server: self.server.clone(),
            issuer: issuer.clone().unwrap_or_default(),
            authorization_url: session.auth_url.clone(),
            redirect_uri: redirect_uri.clone(),
            scopes: requested_scopes(&session.auth_url),
            step_up: false,
        };
        let callback = self
            .ui
            .authorize(&prompt)
            .await
            .map_err(|e| self.ui_error(e))?;
        let parsed = self.check_callback(&redirect, &callback)?;
        let token = session
            .auth_manager
            .exchange_code_for_token_with_issuer(
                &parsed.code,
                &parsed.csrf_token,
                parsed.issuer.as_deref(),
            )
            .await
            .map_err(|e| self.rmcp_error(&e))?;
        keyed
            .commit()
            .map_err(|e| self.error(AuthErrorKind::Store(e.0)))?;
        state.manager = Some(session.auth_manager);
        state.redirect_uri = Some(redirect_uri);
        state.issuer = issuer;
        Ok(oauth2::TokenResponse::access_token(&token).secret().clone())
    }

    /// Machine-to-machine: the `client_credentials` grant, when configured.
    async fn client_credentials(
        &self,
        manager: &mut AuthorizationManager,
        keyed: &Keyed,
    ) -> Result<Option<String>, AuthError> {
        let (Some(scopes), Some(client_id), Some(client_secret)) = (
            &self.config.client_credentials_scopes,
            &self.config.client_id,
            &self.config.client_secret,
        ) else {
            return Ok(None);
        };
        let grant = ClientCredentialsConfig::ClientSecret {
            client_id: client_id.clone(),
            client_secret: client_secret.clone(),
            scopes: scopes.clone(),
            resource: Some(self.resource.clone()),
        };
        manager
            .configure_client_credentials(&grant)
            .map_err(|e| self.rmcp_error(&e))?;
        let token = manager
            .exchange_client_credentials(&grant)
            .await
            .map_err(|e| self.error(AuthErrorKind::Token(e.to_string())))?;
        keyed
            .commit()
            .map_err(|e| self.error(AuthErrorKind::Store(e.0)))?;
        Ok(Some(
            oauth2::TokenResponse::access_token(&token).secret().clone(),
        ))
    }

    async fn try_refresh(
        &self,
        manager: &mut AuthorizationManager,
        issuer: Option<&str>,
    ) -> Option<String> {
        let stored = self.store.load(&self.resource).ok()??;
        let has_refresh = stored
            .token_response
            .as_ref()
            .is_some_and(|t| oauth2::TokenResponse::refresh_token(t).is_some());
        if !has_refresh || stored.issuer.as_deref() != issuer {
            return None;
        }
        manager.set_credential_store(Keyed::new(self.store.clone(), self.resource.clone(), true));
        if !matches!(manager.initialize_from_store().await, Ok(true)) {
            return None;
        }
        match manager.refresh_token().await {
            Ok(token) => Some(oauth2::TokenResponse::access_token(&token).secret().clone()),
            Err(e) => {
                tracing::info!(server = %self.server, error = %e, "refresh failed; signing in again");
                None
            }
        }
    }

    /// The server answered 403 `insufficient_scope`: ask for the union of the scopes held
    /// and the ones challenged. `attempt` counts the step-ups of this request (from 1).
    pub(crate) async fn on_insufficient_scope(
        &self,
        challenge: &str,
        attempt: u32,
    ) -> Result<String, AuthError> {
        if attempt > self.config.max_step_ups {
            return Err(self.error(AuthErrorKind::StepUpLimit(attempt - 1)));
        }
        let mut state = self.state.lock().await;
        let params = WWWAuthenticateParams::parse(challenge, &self.base);
        let (Some(manager), Some(redirect_uri)) = (&state.manager, state.redirect_uri.clone())
        else {
            // No sign-in of ours to extend (a token from an earlier run): a new one.
            return self.sign_in(&mut state, challenge).await;
        };
        let Some(scope) = params.scope.filter(|s| !s.trim().is_empty()) else {
            return Err(self.error(AuthErrorKind::TokenRefused { status: 403 }));
        };
        let redirect =
            loopback_redirect(&redirect_uri).map_err(|m| self.error(AuthErrorKind::Redirect(m)))?;
        let url = manager
            .request_scope_upgrade(&scope)
            .await
            .map_err(|e| match e {
                RmcpAuthError::InvalidScope(_) => {
                    self.error(AuthErrorKind::StepUpLimit(attempt - 1))
                }
                other => self.rmcp_error(&other),
            })?;
        let prompt = AuthorizationPrompt {
            server: self.server.clone(),
            issuer: state.issuer.clone().unwrap_or_default(),
            scopes: requested_scopes(&url),
            authorization_url: url,
            redirect_uri,
            step_up: true,
        };
        let callback = self
            .ui
            .authorize(&prompt)
            .await
            .map_err(|e| self.ui_error(e))?;
        let parsed = self.check_callback(&redirect, &callback)?;
        let token = manager
            .exchange_code_for_token_with_issuer(
                &parsed.code,
                &parsed.csrf_token,
                parsed.issuer.as_deref(),
            )
            .await
            .map_err(|e| self.rmcp_error(&e))?;
        Ok(oauth2::TokenResponse::access_token(&token).secret().clone())
    }

    fn ui_error(&self, e: AuthUiError) -> AuthError {
        match e {
            AuthUiError::Declined => self.error(AuthErrorKind::Declined),
            AuthUiError::Failed(m) => self.error(AuthErrorKind::Ui(m)),
        }
    }

    /// The authorization response came to the redirect URI, is not an error, and has a
    /// code and a state.
    fn check_callback(
        &self,
        redirect: &Url,
        callback: &str,
    ) -> Result<AuthorizationCallback, AuthError> {
        let url = Url::parse(callback).map_err(|e| {
            self.error(AuthErrorKind::AuthorizationResponse(format!(
                "the redirect is not a URL: {e}"
            )))
        })?;
        let same = url.scheme() == redirect.scheme()
            && url.host() == redirect.host()
            && url.port_or_known_default() == redirect.port_or_known_default()
            && url.path() == redirect.path();
        if !same {
            let mut shown = url.clone();
            shown.set_query(None);
            return Err(self.error(AuthErrorKind::Redirect(format!(
                "the authorization server sent the browser to {shown}, not to the redirect URI {redirect}"
            ))));
        }
        if let Some((_, error)) = url.query_pairs().find(|(k, _)| k == "error") {
            let error: String = error.chars().take(100).collect();
            return Err(self.error(AuthErrorKind::AuthorizationResponse(format!(
                "the authorization server answered error={error}"
            ))));
        }
        for name in ["code", "state", "iss"] {
            if url.query_pairs().filter(|(k, _)| k == name).count() > 1 {
                return Err(self.error(AuthErrorKind::AuthorizationResponse(format!(
                    "{name} appears more than once"
                ))));
            }
        }
        AuthorizationCallback::from_redirect_url(callback)
            .map_err(|e| self.error(AuthErrorKind::AuthorizationResponse(e.to_string())))
    }
}

/// Builds an rmcp authorization manager (its constructor is async).
struct AuthorizationManagerFuture {
    base: Url,
    private: bool,
}

impl AuthorizationManagerFuture {
    async fn build(self) -> Result<AuthorizationManager, RmcpAuthError> {
        if self.private {
            AuthorizationManager::new_allowing_private_addresses(self.base).await
        } else {
            AuthorizationManager::new(self.base).await
        }
    }
}

/// The canonical URI of the MCP server at `server_url` (the [`TokenStore`] key), as
/// [`Authorizer::resource`] computes it: lowercase scheme and host, no default port, no
/// query, no fragment, no `/` after a bare host.
///
/// ```
/// use mcp_elicit_client::auth::canonical_resource;
/// assert_eq!(canonical_resource("HTTPS://Mcp.Example.com:443/mcp#x").as_deref(), Some("https://mcp.example.com/mcp"));
/// assert_eq!(canonical_resource("not a url"), None);
/// ```
pub fn canonical_resource(server_url: &str) -> Option<String> {
    Url::parse(server_url).ok().map(|u| canonical(&u))
}

fn canonical(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.set_query(None);
    let s = url.to_string();
    // `Url` writes "https://host/" for a bare host; the canonical form has no slash.
    if url.path() == "/" {
        s.trim_end_matches('/').to_owned()
    } else {
        s
    }
}

/// The `scope` parameter of an authorization URL, split.
fn requested_scopes(authorization_url: &str) -> Vec<String> {
    Url::parse(authorization_url)
        .ok()
        .and_then(|u| {
            u.query_pairs()
                .find(|(k, _)| k == "scope")
                .map(|(_, v)| v.split_whitespace().map(str::to_owned).collect())
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_resource_drops_fragment_query_and_root_slash() {
        let u = Url::parse("HTTPS://MCP.Example.com/mcp?x=1#f").unwrap();
        assert_eq!(canonical(&u), "https://mcp.example.com/mcp");
        let u = Url::parse("https://mcp.example.com/").unwrap();
        assert_eq!(canonical(&u), "https://mcp.example.com");
    }

    #[test]
    fn requested_scopes_reads_the_scope_parameter() {
        assert_eq!(
            requested_scopes("https://as/authorize?scope=a%20b&state=x"),
            vec!["a", "b"]
        );
        assert!(requested_scopes("https://as/authorize?state=x").is_empty());
    }
}
