//! [`ConfirmPage`]: a one-button page of this server behind a URL elicitation, which
//! completes it for the user it was asked for and remembers who confirmed.

use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::{MethodRouter, get};

use crate::error::{Error, ErrorKind};
use crate::hub::Elicitations;
use crate::identity::{IdentityPolicy, Principal};
use crate::page::ELICITATION_ID_PARAM;
use crate::store::PendingElicitation;

/// What a [`ConfirmPage`] answers to an id it cannot complete and to another site's POST,
/// unless told otherwise ([`ConfirmPage::refused`]); the body is exactly this text (nothing
/// in it needs HTML-escaping).
pub const REFUSED_TEXT: &str =
    "Nothing to confirm: this link is unknown, used, expired or for another user";

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type Hook = Arc<
    dyn Fn(PendingElicitation) -> Pin<Box<dyn Future<Output = Result<(), BoxError>> + Send>>
        + Send
        + Sync,
>;

/// A page of this server that the user finishes with one button, behind a URL
/// elicitation ([`Ask::url_page`](crate::Ask::url_page)`(key, message, page.url())`):
/// "link my calendar", "I accept the terms", "confirm the payment".
///
/// - **GET** shows the button: a `<form method=post>` posting back to the same URL
///   (its `?elicitationId=` query included). Nothing is looked up or changed.
/// - **POST** completes the elicitation named by `elicitationId` for the page's user
///   with [`Elicitations::complete_with`], in its safe order: the id and its owner
///   verified and the completion recorded (at most once), then your
///   [`on_confirm`](Self::on_confirm) bookkeeping, then the user remembered as confirmed
///   ([`ConfirmPage::confirmed`]), then the client notified (once). It answers:
///   - **200** with the `done` text of [`ConfirmPage::new`];
///   - **404** with the [`refused`](Self::refused) text ([`REFUSED_TEXT`] by default)
///     for an id that is missing, unknown, used (a replay), expired, declined or
///     another user's: nothing changes, no bookkeeping runs, nobody is notified;
///   - **403** (the refused text) for a POST whose `Origin` is another site's (neither
///     the request's `Host` nor the origin of [`ConfirmPage::url`]), before anything is
///     looked up; a POST without `Origin` (not a browser) is let through, as the id
///     cannot be guessed;
///   - **401** (`Sign in first`) without a [`Principal`] under
///     [`IdentityPolicy::Authenticated`];
///   - **503** with `Retry-After: 5` while the store is unavailable (nothing changed:
///     the user presses again);
///   - **500** when your bookkeeping (or the store) fails: the elicitation is used up,
///     the user is not remembered and the client is not notified (its retry asks again).
///
///   Every answer is `text/html` with `Cache-Control: no-store`, `Referrer-Policy:
///   no-referrer` (the URL holds the id), `X-Frame-Options: DENY` and a
///   `Content-Security-Policy` that allows no script and no framing.
/// - **The page's user** is resolved like an MCP request's: the [`Principal`] your
///   authentication layer put into the HTTP request's extensions, else the local user of
///   [`IdentityPolicy::LocalUser`] (loopback development: whoever reaches the page is
///   the user running the server).
/// - **Who confirmed is kept in memory**, for this process only and until it exits
///   (empty at first): a server that must remember across restarts or nodes records it
///   in [`on_confirm`](Self::on_confirm) and checks its own store.
///
/// Clone it freely (clones share the set of confirmed users). Serve it with
/// [`HttpServer::confirm_page`](crate::HttpServer::confirm_page), or mount
/// [`ConfirmPage::route`] at the path of [`ConfirmPage::url`] in your own router.
///
/// A press, a replay of it and another site's POST, on the route alone (the elicitation is
/// stored by hand here; a tool's [`Ask::url_page`](crate::Ask::url_page) stores it):
///
/// ```
/// # use std::sync::Arc;
/// # use std::time::{Duration, SystemTime};
/// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
/// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, IdentityPolicy, MemoryStore,
/// #     Mode, PendingElicitation, SessionKey, SystemClock};
/// use mcp_elicit_server::axum::{Router, body::Body, http::Request};
/// use mcp_elicit_server::{ConfirmPage, Elicitations, Principal};
/// use tower::ServiceExt;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let alice = Principal::local_user("alice");
/// # let store = Arc::new(MemoryStore::new());
/// # let config = ElicitationConfig::new(IdentityPolicy::LocalUser(alice.clone()));
/// # let hub = Elicitations::with_store(config, store.clone(), Arc::new(SystemClock));
/// # let now = SystemTime::now();
/// # store.insert(PendingElicitation {
/// #     id: "e1".into(), principal: alice.clone(), session: SessionKey::from_stored("s1"),
/// #     mode: Mode::Url, state: State::Accepted, message: "Link your calendar".into(),
/// #     url: Some("http://127.0.0.1:8080/link?elicitationId=e1".into()),
/// #     created_at: now, expires_at: now + Duration::from_secs(600), app_data: None,
/// # }).await?;
/// // `hub`: alice is the local user; she was asked to link her calendar (id `e1`).
/// let page = ConfirmPage::new(&hub, "http://127.0.0.1:8080/link", "Link", "Linked");
/// let app = Router::new().route("/link", page.route());
/// let post = |origin: &str| {
///     Request::post("/link?elicitationId=e1")
///         .header("host", "127.0.0.1:8080")
///         .header("origin", origin)
///         .body(Body::empty())
/// };
///
/// let evil = app.clone().oneshot(post("https://evil.example")?).await?;
/// assert_eq!(evil.status(), 403);
/// assert!(!page.confirmed(&alice));
///
/// let pressed = app.clone().oneshot(post("http://127.0.0.1:8080")?).await?;
/// assert_eq!(pressed.status(), 200);
/// assert!(page.confirmed(&alice));
///
/// let replayed = app.oneshot(post("http://127.0.0.1:8080")?).await?;
/// assert_eq!(replayed.status(), 404);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ConfirmPage {
    inner: Arc<PageInner>,
}

