"""The ratings where people read them: the guest's own page (by link and logged in), the host's
page of a guest, the House page; each guest sees only their own."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services as game_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest
from ledger.ratings.selectors import ratings_for
from tests.conftest import bet

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def night(event, seated, shoe, record):
    """Aki: banker 100, player 200, tie 50, the player wins (theo 10.71, actual −50); Ben:
    banker 1,000 on the same hand (theo 10.58, actual 1,000)."""
    record(
        shoe,
        "9 J",
        "8 J",
        [bet(1, "banker", 100), bet(1, "player", 200), bet(1, "tie", 50), bet(2, "banker", 1000)],
    )
    return event


def rating_rows(page: str) -> list[str]:
    start = page.index('id="guest-rating"')
    return page[start : page.index("</section>", start)].split("<tr")[1:]


def test_the_guest_sees_their_rating_by_link_and_logged_in_and_nobody_else_s(client, night, seated):
    aki, ben = seated[1], seated[2]
    guest_services.guest_link_issue(guest=aki)
    aki.refresh_from_db()
    url = reverse("ledger:guest_page", args=[aki.pk, aki.access_token])
    page = client.get(url).content.decode()
    rows = rating_rows(page)
    assert len(rows) == 3  # the header, the year, the night
    assert "10.71" in rows[1] and "−50" in rows[1] and "350" in rows[1]
    assert "10.58" not in page and "1,000" not in page  # Ben's figures are not on Aki's page
    assert 'class="band-chart"' in page
    user = User.objects.create_user("ben", password="pw-for-tests")
    Guest.objects.filter(pk=ben.pk).update(user=user)
    client.force_login(user)
    mine = client.get(reverse("ledger:my_page")).content.decode()
    assert "10.58" in rating_rows(mine)[2] and "10.71" not in mine


def test_the_host_s_page_of_a_guest_shows_the_rating(client, host, night, seated):
    client.force_login(host)
    page = client.get(reverse("ledger:guest_detail", args=[seated[1].pk])).content.decode()
    assert "10.71" in rating_rows(page)[2]


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pages_queries_do_not_grow_with_the_nights(client, host, make_event, record):
    def play(name):
        event = make_event(name=name)
        aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
        shoe = game_services.shoe_start(event=event, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        for _ in range(3):
            record(shoe, "9 J", "8 J", [bet(1, "banker", 100), bet(1, "tie", 10)])
        return aki

    client.force_login(host)
    aki = play("One")
    detail, house = reverse("ledger:guest_detail", args=[aki.pk]), reverse("ledger:house")
    few = queries(client, detail), queries(client, house)
    for n in range(4):
        play(f"More {n}")
    assert (queries(client, detail), queries(client, house)) <= few


def test_the_house_page_shows_theoretical_and_actual_hold(client, host, night):
    client.force_login(host)
    page = client.get(reverse("ledger:house")).content.decode()
    ratings = ratings_for([night])
    assert ratings.house.theo == D("21.29")  # 10.7079 + 10.579
    assert ratings.house.actual == D(950)
    assert 'id="house-ratings"' in page
    assert "21.29" in page and "1.58%" in page  # 21.2869 / 1,350
    assert "70.37%" in page  # 950 / 1,350
