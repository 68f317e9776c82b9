"""Settling a guest-banked night: the proposal (ledger.money.transfers.proposed_transfers) and the
transfers the host records (transfer_record, transfer_void), and the balances that count them."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Event
from ledger.guests import services as guest_services
from ledger.integrity import ledger_problems
from ledger.models import AuditEntry, Coup, Transfer
from ledger.money import services as money_services
from ledger.money.results import (
    event_settlement,
    guest_balance_now,
    guest_balance_through,
    guest_balances,
    guest_history,
)
from ledger.money.transfers import (
    HOUSE,
    MSG_NOT_GUEST_BANKED,
    MSG_OVER_PAYEE,
    MSG_OVER_PAYER,
    MSG_PAYEE_OWED_NOTHING,
    MSG_PAYER_OWES_NOTHING,
    MSG_TRANSFER_ALREADY_VOIDED,
    MSG_TRANSFER_CENTS,
    MSG_TRANSFER_NOT_ON_LIST,
    MSG_TRANSFER_NOT_POSITIVE,
    MSG_TRANSFER_SELF,
    MSG_TRANSFER_VOID_OF_VOID,
    night_balances,
    proposed_transfers,
    transfer_record,
    transfer_void,
)
from ledger.nights import services as night_services
from tests.conftest import examples
from tests.ledger.banked_nights import SEVEN, coup, play_debts, seven_guest_night

pytestmark = pytest.mark.django_db
D = Decimal

# Nine debts among seven guests (as in tests/ledger/money/test_clearing.py), played as coups:
# F and G net to zero, A and B are a pair, C, D and E settle among themselves.
NINE_DEBTS = [
    ("A", "F", "50.00"),
    ("F", "B", "30.00"),
    ("F", "G", "20.00"),
    ("G", "B", "20.00"),
    ("C", "D", "15.00"),
    ("C", "G", "10.00"),
    ("G", "E", "10.00"),
    ("C", "A", "5.00"),
    ("A", "D", "5.00"),
]
SEAT_OF = {name: seat for seat, name in enumerate(SEVEN, start=1)}


@pytest.fixture
def nine_debts(make_event, host):
    event, shoe, guests = seven_guest_night(make_event, host)
    play_debts(shoe, host, SEAT_OF, NINE_DEBTS)
    return event, guests


def lines(event):
    return [(t.payer.name, t.payee.name, t.amount) for t in proposed_transfers(event)]


def test_nine_debts_among_seven_guests_are_proposed_as_three_transfers(nine_debts):
    event, _guests = nine_debts
    balances = night_balances(event)
    assert {balances.parties[key].name: amount for key, amount in balances.balances.items()} == {
        "The house": D("0.00"),
        "A": D("-50.00"),
        "B": D("50.00"),
        "C": D("-30.00"),
        "D": D("20.00"),
        "E": D("10.00"),
        "F": D("0.00"),
        "G": D("0.00"),
    }
    assert lines(event) == [("A", "B", D("50.00")), ("C", "D", D("20.00")), ("C", "E", D("10.00"))]


def test_through_the_house_each_guest_with_a_balance_settles_with_the_house(nine_debts):
    event, _guests = nine_debts
    Event.objects.filter(pk=event.pk).update(clearing=Event.Clearing.HOUSE)
    event.refresh_from_db()
    assert sorted(lines(event)) == [
        ("A", "The house", D("50.00")),
        ("C", "The house", D("30.00")),
        ("The house", "B", D("50.00")),
        ("The house", "D", D("20.00")),
        ("The house", "E", D("10.00")),
    ]


def test_the_house_is_owed_its_cut_and_is_a_party_to_the_proposal(make_event, host):
    event, shoe, _guests = seven_guest_night(make_event, host, taxe_rate=D("0.05"))
    # A banks 100 against B and wins: the house takes 5% of the win.
    coup(shoe, host, banker=1, bank="100", result="banker", covers=[(2, "ordinary", "100")])
    balances = night_balances(event)
    assert (balances.of(None), balances.of(_guests["A"].pk), balances.of(_guests["B"].pk)) == (
        D("5.00"),
        D("95.00"),
        D("-100.00"),
    )
    # By payer, then payee: the house first.
    assert lines(event) == [("B", "The house", D("5.00")), ("B", "A", D("95.00"))]


def test_a_partial_transfer_leaves_the_rest_proposed_and_counts_in_every_balance(nine_debts, host):
    event, g = nine_debts
    transfer_record(event=event, payer=g["A"], payee=g["B"], amount=D("20"), by=host)
    assert lines(event) == [("A", "B", D("30.00")), ("C", "D", D("20.00")), ("C", "E", D("10.00"))]
    # Paying another guest settles a debt just as paying the house does.
    assert guest_balance_now(guest_id=g["A"].pk) == D("-30.00")
    assert guest_balance_now(guest_id=g["B"].pk) == D("30.00")
    assert guest_balance_through(guest_id=g["A"].pk, event=event) == D("-30.00")
    assert guest_balances()[g["A"].pk] == D("-30.00")
    line = {line.name: line for line in event_settlement(event)}
    assert (line["A"].result, line["A"].settled, line["A"].after) == (
        D("-50.00"),
        D("20.00"),
        D("-30.00"),
    )
    assert (line["B"].result, line["B"].settled, line["B"].after) == (
        D("50.00"),
        D("-20.00"),
        D("30.00"),
    )
    point = guest_history(g["B"]).points[-1]
    assert (point.result, point.settled, point.balance) == (D("50.00"), D("-20.00"), D("30.00"))


def test_transfers_and_settlements_together_settle_the_night(nine_debts, host):
    event, g = nine_debts
    # C pays the house 10 in cash: the house now owes 10, and the proposal routes it.
    money_services.settlement_record(
        guest=g["C"], event=event, amount=D("10"), method="cash", by=host
    )
    assert lines(event) == [
        ("The house", "E", D("10.00")),
        ("A", "B", D("50.00")),
        ("C", "D", D("20.00")),
    ]
    for payer, payee, amount in lines(event):
        transfer_record(event=event, payer=g.get(payer), payee=g.get(payee), amount=amount, by=host)
    assert lines(event) == []
    assert all(amount == 0 for amount in night_balances(event).balances.values())
    assert all(guest_balance_now(guest_id=guest.pk) == 0 for guest in g.values())
    # check_ledger counts the transfers too: the balances it recomputes agree with the app's.
    assert ledger_problems(event) == []
    assert ledger_problems() == []


@pytest.mark.parametrize(
    "other", [{"amount": D("11")}, {"payer": "D"}, {"payee": "A"}, {"note": "cash"}]
)
def test_a_transfer_s_key_used_again_for_other_content_is_refused(nine_debts, host, other):
    event, g = nine_debts
    key = uuid.uuid4()
    sent = {"event": event, "payer": g["C"], "payee": g["E"], "amount": D("10"), "by": host}
    first = transfer_record(**sent, idempotency_key=key)
    changed = {k: g[v] if k in ("payer", "payee") else v for k, v in other.items()}
    with pytest.raises(ValidationError) as refused:
        transfer_record(**(sent | changed), idempotency_key=key)
    assert "a transfer of $10 from C to E" in refused.value.messages[0]
    assert list(Transfer.objects.values_list("pk", flat=True)) == [first.pk]


def test_a_transfer_is_recorded_once_per_key_and_audited(nine_debts, host):
    event, g = nine_debts
    key = uuid.uuid4()
    first = transfer_record(
        event=event, payer=g["C"], payee=g["E"], amount=D("10"), by=host, idempotency_key=key
    )
    again = transfer_record(
        event=event, payer=g["C"], payee=g["E"], amount=D("10"), by=host, idempotency_key=key
    )
    assert again.pk == first.pk and Transfer.objects.count() == 1
    audit = AuditEntry.objects.get(action=AuditEntry.Action.SETTLEMENT)
    assert audit.summary == "C → E" and audit.after["amount"] == "10.00"


def test_a_void_reverses_a_transfer_once(nine_debts, host):
    event, g = nine_debts
    transfer = transfer_record(event=event, payer=g["A"], payee=g["B"], amount=D("50"), by=host)
    void = transfer_void(transfer=transfer, reason="Wrong pair", by=host)
    assert (void.payer, void.payee, void.amount, void.voids) == (g["B"], g["A"], D("50"), transfer)
    assert guest_balance_now(guest_id=g["A"].pk) == D("-50.00")
    assert lines(event)[0] == ("A", "B", D("50.00"))
    with pytest.raises(ValidationError) as again:
        transfer_void(transfer=transfer, reason="Again", by=host)
    assert again.value.messages[0].startswith(str(MSG_TRANSFER_ALREADY_VOIDED).split("{", 1)[0])
    with pytest.raises(ValidationError) as of_void:
        transfer_void(transfer=void, reason="Undo the void", by=host)
    assert of_void.value.messages == [str(MSG_TRANSFER_VOID_OF_VOID)]


def refused(event, host, payer, payee, amount):
    with pytest.raises(ValidationError) as error, transaction.atomic():
        transfer_record(event=event, payer=payer, payee=payee, amount=D(amount), by=host)
    assert not Transfer.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.SETTLEMENT).exists()
    return error.value.message_dict


def test_the_house_is_the_clearing_house_and_may_hold_what_it_passes_on(nine_debts, host):
    event, g = nine_debts
    # The house is square tonight, yet A may pay it part of what A owes: it then owes 30.
    transfer_record(event=event, payer=g["A"], payee=None, amount=D("30"), by=host)
    # A −20, the house −30, B +50, C −30, D +20, E +10: A and D pair off, the rest is one
    # group of four (three transfers).
    assert lines(event) == [
        ("The house", "B", D("30.00")),
        ("A", "D", D("20.00")),
        ("C", "B", D("20.00")),
        ("C", "E", D("10.00")),
    ]
    # And it may pay a guest ahead of what it takes in, no more than the guest is owed.
    transfer_record(event=event, payer=None, payee=g["D"], amount=D("20"), by=host)
    assert refused_amount(event, host, None, g["E"], "11") == {
        "amount": [MSG_OVER_PAYEE.format(payee="E", due="$10", amount="$11")]
    }


def refused_amount(event, host, payer, payee, amount):
    with pytest.raises(ValidationError) as error, transaction.atomic():
        transfer_record(event=event, payer=payer, payee=payee, amount=D(amount), by=host)
    return error.value.message_dict


def test_bad_transfers_are_refused_with_the_reason_and_store_nothing(nine_debts, host, make_event):
    event, g = nine_debts
    maximum = "99,999,999,999.99"
    assert refused(event, host, g["A"], g["B"], "0") == {"amount": [str(MSG_TRANSFER_NOT_POSITIVE)]}
    assert refused(event, host, g["A"], g["B"], "-5") == {
        "amount": [str(MSG_TRANSFER_NOT_POSITIVE)]
    }
    assert refused(event, host, g["A"], g["B"], "10.005") == {
        "amount": [MSG_TRANSFER_CENTS.format(maximum=maximum)]
    }
    assert refused(event, host, g["A"], g["A"], "10") == {
        "payee": [MSG_TRANSFER_SELF.format(payer="A")]
    }
    assert refused(event, host, None, None, "10") == {
        "payee": [MSG_TRANSFER_SELF.format(payer="The house")]
    }
    assert refused(event, host, g["A"], g["B"], "60") == {
        "amount": [MSG_OVER_PAYER.format(payer="A", due="$50", amount="$60")]
    }
    assert refused(event, host, g["C"], g["E"], "20") == {
        "amount": [MSG_OVER_PAYEE.format(payee="E", due="$10", amount="$20")]
    }
    assert refused(event, host, g["B"], g["A"], "10") == {
        "payer": [MSG_PAYER_OWES_NOTHING.format(payer="B")]
    }
    assert refused(event, host, g["A"], g["F"], "10") == {
        "payee": [MSG_PAYEE_OWED_NOTHING.format(payee="F")]
    }
    elsewhere = guest_services.guest_create(name="Zed")
    assert refused(event, host, g["A"], elsewhere, "10") == {
        "payee": [MSG_TRANSFER_NOT_ON_LIST.format(guest="Zed")]
    }
    punto_banco = make_event(name="Punto Banco night")
    guest_services.event_guest_add(event=punto_banco, name="A", by=host)
    guest_services.event_guest_add(event=punto_banco, name="B", by=host)
    assert refused(punto_banco, host, g["A"], g["B"], "10") == {
        "__all__": [str(MSG_NOT_GUEST_BANKED)]
    }
    assert proposed_transfers(punto_banco) == []


# --- properties ------------------------------------------------------------------------------

debts = st.lists(
    st.tuples(
        st.sampled_from(SEVEN),
        st.sampled_from(SEVEN),
        st.decimals(min_value=1, max_value=300, places=2),
    ).filter(lambda debt: debt[0] != debt[1]),
    min_size=1,
    max_size=9,
)


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    debts=debts,
    cut=st.sampled_from([D(0), D("0.05")]),
    clearing=st.sampled_from(list(Event.Clearing)),
    part=st.decimals(min_value=D("0.01"), max_value=1, places=2),
)
def test_the_proposal_settles_every_balance_exactly_in_at_most_n_minus_one(
    debts, cut, clearing, part, make_event, host
):
    with transaction.atomic():
        event, shoe, guests = seven_guest_night(make_event, host, taxe_rate=cut, clearing=clearing)
        play_debts(shoe, host, SEAT_OF, [(a, b, str(amount)) for a, b, amount in debts])
        for paid_part in (part, D(1)):
            balances = night_balances(event).balances
            assert sum(balances.values()) == 0
            proposal = proposed_transfers(event)
            # n: everyone with a balance, and the house whenever everyone settles with it.
            n = sum(1 for key, amount in balances.items() if amount or key == HOUSE)
            if clearing == Event.Clearing.DIRECT and not balances[HOUSE]:
                n -= 1
            assert len(proposal) <= max(n - 1, 0)
            settled = dict(balances)
            for line in proposal:
                assert line.amount > 0 and line.payer != line.payee
                settled[line.payer.key] += line.amount
                settled[line.payee.key] -= line.amount
            assert all(amount == 0 for amount in settled.values())
            if clearing == Event.Clearing.HOUSE:
                assert all(HOUSE in (line.payer.key, line.payee.key) for line in proposal)
            # Pay part of the first line (then, second time round, all of every line): what
            # is left is proposed, and still settles exactly.
            for line in proposal[:1] if paid_part < 1 else proposal:
                amount = max((line.amount * paid_part).quantize(D("0.01")), D("0.01"))
                transfer_record(
                    event=event,
                    payer=guests.get(line.payer.name),
                    payee=guests.get(line.payee.name),
                    amount=amount,
                    by=host,
                )
        assert proposed_transfers(event) == []
        assert all(guest_balance_now(guest_id=guest.pk) == 0 for guest in guests.values())
        transaction.set_rollback(True)


def test_a_guest_who_banked_and_paid_merges_with_everything_moved(nine_debts, host):
    event, g = nine_debts
    transfer_record(event=event, payer=g["A"], payee=g["B"], amount=D("20"), by=host)
    for shoe in event.shoes.all():
        night_services.shoe_close(shoe=shoe, by=host)
    twin = guest_services.guest_create(name="Aki twin")
    banked = Coup.objects.filter(banker=g["B"]).count()
    assert banked > 0
    guest_services.guest_merge(guest=twin, other=g["B"], by=host)
    assert Coup.objects.filter(banker=twin).count() == banked
    assert Transfer.objects.get(payee=twin).payer == g["A"]
    assert lines(event) == [
        ("A", "Aki twin", D("30.00")),
        ("C", "D", D("20.00")),
        ("C", "E", D("10.00")),
    ]
    assert ledger_problems() == []


def test_two_guests_who_paid_each_other_are_not_merged(nine_debts, host):
    event, g = nine_debts
    transfer_record(event=event, payer=g["A"], payee=g["B"], amount=D("20"), by=host)
    for shoe in event.shoes.all():
        night_services.shoe_close(shoe=shoe, by=host)
    refusal = guest_services.guest_merge_refusal(guest=g["A"], other=g["B"])
    assert refusal == guest_services.MSG_MERGE_PAID_EACH_OTHER.format(guest="A", other="B")


def test_the_audit_log_names_who_paid_whom(nine_debts, host, client):
    event, g = nine_debts
    transfer_record(event=event, payer=g["A"], payee=g["B"], amount=D("20"), by=host)
    client.force_login(host)
    page = client.get(reverse("ledger:audit_log")).content.decode()
    assert "who pays: A" in page and "who receives: B" in page
    assert "payer" not in page and "payee" not in page
