from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from games import services as game_services
from games.entry import (
    MSG_DUPLICATE_BET,
    MSG_EMPTY_SEAT,
    MSG_NO_RESULT,
    MSG_NO_SUCH_SEAT,
    MSG_OVER_MAXIMUM,
    MSG_PAIR_CONTRADICTS,
    MSG_RESULT_CONTRADICTS,
    MSG_UNDER_MINIMUM,
)
from games.models import Hand
from games.payouts import RuleSet, SideBet
from games.rules import Winner
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import ledger_problems
from ledger.models import Bet, GuestEventResult, HandRevision, Seating, Settlement
from ledger.money import services as money_services
from ledger.money.amounts import money_sum
from tests.conftest import bet, entry, on_seat

D = Decimal
pytestmark = pytest.mark.django_db


def messages_of(raised: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return raised.value.messages


def nothing_written() -> bool:
    return not Hand.objects.exists() and not Bet.objects.exists()


def test_a_hand_from_the_cards_settles_every_bet(seated, shoe, record):
    hand = record(
        shoe,
        "9 7",
        "J J 10",
        [bet(1, "player", 100), bet(2, "banker", 50), bet(3, "banker_pair", 10)],
    )
    assert (hand.number, hand.winner, hand.banker_pair, hand.player_pair) == (
        1,
        "player",
        True,
        False,
    )
    settled = {b.seat: (b.guest, b.gross, b.commission, b.net) for b in hand.bets.all()}
    assert settled == {
        1: (seated[1], D("100.00"), D("0.00"), D("100.00")),
        2: (seated[2], D("-50.00"), D("0.00"), D("-50.00")),
        3: (seated[3], D("110.00"), D("0.00"), D("110.00")),
    }


def test_a_winning_banker_bet_pays_less_commission(seated, shoe, record):
    hand = record(shoe, "8 K", "9 K", [bet(2, "banker", 50)])
    only = hand.bets.get()
    assert (only.gross, only.commission, only.net) == (D("50.00"), D("2.50"), D("47.50"))


def test_a_tie_pushes_player_and_banker_and_pays_the_tie(seated, shoe, record):
    hand = record(
        shoe, "8 K", "8 Q", [bet(1, "player", 20), bet(2, "banker", 20), bet(3, "tie", 10)]
    )
    assert {b.seat: b.net for b in hand.bets.all()} == {1: D(0), 2: D(0), 3: D("80.00")}


def test_a_hand_from_the_result_alone(seated, shoe, record):
    hand = record(
        shoe,
        bets=[bet(1, "banker", 100), bet(2, "player_pair", 10)],
        result=Winner.BANKER,
        player_pair=True,
    )
    assert (hand.player_cards, hand.winner, hand.player_pair) == ("", "banker", True)
    assert {b.seat: b.net for b in hand.bets.all()} == {1: D("95.00"), 2: D("110.00")}


def test_cards_are_stored_in_one_spelling(seated, shoe, record):
    hand = record(shoe, "t, 9h", "k♠ Q")
    assert (hand.player_cards, hand.banker_cards) == ("10 9h", "Ks Q")


@pytest.mark.parametrize(
    ("cards", "bets", "flags", "field", "message"),
    [
        (
            ("9 7", "J J 10"),
            [bet(1, "player", 5)],
            None,
            "bets",
            on_seat(1, "Player", MSG_UNDER_MINIMUM, stake="5", minimum="10"),
        ),
        (
            ("9 7", "J J 10"),
            [bet(1, "player", 1500)],
            None,
            "bets",
            on_seat(1, "Player", MSG_OVER_MAXIMUM, stake="1,500", maximum="1,000"),
        ),
        (("9 7", "J J 10"), [bet(1, "player", 0)], None, "bets", "more than zero"),
        (("9 7", "J J 10"), [bet(1, "player", -10)], None, "bets", "more than zero"),
        (("9 7", "J J 10"), [bet(1, "player", "10.005")], None, "bets", "to the cent"),
        (
            ("9 7", "J J 10"),
            [bet(8, "player", 10)],
            None,
            "bets",
            on_seat(8, "Player", MSG_NO_SUCH_SEAT, seat=8, last=7),
        ),
        (("9 7", "J J 10"), [bet(1, "dragon_7", 10)], None, "bets", "Dragon 7 is not offered"),
        (
            ("9 7", "J J 10"),
            [bet(1, "player", 10), bet(1, "player", 20)],
            None,
            "bets",
            on_seat(1, "Player", MSG_DUPLICATE_BET),
        ),
        (("10 5", "10 7"), [], None, "cards", "Player has 5 and must draw"),
        (("10 6", "10 6 A"), [], None, "cards", "Banker must stand"),
        (("9 X", "J J 10"), [], None, "player_cards", "Unknown card 'X'"),
        (("9 7", ""), [], None, "cards", "Banker needs two cards"),
        (
            ("9 7", "J J 10"),
            [],
            {"result": Winner.BANKER},
            "result",
            MSG_RESULT_CONTRADICTS.format(actual="Player", player=6, banker=0, given="Banker"),
        ),
        (
            ("9 7", "J J 10"),
            [],
            {"player_pair": True},
            "player_pair",
            MSG_PAIR_CONTRADICTS.format(side="Player"),
        ),
        (("", ""), [], None, "result", MSG_NO_RESULT),
        (
            ("", ""),
            [bet(1, "dragon_bonus_player", 10)],
            {"result": Winner.PLAYER},
            "bets",
            "is not offered",
        ),
    ],
)
def test_bad_input_is_refused_with_its_reason_and_writes_nothing(
    seated, shoe, record, cards, bets, flags, field, message
):
    with pytest.raises(ValidationError) as raised:
        record(shoe, *cards, bets, **(flags or {}))
    errors = raised.value.message_dict
    assert field in errors
    assert any(str(message) in text for text in errors[field]), errors
    assert nothing_written()


def test_a_bet_on_an_empty_seat_is_refused(shoe, guests, record, host):
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[0], by=host)
    with pytest.raises(ValidationError) as raised:
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10), bet(4, "banker", 10)])
    assert messages_of(raised) == [on_seat(4, "Banker", MSG_EMPTY_SEAT)]
    assert nothing_written()


