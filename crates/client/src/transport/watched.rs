//! Ends the connection's completion waiters when its transport closes.

use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::registry::CompletionRegistry;

/// A transport that closes a [`CompletionRegistry`] when the peer goes away, so code
/// waiting for a completion notification ends with an error instead of hanging.
///
/// Every connection of [`ElicitationClient`](crate::ElicitationClient) is wrapped in one,
/// with its own registry.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use mcp_elicit_client::rmcp::transport::Transport;
/// use mcp_elicit_client::transport::{stdio::LineTransport, watched::Watched};
/// use mcp_elicit_client::{CompletionRegistry, RawRequests, WaitError};
///
/// let (client_io, server_io) = tokio::io::duplex(1024);
/// let (r, w) = tokio::io::split(client_io);
/// let registry = CompletionRegistry::default();
/// let mut waiter = registry.register("el-1");
/// let mut transport = Watched::new(LineTransport::new(r, w, RawRequests::default()), registry.clone());
///
/// drop(server_io); // the server goes away
/// assert!(transport.receive().await.is_none());
/// assert!(registry.is_closed());
/// assert_eq!(waiter.wait().await, Err(WaitError::Disconnected));
/// # }
/// ```
#[derive(Debug)]
pub struct Watched<T> {
    inner: T,
    registry: CompletionRegistry,
}

impl<T> Watched<T> {
    /// Wraps `inner`; `registry` is closed when `inner` ends or is closed (see [`Watched`]).
    pub fn new(inner: T, registry: CompletionRegistry) -> Self {
        Self { inner, registry }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Watched<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await;
        if message.is_none() {
            self.registry.close();
        }
        message
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.registry.close();
        self.inner.close().await
    }
}
