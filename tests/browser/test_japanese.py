"""Japanese everywhere: every page each role can reach, crawled in Japanese, shows no English.

The night is all Japanese (names, usernames, event), so any Latin word of three letters or more on
a page is a text the project forgot to translate. What is meant to stay as it is (a brand, a file
format) is either in ``NOT_WORDS`` or marked up with HTML's ``translate="no"``.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from decimal import Decimal
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from django.utils import translation

from games import services as game_services
from games.currencies import currency_codes
from games.payouts import RuleSet, SideBet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.money import services as money_services
from ledger.nights import services as night_services
from shoebook.base.roles import DEALERS, HOSTS
from tests.browser.conftest import choose_language, new_page
from tests.conftest import bet, make_user
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("田中", "小林", "佐藤", "鈴木", "高橋", "伊藤", "渡辺", "山本")
NOT_WORDS = {"Shoebook", "Excel", "PDF", "LINE", "CSV", "csv", "JSON", "zip", "xlsx", "ods", "URL"}
# CLDR's Japanese names of currencies keep these (the CFA and CFP francs), and ISO 4217.
NOT_WORDS |= {"CFA", "CFP", "ISO"}
SKIPPED = re.compile(r"^/(admin|accounts/logout|static|media)/|\.(xlsx|csv|pdf|js|webmanifest)$")
PAGES_PER_SHAPE = 2  # /hands/1/ and /hands/2/ are the same page: a few of each shape suffice
VISIBLE_TEXTS = """() => {
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('script, style, noscript, [translate=no]')) continue;
    texts.push(node.textContent);
  }
  const labelled = '[placeholder], [title], [aria-label], [alt], input[type=submit]';
  for (const element of document.querySelectorAll(labelled)) {
    if (element.closest('[translate=no]')) continue;
    for (const name of ['placeholder', 'title', 'aria-label', 'alt', 'value']) {
      if (name === 'value' && element.tagName !== 'INPUT') continue;
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts.join('\\n');
}"""


@pytest.fixture
def japanese_night(live_server, record):
    """Two events in Japanese with hands, seats, a settlement and each role's login."""
    host = make_user("主人", HOSTS)
    make_user("ディーラー", DEALERS)
    guest_user = make_user("田中さん", None)
    earlier = game_services.event_create(
        name="十月の夜", date=date(2026, 10, 9), rules=RuleSet(), by=host
    )
    widest = RuleSet(tie_pays=9, pair_pays=12, side_bets=frozenset(SideBet))  # every column
    event = game_services.event_create(
        name="忘年会", date=date(2026, 11, 20), rules=widest, by=host
    )
    for night in (earlier, event):
        guests = [guest_services.event_guest_add(event=night, name=name, by=host) for name in NAMES]
        shoe = game_services.shoe_start(event=night, by=host)
        for seat, guest in enumerate(guests[:7], start=1):
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
        record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)], by=host)
        record(shoe, bets=[bet(3, "tie", 10), bet(4, "banker", 40)], result="banker", by=host)
    game_services.mark_shoe_closed(shoe=earlier.shoes.get(), by=host)
    night_services.event_close(event=earlier, by=host)
    tanaka = guests[0]
    tanaka.user = guest_user
    tanaka.save(update_fields=["user"])
    money_services.settlement_record(
        guest=tanaka, event=event, amount=Decimal(-100), method="cash", by=host
    )
    token = guest_services.guest_link_issue(guest=guests[1])
    display = game_services.event_display_link_issue(event=event)
    with translation.override("ja"):  # a Japanese host: the tables are named in Japanese
        final_table = _japanese_tournament(host, record)
    table_display = game_services.event_display_link_issue(event=final_table)
    return {
        "主人": [
            "/events/",
            "/guests/",
            "/standings/",
            "/house/",
            "/audit/",
            "/rules/",
            "/events/new/",
            "/events/import/",
            "/tournaments/",
        ],
        "ディーラー": ["/events/", "/rules/", "/tournaments/"],
        "田中さん": ["/me/", "/rules/"],
        None: [
            "/accounts/login/",
            f"/g/{guests[1].pk}/{token}/",
            f"/display/{event.pk}/{display}/",
            f"/display/{final_table.pk}/{table_display}/",
        ],
    }


def _japanese_tournament(host, record):
    """A tournament of the same guests: a heat played and closed, the final under way."""
    cup = tournament_services.tournament_create(
        name="春の大会",
        date=date(2026, 11, 21),
        by=host,
        entry_fee=Decimal(50),
        rebuy_price=Decimal(50),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=2,
        add_on_round=2,
        add_on_price=Decimal(20),
        add_on_chips=Decimal(500),
        secret_bet="any",
    )
    for name in NAMES:
        tournament_services.entrant_add(tournament=cup, name=name, by=host)
    heat = tournament_services.round_add(tournament=cup, by=host, hands=1, per_table=2)
    final = tournament_services.round_add(tournament=cup, by=host, hands=2, is_final=True)
    tournament_services.round_draw(round_=heat, by=host, seed=1)
    heat = tournament_services.round_start(round_=heat, by=host)
    for table in heat.tables.all():
        stakes = [bet(1, "banker", 100), bet(2, "player", 100), bet(3, "banker", 50)]
        record(table.event.shoes.get(), bets=stakes, result="banker", by=host)
    tournament_services.round_close(round_=heat, by=host)
    tournament_services.round_draw(round_=final, by=host, seed=1)
    final = tournament_services.round_start(round_=final, by=host)
    table = final.tables.get()
    record(table.event.shoes.get(), bets=[bet(2, "player", 200)], result="player", by=host)
    return table.event


