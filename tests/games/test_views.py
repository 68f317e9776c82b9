from __future__ import annotations

import pytest
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


def _text(response) -> str:
    return " ".join(response.content.decode().split())


def test_the_page_prices_both_hands_under_each_game_s_drawing_rules(client):
    body = _text(client.get(reverse("games:rules_and_odds")))
    # 8 decks. Punto Banco: the Player bet and the Banker bet at 5% (docs/rules.md, "Exact odds").
    assert "<td>Punto Banco</td><td>−1.23508</td><td>+1.23508</td><td>−1.05791</td>" in body
    # Chemin de fer: with best play the eight-deck coup is Punto Banco's tableau, so the
    # ponte's and the bank's figures are the same (games.guest_banked.chemin_odds' tests).
    assert "<td>Chemin de fer</td><td>−1.23508</td><td>+1.23508</td><td>−1.05791</td>" in body
    # Baccara banque: one bank against two tableaux (games.guest_banked.banque_odds' tests).
    assert "<td>Baccara banque</td><td>−0.87344</td><td>+0.87344</td>" in body


def test_the_page_states_each_game_s_best_choices(client):
    body = _text(client.get(reverse("games:rules_and_odds"), {"decks": "6"}))
    assert 'id="chemin-de-fer"' in body and 'id="baccara-banque"' in body
    assert '<td>Ponte</td><td>5</td><td class="name wrap">Draws</td>' in body
    assert (
        '<td>Banker</td><td>3 against a third card of 9</td><td class="name wrap">Draws</td>'
        in body
    )
    # Six decks: on 5 against a 4 the banker draws, except holding 1+4 or 2+3 (chemin_odds).
    assert (
        '5 against a third card of 4</td><td class="name wrap">Draws; holding 1+4, 2+3: Stands'
        in body
    )
    assert "<dt>Tableau 1's ponte on 5</dt><dd>Draws</dd>" in body
    # The banker's play in Baccara banque: four totals where he ever chooses, 12 × 12 cells.
    assert body.count('<table class="banque-grid">') == 4
    assert "Banker on 3" in body and "Banker on 6" in body and "Banker on 7" not in body
    assert body.count('class="chosen"') == 164


def test_the_guest_banked_figures_follow_the_shoe(client):
    one = _text(client.get(reverse("games:rules_and_odds"), {"decks": "1"}))
    eight = _text(client.get(reverse("games:rules_and_odds"), {"decks": "8"}))
    assert "<td>Baccara banque</td><td>−0.92067</td>" in one
    assert "<td>Baccara banque</td><td>−0.92067</td>" not in eight


@pytest.mark.parametrize("decks", ["1", "8"])
def test_the_rules_page_reads_nothing_from_the_database(
    client, host, django_assert_max_num_queries, decks
):
    client.get(reverse("games:rules_and_odds"), {"decks": "2"})
    with django_assert_max_num_queries(0):
        client.get(reverse("games:rules_and_odds"), {"decks": decks})
    client.force_login(host)
    with django_assert_max_num_queries(3):
        assert client.get(reverse("games:rules_and_odds"), {"decks": decks}).status_code == 200


def test_each_bet_s_standard_deviation_stands_beside_its_house_edge(client):
    """Eight decks: Wizard of Odds' standard deviations (Banker 0.9274, Player 0.9512); the
    tie's exact 2.6409 (tests/games/test_theo.py)."""
    body = _text(client.get(reverse("games:rules_and_odds")))
    assert "<th>House edge (%)</th><th>SD per chip</th>" in body
    assert "<td>Player</td><td>1:1</td><td>1.23508</td><td>0.9512</td>" in body
    assert "<td>Banker</td><td>1:1 less 5% commission</td><td>1.05791</td><td>0.9274</td>" in body
    assert "<td>Tie</td><td>8:1</td><td>14.35963</td><td>2.6409</td>" in body
    # Chemin de fer at eight decks is Punto Banco's tableau: the ponte is the Player bet, the
    # bank after its 5% taxe the Banker bet.
    assert "<dt>SD of the ponte's result, per chip he stakes</dt><dd>0.9512</dd>" in body
    assert "after the taxe, per chip covered</dt><dd>0.9274</dd>" in body
    # Baccara banque: the bank plays two tableaux at once, which spreads its result less.
    assert "<dt>SD of a ponte's result, per chip he stakes</dt><dd>0.9518</dd>" in body
    assert "per chip staked against it, before the taxe</dt><dd>0.7820</dd>" in body


def test_the_standard_deviations_follow_the_rules(client):
    body = _text(client.get(reverse("games:rules_and_odds"), {"decks": "8", "tie_pays": "9"}))
    # A tie at 9:1: the same chance, a spread of 10 rather than 9 between its two results.
    assert "<td>Tie</td><td>9:1</td><td>4.84403</td><td>2.9343</td>" in body
