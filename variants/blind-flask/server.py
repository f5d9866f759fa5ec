#!/usr/bin/python3
"""Workspaces / governance models / submissions / records API, v1.

A Flask application served by gunicorn (one gthread worker, eight threads).
All state lives in memory in the single worker process, behind one lock.

Run:
    /usr/bin/python3 variants/blind-flask/server.py [--host 127.0.0.1] [--port 0] [--window-seconds 60]

Once gunicorn is listening, exactly one JSON line is written to stdout:
    {"url": "http://127.0.0.1:PORT", "keys": {"main": "...", "other": "..."}}
"""

import argparse
import datetime
import hashlib
import hmac
import json
import math
import random
import re
import secrets
import socket
import string
import sys
import threading
import time

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

import gunicorn.app.base

# ---------------------------------------------------------------------------
# Deployment choices (mirrored in profile.json and README.md)
# ---------------------------------------------------------------------------

KEY_PREFIX = "ak_live_"
KEY_SECRET_LENGTH = 40
KEY_ALPHABET = string.ascii_letters + string.digits

PER_KEY_LIMIT = 100
PER_IP_LIMIT = 20

DEFAULT_LIMIT = 100
MAX_LIMIT = 10000
MAX_ROWS_PER_SUBMISSION = 5000
MAX_BODY_BYTES = 5 * 1024 * 1024
MAX_KEY_NAME_LENGTH = 200

SUBMISSION_WORKSPACE_PARAM = "workspace"
SUBMISSION_FILTER_WORKSPACE = "workspace"
SUBMISSION_FILTER_TAXONOMY = "taxonomy"

RECORD_STATUSES = ("pending", "validated", "rejected", "published")

_INT_RE = re.compile(r"[0-9]{1,40}")
_AUTH_SPLIT_RE = re.compile(r"[ \t]+")


def utcnow_iso():
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_id(prefix):
    return prefix + secrets.token_hex(8)


def hash_key(token):
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class ApiError(Exception):
    """An error rendered with the common envelope."""

    def __init__(self, status, type_, message, code=None, param=None, path=None,
                 headers=None, include_path=True):
        super().__init__(message)
        self.status = status
        self.type = type_
        self.message = message
        self.code = code
        self.param = param
        self.path = path
        self.headers = headers or {}
        self.include_path = include_path

    def to_response(self):
        err = {
            "type": self.type,
            "code": self.code,
            "message": self.message,
            "param": self.param,
        }
        if self.include_path:
            err["path"] = self.path
        resp = jsonify({"error": err})
        resp.status_code = self.status
        for name, value in self.headers.items():
            resp.headers[name] = value
        return resp


class AuthHeaderError(Exception):
    """Missing or malformed Authorization header.

    Rendered with its own, flat body shape: {"type": ..., "message": ...}.
    """

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def to_response(self):
        resp = jsonify({"type": "authentication_error", "message": self.message})
        resp.status_code = 401
        resp.headers["WWW-Authenticate"] = 'Bearer realm="api"'
        return resp


def invalid(message, param, code="invalid_value", path=None):
    return ApiError(422, "invalid_request_error", message, code=code, param=param, path=path)


def missing(param, path=None, message=None):
    return ApiError(400, "invalid_request_error",
                    message or "Missing required parameter: %s." % param,
                    code="missing_param", param=param, path=path)


def not_found(message="Resource not found.", param=None):
    return ApiError(404, "not_found_error", message, code=None, param=param)


# ---------------------------------------------------------------------------
# In-memory store
# ---------------------------------------------------------------------------


class Account:
    def __init__(self, account_id, name):
        self.id = account_id
        self.name = name
        self.workspaces = {}
        self.governance_models = {}
        self.records = {}
        self.taxonomies = {}
        self.fields = {}
        self.picklists = {}
        self.submissions = {}
        self.api_keys = {}  # key id -> key dict (live keys only)