def test_side_bets_settled_from_cards_need_the_cards(make_event, host, record):
    event = make_event(rules=RuleSet(side_bets=frozenset(SideBet)))
    guest = guest_services.event_guest_add(event=event, name="Aki", by=host)
    shoe = game_services.shoe_start(event=event, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guest, by=host)
    with pytest.raises(ValidationError, match="settled from the cards"):
        record(shoe, bets=[bet(1, "dragon_7", 10)], result=Winner.BANKER)
    hand = record(shoe, "K K 3", "4 J 3", [bet(1, "dragon_7", 10)])  # Banker three-card 7
    assert hand.bets.get().net == D("400.00")


def test_every_problem_in_the_bets_is_listed_at_once(seated, shoe, record):
    with pytest.raises(ValidationError) as raised:
        record(shoe, "9 7", "J J 10", [bet(1, "player", 5), bet(2, "banker", 5000)])
    assert len(raised.value.message_dict["bets"]) == 2


def test_a_repeated_submission_is_recorded_once(seated, shoe, host):
    key = uuid.uuid4()
    arguments = {
        "shoe": shoe,
        "number": 1,
        "entry": entry("9 7", "J J 10", [bet(1, "player", 10)]),
        "by": host,
        "idempotency_key": key,
    }
    first = hand_services.record_hand(**arguments).hand
    again = hand_services.record_hand(**arguments).hand
    assert again.pk == first.pk
    assert Hand.objects.count() == 1
    assert Bet.objects.count() == 1


def test_a_second_device_logging_the_same_hand_is_told_who_got_there_first(
    seated, shoe, host, dealer
):
    hand_services.record_hand(
        shoe=shoe, entry=entry(result=Winner.TIE), number=1, by=host, idempotency_key=uuid.uuid4()
    )
    with pytest.raises(hand_services.HandTaken) as raised:
        hand_services.record_hand(
            shoe=shoe,
            entry=entry("", "", [bet(1, "banker", 10)], result=Winner.BANKER),
            number=1,
            by=dealer,
            idempotency_key=uuid.uuid4(),
        )
    assert "Hand 1 was already recorded by hostess" in messages_of(raised)[0]
    assert "the table now shows hand 2" in messages_of(raised)[0]
    assert Hand.objects.count() == 1
    assert not Bet.objects.exists()


def test_a_hand_number_out_of_sequence_is_refused(seated, shoe, host):
    with pytest.raises(hand_services.HandTaken) as raised:
        hand_services.record_hand(shoe=shoe, entry=entry(result=Winner.TIE), number=3, by=host)
    assert messages_of(raised) == [hand_services.MSG_HAND_OUT_OF_SEQUENCE.format(number=3, next=1)]


