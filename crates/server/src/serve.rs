//! [`HttpServer`]: a bound Streamable HTTP server with the defaults of
//! [`Elicitations::scoped_router`] and pages of its own, served in one call.

use std::fmt;

use axum::Router;
use axum::routing::MethodRouter;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::confirm::ConfirmPage;
use crate::hub::{Elicitations, SessionScope};
use crate::streamable::MCP_PATH;

/// A Streamable HTTP server bound to its address: MCP at `/mcp` through
/// [`Elicitations::scoped_router`] (every handler behind [`Edge`](crate::Edge), a
/// [`SessionScope`] per session, sessions kept alive while a user answers, rounds with
/// their exact JSON, 404 for unknown sessions, the session limits of
/// [`ElicitationConfig::session_limits`](crate::ElicitationConfig::session_limits)),
/// plus the pages behind your URL elicitations, served with `axum::serve` (HTTP/1.1,
/// plain `http://`). Needs the `serve` feature (on by default).
///
/// Defaults, each changed by one method:
///
/// - the URL pages are reached at ([`HttpServer::url`]): `http://` and the bound
///   address ([`with_public_url`](Self::with_public_url));
/// - rmcp's transport configuration: `StreamableHttpServerConfig::default()`, which
///   allows the `Host` names `localhost`, `127.0.0.1` and `::1` only, sends SSE
///   keep-alives every 15 s, and whose cancellation token ends nothing until you cancel
///   it ([`with_http_config`](Self::with_http_config));
/// - no pages ([`route`](Self::route), [`confirm_page`](Self::confirm_page)).
///
/// It is bound before anything is built, so the pages know their URL. It has no
/// connection timeouts or connection cap of its own (those of `axum::serve`: none): for
/// a loopback development server, or behind a proxy that has them. For anything more
/// (your authentication layer in front, TLS, your own limits), build the router with
/// [`Elicitations::scoped_router`] and serve it yourself: this is that, and nothing
/// else.
///
/// ```no_run
/// use mcp_elicit_server::rmcp::{ServerHandler, model::ServerConfig};
/// use mcp_elicit_server::{Elicitations, HttpServer, SessionScope};
///
/// struct App {
///     scope: SessionScope,
/// }
/// impl ServerHandler for App {
///     fn get_info(&self) -> ServerConfig {
///         ServerConfig::default()
///     }
/// }
///
/// # async fn run() -> std::io::Result<()> {
/// let server = HttpServer::bind("127.0.0.1:8080", Elicitations::local()).await?;
/// println!("{}", server.mcp_url()); // http://127.0.0.1:8080/mcp
/// server.serve(|scope| App { scope }).await
/// # }
/// ```
pub struct HttpServer {
    listener: TcpListener,
    base: String,
    hub: Elicitations,
    pages: Router,
    http: StreamableHttpServerConfig,
}

