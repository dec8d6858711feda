//! A browser played by reqwest: its own cookie jar, redirects followed by hand (each hop
//! inspectable), and the provider's development sign-in and consent forms filled in as
//! user `name`.

use std::sync::Arc;

use reqwest::cookie::Jar;
use reqwest::{Method, StatusCode, Url};

/// One response.
pub struct Page {
    pub url: Url,
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

pub struct Browser {
    pub client: reqwest::Client,
    pub jar: Arc<Jar>,
    pub user: String,
    /// Every URL visited, in order.
    pub visited: Vec<Url>,
}

/// The value of `<input ... name="NAME" value="...">` in our pages.
pub fn hidden_value(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')? + start;
    Some(html[start..end].replace("&amp;", "&"))
}

fn form_action(html: &str) -> Option<String> {
    let start = html.find("<form")?;
    let rest = &html[start..];
    let a = rest.find("action=\"")? + "action=\"".len();
    let end = rest[a..].find('"')? + a;
    Some(
        rest[a..end]
            .replace("&amp;", "&")
            .replace("&#x2F;", "/")
            .replace("&#47;", "/"),
    )
}

impl Browser {
    pub fn new(user: &str) -> Browser {
        let jar = Arc::new(Jar::default());
        let client = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("browser client");
        Browser {
            client,
            jar,
            user: user.to_owned(),
            visited: Vec::new(),
        }
    }

    /// One request, no redirect following.
    pub async fn request(
        &mut self,
        method: Method,
        url: &str,
        form: Option<&[(&str, &str)]>,
        origin: Option<&str>,
    ) -> Page {
        let url = Url::parse(url).expect("absolute URL");
        self.visited.push(url.clone());
        let mut req = self.client.request(method, url.clone());
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(fields) = form {
            let body = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(fields.iter())
                .finish();
            req = req
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body);
        }
        let resp = req.send().await.expect("request");
        Page {
            url,
            status: resp.status(),
            headers: resp.headers().clone(),
            body: resp.text().await.unwrap_or_default(),
        }
    }

    /// One hop from `page`: follows a redirect (GET) or fills in the provider's
    /// development sign-in or consent form as this browser's user. `None` at a final page.
    pub async fn step(&mut self, page: &Page) -> Option<Page> {
        if page.status.is_redirection() {
            let location = page
                .headers
                .get("location")
                .and_then(|v| v.to_str().ok())
                .expect("redirect with Location");
            let next = page.url.join(location).expect("Location URL");
            return Some(self.request(Method::GET, next.as_str(), None, None).await);
        }
        if page.status == StatusCode::OK && page.url.path().starts_with("/interaction/") {
            let action = form_action(&page.body).expect("interaction form");
            let target = page.url.join(&action).expect("form action URL");
            let user = self.user.clone();
            let fields: Vec<(&str, &str)> = if page.body.contains("value=\"login\"") {
                vec![("prompt", "login"), ("login", &user), ("password", "any")]
            } else {
                vec![("prompt", "consent")]
            };
            let origin = page.url.origin().ascii_serialization();
            return Some(
                self.request(Method::POST, target.as_str(), Some(&fields), Some(&origin))
                    .await,
            );
        }
        None
    }

    /// Follows redirects from `page`, signing in and consenting at the provider's
    /// development pages as needed, until a final page.
    pub async fn follow(&mut self, mut page: Page) -> Page {
        for _ in 0..25 {
            match self.step(&page).await {
                Some(next) => page = next,
                None => return page,
            }
        }
        panic!("too many redirects");
    }

    /// GET `url` and follow.
    pub async fn open(&mut self, url: &str) -> Page {
        let page = self.request(Method::GET, url, None, None).await;
        self.follow(page).await
    }

    /// POST a form of our pages (with our Origin) and follow.
    pub async fn submit(&mut self, url: &str, fields: &[(&str, &str)], origin: &str) -> Page {
        let page = self
            .request(Method::POST, url, Some(fields), Some(origin))
            .await;
        self.follow(page).await
    }
}
