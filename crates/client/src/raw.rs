//! The raw `elicitation/create` params, captured at the transport edge.
//!
//! rmcp parses an incoming `elicitation/create` into its typed `ElicitRequestParams`,
//! whose schema type has no `pattern` (it is silently dropped), and turns a malformed
//! one into a `CustomRequest`. To give the host the request exactly as sent, the
//! transports of this crate ([`crate::transport`]) look at every incoming message
//! *before* rmcp parses it and keep the params of `elicitation/create` requests here,
//! keyed by JSON-RPC request id. The handler takes them back by the id of the request it
//! is answering, then parses them with [`mcp_elicit_core`].
//!
//! The same goes for results that are not plain `complete` ones (2026-07-28
//! `InputRequiredResult`s, and results with an unknown `resultType`): rmcp's typed parse
//! drops what it does not model, or turns a malformed one into something else, so the
//! raw result is kept by the id of the request it answers, for
//! [`ElicitationClient::call_tool`](crate::ElicitationClient::call_tool) to read.
//!
//! Bounded: at most [`RawRequests::CAPACITY`] entries of each kind wait to be taken; the
//! oldest go first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_elicit_core::message::METHOD_CREATE;
use rmcp::model::RequestId;
use serde_json::Value;

#[derive(Debug, Default)]
struct Bounded {
    values: HashMap<RequestId, Value>,
    order: VecDeque<RequestId>,
}

impl Bounded {
    fn insert(&mut self, id: RequestId, value: Value) {
        if self.values.insert(id.clone(), value).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > RawRequests::CAPACITY {
            if let Some(old) = self.order.pop_front() {
                self.values.remove(&old);
            }
        }
    }

    fn take(&mut self, id: &RequestId) -> Option<Value> {
        let value = self.values.remove(id)?;
        self.order.retain(|k| k != id);
        Some(value)
    }
}

#[derive(Debug, Default)]
struct Inner {
    params: Bounded,
    results: Bounded,
}

/// Whether a JSON-RPC `result` is worth keeping raw: anything but a plain complete one.
fn is_interesting_result(result: &Value) -> bool {
    let Some(obj) = result.as_object() else {
        return false;
    };
    let unusual_type = match obj.get("resultType") {
        None => false,
        Some(Value::String(t)) => t != "complete",
        Some(_) => true,
    };
    unusual_type || obj.contains_key("inputRequests") || obj.contains_key("requestState")
}

/// Raw params of `elicitation/create` requests not yet handled, by request id (and raw
/// results that are not plain `complete` ones, by the id of the request they answer).
///
/// Clones share the same store: the transport observes, the handler takes. A host that
/// writes its own transport feeds every incoming message to [`observe`](Self::observe) (or
/// [`observe_str`](Self::observe_str)) of
/// [`ElicitationClient::raw_requests`](crate::ElicitationClient::raw_requests):
///
/// ```
/// use mcp_elicit_client::RawRequests;
/// use mcp_elicit_client::rmcp::model::NumberOrString;
/// use serde_json::json;
///
/// let raw = RawRequests::default();
/// let transport_side = raw.clone();
/// transport_side.observe(&json!({
///     "jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
///     "params": {"message": "Your handle?", "requestedSchema": {"type": "object",
///         "properties": {"handle": {"type": "string", "pattern": "^[a-z]+$"}}}}
/// }));
/// // Everything else passes unseen.
/// transport_side.observe(&json!({"jsonrpc": "2.0", "id": 8, "method": "ping"}));
/// assert_eq!(raw.len(), 1);
///
/// // The handler answering request 7 gets the params exactly as sent, `pattern` included.
/// let params = raw.take(&NumberOrString::Number(7)).unwrap();
/// assert_eq!(params["requestedSchema"]["properties"]["handle"]["pattern"], "^[a-z]+$");
/// assert!(raw.take(&NumberOrString::Number(7)).is_none()); // taken once
/// assert!(raw.is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct RawRequests {
    inner: Arc<Mutex<Inner>>,
}

