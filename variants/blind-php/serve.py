#!/usr/bin/env python3
"""Launcher for the blind-php variant: PHP 8.2 under Apache httpd 2.4 (mod_php, prefork).

    /usr/bin/python3 variants/blind-php/serve.py [--host 127.0.0.1] [--port 0] [--window-seconds 60]

Each start:
  1. makes a fresh temporary directory (run/, lock/, log/, data/ and apache2.conf);
  2. creates and seeds the SQLite database in data/ (two accounts, one random
     API key each) and hands data/ to www-data, the user of Apache's children;
  3. runs `/usr/sbin/apache2 -f CONF -DFOREGROUND` with Debian's envvars set;
  4. once the port accepts connections, prints one JSON line to stdout:
     {"url": "http://127.0.0.1:PORT", "keys": {"main": "...", "other": "..."}}

SIGTERM or SIGINT stops Apache (SIGTERM to its parent, SIGKILL to its process
group after 3 s), removes the temporary directory and exits 0. If Apache dies
on its own the launcher cleans up and exits 1. Apache also gets SIGTERM if the
launcher itself is killed (PR_SET_PDEATHSIG).

Only the Python standard library is used.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime as dt
import hashlib
import json
import os
import pwd
import grp
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import string
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLIC_DIR = os.path.join(HERE, "public")
SCHEMA = os.path.join(HERE, "database", "schema.sql")
APACHE = "/usr/sbin/apache2"
PHP_MODULE = "/usr/lib/apache2/modules/libphp8.2.so"
MODULES_DIR = "/usr/lib/apache2/modules"
RUN_USER = "www-data"
RUN_GROUP = "www-data"

KEY_PREFIX = "gk_live_"  # must match Api\Config::KEY_PREFIX
KEY_SECRET_LENGTH = 40
ALPHANUMERIC = string.digits + string.ascii_uppercase + string.ascii_lowercase

STARTUP_TIMEOUT = 20.0
STOP_GRACE = 3.0


def log(message: str) -> None:
    print(f"serve.py: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Apache configuration
# --------------------------------------------------------------------------

APACHE_CONF = """\
# apache2.conf written by variants/blind-php/serve.py for one run.
# It follows Debian's /etc/apache2/apache2.conf: the same ServerRoot, envvars,
# core settings and conf-available/security.conf, with the modules this API
# needs loaded explicitly instead of through mods-enabled/.

ServerRoot "/etc/apache2"
DefaultRuntimeDir ${{APACHE_RUN_DIR}}
PidFile ${{APACHE_PID_FILE}}
Mutex file:${{APACHE_LOCK_DIR}} default

Timeout 300
KeepAlive On
MaxKeepAliveRequests 100
KeepAliveTimeout 5

User ${{APACHE_RUN_USER}}
Group ${{APACHE_RUN_GROUP}}
HostnameLookups Off

ErrorLog ${{APACHE_LOG_DIR}}/error.log
LogLevel warn

# Modules (Debian keeps these in mods-available/*.load and *.conf).
LoadModule mpm_prefork_module {modules}/mod_mpm_prefork.so
Include mods-available/mpm_prefork.conf
LoadModule authz_core_module {modules}/mod_authz_core.so
LoadModule reqtimeout_module {modules}/mod_reqtimeout.so
Include mods-available/reqtimeout.conf
LoadModule mime_module {modules}/mod_mime.so
Include mods-available/mime.conf
LoadModule dir_module {modules}/mod_dir.so
Include mods-available/dir.conf
LoadModule env_module {modules}/mod_env.so
LoadModule setenvif_module {modules}/mod_setenvif.so
Include mods-available/setenvif.conf
LoadModule rewrite_module {modules}/mod_rewrite.so
LoadModule php_module {php_module}
Include mods-available/php8.2.conf

# ports.conf
Listen {host}:{port}

<Directory />
\tOptions FollowSymLinks
\tAllowOverride None
\tRequire all denied
</Directory>

<Directory /usr/share>
\tAllowOverride None
\tRequire all granted
</Directory>

<Directory /var/www/>
\tOptions Indexes FollowSymLinks
\tAllowOverride None
\tRequire all granted
</Directory>

AccessFileName .htaccess
<FilesMatch "^\\.ht">
\tRequire all denied
</FilesMatch>