class Store:
    def __init__(self, window_seconds):
        self.lock = threading.RLock()
        self.window = float(window_seconds)
        self.accounts = {}
        self.keys_by_hash = {}  # sha256 hex -> key dict (live and revoked)
        self.key_windows = {}  # key id -> [window_end, count]
        self.ip_windows = {}  # ip -> [window_end, count]

    # -- keys ---------------------------------------------------------------

    def create_key(self, account, name):
        secret = "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_SECRET_LENGTH))
        token = KEY_PREFIX + secret
        key = {
            "id": new_id("key_"),
            "account_id": account.id,
            "name": name,
            "hint": KEY_PREFIX + "\u2026" + secret[-4:],
            "created_at": utcnow_iso(),
            "last_used_at": None,
            "revoked": False,
            "hash": hash_key(token),
        }
        with self.lock:
            self.keys_by_hash[key["hash"]] = key
            account.api_keys[key["id"]] = key
        return key, token

    def lookup_key(self, token):
        digest = hash_key(token)
        with self.lock:
            key = self.keys_by_hash.get(digest)
            if key is None or key["revoked"]:
                return None
            if not hmac.compare_digest(key["hash"], digest):
                return None
            return key

    def revoke_key(self, account, key_id):
        with self.lock:
            key = account.api_keys.pop(key_id, None)
            if key is None:
                return False
            key["revoked"] = True
            self.key_windows.pop(key_id, None)
            return True

    # -- rate limiting (fixed windows) --------------------------------------

    def _hit(self, table, ident, ceiling):
        now = time.time()
        with self.lock:
            slot = table.get(ident)
            if slot is None or now >= slot[0]:
                slot = [now + self.window, 0]
                table[ident] = slot
            allowed = slot[1] < ceiling
            if allowed:
                slot[1] += 1
            remaining = max(0, ceiling - slot[1])
            window_end = slot[0]
        reset = int(math.ceil(window_end))
        retry_after = max(1, int(math.ceil(window_end - now)))
        return {
            "allowed": allowed,
            "limit": ceiling,
            "remaining": remaining,
            "reset": reset,
            "retry_after": retry_after,
        }

    def hit_key(self, key_id):
        return self._hit(self.key_windows, key_id, PER_KEY_LIMIT)

    def hit_ip(self, ip):
        return self._hit(self.ip_windows, ip, PER_IP_LIMIT)


# ---------------------------------------------------------------------------
# Seed data
# ---------------------------------------------------------------------------

_WORDS = ("alpha", "bravo", "delta", "harbor", "meadow", "copper", "quartz",
          "ember", "summit", "willow", "atlas", "cobalt", "falcon", "granite")


def _service_id(rng):
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))


def _seed_account(store, account_id, name, spec, rng):
    acct = Account(account_id, name)
    store.accounts[account_id] = acct

    for ws_name, ws_desc in spec["workspaces"]:
        ws = {"id": new_id("ws_"), "name": ws_name, "description": ws_desc}
        acct.workspaces[ws["id"]] = ws

    for gm_name, gm_desc in spec["governance_models"]:
        gm = {"id": new_id("gm_"), "name": gm_name, "description": gm_desc}
        acct.governance_models[gm["id"]] = gm

    for pl_name, options in spec["picklists"]:
        pl = {
            "id": new_id("pl_"),
            "name": pl_name,
            "options": [{"value": o.lower().replace(" ", "_"), "label": o} for o in options],
        }
        acct.picklists[pl["id"]] = pl
    picklist_ids = list(acct.picklists)

    for tax_name, tax_desc, fields in spec["taxonomies"]:
        tax = {
            "id": new_id("tx_"),
            "name": tax_name,
            "description": tax_desc,
            "created_at": utcnow_iso(),
        }
        acct.taxonomies[tax["id"]] = tax
        for fname, ftype, required in fields:
            fld = {
                "id": new_id("fld_"),
                "taxonomy_id": tax["id"],
                "name": fname,
                "key": fname.lower().replace(" ", "_"),
                "data_type": ftype,
                "required": required,
                "picklist_id": None,
            }
            if ftype == "picklist" and picklist_ids:
                fld["picklist_id"] = rng.choice(picklist_ids)
            acct.fields[fld["id"]] = fld
        tax["field_count"] = sum(1 for f in acct.fields.values() if f["taxonomy_id"] == tax["id"])

    ws_ids = list(acct.workspaces)
    for i in range(spec["record_count"]):
        rec = {
            "id": new_id("rec_"),
            "status": RECORD_STATUSES[i % len(RECORD_STATUSES)],
            "service_id": _service_id(rng),
            "workspace_id": ws_ids[i % len(ws_ids)],
            "data": {
                "sequence": i + 1,
                "label": "%s %s" % (rng.choice(_WORDS).title(), rng.choice(_WORDS)),
                "amount": round(rng.uniform(1, 5000), 2),
                "tags": rng.sample(_WORDS, 2),
            },
        }
        acct.records[rec["id"]] = rec

    tax_ids = list(acct.taxonomies)
    for i in range(spec["submission_count"]):
        sub = {
            "id": new_id("sub_"),
            "workspace_id": ws_ids[i % len(ws_ids)],
            "taxonomy_id": tax_ids[i % len(tax_ids)],
            "row_count": rng.randint(1, 40),
            "created_at": utcnow_iso(),
        }
        acct.submissions[sub["id"]] = sub

    key, token = store.create_key(acct, spec["key_name"])
    return acct, token


