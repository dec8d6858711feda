-- What each URL mode elicitation's page is for, and sign-ins in progress, so that any
-- server node, and the same node after a restart, can serve the pages of a flow.

-- One row per URL mode elicitation with a page: its purpose (the web layer's JSON) and,
-- once the user answered a confirmation page, the answer. Kept after the elicitation
-- finishes (for the tool to read the answer) until expires_at.
CREATE TABLE url_flows (
    elicitation_id    TEXT    NOT NULL PRIMARY KEY,
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    purpose           TEXT    NOT NULL,
    outcome           TEXT,
    created_at        INTEGER NOT NULL,
    expires_at        INTEGER NOT NULL
);
CREATE INDEX url_flows_expires ON url_flows (expires_at);

-- Browser sign-ins in progress (OpenID Connect): only the SHA-256 of the `state` and of
-- the browser-binding cookie; nonce, PKCE verifier and return path encrypted.
CREATE TABLE login_states (
    state_hash        BLOB NOT NULL PRIMARY KEY,
    binding_hash      BLOB NOT NULL,
    key_id            TEXT    NOT NULL,
    nonce             BLOB NOT NULL,
    ciphertext        BLOB NOT NULL,
    created_at        INTEGER NOT NULL,
    expires_at        INTEGER NOT NULL
);
CREATE INDEX login_states_expires ON login_states (expires_at);