def test_nothing_is_logged_into_a_closed_shoe_or_event(seated, shoe, event, record, host):
    record(shoe, "9 7", "J J 10")
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    with pytest.raises(ValidationError) as raised:
        record(shoe, "8 K", "9 K")
    assert messages_of(raised) == [game_services.MSG_SHOE_CLOSED.format(number=1)]
    game_services.mark_event_closed(event=event, by=host)
    with pytest.raises(ValidationError) as raised:
        record(shoe, "8 K", "9 K")
    assert messages_of(raised) == [game_services.MSG_EVENT_CLOSED]
    with pytest.raises(ValidationError):
        game_services.shoe_start(event=event, by=host)
    assert Hand.objects.count() == 1


def test_a_swap_between_hands_keeps_each_guests_results_their_own(
    seated, shoe, guests, record, host
):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)  # Hana takes seat 1
    record(shoe, "9 7", "J J 10", [bet(1, "player", 30)])
    by_guest = dict(Bet.objects.values_list("guest__name").annotate(n=money_sum("net")))
    assert by_guest == {"Aki": D("100.00"), "Hana": D("30.00")}
    seatings = list(
        Seating.objects.filter(seat=1).values_list("guest__name", "from_hand", "to_hand")
    )
    assert seatings == [("Aki", 1, 1), ("Hana", 2, None)]


def test_a_guest_moving_seats_frees_the_old_one(seated, shoe, record, host):
    record(shoe, "9 7", "J J 10")
    hand_services.seat_guest(shoe=shoe, seat=2, guest=seated[1], by=host)  # Aki moves to Ben's seat
    current = dict(Seating.objects.filter(to_hand__isnull=True).values_list("seat", "guest__name"))
    assert current[2] == "Aki"
    assert 1 not in current


def test_seating_someone_before_any_hand_is_played_leaves_no_trace(shoe, guests, host):
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[0], by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[1], by=host)
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    assert not Seating.objects.exists()


def test_only_guests_on_the_list_are_seated_and_only_in_seats_1_to_7(
    shoe, guests, make_event, host
):
    other = make_event(name="Another night")
    stranger = guest_services.event_guest_add(event=other, name="Zed", by=host)
    with pytest.raises(ValidationError, match="not on this event's guest list"):
        hand_services.seat_guest(shoe=shoe, seat=1, guest=stranger, by=host)
    with pytest.raises(ValidationError, match="no seat 8"):
        hand_services.seat_guest(shoe=shoe, seat=8, guest=guests[0], by=host)


def test_undo_takes_back_the_last_hand_and_journals_it(seated, shoe, record, host):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 40)])
    revision = hand_services.hand_undo(shoe=shoe, by=host)
    assert list(shoe.hands.values_list("number", flat=True)) == [1]
    assert Bet.objects.count() == 1
    assert (revision.kind, revision.hand_number, revision.changed_by) == ("undo", 2, host)
    assert revision.before["banker_cards"] == "9 K"
    assert revision.before["bets"][0] | {"guest_id": None} == {
        "seat": 2,
        "guest_id": None,
        "guest": "Ben",
        "bet_type": "banker",
        "stake": "40.00",
        "gross": "40.00",
        "commission": "2.00",
        "net": "38.00",
    }
    assert record(shoe, "8 K", "8 Q").number == 2  # the number is free again


def test_an_undo_sent_again_with_its_key_takes_back_nothing_more(seated, shoe, record, host):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 40)])
    key = uuid.uuid4()
    first = hand_services.hand_undo(shoe=shoe, by=host, number=2, idempotency_key=key)
    again = hand_services.hand_undo(
        shoe=shoe, by=host, number=2, idempotency_key=key
    )  # answer lost
    assert again.pk == first.pk
    assert list(shoe.hands.values_list("number", flat=True)) == [1]
    assert HandRevision.objects.filter(kind="undo").count() == 1
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    other = game_services.shoe_start(event=shoe.event, by=host)
    record(other, "9 7", "J J 10")
    with pytest.raises(ValidationError, match="another shoe"):
        hand_services.hand_undo(shoe=other, by=host, idempotency_key=key)


def test_undo_with_no_hand_or_in_a_closed_shoe_is_refused(seated, shoe, record, host):
    with pytest.raises(ValidationError, match="no hand to undo"):
        hand_services.hand_undo(shoe=shoe, by=host)
    record(shoe, "9 7", "J J 10")
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    with pytest.raises(ValidationError, match="closed"):
        hand_services.hand_undo(shoe=shoe, by=host)
    assert Hand.objects.count() == 1


