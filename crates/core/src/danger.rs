//! Risky opt-outs, named so that a reviewer sees them.
