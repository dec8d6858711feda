-- mcp-elicit durable state (PostgreSQL). Times are nanoseconds since the Unix epoch.

-- Pending elicitations: one row per elicitation id, owned by (user, session).
CREATE TABLE elicitations (
    id                TEXT    NOT NULL PRIMARY KEY,
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    session_key       TEXT    NOT NULL,
    mode              TEXT    NOT NULL CHECK (mode IN ('form', 'url')),
    state             TEXT    NOT NULL,
    message           TEXT    NOT NULL,
    url               TEXT,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL
);
CREATE INDEX elicitations_principal ON elicitations (principal_issuer, principal_subject);
CREATE INDEX elicitations_session ON elicitations (session_key);
CREATE INDEX elicitations_expires ON elicitations (expires_at);

-- Third-party secrets (API keys and the like), encrypted with XChaCha20-Poly1305.
CREATE TABLE vault_secrets (
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    name              TEXT    NOT NULL,
    key_id            TEXT    NOT NULL,
    nonce             BYTEA   NOT NULL,
    ciphertext        BYTEA   NOT NULL,
    created_at        BIGINT  NOT NULL,
    updated_at        BIGINT  NOT NULL,
    PRIMARY KEY (principal_issuer, principal_subject, name)
);

-- Third-party OAuth tokens; access and refresh tokens encrypted separately.
CREATE TABLE vault_oauth_tokens (
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    provider          TEXT    NOT NULL,
    key_id            TEXT    NOT NULL,
    access_nonce      BYTEA   NOT NULL,
    access_ciphertext BYTEA   NOT NULL,
    refresh_nonce     BYTEA,
    refresh_ciphertext BYTEA,
    token_type        TEXT    NOT NULL,
    scopes            TEXT    NOT NULL,
    expires_at        BIGINT,
    created_at        BIGINT  NOT NULL,
    updated_at        BIGINT  NOT NULL,
    PRIMARY KEY (principal_issuer, principal_subject, provider)
);

-- Browser sessions of the out-of-band pages: only the SHA-256 of the cookie value.
CREATE TABLE browser_sessions (
    id_hash           BYTEA   NOT NULL PRIMARY KEY,
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    key_id            TEXT    NOT NULL,
    csrf_nonce        BYTEA   NOT NULL,
    csrf_ciphertext   BYTEA   NOT NULL,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL
);
CREATE INDEX browser_sessions_principal ON browser_sessions (principal_issuer, principal_subject);
CREATE INDEX browser_sessions_expires ON browser_sessions (expires_at);

-- One-time OAuth `state` values: only the SHA-256 of the value; PKCE verifier encrypted.
CREATE TABLE oauth_states (
    state_hash        BYTEA   NOT NULL PRIMARY KEY,
    elicitation_id    TEXT    NOT NULL,
    principal_issuer  TEXT    NOT NULL,
    principal_subject TEXT    NOT NULL,
    provider          TEXT    NOT NULL,
    key_id            TEXT    NOT NULL,
    verifier_nonce    BYTEA   NOT NULL,
    verifier_ciphertext BYTEA NOT NULL,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL
);
CREATE INDEX oauth_states_expires ON oauth_states (expires_at);