def test_a_correction_resettles_every_bet_and_keeps_the_old_version(seated, shoe, record, host):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    corrected = hand_services.hand_correct(
        hand=hand,
        entry=entry("9 7", "J J 8", [bet(1, "player", 100), bet(2, "banker", 60)]),
        reason="Dealer misread the cards",
        by=host,
    )
    assert (corrected.winner, corrected.version) == ("banker", 2)
    assert {b.seat: b.net for b in corrected.bets.all()} == {1: D("-100.00"), 2: D("57.00")}
    revision = HandRevision.objects.get()
    assert (revision.kind, revision.reason, revision.changed_by) == (
        "correction",
        "Dealer misread the cards",
        host,
    )
    assert revision.before["banker_cards"] == "J J 10"
    assert [b["net"] for b in revision.before["bets"]] == ["100.00", "-50.00"]
    assert revision.after["version"] == 2
    assert shoe.hands.aggregate(n=money_sum("bets__net"))["n"] == D("-43.00")


def test_a_correction_needs_a_reason_and_valid_cards_and_changes_nothing_otherwise(
    seated, shoe, record, host
):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    with pytest.raises(ValidationError) as raised:
        hand_services.hand_correct(hand=hand, entry=entry(result=Winner.TIE), reason=" ", by=host)
    assert raised.value.message_dict == {"reason": [hand_services.MSG_REASON_REQUIRED]}
    with pytest.raises(ValidationError, match="must draw"):
        hand_services.hand_correct(hand=hand, entry=entry("10 5", "10 7"), reason="x", by=host)
    hand.refresh_from_db()
    assert (hand.version, hand.player_cards, Bet.objects.count()) == (1, "9 7", 1)
    assert not HandRevision.objects.exists()


def test_a_closed_shoe_can_still_be_corrected_until_the_event_closes(
    seated, shoe, event, record, host
):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    hand_services.hand_correct(
        hand=hand, entry=entry(result=Winner.TIE), reason="late fix", by=host
    )
    game_services.mark_event_closed(event=event, by=host)
    with pytest.raises(ValidationError, match="event is closed"):
        hand_services.hand_correct(
            hand=hand, entry=entry(result=Winner.PLAYER), reason="too late", by=host
        )


def test_shoes_are_numbered_and_one_is_open_at_a_time(event, host):
    first = game_services.shoe_start(event=event, by=host)
    with pytest.raises(ValidationError, match="Shoe 1 is still open"):
        game_services.shoe_start(event=event, by=host)
    with pytest.raises(ValidationError, match="close it before closing the event"):
        game_services.mark_event_closed(event=event, by=host)
    game_services.mark_shoe_closed(shoe=first, by=host)
    assert game_services.shoe_start(event=event, by=host).number == 2


def test_guests_are_found_by_name_and_brought_back_in_one_go(make_event, host):
    last_week = make_event(name="Last week")
    for name in ("Aki", "Ben", "Chie"):
        guest_services.event_guest_add(event=last_week, name=name, by=host)
    tonight = make_event(name="Tonight")
    guest_services.event_guest_add(event=tonight, name="  aki ", by=host)  # a returning guest
    assert guest_services.event_guests_bring_back(event=tonight, from_event=last_week, by=host) == 2
    assert sorted(tonight.guests.values_list("name", flat=True)) == ["Aki", "Ben", "Chie"]
    with pytest.raises(ValidationError, match="already a guest called Ben"):
        guest_services.guest_create(name="BEN")


def test_the_rule_set_is_copied_onto_the_event(make_event):
    event = make_event(rules=RuleSet(commission_rate=D("0.04"), tie_pays=9))
    assert event.rule_set == RuleSet(commission_rate=D("0.04"), tie_pays=9)
    assert event.rules["commission_rate"] == "0.04"


def test_a_correction_that_changes_nothing_is_refused(seated, shoe, record, host):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    with pytest.raises(ValidationError) as raised:
        hand_services.hand_correct(
            hand=hand,
            entry=entry("9 7", "J J 10", [bet(1, "player", 100)]),
            reason="just checking",
            by=host,
        )
    assert messages_of(raised) == [hand_services.MSG_NOTHING_CHANGED]
    assert not HandRevision.objects.exists()


def test_after_an_undo_the_seats_as_they_stand_play_the_hand_again(seated, shoe, record, host):
    """Aki plays hand 1; the host seats Hana in seat 1 "from the next hand"; hand 1 is undone.
    Hand 1 is now Hana's to play, and no seating covers it twice."""
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    hana = seated[1].__class__.objects.get(name="Hana")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=hana, by=host)
    hand_services.hand_undo(shoe=shoe, by=host)
    again = record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    assert again.number == 1
    assert again.bets.get().guest == hana
    assert list(Seating.objects.filter(seat=1).values_list("guest__name", "from_hand")) == [
        ("Hana", 1)
    ]
    assert ledger_problems() == []


