from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and uptime checks: the process is up and serving."""
    return HttpResponse("ok", content_type="text/plain")
