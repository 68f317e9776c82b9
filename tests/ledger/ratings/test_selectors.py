"""Ratings against figures worked out by hand from the published edges (8 decks, banker pays
0.95, tie 8:1: banker 1.0579%, player 1.2351%, tie 14.3596%)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from games import services as game_services
from games.chips import MAX_TABLE_LIMIT
from games.kinds import Game
from games.models import Event, Hand
from games.payouts import round_money
from games.theo import NotPriced, stake_moments
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Seating
from ledger.ratings import selectors
from ledger.ratings.selectors import ratings_for
from tests.conftest import bet
from tests.ledger.banked import (
    CHEMIN_NIGHT_HOUSE,
    CHEMIN_NIGHT_NETS,
    chemin_night,
    make_banked,
    rotating_coups,
)
from tests.ledger.hands.coup_entries import play

pytestmark = pytest.mark.django_db
D = Decimal

# Banker 1.0579%, player 1.2351%, tie 14.3596% (docs/rules.md): the bettor's win and loss
# chances for 8 decks, to the digits the tables publish.
BANKER_WIN, PLAYER_WIN, TIE = D("0.458597"), D("0.446247"), D("0.095156")


def variance(win: Decimal, pays: Decimal, lose: Decimal) -> Decimal:
    mean = win * pays - lose
    return win * pays * pays + lose - mean * mean


def spread(results: dict[Decimal, int]) -> Decimal:
    """The standard deviation of a hand's result: ``results`` maps each outcome's chance to the
    result it gives."""
    mean = sum(chance * result for chance, result in results.items())
    return (sum(chance * result * result for chance, result in results.items()) - mean**2).sqrt()


def three_bets(shoe, record):
    """Aki: banker 100, player 200, tie 50 on a natural 9 against 8: the player wins."""
    return record(
        shoe, "9 J", "8 J", [bet(1, "banker", 100), bet(1, "player", 200), bet(1, "tie", 50)]
    )


def test_three_bets_priced_by_hand(event, seated, shoe, record):
    three_bets(shoe, record)
    rating = ratings_for([event]).nights[0].guest(seated[1].pk)
    assert rating is not None
    assert (rating.hands, rating.stakes, rating.handle) == (1, 3, D(350))
    assert rating.average_bet == D(350)  # per hand played
    # 100 × 1.0579% + 200 × 1.2351% + 50 × 14.3596% = 1.0579 + 2.4702 + 7.1798
    assert rating.theo == D("10.71")
    # The player bet won 200, the banker and the tie lost 150: the house paid 50.
    assert rating.actual == D(-50)
    assert rating.theo_money == {"JPY": D(1071)}
    assert rating.actual_money == {"JPY": D(-5000)}
    lose_banker = 1 - BANKER_WIN - TIE  # a tie pushes the banker and the player bets
    lose_player = 1 - PLAYER_WIN - TIE
    # The three bets share one deal: the banker wins (+95 − 200 − 50), the player wins
    # (−100 + 200 − 50) or a tie (0 + 0 + 400). Their variances do not simply add.
    by_hand = spread({BANKER_WIN: -155, PLAYER_WIN: 50, TIE: 400})
    apart = (
        100**2 * variance(BANKER_WIN, D("0.95"), lose_banker)
        + 200**2 * variance(PLAYER_WIN, D(1), lose_player)
        + 50**2 * variance(TIE, D(8), 1 - TIE)
    ).sqrt()
    assert abs(rating.sd - by_hand) < D("0.01") and abs(by_hand - apart) > 80
    assert rating.z == ((D(-50) - D("10.7079")) / by_hand).quantize(D("0.01")) == D("-0.37")
    assert rating.unpriced == 0
    house = ratings_for([event]).house
    assert house.theo == D("10.71") and house.actual == D(-50)
    assert house.theo_hold == D("3.06")  # 10.7079 / 350
    assert house.actual_hold == D("-14.29")


def test_a_stake_not_priced_is_counted_apart(event, seated, shoe, record, monkeypatch):
    priced = selectors.stake_moments

    def tie_not_priced(game, rules, decks, bet_type, cover_kind=""):
        if bet_type == "tie":
            raise NotPriced("{stake} in {game} is not priced.", stake=bet_type, game=game)
        return priced(game, rules, decks, bet_type, cover_kind)

    monkeypatch.setattr(selectors, "stake_moments", tie_not_priced)
    three_bets(shoe, record)
    rating = ratings_for([event]).guest(seated[1].pk)
    assert rating is not None
    assert (rating.hands, rating.handle, rating.unpriced) == (1, D(350), D(50))
    assert rating.theo == D("3.53")  # the banker's and the player's only: 1.0579 + 2.4702
    assert rating.actual == D(-50)  # every stake's
    assert rating.priced_loss == D(-100)  # the tie's 50 lost is left out of z
    by_hand = spread({BANKER_WIN: -105, PLAYER_WIN: 100, TIE: 0})  # the two priced, together
    assert abs(rating.sd - by_hand) < D("0.01")
    assert rating.theo_hold == D("1.18")  # 3.5281 / 300, the priced handle


def test_nothing_priced_has_no_z(event, seated, shoe, record, monkeypatch):
    def nothing(*args, **kwargs):
        raise NotPriced("{stake} in {game} is not priced.", stake="x", game="y")

    monkeypatch.setattr(selectors, "stake_moments", nothing)
    three_bets(shoe, record)
    rating = ratings_for([event]).guest(seated[1].pk)
    assert rating is not None
    assert (rating.theo, rating.sd, rating.z, rating.theo_hold) == (0, 0, None, None)
    assert rating.unpriced == rating.handle == D(350)


def test_time_at_the_table_across_a_seat_change(event, seated, shoe, record, host):
    """Ben sits in seat 2 at 20:00; hands at 20:10 and 20:20; he moves to seat 7 at 20:21 (so
    from hand 3), hand 3 at 20:40. Aki sits through all three from 19:00, before the shoe opened
    at 19:30. Ben: 20:00–20:20 and 20:21–20:40, 39 minutes; Aki 19:30–20:40, 70 minutes."""
    start = timezone.now().replace(microsecond=0) - timedelta(days=1)
    at = {minutes: start + timedelta(minutes=minutes) for minutes in (-60, -30, 0, 10, 20, 21, 40)}
    type(shoe).objects.filter(pk=shoe.pk).update(opened_at=at[-30])
    Seating.objects.filter(shoe=shoe).update(seated_at=at[-60])
    Seating.objects.filter(shoe=shoe, guest=seated[2]).update(seated_at=at[0])
    for _ in range(2):
        record(shoe, "9 J", "8 J", [bet(1, "player", 10), bet(2, "banker", 10)])
    hand_services.seat_guest(shoe=shoe, seat=7, guest=seated[2], by=host)
    Seating.objects.filter(shoe=shoe, guest=seated[2], seat=7).update(seated_at=at[21])
    record(shoe, "9 J", "8 J", [bet(1, "player", 10), bet(7, "banker", 10)])
    for number, minutes in ((1, 10), (2, 20), (3, 40)):
        Hand.objects.filter(shoe=shoe, number=number).update(logged_at=at[minutes])
    night = ratings_for([event]).nights[0]
    ben, aki = night.guest(seated[2].pk), night.guest(seated[1].pk)
    assert ben is not None and aki is not None
    assert ben.seconds == 39 * 60
    assert aki.seconds == 70 * 60
    assert night.guest(seated[3].pk) is None  # seated, never staked: no rating
    assert ben.hands == 3


def test_a_season_adds_its_nights(make_event, host, record):
    from games import services as game_services
    from ledger.guests import services as guest_services

    nights = []
    for day in (1, 2):
        event = make_event(name=f"Night {day}")
        aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
        shoe = game_services.shoe_start(event=event, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        three_bets(shoe, record)
        nights.append(event)
    ratings = ratings_for(nights)
    [aki] = ratings.guests
    assert (aki.nights, aki.hands, aki.handle, aki.theo, aki.actual) == (
        2, 2, D(700), D("21.42"), D(-100)
    )  # fmt: skip
    assert aki.theo_money == {"JPY": D(2142)}
    assert ratings.house.theo == D("21.42")
    assert ratings_for(nights, guest_id=aki.guest_id).guests[0].handle == D(700)


def test_the_queries_do_not_grow_with_the_nights(
    make_event, host, record, django_assert_max_num_queries
):
    from games import services as game_services
    from ledger.guests import services as guest_services

    def season(count):
        events = []
        for day in range(count):
            event = make_event(name=f"Q{count}-{day}")
            people = [
                guest_services.event_guest_add(event=event, name=f"G{count}-{n}", by=host)
                for n in range(1, 4)
            ]
            shoe = game_services.shoe_start(event=event, by=host)
            for seat, guest in enumerate(people, start=1):
                hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
            for _ in range(count):
                record(shoe, "9 J", "8 J", [bet(s, kind, 10) for s in (1, 2, 3)
                                            for kind in ("player", "tie")])  # fmt: skip
            events.append(event)
        return events

    small, big = season(1), season(4)
    with django_assert_max_num_queries(4):
        ratings_for(small)
    with django_assert_max_num_queries(4):
        ratings = ratings_for(big)
    assert len(ratings.guests) == 3  # the same three names
    # The house dealt 16 hands, each with three guests on it: not 48.
    assert ratings.house.hands == 16 and ratings.guests[0].hands == 16
    assert ratings.house.average_bet == D(60)  # 3 guests × (10 + 10) a hand
    with django_assert_max_num_queries(3):
        ratings_for(big, guest_id=ratings.guests[0].guest_id)


def test_at_chemin_de_fer_the_house_s_win_is_its_cut_and_z_reads_the_guest_s_own_odds(
    event, seated, shoe, host
):
    # Eight decks: both sides' best play is Punto Banco's tableau (docs/rules.md), so the bank
    # wins 45.8597% of coups, the ponte 44.6247%, and the house takes 5% of a winning bank.
    make_banked(event, Game.CHEMIN_DE_FER)
    chemin_night(shoe, host)
    night = ratings_for([event]).nights[0]
    covered = D(100 + 195 + 100 + 390 + 500)  # what each bank played against
    assert night.house.handle == covered + D(60 + 40 + 195 + 100 + 390 + 300 + 200)
    assert night.house.actual == CHEMIN_NIGHT_HOUSE  # the taxe it took, not the guests' losses
    assert abs(night.house.theo - covered * D("0.05") * BANKER_WIN) < D("0.01")
    chie = next(rating for rating in night.guests if rating.name == "Chie")
    assert (chie.theo, chie.actual) == (0, 0)  # a ponte's loss is the bank's gain
    assert chie.loss == D(40 + 100 + 390) == -CHEMIN_NIGHT_NETS["Chie"]
    expected = D(530) * (BANKER_WIN - PLAYER_WIN)  # a ponte's bet is Punto Banco's player bet
    assert abs(chie.expected_loss - expected) < D("0.01")
    by_hand = (D(40**2 + 100**2 + 390**2) * variance(PLAYER_WIN, D(1), BANKER_WIN)).sqrt()
    assert abs(chie.sd - by_hand) < D("0.01")
    assert abs(chie.z - (chie.loss - expected) / by_hand) < D("0.01")


def test_a_table_charge_per_shoe_is_theoretical_and_actual_alike(event, seated, shoe, host):
    make_banked(event, Game.CHEMIN_DE_FER, taxe=Event.Cut.PER_SHOE, shoe_charge=D(30))
    rotating_coups(shoe, host, 3)
    house = ratings_for([event]).house
    assert house.actual == house.theo == D(30)


def test_a_baccara_banque_bank_is_priced_for_the_stakes_its_coup_faced(event, seated, shoe, host):
    make_banked(event, Game.BACCARA_BANQUE, table_min=D(10), taxe=Event.Cut.WINNINGS)
    play(shoe, host, (2, "tableau_1", "50"), (6, "tableau_2", "150"), result="B",
         second_result="P", banker_seat=4)  # fmt: skip
    event.refresh_from_db()
    night = ratings_for([event]).nights[0]
    assert night.house.unpriced == 0
    banker = next(rating for rating in night.guests if rating.guest_id == seated[4].pk)

    def bank_edge(tableaux):
        moments = stake_moments(event.game, event.rule_set, event.decks, "bank",
                                bank_rules=event.bank_rules, tableau_stakes=tableaux)  # fmt: skip
        return moments.house_edge

    # A quarter of the stakes on the first tableau: the banker's answer, and the house's cut,
    # differ from an even split's.
    assert bank_edge((D(50), D(150))) != bank_edge((D(100), D(100)))
    assert banker.theo == round_money(200 * bank_edge((D(50), D(150))))


def test_the_largest_stake_the_limits_allow_is_rated(make_event, host, record):
    # 40 million chips is 4·10⁹ cents; squared, 1.6·10¹⁹: past a bigint (PostgreSQL's 500).
    whale = make_event(table_max=MAX_TABLE_LIMIT)
    shoe = game_services.shoe_start(event=whale, by=host)
    guest = guest_services.event_guest_add(event=whale, name="Whale", by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guest, by=host)
    record(shoe, "9 J", "8 J", [bet(1, "player", 40_000_000)])
    rating = ratings_for([whale]).nights[0].guest(guest.pk)
    by_hand = 40_000_000 * variance(PLAYER_WIN, D(1), 1 - PLAYER_WIN - TIE).sqrt()
    assert abs(rating.sd - by_hand) / by_hand < D("0.0001")
    assert rating.sd > 0 and rating.actual == D(-40_000_000)


def test_the_house_s_spread_counts_its_guests_bets_on_one_deal_together(
    event, seated, shoe, record
):
    # Two guests on the banker, 100 each, on one hand: the house has 200 on one outcome.
    record(shoe, "9 J", "8 J", [bet(1, "banker", 100), bet(2, "banker", 100)])
    night = ratings_for([event]).nights[0]
    one_guest = spread({BANKER_WIN: 95, 1 - BANKER_WIN - TIE: -100, TIE: 0})
    assert all(abs(rating.sd - one_guest) < D("0.01") for rating in night.guests)
    assert abs(night.house.sd - 2 * one_guest) < D("0.01")  # not √2 times one guest's


def test_the_house_s_z_leaves_out_a_night_where_a_guest_banks(event, seated, shoe, host):
    make_banked(event, Game.CHEMIN_DE_FER)
    chemin_night(shoe, host)
    house = ratings_for([event]).house
    assert house.actual == CHEMIN_NIGHT_HOUSE and house.theo > 0  # its cut, expected and taken
    assert (house.sd, house.z) == (0, None)  # the spread of a cut is not the guests' stakes'
