"""The site as an installable app: its web manifest and its service worker, both served from the
site's root (a service worker controls only the pages under the address it is served from)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME_COLOUR = "#102a1e"


@login_not_required
@require_GET
@cache_control(max_age=86400, public=True)
def web_manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    icons.append({"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"})
    manifest = {
        "name": "Shoebook",
        "short_name": "Shoebook",
        "description": "Baccarat nights: live hands, settlement, balances.",
        "start_url": reverse("ledger:event_list"),
        "scope": "/",
        "display": "standalone",
        "background_color": THEME_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@login_not_required
@require_GET
@cache_control(no_cache=True)  # a new worker is picked up on the next visit
def service_worker(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "service-worker.js",
        {"static_prefix": static("")},
        content_type="text/javascript; charset=utf-8",
    )
