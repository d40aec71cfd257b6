"""The count room's screens under /count/ (the API for counting and cases is under /api/v1/)."""
from django.urls import path

from . import views

app_name = "count"
urlpatterns = [
    path("cases/", views.case_list, name="cases"),
    path("cases/<int:pk>/", views.case, name="case"),
    path("cases/<int:pk>/<str:language>.pdf", views.case_download, name="case_pdf"),
    path("cases/<int:pk>/<str:step>", views.case_step, name="case_step"),
    path("rotation/", views.rotation, name="rotation"),
    path("rotation/<int:pk>/close", views.rotation_close, name="rotation_close"),
]
