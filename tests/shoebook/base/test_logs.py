"""A request the client got wrong is one log line (shoebook.base.logs), as the site logs it."""

from __future__ import annotations

import io
import logging
import logging.config

from django.conf import settings
from django.test import Client


def test_a_malformed_body_is_one_log_line_and_our_own_errors_keep_their_traceback(db):
    stream = io.StringIO()
    config = {**settings.LOGGING, "handlers": {"console": {
        **settings.LOGGING["handlers"]["console"], "stream": stream}}}  # fmt: skip
    logging.config.dictConfig(config)
    try:
        answer = Client().post(
            "/accounts/login/", b"x", content_type="multipart/form-data; charset=utf-8"
        )  # no boundary: Django's parser refuses it
        assert answer.status_code == 400
        logging.getLogger("shoebook").error("ours", exc_info=ValueError("kept"))
    finally:
        logging.config.dictConfig(settings.LOGGING)
    logged = stream.getvalue()
    refused = logged.split("ours")[0]
    assert "/accounts/login/" in refused and "Traceback" not in refused  # one line
    assert "ValueError: kept" in logged.split("ours")[1]
