"""A guest-banked night's stints at the bank (ledger.money.results.banker_stints): where each
begins and ends, and what the bank won or lost in it, after the house's cut."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games import services as game_services
from ledger.models import GuestEventResult
from ledger.money.amounts import money_sum
from ledger.money.results import BankerStint, banker_stints, banker_totals
from tests.ledger.banked_nights import coup, seat_all, seven_guest_night

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def night(make_event, host):
    """Two shoes of Chemin de fer at the seed's 5% taxe on a winning bank, seats 1–7 A–G."""
    event, shoe, g = seven_guest_night(make_event, host, taxe_rate=D("0.05"))
    # A's stint: wins twice (keeping the bank), then loses it to B's banco.
    coup(shoe, host, banker=1, bank="100", result="banker", covers=[(2, "ordinary", "100")])
    coup(shoe, host, banker=1, bank="195", result="banker", covers=[(3, "ordinary", "195")])
    coup(shoe, host, banker=1, bank="380.25", result="player", covers=[(2, "banco_solo", "380.25")])
    # The lost bank passes to A's right: B loses at once.
    coup(shoe, host, banker=2, bank="50", result="player", covers=[(3, "ordinary", "50")])
    # C, to B's right: wins, E joins the bank with as much (banco double), wins, C retires.
    coup(shoe, host, banker=3, bank="40", result="banker", covers=[(4, "ordinary", "40")])
    coup(
        shoe,
        host,
        banker=3,
        co_banker_seat=5,
        bank="156",
        result="banker",
        covers=[(4, "ordinary", "156")],
        move="retire",
    )
    # C brings a new bank: a new stint though C banked the coup before. He keeps it to the end.
    coup(shoe, host, banker=3, bank="20", result="banker", covers=[(4, "ordinary", "20")])
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    # A new shoe starts a new bank, C's again.
    second = game_services.shoe_start(event=event, by=host)
    seat_all(second, list(g.values()), host)
    coup(second, host, banker=3, bank="30", result="banker", covers=[(1, "ordinary", "30")])
    coup(second, host, banker=3, bank="58.50", result="tie", covers=[(1, "ordinary", "58.50")])
    return event, g


def test_a_stint_is_a_run_of_coups_in_one_shoe_under_one_banker_until_he_gives_it_up(night):
    event, g = night
    assert banker_stints(event) == [
        # 100 won less 5% (95), 195 won less 5% (185.25), all 380.25 lost: −100.
        BankerStint(
            shoe=1,
            banker_id=g["A"].pk,
            banker="A",
            co_bankers=[],
            first_coup=1,
            last_coup=3,
            coups=3,
            bank_start=D("100.00"),
            bank_end=D("0.00"),
            net=D("-100.00"),
            house_cut=D("14.75"),
        ),
        BankerStint(
            shoe=1,
            banker_id=g["B"].pk,
            banker="B",
            co_bankers=[],
            first_coup=4,
            last_coup=4,
            coups=1,
            bank_start=D("50.00"),
            bank_end=D("0.00"),
            net=D("-50.00"),
            house_cut=D("0.00"),
        ),
        # 40 won less 2 (78 on the table); E doubles it to 156, won less 7.80; C retires with
        # all of it, 304.20.
        BankerStint(
            shoe=1,
            banker_id=g["C"].pk,
            banker="C",
            co_bankers=["E"],
            first_coup=5,
            last_coup=6,
            coups=2,
            bank_start=D("40.00"),
            bank_end=D("304.20"),
            net=D("186.20"),
            house_cut=D("9.80"),
        ),
        BankerStint(
            shoe=1,
            banker_id=g["C"].pk,
            banker="C",
            co_bankers=[],
            first_coup=7,
            last_coup=7,
            coups=1,
            bank_start=D("20.00"),
            bank_end=D("39.00"),
            net=D("19.00"),
            house_cut=D("1.00"),
        ),
        # A tie (égalité) is void: the bank stands.
        BankerStint(
            shoe=2,
            banker_id=g["C"].pk,
            banker="C",
            co_bankers=[],
            first_coup=1,
            last_coup=2,
            coups=2,
            bank_start=D("30.00"),
            bank_end=D("58.50"),
            net=D("28.50"),
            house_cut=D("1.50"),
        ),
    ]


def test_the_stints_add_up_to_the_banks_nets_and_the_house_cut(night):
    event, _g = night
    stints = banker_stints(event)
    totals = {total.banker: total for total in banker_totals(stints)}
    assert {name: (t.stints, t.coups, t.net, t.house_cut) for name, t in totals.items()} == {
        "A": (1, 3, D("-100.00"), D("14.75")),
        "B": (1, 1, D("-50.00"), D("0.00")),
        "C": (3, 5, D("233.70"), D("12.30")),
    }
    # The house's cut is every coup's, and the night is zero-sum.
    house_cut = sum((stint.house_cut for stint in stints), D(0))
    assert house_cut == D("27.05")
    nets = GuestEventResult.objects.filter(event=event).aggregate(n=money_sum("net"))["n"]
    assert nets == -house_cut


def test_a_punto_banco_night_has_no_stints(event):
    assert banker_stints(event) == []
