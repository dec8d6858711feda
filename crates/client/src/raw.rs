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
//! Bounded: at most [`RawRequests::CAPACITY`] entries wait to be taken; the oldest go first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_elicit_core::message::METHOD_CREATE;
use rmcp::model::RequestId;
use serde_json::Value;

#[derive(Debug, Default)]
struct Inner {
    params: HashMap<RequestId, Value>,
    order: VecDeque<RequestId>,
}

/// Raw params of `elicitation/create` requests not yet handled, by request id.
#[derive(Debug, Clone, Default)]
pub struct RawRequests {
    inner: Arc<Mutex<Inner>>,
}

impl RawRequests {
    /// Most entries kept.
    pub const CAPACITY: usize = 256;

    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Looks at one incoming JSON-RPC message (or a batch) and keeps the params of an
    /// `elicitation/create` request. Anything else is ignored.
    pub fn observe(&self, message: &Value) {
        match message {
            Value::Array(batch) => batch.iter().for_each(|m| self.observe_one(m)),
            other => self.observe_one(other),
        }
    }

    /// Like [`observe`](Self::observe), from JSON text (an SSE `data` field, a stdio line).
    pub fn observe_str(&self, text: &str) {
        /// Only the method: everything else is skipped without being built, so the
        /// common case (responses, notifications, large tool results) stays cheap.
        #[derive(serde::Deserialize)]
        struct Head {
            method: Option<String>,
        }
        let is_create = match serde_json::from_str::<Head>(text) {
            Ok(head) => head.method.as_deref() == Some(METHOD_CREATE),
            // Not a single JSON object (a batch, or not JSON at all): look closer.
            Err(_) => true,
        };
        if is_create && let Ok(value) = serde_json::from_str::<Value>(text) {
            self.observe(&value);
        }
    }

    fn observe_one(&self, message: &Value) {
        let Some(obj) = message.as_object() else {
            return;
        };
        if obj.get("method").and_then(Value::as_str) != Some(METHOD_CREATE) {
            return;
        }
        let Some(id) = obj
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        else {
            return;
        };
        let params = obj.get("params").cloned().unwrap_or(Value::Null);
        let mut inner = self.lock();
        if inner.params.insert(id.clone(), params).is_none() {
            inner.order.push_back(id);
        }
        while inner.order.len() > Self::CAPACITY {
            if let Some(old) = inner.order.pop_front() {
                inner.params.remove(&old);
            }
        }
    }

    /// Takes the raw params of request `id`, if captured.
    pub fn take(&self, id: &RequestId) -> Option<Value> {
        let mut inner = self.lock();
        let value = inner.params.remove(id)?;
        inner.order.retain(|k| k != id);
        Some(value)
    }

    /// Number of captured requests not taken yet.
    pub fn len(&self) -> usize {
        self.lock().params.len()
    }

    /// Whether nothing waits to be taken.
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
}