def seed(store):
    rng = random.Random(20240601)
    main_spec = {
        "workspaces": [
            ("Main", "Default workspace created at sign-up."),
            ("Finance", "Ledgers, cost centres and vendor data."),
            ("Operations", "Sites, assets and maintenance schedules."),
            ("Research", "Experimental datasets under review."),
        ],
        "governance_models": [
            ("Centralised stewardship", "One data office approves every change."),
            ("Federated domains", "Each business domain owns its reference data."),
            ("Four-eyes review", "Every submission needs a second reviewer."),
            ("Open contribution", None),
            ("Regulated (SOX)", "Change control aligned with SOX requirements."),
        ],
        "picklists": [
            ("Country", ["France", "Germany", "Japan", "United States", "Brazil"]),
            ("Currency", ["EUR", "USD", "JPY", "BRL"]),
            ("Risk level", ["Low", "Medium", "High"]),
        ],
        "taxonomies": [
            ("Vendor master", "Suppliers and their banking details.", [
                ("Vendor name", "string", True),
                ("Country", "picklist", True),
                ("Tax number", "string", False),
                ("Payment terms (days)", "number", False),
            ]),
            ("Chart of accounts", "General ledger accounts.", [
                ("Account code", "string", True),
                ("Account name", "string", True),
                ("Currency", "picklist", False),
            ]),
            ("Asset register", "Physical assets by site.", [
                ("Asset tag", "string", True),
                ("Commissioned on", "date", False),
                ("Active", "boolean", False),
            ]),
        ],
        "record_count": 237,
        "submission_count": 3,
        "key_name": "Seed key (main)",
    }
    other_spec = {
        "workspaces": [
            ("Main", "Default workspace created at sign-up."),
            ("Logistics", "Carriers and warehouses."),
        ],
        "governance_models": [
            ("Lightweight review", "A single approver per domain."),
            ("Unmanaged", None),
        ],
        "picklists": [
            ("Carrier type", ["Road", "Rail", "Sea", "Air"]),
        ],
        "taxonomies": [
            ("Carriers", "Transport partners.", [
                ("Carrier name", "string", True),
                ("Carrier type", "picklist", True),
            ]),
        ],
        "record_count": 42,
        "submission_count": 1,
        "key_name": "Seed key (other)",
    }
    _, main_token = _seed_account(store, "acct_" + secrets.token_hex(6), "Acme Corp", main_spec, rng)
    _, other_token = _seed_account(store, "acct_" + secrets.token_hex(6), "Globex Ltd", other_spec, rng)
    return main_token, other_token


# ---------------------------------------------------------------------------
# Request helpers
# ---------------------------------------------------------------------------


def single_query_value(name):
    values = request.args.getlist(name)
    if not values:
        return None
    if len(values) > 1:
        raise invalid("Parameter '%s' must be given at most once." % name, name,
                      code="repeated_param")
    return values[0]


def int_query_param(name, default, minimum, maximum=None):
    raw = single_query_value(name)
    if raw is None:
        return default
    if not _INT_RE.fullmatch(raw):
        raise invalid("Parameter '%s' must be an integer." % name, name, code="invalid_integer")
    value = int(raw)
    if value < minimum or (maximum is not None and value > maximum):
        if maximum is None:
            msg = "Parameter '%s' must be at least %d." % (name, minimum)
        else:
            msg = "Parameter '%s' must be between %d and %d." % (name, minimum, maximum)
        raise invalid(msg, name, code="out_of_range")
    return value


