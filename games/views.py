"""Baccarat's own pages, with no money on them: the rules and odds, and the table display (the
scoreboard full screen for a TV at the bar, by a read-only link)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_GET

from games.forms import RuleSetForm
from games.guest_banked.banque_odds import NATURAL, STATES, STOOD, BanqueCell, chemin_priced, priced
from games.guest_banked.chemin_drawing import Choice
from games.guest_banked.chemin_odds import Solution
from games.models import Event
from games.odds import OddsTable, fraction_to_decimal, odds_table
from games.payouts import BankedBet, BetType, RuleSet, pays_label
from games.rules import Winner
from games.scoreboard import scoreboard
from games.theo import banque_moments, chemin_moments, punto_banco_moments
from shoebook.base.links import private_link, same_token

DISPLAY_REFRESH_SECONDS = 5
# The display's roads, in columns: fixed, so that each fills its part of the screen, with the
# newest marks in view however long the shoe (16 bead columns hold 96 hands).
DISPLAY_WIDTHS = {
    "bead_plate": 16,
    "big_road": 30,
    "big_eye_boy": 52,
    "small_road": 52,
    "cockroach_pig": 52,
}


# The house's cut in the guest-banked games (docs/rules.md), as the odds price it.
CHEMIN_TAXE = Fraction(5, 100)
BANQUE_TAXE_LIMITEE, BANQUE_TAXE_OUVERTE = Fraction(2, 100), Fraction(125, 10000)


def _percent(value: Fraction, places: int = 5) -> str:
    """Signed, for an expected result (a minus sign, not a hyphen)."""
    shown = fraction_to_decimal(value * 100, places)
    return f"+{shown}" if shown > 0 else str(shown).replace("-", "−")


@dataclass(frozen=True)
class HandsRow:
    """One game's Player and Banker hands as bets: each one's expected result per 100 staked."""

    game: str
    player: str
    banker: str
    after_cut: str
    cut: str


def _hands_rows(rules: RuleSet, decks: int, table: OddsTable) -> list[HandsRow]:
    chemin = chemin_priced(decks)
    banque = priced(decks).best
    outcomes = table.outcomes
    limitee = _percent(banque.banker_edge_after(BANQUE_TAXE_LIMITEE))
    ouverte = _percent(banque.banker_edge_after(BANQUE_TAXE_OUVERTE))
    return [
        HandsRow(
            gettext("Punto Banco"),
            _percent(-table.house_edge[BetType.PLAYER]),
            _percent(outcomes[Winner.BANKER] - outcomes[Winner.PLAYER]),
            _percent(-table.house_edge[BetType.BANKER]),
            pays_label(rules, BetType.BANKER, gettext),
        ),
        HandsRow(
            gettext("Chemin de fer"),
            _percent(-chemin.banker_edge),
            _percent(chemin.banker_edge),
            _percent(chemin.banker_edge_after(CHEMIN_TAXE)),
            gettext("Taxe: 5% of each coup the bank wins"),
        ),
        HandsRow(
            gettext("Baccara banque"),
            _percent(banque.ponte_edge(0)),
            _percent(banque.banker_edge),
            gettext("%(limitee)s (limitée), %(ouverte)s (ouverte)")
            % {"limitee": limitee, "ouverte": ouverte},
            gettext(
                "Taxe: 2% (banque limitée) or 1.25% (banque ouverte) of what the bank wins on "
                "a coup; or 5% of the capital, once"
            ),
        ),
    ]


def _choice_label(draws: Fraction) -> str:
    if draws == 1:
        return gettext("Draws")
    if draws == 0:
        return gettext("Stands")
    return gettext("Draws in %(percent)s%% of coups") % {
        "percent": fraction_to_decimal(draws * 100, 2)
    }


def _chemin_choices(solution: Solution) -> list[tuple[str, str, str]]:
    """Each optional cell and the best play there: the ponte on 5, the banker's cells by his
    total and the ponte's third card (and his two cards, where they change his play)."""
    rows = [(gettext("Ponte"), "5", _choice_label(solution.ponte_draws_on_five))]
    by_cell: defaultdict[tuple[int, int], defaultdict[Fraction, list[str]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for cell, draws in solution.banker_draws.items():
        third = -1 if cell.ponte_third is None else cell.ponte_third
        cards = "+".join(map(str, cell.banker_cards)) if cell.banker_cards else ""
        by_cell[cell.banker_total, third][draws].append(cards)
    for (banker_total, third), plays in sorted(by_cell.items()):
        holding = (
            gettext("%(total)s against a third card of %(third)s")
            % {"total": banker_total, "third": third}
            if third >= 0
            else gettext("%(total)s, the ponte standing") % {"total": banker_total}
        )
        usual, *others = sorted(plays.items(), key=lambda play: -len(play[1]))
        parts = [_choice_label(usual[0])]
        parts += [
            gettext("holding %(cards)s: %(play)s")
            % {"cards": ", ".join(sorted(cards)), "play": _choice_label(draws)}
            for draws, cards in others
        ]
        rows.append((gettext("Banker"), holding, "; ".join(parts)))
    return rows


def _state_label(state: int) -> str:
    if state == STOOD:
        return pgettext("a tableau's ponte", "stood")
    if state == NATURAL:
        return pgettext("a tableau's ponte", "natural")
    return str(state)


@dataclass(frozen=True)
class BanqueGrid:
    """The banker's play on one total, against every pair of what the tableaux show: ``rows``
    are tableau 1's states, each cell (draws, chosen) — chosen: the table left him a choice."""

    banker_total: int
    states: list[str]
    rows: list[tuple[str, list[tuple[bool, bool]]]]


def _banque_grids(draws: dict[BanqueCell, bool]) -> list[BanqueGrid]:
    grids = []
    for banker_total in range(8):
        if not any(cell.banker_total == banker_total for cell in draws):
            continue
        rows = []
        for first in STATES:
            cells = []
            for second in STATES:
                cell = BanqueCell(banker_total, first, second)
                options = cell.options()
                chosen = len(options) == 2
                cells.append((draws[cell] if chosen else Choice.DRAW in options, chosen))
            rows.append((_state_label(first), cells))
        grids.append(BanqueGrid(banker_total, [_state_label(s) for s in STATES], rows))
    return grids


def _guest_banked_context(decks: int) -> dict[str, object]:
    chemin = chemin_priced(decks)
    odds = priced(decks)
    best = odds.best
    standing = odds.solutions[Choice.STAND, odds.fives[1]]

    def chemin_sd(stake: BankedBet) -> Decimal:
        return chemin_moments(stake, decks, CHEMIN_TAXE).standard_deviation()

    def banque_sd(stake: BankedBet, taxe: Fraction) -> Decimal:
        return banque_moments(stake, decks, taxe).standard_deviation()

    return {
        "chemin": {
            "outcomes": [
                (
                    gettext("Bank wins"),
                    fraction_to_decimal(chemin.outcomes[Winner.BANKER] * 100, 7),
                ),
                (
                    gettext("Ponte wins"),
                    fraction_to_decimal(chemin.outcomes[Winner.PLAYER] * 100, 7),
                ),
                (gettext("Égalité"), fraction_to_decimal(chemin.outcomes[Winner.TIE] * 100, 7)),
            ],
            "choices": _chemin_choices(chemin),
            "ponte": _percent(-chemin.banker_edge),
            "bank": _percent(chemin.banker_edge),
            "bank_after": _percent(chemin.banker_edge_after(CHEMIN_TAXE)),
            "taxe": _percent(CHEMIN_TAXE * chemin.outcomes[Winner.BANKER]),
            "ponte_sd": chemin_sd(BankedBet.COVER),
            "bank_sd": chemin_sd(BankedBet.BANK),
        },
        "banque": {
            "outcomes": [
                (label, fraction_to_decimal(best.outcomes(0)[winner] * 100, 7))
                for label, winner in (
                    (gettext("Bank wins"), Winner.BANKER),
                    (gettext("Ponte wins"), Winner.PLAYER),
                    (gettext("Égalité"), Winner.TIE),
                )
            ],
            "fives": [_choice_label(Fraction(five is Choice.DRAW)) for five in odds.fives],
            "ponte": _percent(best.ponte_edge(0)),
            "ponte_standing": _percent(standing.ponte_edge(0)),
            "bank": _percent(best.banker_edge),
            "bank_limitee": _percent(best.banker_edge_after(BANQUE_TAXE_LIMITEE)),
            "bank_ouverte": _percent(best.banker_edge_after(BANQUE_TAXE_OUVERTE)),
            "grids": _banque_grids(dict(best.banker_draws)),
            "ponte_sd": banque_sd(BankedBet.TABLEAU_1, Fraction(0)),
            "bank_sd": banque_sd(BankedBet.BANK, Fraction(0)),
            "bank_limitee_sd": banque_sd(BankedBet.BANK, BANQUE_TAXE_LIMITEE),
        },
    }


@login_not_required
def rules_and_odds(request: HttpRequest) -> HttpResponse:
    """Exact odds and house edges for whatever rule set the form describes (GET, shareable);
    the same shoe under Chemin de fer's and Baccara banque's drawing rules, with best play."""
    form = RuleSetForm(RuleSetForm.initial_data() | request.GET.dict())
    context: dict[str, object] = {"form": form}
    if form.is_valid():
        rules, decks = form.cleaned_data["rules"], form.cleaned_data["decks"]
        table = odds_table(rules, decks)
        context |= _guest_banked_context(decks) | {"hands": _hands_rows(rules, decks, table)}
        context |= {
            "rules": rules,
            "rules_description": rules.describe(gettext),
            "decks": decks,
            "outcomes": [
                (
                    winner,
                    gettext(winner.value.title()),
                    fraction_to_decimal(p * 100, 7),
                    f"{p.numerator:,}/{p.denominator:,}",
                )
                for winner, p in table.outcomes.items()
            ],
            "edges": [
                (
                    gettext(bet.label),
                    pays_label(rules, bet, gettext),
                    fraction_to_decimal(edge * 100, 5),
                    punto_banco_moments(rules, bet, decks).standard_deviation(),
                    rules.offers(bet),
                )
                for bet, edge in table.house_edge.items()
            ],
        }
    return render(request, "games/rules_and_odds.html", context)


@login_not_required
@require_GET
def table_display(request: HttpRequest, event_id: int, token: str) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    if not same_token(event.display_token, token):
        raise Http404
    shoe = (
        event.shoes.filter(closed_at__isnull=True).first() or event.shoes.order_by("number").last()
    )
    context = {
        "event": event,
        "board": scoreboard(shoe, widths=DISPLAY_WIDTHS) if shoe else None,
        "refresh_seconds": DISPLAY_REFRESH_SECONDS,  # only while its stream cannot open
        "live_url": reverse("live:display", args=[event.pk, token]),
    }
    response = render(request, "games/table_display.html", context)
    return private_link(response, cache="no-store")
