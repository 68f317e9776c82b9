"""The site as an installable app, the parts its views share: the web manifest (one per role: a
host's app starts at the events, a guest's at their own page) and the static files the service
worker keeps when it installs, so that a table page seen once online opens offline."""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_htmx.jinja import htmx_script

logger = logging.getLogger(__name__)

THEME_COLOUR = "#102a1e"
MSG_DESCRIPTION = _("Baccarat nights: live hands, settlement, balances.")
ICON_SIZES = (192, 512)
MASKABLE_ICON = "icons/icon-maskable-512.png"  # drawn by scripts/make-icons

# What a table page loads besides itself (and htmx, read from its template tag below). The worker
# keeps them when it installs: the visit that installs it is one it did not answer, so nothing
# that visit loaded is in its cache. A name not among the static files (a script not written
# yet) is left out, with a warning, rather than failing the worker's install or its request.
OFFLINE_FILES = (
    "css/site.css",
    "js/theme.js",
    "js/site.js",
    "js/live.js",
    "js/offline.js",
    "js/table.js",
    "js/table_state.js",
    "js/tournament.js",
    "favicon.svg",
    *(f"icons/icon-{size}.png" for size in ICON_SIZES),
    MASKABLE_ICON,
)

_SCRIPT_SOURCE = re.compile(r'\ssrc="([^"]+)"')


def static_prefix() -> str:
    """Where the static files are served from (``/static/``): the worker keeps what it fetches
    there. Not ``static("")``, which the manifest storage refuses (an empty name has no entry)."""
    return str(settings.STATIC_URL)


def offline_file_urls() -> list[str]:
    """The URLs (hashed in production) of ``OFFLINE_FILES`` that exist, and htmx's scripts as
    ``{% htmx_script %}`` in ``base.html`` loads them."""
    urls = [url for url in map(_static_url_if_present, OFFLINE_FILES) if url]
    urls += _SCRIPT_SOURCE.findall(str(htmx_script()))
    return list(dict.fromkeys(urls))  # the worker's cache.addAll refuses a URL twice


def _static_url_if_present(name: str) -> str | None:
    if isinstance(staticfiles_storage, ManifestFilesMixin):
        try:  # production: the manifest written by collectstatic knows every file
            return static(name)
        except ValueError:
            pass
    elif finders.find(name):
        return static(name)
    logger.warning("The service worker cannot keep %s: no such static file.", name)
    return None


def manifest_response(*, start_url: str, scope: str) -> JsonResponse:
    """The web manifest of an app that opens at ``start_url`` and keeps to ``scope``. The start
    address is also the app's identity: a guest's app is not the host's, nor another guest's."""
    icons: list[dict[str, str]] = [
        {
            "src": static(f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }
        for size in ICON_SIZES
    ]
    icons.append(
        {
            "src": static(MASKABLE_ICON),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    icons.append(
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}
    )
    manifest = {
        "id": start_url,
        "name": "Shoebook",
        "short_name": "Shoebook",
        "description": str(MSG_DESCRIPTION),  # in the language of the page that links it
        "lang": get_language() or settings.LANGUAGE_CODE,
        "start_url": start_url,
        "scope": scope,
        "display": "standalone",
        "background_color": THEME_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
