//! Ends the connection's completion waiters when its transport closes.

use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::registry::CompletionRegistry;

/// A transport that closes a [`CompletionRegistry`] when the peer goes away, so code
/// waiting for a completion notification ends with an error instead of hanging.
#[derive(Debug)]
pub struct Watched<T> {
    inner: T,
    registry: CompletionRegistry,
}

impl<T> Watched<T> {
    /// Wraps `inner`.
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