struct PageInner {
    hub: Elicitations,
    url: String,
    button: String,
    done: String,
    refused: String,
    hook: Option<Hook>,
    confirmed: Mutex<HashSet<Principal>>,
}

impl fmt::Debug for ConfirmPage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConfirmPage")
            .field("url", &self.inner.url)
            .field("button", &self.inner.button)
            .finish_non_exhaustive()
    }
}

impl ConfirmPage {
    /// A page at `url` (absolute: what the client is sent) completing elicitations of
    /// `hub`, with a button labelled `button` and `done` as its answer once confirmed.
    /// The texts are shown as text (HTML-escaped). Defaults: [`REFUSED_TEXT`] for an id it
    /// cannot complete ([`refused`](Self::refused)), no bookkeeping of yours
    /// ([`on_confirm`](Self::on_confirm)), nobody confirmed yet.
    ///
    /// ```
    /// use mcp_elicit_server::{ConfirmPage, Elicitations, Principal};
    ///
    /// let page = ConfirmPage::new(
    ///     &Elicitations::local(),
    ///     "http://127.0.0.1:8080/link",
    ///     "Link my calendar",
    ///     "Calendar linked: go back to your MCP client",
    /// );
    /// assert_eq!(page.url(), "http://127.0.0.1:8080/link");
    /// assert!(!page.confirmed(&Principal::current_local_user()));
    /// ```
    pub fn new(
        hub: &Elicitations,
        url: impl Into<String>,
        button: impl Into<String>,
        done: impl Into<String>,
    ) -> Self {
        Self {
            inner: Arc::new(PageInner {
                hub: hub.clone(),
                url: url.into(),
                button: button.into(),
                done: done.into(),
                refused: REFUSED_TEXT.to_owned(),
                hook: None,
                confirmed: Mutex::new(HashSet::new()),
            }),
        }
    }

