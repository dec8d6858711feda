//! A small Streamable HTTP client for the limit and load tests: sessions, tool calls
//! whose SSE streams are read message by message (so a test can answer the form a call
//! waits on, or keep the call pending), and answers that report refusals instead of
//! panicking (a load test counts them).
#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// An answer that was not a success: its status, `Retry-After` and body.
#[derive(Debug, Clone)]
pub struct Refused {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

impl Refused {
    fn network(e: impl std::fmt::Display) -> Refused {
        Refused {
            status: 0,
            retry_after: None,
            body: e.to_string(),
        }
    }

    /// The `data.limit` of its JSON-RPC error, if it names one.
    pub fn limit(&self) -> Option<String> {
        let v: Value = serde_json::from_str(&self.body).ok()?;
        if v["error"]["code"] != -32000 || v["error"]["data"]["kind"] != "limit" {
            return None;
        }
        v["error"]["data"]["limit"].as_str().map(str::to_owned)
    }
}

/// Server-sent events (or one JSON body) read message by message.
pub struct Messages {
    response: Option<reqwest::Response>,
    buf: String,
    json: bool,
}

impl Messages {
    pub fn new(response: reqwest::Response) -> Messages {
        let json = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("application/json"));
        Messages {
            response: Some(response),
            buf: String::new(),
            json,
        }
    }

    /// The next JSON-RPC message, None at the end of the body.
    pub async fn next(&mut self) -> Option<Value> {
        if self.json {
            let text = self.response.take()?.text().await.ok()?;
            return serde_json::from_str(&text).ok();
        }
        loop {
            while let Some(end) = self.buf.find("\n\n") {
                let event: String = self.buf.drain(..end + 2).collect();
                let data: String = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if let Ok(v) = serde_json::from_str::<Value>(&data) {
                    return Some(v);
                }
            }
            let chunk = self.response.as_mut()?.chunk().await.ok()??;
            self.buf
                .push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
        }
    }

    /// Messages until one with `method` (returned) or the end.
    pub async fn until_method(&mut self, method: &str) -> Option<Value> {
        while let Some(m) = self.next().await {
            if m["method"] == method {
                return Some(m);
            }
        }
        None
    }

    /// Messages until the response to `id` (returned) or the end.
    pub async fn until_response(&mut self, id: &Value) -> Option<Value> {
        while let Some(m) = self.next().await {
            if &m["id"] == id && m.get("method").is_none() {
                return Some(m);
            }
        }
        None
    }
}

/// One MCP session on 2025-11-25, form and URL mode declared.
pub struct Session {
    pub http: reqwest::Client,
    pub url: String,
    pub id: String,
    /// What the standalone GET stream received, when one is open.
    pub stream: Arc<Mutex<String>>,
}

/// POSTs `body` to `url` (with `session`): the response if it succeeded.
pub async fn post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: &Value,
) -> Result<reqwest::Response, Refused> {
    let mut req = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .json(body);
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    let resp = req.send().await.map_err(Refused::network)?;
    if resp.status().is_success() {
        return Ok(resp);
    }
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    Err(Refused {
        status,
        retry_after,
        body: resp.text().await.unwrap_or_default(),
    })
}

pub fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {"form": {}, "url": {}}},
        "clientInfo": {"name": "mcp-elicit-hostile-tests", "version": "0"}}})
}

pub fn call(id: u64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": {}}})
}

