"""Bearer-key authentication, permission and the two rate limits of the document."""
import math
import re
import threading
import time

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.throttling import BaseThrottle

from . import config
from .store import STORE

_SPACES = re.compile(r"[ \t]+")


class KeyUser:
    """The principal of a request: the account a key belongs to (keys act for an account)."""

    is_authenticated = True
    is_anonymous = False

    def __init__(self, key):
        self.account_id = key["_account"]
        self.key_id = key["id"]

    def __str__(self):
        return "key %s" % self.key_id


class BadCredentials(exceptions.AuthenticationFailed):
    def __init__(self, message, code=None):
        super().__init__(detail=message)
        self.error_code = code


class BearerKeyAuthentication(BaseAuthentication):
    """`Authorization: Bearer <KEY_PREFIX><SECRET>`.

    No header at all: anonymous (returns None) so the per-IP limit applies, then 401.
    A header of another scheme, without a token, with extra parts, or a token without
    the key prefix: 401 (malformed). A well-formed token that is not exactly a live
    key: 401, code null.
    """

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION")
        if header is None:
            return None
        parts = [p for p in _SPACES.split(header.strip(" \t")) if p]
        if len(parts) != 2 or parts[0].lower() != "bearer":
            raise BadCredentials(
                "Malformed Authorization header. Send 'Authorization: Bearer <API key>'.",
                code="malformed_authorization",
            )
        token = parts[1]
        if not token.startswith(config.KEY_PREFIX) or len(token) == len(config.KEY_PREFIX):
            raise BadCredentials(
                "Malformed API key: keys start with '%s'." % config.KEY_PREFIX,
                code="malformed_authorization",
            )
        key = STORE.authenticate(token)
        if key is None:
            raise BadCredentials("Invalid or revoked API key.", code=None)
        return KeyUser(key), key

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class HasAccountKey(BasePermission):
    """Every endpoint needs a valid key (DRF turns a failure into NotAuthenticated -> 401)."""

    def has_permission(self, request, view):
        return request.auth is not None


class AdminOnly(BasePermission):
    """Admin-only endpoints: API keys can never reach them (document: Authentication 4)."""

    message = "API keys cannot access admin-only endpoints."
    code = "admin_only"

    def has_permission(self, request, view):
        return False


# ---- rate limiting ------------------------------------------------------------

class RateState:
    __slots__ = ("limit", "remaining", "reset", "retry_after")

    def __init__(self, limit, remaining, reset, retry_after):
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.retry_after = retry_after


class FixedWindowCounter:
    """Fixed windows per bucket: a window opens at a bucket's first request and lasts
    WINDOW_SECONDS; at most `limit` requests are admitted in it. Guarded by a lock."""

    def __init__(self):
        self._lock = threading.Lock()
        self._buckets = {}

    def hit(self, bucket, limit, window):
        now = time.time()
        with self._lock:
            start, count = self._buckets.get(bucket, (None, 0))
            if start is None or now >= start + window:
                start, count = now, 0
            allowed = count < limit
            if allowed:
                count += 1
            self._buckets[bucket] = (start, count)
            if len(self._buckets) > 50000:
                self._prune(now, window)
        reset_at = start + window
        retry_after = None if allowed else max(1, math.ceil(reset_at - now))
        return allowed, RateState(limit, max(0, limit - count), math.ceil(reset_at), retry_after)

    def _prune(self, now, window):
        for b in [b for b, (s, _) in self._buckets.items() if now >= s + window]:
            del self._buckets[b]


COUNTER = FixedWindowCounter()


class _WindowThrottle(BaseThrottle):
    limit = None

    def bucket(self, request):
        raise NotImplementedError

    def allow_request(self, request, view):
        bucket = self.bucket(request)
        if bucket is None:
            return True
        limit = self.get_limit()
        allowed, state = COUNTER.hit(bucket, limit, config.WINDOW_SECONDS)
        request.rate_state = state
        self._wait = state.retry_after
        return allowed

    def wait(self):
        return self._wait


class KeyRateThrottle(_WindowThrottle):
    """100 requests per window per API key (all authenticated requests)."""

    def get_limit(self):
        return config.PER_KEY_LIMIT

    def bucket(self, request):
        if request.auth is None:
            return None
        return ("key", request.auth["id"])


class AnonymousIpThrottle(_WindowThrottle):
    """20 requests per window per client IP for requests with no Authorization header.
    (Requests whose credential fails are not counted; see README.)"""

    def get_limit(self):
        return config.UNAUTHENTICATED_LIMIT

    def bucket(self, request):
        if "HTTP_AUTHORIZATION" in request.META:
            return None
        return ("ip", self.get_ident(request))
