//! The SSE streams the lean layer hands rmcp's HTTP service: a reader walking one of a
//! session's event buffers ([`super::session::Cursor`]), or a shadow stream that only
//! stays open (rmcp adds keep-alive comments) until the session ends.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;
use rmcp::transport::streamable_http_server::session::ServerSseMessage;

use super::session::{Cursor, SessionRef};

/// One SSE stream of a session.
#[derive(Debug)]
pub struct LeanEventStream {
    session: SessionRef,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Reader(Cursor),
    Shadow(u64),
}

impl LeanEventStream {
    pub(super) fn reader(session: SessionRef, cursor: Cursor) -> Self {
        LeanEventStream {
            session,
            kind: Kind::Reader(cursor),
        }
    }

    pub(super) fn shadow(session: SessionRef, shadow: u64) -> Self {
        LeanEventStream {
            session,
            kind: Kind::Shadow(shadow),
        }
    }
}

impl Stream for LeanEventStream {
    type Item = ServerSseMessage;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        match &mut this.kind {
            Kind::Reader(cursor) => this.session.poll_event(cursor, cx),
            Kind::Shadow(id) => this.session.poll_shadow(*id, cx).map(|()| None),
        }
    }
}

impl Drop for LeanEventStream {
    fn drop(&mut self) {
        match &self.kind {
            Kind::Reader(cursor) => self.session.detach(cursor),
            Kind::Shadow(id) => self.session.drop_shadow(*id),
        }
    }
}
