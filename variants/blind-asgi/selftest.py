#!/usr/bin/python3
"""Self-test of the blind ASGI server: starts it, exercises every endpoint and
error path, checks headers and bodies, stops it with SIGTERM.

    /usr/bin/python3 variants/blind-asgi/selftest.py
"""
import http.client
import json
import math
import os
import signal
import subprocess
import sys
import time
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
WINDOW = 4
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def start():
    t0 = time.time()
    p = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--port", "0",
                          "--window-seconds", str(WINDOW)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline().decode()
    info = json.loads(line)
    print("started in %.2fs: %s" % (time.time() - t0, info["url"]))
    check(time.time() - t0 < 3, "starts within 3 s")
    return p, info


class Client:
    def __init__(self, url):
        u = urlparse(url)
        self.host, self.port = u.hostname, u.port

    retry429 = True

    def req(self, method, path, key=None, body=None, raw=None, headers=None, auth=None):
        while True:
            r = self._req(method, path, key, body, raw, headers, auth)
            if r[0] == 429 and self.retry429:
                time.sleep(int(r[1]["retry-after"]) + 0.05)
                continue
            return r

    def _req(self, method, path, key=None, body=None, raw=None, headers=None, auth=None):
        c = http.client.HTTPConnection(self.host, self.port, timeout=10)
        h = dict(headers or {})
        if auth is not None:
            h["Authorization"] = auth
        elif key is not None:
            h["Authorization"] = "Bearer " + key
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        if raw is not None:
            data = raw
            h["Content-Type"] = "application/json"
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        text = r.read()
        c.close()
        parsed = None
        if text:
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = "NOT-JSON:" + text.decode(errors="replace")
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        return r.status, hdrs, parsed


def is_envelope(b, type_=None):
    if not isinstance(b, dict) or set(b) != {"error"}:
        return False
    e = b["error"]
    ok = (isinstance(e.get("type"), str) and isinstance(e.get("message"), str)
          and (e.get("code") is None or isinstance(e.get("code"), str))
          and "param" in e and (e["param"] is None or isinstance(e["param"], str)))
    if type_:
        ok = ok and e["type"] == type_
    return ok


def walk(cl, key, path, limit):
    seen, page = [], 1
    while True:
        sep = "&" if "?" in path else "?"
        s, h, b = cl.req("GET", f"{path}{sep}page={page}&limit={limit}", key)
        assert s == 200, (path, s, b)
        seen += b["items"]
        if not b["has_more"]:
            return seen, b["total_count"], page
        page += 1


def main():
    p, info = start()
    cl = Client(info["url"])
    K, O = info["keys"]["main"], info["keys"]["other"]
    try:
        run(cl, K, O)
    finally:
        t0 = time.time()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(10)
        print("stopped in %.2fs rc=%s" % (time.time() - t0, rc))
        check(rc == 0, "exit 0 on SIGTERM")
        out = p.stdout.read()
        check(out == b"", "nothing else on stdout")
        err = p.stderr.read()
        if err:
            print("stderr:", err.decode()[:2000])
    print("FAILURES:", len(FAILS))
    for f in FAILS:
        print(" -", f)
    return 1 if FAILS else 0


