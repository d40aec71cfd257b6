"""The suspicious-transaction cases' screens under /aml/ (views.py; the API is api_urls.py)."""
from django.urls import path

from . import views

app_name = "aml"
urlpatterns = [
    path("", views.case_list, name="cases"),
    path("open/<int:patron_id>/", views.open_case, name="open"),
    path("<int:pk>/", views.case, name="case"),
    path("<int:pk>/<str:language>.pdf", views.case_download, name="case_pdf"),
    path("<int:pk>/<str:step>", views.case_step, name="case_step"),
]
