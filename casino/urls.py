from django.contrib import admin
from django.urls import include, path

from casino import views
from casino.count.urls import counting

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("pit/", include("casino.pit.urls")),
    path("count/boxes/", include(counting)),
    path("count/", include("casino.count.urls")),
    path("reports/", include("casino.reports.urls")),
    path("audit/", include("casino.audit.urls")),
    path("calculator/", include("casino.calculator.urls")),
    path("floor/", include("casino.floor.urls")),
    path("aml/", include("casino.aml.urls")),
    path("api/v1/", include("casino.api_urls")),
]

# /api/ requests that no API view answers get the API's error shape (casino/api_errors.py).
handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.forbidden"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