impl RawRequests {
    /// Most entries kept of each kind (requests, results); past it the oldest are dropped,
    /// and their requests are then presented from rmcp's typed parse.
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::rmcp::model::NumberOrString;
    /// use serde_json::json;
    ///
    /// let raw = RawRequests::default();
    /// for id in 0..(RawRequests::CAPACITY as i64 + 1) {
    ///     raw.observe(&json!({"id": id, "method": "elicitation/create", "params": {}}));
    /// }
    /// assert_eq!(raw.len(), RawRequests::CAPACITY);
    /// assert!(raw.take(&NumberOrString::Number(0)).is_none()); // the oldest went first
    /// assert!(raw.take(&NumberOrString::Number(1)).is_some());
    /// ```
    pub const CAPACITY: usize = 256;

    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Looks at one incoming JSON-RPC message (or a batch) and keeps the params of an
    /// `elicitation/create` request, and a result that is not a plain `complete` one
    /// (see [`take_result`](Self::take_result)). Anything else is ignored, as are messages
    /// without a usable `id`.
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::rmcp::model::NumberOrString;
    /// use serde_json::json;
    ///
    /// let raw = RawRequests::default();
    /// raw.observe(&json!([
    ///     {"jsonrpc": "2.0", "id": "a", "method": "elicitation/create", "params": {"message": "1"}},
    ///     {"jsonrpc": "2.0", "method": "elicitation/create", "params": {"message": "no id"}},
    ///     {"jsonrpc": "2.0", "id": "b", "method": "elicitation/create"},
    /// ]));
    /// assert_eq!(raw.len(), 2);
    /// // A request without params is kept as `null` (the handler then refuses it).
    /// assert_eq!(raw.take(&NumberOrString::String("b".into())), Some(serde_json::Value::Null));
    /// ```
    pub fn observe(&self, message: &Value) {
        match message {
            Value::Array(batch) => batch.iter().for_each(|m| self.observe_one(m)),
            other => self.observe_one(other),
        }
    }

    /// Like [`observe`](Self::observe), from JSON text (an SSE `data` field, a stdio line).
    /// Messages that cannot matter (notifications, plain results) are skimmed without being
    /// built; text that is not JSON is ignored.
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::rmcp::model::NumberOrString;
    ///
    /// let raw = RawRequests::default();
    /// // JSON escapes in the method name do not hide a request.
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":3,"method":"elicitation\/cre\u0061te","params":{}}"#);
    /// raw.observe_str("not json");
    /// assert!(raw.take(&NumberOrString::Number(3)).is_some());
    /// ```
    pub fn observe_str(&self, text: &str) {
        /// Only the method and the result's markers: everything else is skipped without
        /// being built, so the common case (notifications, large tool results) stays cheap.
        #[derive(serde::Deserialize)]
        struct Head {
            method: Option<String>,
            result: Option<ResultHead>,
        }
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct ResultHead {
            result_type: Option<Value>,
            input_requests: Option<serde::de::IgnoredAny>,
            request_state: Option<serde::de::IgnoredAny>,
        }
        let interesting = match serde_json::from_str::<Head>(text) {
            Ok(head) => {
                head.method.as_deref() == Some(METHOD_CREATE)
                    || head.result.is_some_and(|r| {
                        r.input_requests.is_some()
                            || r.request_state.is_some()
                            || r.result_type.is_some_and(|t| t != "complete")
                    })
            }
            // Not a single JSON object (a batch, or not JSON at all), or a result that is
            // not an object: look closer.
            Err(_) => true,
        };
        if interesting && let Ok(value) = serde_json::from_str::<Value>(text) {
            self.observe(&value);
        }
    }

    fn observe_one(&self, message: &Value) {
        let Some(obj) = message.as_object() else {
            return;
        };
        let Some(id) = obj
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        else {
            return;
        };
        if obj.get("method").and_then(Value::as_str) == Some(METHOD_CREATE) {
            let params = obj.get("params").cloned().unwrap_or(Value::Null);
            self.lock().params.insert(id, params);
        } else if !obj.contains_key("method")
            && let Some(result) = obj.get("result")
            && is_interesting_result(result)
        {
            self.lock().results.insert(id, result.clone());
        }
    }

