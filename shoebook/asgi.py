"""ASGI entry point: production (``make serve``: gunicorn with uvicorn workers). The live
streams (``shoebook.base.live``) are async generators on the event loop, so an open screen holds
no thread; the pages are Django's sync views, run in its thread pool."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")

application = get_asgi_application()

# Each worker listens for the other workers' changes from its start, not from its first stream.
from shoebook.base.live import start_listening  # noqa: E402 (needs the settings loaded above)

start_listening()
