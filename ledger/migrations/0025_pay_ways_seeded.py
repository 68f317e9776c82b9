"""The site's first list of ways to pay, which the host edits from then on. The link formats are
the services' own public ones: PayPal.me takes the amount and the currency after the name
(paypal.me/name/25EUR), Venmo's web link the amount in its query, Revolut.me and Cash App only
the name. Wise, PayPay, LINE Pay, Zelle, KakaoPay and Toss are shown as the handle or details
the guest types (an ID, an e-mail, a phone number, an account), not as a link."""

from django.db import migrations
from django.utils.translation import gettext_noop

# The names are the list's first words, in English; a page shows each translated while the host
# keeps it (``PayWay.label``). The first three are the older settlement methods' own words.

WAYS = [
    # name, kind, link template, method
    (gettext_noop("Cash"), "in_person", "", "cash"),
    (gettext_noop("Offset against the tab at the venue"), "in_person", "", "tab"),
    (gettext_noop("Credit toward the next bill"), "in_person", "", "credit"),
    (gettext_noop("Bank transfer"), "details", "", "way"),
    (gettext_noop("PayPay"), "details", "", "way"),
    (gettext_noop("LINE Pay"), "details", "", "way"),
    (gettext_noop("PayPal"), "link", "https://paypal.me/{handle}/{amount}{currency}", "way"),
    (gettext_noop("Venmo"), "link", "https://venmo.com/{handle}?txn=pay&amount={amount}", "way"),
    (gettext_noop("Revolut"), "link", "https://revolut.me/{handle}", "way"),
    (gettext_noop("Wise"), "details", "", "way"),
    (gettext_noop("Zelle"), "details", "", "way"),
    (gettext_noop("Cash App"), "link", "https://cash.app/${handle}", "way"),
    (gettext_noop("KakaoPay"), "details", "", "way"),
    (gettext_noop("Toss"), "details", "", "way"),
    (gettext_noop("SEPA bank transfer"), "details", "", "way"),
]


def seed(apps, schema_editor):
    PayWay = apps.get_model("ledger", "PayWay")
    for position, (name, kind, template, method) in enumerate(WAYS, start=1):
        PayWay.objects.get_or_create(
            name=name,
            defaults={
                "kind": kind,
                "link_template": template,
                "method": method,
                "position": position,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("ledger", "0024_pay_ways")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
