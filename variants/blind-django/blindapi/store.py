"""In-memory state of the service, shared by waitress's worker threads.

Every read and write goes through one re-entrant lock, so a list is a consistent
snapshot and counters/last-use times never race. Resources are plain dicts kept
in insertion order (lists page in creation order, which is stable).
"""
import hashlib
import secrets
import string
import threading
from datetime import datetime, timedelta, timezone

from . import config

_ALPHABET = string.ascii_letters + string.digits  # base62 secret characters

COLLECTIONS = (
    "workspaces",
    "governance_models",
    "records",
    "taxonomies",
    "fields",
    "picklists",
    "submissions",
)


def utcnow():
    return datetime.now(timezone.utc)


def hash_key(token):
    """Secure one-way hash of a full key; only this is kept (document: Authentication 5)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Account:
    def __init__(self, account_id, name):
        self.id = account_id
        self.name = name
        self.collections = {name: {} for name in COLLECTIONS}
        self.api_keys = {}  # key id -> key dict (holds the hash, never the secret)


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.accounts = {}
        self._by_hash = {}  # sha256 hex -> (account id, key id)
        self._ids = set()

    # ---- identifiers -------------------------------------------------
    def new_id(self, prefix):
        with self.lock:
            while True:
                candidate = "%s_%s" % (prefix, secrets.token_hex(8))
                if candidate not in self._ids:
                    self._ids.add(candidate)
                    return candidate

    # ---- accounts and resources -----------------------------------------
    def add_account(self, name):
        with self.lock:
            account = Account(self.new_id("acct"), name)
            self.accounts[account.id] = account
            return account

    def add(self, account_id, collection, obj):
        with self.lock:
            self.accounts[account_id].collections[collection][obj["id"]] = obj
            return obj

    def count(self, account_id, collection):
        with self.lock:
            return len(self.accounts[account_id].collections[collection])

    def list(self, account_id, collection):
        """A snapshot (shallow copies) of one account's collection, in creation order."""
        with self.lock:
            return [dict(o) for o in self.accounts[account_id].collections[collection].values()]

    def get(self, account_id, collection, obj_id):
        with self.lock:
            obj = self.accounts[account_id].collections[collection].get(obj_id)
            return dict(obj) if obj is not None else None

    # ---- API keys ------------------------------------------------------
    def create_key(self, account_id, name):
        """Create a key; returns (public record, full secret). The secret is not stored."""
        secret = config.KEY_PREFIX + "".join(
            secrets.choice(_ALPHABET) for _ in range(config.KEY_SECRET_LENGTH)
        )
        digest = hash_key(secret)
        with self.lock:
            account = self.accounts[account_id]
            key = {
                "id": self.new_id("key"),
                "name": name,
                "created_at": utcnow(),
                "last_used_at": None,
                "_hash": digest,
                "_account": account_id,
            }
            account.api_keys[key["id"]] = key
            self._by_hash[digest] = (account_id, key["id"])
            return dict(key), secret

    def key_count(self, account_id):
        with self.lock:
            return len(self.accounts[account_id].api_keys)

    def authenticate(self, token):
        """Return the live key whose secret is exactly `token` (and mark it used), or None."""
        digest = hash_key(token)
        with self.lock:
            ref = self._by_hash.get(digest)
            if ref is None:
                return None
            account_id, key_id = ref
            key = self.accounts[account_id].api_keys.get(key_id)
            if key is None:
                return None
            now = utcnow()
            # strictly increasing last-use time, even for two uses in one clock tick
            if key["last_used_at"] is not None and now <= key["last_used_at"]:
                now = key["last_used_at"] + timedelta(microseconds=1)
            key["last_used_at"] = now
            return dict(key)

    def list_keys(self, account_id):
        with self.lock:
            return [dict(k) for k in self.accounts[account_id].api_keys.values()]

    def get_key(self, account_id, key_id):
        with self.lock:
            key = self.accounts[account_id].api_keys.get(key_id)
            return dict(key) if key is not None else None

    def delete_key(self, account_id, key_id):
        """Revoke: the hash is dropped at once, so the very next request with it is 401."""
        with self.lock:
            key = self.accounts[account_id].api_keys.pop(key_id, None)
            if key is None:
                return False
            self._by_hash.pop(key["_hash"], None)
            return True


STORE = Store()
