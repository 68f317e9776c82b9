from __future__ import annotations

from django.urls import reverse


def test_rules_and_odds_page_shows_the_default_rule_set(client):
    response = client.get(reverse("games:rules_and_odds"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "8 decks" in body
    assert "45.8597423" in body  # Banker wins, per cent
    assert "1.05791" in body  # Banker edge at 5%


def test_rules_and_odds_page_prices_any_rule_set(client):
    response = client.get(
        reverse("games:rules_and_odds"), {"decks": "6", "commission": "4", "tie_pays": "9"}
    )
    body = response.content.decode()
    assert "6 decks — Banker 1:1 less 4% commission; Tie 9:1" in body
    assert "0.59720" in body and "4.93129" in body


def test_a_bad_rule_set_re_renders_the_form_with_the_reason(client):
    response = client.get(
        reverse("games:rules_and_odds"), {"commission": "5", "no_commission": "ez"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "no-commission game" in body
    assert "House edge (%)" not in body


def test_home_page_links_to_the_rules(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert reverse("games:rules_and_odds") in response.content.decode()
