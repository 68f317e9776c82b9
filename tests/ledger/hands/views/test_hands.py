"""A hand's page (ledger/hands/views/hands.py): its bets, its history and the host's correction."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.entry import MSG_UNDER_MINIMUM
from ledger.hands import services as hand_services
from ledger.hands.forms import (
    MSG_HAND_NUMBER_MISSING,
    MSG_HAND_NUMBER_UNREADABLE,
    MSG_ON_GUEST_SEAT,
)
from ledger.hands.services import MSG_HAND_CHANGED, MSG_HAND_GONE
from ledger.hands.views.hands import MSG_NO_HANDS_YET, MSG_NO_SUCH_HAND
from ledger.models import Bet, HandRevision
from tests.conftest import bet, entry
from tests.pages import table_url, text

D = Decimal
pytestmark = pytest.mark.django_db


def test_the_host_corrects_a_hand_and_sees_its_history(client, host, seated, shoe, record):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    url = reverse("ledger:hand_detail", args=[hand.pk])
    form_page = text(client.get(url))
    assert 'name="player_cards" value="9 7"' in form_page
    assert 'name="stake_1_player" value="100"' in form_page
    response = client.post(
        url,
        {
            "player_cards": "9 7",
            "banker_cards": "J J 8",
            "stake_1_player": "100",
            "reason": "misread the 8",
            "version": "1",
        },
    )
    assert response.status_code == 302
    page = text(client.get(url))
    assert "Correction</strong> by hostess" in page
    assert "misread the 8" in page
    assert "Before (version 1): Player, P 9 7 / B J J 10." in page
    assert "Seat 1 Aki: Player 100 (+100)" in page
    assert "After (version 2): Banker" in page
    assert Bet.objects.get().net == D("-100.00")
    refused = text(
        client.post(
            url,
            {"player_cards": "9 7", "banker_cards": "J J 8", "stake_1_player": "100", "reason": ""},
        )
    )
    assert "This field is required." in refused
    assert HandRevision.objects.count() == 1


def test_bets_show_their_names_not_their_codes(client, host, seated, shoe, record):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "banker_pair", 10)])
    page = text(client.get(reverse("ledger:hand_detail", args=[hand.pk])))
    assert "<td>Banker pair</td>" in page
    assert Bet.objects.get().get_bet_type_display() == "Banker pair"


def test_two_corrections_from_one_version_never_overwrite_each_other(
    client, host, seated, shoe, record
):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    url = reverse("ledger:hand_detail", args=[hand.pk])
    first = {"player_cards": "9 7", "banker_cards": "J J 8", "stake_1_player": "100",
             "reason": "misread the 8", "version": "1"}  # fmt: skip
    second = first | {"banker_cards": "J J 10", "stake_1_player": "50", "reason": "stake was 50"}
    assert client.post(url, first).status_code == 302
    page = text(client.post(url, second))
    assert MSG_HAND_CHANGED.format(number=1, version=2) in page
    assert 'name="stake_1_player" value="50"' in page and 'name="version" value="2"' in page
    hand.refresh_from_db()
    assert (hand.version, hand.banker_cards) == (2, "J J 8")  # the first correction stands
    assert client.post(url, second | {"version": "2"}).status_code == 302  # deliberately
    hand.refresh_from_db()
    assert (hand.version, Bet.objects.get().stake) == (3, D(50))


@pytest.mark.parametrize("version", ["0", "-5", str(2**40), "abc", None])
def test_a_correction_whose_version_cannot_be_read_says_so_and_changes_nothing(
    client, host, seated, shoe, record, version
):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    url = reverse("ledger:hand_detail", args=[hand.pk])
    posted = {"player_cards": "9 7", "banker_cards": "J J 8", "stake_1_player": "100",
              "reason": "misread the 8", "version": version}  # fmt: skip
    page = text(client.post(url, {k: v for k, v in posted.items() if v is not None}))
    summary = re.search(r'<ul class="errorlist summary" role="alert">(.*?)</ul>', page, re.S)
    assert summary and "Reload the page." in summary.group(1)
    hand.refresh_from_db()
    assert (hand.version, hand.banker_cards) == (1, "J J 10")


def test_a_correction_of_a_hand_undone_meanwhile_is_told_so(seated, shoe, record, host):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    hand_services.hand_undo(shoe=shoe, by=host)
    with pytest.raises(ValidationError) as raised:
        hand_services.hand_correct(hand=hand, entry=entry(result="T"), reason="late", by=host)
    assert raised.value.messages == [MSG_HAND_GONE.format(number=1)]


# --- every hand within reach: by its number, the index, previous and next -------------------


def play(shoe, record, count: int) -> list:
    """``count`` hands, Banker, Player and Tie in turn, with Aki's bet on each."""
    results = ("B", "P", "T")
    return [
        record(
            shoe,
            result=results[n % 3],
            bets=[bet(1, "banker", 10)],
            player_pair=False,
            banker_pair=False,
        )
        for n in range(count)
    ]