impl Session {
    /// `initialize` only (no `notifications/initialized`, no stream).
    pub async fn initialize(http: &reqwest::Client, url: &str) -> Result<Session, Refused> {
        let resp = post(http, url, None, &initialize()).await?;
        let id = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| Refused {
                status: 200,
                retry_after: None,
                body: "no mcp-session-id".into(),
            })?;
        let _ = resp.bytes().await;
        Ok(Session {
            http: http.clone(),
            url: url.to_owned(),
            id,
            stream: Arc::new(Mutex::new(String::new())),
        })
    }

    /// A whole handshake, and the standalone stream open when `stream`.
    pub async fn open(http: &reqwest::Client, url: &str, stream: bool) -> Result<Session, Refused> {
        let s = Session::initialize(http, url).await?;
        s.notify(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
        if stream {
            s.open_stream().await?;
        }
        Ok(s)
    }

    pub async fn open_stream(&self) -> Result<(), Refused> {
        let resp = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &self.id)
            .send()
            .await
            .map_err(Refused::network)?;
        if !resp.status().is_success() {
            return Err(Refused {
                status: resp.status().as_u16(),
                retry_after: None,
                body: String::new(),
            });
        }
        let seen = Arc::clone(&self.stream);
        let mut resp = resp;
        tokio::spawn(async move {
            while let Ok(Some(chunk)) = resp.chunk().await {
                seen.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push_str(&String::from_utf8_lossy(&chunk));
            }
        });
        Ok(())
    }

    /// POSTs a notification or a response (the body is drained).
    pub async fn notify(&self, body: &Value) -> Result<(), Refused> {
        let resp = post(&self.http, &self.url, Some(&self.id), body).await?;
        let _ = resp.bytes().await;
        Ok(())
    }

    /// POSTs a request; its messages.
    pub async fn request(&self, body: &Value) -> Result<Messages, Refused> {
        post(&self.http, &self.url, Some(&self.id), body)
            .await
            .map(Messages::new)
    }

    /// Answers server request `request` (an `elicitation/create`) with `result`.
    pub async fn answer(&self, request: &Value, result: Value) -> Result<(), Refused> {
        self.notify(&json!({"jsonrpc": "2.0", "id": request["id"].clone(), "result": result}))
            .await
    }

    /// Whether the standalone stream received the completion of `elicitation`.
    pub fn completed(&self, elicitation: &str) -> bool {
        let seen = self
            .stream
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        seen.contains("notifications/elicitation/complete") && seen.contains(elicitation)
    }

    pub async fn delete(&self) -> Result<(), Refused> {
        let resp = self
            .http
            .delete(&self.url)
            .header("mcp-session-id", &self.id)
            .send()
            .await
            .map_err(Refused::network)?;
        if resp.status().is_success() {
            Ok(())
        } else {
            Err(Refused {
                status: resp.status().as_u16(),
                retry_after: None,
                body: resp.text().await.unwrap_or_default(),
            })
        }
    }
}

/// The ordinary form flow: `demo_profile`, the form answered, the result read.
pub async fn form_flow(s: &Session, id: u64) -> Result<(), String> {
    let mut m = s
        .request(&call(id, "demo_profile"))
        .await
        .map_err(|r| format!("call refused: {r:?}"))?;
    let ask = m
        .until_method("elicitation/create")
        .await
        .ok_or("no elicitation/create")?;
    s.answer(
        &ask,
        json!({"action": "accept", "content": {"name": "Ada", "age": 36, "updates": true}}),
    )
    .await
    .map_err(|r| format!("answer refused: {r:?}"))?;
    let done = m
        .until_response(&json!(id))
        .await
        .ok_or("no response to the call")?;
    let text = done["result"]["content"][0]["text"].as_str().unwrap_or("");
    if text.starts_with("Profile: Ada") {
        Ok(())
    } else {
        Err(format!("unexpected result {done}"))
    }
}

/// The value of `<input ... name="NAME" value="...">`.
fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')? + start;
    Some(html[start..end].replace("&amp;", "&"))
}

/// The ordinary URL flow: `demo_url`, consent given, the page opened and finished as a
/// browser does, the completion notification received on the standalone stream.
pub async fn url_flow(s: &Session, base: &str, id: u64) -> Result<(), String> {
    let (url, elicitation) = start_url_flow(s, id).await?;
    finish_url_flow(s, base, &url, &elicitation).await
}

/// The first half of [`url_flow`]: `demo_url` called, consent given, the call answered;
/// the page's URL and the elicitation's id (pending on the server).
pub async fn start_url_flow(s: &Session, id: u64) -> Result<(String, String), String> {
    let mut m = s
        .request(&call(id, "demo_url"))
        .await
        .map_err(|r| format!("call refused: {r:?}"))?;
    let ask = m
        .until_method("elicitation/create")
        .await
        .ok_or("no elicitation/create")?;
    let url = ask["params"]["url"].as_str().ok_or("no url")?.to_owned();
    let elicitation = ask["params"]["elicitationId"]
        .as_str()
        .ok_or("no elicitationId")?
        .to_owned();
    s.answer(&ask, json!({"action": "accept"}))
        .await
        .map_err(|r| format!("answer refused: {r:?}"))?;
    m.until_response(&json!(id))
        .await
        .ok_or("no response to the call")?;
    Ok((url, elicitation))
}

/// The second half of [`url_flow`]: the page opened and finished as a browser does, the
/// completion notification received on the standalone stream.
pub async fn finish_url_flow(
    s: &Session,
    base: &str,
    url: &str,
    elicitation: &str,
) -> Result<(), String> {
    let page = s.http.get(url).send().await.map_err(|e| e.to_string())?;
    if page.status() != 200 {
        return Err(format!("the page answered {}", page.status()));
    }
    let html = page.text().await.map_err(|e| e.to_string())?;
    let mut form = Vec::new();
    if let Some(token) = hidden(&html, "csrf") {
        form.push(("csrf", token));
    }
    let done = s
        .http
        .post(url)
        .header("origin", base)
        .header("sec-fetch-site", "same-origin")
        .form(&form)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if done.status() != 200 {
        return Err(format!("finishing the page answered {}", done.status()));
    }
    for _ in 0..400 {
        if s.completed(elicitation) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("no completion notification for {elicitation}"))
}
