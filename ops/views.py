from django.contrib.admin.views.decorators import staff_member_required
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.watchdog import stall_seconds

from .health import health
from .status import status


@require_GET
@never_cache
def healthz(request):
    """For load balancers: 200 when the database, Redis and the channel layer answer."""
    report = health()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


@staff_member_required
@never_cache
def status_page(request):
    return render(request, "ops/status.html",
                  {"status": status(), "stall_seconds": stall_seconds()})
