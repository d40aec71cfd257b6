"""The count's API routes, mounted at /api/v1/count/ (casino/api_urls.py)."""
from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("boxes", api.BoxViewSet)
router.register("cases", api.CaseViewSet)
router.register("rotation", api.RotationViewSet)

urlpatterns = [path("", include(router.urls))]
