//! MCP authorization on the command line: the sign-ins kept between runs ([`store`],
//! [`tokens`]), the loopback redirect a browser sign-in comes back to ([`loopback`]) and
//! the sign-in for a person or a script ([`ui`]).

pub(crate) mod loopback;
pub(crate) mod machine;
pub(crate) mod store;
pub(crate) mod tokens;
pub(crate) mod ui;
