//! Integration tests of the web layer against a real OpenID provider (npm
//! `oidc-provider`, installed by `crates/web/tests/oidc/install.sh`), with reqwest playing
//! the browser.
#![allow(unreachable_pub, dead_code)]

mod bearer;
mod browser;
mod chromium;
mod driver;
mod flows;
mod harness;
mod hostile;
mod local;
mod mcp;
mod nodes;
mod oauth;
mod signin_cookie;
mod signin_flood;