def paginate(items):
    page = int_query_param("page", 1, 1)
    limit = int_query_param("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    total = len(items)
    start = (page - 1) * limit
    chunk = items[start:start + limit] if start < total else []
    return jsonify({
        "items": chunk,
        "has_more": start + limit < total,
        "total_count": total,
    })


def filter_value(name):
    """An optional filter; an empty value is an invalid value."""
    raw = single_query_value(name)
    if raw is not None and raw == "":
        raise invalid("Filter '%s' must not be empty." % name, name)
    return raw


def _reject_constant(token):
    raise ValueError("invalid JSON constant %s" % token)


def json_body():
    """Parse the request body as a JSON object. An absent body is {}."""
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise RequestEntityTooLarge()
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY_BYTES:
        raise RequestEntityTooLarge()
    if not raw.strip():
        return {}
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, "invalid_request_error",
                       "Request bodies must be sent with Content-Type: application/json.",
                       code="unsupported_media_type")
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise ApiError(400, "invalid_request_error", "The request body is not valid JSON.",
                       code="invalid_json")
    if not isinstance(data, dict):
        raise invalid("The request body must be a JSON object.", "body", code="invalid_type")
    return data


def public(resource, hidden=()):
    return {k: v for k, v in resource.items() if k not in hidden}


def key_view(key):
    return {
        "id": key["id"],
        "name": key["name"],
        "hint": key["hint"],
        "created_at": key["created_at"],
        "last_used_at": key["last_used_at"],
    }


def rate_headers(state):
    return {
        "X-RateLimit-Limit": str(state["limit"]),
        "X-RateLimit-Remaining": str(state["remaining"]),
        "X-RateLimit-Reset": str(state["reset"]),
    }


def rate_limited(state):
    headers = rate_headers(state)
    headers["Retry-After"] = str(state["retry_after"])
    return ApiError(
        429, "rate_limit_error",
        "Rate limit exceeded. Retry in %d seconds." % state["retry_after"],
        code="rate_limit_exceeded", param=None, headers=headers, include_path=False)


# ---------------------------------------------------------------------------
# Application
# ---------------------------------------------------------------------------


class ApiFlask(Flask):
    def make_default_options_response(self):
        # Automatic OPTIONS is kept, but answered with 204 (no body) so that
        # no response carries a non-JSON body.
        rv = super().make_default_options_response()
        rv.status_code = 204
        return rv


