"""The players' API routes, mounted at /api/v1/players/ (casino/pit/api_urls.py): patron_api.py."""
from rest_framework.routers import SimpleRouter

from . import patron_api

router = SimpleRouter()
router.register("", patron_api.PatronViewSet, basename="patron")

urlpatterns = router.urls
