"""What the console log writes of a request the client got wrong."""

from __future__ import annotations

import logging

from shoebook.base.logs import ClientErrorsOnOneLine

TOKEN = "zLkl45DugpUMfzcZVmBkI1ze-dD0fvc5eaKdq5EUBAs"  # 43 URL-safe characters, as issued


def written(message: str, *args: object, status: int = 400) -> str:
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, message, args, None)
    record.status_code = status
    assert ClientErrorsOnOneLine().filter(record)
    return record.getMessage()


def test_a_private_link_s_token_is_left_out_of_a_client_error_s_line():
    # A mistyped password on a co-host's invitation: 400, and the link is good for a week.
    line = written("Bad Request: %s", f"/join/{TOKEN}/")
    assert TOKEN not in line and line == "Bad Request: /join/…/"
    feed = written("Not Found: %s", f"/series/3/g/12/{TOKEN}/series.ics", status=404)
    assert feed == "Not Found: /series/3/g/12/…/series.ics"


def test_ids_and_words_of_a_path_stay():
    assert written("Bad Request: %s", "/events/123/shoes/4/") == "Bad Request: /events/123/shoes/4/"
    assert written("Forbidden: %s", "/people/invite/", status=403) == "Forbidden: /people/invite/"
