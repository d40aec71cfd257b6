import datetime as dt

from django.urls import path, register_converter

from . import views


class DateConverter:
    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


register_converter(DateConverter, "isodate")

app_name = "reports"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:casino_id>/<isodate:day>/daily-report.pdf", views.download, name="download"),
    path("<int:casino_id>/<isodate:day>/close", views.close, name="close"),
    path("<int:casino_id>/<isodate:day>/reopen", views.reopen, name="reopen"),
]