    /// Takes the raw params of request `id`, if captured: the first call gets them, later
    /// calls `None`. The id is matched exactly (`7` and `"7"` differ).
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::rmcp::model::NumberOrString;
    ///
    /// let raw = RawRequests::default();
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m"}}"#);
    /// assert!(raw.take(&NumberOrString::String("7".into())).is_none());
    /// assert_eq!(raw.take(&NumberOrString::Number(7)).unwrap()["message"], "m");
    /// assert!(raw.take(&NumberOrString::Number(7)).is_none());
    /// ```
    pub fn take(&self, id: &RequestId) -> Option<Value> {
        self.lock().params.take(id)
    }

    /// Takes the raw result answering our request `id`, if it was captured (only results
    /// that are not plain `complete` ones are: a `resultType` other than `complete`, or an
    /// `inputRequests` or `requestState` member).
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    /// use mcp_elicit_client::rmcp::model::NumberOrString;
    ///
    /// let raw = RawRequests::default();
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#);
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","requestState":"s1"}}"#);
    /// assert!(raw.take_result(&NumberOrString::Number(1)).is_none()); // plain: rmcp's parse is enough
    /// let result = raw.take_result(&NumberOrString::Number(2)).unwrap();
    /// assert_eq!(result["requestState"], "s1");
    /// assert!(raw.is_empty()); // `len` counts captured requests only
    /// ```
    pub fn take_result(&self, id: &RequestId) -> Option<Value> {
        self.lock().results.take(id)
    }

    /// Number of captured requests not taken yet (results are not counted).
    ///
    /// ```
    /// use mcp_elicit_client::RawRequests;
    ///
    /// let raw = RawRequests::default();
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}"#);
    /// raw.observe_str(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}"#);
    /// assert_eq!(raw.len(), 1); // the same id again replaces the entry
    /// ```
    pub fn len(&self) -> usize {
        self.lock().params.values.len()
    }

    /// Whether no captured request waits to be taken.
    ///
    /// ```
    /// assert!(mcp_elicit_client::RawRequests::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;
    use serde_json::json;

    #[test]
    fn keeps_params_verbatim_by_id() {
        let raw = RawRequests::default();
        let msg = json!({"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","pattern":"^x$"}}}}});
        raw.observe_str(&msg.to_string());
        raw.observe(&json!({"jsonrpc":"2.0","id":8,"method":"ping"}));
        assert_eq!(raw.len(), 1);
        let got = raw.take(&NumberOrString::Number(7)).unwrap_or_default();
        assert_eq!(got["requestedSchema"]["properties"]["a"]["pattern"], "^x$");
        assert!(raw.take(&NumberOrString::Number(7)).is_none());
    }

    #[test]
    fn escaped_method_names_are_still_seen() {
        let raw = RawRequests::default();
        raw.observe_str(r#"{"jsonrpc":"2.0","id":"a","method":"elicitation\/cre\u0061te","params":{"message":"m"}}"#);
        assert!(raw.take(&NumberOrString::String("a".into())).is_some());
    }

    #[test]
    fn bounded() {
        let raw = RawRequests::default();
        for i in 0..(RawRequests::CAPACITY as i64 + 10) {
            raw.observe(&json!({"id": i, "method": "elicitation/create", "params": {}}));
        }
        assert_eq!(raw.len(), RawRequests::CAPACITY);
        assert!(raw.take(&NumberOrString::Number(0)).is_none());
    }

    #[test]
    fn keeps_unusual_results_only() {
        let raw = RawRequests::default();
        raw.observe_str(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
        raw.observe_str(
            r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}"#,
        );
        raw.observe_str(r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"s"}}"#);
        raw.observe_str(r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"bogus"}}"#);
        raw.observe(&json!({"jsonrpc":"2.0","id":5,"result":{"resultType":7}}));
        for id in [1, 2] {
            assert!(raw.take_result(&NumberOrString::Number(id)).is_none());
        }
        for id in [3, 4, 5] {
            assert!(
                raw.take_result(&NumberOrString::Number(id)).is_some(),
                "{id}"
            );
        }
    }
}
