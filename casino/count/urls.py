"""The count room's screens (the API is api_urls.py): the counters' boxes under /count/boxes/
(namespace "counting", box_views.py), the variance cases and the rotation log under /count/
(namespace "count", case_views.py and rotation_views.py)."""
from django.urls import path

from . import box_views, case_views, rotation_views

app_name = "count"
urlpatterns = [
    path("cases/", case_views.case_list, name="cases"),
    path("cases/<int:pk>/", case_views.case, name="case"),
    path("cases/<int:pk>/<str:language>.pdf", case_views.case_download, name="case_pdf"),
    path("cases/<int:pk>/<str:step>", case_views.case_step, name="case_step"),
    path("rotation/", rotation_views.rotation, name="rotation"),
    path("rotation/<int:pk>/close", rotation_views.rotation_close, name="rotation_close"),
    path("rotation/<int:pk>/relieve", rotation_views.rotation_relieve, name="rotation_relieve"),
    path("rotation/draft", rotation_views.rotation_draft, name="rotation_draft"),
]

# Included by casino/urls.py as include(counting) at /count/boxes/.
counting = ([
    path("", box_views.boxes, name="boxes"),
    path("<int:pk>/", box_views.box, name="box"),
    path("<int:pk>/recount", box_views.recount, name="recount"),
    path("<int:pk>/approve-recount", box_views.decide, {"decision": "approve"}, name="approve_recount"),
    path("<int:pk>/accept-recount", box_views.decide, {"decision": "accept"}, name="accept_recount"),
], "counting")
