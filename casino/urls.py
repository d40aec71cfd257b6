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
    path("api/v1/", include("casino.pit.urls")),
    path("reports/", include("casino.reports.urls")),
    path("audit/", include("casino.audit.urls")),
]
