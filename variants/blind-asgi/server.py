#!/usr/bin/python3
"""Blind, independent implementation of the Workspaces / Governance Models /
Submissions / Records REST API (v1) as a FastAPI application served by uvicorn.

Run:
    /usr/bin/python3 variants/blind-asgi/server.py [--host 127.0.0.1] [--port 0] [--window-seconds 60]

Prints exactly one JSON line on stdout once serving:
    {"url": "http://127.0.0.1:PORT", "keys": {"main": "...", "other": "..."}}
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import math
import random
import re
import secrets
import signal
import socket
import string
import sys
import time
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response

import uvicorn

# --------------------------------------------------------------------------
# Deployment choices (mirrored in profile.json and README.md)
# --------------------------------------------------------------------------
KEY_PREFIX = "gvk_"
KEY_SECRET_LEN = 40
KEY_SECRET_ALPHABET = string.ascii_letters + string.digits
KEY_RE = re.compile(r"^" + re.escape(KEY_PREFIX) + r"[A-Za-z0-9]+$")

PER_KEY_LIMIT = 100
PER_IP_LIMIT = 20
WINDOW_SECONDS = 60.0  # overridable by --window-seconds

DEFAULT_LIMIT = 100
MAX_LIMIT = 10000
MAX_PAGE = 2 ** 53 - 1

MAX_BODY_BYTES = 10 * 1024 * 1024
MAX_ROWS = 10000
MAX_KEY_NAME = 200

SUBMISSION_WS_PARAM = "workspace"          # POST /api/v1/submissions?workspace=...
SUBMISSION_FILTER_WS = "workspace"         # GET  /api/v1/submissions?workspace=...
SUBMISSION_FILTER_TAX = "taxonomy"         # GET  /api/v1/submissions?taxonomy=...
SECRET_FIELD = "secret"                    # member carrying the full key on creation

RECORD_STATUSES = ["draft", "in_review", "approved", "rejected", "archived"]

JSON_MEDIA = "application/json"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------
class ApiError(Exception):
    def __init__(self, status: int, type_: str, message: str, code: Optional[str] = None,
                 param: Optional[str] = None, path: Optional[str] = None,
                 headers: Optional[Dict[str, str]] = None):
        super().__init__(message)
        self.status = status
        self.type = type_
        self.message = message
        self.code = code
        self.param = param
        self.path = path
        self.headers = headers or {}


def error_body(type_: str, message: str, code: Optional[str] = None, param: Optional[str] = None,
               path: Optional[str] = None) -> Dict[str, Any]:
    return {"error": {"type": type_, "code": code, "message": message, "param": param, "path": path}}


def json_bytes(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def error_response(err: ApiError) -> JSONResponse:
    return JSONResponse(error_body(err.type, err.message, err.code, err.param, err.path),
                        status_code=err.status, headers=err.headers, media_type=JSON_MEDIA)


def invalid(message: str, param: str, code: str = "invalid_value", path: Optional[str] = None) -> ApiError:
    return ApiError(422, "invalid_request_error", message, code=code, param=param, path=path)


def missing(param: str, where: str = "query") -> ApiError:
    path = param if where == "body" else None
    return ApiError(400, "invalid_request_error", f"Missing required parameter: {param}.",
                    code="missing_param", param=param, path=path)


def not_found(what: str = "Resource") -> ApiError:
    return ApiError(404, "not_found_error", f"{what} not found.")


# --------------------------------------------------------------------------
# In-memory data
# --------------------------------------------------------------------------
_B32 = "0123456789abcdefghjkmnpqrstvwxyz"


class IdGen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.used: set = set()

    def make(self, prefix: str, n: int = 16) -> str:
        while True:
            ident = prefix + "_" + "".join(self.rng.choice(_B32) for _ in range(n))
            if ident not in self.used:
                self.used.add(ident)
                return ident


_runtime_ids = IdGen(secrets.randbits(64))


class Account:
    def __init__(self, number: int, name: str):
        self.number = number
        self.name = name
        self.workspaces: Dict[str, dict] = {}
        self.governance_models: Dict[str, dict] = {}
        self.records: Dict[str, dict] = {}
        self.taxonomies: Dict[str, dict] = {}
        self.fields: Dict[str, dict] = {}
        self.picklists: Dict[str, dict] = {}
        self.submissions: Dict[str, dict] = {}
        self.api_keys: Dict[str, dict] = {}   # key id -> stored key (hash only)


ACCOUNTS: Dict[int, Account] = {}
KEY_INDEX: Dict[str, tuple] = {}   # sha256(token) -> (account number, key id)


def hash_key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_key(account: Account, name: str) -> (dict, str):
    secret = "".join(secrets.choice(KEY_SECRET_ALPHABET) for _ in range(KEY_SECRET_LEN))
    token = KEY_PREFIX + secret
    kid = _runtime_ids.make("key", 20)
    stored = {
        "id": kid,
        "name": name,
        "hash": hash_key(token),
        "last_four": secret[-4:],
        "created_at": now_iso(),
        "last_used_at": None,
    }
    account.api_keys[kid] = stored
    KEY_INDEX[stored["hash"]] = (account.number, kid)
    return stored, token


def public_key(stored: dict) -> dict:
    return {
        "id": stored["id"],
        "object": "api_key",
        "name": stored["name"],
        "prefix": KEY_PREFIX,
        "last_four": stored["last_four"],
        "created_at": stored["created_at"],
        "last_used_at": stored["last_used_at"],
    }


WORDS = ["alpha", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
         "juniper", "kestrel", "lumen", "meadow", "nimbus", "onyx", "prairie", "quartz",
         "raven", "sierra", "tundra", "umber", "violet", "willow", "xenon", "yarrow", "zephyr"]
COUNTRIES = ["DE", "FR", "NL", "SE", "US", "CA", "JP", "BR", "IN", "ZA"]


def seed_account(acc: Account, seed: int, spec: dict) -> None:
    ids = IdGen(seed)
    rng = random.Random(seed * 7 + 1)
    ts_base = datetime(2024, 3, 1, tzinfo=timezone.utc).timestamp() + seed * 86400

    def ts(i: int) -> str:
        return datetime.fromtimestamp(ts_base + i * 3671, timezone.utc).isoformat(
            timespec="seconds").replace("+00:00", "Z")

    for name, desc in spec["workspaces"]:
        w = {"id": ids.make("wks"), "name": name, "description": desc}
        acc.workspaces[w["id"]] = w

    for name, desc in spec["governance_models"]:
        g = {"id": ids.make("gvm"), "name": name, "description": desc}
        acc.governance_models[g["id"]] = g

    # picklists
    for pname, options in spec["picklists"]:
        p = {"id": ids.make("pkl"), "name": pname,
             "options": [{"value": o.lower().replace(" ", "_"), "label": o} for o in options]}
        acc.picklists[p["id"]] = p
    picklist_ids = list(acc.picklists)

    # taxonomies + their fields
    for tname, tdesc, field_specs in spec["taxonomies"]:
        t = {"id": ids.make("txn"), "name": tname, "description": tdesc, "field_ids": []}
        acc.taxonomies[t["id"]] = t
        for fname, ftype, required in field_specs:
            f = {"id": ids.make("fld"), "taxonomy_id": t["id"], "name": fname,
                 "key": fname.lower().replace(" ", "_"), "type": ftype, "required": required,
                 "picklist_id": None}
            if ftype == "picklist" and picklist_ids:
                f["picklist_id"] = picklist_ids[len(t["field_ids"]) % len(picklist_ids)]
            acc.fields[f["id"]] = f
            t["field_ids"].append(f["id"])

    services = set()
    for i in range(spec["records"]):
        while True:
            sid = "".join(rng.choice("ABCDEFGHJKMNPQRSTVWXYZ23456789") for _ in range(7))
            if sid not in services:
                services.add(sid)
                break
        r = {
            "id": ids.make("rec"),
            "status": rng.choice(RECORD_STATUSES),
            "service_id": sid,
            "data": {
                "title": f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} #{i + 1}",
                "country": rng.choice(COUNTRIES),
                "amount": round(rng.uniform(1, 5000), 2),
                "tags": rng.sample(WORDS, rng.randint(0, 3)),
                "reviewed": rng.random() < 0.5,
            },
        }
        acc.records[r["id"]] = r

    ws_ids = list(acc.workspaces)
    tx_ids = list(acc.taxonomies)
    for i in range(spec["submissions"]):
        s = {"id": ids.make("sbm"), "workspace_id": ws_ids[i % len(ws_ids)],
             "taxonomy_id": tx_ids[i % len(tx_ids)], "row_count": 1 + (i * 3) % 7,
             "created_at": ts(i)}
        acc.submissions[s["id"]] = s


def build_data() -> Dict[str, str]:
    a1 = Account(1, "Northwind Compliance")
    seed_account(a1, 1001, {
        "workspaces": [("Main", "Default workspace created at sign-up"),
                       ("EU Operations", "Submissions for European entities"),
                       ("Supplier Audit 2024", "Annual supplier audit data"),
                       ("Sandbox", "")],
        "governance_models": [("Centralized", "A single team approves every change"),
                              ("Federated", "Domain teams own their data with shared rules"),
                              ("Decentralized", None),
                              ("Hybrid", "Central standards, local stewardship")],
        "picklists": [("Countries", ["Germany", "France", "Netherlands", "Sweden"]),
                      ("Risk level", ["Low", "Medium", "High"]),
                      ("Currency", ["EUR", "USD", "SEK"])],
        "taxonomies": [("Supplier", "Supplier master data", [("Legal name", "text", True),
                                                             ("Country", "picklist", True),
                                                             ("Annual spend", "number", False)]),
                       ("Product", "Product catalogue", [("SKU", "text", True),
                                                         ("Risk", "picklist", False)]),
                       ("Contract", None, [("Start date", "date", True),
                                           ("Currency", "picklist", False)])],
        "records": 163,
        "submissions": 5,
    })
    a2 = Account(2, "Southwind Trading")
    seed_account(a2, 2002, {
        "workspaces": [("Main", "Default workspace created at sign-up"),
                       ("Retail", "Store level submissions")],
        "governance_models": [("Stewardship board", "A board of data stewards"),
                              ("Owner approves", None)],
        "picklists": [("Regions", ["North", "South"])],
        "taxonomies": [("Store", "Retail stores", [("Store code", "text", True),
                                                   ("Region", "picklist", True)])],
        "records": 17,
        "submissions": 2,
    })
    ACCOUNTS[1] = a1
    ACCOUNTS[2] = a2
    _, main_key = issue_key(a1, "Initial key")
    _, other_key = issue_key(a2, "Initial key")
    return {"main": main_key, "other": other_key}


# --------------------------------------------------------------------------
# Rate limiting (fixed window per bucket, in memory; single event loop)
# --------------------------------------------------------------------------
class FixedWindowLimiter:
    def __init__(self) -> None:
        self.buckets: Dict[str, List[float]] = {}   # bucket -> [window_start, count]

    def hit(self, bucket: str, ceiling: int) -> dict:
        now = time.time()
        state = self.buckets.get(bucket)
        if state is None or now >= state[0] + WINDOW_SECONDS:
            state = [now, 0]
            self.buckets[bucket] = state
        reset_at = state[0] + WINDOW_SECONDS
        headers = {"X-RateLimit-Limit": str(ceiling)}
        if state[1] >= ceiling:
            wait = max(1, math.ceil(reset_at - now))
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Reset"] = str(math.ceil(reset_at))
            return {"allowed": False, "headers": headers, "retry_after": wait}
        state[1] += 1
        headers["X-RateLimit-Remaining"] = str(max(0, ceiling - state[1]))
        headers["X-RateLimit-Reset"] = str(math.ceil(reset_at))
        if len(self.buckets) > 100000:
            self._sweep(now)
        return {"allowed": True, "headers": headers, "retry_after": None}

    def _sweep(self, now: float) -> None:
        for k in [k for k, v in self.buckets.items() if now >= v[0] + WINDOW_SECONDS]:
            del self.buckets[k]


LIMITER = FixedWindowLimiter()


def rate_limited_error(retry_after: int, headers: Dict[str, str]) -> JSONResponse:
    h = dict(headers)
    h["Retry-After"] = str(retry_after)
    body = {"error": {"type": "rate_limit_error", "code": "rate_limit_exceeded",
                      "message": f"Rate limit exceeded. Retry after {retry_after} seconds.",
                      "param": None}}
    return JSONResponse(body, status_code=429, headers=h, media_type=JSON_MEDIA)


# --------------------------------------------------------------------------
# Authentication + rate limiting middleware (runs for every HTTP request)
# --------------------------------------------------------------------------
def auth_error(message: str, extra_headers: Optional[Dict[str, str]] = None) -> JSONResponse:
    h = {"WWW-Authenticate": 'Bearer realm="api"'}
    if extra_headers:
        h.update(extra_headers)
    return JSONResponse(error_body("authentication_error", message), status_code=401,
                        headers=h, media_type=JSON_MEDIA)


class AuthRateLimitMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        auth_values = [v for (k, v) in scope.get("headers", []) if k.lower() == b"authorization"]
        client = scope.get("client") or ("unknown", 0)
        ip = client[0] if client else "unknown"

        if not auth_values:
            rl = LIMITER.hit("ip:" + str(ip), PER_IP_LIMIT)
            if not rl["allowed"]:
                resp = rate_limited_error(rl["retry_after"], rl["headers"])
            else:
                # The 401 itself carries no X-RateLimit-* headers: those describe the per-key
                # ceiling; the per-IP budget is only reported once it is exhausted (429).
                resp = auth_error("Missing Authorization header. Send 'Authorization: Bearer <API key>'.")
            await resp(scope, receive, send)
            return

        if len(auth_values) > 1:
            await auth_error("Several Authorization headers were sent.")(scope, receive, send)
            return
        try:
            raw = auth_values[0].decode("latin-1")
        except Exception:  # pragma: no cover
            raw = ""
        parts = raw.split()
        if len(parts) != 2 or parts[0].lower() != "bearer":
            await auth_error("Malformed Authorization header. Use the Bearer scheme with an API key.")(
                scope, receive, send)
            return
        token = parts[1]
        if not KEY_RE.match(token):
            await auth_error("Malformed API key.")(scope, receive, send)
            return
        hit = KEY_INDEX.get(hash_key(token))
        account = ACCOUNTS.get(hit[0]) if hit else None
        stored = account.api_keys.get(hit[1]) if account else None
        if stored is None or not hmac.compare_digest(stored["hash"], hash_key(token)):
            await auth_error("Invalid or revoked API key.")(scope, receive, send)
            return

        stored["last_used_at"] = now_iso()
        rl = LIMITER.hit("key:" + stored["id"], PER_KEY_LIMIT)
        if not rl["allowed"]:
            await rate_limited_error(rl["retry_after"], rl["headers"])(scope, receive, send)
            return

        state = scope.setdefault("state", {})
        state["account"] = account.number
        state["key_id"] = stored["id"]
        extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in rl["headers"].items()]

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --------------------------------------------------------------------------
# Request helpers
# --------------------------------------------------------------------------
INT_RE = re.compile(r"^[0-9]+$")


def parse_query(request: Request) -> Dict[str, List[str]]:
    raw = request.scope.get("query_string", b"").decode("latin-1")
    out: Dict[str, List[str]] = {}
    for k, v in parse_qsl(raw, keep_blank_values=True, encoding="utf-8", errors="replace"):
        out.setdefault(k, []).append(v)
    return out


def int_param(q: Dict[str, List[str]], name: str, default: int, lo: int, hi: int) -> int:
    values = q.get(name)
    if values is None:
        return default
    if len(values) != 1:
        raise invalid(f"'{name}' may be given only once.", name)
    v = values[0]
    if not INT_RE.match(v) or len(v) > 20:
        if INT_RE.match(v):
            raise invalid(f"'{name}' must be between {lo} and {hi}.", name, code="out_of_range")
        raise invalid(f"'{name}' must be an integer.", name, code="invalid_integer")
    n = int(v)
    if n < lo or n > hi:
        raise invalid(f"'{name}' must be between {lo} and {hi}.", name, code="out_of_range")
    return n


def str_filter(q: Dict[str, List[str]], name: str) -> Optional[str]:
    values = q.get(name)
    if values is None:
        return None
    if len(values) != 1:
        raise invalid(f"'{name}' may be given only once.", name)
    if values[0] == "":
        raise invalid(f"'{name}' must not be empty.", name)
    return values[0]


def paginate(q: Dict[str, List[str]], items: List[dict]) -> dict:
    page = int_param(q, "page", 1, 1, MAX_PAGE)
    limit = int_param(q, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    total = len(items)
    start = (page - 1) * limit
    chunk = items[start:start + limit] if start < total else []
    return {"items": chunk, "has_more": start + limit < total, "total_count": total}


def ok(body: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> Response:
    return Response(json_bytes(body), status_code=status, headers=headers, media_type=JSON_MEDIA)


async def read_json_object(request: Request) -> dict:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ApiError(413, "invalid_request_error", "Request body is too large.", code="body_too_large")
    if not body.strip():
        return {}

    def reject_constant(c):
        raise ValueError("non-standard JSON constant " + c)

    try:
        text = body.decode("utf-8")
        data = json.loads(text, parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "invalid_request_error", "Request body is not valid JSON.", code="invalid_json")
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_request_error", "Request body must be a JSON object.",
                       code="invalid_body")
    return data


def copy_item(d: dict) -> dict:
    return dict(d)


# --------------------------------------------------------------------------
# Endpoint handlers
# --------------------------------------------------------------------------
def list_collection(acc: Account, coll: str, q) -> Response:
    items = list(getattr(acc, coll).values())
    return ok(paginate(q, items))


def get_one(acc: Account, coll: str, ident: str, what: str) -> Response:
    item = getattr(acc, coll).get(ident)
    if item is None:
        raise not_found(what)
    return ok(item)


def list_records(acc: Account, q) -> Response:
    status = str_filter(q, "status")
    service_id = str_filter(q, "service_id")
    if status is not None and status not in RECORD_STATUSES:
        raise invalid(f"'status' must be one of: {', '.join(RECORD_STATUSES)}.", "status")
    items = [r for r in acc.records.values()
             if (status is None or r["status"] == status)
             and (service_id is None or r["service_id"] == service_id)]
    return ok(paginate(q, items))


def list_fields(acc: Account, q) -> Response:
    tax = str_filter(q, "taxonomy")
    items = [f for f in acc.fields.values() if tax is None or f["taxonomy_id"] == tax]
    return ok(paginate(q, items))


def list_submissions(acc: Account, q) -> Response:
    ws = str_filter(q, SUBMISSION_FILTER_WS)
    tax = str_filter(q, SUBMISSION_FILTER_TAX)
    items = [s for s in acc.submissions.values()
             if (ws is None or s["workspace_id"] == ws) and (tax is None or s["taxonomy_id"] == tax)]
    return ok(paginate(q, items))


async def create_submission(acc: Account, request: Request, q) -> Response:
    ws_values = q.get(SUBMISSION_WS_PARAM)
    if not ws_values or ws_values[0] == "":
        raise missing(SUBMISSION_WS_PARAM)
    if len(ws_values) != 1:
        raise invalid(f"'{SUBMISSION_WS_PARAM}' may be given only once.", SUBMISSION_WS_PARAM)
    ws_query = ws_values[0]

    body = await read_json_object(request)
    for field in ("workspace_id", "taxonomy_id", "rows"):
        if field not in body or body[field] is None:
            raise missing(field, "body")

    workspace_id = body["workspace_id"]
    taxonomy_id = body["taxonomy_id"]
    rows = body["rows"]
    if not isinstance(workspace_id, str):
        raise invalid("'workspace_id' must be a string.", "workspace_id", code="invalid_type",
                      path="workspace_id")
    if not isinstance(taxonomy_id, str):
        raise invalid("'taxonomy_id' must be a string.", "taxonomy_id", code="invalid_type",
                      path="taxonomy_id")
    if not isinstance(rows, list):
        raise invalid("'rows' must be an array of objects.", "rows", code="invalid_type", path="rows")
    if len(rows) > MAX_ROWS:
        raise invalid(f"'rows' may hold at most {MAX_ROWS} rows.", "rows", code="too_many_rows",
                      path="rows")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise invalid(f"rows[{i}] must be an object.", "rows", code="invalid_type", path=f"rows[{i}]")
        if "data" not in row:
            raise invalid(f"rows[{i}].data is required.", "rows", code="invalid_row",
                          path=f"rows[{i}].data")
        if not isinstance(row["data"], dict):
            raise invalid(f"rows[{i}].data must be an object.", "rows", code="invalid_type",
                          path=f"rows[{i}].data")

    if ws_query not in acc.workspaces:
        raise not_found("Workspace")
    if workspace_id != ws_query:
        raise invalid(f"'workspace_id' must match the '{SUBMISSION_WS_PARAM}' query parameter.",
                      "workspace_id", code="workspace_mismatch", path="workspace_id")
    if taxonomy_id not in acc.taxonomies:
        raise invalid("'taxonomy_id' does not name a taxonomy of this account.", "taxonomy_id",
                      code="unknown_taxonomy", path="taxonomy_id")

    sub = {"id": _runtime_ids.make("sbm"), "workspace_id": workspace_id, "taxonomy_id": taxonomy_id,
           "row_count": len(rows), "created_at": now_iso()}
    acc.submissions[sub["id"]] = sub
    return ok(sub, status=201, headers={"Location": f"/api/v1/submissions/{sub['id']}"})


async def create_api_key(acc: Account, request: Request) -> Response:
    body = await read_json_object(request)
    if "name" not in body or body["name"] is None:
        raise missing("name", "body")
    name = body["name"]
    if not isinstance(name, str):
        raise invalid("'name' must be a string.", "name", code="invalid_type", path="name")
    if not name.strip():
        raise invalid("'name' must not be blank.", "name", path="name")
    if len(name) > MAX_KEY_NAME:
        raise invalid(f"'name' may be at most {MAX_KEY_NAME} characters.", "name", path="name")
    stored, token = issue_key(acc, name)
    out = public_key(stored)
    out[SECRET_FIELD] = token
    return ok(out, status=201)


def delete_api_key(acc: Account, ident: str) -> Response:
    stored = acc.api_keys.pop(ident, None)
    if stored is None:
        raise not_found("API key")
    KEY_INDEX.pop(stored["hash"], None)
    return ok({"id": ident, "object": "api_key", "deleted": True})


READ_COLLECTIONS = {
    "workspaces": ("workspaces", "Workspace"),
    "governance_models": ("governance_models", "Governance model"),
    "records": ("records", "Record"),
    "taxonomies": ("taxonomies", "Taxonomy"),
    "fields": ("fields", "Field"),
    "picklists": ("picklists", "Picklist"),
    "submissions": ("submissions", "Submission"),
}


def method_not_allowed(allowed: List[str]) -> ApiError:
    allow = list(allowed)
    if "GET" in allow and "HEAD" not in allow:
        allow.append("HEAD")
    return ApiError(405, "invalid_request_error", "Method not allowed on this path.",
                    code="method_not_allowed", headers={"Allow": ", ".join(allow)})


async def dispatch(request: Request) -> Response:
    state = request.scope.get("state") or {}
    acc = ACCOUNTS.get(state.get("account"))
    if acc is None:  # cannot happen behind the middleware; be safe
        return auth_error("Missing Authorization header.")
    method = request.method.upper()
    if method == "HEAD":
        method = "GET"
    path = request.scope.get("path", "")
    q = parse_query(request)

    prefix = "/api/v1/"
    if not path.startswith(prefix):
        raise not_found("Path")
    segs = path[len(prefix):].split("/")

    if segs[0] == "admin":
        raise ApiError(403, "authorization_error",
                       "API keys cannot reach admin-only endpoints.", code="admin_only")

    if len(segs) == 1:
        name = segs[0]
        if name == "submissions":
            if method == "GET":
                return list_submissions(acc, q)
            if method == "POST":
                return await create_submission(acc, request, q)
            raise method_not_allowed(["GET", "POST"])
        if name == "api_keys":
            if method == "GET":
                items = [public_key(k) for k in acc.api_keys.values()]
                return ok(paginate(q, items))
            if method == "POST":
                return await create_api_key(acc, request)
            raise method_not_allowed(["GET", "POST"])
        if name in READ_COLLECTIONS:
            if method != "GET":
                raise method_not_allowed(["GET"])
            if name == "records":
                return list_records(acc, q)
            if name == "fields":
                return list_fields(acc, q)
            return list_collection(acc, READ_COLLECTIONS[name][0], q)
        raise not_found("Path")

    if len(segs) == 2 and segs[1] != "":
        name, ident = segs
        if name == "api_keys":
            if method != "DELETE":
                raise method_not_allowed(["DELETE"])
            return delete_api_key(acc, ident)
        if name in READ_COLLECTIONS:
            if method != "GET":
                raise method_not_allowed(["GET"])
            coll, what = READ_COLLECTIONS[name]
            return get_one(acc, coll, ident, what)
        raise not_found("Path")

    raise not_found("Path")


# --------------------------------------------------------------------------
# Application
# --------------------------------------------------------------------------
app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, swagger_ui_oauth2_redirect_url=None)
app.add_middleware(AuthRateLimitMiddleware)

ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
               "PROPFIND", "LINK", "UNLINK", "PURGE"]


@app.api_route("/{full_path:path}", methods=ALL_METHODS, include_in_schema=False)
async def catch_all(request: Request):
    try:
        return await dispatch(request)
    except ApiError as err:
        return error_response(err)


@app.exception_handler(ApiError)
async def _api_error_handler(request: Request, exc: ApiError):
    return error_response(exc)


@app.exception_handler(StarletteHTTPException)
async def _http_exc_handler(request: Request, exc: StarletteHTTPException):
    status = exc.status_code
    if status == 404:
        return error_response(not_found("Path"))
    if status == 405:
        return error_response(ApiError(405, "invalid_request_error", "Method not allowed.",
                                       code="method_not_allowed"))
    if status == 401:
        return error_response(ApiError(401, "authentication_error", "Authentication required."))
    if status == 403:
        return error_response(ApiError(403, "authorization_error", "Forbidden."))
    if status >= 500:
        return error_response(ApiError(500, "api_error", "Unexpected server error."))
    return error_response(ApiError(status, "invalid_request_error", str(exc.detail or "Bad request.")))


@app.exception_handler(RequestValidationError)
async def _validation_handler(request: Request, exc: RequestValidationError):
    param = "body"
    try:
        loc = exc.errors()[0].get("loc") or []
        if loc:
            param = str(loc[-1])
    except Exception:
        pass
    return error_response(invalid("Invalid request.", param))


@app.exception_handler(Exception)
async def _unexpected_handler(request: Request, exc: Exception):
    return error_response(ApiError(500, "api_error", "Unexpected server error."))


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------
def main() -> int:
    global WINDOW_SECONDS
    parser = argparse.ArgumentParser(description="Blind ASGI implementation of API v1")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--window-seconds", type=float, default=60.0)
    args = parser.parse_args()
    if args.window_seconds <= 0:
        parser.error("--window-seconds must be positive")
    WINDOW_SECONDS = float(args.window_seconds)

    keys = build_data()

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(1024)
    sock.set_inheritable(True)
    port = sock.getsockname()[1]

    config = uvicorn.Config(app, host=args.host, port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)

    host_for_url = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if host_for_url in ("0.0.0.0", "[::]"):
        host_for_url = "127.0.0.1"

    async def run() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            sys.stdout.write(json.dumps({"url": f"http://{host_for_url}:{port}", "keys": keys}) + "\n")
            sys.stdout.flush()
        await task

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