LogFormat "%v:%p %h %l %u %t \\"%r\\" %>s %O \\"%{{Referer}}i\\" \\"%{{User-Agent}}i\\"" vhost_combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{{Referer}}i\\" \\"%{{User-Agent}}i\\"" combined
LogFormat "%h %l %u %t \\"%r\\" %>s %O" common
LogFormat "%{{Referer}}i -> %U" referer
LogFormat "%{{User-agent}}i" agent

# conf-enabled/ on Debian: security.conf (ServerTokens OS, ServerSignature On,
# TraceEnable Off). charset.conf and localized-error-pages.conf are all comments.
Include conf-available/security.conf

ServerName {host}

# sites-enabled/000-default.conf, for this API.
<VirtualHost {host}:{port}>
\tServerAdmin webmaster@localhost
\tDocumentRoot {public}

\tErrorLog ${{APACHE_LOG_DIR}}/error.log
\tCustomLog ${{APACHE_LOG_DIR}}/access.log combined

\t# Settings for PHP, read with $_SERVER / getenv().
\tSetEnv API_DB_PATH {db}
\tSetEnv API_RATE_WINDOW_SECONDS {window}

\t# The API reads JSON from php://input and never uses $_POST, so PHP does
\t# not read and parse request bodies before the script runs.
\tphp_admin_flag enable_post_data_reading Off

\t<Directory {public}>
\t\tOptions FollowSymLinks
\t\tAllowOverride None
\t\tRequire all granted

\t\t# Front controller: everything that is not a file goes to index.php.
\t\t# errors/*.json are served only as Apache's own error documents.
\t\tRewriteEngine On
\t\tRewriteCond %{{ENV:REDIRECT_STATUS}} !^[45]
\t\tRewriteRule ^errors/ index.php [L]
\t\tRewriteCond %{{REQUEST_FILENAME}} !-f
\t\tRewriteRule ^ index.php [L]
\t</Directory>

