"""The scoresheet upload's forms: the file and the table's rules, and a guest-banked game's
terms."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from games.currencies import DEFAULT_CURRENCY
from games.entry import TableRules
from games.forms import PlainDigitsForm, RuleSetForm
from games.kinds import Game
from games.models import Event
from games.services import (
    GAME_CUTS,
    check_cut,
)
from ledger.nights.forms import (
    MSG_MAX_UNDER_MIN,
    check_rate,
    currency_field,
    offer_currencies,
)
from ledger.workbook.imports.coup_sheet import BankedGame
from ledger.workbook.imports.night_writer import night_already_in

MAX_UPLOAD_BYTES = 20 * 1024 * 1024


MSG_NIGHT_EXISTS = _(
    "{event} of {date} is in the ledger already: importing this file too would count its money"
    " twice. Give this night another name to import it as a night of its own."
)


class ScoresheetForm(RuleSetForm):
    file = forms.FileField(label=_("Scoresheet (.csv, .xlsx or .ods)"))
    # Not required of a workbook this site exported (it names its nights): ``clean`` asks for
    # them otherwise, and the page does not stop such an upload in the browser.
    event_name = forms.CharField(label=_("Event name"), max_length=120, required=False)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}), required=False
    )
    currency = currency_field()
    money_per_chip = forms.DecimalField(
        label=_("Money per chip"),
        min_value=0.0001,
        max_digits=12,
        decimal_places=4,
        initial=100,
    )
    table_min = forms.DecimalField(
        label=_("Table minimum"),
        min_value=Decimal("0.01"),
        max_digits=13,
        decimal_places=2,
        initial=10,
    )
    table_max = forms.DecimalField(
        label=_("Table maximum"),
        min_value=Decimal("0.01"),
        max_digits=13,
        decimal_places=2,
        initial=1000,
    )
    # Made when the page is drawn, sent with the upload: the same upload sent again (a retry
    # after a lost answer) is answered with the nights it made (``upload_keys``).
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    field_order = [
        "file", "event_name", "date", "currency", "money_per_chip", "table_min", "table_max",
    ]  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_currencies(self)
        self.initial.setdefault("idempotency_key", uuid.uuid4())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in ("event_name", "date"):
            if not data.get(name) and name not in self.errors:
                self.add_error(name, forms.Field.default_error_messages["required"])
        named = data.get("event_name") and data.get("date")
        if named and (existing := night_already_in(data["event_name"], data["date"])):
            on = f"{data['date']:%Y-%m-%d}"
            self.add_error("event_name", MSG_NIGHT_EXISTS.format(event=existing.name, date=on))
        data["currency"] = data.get("currency") or DEFAULT_CURRENCY
        rate, currency = data.get("money_per_chip"), data.get("currency")
        if rate is not None and currency and (why := check_rate(rate, currency)):
            self.add_error("money_per_chip", why)
        low, high = data.get("table_min"), data.get("table_max")
        if low is None or high is None:
            return data  # a limit is missing or wrong: its field says so
        if high < low:
            self.add_error("table_max", MSG_MAX_UNDER_MIN)
        elif "rules" in data:
            data["table"] = TableRules(data["rules"], data["decks"], low, high)
        return data

    def clean_file(self) -> UploadedFile[bytes]:
        upload: UploadedFile[bytes] = self.cleaned_data["file"]
        # The field has refused an empty upload already: an upload here has its size.
        if upload.size is not None and upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB."))
        return upload


class ScoresheetGameForm(PlainDigitsForm, forms.ModelForm[Event]):
    """The night's game and, for a guest-banked one, its cut and how it settles: the event's
    own fields, beside the upload's :class:`ledger.workbook.forms.ScoresheetForm`."""

    class Meta:
        model = Event
        fields = ["game", "taxe", "taxe_rate", "shoe_charge", "banco", "clearing"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False  # left out: the event's default (Punto Banco)
        taxe = self.fields["taxe"]
        assert isinstance(taxe, forms.ChoiceField)  # the model's choices
        taxe.choices = [("", _("The game's usual cut")), *Event.Cut.choices]
        self.initial["taxe"] = ""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in self.Meta.fields:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)  # a new event's default
        game = Game(data["game"]) if "game" not in self.errors else None
        if game in GAME_CUTS and not self.data.get("taxe"):
            data["taxe"] = GAME_CUTS[game][0]  # the game's usual cut, not the other game's
        if "game" not in self.errors and "taxe" not in self.errors:
            try:  # the cut a game takes, as event_create checks it
                check_cut(Event(game=data["game"], taxe=data["taxe"]))
            except ValidationError as wrong:
                self.add_error(None, wrong)
        return data

    def banked_game(self) -> BankedGame | None:
        """The guest-banked game chosen (``None``: Punto Banco)."""
        data = self.cleaned_data
        game = Game(data["game"])
        if not game.guest_banked:
            return None
        return BankedGame(
            game,
            taxe=data["taxe"],
            taxe_rate=data["taxe_rate"],
            shoe_charge=data["shoe_charge"],
            banco=data["banco"],
            clearing=data["clearing"],
        )