def hand_url(hand) -> str:
    return reverse("ledger:hand_detail", args=[hand.pk])


def go(client, shoe, **params):
    return client.get(reverse("ledger:hand_go", args=[shoe.pk]), params)


def test_a_hand_is_found_by_its_number(client, dealer, seated, shoe, record):
    hands = play(shoe, record, 3)
    client.force_login(dealer)
    response = client.get(reverse("ledger:hand_by_number", args=[shoe.pk, 2]))
    assert (response.status_code, response.url) == (302, hand_url(hands[1]))
    for args in ([shoe.pk, 4], [shoe.pk, 0], [shoe.pk, 99999999999], [shoe.pk + 1, 1]):
        assert client.get(reverse("ledger:hand_by_number", args=args)).status_code == 404
    too_long = f"/shoes/{shoe.pk}/hands/99999999999999999999/"
    assert client.get(too_long).status_code == 404


def test_only_table_staff_find_hands_by_number(client, outsider, seated, shoe, record):
    play(shoe, record, 1)
    url = reverse("ledger:hand_by_number", args=[shoe.pk, 1])
    assert client.get(url).url.startswith("/accounts/login/")
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert go(client, shoe, number="1").status_code == 403


def test_go_to_hand_takes_a_typed_number_to_its_page(client, host, seated, shoe, record):
    hands = play(shoe, record, 3)
    client.force_login(host)
    for typed in ("3", " 3 ", "03", "３"):  # full-width digits are digits
        response = go(client, shoe, number=typed)
        assert (response.status_code, response.url) == (302, hand_url(hands[2])), typed


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", MSG_HAND_NUMBER_UNREADABLE.format(text="abc")),
        ("-1", MSG_HAND_NUMBER_UNREADABLE.format(text="-1")),
        ("0", MSG_HAND_NUMBER_UNREADABLE.format(text="0")),
        ("1.5", MSG_HAND_NUMBER_UNREADABLE.format(text="1.5")),
        ("𝟑", MSG_HAND_NUMBER_UNREADABLE.format(text="𝟑")),  # only 0-9, never another script's
        ("٣", MSG_HAND_NUMBER_UNREADABLE.format(text="٣")),
        ("③", MSG_HAND_NUMBER_UNREADABLE.format(text="③")),
        ("99999999999999999999", MSG_HAND_NUMBER_UNREADABLE.format(text="999999999999…")),
        ("", str(MSG_HAND_NUMBER_MISSING)),
        ("4", MSG_NO_SUCH_HAND.format(shoe=1, number=4, last=3)),
        ("32767", MSG_NO_SUCH_HAND.format(shoe=1, number=32767, last=3)),
    ],
)
def test_go_to_hand_says_why_it_cannot_go(client, host, seated, shoe, record, typed, message):
    play(shoe, record, 3)
    client.force_login(host)
    response = go(client, shoe, number=typed)
    assert (response.status_code, response.url) == (302, table_url(shoe))
    assert message in text(client.get(response.url))


