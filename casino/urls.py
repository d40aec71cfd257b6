from django.contrib import admin
from django.urls import include, path

from casino import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("pit/", include("casino.pit.web_urls")),
    path("count/boxes/", include("casino.count.count_views")),
    path("api/v1/count/", include("casino.count.urls_api")),
    path("api/v1/", include("casino.pit.urls")),
    path("reports/", include("casino.reports.urls")),
    path("audit/", include("casino.audit.urls")),
    path("count/", include("casino.count.urls")),
    path("calculator/", include("casino.calculator.urls")),
]

# /api/ requests that no API view answers get the API's error shape (casino/api_errors.py).
handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.forbidden"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
