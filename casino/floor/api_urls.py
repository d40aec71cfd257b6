"""The alerts' API routes, mounted at /api/v1/alerts/ (casino/api_urls.py)."""
from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("", api.AlertViewSet, basename="alert")

urlpatterns = [path("", include(router.urls))]