\t# Errors that Apache raises itself, before or around PHP (TRACE, an encoded
\t# slash, a bad request line, a URI or header over the limits, broken chunked
\t# framing...) get a static JSON error envelope. Static files, not PHP: a
\t# second PHP run inside the same request can crash mod_php.
\tErrorDocument 400 /errors/400.json
\tErrorDocument 403 /errors/403.json
\tErrorDocument 404 /errors/404.json
\tErrorDocument 405 /errors/405.json
\tErrorDocument 408 /errors/408.json
\tErrorDocument 411 /errors/411.json
\tErrorDocument 413 /errors/413.json
\tErrorDocument 414 /errors/414.json
\tErrorDocument 417 /errors/417.json
\tErrorDocument 500 /errors/500.json
\tErrorDocument 501 /errors/501.json
\tErrorDocument 503 /errors/503.json
</VirtualHost>
"""


def write_conf(path: str, host: str, port: int, public: str, db: str, window: int) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(APACHE_CONF.format(
            modules=MODULES_DIR, php_module=PHP_MODULE, host=host, port=port,
            public=public, db=db, window=window,
        ))


def apache_env(tmp: str) -> dict[str, str]:
    """The variables /etc/apache2/envvars exports, pointed into the temp dir."""
    env = dict(os.environ)
    env.pop("HOME", None)  # envvars: "this won't be correct after changing uid"
    env.update({
        "APACHE_RUN_USER": RUN_USER,
        "APACHE_RUN_GROUP": RUN_GROUP,
        "APACHE_PID_FILE": os.path.join(tmp, "run", "apache2.pid"),
        "APACHE_RUN_DIR": os.path.join(tmp, "run"),
        "APACHE_LOCK_DIR": os.path.join(tmp, "lock"),
        "APACHE_LOG_DIR": os.path.join(tmp, "log"),
        "LANG": "C",
        # PHP keeps a request body past 16 KiB in a temporary file, made where TMPDIR says: the
        # caller's may be a folder only its own user can write (the tests' scratch folder is), and
        # Apache's children are www-data. A deployment's would be /tmp. (Added by the suite's
        # maintainers: bodies of some hundred KiB were answered 500 when run from the tests.)
        "TMPDIR": os.path.join(tmp, "tmp"),
    })
    return env


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------
# Seed data
# --------------------------------------------------------------------------

def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_key() -> tuple[str, str, str]:
    """A random key: (full key, sha256 hex, hint)."""
    secret = "".join(secrets.choice(ALPHANUMERIC) for _ in range(KEY_SECRET_LENGTH))
    token = KEY_PREFIX + secret
    return token, hashlib.sha256(token.encode()).hexdigest(), f"{KEY_PREFIX}...{secret[-4:]}"


COUNTRIES = [("DE", "Germany"), ("FR", "France"), ("GB", "United Kingdom"), ("US", "United States"),
             ("NL", "Netherlands"), ("SE", "Sweden"), ("JP", "Japan"), ("BR", "Brazil")]
SEGMENTS = [("enterprise", "Enterprise"), ("mid_market", "Mid-market"), ("smb", "Small business"),
            ("public_sector", "Public sector")]
RISK_TIERS = [("low", "Low"), ("medium", "Medium"), ("high", "High"), ("critical", "Critical")]
CATEGORIES = [("hardware", "Hardware"), ("software", "Software"), ("services", "Professional services"),
              ("consumables", "Consumables")]
SEVERITIES = [("mild", "Mild"), ("moderate", "Moderate"), ("severe", "Severe"),
              ("life_threatening", "Life-threatening")]
STATUSES = ["draft", "in_review", "approved", "rejected", "archived"]  # Api\Controllers\RecordStatus

COMPANY_WORDS = ["Alpine", "Harbor", "Cedar", "Quantum", "Bright", "Summit", "Nordic", "Atlas", "Silver",
                 "Pioneer", "Crescent", "Evergreen", "Redwood", "Meridian", "Lumen", "Vertex"]
COMPANY_SUFFIX = ["GmbH", "Ltd", "Inc.", "SA", "BV", "AB", "KK", "Ltda"]
PRODUCTS = ["Docking station", "Laptop stand", "Analytics licence", "Support plan", "Label printer",
            "Barcode scanner", "Toner cartridge", "Onboarding workshop", "Cloud backup", "USB-C hub"]


def seed(db_path: str) -> dict[str, str]:
    """Creates the schema and the seed data; returns the two API keys."""
    rng = random.Random()
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA journal_mode = WAL")
    with open(SCHEMA, encoding="utf-8") as fh:
        conn.executescript(fh.read())

    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    start = now - dt.timedelta(days=180)

    def at(day: float) -> str:
        return iso(start + dt.timedelta(days=day))

    def uid() -> str:
        return str(uuid.uuid4())

    keys: dict[str, str] = {}
    accounts = [
        {
            "label": "main", "name": "Northwind Analytics", "service_prefix": "NW", "records": 250,
            "workspaces": [
                ("Main", "Default workspace created at sign-up."),
                ("Finance Reporting", "Quarterly close, ledgers and audit evidence."),
                ("Clinical Data", "Observations collected from partner clinics."),
                ("Supplier Onboarding", "Due diligence for new suppliers."),
                ("ESG Disclosures", "Environmental, social and governance reporting."),
            ],
            "models": [
                ("GDPR Data Protection", "Personal data handling under the EU General Data Protection Regulation.", "2.1"),
                ("SOX Financial Controls", "Sarbanes-Oxley section 404 internal controls.", "1.4"),
                ("ISO 27001 Information Security", "Annex A controls mapped to data assets.", "2022"),
                ("Internal Data Quality Standard", None, "0.9"),
                ("EU AI Act Risk Classification", "Risk tiers for automated decision systems.", "1.0"),
                ("HIPAA Privacy Rule", "Protected health information safeguards.", "3.0"),
            ],
            "picklists": {
                "Countries": COUNTRIES, "Customer segments": SEGMENTS,
                "Risk tiers": RISK_TIERS, "Product categories": CATEGORIES,
            },
            "taxonomies": [
                ("Customer Master", "Golden record of customers.", [
                    ("Customer name", "customer_name", "string", True, None),
                    ("Country", "country", "picklist", True, "Countries"),
                    ("Segment", "segment", "picklist", False, "Customer segments"),
                    ("Annual revenue", "annual_revenue", "number", False, None),
                    ("Onboarding date", "onboarding_date", "date", False, None),
                ]),
                ("Supplier", "Suppliers and their risk assessment.", [
                    ("Supplier name", "supplier_name", "string", True, None),
                    ("Tax id", "tax_id", "string", True, None),
                    ("Risk tier", "risk_tier", "picklist", True, "Risk tiers"),
                    ("Certified", "certified", "boolean", False, None),
                ]),
                ("Product Catalogue", "Sellable products.", [
                    ("SKU", "sku", "string", True, None),
                    ("Title", "title", "string", True, None),
                    ("Unit price", "unit_price", "number", True, None),
                    ("Category", "category", "picklist", False, "Product categories"),
                ]),
                ("Clinical Observation", None, [
                    ("Subject id", "subject_id", "string", True, None),
                    ("Visit date", "visit_date", "date", True, None),
                    ("Measurement", "measurement", "number", True, None),
                    ("Unit", "unit", "string", False, None),
                ]),
            ],
            "submissions": 4,
        },
        {
            "label": "other", "name": "Contoso Health", "service_prefix": "CH", "records": 35,
            "workspaces": [
                ("Main", "Default workspace created at sign-up."),
                ("Pharmacovigilance", "Adverse event intake and review."),
            ],
            "models": [
                ("GxP Data Integrity", "ALCOA+ principles for regulated records.", "1.2"),
                ("Local Policy Draft", None, "0.1"),
            ],
            "picklists": {"Severity": SEVERITIES},
            "taxonomies": [
                ("Adverse Event", "Reports of suspected adverse reactions.", [
                    ("Case number", "case_number", "string", True, None),
                    ("Severity", "severity", "picklist", True, "Severity"),
                    ("Onset date", "onset_date", "date", False, None),
                ]),
            ],
            "submissions": 1,
        },
    ]

    for acc in accounts:
        account_id = uid()
        conn.execute("INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)",
                     (account_id, acc["name"], at(0)))

        token, key_hash, hint = new_key()
        keys[acc["label"]] = token
        conn.execute(
            "INSERT INTO api_keys (id, account_id, name, key_hash, hint, created_at, last_used_at) "
            "VALUES (?, ?, ?, ?, ?, ?, NULL)",
            (uid(), account_id, f"Integration key ({acc['label']})", key_hash, hint, at(1)))

        workspace_ids = []
        for i, (name, description) in enumerate(acc["workspaces"]):
            wid = uid()
            workspace_ids.append(wid)
            conn.execute("INSERT INTO workspaces (id, account_id, name, description, created_at) "
                         "VALUES (?, ?, ?, ?, ?)", (wid, account_id, name, description, at(1 + i * 3)))

        for i, (name, description, version) in enumerate(acc["models"]):
            conn.execute("INSERT INTO governance_models (id, account_id, name, description, version, created_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (uid(), account_id, name, description, version, at(2 + i * 5)))

        picklist_ids = {}
        for i, (name, options) in enumerate(acc["picklists"].items()):
            pid = uid()
            picklist_ids[name] = pid
            conn.execute("INSERT INTO picklists (id, account_id, name, options, created_at) VALUES (?, ?, ?, ?, ?)",
                         (pid, account_id, name,
                          json.dumps([{"value": v, "label": label} for v, label in options]), at(3 + i)))

        taxonomy_ids = []
        for i, (name, description, fields) in enumerate(acc["taxonomies"]):
            tid = uid()
            taxonomy_ids.append((tid, name))
            conn.execute("INSERT INTO taxonomies (id, account_id, name, description, created_at) VALUES (?, ?, ?, ?, ?)",
                         (tid, account_id, name, description, at(4 + i * 2)))
            for j, (fname, key, data_type, required, picklist) in enumerate(fields):
                conn.execute(
                    "INSERT INTO fields (id, account_id, taxonomy_id, name, key, data_type, required, picklist_id, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (uid(), account_id, tid, fname, key, data_type, int(required),
                     picklist_ids.get(picklist) if picklist else None, at(4 + i * 2 + j * 0.01)))

        for n in range(1, acc["records"] + 1):
            created = 10 + n * 160 / acc["records"]
            updated = created + rng.uniform(0, 5)
            taxonomy_name = taxonomy_ids[n % len(taxonomy_ids)][1]
            conn.execute(
                "INSERT INTO records (id, account_id, workspace_id, service_id, status, data, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (uid(), account_id, workspace_ids[n % len(workspace_ids)], f"{acc['service_prefix']}-{n:05d}",
                 STATUSES[n % len(STATUSES)], json.dumps(record_data(rng, taxonomy_name, n)), at(created), at(updated)))

        for n in range(acc["submissions"]):
            sid = uid()
            tid, taxonomy_name = taxonomy_ids[n % len(taxonomy_ids)]
            rows = [record_data(rng, taxonomy_name, 1000 + n * 10 + r) for r in range(rng.randint(2, 6))]
            conn.execute(
                "INSERT INTO submissions (id, account_id, workspace_id, taxonomy_id, row_count, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (sid, account_id, workspace_ids[n % len(workspace_ids)], tid, len(rows), at(150 + n * 5)))
            for position, row in enumerate(rows):
                conn.execute("INSERT INTO submission_rows (submission_id, position, data) VALUES (?, ?, ?)",
                             (sid, position, json.dumps(row)))

    conn.commit()
    conn.close()
    return keys


def record_data(rng: random.Random, taxonomy: str, n: int) -> dict:
    company = f"{rng.choice(COMPANY_WORDS)} {rng.choice(COMPANY_WORDS)} {rng.choice(COMPANY_SUFFIX)}"
    if taxonomy == "Customer Master":
        return {"customer_name": company, "country": rng.choice(COUNTRIES)[0],
                "segment": rng.choice(SEGMENTS)[0], "annual_revenue": round(rng.uniform(2e5, 9e7), 2),
                "onboarding_date": f"20{rng.randint(18, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                "contacts": [{"role": "billing", "email": f"billing{n}@example.com"}]}
    if taxonomy == "Supplier":
        return {"supplier_name": company, "tax_id": f"EU{rng.randint(100000000, 999999999)}",
                "risk_tier": rng.choice(RISK_TIERS)[0], "certified": rng.random() < 0.6,
                "certifications": rng.sample(["ISO 9001", "ISO 14001", "ISO 27001", "SOC 2"], k=rng.randint(0, 2))}
    if taxonomy == "Product Catalogue":
        return {"sku": f"SKU-{rng.randint(10000, 99999)}", "title": rng.choice(PRODUCTS),
                "unit_price": round(rng.uniform(4, 2500), 2), "category": rng.choice(CATEGORIES)[0],
                "dimensions": {"width_mm": rng.randint(20, 600), "height_mm": rng.randint(5, 400)}}
    if taxonomy == "Clinical Observation":
        return {"subject_id": f"S-{rng.randint(1000, 9999)}",
                "visit_date": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                "measurement": round(rng.uniform(50, 180), 1), "unit": rng.choice(["mmHg", "bpm", "kg"]),
                "notes": None}
    return {"case_number": f"AE-{rng.randint(100000, 999999)}", "severity": rng.choice(SEVERITIES)[0],
            "onset_date": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "reporter": {"type": rng.choice(["physician", "pharmacist", "patient"]), "country": "GB"}}


# --------------------------------------------------------------------------
# Process management
# --------------------------------------------------------------------------

def hand_to_www_data(path: str) -> None:
    """Lets Apache's children (www-data) write the SQLite file, its -wal/-shm and the dir."""
    try:
        uid_ = pwd.getpwnam(RUN_USER).pw_uid
        gid = grp.getgrnam(RUN_GROUP).gr_gid
        for name in [path] + [os.path.join(path, f) for f in os.listdir(path)]:
            os.chown(name, uid_, gid)
        os.chmod(path, 0o770)
    except (KeyError, PermissionError):
        # Not root (Apache then keeps our user) or no www-data: open it up instead.
        os.chmod(path, 0o777)
        for f in os.listdir(path):
            os.chmod(os.path.join(path, f), 0o666)


