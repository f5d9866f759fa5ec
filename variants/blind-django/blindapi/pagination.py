"""DRF page-number pagination adapted to the document's envelope and bounds."""
import re

from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from . import config
from .errors import invalid_param

_DIGITS = re.compile(r"[0-9]+")  # ASCII digits only (int() would also take '٣', '1_0', ' 7')
_MAX_DIGITS = 4000  # Python refuses to convert longer decimal strings


def single_query_value(request, name):
    """The one value of a query parameter: None if absent or empty; 422 if repeated."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    if len(values) > 1:
        raise invalid_param(name, "Parameter '%s' was given more than once." % name,
                            code="repeated_param")
    return values[0] if values[0] != "" else None


def integer_query_param(request, name, default, minimum, maximum=None):
    raw = single_query_value(request, name)
    if raw is None:
        return default
    if not _DIGITS.fullmatch(raw) or len(raw.lstrip("0")) > _MAX_DIGITS:
        raise invalid_param(name, "Parameter '%s' must be an integer." % name,
                            code="invalid_integer")
    value = int(raw)
    if value < minimum or (maximum is not None and value > maximum):
        if maximum is None:
            bounds = "at least %d" % minimum
        else:
            bounds = "from %d to %d" % (minimum, maximum)
        raise invalid_param(name, "Parameter '%s' must be %s." % (name, bounds),
                            code="out_of_range")
    return value


class EnvelopePagination(PageNumberPagination):
    """`page` (1-indexed, default 1) and `limit` (1..10000, default 100).

    Output: {"items": [...], "has_more": bool, "total_count": int}. A page past the
    end is an empty page with has_more false and the same total_count.
    """

    page_query_param = "page"
    page_size_query_param = "limit"
    page_size = config.DEFAULT_PAGE_SIZE
    max_page_size = config.MAX_PAGE_SIZE

    def paginate_queryset(self, queryset, request, view=None):
        page = integer_query_param(request, self.page_query_param, 1, 1)
        limit = integer_query_param(request, self.page_size_query_param,
                                    self.page_size, 1, self.max_page_size)
        items = list(queryset)
        self.total_count = len(items)
        start = (page - 1) * limit
        self.has_more = start + limit < self.total_count
        self.request = request
        return items[start:start + limit] if start < self.total_count else []

    def get_paginated_response(self, data):
        return Response({
            "items": data,
            "has_more": self.has_more,
            "total_count": self.total_count,
        })