def crawl(page, base_url: str, start: list[str], limit: int = 80, read=None) -> dict[str, str]:
    """Every page reachable by links from ``start``: path → what ``read`` (a script; the page's
    visible texts when None) finds there."""
    to_visit, seen, shapes, texts = list(start), set(start), Counter(), {}
    found_on = {}
    while to_visit and len(texts) < limit:
        path = to_visit.pop(0)
        address = urlsplit(path)
        shape = re.sub(r"\d+", "N", address.path) + "?" + ",".join(parse_qs(address.query))
        if shapes[shape] >= PAGES_PER_SHAPE:
            continue
        shapes[shape] += 1
        response = page.goto(base_url + path)
        assert response.ok, f"{path} (linked from {found_on.get(path)}) answers {response.status}"
        if "text/html" not in response.headers.get("content-type", ""):
            continue
        texts[path] = page.evaluate(read or VISIBLE_TEXTS)
        # A link marked download is a file (its words are tested with the file), not a page.
        links = "a[href]:not([download])"
        for href in page.eval_on_selector_all(links, "links => links.map(a => a.href)"):
            link = urlsplit(urljoin(base_url + path, href))
            target = link.path + (f"?{link.query}" if link.query else "")
            same_site = link.netloc == urlsplit(base_url).netloc
            if same_site and not SKIPPED.search(link.path) and target not in seen:
                seen.add(target)
                found_on[target] = path
                to_visit.append(target)
    return texts


# The services' own names, which no language translates (the ways to pay, ``ledger.payways``),
# and the links made with them.
BRANDS = re.compile(
    r"Cash App|LINE Pay|KakaoPay|PayPay|PayPal|Venmo|Revolut|Wise|Zelle|SEPA|Toss|https://\S+"
)


# A currency's ISO 4217 code (JPY, EUR): a code, written so in every language.
CURRENCY_CODES = re.compile(r"\b(?:" + "|".join(sorted(currency_codes())) + r")\b")


def english_words(text: str) -> list[str]:
    """Each English word with the words around it, to find where it comes from."""
    text = CURRENCY_CODES.sub(" ", BRANDS.sub(" ", text))
    return [
        text[max(0, found.start() - 20) : found.end() + 20].replace("\n", " ")
        for found in re.finditer(r"[A-Za-z]{3,}", text)
        if found.group() not in NOT_WORDS
    ]


def japanese_page(browser, base_url: str, username: str | None, *size: int, **options):
    """A page in Japanese, logged in as ``username`` (None: nobody)."""
    page = new_page(browser, *size, **options)
    choose_language(page, base_url, "ja")
    if username:
        page.goto(f"{base_url}/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "pw-for-tests")
        page.click("button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def test_every_page_each_role_reaches_is_all_japanese(browser, live_server, japanese_night):
    untranslated = {}
    crawled, shapes = 0, set()
    for username, start in japanese_night.items():
        page = japanese_page(browser, live_server.url, username, 1024, 768)
        for path, text in crawl(page, live_server.url, start).items():
            crawled += 1
            shapes.add(re.sub(r"\d+", "N", path.split("?")[0]))
            if words := english_words(text):
                untranslated[f"{username or 'anonymous'} {path}"] = words
        page.context.close()
    assert crawled > 30  # the crawl really went round the site
    tournament_pages = {"/tournaments/N/", "/tournaments/rounds/N/", "/shoes/N/"}
    assert tournament_pages <= shapes, sorted(shapes)
    english = new_page(browser, 1024, 768)
    english.goto(live_server.url + "/accounts/login/")
    assert english_words(english.evaluate(VISIBLE_TEXTS))  # it would see English if there were
    english.context.close()
    assert untranslated == {}


TOO_WIDE = """(() => document.documentElement.scrollWidth > innerWidth
    ? document.documentElement.scrollWidth : 0)()"""


def test_every_page_each_role_reaches_fits_a_phone_in_japanese_with_every_rule_on(
    browser, live_server, japanese_night
):
    # Nine bet columns, four side bets, Japanese labels: the widest the pages get.
    too_wide = {}
    for username, start in japanese_night.items():
        page = japanese_page(browser, live_server.url, username, 360, 740, has_touch=True)
        for path, width in crawl(page, live_server.url, start, read=TOO_WIDE).items():
            if width:
                too_wide[f"{username or 'anonymous'} {path}"] = width
        page.context.close()
    assert too_wide == {}


# Each label's lines: the distinct tops of its text's boxes.
LABEL_LINES = """(labels) => labels.map((label) => {
    const range = document.createRange();
    range.selectNodeContents(label);
    const tops = [...range.getClientRects()].map((box) => Math.round(box.top));
    return [label.textContent, new Set(tops).size];
})"""


def test_the_table_result_buttons_keep_their_words_on_one_line_in_japanese(
    browser, full_table, host
):
    base_url, shoe = full_table
    page = japanese_page(browser, base_url, host.username, 360, 740, has_touch=True)
    page.goto(f"{base_url}/shoes/{shoe.pk}/")
    lines = dict(page.eval_on_selector_all("#hand-form .outcome span", LABEL_LINES))
    assert "プレイヤー" in lines and set(lines.values()) == {1}, lines
    assert not page.evaluate(TOO_WIDE)
    page.context.close()
