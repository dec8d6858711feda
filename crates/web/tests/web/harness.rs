//! A running stack for one test: the real OpenID provider (npm oidc-provider, started
//! with Node on 127.0.0.1), a SQLite store and vault in a temporary directory, the
//! elicitation hub, and the web layer served on 127.0.0.1 with a bearer-protected `/mcp`
//! route that echoes the principal it was given.

use std::io::Write;
use std::process::Stdio;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::Request;
use axum::routing::post;
use mcp_elicit_core::lifecycle::State;
use mcp_elicit_core::message::Mode;
use mcp_elicit_server::{
    Clock, ElicitationConfig, ElicitationStore, Elicitations, IdentityPolicy, PendingElicitation,
    Principal, SessionKey, SystemClock,
};
use mcp_elicit_store::{Keyring, Store, Vault, VaultKey, VaultStore};
use mcp_elicit_web::{
    ClientRegistration, ConfirmOutcome, ProviderConfig, ProviderEndpoints, Purpose, Web, WebConfig,
};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The third-party resource the provider issues refreshable tokens for.
pub const THIRD_PARTY_RESOURCE: &str = "https://api.third-party.test/";
/// The provider name tools use.
pub const PROVIDER: &str = "thirdparty";

/// What the provider printed at start.
#[derive(serde::Deserialize)]
pub struct ProviderInfo {
    pub issuer: String,
    pub kid: String,
    pub signing_key_pem: String,
    pub other_key_pem: String,
}

/// Everything one test needs.
pub struct Stack {
    pub base: String,
    pub issuer: String,
    pub provider: ProviderInfo,
    pub web: Web,
    /// The web layer's configuration (to start another node with).
    pub config: WebConfig,
    pub hub: Elicitations,
    pub store: Store,
    pub vault: Vault,
    pub clock: Arc<ManualClock>,
    _node: Child,
    _dir: tempfile::TempDir,
}

pub use crate::driver::{node, tools_dir};

/// Every log line of the test process (all tests of this binary), for "nothing secret
/// was logged" checks.
pub fn logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("trace"))
            .with_ansi(false)
            .with_writer(move || LogWriter(sink.clone()))
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
        buffer
    })
    .clone()
}