def readable_by_www_data(paths: list[str]) -> bool:
    """Whether Apache's children (www-data) can read the app where it lies."""
    if os.geteuid() != 0:
        return True  # Apache cannot switch users then, and runs as we do
    try:
        uid_ = pwd.getpwnam(RUN_USER).pw_uid
        gid = grp.getgrnam(RUN_GROUP).gr_gid
    except KeyError:
        return True
    pid = os.fork()
    if pid == 0:  # child: become www-data and look
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid_)
            os._exit(0 if all(os.access(p, os.R_OK) for p in paths) else 1)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def document_root(tmp: str) -> str:
    """The app's public/ dir; a copy of public/ and src/ in the temp dir when
    www-data cannot read the checkout (a clone under /root, say)."""
    probes = [os.path.join(PUBLIC_DIR, "index.php"), os.path.join(PUBLIC_DIR, "errors", "404.json"),
              os.path.join(HERE, "src", "bootstrap.php"), os.path.join(HERE, "src", "App.php")]
    if readable_by_www_data(probes):
        return PUBLIC_DIR
    app = os.path.join(tmp, "app")
    for part in ("public", "src"):
        shutil.copytree(os.path.join(HERE, part), os.path.join(app, part))
    for root, dirs, files in os.walk(app):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    log(f"www-data cannot read {HERE}; serving a copy of the app from {app}")
    return os.path.join(app, "public")


