//! Machine-to-machine sign-in for `call --client-credentials`: the OAuth 2.0
//! client_credentials grant (rmcp's engine: protected resource and authorization server
//! discovery, the `resource` parameter, the secret in the request body).

use mcp_elicit_client::rmcp::transport::auth::{ClientCredentialsConfig, OAuthState};
use secrecy::{ExposeSecret, SecretString};

use super::store::canonical_resource;

/// An access token for the MCP server at `server` from its authorization server, for the
/// client `client_id` with `secret`. Errors name the server, never the secret.
pub(crate) async fn client_credentials_token(
    server: &str,
    client_id: &str,
    secret: &SecretString,
    scopes: Vec<String>,
) -> Result<SecretString, String> {
    let resource = canonical_resource(server).map_err(|e| e.to_string())?;
    let mut state = OAuthState::new(server, None)
        .await
        .map_err(|e| format!("authorization for {server}: {e}"))?;
    let config = ClientCredentialsConfig::ClientSecret {
        client_id: client_id.to_owned(),
        client_secret: secret.expose_secret().to_owned(),
        scopes,
        resource: Some(resource),
    };
    state
        .authenticate_client_credentials(config)
        .await
        .map_err(|e| format!("client credentials sign-in for {server} as {client_id}: {e}"))?;
    let manager = state
        .into_authorization_manager()
        .ok_or_else(|| format!("client credentials sign-in for {server}: no token"))?;
    let token = manager
        .get_access_token()
        .await
        .map_err(|e| format!("client credentials sign-in for {server}: {e}"))?;
    Ok(SecretString::from(token))
}