/// The captured logs as text.
pub fn log_text() -> String {
    let logs = logs();
    let guard = logs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    String::from_utf8_lossy(&guard).into_owned()
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The protected test endpoint: echoes the principal the bearer middleware inserted.
async fn echo(request: Request) -> String {
    if request.headers().contains_key("authorization") {
        return "the bearer token reached the handler".to_owned();
    }
    match request.extensions().get::<Principal>() {
        Some(p) => format!("{}|{}", p.issuer(), p.subject()),
        None => "none".to_owned(),
    }
}

impl Stack {
    /// Starts everything.
    pub async fn start() -> Stack {
        Self::start_with(|c| c).await
    }

    /// Starts everything, letting the test adjust the web configuration.
    pub async fn start_with(adjust: impl FnOnce(WebConfig) -> WebConfig) -> Stack {
        Self::start_full(adjust, |_, _, _| Router::new().route("/mcp", post(echo))).await
    }

    /// Starts everything with `mcp` building the MCP route (protected by the bearer
    /// middleware).
    pub async fn start_full(
        adjust: impl FnOnce(WebConfig) -> WebConfig,
        mcp: impl FnOnce(&Elicitations, &Web, &Vault) -> Router,
    ) -> Stack {
        logs();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let base = format!("http://{addr}");
        let oidc = tools_dir().join("oidc");
        assert!(
            oidc.join("node_modules/oidc-provider").is_dir(),
            "oidc-provider is not installed: run crates/web/tests/oidc/install.sh (looked in {})",
            oidc.display()
        );
        let mut node = Command::new(node())
            .current_dir(&oidc)
            .arg("--input-type=module")
            .arg("-e")
            .arg(include_str!("../oidc/provider.mjs"))
            .env("WEB_BASE", &base)
            .env("AUDIENCE", format!("{base}/mcp"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start node with the test OpenID provider");
        let stdout = node.stdout.take().expect("provider stdout");
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("the provider did not start within 30 s")
            .expect("reading the provider's stdout")
            .expect("the provider exited before printing its issuer");
        let provider: ProviderInfo = serde_json::from_str(&line).expect("provider info JSON");
        // Keep reading: the provider prints notices later, and a closed pipe kills it (EPIPE).
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let issuer = provider.issuer.clone();

        let dir = tempfile::tempdir().expect("temporary directory");
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("state.db").display()
        );
        let store = Store::connect(&url).await.expect("sqlite store");
        let clock = Arc::new(ManualClock::default());
        let vault = store
            .vault(Keyring::new(VaultKey::generate().expect("vault key")))
            .with_clock(clock.clone());
        let hub = Elicitations::with_store(
            ElicitationConfig::new(IdentityPolicy::Authenticated),
            Arc::new(store.clone()),
            Arc::new(SystemClock),
        );
        let config = WebConfig::new(
            issuer.clone(),
            url::Url::parse(&base).expect("base URL"),
            ClientRegistration::confidential("mcp-web", "mcp-web-secret"),
        )
        .with_provider(ProviderConfig {
            name: PROVIDER.into(),
            display_name: "Third Party".into(),
            endpoints: ProviderEndpoints::Discover {
                issuer: issuer.clone(),
            },
            client: ClientRegistration::confidential("third-party-app", "third-party-secret"),
            scopes: vec!["openid".into(), "offline_access".into(), "api:read".into()],
            resource: Some(THIRD_PARTY_RESOURCE.into()),
        })
        .with_jwks_min_refresh(Duration::from_millis(200));
        let config = adjust(config);
        let web = Web::new(config.clone(), hub.clone(), Arc::new(vault.clone()))
            .await
            .expect("web layer");
        let mcp = mcp(&hub, &web, &vault);
        let app = web.protect(mcp).merge(web.router());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Stack {
            base,
            issuer,
            provider,
            web,
            config,
            hub,
            store,
            vault,
            clock,
            _node: node,
            _dir: dir,
        }
    }

    /// Another server node: its own web layer and registry over the same store (same
    /// configuration, so the same public URL), served on its own loopback port, as a
    /// second process behind a load balancer would be. Returns its base URL.
    pub async fn second_node(&self) -> String {
        let hub = Elicitations::with_store(
            ElicitationConfig::new(IdentityPolicy::Authenticated),
            Arc::new(self.store.clone()),
            Arc::new(SystemClock),
        );
        let web = Web::new(self.config.clone(), hub, Arc::new(self.vault.clone()))
            .await
            .expect("second web layer");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let app = web.router();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        base
    }

    /// The principal the provider's user `name` signs in as.
    pub fn user(&self, name: &str) -> Principal {
        Principal::authenticated(self.issuer.clone(), name)
    }

    /// A pending URL elicitation for `user` with `purpose`; returns its id.
    pub async fn pending(&self, user: &Principal, purpose: Purpose) -> String {
        self.pending_until(user, purpose, SystemTime::now() + Duration::from_secs(3600))
            .await
    }

    /// [`Stack::pending`] expiring at `expires_at`.
    pub async fn pending_until(
        &self,
        user: &Principal,
        purpose: Purpose,
        expires_at: SystemTime,
    ) -> String {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).expect("random");
        let id = hex(&bytes);
        let now = SystemTime::now();
        self.store
            .insert(PendingElicitation {
                id: id.clone(),
                principal: user.clone(),
                session: SessionKey::from_stored("mcp-session:test"),
                mode: Mode::Url,
                state: State::Pending,
                message: "Please finish this in your browser <b>now</b>".into(),
                url: Some(self.web.connect_url(&id)),
                created_at: now,
                expires_at,
                app_data: None,
            })
            .await
            .expect("insert pending elicitation");
        self.web
            .register(user, &id, purpose)
            .await
            .expect("register the page's purpose");
        id
    }

    /// The answer `user` gave on the confirmation page of `id`, if any.
    pub async fn confirmation(&self, user: &Principal, id: &str) -> Option<ConfirmOutcome> {
        self.web.confirmation(user, id).await.expect("store")
    }

    /// Whether `user`'s elicitation `id` is still pending.
    /// The secret the vault holds for `user` under `name`, if any.
    pub async fn stored_secret(
        &self,
        user: &Principal,
        name: &str,
    ) -> Option<mcp_elicit_store::StoredSecret> {
        self.vault.get_secret(user, name).await.expect("vault")
    }

    /// The tokens the vault holds for `user` from the test [`PROVIDER`], if any.
    pub async fn stored_tokens(&self, user: &Principal) -> Option<mcp_elicit_store::OAuthTokens> {
        self.vault.get_tokens(user, PROVIDER).await.expect("vault")
    }

    /// Posts the secret-entry form of elicitation `id` from `browser`, same-origin.
    pub async fn submit_secret(
        &self,
        browser: &mut crate::browser::Browser,
        id: &str,
        csrf: &str,
        secret: &str,
    ) -> crate::browser::Page {
        browser
            .submit(
                &format!("{}/connect/secret", self.base),
                &[("elicitationId", id), ("csrf", csrf), ("secret", secret)],
                &self.base,
            )
            .await
    }

    pub async fn is_pending(&self, user: &Principal, id: &str) -> bool {
        self.hub.get(user, id).await.expect("lookup").is_some()
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The vault's clock: the system clock plus an offset tests move forward.
#[derive(Default)]
pub struct ManualClock {
    offset: Mutex<Duration>,
}

impl ManualClock {
    pub fn advance(&self, by: Duration) {
        *self
            .offset
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
            + *self
                .offset
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
