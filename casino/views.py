from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render


def home(request: HttpRequest) -> HttpResponse:
    """Signed-in staff go straight to their tables, counters to the boxes to count; others see
    what this is and a login link."""
    if request.user.is_authenticated and request.user.has_perm("count.count_box"):
        return redirect("counting:boxes")
    if request.user.is_authenticated:
        return redirect("pit:tables")
    return render(request, "home.html")


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and uptime checks: the process is up and serving."""
    return HttpResponse("ok", content_type="text/plain")