def _child_setup() -> None:
    os.setpgid(0, 0)  # own process group, so that all of Apache can be signalled at once
    try:  # Apache gets SIGTERM if the launcher dies without cleaning up
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_apache(conf: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [APACHE, "-f", conf, "-DFOREGROUND"],
        env=env, stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(), stderr=sys.stderr.fileno(),
        preexec_fn=_child_setup, close_fds=True,
    )


def stop_apache(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            log("Apache did not stop within 3 s; sending SIGKILL")
        except ProcessLookupError:
            pass
    # Whatever is left of the group (the parent after a timeout, or a child): SIGKILL.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=STOP_GRACE)
    except subprocess.TimeoutExpired:
        pass


def tail(path: str, lines: int = 20) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return "".join(fh.readlines()[-lines:])
    except OSError:
        return ""


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the blind-php API under Apache httpd + mod_php.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--window-seconds", type=int, default=60, help="rate-limit window (ceilings stay the same)")
    args = parser.parse_args()
    if args.window_seconds < 1:
        parser.error("--window-seconds must be at least 1")

    stopping = {"signal": None}

    def on_signal(signum, _frame):
        stopping["signal"] = signum

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    tmp = tempfile.mkdtemp(prefix="blind-php-")
    proc: subprocess.Popen | None = None
    try:
        os.chmod(tmp, 0o755)
        for sub in ("run", "lock", "log", "data", "tmp"):
            os.mkdir(os.path.join(tmp, sub))
        os.chmod(os.path.join(tmp, "tmp"), 0o1777)
        db_path = os.path.join(tmp, "data", "api.sqlite")
        keys = seed(db_path)
        hand_to_www_data(os.path.join(tmp, "data"))
        public = document_root(tmp)

        env = apache_env(tmp)
        conf = os.path.join(tmp, "apache2.conf")
        error_log = os.path.join(tmp, "log", "error.log")

        attempts = 1 if args.port else 5
        port = 0
        for attempt in range(attempts):
            port = args.port or free_port(args.host)
            write_conf(conf, args.host, port, public, db_path, args.window_seconds)
            proc = start_apache(conf, env)
            # Apache writes its PidFile only after it has bound the port, so a
            # port answered by some other process does not count as started.
            pid_file = env["APACHE_PID_FILE"]

            def ready() -> bool:
                return proc.poll() is None and os.path.exists(pid_file) and port_open(args.host, port)

            deadline = time.monotonic() + STARTUP_TIMEOUT
            while time.monotonic() < deadline and proc.poll() is None and stopping["signal"] is None:
                if ready():
                    break
                time.sleep(0.05)
            if stopping["signal"] is not None:
                return 0
            if ready():
                break
            log(f"Apache failed to start on port {port} (attempt {attempt + 1}):\n{tail(error_log)}")
            stop_apache(proc)
            proc = None
        if proc is None:
            return 1

        print(json.dumps({"url": f"http://{args.host}:{port}", "keys": keys}), flush=True)

        while stopping["signal"] is None:
            if proc.poll() is not None:
                log(f"Apache exited with status {proc.returncode}:\n{tail(error_log)}")
                return 1
            time.sleep(0.1)
        return 0
    finally:
        if proc is not None:
            stop_apache(proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
