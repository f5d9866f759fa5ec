"""The document's error envelope, for DRF views and for Django's own error paths.

Every failed request answers {"error": {"type", "code", "message", "param", "path"}}.
DRF's EXCEPTION_HANDLER setting points at `exception_handler`; Django's handler400/
403/404/500 (urls.py) use the same builder for requests that never reach a DRF view.
"""
import json
import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

logger = logging.getLogger("blindapi")

TYPE_BY_STATUS = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "authorization_error",
    404: "not_found_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
    500: "api_error",
}

# DRF validation codes -> the codes this API publishes (see README).
CODE_MAP = {
    "required": "missing_param",
    "null": "invalid_type",
    "invalid": "invalid_type",
    "not_a_list": "invalid_type",
    "not_a_dict": "invalid_type",
    "blank": "empty_value",
    "empty": "empty_value",
    "max_length": "too_long",
    "min_length": "too_short",
}


class ApiError(exceptions.APIException):
    """An error whose envelope members are decided by the view."""

    def __init__(self, status_code, type_, message, code=None, param=None, path=None):
        super().__init__(detail=message)
        self.status_code = status_code
        self.error_type = type_
        self.error_code = code
        self.param = param
        self.path = path


def missing_param(name, path=None):
    return ApiError(400, "invalid_request_error",
                    "Missing required parameter '%s'." % name,
                    code="missing_param", param=name, path=path)


def invalid_param(name, message, code="invalid_value", path=None):
    return ApiError(422, "invalid_request_error", message, code=code, param=name, path=path)


def not_found(message="Resource not found.", param=None):
    return ApiError(404, "not_found_error", message, code=None, param=param)


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "Request body is too large."
    default_code = "request_too_large"


def envelope(type_, message, code=None, param=None, path=None, omit_path=False):
    err = {"type": type_, "code": code, "message": message, "param": param}
    if not omit_path:
        err["path"] = path
    return {"error": err}


# ---- ValidationError flattening ----------------------------------------

def _leaves(detail, parts):
    """Yield (location parts, ErrorDetail) for every error in a DRF error structure."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            sub = parts if key == "non_field_errors" else parts + [key]
            yield from _leaves(value, sub)
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                yield from _leaves(value, parts + [i])
            else:
                yield parts, value
    else:
        yield parts, detail


def _path_string(parts):
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += "[%d]" % p
        else:
            out += ("." if out else "") + str(p)
    return out or None


def validation_to_error(exc):
    """Pick the error to report: a missing field (400) before an invalid one (422)."""
    leaves = list(_leaves(exc.detail, []))
    if not leaves:
        return 400, envelope("invalid_request_error", "Invalid request.", code="invalid_body")
    chosen = None
    for parts, d in leaves:
        if getattr(d, "code", None) == "required":
            chosen = (parts, d)
            break
    if chosen is None:
        chosen = leaves[0]
    parts, d = chosen
    drf_code = getattr(d, "code", None) or "invalid"
    param = str(parts[0]) if parts else None
    path = _path_string(parts)
    if param is None:
        # an error about the body as a whole (not an object, null, ...)
        return 400, envelope("invalid_request_error",
                             "Request body must be a JSON object.", code="invalid_body")
    message = "%s: %s" % (path, str(d))
    if drf_code == "required":
        return 400, envelope("invalid_request_error", message, code="missing_param",
                             param=param, path=path)
    return 422, envelope("invalid_request_error", message,
                         code=CODE_MAP.get(drf_code, drf_code), param=param, path=path)


# ---- DRF exception handler ----------------------------------------------

def exception_handler(exc, context):
    headers = {}
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, ApiError):
        status_code = exc.status_code
        body = envelope(exc.error_type, str(exc.detail), exc.error_code, exc.param, exc.path)
    elif isinstance(exc, exceptions.ValidationError):
        status_code, body = validation_to_error(exc)
    elif isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait or 1)
        status_code = 429
        headers["Retry-After"] = "%d" % wait
        body = envelope("rate_limit_error",
                        "Too many requests. Retry in %d seconds." % wait,
                        code="rate_limit_exceeded")
    elif isinstance(exc, exceptions.NotAuthenticated):
        status_code = 401
        body = envelope("authentication_error",
                        "Missing Authorization header. Send 'Authorization: Bearer <API key>'.",
                        code="missing_authorization")
    elif isinstance(exc, exceptions.AuthenticationFailed):
        status_code = 401
        body = envelope("authentication_error", str(exc.detail),
                        code=getattr(exc, "error_code", None))
    elif isinstance(exc, exceptions.PermissionDenied):
        status_code = 403
        body = envelope("authorization_error", str(exc.detail),
                        code=getattr(exc.detail, "code", None) or "permission_denied")
    elif isinstance(exc, exceptions.NotFound):
        status_code = 404
        body = envelope("not_found_error", "Resource not found.")
    elif isinstance(exc, exceptions.MethodNotAllowed):
        status_code = 405
        body = envelope("invalid_request_error",
                        "Method not allowed on this path.", code="method_not_allowed")
    elif isinstance(exc, exceptions.NotAcceptable):
        status_code = 406
        body = envelope("invalid_request_error",
                        "Responses are JSON; send Accept: application/json.",
                        code="not_acceptable")
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        status_code = 415
        body = envelope("invalid_request_error",
                        "Request bodies must be sent with Content-Type: application/json.",
                        code="unsupported_media_type")
    elif isinstance(exc, RequestTooLarge):
        status_code = 413
        body = envelope("invalid_request_error", str(exc.detail), code="request_too_large")
    elif isinstance(exc, exceptions.ParseError):
        status_code = 400
        if getattr(exc.detail, "code", None) == "too_deep":
            body = envelope("invalid_request_error", str(exc.detail), code="too_deep")
        else:
            body = envelope("invalid_request_error", "Request body is not valid JSON.",
                            code="invalid_json")
    elif isinstance(exc, SuspiciousOperation):
        status_code = 400
        body = envelope("invalid_request_error", "Bad request.", code="bad_request")
    elif isinstance(exc, exceptions.APIException):
        status_code = exc.status_code
        type_ = TYPE_BY_STATUS.get(status_code,
                                   "api_error" if status_code >= 500 else "invalid_request_error")
        body = envelope(type_, str(exc.detail), code=exc.default_code)
    else:
        logger.exception("Unexpected error while serving a request")
        status_code = 500
        body = envelope("api_error", "An unexpected error occurred.")

    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    return Response(body, status=status_code, headers=headers)


# ---- Django-level handlers (requests that never reach a DRF view) ----------

def json_response(status_code, body):
    return HttpResponse(json.dumps(body), status=status_code, content_type="application/json")


def handler400(request, exception=None):
    return json_response(400, envelope("invalid_request_error", "Bad request.", code="bad_request"))


def handler403(request, exception=None):
    return json_response(403, envelope("authorization_error", "Forbidden.",
                                       code="permission_denied"))


def handler404(request, exception=None):
    return json_response(404, envelope("not_found_error", "Resource not found."))


def handler500(request):
    return json_response(500, envelope("api_error", "An unexpected error occurred."))
