-- Schema of the blind-php API (SQLite).
-- Every public id is a string (UUID v4); `seq` is the internal, monotonic
-- row number that gives every list a stable order.

PRAGMA foreign_keys = ON;

CREATE TABLE accounts (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE api_keys (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    name          TEXT NOT NULL,
    key_hash      TEXT NOT NULL UNIQUE,      -- sha256 of the whole key, hex
    hint          TEXT NOT NULL,             -- prefix + "..." + last 4 characters
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
);
CREATE INDEX api_keys_account ON api_keys(account_id, revoked_at, seq);

CREATE TABLE workspaces (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL REFERENCES accounts(id),
    name         TEXT NOT NULL,
    description  TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX workspaces_account ON workspaces(account_id, seq);

CREATE TABLE governance_models (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL REFERENCES accounts(id),
    name         TEXT NOT NULL,
    description  TEXT,                       -- nullable
    version      TEXT NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX governance_models_account ON governance_models(account_id, seq);

CREATE TABLE taxonomies (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL REFERENCES accounts(id),
    name         TEXT NOT NULL,
    description  TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX taxonomies_account ON taxonomies(account_id, seq);

CREATE TABLE picklists (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL REFERENCES accounts(id),
    name         TEXT NOT NULL,
    options      TEXT NOT NULL,              -- JSON array of {value, label}
    created_at   TEXT NOT NULL
);
CREATE INDEX picklists_account ON picklists(account_id, seq);

CREATE TABLE fields (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL REFERENCES accounts(id),
    taxonomy_id  TEXT NOT NULL REFERENCES taxonomies(id),
    name         TEXT NOT NULL,
    key          TEXT NOT NULL,
    data_type    TEXT NOT NULL,
    required     INTEGER NOT NULL DEFAULT 0,
    picklist_id  TEXT REFERENCES picklists(id),
    created_at   TEXT NOT NULL
);
CREATE INDEX fields_account ON fields(account_id, seq);

CREATE TABLE records (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    workspace_id  TEXT NOT NULL REFERENCES workspaces(id),
    service_id    TEXT NOT NULL,
    status        TEXT NOT NULL,
    data          TEXT NOT NULL,             -- JSON object
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX records_account ON records(account_id, seq);

CREATE TABLE submissions (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    workspace_id  TEXT NOT NULL REFERENCES workspaces(id),
    taxonomy_id   TEXT NOT NULL REFERENCES taxonomies(id),
    row_count     INTEGER NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX submissions_account ON submissions(account_id, seq);

CREATE TABLE submission_rows (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id  TEXT NOT NULL REFERENCES submissions(id),
    position       INTEGER NOT NULL,
    data           TEXT NOT NULL             -- JSON object
);
CREATE INDEX submission_rows_submission ON submission_rows(submission_id, position);

-- Fixed-window rate limiting shared by all Apache children.
-- bucket is "key:<api key id>" or "ip:<client address>".
CREATE TABLE rate_limits (
    bucket        TEXT PRIMARY KEY,
    window_start  INTEGER NOT NULL,          -- Unix seconds
    hits          INTEGER NOT NULL
);