def test_go_to_hand_from_a_hand_page_comes_back_to_it(client, host, seated, shoe, record):
    hands = play(shoe, record, 3)
    client.force_login(host)
    response = go(client, shoe, number="9", at="2")
    assert response.url == hand_url(hands[1])
    assert MSG_NO_SUCH_HAND.format(shoe=1, number=9, last=3) in text(client.get(response.url))
    assert go(client, shoe, number="x", at="junk").url == table_url(shoe)


def test_go_to_hand_in_a_shoe_without_hands(client, host, shoe):
    client.force_login(host)
    response = go(client, shoe, number="1")
    assert MSG_NO_HANDS_YET.format(shoe=1) in text(client.get(response.url))
    assert go(client, shoe.__class__(pk=shoe.pk + 1), number="1").status_code == 404


def test_a_hands_page_lists_every_hand_of_its_shoe_and_steps_between_them(
    client, dealer, seated, shoe, record
):
    hands = play(shoe, record, 12)
    client.force_login(dealer)
    page = text(client.get(hand_url(hands[4])))
    numbers = re.findall(r'class="hand-link hand-link-(\w+)"[^>]*>(\d+)</a>', page)
    assert [int(n) for _w, n in numbers] == list(range(1, 13))
    assert [w for w, _n in numbers[:3]] == ["banker", "player", "tie"]
    assert 'aria-current="page">5</a>' in page
    assert f'rel="prev" href="{hand_url(hands[3])}">← Hand 4</a>' in page
    assert f'rel="next" href="{hand_url(hands[5])}">Hand 6 →</a>' in page
    assert f'action="{reverse("ledger:hand_go", args=[shoe.pk])}"' in page
    assert '<input type="hidden" name="at" value="5">' in page
    first, last = text(client.get(hand_url(hands[0]))), text(client.get(hand_url(hands[-1])))
    assert 'rel="prev"' not in first and 'rel="next"' in first
    assert 'rel="next"' not in last and 'rel="prev"' in last


def test_the_table_page_has_the_shoes_hand_index(client, host, seated, shoe, record):
    play(shoe, record, 3)
    client.force_login(host)
    index = client.get(table_url(shoe)).context["hand_index"]
    assert (index.shoe_id, index.current) == (shoe.pk, None)
    assert [(h.number, h.winner) for h in index.hands] == [
        (1, "banker"),
        (2, "player"),
        (3, "tie"),
    ]


@pytest.mark.parametrize("page", ["hand", "table"])
def test_the_hand_and_table_pages_run_the_same_queries_with_5_or_60_hands(
    client, host, seated, shoe, record, page, django_assert_max_num_queries
):
    client.force_login(host)
    hands = play(shoe, record, 5)

    def visit():
        url = hand_url(hands[2]) if page == "hand" else table_url(shoe)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    small = visit()
    play(shoe, record, 55)
    with django_assert_max_num_queries(small):
        visit()


def test_the_correction_form_names_who_sat_in_each_seat(client, host, seated, shoe, record):
    hand_services.seat_clear(shoe=shoe, seat=7, by=host)
    hand = record(shoe, "9 7", "J J 10", [bet(3, "player", 100)])
    hand_services.seat_guest(shoe=shoe, seat=3, guest=seated[1], by=host)  # from the next hand on
    client.force_login(host)
    page = text(client.get(hand_url(hand)))
    assert '<th scope="row">Seat 3 · Chie</th>' in page  # who sat there for this hand
    assert '<th scope="row">Seat 7 · empty</th>' in page
    refused = text(
        client.post(
            hand_url(hand),
            {
                "player_cards": "9 7",
                "banker_cards": "J J 10",
                "stake_3_player": "5",
                "reason": "stake",
                "version": "1",
            },
        )
    )
    problem = MSG_UNDER_MINIMUM.format(stake="5", minimum="10")
    assert MSG_ON_GUEST_SEAT.format(seat=3, guest="Chie", bet="Player", problem=problem) in refused
