"""Serializers: output shapes of every resource and validation of the two request bodies."""
import math

from rest_framework import serializers

from . import config
from .store import STORE


def _has_lone_surrogate(text):
    # Python decodes "\ud800" in JSON to a lone surrogate; it cannot be encoded as UTF-8.
    return any("\ud800" <= ch <= "\udfff" for ch in text)


class StrictCharField(serializers.CharField):
    """A JSON string and nothing else (DRF's CharField would turn 12 into "12")."""

    default_error_messages = {
        "invalid": "Must be a string.",
        "surrogate": "Must be valid Unicode text.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if _has_lone_surrogate(data):
            self.fail("surrogate")
        return super().to_internal_value(data)


class JSONObjectField(serializers.Field):
    """Any JSON object, checked so that it can always be stored and rendered back:
    nesting up to MAX_DATA_DEPTH, finite numbers, valid Unicode keys and strings."""

    default_error_messages = {
        "not_a_dict": "Must be a JSON object.",
        "too_deep": "Nesting deeper than %d levels is not accepted." % config.MAX_DATA_DEPTH,
        "invalid_number": "Numbers must be finite.",
        "invalid_string": "Strings must be valid Unicode text.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("not_a_dict")
        stack = [(data, 1)]
        while stack:
            value, depth = stack.pop()
            if depth > config.MAX_DATA_DEPTH:
                self.fail("too_deep")
            if isinstance(value, dict):
                for k, v in value.items():
                    if _has_lone_surrogate(k):
                        self.fail("invalid_string")
                    if isinstance(v, (dict, list)):
                        stack.append((v, depth + 1))
                    else:
                        self._check_scalar(v)
            else:  # list
                for v in value:
                    if isinstance(v, (dict, list)):
                        stack.append((v, depth + 1))
                    else:
                        self._check_scalar(v)
        return data

    def _check_scalar(self, v):
        if isinstance(v, float) and not math.isfinite(v):
            self.fail("invalid_number")
        if isinstance(v, str) and _has_lone_surrogate(v):
            self.fail("invalid_string")

    def to_representation(self, value):
        return value


# ---- read-only resources ---------------------------------------------------

class WorkspaceSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()


class GovernanceModelSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.CharField()
    service_id = serializers.CharField()
    data = serializers.JSONField()


class TaxonomySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_null=True)
    field_ids = serializers.ListField(child=serializers.CharField())


class PicklistOptionSerializer(serializers.Serializer):
    value = serializers.CharField()
    label = serializers.CharField()


class PicklistSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    options = PicklistOptionSerializer(many=True)


class FieldSerializer(serializers.Serializer):
    id = serializers.CharField()
    taxonomy_id = serializers.CharField()
    name = serializers.CharField()
    key = serializers.CharField()
    type = serializers.CharField()
    required = serializers.BooleanField()
    picklist_id = serializers.CharField(allow_null=True)


# ---- API keys ------------------------------------------------------------------

class ApiKeySerializer(serializers.Serializer):
    """A key as listed: never the secret (only its hash is kept anyway)."""

    id = serializers.CharField(read_only=True)
    name = StrictCharField(max_length=config.MAX_KEY_NAME_LENGTH)
    created_at = serializers.DateTimeField(read_only=True)
    last_used_at = serializers.DateTimeField(read_only=True, allow_null=True)


class ApiKeyCreateSerializer(ApiKeySerializer):
    """Creation: validates {name}; the response adds `key`, the full secret, once."""

    key = serializers.CharField(read_only=True)

    def create(self, validated_data):
        key, secret = STORE.create_key(self.context["account_id"], validated_data["name"])
        key["key"] = secret
        return key


# ---- submissions -------------------------------------------------------------------

class SubmissionRowSerializer(serializers.Serializer):
    data = JSONObjectField()


class SubmissionSerializer(serializers.Serializer):
    id = serializers.CharField(read_only=True)
    workspace_id = StrictCharField()
    taxonomy_id = StrictCharField()
    rows = serializers.ListField(
        child=SubmissionRowSerializer(),
        allow_empty=False,
        max_length=config.MAX_ROWS_PER_SUBMISSION,
    )
    row_count = serializers.IntegerField(read_only=True)
    status = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