    /// The page's answer to an id it cannot complete, and to another site's POST
    /// ([`REFUSED_TEXT`] by default). Call before the page is cloned or served (a clone
    /// keeps the texts it was made with).
    ///
    /// ```
    /// use mcp_elicit_server::axum::{Router, body::{Body, to_bytes}, http::Request};
    /// use mcp_elicit_server::{ConfirmPage, Elicitations};
    /// use tower::ServiceExt;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let page = ConfirmPage::new(&Elicitations::local(), "http://127.0.0.1:8080/pay", "Pay", "Paid")
    ///     .refused("This payment link is not valid (any more)");
    /// let app = Router::new().route("/pay", page.route());
    /// let made_up = Request::post("/pay?elicitationId=00112233").body(Body::empty())?;
    /// let response = app.oneshot(made_up).await?;
    /// assert_eq!(response.status(), 404);
    /// let body = to_bytes(response.into_body(), 1024).await?;
    /// assert_eq!(body, "This payment link is not valid (any more)");
    /// # Ok(())
    /// # }
    /// ```
    pub fn refused(self, text: impl Into<String>) -> Self {
        self.rebuild(|inner| inner.refused = text.into())
    }

    /// Your bookkeeping (none by default), run once per confirmation after the id and
    /// its owner are verified and before the user is remembered and the client notified,
    /// with the completed record (its [`PendingElicitation::app_data`] holds what you
    /// attached when asking). An error answers 500: the user is not remembered and the
    /// client not notified. Call before the page is cloned or served.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use std::time::{Duration, SystemTime};
    /// # use mcp_elicit_server::mcp_elicit_core::lifecycle::State;
    /// # use mcp_elicit_server::{ElicitationConfig, ElicitationStore, IdentityPolicy, MemoryStore,
    /// #     Mode, SessionKey, SystemClock};
    /// use std::sync::Mutex;
    /// use mcp_elicit_server::axum::{Router, body::Body, http::Request};
    /// use mcp_elicit_server::{ConfirmPage, Elicitations, PendingElicitation, Principal};
    /// use tower::ServiceExt;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let alice = Principal::local_user("alice");
    /// # let store = Arc::new(MemoryStore::new());
    /// # let config = ElicitationConfig::new(IdentityPolicy::LocalUser(alice.clone()));
    /// # let hub = Elicitations::with_store(config, store.clone(), Arc::new(SystemClock));
    /// # let now = SystemTime::now();
    /// # store.insert(PendingElicitation {
    /// #     id: "e1".into(), principal: alice.clone(), session: SessionKey::from_stored("s1"),
    /// #     mode: Mode::Url, state: State::Accepted, message: "Pay order 7".into(),
    /// #     url: Some("http://127.0.0.1:8080/pay?elicitationId=e1".into()),
    /// #     created_at: now, expires_at: now + Duration::from_secs(600),
    /// #     app_data: Some(serde_json::json!({"order": 7})),
    /// # }).await?;
    /// // `hub`: alice was asked to pay order 7 (id `e1`, `{"order": 7}` as its app data).
    /// let paid = Arc::new(Mutex::new(Vec::new()));
    /// let orders = paid.clone();
    /// let page = ConfirmPage::new(&hub, "http://127.0.0.1:8080/pay", "Pay", "Paid")
    ///     .on_confirm(move |record: PendingElicitation| {
    ///         // e.g. mark the order as paid in your database
    ///         orders.lock().unwrap().push(record.app_data);
    ///         async { Ok::<_, std::io::Error>(()) }
    ///     });
    /// let app = Router::new().route("/pay", page.route());
    /// let press = || Request::post("/pay?elicitationId=e1").body(Body::empty());
    /// assert_eq!(app.clone().oneshot(press()?).await?.status(), 200);
    /// assert_eq!(app.oneshot(press()?).await?.status(), 404); // a replay: not run again
    /// assert_eq!(*paid.lock().unwrap(), [Some(serde_json::json!({"order": 7}))]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn on_confirm<F, Fut, E>(self, bookkeeping: F) -> Self
    where
        F: Fn(PendingElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), E>> + Send + 'static,
        E: Into<BoxError>,
    {
        let hook: Hook = Arc::new(move |record| {
            let run = bookkeeping(record);
            Box::pin(async move { run.await.map_err(Into::into) })
        });
        self.rebuild(|inner| inner.hook = Some(hook))
    }

