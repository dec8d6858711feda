//! The transport rmcp's service loop (the session's handler task) talks to: `send`
//! routes the handler's message onto its stream at once (no worker task, no channel),
//! `receive` takes the client's next message out of the session.

use std::borrow::Cow;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use super::session::SessionRef;

/// The [`Transport`] of one lean session (what
/// [`LeanSessionManager::create_session`](super::LeanSessionManager) hands rmcp).
///
/// The handler's end of the session: dropping it (the handler is gone) ends the session.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_elicit_server::{LeanSessionManager, LeanTransport};
/// use rmcp::RoleServer;
/// use rmcp::transport::Transport;
/// use rmcp::transport::streamable_http_server::session::SessionManager as _;
///
/// let sessions = LeanSessionManager::default();
/// let (id, transport): (_, LeanTransport) = sessions.create_session().await?;
/// assert_eq!(<LeanTransport as Transport<RoleServer>>::name(), "lean-streamable-http-session");
/// assert!(sessions.has_session(&id).await?);
/// drop(transport);
/// assert!(!sessions.has_session(&id).await?);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct LeanTransport {
    session: SessionRef,
    /// Which of the session's handlers this is (a woken session gets a new one).
    handler: u64,
}

impl LeanTransport {
    pub(super) fn new(session: SessionRef, handler: u64) -> Self {
        LeanTransport { session, handler }
    }
}

impl Transport<RoleServer> for LeanTransport {
    type Error = std::io::Error;

    fn name() -> Cow<'static, str> {
        "lean-streamable-http-session".into()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Routed now, in the order the service loop sends: nothing to wait for.
        let _ = self.session.route(item);
        std::future::ready(Ok(()))
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        let session = &self.session;
        let handler = self.handler;
        std::future::poll_fn(move |cx| session.poll_inbound(handler, cx))
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.gone();
        Ok(())
    }
}

impl LeanTransport {
    /// The handler is gone: one that ended on its own ends the session (nobody will
    /// answer what it still holds); one that was put to sleep leaves it asleep.
    fn gone(&self) {
        let next = self.session.handler_gone(self.handler);
        self.session.start(next);
    }
}

impl Drop for LeanTransport {
    fn drop(&mut self) {
        self.gone();
    }
}
