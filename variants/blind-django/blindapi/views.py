"""API views: DRF ViewSets over the in-memory store, scoped to the key's account."""
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from . import config
from .auth import AdminOnly, HasAccountKey
from .errors import ApiError, invalid_param, missing_param, not_found
from .pagination import single_query_value
from .serializers import (
    ApiKeyCreateSerializer,
    ApiKeySerializer,
    FieldSerializer,
    GovernanceModelSerializer,
    PicklistSerializer,
    RecordSerializer,
    SubmissionSerializer,
    TaxonomySerializer,
    WorkspaceSerializer,
)
from .store import STORE, utcnow


class ApiViewMixin:
    """Shared by every view of /api/v1/.

    DRF checks permissions before throttles; the document rate-limits requests that
    carry no Authorization header (20 per window per IP), and those fail the
    permission check (401). So throttles run between authentication and permissions.
    Every response a throttle has seen carries the X-RateLimit-* headers.
    """

    def initial(self, request, *args, **kwargs):
        self.format_kwarg = self.get_format_suffix(**kwargs)
        neg = self.perform_content_negotiation(request)
        request.accepted_renderer, request.accepted_media_type = neg
        version, scheme = self.determine_version(request, *args, **kwargs)
        request.version, request.versioning_scheme = version, scheme
        self.perform_authentication(request)
        self.check_throttles(request)
        self.check_permissions(request)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        state = getattr(request, "rate_state", None)
        if state is not None:
            response["X-RateLimit-Limit"] = str(state.limit)
            response["X-RateLimit-Remaining"] = str(state.remaining)
            response["X-RateLimit-Reset"] = str(state.reset)
        return response

    @property
    def account_id(self):
        return self.request.user.account_id


class AccountCollectionViewSet(ApiViewMixin, mixins.ListModelMixin,
                               mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """List (paginated) and retrieve one account's resources of a collection."""

    collection = None
    filters = {}  # query parameter -> resource member (exact match; empty = no filter)

    def get_queryset(self):
        items = STORE.list(self.account_id, self.collection)
        for param, member in self.filters.items():
            value = single_query_value(self.request, param)
            if value is not None:
                items = [o for o in items if o.get(member) == value]
        return items

    def get_object(self):
        obj = STORE.get(self.account_id, self.collection, self.kwargs["pk"])
        if obj is None:
            raise not_found()
        return obj


class WorkspaceViewSet(AccountCollectionViewSet):
    collection = "workspaces"
    serializer_class = WorkspaceSerializer


class GovernanceModelViewSet(AccountCollectionViewSet):
    collection = "governance_models"
    serializer_class = GovernanceModelSerializer


class RecordViewSet(AccountCollectionViewSet):
    collection = "records"
    serializer_class = RecordSerializer
    filters = {"status": "status", "service_id": "service_id"}


class TaxonomyViewSet(AccountCollectionViewSet):
    collection = "taxonomies"
    serializer_class = TaxonomySerializer


class FieldViewSet(AccountCollectionViewSet):
    collection = "fields"
    serializer_class = FieldSerializer
    filters = {"taxonomy_id": "taxonomy_id"}


class PicklistViewSet(AccountCollectionViewSet):
    collection = "picklists"
    serializer_class = PicklistSerializer


class SubmissionViewSet(mixins.CreateModelMixin, AccountCollectionViewSet):
    """POST /api/v1/submissions?workspace_id=... ; GET list filtered by
    workspace_id / taxonomy_id ; GET /api/v1/submissions/{id}."""

    collection = "submissions"
    serializer_class = SubmissionSerializer
    filters = {"workspace_id": "workspace_id", "taxonomy_id": "taxonomy_id"}

    def create(self, request, *args, **kwargs):
        workspace_param = single_query_value(request, "workspace_id")
        if workspace_param is None:
            raise missing_param("workspace_id")
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        body = serializer.validated_data
        if STORE.get(self.account_id, "workspaces", workspace_param) is None:
            raise not_found("Workspace not found.", param="workspace_id")
        if body["workspace_id"] != workspace_param:
            raise invalid_param(
                "workspace_id",
                "Body workspace_id differs from the workspace_id query parameter.",
                code="workspace_mismatch", path="workspace_id")
        if STORE.get(self.account_id, "taxonomies", body["taxonomy_id"]) is None:
            raise not_found("Taxonomy not found.", param="taxonomy_id")
        if STORE.count(self.account_id, "submissions") >= config.MAX_SUBMISSIONS_PER_ACCOUNT:
            raise ApiError(422, "plan_limit_exceeded",
                           "The plan's number of stored submissions is reached.",
                           code="limit_exceeded", param="submissions")
        submission = {
            "id": STORE.new_id("sub"),
            "workspace_id": body["workspace_id"],
            "taxonomy_id": body["taxonomy_id"],
            "rows": [{"data": row["data"]} for row in body["rows"]],
            "row_count": len(body["rows"]),
            "status": "received",
            "created_at": utcnow(),
        }
        STORE.add(self.account_id, "submissions", submission)
        return Response(self.get_serializer(submission).data, status=status.HTTP_201_CREATED)


class ApiKeyViewSet(ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                    mixins.CreateModelMixin, mixins.DestroyModelMixin,
                    viewsets.GenericViewSet):
    """POST /api/v1/api_keys {name} -> 201 with `key` once; GET lists (name,
    last_used_at, never the secret); DELETE /api/v1/api_keys/{id} -> 204, revoked."""

    def get_serializer_class(self):
        return ApiKeyCreateSerializer if self.action == "create" else ApiKeySerializer

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if getattr(self.request, "user", None) is not None:
            context["account_id"] = self.account_id
        return context

    def get_queryset(self):
        return STORE.list_keys(self.account_id)

    def get_object(self):
        key = STORE.get_key(self.account_id, self.kwargs["pk"])
        if key is None:
            raise not_found("API key not found.")
        return key

    def perform_create(self, serializer):
        if STORE.key_count(self.account_id) >= config.MAX_KEYS_PER_ACCOUNT:
            raise ApiError(422, "plan_limit_exceeded",
                           "The plan's number of API keys is reached.",
                           code="limit_exceeded", param="api_keys")
        serializer.save()

    def perform_destroy(self, instance):
        if not STORE.delete_key(self.account_id, instance["id"]):
            raise not_found("API key not found.")


class AdminView(ApiViewMixin, APIView):
    """/api/v1/admin/...: admin-only; a valid key gets 403 authorization_error."""

    permission_classes = [HasAccountKey, AdminOnly]

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise PermissionDenied(AdminOnly.message, code=AdminOnly.code)

    options = http_method_not_allowed


class UnknownPathView(ApiViewMixin, APIView):
    """Any other path under /api/v1/: authenticated like every endpoint, then 404."""

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise NotFound()

    options = http_method_not_allowed
