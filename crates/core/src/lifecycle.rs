//! The explicit states of one elicitation.
