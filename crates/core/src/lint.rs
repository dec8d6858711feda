//! The secret-field lint: form mode MUST NOT ask for passwords, API keys, access tokens
//! or payment credentials.
