"""URL configuration (ROOT_URLCONF)."""
from django.urls import include, path, re_path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter(trailing_slash=False)
router.register("workspaces", views.WorkspaceViewSet, basename="workspace")
router.register("governance_models", views.GovernanceModelViewSet, basename="governance-model")
router.register("records", views.RecordViewSet, basename="record")
router.register("taxonomies", views.TaxonomyViewSet, basename="taxonomy")
router.register("fields", views.FieldViewSet, basename="field")
router.register("picklists", views.PicklistViewSet, basename="picklist")
router.register("submissions", views.SubmissionViewSet, basename="submission")
router.register("api_keys", views.ApiKeyViewSet, basename="api-key")

urlpatterns = [
    path("api/v1/", include(router.urls)),
    re_path(r"^api/v1/admin(?:/[\s\S]*)?$", views.AdminView.as_view()),
    # everything else under the version prefix: authenticated, then 404 with the envelope
    re_path(r"^api/v1(?:/[\s\S]*)?$", views.UnknownPathView.as_view()),
]

handler400 = "blindapi.errors.handler400"
handler403 = "blindapi.errors.handler403"
handler404 = "blindapi.errors.handler404"
handler500 = "blindapi.errors.handler500"
