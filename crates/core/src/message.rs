//! The wire messages of elicitation.
