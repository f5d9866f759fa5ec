"""DRF's JSONParser with a body-size ceiling and protection against deep nesting."""
from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .errors import RequestTooLarge


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        if request is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                raise RequestTooLarge()
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("Request body JSON is nested too deeply.", code="too_deep")
