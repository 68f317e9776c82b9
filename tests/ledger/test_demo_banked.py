"""The demo Chemin de fer night (``make run``): one shoe dealt through the real services, the bank
changing hands by the rules, every coup zero-sum, beside the reference night."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from io import StringIO
from itertools import pairwise

import pytest
from django.core.management import CommandError, call_command

from games.cards import parse_cards, total
from games.guest_banked.chemin_drawing import Choice, deal
from games.kinds import BankerMove, CoverKind, Game
from games.models import Event, Hand
from games.payouts import BankedBet
from ledger.demo import GUEST_NAMES
from ledger.demo_banked import DECKS, GUESTS, STANDS_ON_FIVE
from ledger.integrity import ledger_problems
from ledger.models import Bet, Coup, EventGuest, GuestEventResult, Seating
from ledger.money.amounts import ZERO, money_sum

pytestmark = pytest.mark.django_db
D = Decimal


def load() -> str:
    out = StringIO()
    call_command("load_demo_chemin", stdout=out)
    return out.getvalue()


@pytest.fixture
def night(demo_night):
    assert "Loaded Chemin de fer night" in load()
    return Event.objects.get(game=Game.CHEMIN_DE_FER)


def test_eight_of_the_night_s_guests_one_shoe(night):
    assert night.date.isoformat() == "2008-07-26" and night.decks == DECKS
    shoe = night.shoes.get()
    assert shoe.closed_at is not None
    names = set(EventGuest.objects.filter(event=night).values_list("guest__name", flat=True))
    assert names == set(GUESTS) and len(names) == 8
    assert names <= set(GUEST_NAMES)  # the same guests as the reference night, not namesakes
    # Seven seats; the eighth guest sat down half way, in the seat of one who left.
    seatings = Seating.objects.filter(shoe=shoe)
    assert seatings.values("guest").distinct().count() == 8
    assert seatings.filter(from_hand__gt=1).count() == 1
    hands = Hand.objects.filter(shoe=shoe)
    assert hands.count() == Coup.objects.filter(event=night).count() >= 20
    # Every guest played: banked or covered.
    assert set(Bet.objects.filter(event=night).values_list("guest__name", flat=True)) == names


def test_every_coup_is_dealt_from_one_real_shoe_by_chemin_de_fer_s_rules(night):
    seen: Counter[str] = Counter()
    chose_on_five = []
    for coup in Coup.objects.filter(event=night).select_related("hand"):
        hand = coup.hand
        player, banker = parse_cards(hand.player_cards), parse_cards(coup.banker_cards)
        choices = {
            "ponte_choice": Choice(coup.ponte_choice) if coup.ponte_choice else None,
            "banker_choice": Choice(coup.banker_choice) if coup.banker_choice else None,
        }
        dealt = deal(player, banker, decks=DECKS, **choices)  # raises on any broken rule
        assert hand.winner == dealt.outcome().winner.value
        seen.update(str(card) for card in (*player, *banker))
        if coup.ponte_choice:
            assert total(player[:2]) == 5
            chose_on_five.append((coup.ponte_choice, hand.bets.get(seat=coup.holder_seat).guest))
    # Suits as well as ranks: no card more often than a six-deck shoe holds it.
    assert max(seen.values()) <= DECKS and all(len(card) >= 2 for card in seen)
    # A choice on 5, both ways: the one guest who stands there stood.
    assert {choice for choice, _guest in chose_on_five} == {"draw", "stand"}
    assert all(
        (choice == "stand") == (guest.name == STANDS_ON_FIVE) for choice, guest in chose_on_five
    )
    assert Coup.objects.filter(event=night).exclude(banker_choice="").exists()


def test_the_bank_changes_hands_by_the_rules(night):
    coups = list(Coup.objects.filter(event=night).select_related("banker", "hand"))
    assert len({coup.banker_id for coup in coups}) >= 3
    for before, after in pairwise(coups):
        if before.move == BankerMove.KEEP:
            assert (after.banker_id, after.bank) == (before.banker_id, before.bank_after)
        elif before.move == BankerMove.SUITE:
            assert after.banker_seat == before.suite_seat != before.banker_seat
            assert after.bank == before.suite_amount == before.bank_after
        else:
            assert before.move == BankerMove.PASS and before.bank_after == 0
            assert after.banker_id != before.banker_id or after.banker_seat != before.banker_seat
    moves = Counter(coup.move for coup in coups)
    assert moves[BankerMove.SUITE] and moves[BankerMove.PASS] and moves[BankerMove.KEEP]


def test_a_banco_solo_lost_and_called_again_as_suivi(night):
    covers = Bet.objects.filter(event=night).exclude(bet_type=BankedBet.BANK)
    kinds = Counter(covers.values_list("cover_kind", flat=True))
    assert kinds[CoverKind.BANCO_SOLO] and kinds[CoverKind.SUIVI] and kinds[CoverKind.ORDINARY]
    for suivi in covers.filter(cover_kind=CoverKind.SUIVI).select_related("hand__coup"):
        number = suivi.hand.number
        lost = Bet.objects.get(hand__shoe=suivi.hand.shoe, hand__number=number - 1, seat=suivi.seat)
        assert lost.guest_id == suivi.guest_id and lost.net < 0
        assert lost.cover_kind in (CoverKind.BANCO_SOLO, CoverKind.SUIVI)
        # A banco takes the whole bank, alone.
        assert suivi.stake == suivi.hand.coup.bank and suivi.hand.bets.count() == 2


def test_every_coup_is_zero_sum_among_the_guests_and_the_house(night, demo_night):
    for coup in Coup.objects.filter(event=night).select_related("hand"):
        bets = coup.hand.bets.all()
        assert sum(bet.net for bet in bets) + coup.house_cut == 0
        assert sum(bet.commission for bet in bets) == coup.house_cut
        assert coup.house_cut == (
            (coup.covered * D("0.05")).quantize(D("0.01")) if coup.hand.winner == "banker" else 0
        )
    nets = GuestEventResult.objects.filter(event=night).aggregate(n=money_sum("net"))["n"]
    cut = Coup.objects.filter(event=night).aggregate(n=money_sum("house_cut"))["n"]
    assert nets + cut == ZERO and cut > 0
    # The reference night is its own event, its figures unchanged.
    assert ledger_problems(demo_night) == []
    assert ledger_problems(night) == []  # every coup settles again as recorded
    totals = Bet.objects.filter(event=demo_night).aggregate(
        gross=money_sum("gross"), commission=money_sum("commission"), net=money_sum("net")
    )
    assert totals == {"gross": D("1040.00"), "commission": D("386.00"), "net": D("654.00")}


def test_the_night_loads_once(night):
    out = StringIO()
    call_command("load_demo_chemin", "--if-empty", stdout=out)
    assert "no demo loaded" in out.getvalue()
    with pytest.raises(CommandError, match="already has a Chemin de fer night"):
        load()
    assert Event.objects.filter(game=Game.CHEMIN_DE_FER).count() == 1


def test_the_chemin_night_needs_the_demo_night(db):
    with pytest.raises(CommandError, match="demo night first"):
        load()
    out = StringIO()
    call_command("load_demo_chemin", "--if-empty", stdout=out)
    assert "no Chemin de fer night loaded" in out.getvalue()
    assert not Event.objects.exists()