impl fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpServer")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl HttpServer {
    /// Binds `addr` (a loopback address for development: `127.0.0.1:0` picks a free
    /// port) for the handlers of `hub`, with the defaults of [`HttpServer`].
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local()).await?;
    /// let url = server.mcp_url();
    /// assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"), "{url}");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn bind(addr: impl ToSocketAddrs, hub: Elicitations) -> std::io::Result<Self> {
        let listener = TcpListener::bind(addr).await?;
        let base = format!("http://{}", listener.local_addr()?);
        Ok(Self {
            listener,
            base,
            hub,
            pages: Router::new(),
            http: StreamableHttpServerConfig::default(),
        })
    }

    /// The URL clients and browsers reach this server at instead of `http://` and the
    /// bound address (`https://mcp.example.com` behind a TLS proxy); a trailing `/` is
    /// dropped. Set it before making pages: [`HttpServer::url`] uses it. Allow its host
    /// name in [`with_http_config`](Self::with_http_config) too (rmcp's default allows
    /// loopback names only).
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local())
    ///     .await?
    ///     .with_public_url("https://mcp.example.com/");
    /// assert_eq!(server.mcp_url(), "https://mcp.example.com/mcp");
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_public_url(mut self, base: impl Into<String>) -> Self {
        self.base = base.into().trim_end_matches('/').to_owned();
        self
    }

    /// rmcp's transport configuration (allowed hosts and origins, SSE keep-alive, the
    /// cancellation token that ends every session and, here, the server: see
    /// [`HttpServer::serve`]), instead of `StreamableHttpServerConfig::default()`.
    ///
    /// ```
    /// use mcp_elicit_server::rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    /// use mcp_elicit_server::{Elicitations, HttpServer};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let http = StreamableHttpServerConfig::default().with_allowed_hosts(["mcp.example.com"]);
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local())
    ///     .await?
    ///     .with_public_url("https://mcp.example.com")
    ///     .with_http_config(http);
    /// assert_eq!(server.url("/link"), "https://mcp.example.com/link");
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_http_config(mut self, http: StreamableHttpServerConfig) -> Self {
        self.http = http;
        self
    }

    /// The registry the server's handlers and pages use (the one given to
    /// [`HttpServer::bind`]).
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer, IdentityPolicy, Principal};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local()).await?;
    /// let me = Principal::current_local_user();
    /// assert!(matches!(&server.hub().config().identity, IdentityPolicy::LocalUser(u) if *u == me));
    /// # Ok(())
    /// # }
    /// ```
    pub fn hub(&self) -> &Elicitations {
        &self.hub
    }

    /// The absolute URL of `path` (starting with `/`) on this server.
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local()).await?;
    /// let port = server.mcp_url().rsplit_once(':').unwrap().1.trim_end_matches("/mcp").to_owned();
    /// assert_eq!(server.url("/link"), format!("http://127.0.0.1:{port}/link"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The URL of the MCP endpoint ([`MCP_PATH`], `/mcp`), for clients.
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local()).await?;
    /// assert_eq!(server.mcp_url(), server.url("/mcp"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn mcp_url(&self) -> String {
        self.url(MCP_PATH)
    }

    /// Serves `route` (a page of yours: the page behind a URL elicitation, a sign-in
    /// callback) at `path`. Its requests do not go through the session limits of `/mcp`.
    /// See [`HttpServer::serve`] for an example.
    pub fn route(mut self, path: &str, route: MethodRouter) -> Self {
        self.pages = self.pages.route(path, route);
        self
    }

    /// A [`ConfirmPage`] (one button; completes the elicitation for its user and
    /// remembers who confirmed) served at `path`, with `button` as its button and `done`
    /// as its answer, and the defaults of [`ConfirmPage::new`]; returns it for your
    /// handlers ([`ConfirmPage::url`], [`ConfirmPage::confirmed`]). For its other texts
    /// or bookkeeping, build a [`ConfirmPage`] yourself and serve it with
    /// [`HttpServer::route`].
    ///
    /// ```
    /// use mcp_elicit_server::{Elicitations, HttpServer, Principal};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let mut server = HttpServer::bind("127.0.0.1:0", Elicitations::local()).await?;
    /// let calendar = server.confirm_page("/callback", "Link my calendar", "Calendar linked");
    /// assert_eq!(calendar.url(), server.url("/callback"));
    /// assert!(!calendar.confirmed(&Principal::current_local_user()));
    /// # Ok(())
    /// # }
    /// ```
    pub fn confirm_page(&mut self, path: &str, button: &str, done: &str) -> ConfirmPage {
        let page = ConfirmPage::new(&self.hub, self.url(path), button, done);
        let pages = std::mem::take(&mut self.pages);
        self.pages = pages.route(path, page.route());
        page
    }

    /// Serves `/mcp` with the handler `factory` builds for each session (from its
    /// [`SessionScope`]), and the pages, until the listener fails or the cancellation
    /// token of the transport configuration ([`with_http_config`](Self::with_http_config))
    /// is cancelled: then every session ends, no connection is accepted any more, and it
    /// returns `Ok(())` once the open connections have closed.
    ///
    /// ```
    /// use mcp_elicit_server::axum::routing::get;
    /// use mcp_elicit_server::rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    /// use mcp_elicit_server::rmcp::{ServerHandler, model::ServerConfig};
    /// use mcp_elicit_server::{Elicitations, HttpServer, SessionScope};
    /// use tokio::io::{AsyncReadExt, AsyncWriteExt};
    ///
    /// struct App {
    ///     scope: SessionScope,
    /// }
    /// impl ServerHandler for App {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::default()
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::io::Result<()> {
    /// let http = StreamableHttpServerConfig::default();
    /// let stop = http.cancellation_token.clone();
    /// let server = HttpServer::bind("127.0.0.1:0", Elicitations::local())
    ///     .await?
    ///     .with_http_config(http)
    ///     .route("/hello", get(|| async { "hello" }));
    /// let addr = server.url("").trim_start_matches("http://").to_owned();
    /// let serving = tokio::spawn(server.serve(|scope| App { scope }));
    ///
    /// let mut browser = tokio::net::TcpStream::connect(&addr).await?;
    /// let get = format!("GET /hello HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    /// browser.write_all(get.as_bytes()).await?;
    /// let mut response = String::new();
    /// browser.read_to_string(&mut response).await?;
    /// assert!(response.starts_with("HTTP/1.1 200") && response.ends_with("hello"), "{response}");
    ///
    /// stop.cancel();
    /// serving.await.expect("no panic")?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve<S, F>(self, factory: F) -> std::io::Result<()>
    where
        S: ServerHandler,
        F: Fn(SessionScope) -> S + Send + Sync + 'static,
    {
        let stop = self.http.cancellation_token.clone();
        let app = self.hub.scoped_router(factory, self.http).merge(self.pages);
        axum::serve(self.listener, app)
            .with_graceful_shutdown(stop.cancelled_owned())
            .await
    }
}
