#!/usr/bin/env python3
"""Blind implementation of "API v1" (workspaces, governance models, submissions,
records, taxonomies, fields, picklists, API keys), written from the published API
document alone. Standard library only.

Usage:
    python3 server.py [--host 127.0.0.1] [--port 0] [--window-seconds 60]

On start one JSON line is printed to stdout:
    {"url": "http://127.0.0.1:PORT", "keys": {"main": "...", "other": "..."}}
"""

import argparse
import hashlib
import json
import math
import re
import secrets
import signal
import socket
import sqlite3
import sys
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

# --------------------------------------------------------------------------
# Facts this deployment chose (declared in profile.json)
# --------------------------------------------------------------------------

API_ROOT = "/api/v1/"
KEY_PREFIX = "gmk_"
KEY_SECRET_HEX = 48                      # secret part: 48 lowercase hex digits
KEY_RE = re.compile(r"^gmk_[0-9a-f]{48}$")
PER_KEY_LIMIT = 100                      # per key, per window
PER_IP_LIMIT = 20                        # requests without Authorization, per IP, per window
DEFAULT_LIMIT = 100
MAX_LIMIT = 10000
MAX_BODY_BYTES = 1024 * 1024             # 1 MiB
DRAIN_LIMIT = 16 * 1024 * 1024           # oversized bodies up to this size are read and discarded
MAX_ROWS = 1000                          # rows per submission (plan limit)
MAX_ACTIVE_KEYS = 200                    # active API keys per account (plan limit)
MAX_KEY_NAME = 100
RECORD_STATUSES = ("draft", "in_review", "approved", "rejected", "archived")
SUBMISSION_WORKSPACE_PARAM = "workspace"
SUBMISSION_FILTER_WORKSPACE = "workspace"
SUBMISSION_FILTER_TAXONOMY = "taxonomy"
FIELD_FILTER_TAXONOMY = "taxonomy"
RECORD_FILTER_STATUS = "status"
SOCKET_TIMEOUT = 30


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def mkid(prefix, *parts):
    return prefix + "_" + hashlib.sha256(":".join(parts).encode()).hexdigest()[:12]


def hash_key(token):
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

class ApiError(Exception):
    def __init__(self, status, etype, message, code=None, param=None, path=None, headers=None):
        super().__init__(message)
        self.status = status
        self.etype = etype
        self.message = message
        self.code = code
        self.param = param
        self.path = path
        self.headers = headers or []

    def body(self):
        return {"error": {"type": self.etype, "code": self.code, "message": self.message,
                          "param": self.param, "path": self.path}}


def invalid(message, code, param=None, path=None, status=422):
    return ApiError(status, "invalid_request_error", message, code=code, param=param, path=path)


def missing(param, path=None):
    return ApiError(400, "invalid_request_error", "Missing required parameter: %s." % param,
                    code="missing_param", param=param, path=path)


def not_found(message, param=None, code=None):
    return ApiError(404, "not_found_error", message, code=code, param=param)


def type_for_status(status):
    return {401: "authentication_error", 403: "authorization_error", 404: "not_found_error",
            429: "rate_limit_error"}.get(status, "api_error" if status >= 500 else "invalid_request_error")


# --------------------------------------------------------------------------
# Storage
# --------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE workspaces (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE governance_models (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, description TEXT);
CREATE TABLE records (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    status TEXT NOT NULL, service_id TEXT UNIQUE NOT NULL, data TEXT NOT NULL);
CREATE TABLE taxonomies (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, description TEXT);
CREATE TABLE picklists (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, options TEXT NOT NULL);
CREATE TABLE fields (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    taxonomy_id TEXT NOT NULL, name TEXT NOT NULL, label TEXT NOT NULL, type TEXT NOT NULL,
    required INTEGER NOT NULL, picklist_id TEXT);
CREATE TABLE submissions (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL, taxonomy_id TEXT NOT NULL, rows TEXT NOT NULL, row_count INTEGER NOT NULL,
    created_at TEXT NOT NULL);
CREATE TABLE api_keys (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    name TEXT NOT NULL, key_hash TEXT UNIQUE NOT NULL, created_at TEXT NOT NULL, last_used_at TEXT,
    revoked_at TEXT);
