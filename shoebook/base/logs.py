"""Log lines that say what happened in one line."""

from __future__ import annotations

import logging


class ClientErrorsOnOneLine(logging.Filter):
    """A request the client got wrong — a 4xx Django logs, or its security loggers: a
    multipart body without a boundary, too many fields, a bad host — is logged as one line:
    its traceback is Django's parser refusing the body, and says nothing of the site's code.
    (An attacker's 2,000 odd bodies wrote 200 tracebacks.) The site's own errors keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        client_error = 400 <= getattr(record, "status_code", 0) < 500  # django.request's
        if record.name.startswith("django.security") or client_error:
            record.exc_info = None
            record.exc_text = None
        return True
