"""The site as an installable app: its web manifest, its service worker and the page the worker
shows for any page asked for without a connection, all served from the site's root (a service
worker controls only the pages under the address it is served from). A guest's own manifest is
served beside the guest's page (``ledger.guests.views.guests``)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from shoebook.base.webapp import manifest_response, offline_file_urls, static_prefix
from shoebook.middleware import MSG_BAD_REQUEST, MSG_NOT_UTF8, MSG_TOO_LARGE


@login_not_required
@require_GET
@cache_control(max_age=86400, public=True)
def web_manifest(request: HttpRequest) -> JsonResponse:
    """Hosts' and dealers' app: it opens at the events."""
    return manifest_response(start_url=reverse("ledger:event_list"), scope="/")


@login_not_required
@require_GET
@cache_control(no_cache=True)  # a new worker is picked up on the next visit
def service_worker(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "service-worker.js",
        {
            "static_prefix": static_prefix(),
            "offline_files": json.dumps(offline_file_urls()),
        },
        content_type="text/javascript; charset=utf-8",
    )


@login_not_required
@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page asked for without a connection (it keeps a copy when it
    installs): the tables this device keeps, listed by its script from the device's storage.
    Whoever asks, the page is the same and carries nothing of theirs (no name, no form token):
    it is kept on the device."""
    return render(request, "offline.html")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django could not read (a form in another charset, too many fields, too large).
    Django's own answer asks for the form's token and so reads the form again, which fails again
    and becomes a 500: this one reads nothing of the request."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        reason = MSG_TOO_LARGE
    elif "UTF-8" in str(exception):
        reason = MSG_NOT_UTF8
    else:
        reason = MSG_BAD_REQUEST
    return HttpResponseBadRequest(reason, content_type="text/plain; charset=utf-8")


class LogoutView(auth_views.LogoutView):
    """Django's log-out, which also asks the browser to forget what this device kept of the
    site: the service worker's caches (table pages) and the storage (the tables' outboxes and
    the list of tables kept). ``static/js/site.js`` clears them too, for a browser that ignores
    the header; the session cookie is gone already."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


logout = LogoutView.as_view()
