//! [`Answers`] and their [`Ticket`]s: what one round of [`Questions`] gave back, redeemed
//! per question.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

#[cfg(doc)]
use super::Questions;
use crate::elicitor::FormOutcome;
use crate::error::{Error, ErrorKind};

/// The handle to one asked question, redeemed from [`Answers`].
#[derive(Debug)]
#[must_use = "redeem the ticket from the Answers"]
pub struct Ticket<T> {
    key: String,
    _answer: PhantomData<fn() -> T>,
}

impl<T> Ticket<T> {
    pub(super) fn new(key: &str) -> Self {
        Self {
            key: key.to_owned(),
            _answer: PhantomData,
        }
    }

    /// The question's key.
    pub fn key(&self) -> &str {
        &self.key
    }
}

#[derive(Debug, Clone)]
pub(super) enum Answer {
    Form(FormOutcome<Map<String, Value>>),
    Raw(Value),
}

/// The answers of one [`Questions`] round, redeemed with their tickets.
#[derive(Debug, Default)]
pub struct Answers {
    pub(super) answers: BTreeMap<String, Answer>,
}

impl Answers {
    /// The outcome of a form asked with [`Questions::form`]: the validated content
    /// deserialized into `T`.
    pub fn form<T: DeserializeOwned>(
        &mut self,
        ticket: Ticket<FormOutcome<T>>,
    ) -> Result<FormOutcome<T>, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Form(outcome)) => typed(outcome),
            _ => Err(missing(&ticket.key)),
        }
    }

    /// The outcome of a form asked with [`Questions::form_with_schema`].
    pub fn content(
        &mut self,
        ticket: Ticket<FormOutcome<Map<String, Value>>>,
    ) -> Result<FormOutcome<Map<String, Value>>, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Form(outcome)) => Ok(outcome),
            _ => Err(missing(&ticket.key)),
        }
    }

    /// The client's result for a request asked with [`Questions::request`] (a JSON
    /// object, as the client sent it).
    ///
    /// A `roots/list` asked in a 2026-07-28 round, answered with the retry (hidden: a raw
    /// 2026-07-28 client declaring `roots`, over an in-memory pipe):
    ///
    /// ```
    /// use mcp_elicit_server::{METHOD_ROOTS, SessionScope, Stop, text};
    /// # use std::sync::Mutex;
    /// # use mcp_elicit_server::rmcp::model::*;
    /// # use mcp_elicit_server::rmcp::service::RequestContext;
    /// # use mcp_elicit_server::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
    /// # use mcp_elicit_server::serde_json::{Value, json};
    /// # use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};
    /// # /// The server: every tool call runs `tool` (below), answered with `respond`.
    /// # struct Server(mcp_elicit_server::SessionScope);
    /// # impl ServerHandler for Server {
    /// #     fn get_info(&self) -> ServerConfig {
    /// #         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    /// #             .with_protocol_version(ProtocolVersion::V_2025_11_25)
    /// #     }
    /// #     fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
    /// #         std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    /// #     }
    /// #     async fn call_tool(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>)
    /// #         -> Result<CallToolResponse, ErrorData> {
    /// #         mcp_elicit_server::respond(tool(&self.0, &request, &ctx).await)
    /// #     }
    /// # }
    /// # /// A raw 2026-07-28 client with form mode and roots: one JSON line out, the result back.
    /// # struct Raw {
    /// #     writer: WriteHalf<DuplexStream>,
    /// #     lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// #     next: u64,
    /// # }
    /// # impl Raw {
    /// #     async fn call(&mut self, name: &str, extra: Value) -> Value {
    /// #         self.next += 1;
    /// #         let mut params = json!({"name": name, "arguments": {}, "_meta": {
    /// #             "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    /// #             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}, "roots": {}},
    /// #             "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}});
    /// #         if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
    /// #             p.extend(e);
    /// #         }
    /// #         let request = json!({"jsonrpc": "2.0", "id": self.next, "method": "tools/call", "params": params});
    /// #         self.writer.write_all(format!("{request}\n").as_bytes()).await.unwrap();
    /// #         self.writer.flush().await.unwrap();
    /// #         let line = self.lines.next_line().await.unwrap().unwrap();
    /// #         let reply: Value = serde_json::from_str(&line).unwrap();
    /// #         reply.get("result").cloned().unwrap_or(reply)
    /// #     }
    /// # }
    /// # fn raw(hub: &mcp_elicit_server::Elicitations) -> Raw {
    /// #     let (client_io, server_io) = tokio::io::duplex(1 << 20);
    /// #     let server = mcp_elicit_server::Edge::new(Server(hub.scope().unwrap()));
    /// #     tokio::spawn(async move {
    /// #         let (read, write) = tokio::io::split(server_io);
    /// #         if let Ok(running) = server.serve(mcp_elicit_server::wire::edge_rw(read, write)).await {
    /// #             let _ = running.waiting().await;
    /// #         }
    /// #     });
    /// #     let (read, writer) = tokio::io::split(client_io);
    /// #     Raw { writer, lines: BufReader::new(read).lines(), next: 0 }
    /// # }
    /// async fn tool(
    ///     scope: &SessionScope,
    ///     request: &CallToolRequestParams,
    ///     ctx: &RequestContext<RoleServer>,
    /// ) -> Result<CallToolResult, Stop> {
    ///     let mut ask = scope.ask(ctx, request).await?;
    ///     let mut questions = ask.questions();
    ///     let roots = questions.request("roots", METHOD_ROOTS, json!({}))?;
    ///     let mut answers = questions.ask().await?;
    ///     let listed = answers.value(roots)?; // the client's result object, checked for `roots`
    ///     Ok(text(listed["roots"][0]["uri"].as_str().unwrap_or("none")))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let hub = mcp_elicit_server::Elicitations::local();
    /// # let mut client = raw(&hub);
    /// let round = client.call("project", json!({})).await;
    /// assert_eq!(round["inputRequests"]["roots"], json!({"method": "roots/list", "params": {}}));
    /// let answer = json!({"roots": [{"uri": "file:///home/ada/project", "name": "project"}]});
    /// let done = client
    ///     .call("project", json!({"inputResponses": {"roots": answer}, "requestState": round["requestState"]}))
    ///     .await;
    /// assert_eq!(done["content"][0]["text"], "file:///home/ada/project");
    /// # Ok(())
    /// # }
    /// ```
    pub fn value(&mut self, ticket: Ticket<Value>) -> Result<Value, Error> {
        match self.answers.remove(&ticket.key) {
            Some(Answer::Raw(v)) => Ok(v),
            _ => Err(missing(&ticket.key)),
        }
    }
}

fn missing(key: &str) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!("no answer for question {key:?} in these answers (a ticket of another round?)"),
    )
}

fn typed<T: DeserializeOwned>(
    outcome: FormOutcome<Map<String, Value>>,
) -> Result<FormOutcome<T>, Error> {
    Ok(match outcome {
        FormOutcome::Accepted(content) => {
            FormOutcome::Accepted(serde_json::from_value(Value::Object(content)).map_err(|e| {
                Error::new(
                    ErrorKind::Deserialize,
                    format!(
                        "the answer does not fit {}: {e}",
                        std::any::type_name::<T>()
                    ),
                )
            })?)
        }
        FormOutcome::Declined => FormOutcome::Declined,
        FormOutcome::Cancelled => FormOutcome::Cancelled,
    })
}
