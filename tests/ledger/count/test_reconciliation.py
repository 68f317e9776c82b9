"""The count's arithmetic over nights played chip by chip: guests take chips, bet them at Punto
Banco hand after hand (settled by the rules core), hand back what they hold; the log is what the
host entered. The books reconcile exactly when the log holds every bet that moved chips; a bet
left out is named at its guest, with its amount."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from games.payouts import BetType, RuleSet, resolve_bet
from games.rules import Outcome, Winner
from ledger.count.reconciliation import chips_of, reconcile

ZERO = Decimal(0)
RULES = RuleSet()
GUESTS = ("Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Goro")
BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)

stakes = st.integers(min_value=1, max_value=400).map(lambda n: Decimal(n) * 5 / 2)  # 2.5 steps
a_bet = st.tuples(st.sampled_from(GUESTS), st.sampled_from(BETS), stakes)
a_hand = st.tuples(st.sampled_from(tuple(Winner)), st.lists(a_bet, min_size=1, max_size=7))
nights = st.lists(a_hand, min_size=1, max_size=40)
buy_ins = st.dictionaries(
    st.sampled_from(GUESTS), st.integers(min_value=1, max_value=200).map(lambda n: Decimal(n * 100))
)


def play(night, taken):
    """Every bet's net, in the order played, and each guest's chips at the end (they take what
    they bought, and hands move chips between them and the tray)."""
    bets = [
        (guest, resolve_bet(RULES, bet_type, stake, Outcome(winner)).net)
        for winner, hand in night
        for guest, bet_type, stake in hand
    ]
    held = defaultdict(lambda: ZERO, taken)
    tray = ZERO
    for guest, net in bets:
        held[guest] += net
        tray -= net
    return bets, dict(held), tray


def books(bets, taken, held, tray, *, opening_float=Decimal(1000), adjustments=None):
    nets = defaultdict(lambda: ZERO)
    for guest, net in bets:
        nets[guest] += net
    return reconcile(
        taken=taken,
        nets=dict(nets),
        adjustments=adjustments or {},
        counted=held,
        house_net=-sum(nets.values(), ZERO),
        opening_float=opening_float,
        tray_counted=opening_float + tray,
    )


@given(nights, buy_ins)
def test_a_night_logged_in_full_reconciles_to_zero(night, taken):
    bets, held, tray = play(night, taken)
    counted = books(bets, taken, held, tray)
    assert counted.differences == {}
    assert counted.tray.difference == 0
    assert counted.table_difference == 0
    assert counted.reconciled


@given(nights, buy_ins, st.data())
def test_a_bet_left_out_of_the_log_is_named_at_its_guest_with_its_amount(night, taken, data):
    bets, held, tray = play(night, taken)
    moving = [index for index, (_guest, net) in enumerate(bets) if net != 0]
    if not moving:  # only pushes: no count can tell a push was left out
        return
    missing = data.draw(st.sampled_from(moving))
    guest, net = bets[missing]
    logged = bets[:missing] + bets[missing + 1 :]
    counted = books(logged, taken, held, tray)
    assert counted.differences == {guest: net}
    assert counted.tray.difference == -net
    assert counted.table_difference == 0  # the chips are all there: the log is short
    assert not counted.reconciled


@given(nights, buy_ins, st.data())
def test_an_adjustment_books_the_difference_and_the_night_reconciles(night, taken, data):
    bets, held, tray = play(night, taken)
    moving = [index for index, (_guest, net) in enumerate(bets) if net != 0]
    if not moving:
        return
    missing = data.draw(st.sampled_from(moving))
    guest, net = bets[missing]
    logged = bets[:missing] + bets[missing + 1 :]
    counted = books(logged, taken, held, tray, adjustments={guest: net})
    assert counted.reconciled


def test_a_guest_not_counted_yet_has_no_difference_and_the_night_is_not_reconciled():
    counted = reconcile(
        taken={"Aki": Decimal(500), "Ben": Decimal(300)},
        nets={"Aki": Decimal(-100)},
        adjustments={},
        counted={"Aki": Decimal(400)},
        house_net=Decimal(100),
        tray_counted=Decimal(100),
    )
    assert counted.uncounted == ["Ben"]
    assert counted.differences == {}
    assert not counted.reconciled


def test_a_count_by_denomination_adds_up():
    assert chips_of({Decimal(100): 12, Decimal(25): 3, Decimal("0.5"): 1}) == Decimal("1275.5")