    /// The page's absolute URL, as given to [`ConfirmPage::new`] (pass it to
    /// [`Ask::url_page`](crate::Ask::url_page), which adds `elicitationId`).
    ///
    /// ```
    /// use mcp_elicit_server::{ConfirmPage, Elicitations};
    ///
    /// let page = ConfirmPage::new(&Elicitations::local(), "https://mcp.example.com/link", "Link", "Linked");
    /// assert_eq!(page.url(), "https://mcp.example.com/link");
    /// ```
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// Whether `user` has confirmed on this page (since this process started; false
    /// for everyone at first). See the example of [`ConfirmPage`].
    ///
    /// ```
    /// use mcp_elicit_server::{ConfirmPage, Elicitations, Principal};
    ///
    /// let page = ConfirmPage::new(&Elicitations::local(), "http://127.0.0.1:8080/link", "Link", "Linked");
    /// assert!(!page.confirmed(&Principal::local_user("alice")));
    /// ```
    pub fn confirmed(&self, user: &Principal) -> bool {
        self.lock().contains(user)
    }

    /// The axum route serving the page (GET: the button, POST: the press), to mount at
    /// the path of [`ConfirmPage::url`].
    ///
    /// ```
    /// use mcp_elicit_server::axum::{Router, body::{Body, to_bytes}, http::Request};
    /// use mcp_elicit_server::{ConfirmPage, Elicitations};
    /// use tower::ServiceExt;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let page = ConfirmPage::new(&Elicitations::local(), "http://127.0.0.1:8080/link", "Link <my> calendar", "Linked");
    /// let app = Router::new().route("/link", page.route());
    /// let shown = app.oneshot(Request::get("/link?elicitationId=e1").body(Body::empty())?).await?;
    /// assert_eq!(shown.status(), 200);
    /// assert_eq!(shown.headers()["x-frame-options"], "DENY");
    /// let body = to_bytes(shown.into_body(), 4096).await?;
    /// let body = String::from_utf8(body.to_vec())?;
    /// assert!(body.contains("<form method=post><button>Link &lt;my&gt; calendar</button></form>"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn route(&self) -> MethodRouter {
        let (shown, posted) = (self.clone(), self.clone());
        get(move || async move { shown.show().await })
            .post(move |request: Request| async move { posted.press(request).await })
    }

    fn rebuild(self, change: impl FnOnce(&mut PageInner)) -> Self {
        let mut inner = match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner,
            Err(shared) => PageInner {
                hub: shared.hub.clone(),
                url: shared.url.clone(),
                button: shared.button.clone(),
                done: shared.done.clone(),
                refused: shared.refused.clone(),
                hook: shared.hook.clone(),
                confirmed: Mutex::new(HashSet::new()),
            },
        };
        change(&mut inner);
        Self {
            inner: Arc::new(inner),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<Principal>> {
        self.inner
            .confirmed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    async fn show(&self) -> Response {
        let button = escape(&self.inner.button);
        let body = format!(
            "<!doctype html><meta charset=utf-8><title>{button}</title>\
             <form method=post><button>{button}</button></form>"
        );
        html(StatusCode::OK, body)
    }

    async fn press(&self, request: Request) -> Response {
        let inner = &self.inner;
        // Before anything is looked up: a cross-site form cannot press for the user.
        if !same_origin(&request, &inner.url) {
            return html(StatusCode::FORBIDDEN, escape(&inner.refused));
        }
        let user = request.extensions().get::<Principal>().cloned();
        let user = match (user, &inner.hub.config().identity) {
            (Some(user), _) => user,
            (None, IdentityPolicy::LocalUser(local)) => local.clone(),
            (None, IdentityPolicy::Authenticated) => {
                return html(StatusCode::UNAUTHORIZED, SIGN_IN_TEXT.to_owned());
            }
        };
        let id = request.uri().query().and_then(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .find(|(k, _)| k == ELICITATION_ID_PARAM)
                .map(|(_, v)| v.into_owned())
        });
        let Some(id) = id else {
            return html(StatusCode::NOT_FOUND, escape(&inner.refused));
        };
        let bookkeeping = |record: PendingElicitation| async move {
            let user = record.principal.clone();
            if let Some(hook) = &inner.hook {
                hook(record).await?;
            }
            self.lock().insert(user);
            Ok::<_, BoxError>(())
        };
        match inner.hub.complete_with(&user, &id, bookkeeping).await {
            Ok(_) => html(StatusCode::OK, escape(&inner.done)),
            Err(e) if e.kind() == ErrorKind::UnknownElicitation => {
                tracing::info!(elicitation_id = %id, "confirm page: nothing to complete");
                html(StatusCode::NOT_FOUND, escape(&inner.refused))
            }
            Err(e) if e.kind() == ErrorKind::StoreUnavailable => {
                tracing::warn!(error = %e, "confirm page: store unavailable");
                let mut response = html(StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE_TEXT.into());
                let retry = HeaderValue::from_static(RETRY_AFTER_SECS);
                response.headers_mut().insert(header::RETRY_AFTER, retry);
                response
            }
            Err(e) => failed(&e),
        }
    }
}

