"""The players' screens under /pit/players/ (names `pit:patron*`): see patron_views.py."""
from django.urls import path

from . import patron_views

urlpatterns = [
    path("", patron_views.patron_list, name="patrons"),
    path("find", patron_views.patron_find, name="patron_find"),
    path("<int:pk>/", patron_views.patron_detail, name="patron"),
    path("<int:pk>/identify", patron_views.patron_identify, name="patron_identify"),
]
