"""Log lines that say what happened in one line."""

from __future__ import annotations

import logging
import re

# A private link's token in a path: 20 or more URL-safe characters between slashes (an id is
# digits, a word of a path is shorter). Tokens are 43; a link of a week or a feed is worth keeping
# out of a log that others may read.
_TOKEN_IN_PATH = re.compile(r"/[A-Za-z0-9_-]{20,}(?=/|$|\?)")


class ClientErrorsOnOneLine(logging.Filter):
    """A request the client got wrong — a 4xx Django logs, or its security loggers: a
    multipart body without a boundary, too many fields, a bad host — is logged as one line:
    its traceback is Django's parser refusing the body, and says nothing of the site's code.
    (An attacker's 2,000 odd bodies wrote 200 tracebacks.) The site's own errors keep theirs.
    A private link's token in the line's path is left out: a mistyped password on an invitation
    is a 400 whose path holds a link still good for a week."""

    def filter(self, record: logging.LogRecord) -> bool:
        client_error = 400 <= getattr(record, "status_code", 0) < 500  # django.request's
        if record.name.startswith("django.security") or client_error:
            record.exc_info = None
            record.exc_text = None
        if isinstance(record.args, tuple):  # "Bad Request: %s" with the request's path
            record.args = tuple(
                _TOKEN_IN_PATH.sub("/…", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN_IN_PATH.sub("/…", record.msg)
        return True