/// What a POST without a [`Principal`] is told under [`IdentityPolicy::Authenticated`].
const SIGN_IN_TEXT: &str = "Sign in first";
/// What a POST is told while the store cannot be reached (503).
const UNAVAILABLE_TEXT: &str = "Try again in a moment: the server cannot confirm just now";
/// The `Retry-After` of a 503.
const RETRY_AFTER_SECS: &str = "5";

fn failed(error: &Error) -> Response {
    tracing::warn!(%error, "confirm page: the confirmation could not be completed");
    html(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong: go back to your MCP client and try again".to_owned(),
    )
}

/// A browser's cross-site POST carries another `Origin` than the page's own: refused.
/// The page's own is its `Host` (as the browser reached it) or the origin of its
/// configured URL (a proxy in front that rewrites `Host`). No `Origin` (a client that is
/// not a browser, or an old one) passes: the id in the query is 128 random bits and
/// bound to its user, so it cannot be guessed.
fn same_origin(request: &Request, page_url: &str) -> bool {
    let Some(origin) = request.headers().get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    let authority = origin.split_once("://").map(|(_, a)| a);
    if let (Some(a), Some(h)) = (authority, host)
        && a.eq_ignore_ascii_case(h)
    {
        return true;
    }
    url::Url::parse(page_url).is_ok_and(|page| {
        let own = page.origin();
        own.is_tuple() && own.ascii_serialization().eq_ignore_ascii_case(origin)
    })
}

fn html(status: StatusCode, body: String) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    let set = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        // The URL carries the elicitation id: never cached, never sent on as a referrer.
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
        // One button that completes for the user: never inside another site's frame.
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_escaped() {
        assert_eq!(
            escape("<b>\"x\" & 'y'</b>"),
            "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;"
        );
    }

    fn post(origin: Option<&str>) -> Request {
        let mut builder = Request::builder()
            .method("POST")
            .uri("/link?elicitationId=00")
            .header(header::HOST, "127.0.0.1:8080");
        if let Some(origin) = origin {
            builder = builder.header(header::ORIGIN, origin);
        }
        builder.body(Body::empty()).expect("request")
    }

    #[test]
    fn another_sites_post_is_refused() {
        let page = "http://127.0.0.1:8080/link";
        assert!(same_origin(&post(None), page));
        assert!(same_origin(&post(Some("http://127.0.0.1:8080")), page));
        assert!(!same_origin(&post(Some("https://evil.example")), page));
        assert!(!same_origin(&post(Some("null")), page));
        // Behind a proxy that rewrites `Host`: the page's public origin.
        let public = "https://mcp.example.com/link";
        assert!(same_origin(&post(Some("https://mcp.example.com")), public));
        assert!(!same_origin(&post(Some("http://mcp.example.com")), public));
        assert!(!same_origin(
            &post(Some("https://mcp.example.com.evil")),
            public
        ));
    }
}