def run(cl, K, O):
    # --- lists, envelope, RES shapes
    for path, fields in [("/api/v1/workspaces", ["id", "name", "description"]),
                         ("/api/v1/governance_models", ["id", "name", "description"]),
                         ("/api/v1/records", ["id", "status", "service_id", "data"]),
                         ("/api/v1/taxonomies", ["id"]), ("/api/v1/fields", ["id"]),
                         ("/api/v1/picklists", ["id"]), ("/api/v1/submissions", ["id"]),
                         ("/api/v1/api_keys", ["id", "name", "last_used_at"])]:
        s, h, b = cl.req("GET", path, K)
        check(s == 200 and h["content-type"].startswith("application/json"), f"{path} 200 json")
        check(set(b) == {"items", "has_more", "total_count"}, f"{path} envelope")
        for it in b["items"]:
            for f in fields:
                check(f in it, f"{path} item has {f}")
        for hn in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"):
            check(hn in h, f"{path} has {hn}")
        # retrieval of every listed item
        if path != "/api/v1/api_keys":
            items, total, pages = walk(cl, K, path, 100)
            check(len(items) == total and len({i['id'] for i in items}) == total, f"{path} walk")
            for it in items[:5] + items[-3:]:
                s2, _, b2 = cl.req("GET", f"{path}/{it['id']}", K)
                check(s2 == 200 and b2 == it, f"{path}/{{id}} equals list item")
    _, _, gm = cl.req("GET", "/api/v1/governance_models", K)
    check(any(g["description"] is None for g in gm["items"]), "a null governance description")

    # --- pagination
    s, h, b = cl.req("GET", "/api/v1/records", K)
    check(len(b["items"]) == 100 and b["has_more"] and b["total_count"] >= 150, "records default page")
    items, total, pages = walk(cl, K, "/api/v1/records", 7)
    check(pages == math.ceil(total / 7) and len(items) == total, "walk with limit 7")
    s, h, b = cl.req("GET", "/api/v1/records?page=999", K)
    check(s == 200 and b["items"] == [] and not b["has_more"], "page past end")
    s, h, b = cl.req("GET", "/api/v1/records?limit=10000", K)
    check(s == 200 and len(b["items"]) == b["total_count"], "limit 10000")
    s, h, b = cl.req("GET", "/api/v1/records?limit=1&page=007", K)
    check(s == 200 and len(b["items"]) == 1, "leading zeros")
    for q, param in [("page=0", "page"), ("page=-1", "page"), ("limit=0", "limit"),
                     ("limit=10001", "limit"), ("page=abc", "page"), ("limit=1.5", "limit"),
                     ("page=%2B1", "page"), ("limit=1e2", "limit"), ("page=0x10", "page"),
                     ("page=1&page=2", "page"), ("limit=", "limit"), ("page=%201", "page"),
                     ("page=99999999999999999999999999", "page")]:
        s, h, b = cl.req("GET", "/api/v1/workspaces?" + q, K)
        check(s == 422 and is_envelope(b, "invalid_request_error") and b["error"]["param"] == param,
              f"bad pagination {q} -> {s} {b}")

    # --- retrieval 404, unknown path, forbidden probe, other versions, methods
    s, h, b = cl.req("GET", "/api/v1/records/rec_doesnotexist", K)
    check(s == 404 and is_envelope(b, "not_found_error") and b["error"]["code"] is None
          and b["error"]["param"] is None, "missing record 404")
    for path in ["/api/v1/unknown", "/api/v2/workspaces", "/", "/docs", "/openapi.json",
                 "/api/v1/workspaces/x/y", "/api/v1/"]:
        s, h, b = cl.req("GET", path, K)
        check(s == 404 and is_envelope(b, "not_found_error"), f"unknown path {path} -> {s}")
    s, h, b = cl.req("GET", "/api/v1/admin/users", K)
    check(s == 403 and is_envelope(b, "authorization_error"), "forbidden probe 403")
    for m in ["PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "FOO"]:
        s, h, b = cl.req(m, "/api/v1/workspaces", K)
        check(400 <= s < 500 and is_envelope(b), f"{m} workspaces -> {s} {b}")
    s, h, b = cl.req("HEAD", "/api/v1/workspaces", K)
    check(s == 200 and b is None, "HEAD has no body")

    # --- auth
    bad_auths = [None, "Basic abc", "Bearer", "Bearer ", "Bearer nokeyprefix", "Bearer " + K + " extra",
                 "Token " + K, "Bearer " + K[:-1], "Bearer " + K + "x", "Bearer " + K.upper(),
                 "Bearer " + K[:-1] + ("A" if K[-1] != "A" else "B"), "Bearer " + K.swapcase()]
    for a in bad_auths:
        s, h, b = cl.req("GET", "/api/v1/workspaces", auth=a) if a is not None else cl.req(
            "GET", "/api/v1/workspaces")
        check(s == 401 and is_envelope(b, "authentication_error") and b["error"]["code"] is None,
              f"401 for {a!r} -> {s} {b}")
    s, h, b = cl.req("GET", "/api/v1/workspaces", auth="bearer " + K)
    check(s == 200, "lower-case scheme accepted")
    s, h, b = cl.req("GET", "/api/v1/workspaces", auth="Bearer    " + K)
    check(s == 200, "several spaces accepted")

    # --- cross-account isolation
    _, _, ws_main = cl.req("GET", "/api/v1/workspaces", K)
    _, _, ws_other = cl.req("GET", "/api/v1/workspaces", O)
    ids_main = {w["id"] for w in ws_main["items"]}
    ids_other = {w["id"] for w in ws_other["items"]}
    check(ids_main.isdisjoint(ids_other), "no shared workspaces")
    for wid in ids_other:
        s, h, b = cl.req("GET", f"/api/v1/workspaces/{wid}", K)
        check(s == 404 and is_envelope(b, "not_found_error"), "other account's workspace 404")
    _, _, rec_other = cl.req("GET", "/api/v1/records", O)
    s, h, b = cl.req("GET", f"/api/v1/records/{rec_other['items'][0]['id']}", K)
    check(s == 404, "other account's record 404")

    # --- submissions
    ws = ws_main["items"][0]["id"]
    ws2 = ws_main["items"][1]["id"]
    _, _, tx = cl.req("GET", "/api/v1/taxonomies", K)
    t1, t2 = tx["items"][0]["id"], tx["items"][1]["id"]
    _, _, before = cl.req("GET", "/api/v1/submissions", K)
    body = {"workspace_id": ws, "taxonomy_id": t1, "rows": [{"data": {"a": 1}}, {"data": {}}]}
    s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ws}", K, body=body)
    check(s == 201 and b["workspace_id"] == ws and b["row_count"] == 2, f"create submission {s} {b}")
    sid = b["id"]
    s, h, b2 = cl.req("GET", f"/api/v1/submissions/{sid}", K)
    check(s == 200 and b2 == b, "retrieve submission")
    s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ws2}", K,
                     body={"workspace_id": ws2, "taxonomy_id": t2,
                           "rows": [{"data": {"ü": "ß" * 5000, "n": {"x": [1, {"y": None}]}}}]})
    check(s == 201, "unicode/nested submission")
    _, _, after = cl.req("GET", "/api/v1/submissions", K)
    check(after["total_count"] == before["total_count"] + 2, "submission count grew")
    _, _, fw = cl.req("GET", f"/api/v1/submissions?workspace={ws}", K)
    check(fw["total_count"] < after["total_count"] and all(i["workspace_id"] == ws for i in fw["items"]),
          "workspace filter narrows")
    _, _, ft = cl.req("GET", f"/api/v1/submissions?taxonomy={t2}", K)
    check(all(i["taxonomy_id"] == t2 for i in ft["items"]) and ft["total_count"] == len(ft["items"]),
          "taxonomy filter narrows")
    _, _, fb = cl.req("GET", f"/api/v1/submissions?taxonomy={t2}&workspace={ws2}", K)
    check(all(i["taxonomy_id"] == t2 and i["workspace_id"] == ws2 for i in fb["items"]), "both filters")
    # missing required
    s, h, b = cl.req("POST", "/api/v1/submissions", K, body=body)
    check(s == 400 and b["error"]["code"] == "missing_param" and b["error"]["param"] == "workspace",
          f"missing query param {s} {b}")
    for f in ["workspace_id", "taxonomy_id", "rows"]:
        bb = dict(body)
        del bb[f]
        s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ws}", K, body=bb)
        check(s == 400 and b["error"]["code"] == "missing_param" and b["error"]["param"] == f,
              f"missing {f} -> {s} {b}")
    # invalid values
    for bb, param, idx in [({**body, "rows": "x"}, "rows", None),
                           ({**body, "rows": [{"data": {}}, 5]}, "rows", "1"),
                           ({**body, "rows": [{"data": []}]}, "rows", "0"),
                           ({**body, "rows": [{"data": {}}, {"data": {}}, {}]}, "rows", "2"),
                           ({**body, "workspace_id": 5}, "workspace_id", None),
                           ({**body, "taxonomy_id": ["x"]}, "taxonomy_id", None),
                           ({**body, "taxonomy_id": "txn_nope"}, "taxonomy_id", None)]:
        s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ws}", K, body=bb)
        check(s == 422 and is_envelope(b, "invalid_request_error") and b["error"]["param"] == param
              and (idx is None or idx in (b["error"]["path"] or "")), f"invalid body {bb} -> {s} {b}")
    for raw in [b"{bad", b"[1,2]", b"\"x\"", b"\xff\xfe", b"{\"a\": NaN}", b"[" * 100000]:
        s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ws}", K, raw=raw)
        check(400 <= s < 500 and is_envelope(b), f"malformed body {raw[:10]} -> {s} {b}")
    s, h, b = cl.req("POST", f"/api/v1/submissions?workspace={ids_other.pop()}", K, body=body)
    check(s == 404 and is_envelope(b, "not_found_error"), "other account's workspace on submit")

    # --- api keys
    s, h, b = cl.req("POST", "/api/v1/api_keys", K, body={"name": "ci key"})
    check(s == 201 and b["secret"].startswith("gvk_") and b["name"] == "ci key", f"create key {s} {b}")
    new_key, new_id = b["secret"], b["id"]
    secret_part = new_key[len("gvk_"):]
    s, h, b = cl.req("GET", "/api/v1/workspaces", new_key)
    check(s == 200, "new key works immediately")
    s, h, lst = cl.req("GET", "/api/v1/api_keys", K)
    mine = [k for k in lst["items"] if k["id"] == new_id]
    check(len(mine) == 1 and mine[0]["name"] == "ci key" and mine[0]["last_used_at"], "key listed with use")
    raw_list = json.dumps(lst)
    check(all(secret_part[i:i + 8] not in raw_list for i in range(len(secret_part) - 7)), "no secret in list")
    lu1 = mine[0]["last_used_at"]
    time.sleep(0.01)
    cl.req("GET", "/api/v1/records", new_key)
    _, _, lst2 = cl.req("GET", "/api/v1/api_keys", K)
    lu2 = [k for k in lst2["items"] if k["id"] == new_id][0]["last_used_at"]
    check(lu2 > lu1, "last_used_at moves forward")
    s, h, b = cl.req("POST", "/api/v1/api_keys", K, body={})
    check(s == 400 and b["error"]["code"] == "missing_param" and b["error"]["param"] == "name", "key no name")
    s, h, b = cl.req("POST", "/api/v1/api_keys", K, body={"name": 5})
    check(s == 422 and b["error"]["param"] == "name", "key name not string")
    s, h, b = cl.req("DELETE", f"/api/v1/api_keys/{new_id}", O)
    check(s == 404, "other account cannot delete key")
    s, h, b = cl.req("DELETE", f"/api/v1/api_keys/{new_id}", K)
    check(s == 200 and b.get("deleted") is True, "delete key")
    s, h, b = cl.req("GET", "/api/v1/workspaces", new_key)
    check(s == 401 and is_envelope(b, "authentication_error") and b["error"]["code"] is None, "revoked 401")
    s, h, b = cl.req("DELETE", f"/api/v1/api_keys/{new_id}", K)
    check(s == 404 and is_envelope(b, "not_found_error"), "delete again 404")
    _, _, lst3 = cl.req("GET", "/api/v1/api_keys", K)
    check(all(k["id"] != new_id for k in lst3["items"]), "deleted key gone from list")

    # --- rate limits (window is WINDOW seconds)
    cl.retry429 = False
    s, h, b = cl.req("POST", "/api/v1/api_keys", K, body={"name": "rate"})
    rk = b["secret"]
    time.sleep(WINDOW + 0.1)  # fresh windows
    last_rem = None
    for i in range(100):
        s, h, b = cl.req("GET", "/api/v1/workspaces", rk)
        check(s == 200, f"request {i} within ceiling")
        rem = int(h["x-ratelimit-remaining"])
        if last_rem is not None:
            check(rem == last_rem - 1, "remaining falls by one")
        last_rem = rem
        check(int(h["x-ratelimit-reset"]) <= time.time() + WINDOW + 2, "reset within window")
        check("retry-after" not in h, "no Retry-After on 2xx")
    s, h, b = cl.req("GET", "/api/v1/workspaces", rk)
    check(s == 429 and b["error"]["type"] == "rate_limit_error" and b["error"]["code"] == "rate_limit_exceeded"
          and b["error"]["param"] is None, f"429 body {b}")
    ra = int(h["retry-after"])
    check(all(x in h for x in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")), "429 headers")
    check(str(ra) in b["error"]["message"], "message states wait")
    s, h, b = cl.req("GET", "/api/v1/workspaces", K)
    check(s == 200, "other key not throttled")
    # unauthenticated per IP
    codes = [cl.req("GET", "/api/v1/workspaces")[0] for _ in range(21)]
    check(codes[:20] == [401] * 20 and codes[20] == 429, f"IP limit codes {codes}")
    s, h, b = cl.req("GET", "/api/v1/workspaces")
    check(s == 429 and "retry-after" in h and h["x-ratelimit-limit"] == "20", "IP 429 headers")
    s, h, b = cl.req("GET", "/api/v1/workspaces", K)
    check(s == 200, "valid key unaffected by IP limit")
    time.sleep(ra + 0.1)
    s, h, b = cl.req("GET", "/api/v1/workspaces", rk)
    check(s == 200, "works again after Retry-After")


if __name__ == "__main__":
    sys.exit(main())