def test_undo_keeps_earlier_seatings_and_ends_them_before_the_hand_again(
    seated, shoe, record, host
):
    for _ in range(3):
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)  # Aki leaves after hand 3
    hand_services.hand_undo(shoe=shoe, by=host)
    assert list(Seating.objects.filter(seat=1).values_list("from_hand", "to_hand")) == [(1, 2)]
    with pytest.raises(ValidationError):  # seat 1 is empty for hand 3 now
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    assert ledger_problems() == []


def test_a_save_whose_seats_changed_since_the_page_was_drawn_is_refused(seated, shoe, host):
    seen = {seat: guest.pk for seat, guest in seated.items()}
    hand_services.seat_clear(shoe=shoe, seat=3, by=host)
    with pytest.raises(hand_services.SeatingChanged) as raised:
        hand_services.record_hand(
            shoe=shoe,
            number=1,
            by=host,
            seen_seating=seen,
            entry=entry("9 7", "J J 10", [bet(3, "player", 10)]),
        )
    seat_3 = hand_services.MSG_SEAT_NOW_EMPTY.format(seat=3)
    assert messages_of(raised) == [f"{seat_3} Player 10 was bet by {seated[3].name}."]
    [change] = raised.value.changes
    assert (change.seat, change.was, change.now) == (3, seated[3], None)
    assert [(one.name, one.kind, one.stake) for one in change.bets] == [
        ("stake_3_player", "Player", "10")
    ]
    assert not Hand.objects.exists()


def test_a_key_used_again_with_other_bets_is_refused_not_dropped(seated, shoe, host):
    key = uuid.uuid4()
    first = hand_services.record_hand(
        shoe=shoe,
        number=1,
        by=host,
        idempotency_key=key,
        entry=entry("9 7", "J J 10", [bet(1, "player", 10)]),
    ).hand
    with pytest.raises(ValidationError) as raised:
        hand_services.record_hand(
            shoe=shoe,
            number=1,
            by=host,
            idempotency_key=key,
            entry=entry("9 7", "J J 10", [bet(1, "player", 20)]),
        )
    assert messages_of(raised) == [hand_services.MSG_KEY_REUSED.format(number=first.number)]
    assert Bet.objects.get().stake == D(10)


@pytest.mark.parametrize("amount", ["1e30", "100000000000.00", "10.005", "NaN"])
def test_a_settlement_out_of_bounds_is_refused_in_words(seated, shoe, host, amount):
    with pytest.raises(ValidationError) as raised:
        money_services.settlement_record(
            guest=seated[1], event=shoe.event, amount=D(amount), method="cash", by=host
        )
    assert "amount" in raised.value.message_dict
    assert not Settlement.objects.exists()


def test_a_settlement_note_with_a_control_character_is_refused(seated, shoe, host):
    with pytest.raises(ValidationError) as raised:
        money_services.settlement_record(
            guest=seated[1],
            event=shoe.event,
            amount=D(10),
            method="other",
            note="paid\u0001",
            by=host,
        )
    assert raised.value.message_dict == {
        "note": [money_services.MSG_NOTE_CHARACTER.format(code="U+0001")]
    }


def test_the_guests_totals_are_added_to_hand_by_hand_as_a_rebuild_finds_them(
    seated, shoe, event, record, host
):
    record(shoe, "9 7", "J J 10", [bet(1, "banker", 10), bet(1, "tie", 10), bet(2, "player", 30)])
    record(shoe, "", "", [bet(1, "player", 20), bet(3, "banker", "12.50")], result="banker")
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    second = game_services.shoe_start(event=event, by=host)
    hand_services.seat_guest(shoe=second, seat=4, guest=seated[1], by=host)
    record(second, "8 K", "9 K", [bet(4, "banker", 40), bet(4, "player_pair", 10)])

    def totals():
        rows = GuestEventResult.objects.order_by("guest_id")
        return list(rows.values_list("guest__name", "hands", "stake", "gross", "commission", "net"))

    kept = totals()
    assert kept == [
        ("Aki", 3, Decimal(90), Decimal(-10), Decimal(2), Decimal(-12)),
        ("Ben", 1, Decimal(30), Decimal(30), Decimal(0), Decimal(30)),
        ("Chie", 1, Decimal("12.50"), Decimal("12.50"), Decimal("0.63"), Decimal("11.87")),
    ]
    money_services.results_rebuild()
    assert totals() == kept
    assert ledger_problems() == []
