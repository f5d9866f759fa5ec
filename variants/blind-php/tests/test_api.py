#!/usr/bin/env python3
"""End-to-end tests of the blind-php variant against real launches of serve.py.

    /usr/bin/python3 variants/blind-php/tests/test_api.py [-v]

Standard library only. Each group starts its own server (so that rate-limit
budgets do not leak between groups), stops it with SIGTERM or SIGINT and
checks that no Apache process and no temporary directory is left behind.
Ends with the line "N passed, N failed".
"""

from __future__ import annotations

import http.client
import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SERVE = os.path.join(os.path.dirname(HERE), "serve.py")
PREFIX = "gk_live_"
VERBOSE = "-v" in sys.argv

passed = 0
failed = 0


def check(cond: bool, label: str, detail: object = "") -> bool:
    global passed, failed
    if cond:
        passed += 1
        if VERBOSE:
            print(f"  ok   {label}")
    else:
        failed += 1
        print(f"  FAIL {label} {detail}")
    return cond


# --------------------------------------------------------------------------
# Server and client
# --------------------------------------------------------------------------

class Server:
    def __init__(self, window: int = 60):
        self.proc = subprocess.Popen(
            [sys.executable, SERVE, "--window-seconds", str(window)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        info = json.loads(line)
        self.url = info["url"]
        self.keys = info["keys"]
        parsed = urllib.parse.urlparse(self.url)
        self.host, self.port = parsed.hostname, parsed.port
        self.extra_stdout = None

    def apache_pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-f", "apache2 -f /tmp/blind-php-"], capture_output=True, text=True).stdout
        pids = []
        for pid in out.split():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    cmd = fh.read().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if cmd.startswith("/usr/sbin/apache2") and self.conf_dir() in cmd:
                pids.append(int(pid))
        return pids

    def conf_dir(self) -> str:
        # The conf path is in Apache's command line; find it through our child.
        if not hasattr(self, "_conf_dir"):
            out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
            with open(f"/proc/{out[0]}/cmdline", "rb") as fh:
                args = fh.read().split(b"\0")
            self._conf_dir = os.path.dirname(args[args.index(b"-f") + 1].decode())
        return self._conf_dir

    def stop(self, sig=signal.SIGTERM) -> int:
        self.conf_dir()
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = -999
        self.extra_stdout = self.proc.stdout.read()
        return rc

    def request(self, method: str, path: str, key: str | None = None, body=None, headers=None,
                raw_auth: str | None = None, content_type: str | None = "application/json"):
        self.sent = getattr(self, "sent", 0) + 1
        if getattr(self, "auto_reset", False) and self.sent % 40 == 0:
            _reset_budgets(self)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        hdrs = dict(headers or {})
        if raw_auth is not None:
            hdrs["Authorization"] = raw_auth
        elif key is not None:
            hdrs["Authorization"] = f"Bearer {key}"
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            if isinstance(data, str):
                data = data.encode()
            if content_type:
                hdrs["Content-Type"] = content_type
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        conn.close()
        parsed = None
        if raw:
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = ValueError(raw[:200])
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, parsed


def is_envelope(body, type_=None, code="any", param="any") -> bool:
    if not isinstance(body, dict) or set(body) != {"error"} or not isinstance(body["error"], dict):
        return False
    e = body["error"]
    if set(e) != {"type", "code", "message", "param", "path"}:
        return False
    if not isinstance(e["type"], str) or not isinstance(e["message"], str):
        return False
    if not (e["code"] is None or isinstance(e["code"], str)):
        return False
    if type_ is not None and e["type"] != type_:
        return False
    if code != "any" and e["code"] != code:
        return False
    if param != "any" and e["param"] != param:
        return False
    return True


def is_list(body) -> bool:
    return (isinstance(body, dict) and isinstance(body.get("items"), list)
            and isinstance(body.get("has_more"), bool) and isinstance(body.get("total_count"), int)
            and not isinstance(body.get("total_count"), bool))


def walk(server: Server, key: str, path: str, limit: int | None = None) -> tuple[list, int, int]:
    items, page, pages, total = [], 1, 0, None
    while True:
        q = f"?page={page}" + (f"&limit={limit}" if limit else "")
        sep = "&" if "?" in path else "?"
        status, _, body = server.request("GET", path + (q if sep == "?" else "&" + q[1:]), key)
        assert status == 200, (path, status, body)
        items += body["items"]
        total = body["total_count"]
        pages += 1
        if not body["has_more"]:
            return items, total, pages
        page += 1


# --------------------------------------------------------------------------
# Groups
# --------------------------------------------------------------------------

def test_resources(s: Server) -> None:
    print("resources, retrieval, pagination")
    main, other = s.keys["main"], s.keys["other"]
    check(main.startswith(PREFIX) and other.startswith(PREFIX), "seed keys carry the prefix")

    expectations = {
        "/api/v1/workspaces": lambda i: all(isinstance(i[f], str) for f in ("id", "name", "description")),
        "/api/v1/governance_models": lambda i: isinstance(i["id"], str) and isinstance(i["name"], str)
        and (i["description"] is None or isinstance(i["description"], str)),
        "/api/v1/records": lambda i: all(isinstance(i[f], str) for f in ("id", "status", "service_id"))
        and isinstance(i["data"], dict),
        "/api/v1/taxonomies": lambda i: isinstance(i["id"], str),
        "/api/v1/fields": lambda i: isinstance(i["id"], str),
        "/api/v1/picklists": lambda i: isinstance(i["id"], str) and isinstance(i["options"], list),
        "/api/v1/submissions": lambda i: isinstance(i["id"], str),
        "/api/v1/api_keys": lambda i: isinstance(i["id"], str) and "last_used_at" in i and "name" in i,
    }
    for path, shape in expectations.items():
        status, headers, body = s.request("GET", path, main)
        check(status == 200 and is_list(body), f"GET {path} is a list envelope", (status, body))
        check(headers.get("content-type") == "application/json", f"GET {path} content-type", headers.get("content-type"))
        check(all(shape(i) for i in body["items"]), f"GET {path} item fields")
        ids = [i["id"] for i in body["items"]]
        check(len(ids) == len(set(ids)), f"GET {path} ids unique")
        for item in body["items"][:3]:
            if path in ("/api/v1/api_keys",):
                continue
            st, _, one = s.request("GET", f"{path}/{item['id']}", main)
            check(st == 200 and one == item, f"GET {path}/{{id}} equals the list item", (st, one, item))
        st, _, one = s.request("GET", f"{path}/00000000-0000-4000-8000-000000000000", main)
        check(st == 404 and is_envelope(one, "not_found_error", None, None), f"GET {path}/missing is 404", (st, one))

    _, _, gms = s.request("GET", "/api/v1/governance_models", main)
    check(any(g["description"] is None for g in gms["items"]), "a governance model has a null description")

    # Records: several pages at the default limit.
    status, _, body = s.request("GET", "/api/v1/records", main)
    check(len(body["items"]) == 100 and body["has_more"] and body["total_count"] == 250, "records default page",
          (len(body["items"]), body["has_more"], body["total_count"]))
    items, total, pages = walk(s, main, "/api/v1/records")
    check(len(items) == total == 250 and pages == 3, "walk at limit 100", (len(items), total, pages))
    items7, total7, pages7 = walk(s, main, "/api/v1/records", limit=7)
    check(pages7 == math.ceil(total7 / 7) and [i["id"] for i in items7] == [i["id"] for i in items],
          "walk at limit 7: same ids, same order, ceil(total/limit) pages", pages7)
    st, _, body = s.request("GET", "/api/v1/records?page=3", main)
    check(st == 200 and len(body["items"]) == 50 and body["has_more"] is False, "last page", (st, len(body["items"])))
    st, _, body = s.request("GET", "/api/v1/records?page=4", main)
    check(st == 200 and body["items"] == [] and body["has_more"] is False and body["total_count"] == 250,
          "page past the end: 200 empty", (st, body))
    st, _, body = s.request("GET", "/api/v1/records?page=9223372036854775807", main)
    check(st == 200 and body["items"] == [] and body["total_count"] == 250, "page = 2^63-1", (st, body))
    st, _, body = s.request("GET", "/api/v1/records?limit=10000", main)
    check(st == 200 and len(body["items"]) == 250 and not body["has_more"], "limit 10000", st)
    st, _, body = s.request("GET", "/api/v1/records?limit=1&page=250", main)
    check(st == 200 and len(body["items"]) == 1 and not body["has_more"], "limit 1 last page", (st, body and body.get("has_more")))
    st, _, body = s.request("GET", "/api/v1/records?status=approved", main)
    check(st == 200 and body["total_count"] == 50 and all(i["status"] == "approved" for i in body["items"]),
          "records status filter", (st, body and body.get("total_count")))
    st, _, body = s.request("GET", "/api/v1/records?status=bogus", main)
    check(st == 422 and is_envelope(body, "invalid_request_error", param="status"), "bad status filter 422", (st, body))

    bad = {
        "page": ["0", "-1", "abc", "1.5", "1e2", "0x10", "", "99999999999999999999", "05", "1,2"],
        "limit": ["0", "10001", "-5", "abc", "2.0", "", "1e3", "99999999999999999999"],
    }
    for param, values in bad.items():
        for v in values:
            st, _, body = s.request("GET", f"/api/v1/workspaces?{param}={urllib.parse.quote(v)}", main)
            check(st == 422 and is_envelope(body, "invalid_request_error", param=param),
                  f"{param}={v!r} is 422 naming {param}", (st, body))
    for q in ("page=1&page=2", "limit=5&limit=5", "page[]=1", "limit[a]=3"):
        param = q.split("=")[0].split("[")[0]
        st, _, body = s.request("GET", f"/api/v1/workspaces?{q}", main)
        check(st == 422 and is_envelope(body, "invalid_request_error", param=param), f"{q} is 422", (st, body))
    for q, page, limit in (("page=%2B2&limit=2", 2, 2), ("page=+2&limit=2", 2, 2), ("limit=%202%20", 1, 2)):
        st, _, body = s.request("GET", f"/api/v1/workspaces?{q}", main)
        check(st == 200 and len(body["items"]) == min(limit, 5 - (page - 1) * limit), f"{q} read as the number", (st, body))

    # Accounts are isolated.
    _, _, mine = s.request("GET", "/api/v1/workspaces", main)
    _, _, theirs = s.request("GET", "/api/v1/workspaces", other)
    mine_ids = {w["id"] for w in mine["items"]}
    theirs_ids = {w["id"] for w in theirs["items"]}
    check(not (mine_ids & theirs_ids) and theirs["total_count"] == 2, "accounts see disjoint workspaces")
    for path in ("workspaces", "records", "governance_models", "taxonomies", "fields", "picklists", "submissions"):
        _, _, other_list = s.request("GET", f"/api/v1/{path}", other)
        oid = other_list["items"][0]["id"]
        st, _, body = s.request("GET", f"/api/v1/{path}/{oid}", main)
        check(st == 404 and is_envelope(body, "not_found_error", None, None), f"other account's {path} item is 404", st)
        _, _, mine_all = s.request("GET", f"/api/v1/{path}?limit=10000", main)
        check(oid not in {i["id"] for i in mine_all["items"]}, f"other account's {path} item not listed")


def test_general(s: Server) -> None:
    print("general: unknown paths, methods, versions, bodies")
    main = s.keys["main"]
    cases = [
        ("GET", "/api/v2/workspaces", 404), ("GET", "/api/v1/nope", 404), ("GET", "/api/v1/workspaces/", 404),
        ("GET", "/", 404), ("GET", "/index.php", 404), ("GET", "/errors/404.json", 404),
        ("PUT", "/api/v1/workspaces", 405), ("DELETE", "/api/v1/records", 405), ("PATCH", "/api/v1/api_keys", 405),
        ("OPTIONS", "/api/v1/workspaces", 405), ("TRACE", "/api/v1/workspaces", 405),
        ("POST", "/api/v1/records", 405), ("GET", "/api/v1/a%2Fb", 404), ("GET", "/api/v1/admin/audit_log", 403),
        ("DELETE", "/api/v1/admin", 403),
    ]
    for method, path, expected in cases:
        st, headers, body = s.request(method, path, main)
        check(st == expected and is_envelope(body) and headers.get("content-type") == "application/json",
              f"{method} {path} -> {expected} JSON envelope", (st, body, headers.get("content-type")))
        if expected == 403:
            check(body["error"]["type"] == "authorization_error", f"{method} {path} authorization_error", body)
        if expected == 404:
            check(body["error"]["type"] == "not_found_error", f"{method} {path} not_found_error", body)
    st, headers, _ = s.request("PUT", "/api/v1/workspaces", main)
    check(headers.get("allow") == "GET, HEAD", "405 carries Allow", headers.get("allow"))
    st, headers, body = s.request("HEAD", "/api/v1/workspaces", main)
    check(st == 200 and body is None, "HEAD list: 200, no body", (st, body))
    check("retry-after" not in headers, "no Retry-After outside 429")

    for raw in (b"{", b"nul", b"{\"name\": }", b"\xff\xfe", b"[1,2", b"{\"a\":NaN}"):
        st, _, body = s.request("POST", "/api/v1/api_keys", main, body=raw)
        check(st == 400 and is_envelope(body, "invalid_request_error", "invalid_json"), f"malformed JSON {raw!r} -> 400", (st, body))
    for raw in (b"[]", b"\"name\"", b"42", b"null", b"[{\"name\":\"x\"}]"):
        st, _, body = s.request("POST", "/api/v1/api_keys", main, body=raw)
        check(st == 422 and is_envelope(body, "invalid_request_error", param="body"), f"non-object JSON {raw!r} -> 422", (st, body))
    st, _, body = s.request("POST", "/api/v1/api_keys", main, body="name=x", content_type="application/x-www-form-urlencoded")
    check(st == 415 and is_envelope(body, "invalid_request_error", "unsupported_media_type"), "form body -> 415", (st, body))
    st, _, body = s.request("POST", "/api/v1/api_keys", main, body={"name": "plus json"}, content_type="application/vnd.api+json")
    check(st == 201, "+json content type accepted", st)
    st, _, body = s.request("POST", "/api/v1/api_keys", main, body=b"x" * (8 * 1024 * 1024 + 10))
    check(st == 413 and is_envelope(body, "invalid_request_error", "payload_too_large"), "8 MiB body -> 413", (st, body))
    deep = "[" * 600 + "]" * 600
    st, _, body = s.request("POST", "/api/v1/api_keys", main, body='{"name": ' + deep + "}")
    check(st in (400, 422) and is_envelope(body), "600-deep nesting -> 4xx", (st, body))


def test_auth(s: Server) -> None:
    print("authentication")
    main = s.keys["main"]
    st, headers, body = s.request("GET", "/api/v1/workspaces")
    check(st == 401 and isinstance(body, dict) and body.get("error") == "authentication_error",
          "no header: 401 flat body naming authentication_error", (st, body))
    check(headers.get("www-authenticate", "").startswith("Bearer"), "no header: WWW-Authenticate", headers)
    for raw in (f"Basic {main}", "Bearer", "Bearer ", f"Bearer {main} extra", f"Token {main}", main, f"Bearer  {main} x"):
        st, _, body = s.request("GET", "/api/v1/workspaces", raw_auth=raw)
        check(st == 401 and isinstance(body, dict) and "authentication_error" in json.dumps(body),
              f"malformed header {raw[:20]!r}... -> 401", (st, body))
    secret = main[len(PREFIX):]
    flipped = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    variants = {
        "one char changed": PREFIX + flipped,
        "case swapped": main.swapcase(),
        "lower-cased": main.lower(),
        "char added": main + "x",
        "char cut": main[:-1],
        "prefix only": PREFIX,
        "no prefix": secret,
        "other prefix": "sk_" + secret,
    }
    for label, token in variants.items():
        st, _, body = s.request("GET", "/api/v1/workspaces", raw_auth=f"Bearer {token}")
        check(st == 401 and is_envelope(body, "authentication_error", None, None), f"unknown key ({label}) -> 401 envelope", (st, body))
    for raw in (f"bearer {main}", f"BEARER {main}", f"Bearer   {main}", f"Bearer\t{main}"):
        st, _, _ = s.request("GET", "/api/v1/workspaces", raw_auth=raw)
        check(st == 200, f"accepted header form {raw[:10]!r}", st)


def test_keys(s: Server) -> None:
    print("API keys")
    main = s.keys["main"]
    st, headers, created = s.request("POST", "/api/v1/api_keys", main, body={"name": "CI pipeline"})
    check(st == 201 and isinstance(created, dict) and created.get("key", "").startswith(PREFIX), "create key 201", (st, created))
    check(headers.get("cache-control") == "no-store", "creation response is not cached", headers)
    new_key, new_id = created["key"], created["id"]
    secret = new_key[len(PREFIX):]
    st, _, _ = s.request("GET", "/api/v1/workspaces", new_key)
    check(st == 200, "new key works on its first request", st)

    st, _, listing = s.request("GET", "/api/v1/api_keys", main)
    entry = next((k for k in listing["items"] if k["id"] == new_id), None)
    check(entry is not None and entry["name"] == "CI pipeline" and "last_used_at" in entry, "key listed with name and last use", entry)
    text = json.dumps(listing)
    check(not any(secret[i:i + 8] in text for i in range(len(secret) - 7)), "listing never shows 8+ chars of a secret")
    check(all("key" not in k for k in listing["items"]), "listing has no key member")
    first_use = entry["last_used_at"]
    time.sleep(0.01)
    s.request("GET", "/api/v1/records", new_key)
    _, _, one = s.request("GET", f"/api/v1/api_keys/{new_id}", main)
    check(one["last_used_at"] is not None and one["last_used_at"] > first_use, "last_used_at moves forward", (first_use, one))

    st, _, body = s.request("POST", "/api/v1/api_keys", main, body={})
    check(st == 400 and is_envelope(body, "invalid_request_error", "missing_param", "name"), "no name -> 400 missing_param", (st, body))
    st, _, body = s.request("POST", "/api/v1/api_keys", main)
    check(st == 400 and is_envelope(body, code="missing_param", param="name"), "empty body -> 400 missing_param", (st, body))
    for value in (123, None, ["a"], {"a": 1}, True):
        st, _, body = s.request("POST", "/api/v1/api_keys", main, body={"name": value})
        check(st == 422 and is_envelope(body, "invalid_request_error", param="name"), f"name={value!r} -> 422", (st, body))
    for value in ("", "   ", "x" * 101):
        st, _, body = s.request("POST", "/api/v1/api_keys", main, body={"name": value})
        check(st == 422 and is_envelope(body, "invalid_request_error", param="name"), f"name={value[:5]!r}.. -> 422", (st, body))
    st, _, body = s.request("POST", "/api/v1/api_keys", main, body={"name": "Ünïcödé ключ 🔑"})
    check(st == 201 and body["name"] == "Ünïcödé ключ 🔑", "unicode name", (st, body))

    # The other account cannot see or delete it.
    st, _, body = s.request("DELETE", f"/api/v1/api_keys/{new_id}", s.keys["other"])
    check(st == 404 and is_envelope(body, "not_found_error"), "other account cannot delete the key", (st, body))
    st, headers, body = s.request("DELETE", f"/api/v1/api_keys/{new_id}", main)
    check(st == 204 and body is None, "delete -> 204 no body", (st, body))
    check("content-type" not in headers, "204 has no Content-Type", headers.get("content-type"))
    st, _, body = s.request("GET", "/api/v1/workspaces", new_key)
    check(st == 401 and is_envelope(body, "authentication_error", None, None), "revoked key -> 401 at once", (st, body))
    st, _, body = s.request("DELETE", f"/api/v1/api_keys/{new_id}", main)
    check(st == 404 and is_envelope(body, "not_found_error", None, None), "second delete -> 404", (st, body))
    _, _, listing = s.request("GET", "/api/v1/api_keys", main)
    check(new_id not in {k["id"] for k in listing["items"]}, "deleted key left the list")

    # A key can revoke itself.
    _, _, k2 = s.request("POST", "/api/v1/api_keys", main, body={"name": "self-destruct"})
    st, _, _ = s.request("DELETE", f"/api/v1/api_keys/{k2['id']}", k2["key"])
    st2, _, _ = s.request("GET", "/api/v1/workspaces", k2["key"])
    check(st == 204 and st2 == 401, "a key revoking itself stops working", (st, st2))


def test_submissions(s: Server) -> None:
    print("submissions")
    main, other = s.keys["main"], s.keys["other"]
    _, _, ws = s.request("GET", "/api/v1/workspaces", main)
    _, _, tx = s.request("GET", "/api/v1/taxonomies", main)
    w, w2 = ws["items"][0]["id"], ws["items"][1]["id"]
    t, t2 = tx["items"][0]["id"], tx["items"][1]["id"]
    path = f"/api/v1/submissions?workspace_id={w}"
    good = {"workspace_id": w, "taxonomy_id": t, "rows": [{"data": {"customer_name": "Acme", "country": "DE"}}, {"data": {}}]}

    _, _, before = s.request("GET", "/api/v1/submissions", main)
    st, headers, body = s.request("POST", path, main, body=good)
    check(st == 201 and body["row_count"] == 2 and body["workspace_id"] == w and body["taxonomy_id"] == t, "create 201", (st, body))
    check(headers.get("location") == f"/api/v1/submissions/{body['id']}", "Location header", headers.get("location"))
    check("status" not in body, "a submission exposes no state")
    st, _, one = s.request("GET", f"/api/v1/submissions/{body['id']}", main)
    check(st == 200 and one == body, "retrieve the submission", (st, one))
    _, _, after = s.request("GET", "/api/v1/submissions", main)
    check(after["total_count"] == before["total_count"] + 1, "list grows by one")

    # Filters narrow.
    s.request("POST", f"/api/v1/submissions?workspace_id={w2}", main, body={**good, "workspace_id": w2, "taxonomy_id": t2})
    _, _, all_ = s.request("GET", "/api/v1/submissions?limit=10000", main)
    for name, value in (("workspace_id", w), ("taxonomy_id", t2)):
        _, _, f = s.request("GET", f"/api/v1/submissions?{name}={value}&limit=10000", main)
        expected = [i for i in all_["items"] if i[name] == value]
        check(f["items"] == expected and f["total_count"] == len(expected) < all_["total_count"], f"filter {name}", f["total_count"])
    _, _, both = s.request("GET", f"/api/v1/submissions?workspace_id={w2}&taxonomy_id={t2}", main)
    check(both["total_count"] >= 1 and all(i["workspace_id"] == w2 and i["taxonomy_id"] == t2 for i in both["items"]), "both filters")

    # Missing parameters: 400 missing_param.
    st, _, body = s.request("POST", "/api/v1/submissions", main, body=good)
    check(st == 400 and is_envelope(body, "invalid_request_error", "missing_param", "workspace_id"), "no query param -> 400", (st, body))
    st, _, body = s.request("POST", "/api/v1/submissions?workspace_id=", main, body=good)
    check(st == 400 and is_envelope(body, code="missing_param", param="workspace_id"), "empty query param -> 400", (st, body))
    for field in ("workspace_id", "taxonomy_id", "rows"):
        partial = {k: v for k, v in good.items() if k != field}
        st, _, body = s.request("POST", path, main, body=partial)
        check(st == 400 and is_envelope(body, "invalid_request_error", "missing_param", field), f"body without {field} -> 400", (st, body))

    # Invalid values: 422 naming the input, path locating it.
    invalid = [
        ({**good, "rows": "nope"}, "rows", "rows"),
        ({**good, "rows": {"data": {}}}, "rows", "rows"),
        ({**good, "rows": []}, "rows", "rows"),
        ({**good, "rows": [{"data": {}}, 5]}, "rows", "rows.1"),
        ({**good, "rows": [{"data": {}}, {"data": {}}, {"data": [1, 2]}]}, "rows", "rows.2.data"),
        ({**good, "rows": [{"data": "text"}]}, "rows", "rows.0.data"),
        ({**good, "rows": [{"data": None}]}, "rows", "rows.0.data"),
        ({**good, "rows": [{"data": {}}, [{"data": {}}]]}, "rows", "rows.1"),
        ({**good, "taxonomy_id": 12}, "taxonomy_id", "taxonomy_id"),
        ({**good, "workspace_id": ["x"]}, "workspace_id", "workspace_id"),
        ({**good, "taxonomy_id": None}, "taxonomy_id", "taxonomy_id"),
        ({**good, "workspace_id": w2}, "workspace_id", "workspace_id"),
    ]
    for payload, param, where in invalid:
        st, _, body = s.request("POST", path, main, body=payload)
        check(st == 422 and is_envelope(body, "invalid_request_error", param=param) and body["error"]["path"] == where,
              f"invalid {param} at {where} -> 422", (st, body))
    st, _, body = s.request("POST", path, main, body='{"workspace_id": "%s", "taxonomy_id": "%s", "rows": [{"data": {"x": 1e400}}]}' % (w, t))
    check(st == 422 and is_envelope(body, param="rows") and "0" in body["error"]["path"], "1e400 -> 422", (st, body))
    st, _, body = s.request("POST", path, main, body={**good, "rows": [{"data": {}}, {"nodata": 1}]})
    check(st == 400 and is_envelope(body, code="missing_param", param="rows") and body["error"]["path"] == "rows.1.data",
          "row without data -> 400 with path", (st, body))
    st, _, body = s.request("POST", path, main, body={**good, "rows": [{"data": {}}] * 1001})
    check(st == 422 and is_envelope(body, "plan_limit_exceeded", "limit_exceeded", "rows"), "1001 rows -> plan_limit_exceeded", (st, body))
    st, _, body = s.request("POST", path, main, body={**good, "rows": [{"data": {"i": i}} for i in range(1000)]})
    check(st == 201 and body["row_count"] == 1000, "1000 rows accepted", (st, body))

    # Unknown or foreign references: 404.
    _, _, ows = s.request("GET", "/api/v1/workspaces", other)
    _, _, otx = s.request("GET", "/api/v1/taxonomies", other)
    ow, ot = ows["items"][0]["id"], otx["items"][0]["id"]
    st, _, body = s.request("POST", f"/api/v1/submissions?workspace_id={ow}", main, body={**good, "workspace_id": ow})
    check(st == 404 and is_envelope(body, "not_found_error", None), "foreign workspace -> 404", (st, body))
    st, _, body = s.request("POST", path, main, body={**good, "taxonomy_id": ot})
    check(st == 404 and is_envelope(body, "not_found_error", None), "foreign taxonomy -> 404", (st, body))
    st, _, body = s.request("POST", path, main, body={**good, "taxonomy_id": "nope"})
    check(st == 404 and is_envelope(body, "not_found_error"), "unknown taxonomy -> 404", (st, body))
    _, _, oth_subs = s.request("GET", "/api/v1/submissions?limit=10000", other)
    _, _, my_subs = s.request("GET", "/api/v1/submissions?limit=10000", main)
    check(not ({i["id"] for i in oth_subs["items"]} & {i["id"] for i in my_subs["items"]}), "submission lists are per account")

    # Well-formed but unusual data is accepted.
    odd = [
        {"emoji": "😀🔑", "rtl": "مرحبا", "cjk": "漢字", "nul": "a\u0000b", "ctl": "\u0001\u001f"},
        {"\u0000starts-with-nul": 1, "\uf8ff": "private use", "": "empty key"},
        {"nested": {"a": [{"b": {"c": [[], {}, [{}]]}}]}, "empty_obj": {}, "empty_list": []},
        {"long": "x" * 200000},
        {"num": 1.0, "big": 123456789012345678901234567890, "neg": -0.0, "exp": 1e-300},
        {"0": "zero", "1": "one"},
        {"\u0000": {"\u0000x": "\uf8ff\u0000"}},
    ]
    for data in odd:
        st, _, body = s.request("POST", path, main, body={**good, "rows": [{"data": data}]})
        check(st == 201, f"odd data {json.dumps(data)[:40]}... accepted", (st, body))


def test_stored_rows(s: Server) -> None:
    """The stored row JSON equals what was sent, including the NUL-key fallback."""
    print("stored rows round-trip")
    main = s.keys["main"]
    _, _, ws = s.request("GET", "/api/v1/workspaces", main)
    _, _, tx = s.request("GET", "/api/v1/taxonomies", main)
    w, t = ws["items"][0]["id"], tx["items"][0]["id"]
    datas = [
        {"\u0000lead": {"x": [{}, []]}, "\uf8ffmark": "\uf8ff\u0000v", "plain": "q\"\\\u0000", "e": {}},
        {"k": {"0": 1}, "list": [], "obj": {}, "f": 1.5},
    ]
    for data in datas:
        st, _, body = s.request("POST", f"/api/v1/submissions?workspace_id={w}", main,
                                body={"workspace_id": w, "taxonomy_id": t, "rows": [{"data": data}]})
        with _db(s) as conn:
            stored = conn.execute("SELECT data FROM submission_rows WHERE submission_id = ?", (body["id"],)).fetchone()[0]
        check(st == 201 and json.loads(stored) == data and ('"obj":{}' in stored or '"e":{}' in stored),
              f"stored data round-trips {json.dumps(data)[:30]}", stored)


def test_rate_limits(s: Server, window: int) -> None:
    print(f"rate limits (window {window} s)")
    main, other = s.keys["main"], s.keys["other"]
    time.sleep(1.1)  # start at a quiet point
    remaining = []
    last_headers = None
    for i in range(100):
        st, headers, body = s.request("GET", "/api/v1/workspaces", main)
        if st != 200:
            check(False, f"request {i + 1} of 100 succeeds", (st, body))
            break
        remaining.append(int(headers["x-ratelimit-remaining"]))
        last_headers = headers
    check(remaining == list(range(99, -1, -1)), "Remaining falls 99..0", remaining[:5] + remaining[-5:])
    check(last_headers["x-ratelimit-limit"] == "100", "Limit is 100")
    reset = int(last_headers["x-ratelimit-reset"])
    check(time.time() - 2 <= reset <= time.time() + window + 2, "Reset within one window", reset - time.time())
    st, headers, body = s.request("GET", "/api/v1/workspaces", main)
    check(st == 429 and is_envelope(body, "rate_limit_error", "rate_limit_exceeded", None), "101st -> 429", (st, body))
    retry = int(headers.get("retry-after", "-1"))
    check(1 <= retry <= window, "Retry-After in whole seconds", retry)
    check(all(h in headers for h in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")), "429 has X-RateLimit-*")
    check(headers.get("x-ratelimit-remaining") == "0", "429 Remaining 0")
    nums = [int(n) for n in re.findall(r"\d+", body["error"]["message"])]
    check(any(abs(n - retry) <= 1 for n in nums), "message states the wait", body["error"]["message"])
    st, _, _ = s.request("GET", "/api/v1/workspaces", other)
    check(st == 200, "another key is not throttled", st)
    st, _, _ = s.request("GET", "/api/v1/workspaces", raw_auth="Bearer gk_live_nope")
    check(st == 401, "bad credentials are not throttled by the key's budget", st)
    time.sleep(retry + 0.2)
    st, headers, _ = s.request("GET", "/api/v1/workspaces", main)
    check(st == 200 and headers["x-ratelimit-remaining"] == "99", "works again after Retry-After", (st, headers.get("x-ratelimit-remaining")))

    # Unauthenticated: 20 per IP per window.
    statuses = []
    for _ in range(20):
        st, headers, body = s.request("GET", "/api/v1/workspaces")
        statuses.append(st)
    check(statuses == [401] * 20, "20 unauthenticated requests -> 401", statuses)
    check(headers.get("x-ratelimit-limit") == "20", "unauthenticated Limit 20", headers.get("x-ratelimit-limit"))
    st, headers, body = s.request("GET", "/api/v1/workspaces")
    check(st == 429 and is_envelope(body, "rate_limit_error", "rate_limit_exceeded", None) and "retry-after" in headers,
          "21st unauthenticated -> 429 with Retry-After", (st, body))
    st, _, _ = s.request("GET", "/api/v1/workspaces", other)
    check(st == 200, "valid keys are not counted against the IP budget", st)


def test_concurrency(s: Server) -> None:
    print("concurrency: 8 parallel clients")
    main = s.keys["main"]
    keys = []
    for i in range(8):
        _, _, k = s.request("POST", "/api/v1/api_keys", main, body={"name": f"worker {i}"})
        keys.append(k["key"])
    _, _, ws = s.request("GET", "/api/v1/workspaces", main)
    _, _, tx = s.request("GET", "/api/v1/taxonomies", main)
    w, t = ws["items"][0]["id"], tx["items"][0]["id"]
    results: list[tuple[int, str]] = []
    lock = threading.Lock()

    def worker(key: str, n: int) -> None:
        local = []
        for i in range(84):  # 84 iterations, 98 requests: within one key's budget
            kind = i % 6
            if kind == 0:
                st, _, _ = s.request("POST", f"/api/v1/submissions?workspace_id={w}", key,
                                     body={"workspace_id": w, "taxonomy_id": t, "rows": [{"data": {"i": i}}] * 5})
            elif kind == 1:
                st, _, k = s.request("POST", "/api/v1/api_keys", key, body={"name": f"tmp {n}-{i}"})
                if st == 201:
                    st, _, _ = s.request("DELETE", f"/api/v1/api_keys/{k['id']}", key)
            elif kind == 2:
                st, _, _ = s.request("GET", "/api/v1/records?limit=250", key)
            elif kind == 3:
                st, _, _ = s.request("GET", "/api/v1/api_keys", key)
            elif kind == 4:
                st, _, _ = s.request("GET", "/api/v1/submissions?page=2&limit=3", key)
            else:
                st, _, _ = s.request("GET", "/api/v1/records?page=x", key)
            local.append((st, kind))
        with lock:
            results.extend(local)

    threads = [threading.Thread(target=worker, args=(k, n)) for n, k in enumerate(keys)]
    started = time.time()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.time() - started
    errors = [r for r in results if r[0] >= 500 or r[0] == 429]
    check(len(results) == 672 and not errors, f"672 mixed operations (784 requests), no 5xx/429 ({elapsed:.1f} s)", errors[:10])
    expected = {0: 201, 1: 204, 2: 200, 3: 200, 4: 200, 5: 422}
    check(all(st == expected[kind] for st, kind in results), "every concurrent answer as expected",
          [r for r in results if r[0] != expected[r[1]]][:10])

    # Atomic counting: 8 threads x 20 requests on one fresh key -> exactly 100 served.
    _, _, shared = s.request("POST", "/api/v1/api_keys", main, body={"name": "shared"})
    counts: list[int] = []

    def hammer() -> None:
        local = [s.request("GET", "/api/v1/workspaces", shared["key"])[0] for _ in range(20)]
        with lock:
            counts.extend(local)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    check(counts.count(200) == 100 and counts.count(429) == 60, "exactly 100 of 160 concurrent requests served",
          (counts.count(200), counts.count(429), [c for c in counts if c not in (200, 429)]))


def test_lifecycle() -> None:
    print("launcher lifecycle")
    for sig in (signal.SIGTERM, signal.SIGINT):
        s = Server()
        conf_dir = s.conf_dir()
        pids = s.apache_pids()
        check(len(pids) >= 2, "Apache parent and children are running", pids)
        users = set()
        for pid in pids:
            with open(f"/proc/{pid}/status") as fh:
                users.add(re.search(r"^Uid:\s+(\d+)", fh.read(), re.M).group(1))
        check(users == {"0", "33"}, "parent root, children www-data", users)
        t0 = time.time()
        rc = s.stop(sig)
        check(rc == 0, f"{signal.Signals(sig).name}: exit 0", rc)
        check(time.time() - t0 < 5, f"{signal.Signals(sig).name}: stops quickly", time.time() - t0)
        time.sleep(0.2)
        check(s.apache_pids() == [] and all(not os.path.exists(f"/proc/{p}") for p in pids), "no Apache process left",
              s.apache_pids())
        check(not os.path.exists(conf_dir), "temporary directory removed", conf_dir)
        check(s.extra_stdout == "", "nothing else on stdout", s.extra_stdout)

    # Apache dying makes the launcher exit non-zero.
    s = Server()
    parent = [p for p in s.apache_pids() if int(open(f"/proc/{p}/stat").read().split()[3]) == s.proc.pid]
    os.kill(parent[0], signal.SIGKILL)
    try:
        rc = s.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        rc = None
        s.proc.kill()
    time.sleep(0.5)
    check(rc not in (0, None), "Apache killed -> launcher exits non-zero", rc)
    check(s.apache_pids() == [], "no Apache child left after Apache died", s.apache_pids())

    # The launcher killed with SIGKILL: Apache goes too (parent-death signal).
    s = Server()
    pids = s.apache_pids()
    s.proc.kill()
    s.proc.wait()
    deadline = time.time() + 8
    while time.time() < deadline and any(os.path.exists(f"/proc/{p}") for p in pids):
        time.sleep(0.2)
    alive = [p for p in pids if os.path.exists(f"/proc/{p}")]
    check(not alive, "launcher SIGKILLed -> Apache stops too", alive)
    for p in alive:
        os.kill(p, signal.SIGKILL)
    import shutil
    shutil.rmtree(s._conf_dir, ignore_errors=True)


def main() -> int:
    groups = sys.argv[1:]
    groups = [g for g in groups if not g.startswith("-")]

    def want(name: str) -> bool:
        return not groups or name in groups

    if any(want(g) for g in ("resources", "general", "auth", "keys", "submissions")):
        s = Server(window=600)
        s.auto_reset = True  # clears the counters every 40 requests
        try:
            for name, fn in (("resources", test_resources), ("general", test_general), ("auth", test_auth),
                             ("keys", test_keys), ("submissions", test_submissions)):
                if want(name):
                    fn(s)
            if want("submissions"):
                test_stored_rows(s)
        finally:
            check(s.stop() == 0, "server stops with exit 0")
    if want("rate"):
        s = Server(window=5)
        try:
            test_rate_limits(s, 5)
        finally:
            s.stop()
    if want("concurrency"):
        s = Server(window=600)
        try:
            test_concurrency(s)
        finally:
            s.stop()
    if want("lifecycle"):
        test_lifecycle()

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _reset_budgets(s: Server) -> None:
    """Clears the rate-limit counters (the functional groups send far more than 100 requests)."""
    with _db(s) as conn:
        conn.execute("DELETE FROM rate_limits")
        conn.commit()


class _db:
    """A root connection to the server's SQLite file; hands any -wal/-shm it made back to www-data."""

    def __init__(self, s: Server):
        import sqlite3
        self.dir = os.path.join(s.conf_dir(), "data")
        self.conn = sqlite3.connect(os.path.join(self.dir, "api.sqlite"), timeout=10)

    def __enter__(self):
        return self.conn

    def __exit__(self, *exc):
        self.conn.close()
        for name in os.listdir(self.dir):
            os.chown(os.path.join(self.dir, name), 33, 33)


if __name__ == "__main__":
    sys.exit(main())