def create_app(store):
    app = ApiFlask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["JSON_SORT_KEYS"] = False

    def account():
        return store.accounts[g.key["account_id"]]

    # -- authentication and rate limiting (runs before routing) -------------

    @app.before_request
    def authenticate():
        g.rate = None
        g.key = None
        header = request.headers.get("Authorization")
        if header is None:
            state = store.hit_ip(request.remote_addr or "unknown")
            g.rate = state
            if not state["allowed"]:
                raise rate_limited(state)
            raise AuthHeaderError("Missing Authorization header. Send 'Authorization: Bearer <API key>'.")
        parts = _AUTH_SPLIT_RE.split(header.strip(" \t"))
        if len(parts) != 2 or parts[0].lower() != "bearer":
            raise AuthHeaderError("Malformed Authorization header. Expected 'Bearer <API key>'.")
        token = parts[1]
        if not token.lower().startswith(KEY_PREFIX.lower()):
            raise AuthHeaderError("Malformed API key. Keys start with '%s'." % KEY_PREFIX)
        key = store.lookup_key(token)
        if key is None:
            raise ApiError(401, "authentication_error",
                           "Invalid API key: the key is unknown or has been revoked.",
                           headers={"WWW-Authenticate": 'Bearer realm="api", error="invalid_token"'})
        state = store.hit_key(key["id"])
        g.rate = state
        if not state["allowed"]:
            raise rate_limited(state)
        with store.lock:
            key["last_used_at"] = utcnow_iso()
        g.key = key
        return None

    @app.after_request
    def finish(response):
        state = getattr(g, "rate", None)
        if state is not None:
            for name, value in rate_headers(state).items():
                response.headers[name] = value
        if response.status_code == 204:
            response.headers.pop("Content-Type", None)
        # Responses are always JSON: give a JSON body to anything werkzeug
        # produced on its own (e.g. merge-slashes redirects).
        if (response.status_code not in (204, 304) and request.method != "HEAD"
                and not response.is_json and not response.direct_passthrough):
            body = {"location": response.headers.get("Location")} if 300 <= response.status_code < 400 \
                else {"error": {"type": "api_error", "code": None, "message": "Unexpected response.",
                                "param": None, "path": None}}
            response.set_data(json.dumps(body))
            response.mimetype = "application/json"
        return response

    # -- error handlers -----------------------------------------------------

    @app.errorhandler(ApiError)
    def handle_api_error(e):
        return e.to_response()

    @app.errorhandler(AuthHeaderError)
    def handle_auth_header_error(e):
        return e.to_response()

    http_types = {401: "authentication_error", 403: "authorization_error",
                  404: "not_found_error", 429: "rate_limit_error"}
    http_codes = {400: "bad_request", 405: "method_not_allowed", 413: "payload_too_large",
                  415: "unsupported_media_type"}

    @app.errorhandler(HTTPException)
    def handle_http_exception(e):
        status = e.code or 500
        if status >= 500:
            err = ApiError(status, "api_error", "An unexpected error occurred.")
        elif status == 404:
            err = not_found("No such endpoint: %s %s." % (request.method, request.path))
        elif status == 405:
            err = ApiError(405, "invalid_request_error",
                           "Method %s is not allowed on %s." % (request.method, request.path),
                           code="method_not_allowed")
        elif status == 413:
            err = ApiError(413, "invalid_request_error",
                           "The request body exceeds %d bytes." % MAX_BODY_BYTES,
                           code="payload_too_large")
        else:
            err = ApiError(status, http_types.get(status, "invalid_request_error"),
                           e.description or e.name, code=http_codes.get(status))
        resp = err.to_response()
        allow = e.get_headers() if hasattr(e, "get_headers") else []
        for name, value in allow:
            if name.lower() == "allow":
                resp.headers["Allow"] = value
        return resp

    @app.errorhandler(Exception)
    def handle_unexpected(e):
        app.logger.exception("unhandled error")
        return ApiError(500, "api_error", "An unexpected error occurred.").to_response()

    # -- workspaces ---------------------------------------------------------

    @app.get("/api/v1/workspaces")
    def list_workspaces():
        with store.lock:
            items = [public(w) for w in account().workspaces.values()]
        return paginate(items)

    @app.get("/api/v1/workspaces/<workspace_id>")
    def get_workspace(workspace_id):
        with store.lock:
            ws = account().workspaces.get(workspace_id)
            if ws is None:
                raise not_found("No such workspace.")
            return jsonify(public(ws))

    # -- governance models --------------------------------------------------

    @app.get("/api/v1/governance_models")
    def list_governance_models():
        with store.lock:
            items = [public(m) for m in account().governance_models.values()]
        return paginate(items)

    @app.get("/api/v1/governance_models/<model_id>")
    def get_governance_model(model_id):
        with store.lock:
            gm = account().governance_models.get(model_id)
            if gm is None:
                raise not_found("No such governance model.")
            return jsonify(public(gm))

    # -- records ------------------------------------------------------------

    @app.get("/api/v1/records")
    def list_records():
        status = filter_value("status")
        if status is not None and status not in RECORD_STATUSES:
            raise invalid("Filter 'status' must be one of: %s." % ", ".join(RECORD_STATUSES),
                          "status")
        workspace = filter_value("workspace")
        with store.lock:
            items = [public(r) for r in account().records.values()
                     if (status is None or r["status"] == status)
                     and (workspace is None or r["workspace_id"] == workspace)]
        return paginate(items)

    @app.get("/api/v1/records/<record_id>")
    def get_record(record_id):
        with store.lock:
            rec = account().records.get(record_id)
            if rec is None:
                raise not_found("No such record.")
            return jsonify(public(rec))

    # -- taxonomies, fields, picklists -------------------------------------

    @app.get("/api/v1/taxonomies")
    def list_taxonomies():
        with store.lock:
            items = [public(t) for t in account().taxonomies.values()]
        return paginate(items)

    @app.get("/api/v1/taxonomies/<taxonomy_id>")
    def get_taxonomy(taxonomy_id):
        with store.lock:
            tax = account().taxonomies.get(taxonomy_id)
            if tax is None:
                raise not_found("No such taxonomy.")
            return jsonify(public(tax))

    @app.get("/api/v1/fields")
    def list_fields():
        taxonomy = filter_value("taxonomy")
        with store.lock:
            items = [public(f) for f in account().fields.values()
                     if taxonomy is None or f["taxonomy_id"] == taxonomy]
        return paginate(items)

    @app.get("/api/v1/fields/<field_id>")
    def get_field(field_id):
        with store.lock:
            fld = account().fields.get(field_id)
            if fld is None:
                raise not_found("No such field.")
            return jsonify(public(fld))

    @app.get("/api/v1/picklists")
    def list_picklists():
        with store.lock:
            items = [public(p) for p in account().picklists.values()]
        return paginate(items)

    @app.get("/api/v1/picklists/<picklist_id>")
    def get_picklist(picklist_id):
        with store.lock:
            pl = account().picklists.get(picklist_id)
            if pl is None:
                raise not_found("No such picklist.")
            return jsonify(public(pl))

    # -- submissions --------------------------------------------------------

    @app.post("/api/v1/submissions")
    def create_submission():
        workspace_param = single_query_value(SUBMISSION_WORKSPACE_PARAM)
        if workspace_param is None or workspace_param == "":
            raise missing(SUBMISSION_WORKSPACE_PARAM,
                          message="Missing required query parameter: %s." % SUBMISSION_WORKSPACE_PARAM)
        body = json_body()
        for name in ("taxonomy_id", "rows"):
            if name not in body or body[name] is None:
                raise missing(name, path=name)
        body_ws = body.get("workspace_id")
        if body_ws is not None and not isinstance(body_ws, str):
            raise invalid("'workspace_id' must be a string.", "workspace_id",
                          code="invalid_type", path="workspace_id")
        taxonomy_id = body["taxonomy_id"]
        if not isinstance(taxonomy_id, str):
            raise invalid("'taxonomy_id' must be a string.", "taxonomy_id",
                          code="invalid_type", path="taxonomy_id")
        if taxonomy_id == "":
            raise invalid("'taxonomy_id' must not be empty.", "taxonomy_id", path="taxonomy_id")
        if body_ws is not None and body_ws != workspace_param:
            raise invalid("'workspace_id' in the body does not match the '%s' query parameter."
                          % SUBMISSION_WORKSPACE_PARAM, "workspace_id",
                          code="workspace_mismatch", path="workspace_id")
        rows = body["rows"]
        if not isinstance(rows, list):
            raise invalid("'rows' must be an array.", "rows", code="invalid_type", path="rows")
        if not rows:
            raise invalid("'rows' must contain at least one row.", "rows", path="rows")
        if len(rows) > MAX_ROWS_PER_SUBMISSION:
            raise ApiError(422, "plan_limit_exceeded",
                           "A submission holds at most %d rows on the current plan."
                           % MAX_ROWS_PER_SUBMISSION,
                           code="limit_exceeded", param="rows", path="rows")
        for index, row in enumerate(rows):
            where = "rows[%d]" % index
            if not isinstance(row, dict):
                raise invalid("Each row must be an object with a 'data' object.", "rows",
                              code="invalid_type", path=where)
            if "data" not in row:
                raise missing("rows", path=where + ".data",
                              message="Row %d is missing its 'data' object." % index)
            if not isinstance(row["data"], dict):
                raise invalid("'data' of row %d must be an object." % index, "rows",
                              code="invalid_type", path=where + ".data")
            extra = sorted(k for k in row if k != "data")
            if extra:
                raise invalid("Row %d has an unknown member '%s'; rows carry only 'data'."
                              % (index, extra[0]), "rows", code="unknown_field",
                              path="%s.%s" % (where, extra[0]))
        with store.lock:
            acct = account()
            if workspace_param not in acct.workspaces:
                raise not_found("No such workspace.", param=SUBMISSION_WORKSPACE_PARAM)
            if taxonomy_id not in acct.taxonomies:
                raise not_found("No such taxonomy.", param="taxonomy_id")
            sub = {
                "id": new_id("sub_"),
                "workspace_id": workspace_param,
                "taxonomy_id": taxonomy_id,
                "row_count": len(rows),
                "created_at": utcnow_iso(),
            }
            acct.submissions[sub["id"]] = sub
        resp = jsonify(public(sub))
        resp.status_code = 201
        resp.headers["Location"] = "/api/v1/submissions/%s" % sub["id"]
        return resp

    @app.get("/api/v1/submissions")
    def list_submissions():
        workspace = filter_value(SUBMISSION_FILTER_WORKSPACE)
        taxonomy = filter_value(SUBMISSION_FILTER_TAXONOMY)
        with store.lock:
            items = [public(s) for s in account().submissions.values()
                     if (workspace is None or s["workspace_id"] == workspace)
                     and (taxonomy is None or s["taxonomy_id"] == taxonomy)]
        return paginate(items)

    @app.get("/api/v1/submissions/<submission_id>")
    def get_submission(submission_id):
        with store.lock:
            sub = account().submissions.get(submission_id)
            if sub is None:
                raise not_found("No such submission.")
            return jsonify(public(sub))

    # -- API keys -----------------------------------------------------------

    @app.post("/api/v1/api_keys")
    def create_api_key():
        body = json_body()
        if "name" not in body or body["name"] is None:
            raise missing("name", path="name")
        name = body["name"]
        if not isinstance(name, str):
            raise invalid("'name' must be a string.", "name", code="invalid_type", path="name")
        if not name.strip():
            raise invalid("'name' must not be blank.", "name", path="name")
        if len(name) > MAX_KEY_NAME_LENGTH:
            raise invalid("'name' is longer than %d characters." % MAX_KEY_NAME_LENGTH,
                          "name", path="name")
        key, token = store.create_key(account(), name)
        body = key_view(key)
        body["token"] = token
        resp = jsonify(body)
        resp.status_code = 201
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/api/v1/api_keys")
    def list_api_keys():
        with store.lock:
            items = [key_view(k) for k in account().api_keys.values()]
        return paginate(items)

    @app.get("/api/v1/api_keys/<key_id>")
    def get_api_key(key_id):
        with store.lock:
            key = account().api_keys.get(key_id)
            if key is None:
                raise not_found("No such API key.")
            return jsonify(key_view(key))

    @app.delete("/api/v1/api_keys/<key_id>")
    def delete_api_key(key_id):
        if not store.revoke_key(account(), key_id):
            raise not_found("No such API key.")
        return Response(status=204)

    # -- admin-only area: API keys never reach it -----------------------------

    @app.route("/api/v1/admin", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
    @app.route("/api/v1/admin/<path:rest>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
    def admin_only(rest=None):
        raise ApiError(403, "authorization_error",
                       "This endpoint is reserved to administrators of the web app; "
                       "API keys cannot reach it.", code="admin_only")

    return app


# ---------------------------------------------------------------------------
# gunicorn bootstrap
# ---------------------------------------------------------------------------


class ApiServer(gunicorn.app.base.BaseApplication):
    def __init__(self, app, options):
        self.options = options
        self.application = app
        super().__init__()

    def load_config(self):
        for name, value in self.options.items():
            if name in self.cfg.settings and value is not None:
                self.cfg.set(name, value)

    def load(self):
        return self.application


def bound_socket(host):
    """A socket bound to a free port, handed to gunicorn as it is (fd://).

    Ours, not the blind writer's (see README.md): the port was read from a socket that was then
    closed, and gunicorn bound it anew; another process on the machine could take it between the two.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, 0))
    return s


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--window-seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    if args.window_seconds <= 0:
        parser.error("--window-seconds must be positive")

    host = args.host
    url_host = "[%s]" % host if ":" in host else host
    if args.port:
        port = args.port
        bind = "%s:%d" % (url_host, port)
    else:
        sock = bound_socket(host)
        port = sock.getsockname()[1]
        # gunicorn takes the descriptor over (and closes it): detached, no socket object here closes it too.
        bind = "fd://%d" % sock.detach()

    store = Store(args.window_seconds)
    main_key, other_key = seed(store)
    app = create_app(store)

    announcement = json.dumps({
        "url": "http://%s:%d" % (url_host, port),
        "keys": {"main": main_key, "other": other_key},
    })

    def when_ready(server):
        sys.stdout.write(announcement + "\n")
        sys.stdout.flush()

    options = {
        "bind": bind,
        "workers": 1,
        "worker_class": "gthread",
        "threads": 8,
        "loglevel": "warning",
        "errorlog": "-",
        "graceful_timeout": 1,
        "when_ready": when_ready,
    }
    ApiServer(app, options).run()


if __name__ == "__main__":
    main()