"""

ACCOUNT_SEEDS = {
    "acct_1": {
        "name": "Northwind Holdings",
        "workspaces": [
            ("Main", "Default workspace created at sign-up"),
            ("Finance", "Ledger and counterparty submissions"),
            ("Operations", "Operational data collection"),
            ("Archive", ""),
        ],
        "models": [
            ("Standardised Approach", "Regulatory standard model for credit exposures"),
            ("Internal Ratings Based", "Internal model approved for the banking book"),
            ("Sandbox", None),
        ],
        "records": 230,
        "picklists": [
            ("Countries", [("DE", "Germany"), ("FR", "France"), ("NL", "Netherlands"), ("US", "United States")]),
            ("Currencies", [("EUR", "Euro"), ("USD", "US Dollar"), ("GBP", "Pound Sterling")]),
        ],
        "taxonomies": [
            ("Counterparties", "Legal entities the account deals with", [
                ("name", "Name", "string", True, None),
                ("country", "Country", "picklist", True, 0),
                ("lei", "Legal entity identifier", "string", False, None),
                ("active", "Active", "boolean", False, None),
            ]),
            ("Transactions", "Booked transactions", [
                ("reference", "Reference", "string", True, None),
                ("amount", "Amount", "number", True, None),
                ("currency", "Currency", "picklist", False, 1),
                ("booked_on", "Booking date", "date", False, None),
            ]),
        ],
        "submissions": [(0, 0, [{"name": "Acme GmbH", "country": "DE"}, {"name": "Globex SA", "country": "FR"}]),
                        (1, 1, [{"reference": "TX-1", "amount": 120.5, "currency": "EUR"}])],
    },
    "acct_2": {
        "name": "Southwind Partners",
        "workspaces": [
            ("Main", "Default workspace created at sign-up"),
            ("Research", "Exploratory datasets"),
        ],
        "models": [
            ("Basic", "Entry-level governance model"),
            ("Experimental", None),
        ],
        "records": 12,
        "picklists": [
            ("Asset classes", [("EQ", "Equity"), ("FI", "Fixed income"), ("RE", "Real estate")]),
        ],
        "taxonomies": [
            ("Assets", "Held assets", [
                ("isin", "ISIN", "string", True, None),
                ("asset_class", "Asset class", "picklist", True, 0),
                ("value", "Value", "number", False, None),
            ]),
        ],
        "submissions": [(0, 0, [{"isin": "XS0000000001", "asset_class": "FI"}])],
    },
}

REGIONS = ("north", "south", "east", "west")
CURRENCIES = ("EUR", "USD", "GBP")


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.executescript(SCHEMA)
        self.seed_created_at = "2024-01-15T09:00:00.000Z"
        self.seed()

    # -- seeding -----------------------------------------------------------
    def seed(self):
        db = self.db
        for acc, s in ACCOUNT_SEEDS.items():
            db.execute("INSERT INTO accounts VALUES (?, ?)", (acc, s["name"]))
            ws_ids = []
            for i, (name, desc) in enumerate(s["workspaces"], 1):
                wid = mkid("ws", acc, "ws", str(i))
                ws_ids.append(wid)
                db.execute("INSERT INTO workspaces (id, account_id, name, description) VALUES (?,?,?,?)",
                           (wid, acc, name, desc))
            for i, (name, desc) in enumerate(s["models"], 1):
                db.execute("INSERT INTO governance_models (id, account_id, name, description) VALUES (?,?,?,?)",
                           (mkid("gm", acc, "gm", str(i)), acc, name, desc))
            for i in range(1, s["records"] + 1):
                rid = mkid("rec", acc, "rec", str(i))
                svc = "S" + hashlib.sha256(("svc:%s:%d" % (acc, i)).encode()).hexdigest()[:7].upper()
                status = RECORD_STATUSES[(i * 7) % len(RECORD_STATUSES)]
                data = {"title": "Record %d" % i, "sequence": i, "region": REGIONS[i % 4],
                        "amount": round(i * 13.37, 2), "currency": CURRENCIES[i % 3],
                        "tags": ["seed"] + (["priority"] if i % 10 == 0 else [])}
                db.execute("INSERT INTO records (id, account_id, status, service_id, data) VALUES (?,?,?,?,?)",
                           (rid, acc, status, svc, json.dumps(data)))
            pl_ids = []
            for i, (name, opts) in enumerate(s["picklists"], 1):
                pid = mkid("pl", acc, "pl", str(i))
                pl_ids.append(pid)
                db.execute("INSERT INTO picklists (id, account_id, name, options) VALUES (?,?,?,?)",
                           (pid, acc, name, json.dumps([{"value": v, "label": l} for v, l in opts])))
            tax_ids = []
            for i, (name, desc, flds) in enumerate(s["taxonomies"], 1):
                tid = mkid("tax", acc, "tax", str(i))
                tax_ids.append(tid)
                db.execute("INSERT INTO taxonomies (id, account_id, name, description) VALUES (?,?,?,?)",
                           (tid, acc, name, desc))
                for j, (fname, label, ftype, req, pl_index) in enumerate(flds, 1):
                    db.execute("INSERT INTO fields (id, account_id, taxonomy_id, name, label, type, required, "
                               "picklist_id) VALUES (?,?,?,?,?,?,?,?)",
                               (mkid("fld", acc, "tax", str(i), "fld", str(j)), acc, tid, fname, label, ftype,
                                1 if req else 0, pl_ids[pl_index] if pl_index is not None else None))
            for i, (wi, ti, rows) in enumerate(s["submissions"], 1):
                stored = [{"data": r} for r in rows]
                db.execute("INSERT INTO submissions (id, account_id, workspace_id, taxonomy_id, rows, row_count, "
                           "created_at) VALUES (?,?,?,?,?,?,?)",
                           (mkid("sub", acc, "sub", str(i)), acc, ws_ids[wi], tax_ids[ti], json.dumps(stored),
                            len(stored), self.seed_created_at))
        # sanity: no id or service id shared between accounts
        for table, col in (("records", "service_id"),):
            n = db.execute("SELECT COUNT(*) - COUNT(DISTINCT %s) FROM %s" % (col, table)).fetchone()[0]
            assert n == 0

    def create_seed_key(self, account_id, label):
        token = KEY_PREFIX + secrets.token_hex(KEY_SECRET_HEX // 2)
        kid = mkid("key", account_id, "seed", label)
        with self.lock:
            self.db.execute("INSERT INTO api_keys (id, account_id, name, key_hash, created_at) VALUES (?,?,?,?,?)",
                            (kid, account_id, "Seed key (%s)" % label, hash_key(token), self.seed_created_at))
        return token

    # -- helpers -----------------------------------------------------------
    def query(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    def one(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args).fetchone()

    def execute(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args)

    def page(self, table, columns, where, args, page, limit, to_item):
        with self.lock:
            total = self.db.execute("SELECT COUNT(*) FROM %s WHERE %s" % (table, where), args).fetchone()[0]
            offset = (page - 1) * limit
            if offset >= total:
                rows = []
            else:
                rows = self.db.execute("SELECT %s FROM %s WHERE %s ORDER BY seq LIMIT ? OFFSET ?"
                                       % (columns, table, where), tuple(args) + (limit, offset)).fetchall()
        items = [to_item(r) for r in rows]
        return {"items": items, "has_more": offset + len(items) < total, "total_count": total}


# --------------------------------------------------------------------------
# Rate limiting: fixed windows that start at the first request of a bucket
# --------------------------------------------------------------------------

class RateLimiter:
    def __init__(self, window):
        self.window = float(window)
        self.lock = threading.Lock()
        self.buckets = {}
        self.calls = 0

    def _prune(self, now):
        dead = [k for k, b in self.buckets.items() if now >= b[0] + self.window]
        for k in dead:
            del self.buckets[k]

    def hit(self, key, limit, consume=True):
        now = time.time()
        with self.lock:
            self.calls += 1
            if self.calls % 500 == 0:
                self._prune(now)
            b = self.buckets.get(key)
            if b is None or now >= b[0] + self.window:
                b = [now, 0]
                if consume:
                    self.buckets[key] = b
            allowed = True
            if consume:
                if b[1] >= limit:
                    allowed = False
                else:
                    b[1] += 1
            reset_at = b[0] + self.window
            remaining = max(0, limit - b[1])
        reset_header = int(math.ceil(reset_at))
        headers = [("X-RateLimit-Limit", str(limit)),
                   ("X-RateLimit-Remaining", str(remaining)),
                   ("X-RateLimit-Reset", str(reset_header))]
        # seconds until the advertised reset time (never earlier than the real reset)
        retry_after = max(1, int(math.ceil(reset_header - now)))
        return allowed, headers, retry_after


def rate_limited(retry_after):
    return ApiError(429, "rate_limit_error",
                    "Rate limit exceeded. Retry in %d seconds." % retry_after,
                    code="rate_limit_exceeded", param=None, path=None,
                    headers=[("Retry-After", str(retry_after))])


# --------------------------------------------------------------------------
# Parameter helpers
# --------------------------------------------------------------------------

INT_RE = re.compile(r"^-?[0-9]{1,30}$")


def qparam(query, name):
    """First value of a query parameter, or None when the parameter is absent."""
    vals = query.get(name)
    if not vals:
        return None
    return vals[0]


def int_param(query, name, default, lo, hi):
    raw = qparam(query, name)
    if raw is None:
        return default
    if not INT_RE.match(raw):
        raise invalid("Parameter '%s' must be an integer." % name, "invalid_type", param=name)
    v = int(raw)
    if v < lo or (hi is not None and v > hi):
        bounds = ("between %d and %d" % (lo, hi)) if hi is not None else ("at least %d" % lo)
        raise invalid("Parameter '%s' must be %s." % (name, bounds), "out_of_range", param=name)
    return v


def pagination(query):
    page = int_param(query, "page", 1, 1, None)
    limit = int_param(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    return page, limit


def filter_param(query, name):
    raw = qparam(query, name)
    if raw is None:
        return None
    if raw.strip() == "":
        raise invalid("Parameter '%s' must not be empty." % name, "invalid_value", param=name)
    return raw


# --------------------------------------------------------------------------
# Representations
# --------------------------------------------------------------------------

def workspace_item(r):
    return {"id": r["id"], "name": r["name"], "description": r["description"]}


def model_item(r):
    return {"id": r["id"], "name": r["name"], "description": r["description"]}


def record_item(r):
    return {"id": r["id"], "status": r["status"], "service_id": r["service_id"], "data": json.loads(r["data"])}


def taxonomy_item(store, r):
    fids = [f["id"] for f in store.query("SELECT id FROM fields WHERE taxonomy_id = ? ORDER BY seq", (r["id"],))]
    return {"id": r["id"], "name": r["name"], "description": r["description"], "field_ids": fids}


def field_item(r):
    return {"id": r["id"], "taxonomy_id": r["taxonomy_id"], "name": r["name"], "label": r["label"],
            "type": r["type"], "required": bool(r["required"]), "picklist_id": r["picklist_id"]}


def picklist_item(r):
    return {"id": r["id"], "name": r["name"], "options": json.loads(r["options"])}


def submission_item(r, with_rows=False):
    out = {"id": r["id"], "workspace_id": r["workspace_id"], "taxonomy_id": r["taxonomy_id"],
           "row_count": r["row_count"], "created_at": r["created_at"]}
    if with_rows:
        out["rows"] = json.loads(r["rows"])
    return out


def key_item(r):
    return {"id": r["id"], "name": r["name"], "created_at": r["created_at"], "last_used_at": r["last_used_at"]}


# --------------------------------------------------------------------------
# Endpoint handlers: fn(ctx) -> (status, body, extra_headers)
# --------------------------------------------------------------------------

class Ctx:
    def __init__(self, store, account_id, key_id, query, ident, body_loader):
        self.store = store
        self.account = account_id
        self.key_id = key_id
        self.query = query
        self.ident = ident
        self._body_loader = body_loader

    def body(self):
        return self._body_loader()


def simple_list(table, to_item, label):
    def handler(ctx):
        page, limit = pagination(ctx.query)
        return 200, ctx.store.page(table, "*", "account_id = ?", (ctx.account,), page, limit, to_item), []
    handler.__name__ = "list_" + label
    return handler


def simple_get(table, to_item, label):
    def handler(ctx):
        r = ctx.store.one("SELECT * FROM %s WHERE id = ? AND account_id = ?" % table, (ctx.ident, ctx.account))
        if r is None:
            raise not_found("No %s with id '%s'." % (label, ctx.ident))
        return 200, to_item(r), []
    handler.__name__ = "get_" + label
    return handler


def list_records(ctx):
    page, limit = pagination(ctx.query)
    status = filter_param(ctx.query, RECORD_FILTER_STATUS)
    where, args = "account_id = ?", [ctx.account]
    if status is not None:
        if status not in RECORD_STATUSES:
            raise invalid("Parameter 'status' must be one of: %s." % ", ".join(RECORD_STATUSES),
                          "invalid_value", param=RECORD_FILTER_STATUS)
        where += " AND status = ?"
        args.append(status)
    return 200, ctx.store.page("records", "*", where, args, page, limit, record_item), []


def list_taxonomies(ctx):
    page, limit = pagination(ctx.query)
    return 200, ctx.store.page("taxonomies", "*", "account_id = ?", (ctx.account,), page, limit,
                               lambda r: taxonomy_item(ctx.store, r)), []


def get_taxonomy(ctx):
    r = ctx.store.one("SELECT * FROM taxonomies WHERE id = ? AND account_id = ?", (ctx.ident, ctx.account))
    if r is None:
        raise not_found("No taxonomy with id '%s'." % ctx.ident)
    return 200, taxonomy_item(ctx.store, r), []


def list_fields(ctx):
    page, limit = pagination(ctx.query)
    tax = filter_param(ctx.query, FIELD_FILTER_TAXONOMY)
    where, args = "account_id = ?", [ctx.account]
    if tax is not None:
        where += " AND taxonomy_id = ?"
        args.append(tax)
    return 200, ctx.store.page("fields", "*", where, args, page, limit, field_item), []


def list_submissions(ctx):
    page, limit = pagination(ctx.query)
    ws = filter_param(ctx.query, SUBMISSION_FILTER_WORKSPACE)
    tax = filter_param(ctx.query, SUBMISSION_FILTER_TAXONOMY)
    where, args = "account_id = ?", [ctx.account]
    if ws is not None:
        where += " AND workspace_id = ?"
        args.append(ws)
    if tax is not None:
        where += " AND taxonomy_id = ?"
        args.append(tax)
    return 200, ctx.store.page("submissions", "*", where, args, page, limit, submission_item), []


def get_submission(ctx):
    r = ctx.store.one("SELECT * FROM submissions WHERE id = ? AND account_id = ?", (ctx.ident, ctx.account))
    if r is None:
        raise not_found("No submission with id '%s'." % ctx.ident)
    return 200, submission_item(r, with_rows=True), []


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check_value(ftype, value, options):
    if ftype == "string":
        return isinstance(value, str)
    if ftype == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if ftype == "boolean":
        return isinstance(value, bool)
    if ftype == "date":
        if not isinstance(value, str) or not DATE_RE.match(value):
            return False
        try:
            datetime.strptime(value, "%Y-%m-%d")
            return True
        except ValueError:
            return False
    if ftype == "picklist":
        return isinstance(value, str) and value in options
    return True


def create_submission(ctx):
    store = ctx.store
    # 1. the workspace query parameter (required)
    if qparam(ctx.query, SUBMISSION_WORKSPACE_PARAM) is None:
        raise missing(SUBMISSION_WORKSPACE_PARAM)
    ws_q = filter_param(ctx.query, SUBMISSION_WORKSPACE_PARAM)
    # 2. the body
    body = ctx.body()
    for name in ("workspace_id", "taxonomy_id", "rows"):
        if name not in body:
            raise missing(name, path=name)
    rows = body["rows"]
    if isinstance(rows, list):
        for i, row in enumerate(rows):
            if isinstance(row, dict) and "data" not in row:
                raise missing("rows", path="rows[%d].data" % i)
    # 3. types
    for name in ("workspace_id", "taxonomy_id"):
        v = body[name]
        if not isinstance(v, str):
            raise invalid("'%s' must be a string." % name, "invalid_type", param=name, path=name)
        if v.strip() == "":
            raise invalid("'%s' must not be empty." % name, "invalid_value", param=name, path=name)
    if not isinstance(rows, list):
        raise invalid("'rows' must be an array of objects.", "invalid_type", param="rows", path="rows")
    if len(rows) == 0:
        raise invalid("'rows' must contain at least one row.", "invalid_value", param="rows", path="rows")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise invalid("Each row must be an object with a 'data' member.", "invalid_type",
                          param="rows", path="rows[%d]" % i)
        extra = sorted(k for k in row if k != "data")
        if extra:
            raise invalid("A row has one member, 'data'; unexpected member '%s'." % extra[0], "unknown_member",
                          param="rows", path="rows[%d].%s" % (i, extra[0]))
        if not isinstance(row["data"], dict):
            raise invalid("'data' must be an object.", "invalid_type", param="rows", path="rows[%d].data" % i)
    # 4. references
    ws = store.one("SELECT id FROM workspaces WHERE id = ? AND account_id = ?", (ws_q, ctx.account))
    if ws is None:
        raise not_found("No workspace with id '%s'." % ws_q, param=SUBMISSION_WORKSPACE_PARAM)
    if body["workspace_id"] != ws_q:
        raise invalid("'workspace_id' must match the '%s' query parameter." % SUBMISSION_WORKSPACE_PARAM,
                      "workspace_mismatch", param="workspace_id", path="workspace_id")
    tax = store.one("SELECT id FROM taxonomies WHERE id = ? AND account_id = ?", (body["taxonomy_id"], ctx.account))
    if tax is None:
        raise invalid("No taxonomy with id '%s'." % body["taxonomy_id"], "invalid_reference",
                      param="taxonomy_id", path="taxonomy_id")
    # 5. plan limit on rows
    if len(rows) > MAX_ROWS:
        raise ApiError(422, "plan_limit_exceeded",
                       "A submission holds at most %d rows on the current plan." % MAX_ROWS,
                       code="limit_exceeded", param="rows", path="rows")
    # 6. row data against the taxonomy's fields
    fields = store.query("SELECT * FROM fields WHERE taxonomy_id = ? ORDER BY seq", (tax["id"],))
    options = {}
    for f in fields:
        if f["picklist_id"]:
            pl = store.one("SELECT options FROM picklists WHERE id = ?", (f["picklist_id"],))
            options[f["id"]] = {o["value"] for o in json.loads(pl["options"])} if pl else set()
    for i, row in enumerate(rows):
        data = row["data"]
        for f in fields:
            loc = "rows[%d].data.%s" % (i, f["name"])
            val = data.get(f["name"])
            if val is None:
                if f["required"]:
                    raise invalid("Field '%s' is required by the taxonomy." % f["name"], "required_field",
                                  param="rows", path=loc)
                continue
            if not check_value(f["type"], val, options.get(f["id"], set())):
                raise invalid("Field '%s' must be a valid %s." % (f["name"], f["type"]), "invalid_value",
                              param="rows", path=loc)
    # 7. create
    sid = "sub_" + secrets.token_hex(6)
    stored = [{"data": r["data"]} for r in rows]
    created = now_iso()
    store.execute("INSERT INTO submissions (id, account_id, workspace_id, taxonomy_id, rows, row_count, created_at) "
                  "VALUES (?,?,?,?,?,?,?)",
                  (sid, ctx.account, ws_q, tax["id"], json.dumps(stored), len(stored), created))
    r = store.one("SELECT * FROM submissions WHERE id = ?", (sid,))
    return 201, submission_item(r, with_rows=True), [("Location", API_ROOT + "submissions/" + sid)]


def list_keys(ctx):
    page, limit = pagination(ctx.query)
    return 200, ctx.store.page("api_keys", "*", "account_id = ? AND revoked_at IS NULL", (ctx.account,),
                               page, limit, key_item), []


def get_key(ctx):
    r = ctx.store.one("SELECT * FROM api_keys WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
                      (ctx.ident, ctx.account))
    if r is None:
        raise not_found("No API key with id '%s'." % ctx.ident)
    return 200, key_item(r), []


def create_key(ctx):
    body = ctx.body()
    if "name" not in body:
        raise missing("name", path="name")
    name = body["name"]
    if not isinstance(name, str):
        raise invalid("'name' must be a string.", "invalid_type", param="name", path="name")
    name = name.strip()
    if name == "":
        raise invalid("'name' must not be empty.", "invalid_value", param="name", path="name")
    if len(name) > MAX_KEY_NAME:
        raise invalid("'name' must be at most %d characters." % MAX_KEY_NAME, "invalid_value",
                      param="name", path="name")
    store = ctx.store
    with store.lock:
        active = store.one("SELECT COUNT(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL",
                           (ctx.account,))[0]
        if active >= MAX_ACTIVE_KEYS:
            raise ApiError(422, "plan_limit_exceeded",
                           "The current plan allows at most %d active API keys." % MAX_ACTIVE_KEYS,
                           code="limit_exceeded", param="api_keys")
        token = KEY_PREFIX + secrets.token_hex(KEY_SECRET_HEX // 2)
        kid = "key_" + secrets.token_hex(6)
        created = now_iso()
        store.execute("INSERT INTO api_keys (id, account_id, name, key_hash, created_at) VALUES (?,?,?,?,?)",
                      (kid, ctx.account, name, hash_key(token), created))
    return 201, {"id": kid, "name": name, "token": token, "created_at": created, "last_used_at": None}, \
        [("Location", API_ROOT + "api_keys/" + kid)]


def delete_key(ctx):
    store = ctx.store
    with store.lock:
        r = store.one("SELECT id FROM api_keys WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
                      (ctx.ident, ctx.account))
        if r is None:
            raise not_found("No API key with id '%s'." % ctx.ident)
        store.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ?", (now_iso(), r["id"]))
    return 200, {"id": r["id"], "deleted": True}, []


# resource -> {"list", "create", "get", "delete"}
ROUTES = {
    "workspaces": {"list": simple_list("workspaces", workspace_item, "workspace"),
                   "get": simple_get("workspaces", workspace_item, "workspace")},
    "governance_models": {"list": simple_list("governance_models", model_item, "governance model"),
                          "get": simple_get("governance_models", model_item, "governance model")},
    "records": {"list": list_records, "get": simple_get("records", record_item, "record")},
    "submissions": {"list": list_submissions, "create": create_submission, "get": get_submission},
    "taxonomies": {"list": list_taxonomies, "get": get_taxonomy},
    "fields": {"list": list_fields, "get": simple_get("fields", field_item, "field")},
    "picklists": {"list": simple_list("picklists", picklist_item, "picklist"),
                  "get": simple_get("picklists", picklist_item, "picklist")},
    "api_keys": {"list": list_keys, "create": create_key, "get": get_key, "delete": delete_key},
}


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------

class BodyError(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "blind-api-v1/1.0"
    timeout = SOCKET_TIMEOUT
    default_request_version = "HTTP/1.0"  # so that even garbage gets a status line

    def setup(self):
        super().setup()
        try:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def version_string(self):
        return self.server_version

    # every method name (GET, POST, FOO, ...) goes through one dispatcher
    def __getattr__(self, name):
        if name.startswith("do_"):
            return self._dispatch
        raise AttributeError(name)

    def log_message(self, fmt, *args):  # keep quiet
        pass

    # JSON even for errors raised by the protocol layer (bad request line, etc.)
    def send_error(self, code, message=None, explain=None):
        self.close_connection = True
        try:
            status = int(code)
        except Exception:
            status = 400
        etype = type_for_status(status)
        err = ApiError(status, etype, message or "Bad request.", code="bad_request" if status < 500 else None)
        try:
            self._write(status, err.body(), [])
        except Exception:
            pass

    def _write(self, status, obj, headers):
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in headers:
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if getattr(self, "command", None) != "HEAD":
            self.wfile.write(data)
        try:
            self.wfile.flush()
        except Exception:
            pass

    # -- body ------------------------------------------------------------
    def _read_body(self):
        """Reads the request body now (before anything else) so that the connection
        stays in sync. Returns bytes, or a BodyError-describing ApiError (the
        connection is then closed after the response)."""
        te = (self.headers.get("Transfer-Encoding") or "").strip().lower()
        cl = self.headers.get_all("Content-Length") or []
        if te and te != "identity":
            if te != "chunked":
                self.close_connection = True
                return invalid("Unsupported Transfer-Encoding.", "invalid_body", status=400)
            return self._read_chunked()
        if not cl:
            return b""
        if len(set(v.strip() for v in cl)) != 1 or not cl[0].strip().isdigit():
            self.close_connection = True
            return invalid("Invalid Content-Length header.", "invalid_body", status=400)
        n = int(cl[0].strip())
        if n > MAX_BODY_BYTES:
            self.close_connection = True
            if n <= DRAIN_LIMIT:  # read and discard, so that the client sees the answer
                left = n
                while left > 0:
                    got = self.rfile.read(min(left, 65536))
                    if not got:
                        raise BodyError()
                    left -= len(got)
            return ApiError(413, "invalid_request_error",
                            "Request body exceeds %d bytes." % MAX_BODY_BYTES, code="body_too_large")
        data = self.rfile.read(n) if n else b""
        if len(data) != n:
            self.close_connection = True
            raise BodyError()
        return data

    def _read_chunked(self):
        out = bytearray()
        while True:
            line = self.rfile.readline(1026)
            if not line:
                self.close_connection = True
                raise BodyError()
            size_s = line.split(b";", 1)[0].strip()
            try:
                size = int(size_s, 16)
            except ValueError:
                self.close_connection = True
                return invalid("Malformed chunked body.", "invalid_body", status=400)
            if size == 0:
                # trailers
                for _ in range(100):
                    t = self.rfile.readline(8192)
                    if t in (b"\r\n", b"\n", b""):
                        break
                return bytes(out)
            if len(out) + size > MAX_BODY_BYTES:
                self.close_connection = True
                return ApiError(413, "invalid_request_error",
                                "Request body exceeds %d bytes." % MAX_BODY_BYTES, code="body_too_large")
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                self.close_connection = True
                raise BodyError()
            out += chunk
            self.rfile.readline(1026)

    def _parse_json_object(self, raw):
        if isinstance(raw, ApiError):
            raise raw
        if raw is None or raw.strip() == b"":
            return {}
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid("Request body is not valid UTF-8.", "invalid_json", status=400)

        def bad_constant(c):
            raise ValueError("constant %s" % c)
        try:
            obj = json.loads(text, parse_constant=bad_constant)
        except (ValueError, RecursionError):
            raise invalid("Request body is not valid JSON.", "invalid_json", status=400)
        if not isinstance(obj, dict):
            raise invalid("Request body must be a JSON object.", "invalid_type")
        return obj

    # -- main dispatcher --------------------------------------------------
    def _dispatch(self):
        try:
            self.connection.settimeout(SOCKET_TIMEOUT)
        except Exception:
            pass
        rl_headers = []
        try:
            raw = self._read_body()
        except (BodyError, OSError, socket.timeout):
            self.close_connection = True
            return
        try:
            try:
                status, body, headers, rl_headers = self._handle(raw)
            except ApiError as e:
                rl_headers = getattr(self, "_rl", [])
                status, body, headers = e.status, e.body(), e.headers
            except Exception:
                rl_headers = getattr(self, "_rl", [])
                e = ApiError(500, "api_error", "Unexpected server error.")
                status, body, headers = e.status, e.body(), []
            self._write(status, body, list(rl_headers) + list(headers))
        except (OSError, socket.timeout):
            self.close_connection = True

    def _handle(self, raw):
        srv = self.server
        self._rl = []
        method = self.command.upper() if self.command else ""
        # --- authentication ---------------------------------------------
        values = [v for v in (self.headers.get_all("Authorization") or []) if v.strip() != ""]
        ip = self.client_address[0] if self.client_address else "?"
        if not values:
            allowed, rl, retry = srv.limiter.hit("ip:" + ip, PER_IP_LIMIT)
            self._rl = rl
            if not allowed:
                raise rate_limited(retry)
            # the one exception to the common envelope: a flat body
            return 401, {"error": "authentication_error",
                         "message": "Missing Authorization header. Send 'Authorization: Bearer <API key>'."}, \
                [("WWW-Authenticate", 'Bearer realm="api"')], rl
        parts = values[0].split()
        if len(values) != 1 or len(parts) != 2 or parts[0].lower() != "bearer":
            _, rl, _ = srv.limiter.hit("ip:" + ip, PER_IP_LIMIT, consume=False)
            return 401, {"error": "authentication_error",
                         "message": "Malformed Authorization header. Use the Bearer scheme: 'Bearer <API key>'."}, \
                [("WWW-Authenticate", 'Bearer realm="api", error="invalid_request"')], rl
        token = parts[1]
        if not KEY_RE.match(token):
            _, self._rl, _ = srv.limiter.hit("ip:" + ip, PER_IP_LIMIT, consume=False)
            raise ApiError(401, "authentication_error", "The API key is incorrectly formatted.",
                           headers=[("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"')])
        key = srv.store.one("SELECT id, account_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
                            (hash_key(token),))
        if key is None:
            _, self._rl, _ = srv.limiter.hit("ip:" + ip, PER_IP_LIMIT, consume=False)
            raise ApiError(401, "authentication_error", "The API key is invalid or has been revoked.",
                           headers=[("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"')])
        srv.store.execute("UPDATE api_keys SET last_used_at = ? WHERE id = ?", (now_iso(), key["id"]))
        allowed, self._rl, retry = srv.limiter.hit("key:" + key["id"], PER_KEY_LIMIT)
        if not allowed:
            raise rate_limited(retry)
        rl = self._rl

        # --- routing ----------------------------------------------------------
        try:
            split = urlsplit(self.path)
        except ValueError:
            raise not_found("Unknown path.", code="unknown_route")
        path = split.path
        query = parse_qs(split.query, keep_blank_values=True, errors="replace")
        if not path.startswith(API_ROOT):
            raise not_found("Unknown path '%s'." % path, code="unknown_route")
        rest = path[len(API_ROOT):]
        if rest.endswith("/"):
            rest = rest[:-1]
        segments = [unquote(s, errors="replace") for s in rest.split("/")] if rest else []
        if not segments or any(s == "" for s in segments):
            raise not_found("Unknown path '%s'." % path, code="unknown_route")
        if segments[0] == "admin":
            raise ApiError(403, "authorization_error",
                           "Admin-only endpoints cannot be reached with an API key.", code="admin_only")
        res = ROUTES.get(segments[0])
        if res is None or len(segments) > 2:
            raise not_found("Unknown path '%s'." % path, code="unknown_route")
        eff = "GET" if method == "HEAD" else method
        if len(segments) == 1:
            table = {"GET": "list", "POST": "create"}
        else:
            table = {"GET": "get", "DELETE": "delete"}
        allowed_methods = [m for m, op in table.items() if op in res]
        op = table.get(eff)
        if op is None or op not in res:
            allow = ", ".join(allowed_methods + (["HEAD"] if "GET" in allowed_methods else []))
            raise ApiError(405, "invalid_request_error", "Method %s is not allowed on this path." % method,
                           code="method_not_allowed", headers=[("Allow", allow)])
        ctx = Ctx(srv.store, key["account_id"], key["id"], query,
                  segments[1] if len(segments) == 2 else None,
                  lambda: self._parse_json_object(raw))
        status, body, headers = res[op](ctx)
        return status, body, headers, rl


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def handle_error(self, request, client_address):  # keep quiet
        pass


def main(argv=None):
    ap = argparse.ArgumentParser(description="Blind implementation of API v1 (test target).")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--window-seconds", type=float, default=60.0,
                    help="length of the rate-limit window (the document's minute)")
    args = ap.parse_args(argv)
    if args.window_seconds <= 0:
        ap.error("--window-seconds must be positive")

    store = Store()
    keys = {"main": store.create_seed_key("acct_1", "main"), "other": store.create_seed_key("acct_2", "other")}

    cls = Server
    if ":" in args.host:
        cls = type("Server6", (Server,), {"address_family": socket.AF_INET6})
    httpd = cls((args.host, args.port), Handler)
    httpd.store = store
    httpd.limiter = RateLimiter(args.window_seconds)
    port = httpd.server_address[1]
    host = args.host if ":" not in args.host else "[%s]" % args.host
    sys.stdout.write(json.dumps({"url": "http://%s:%d" % (host, port), "keys": keys}) + "\n")
    sys.stdout.flush()

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    t.start()
    while not stop.wait(0.5):
        pass
    httpd.shutdown()
    httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
