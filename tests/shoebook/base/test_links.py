"""A private link's answer and its token: the address never leaves as a referrer or sits in a
shared cache, and a token matches only the link's own."""

from __future__ import annotations

from django.http import HttpResponse

from shoebook.base.links import private_link, same_token


def test_a_private_link_s_answer_keeps_its_address_to_itself():
    answer = private_link(HttpResponse("page"))
    assert answer["Referrer-Policy"] == "no-referrer"
    assert answer["Cache-Control"] == "private, no-store"
    posted_back = private_link(HttpResponse("form"), referrer="same-origin", cache="no-store")
    assert (posted_back["Referrer-Policy"], posted_back["Cache-Control"]) == (
        "same-origin",
        "no-store",
    )


def test_a_token_matches_only_the_link_s_own_and_never_an_empty_one():
    assert same_token("a1b2c3", "a1b2c3")
    assert not same_token("a1b2c3", "a1b2c4")
    assert not same_token("a1b2c3", "A1B2C3")
    assert not same_token("a1b2c3", "a1b2c3 ")
    assert not same_token("", "")  # a link never made, or revoked, opens nothing
    assert not same_token("", "anything")
