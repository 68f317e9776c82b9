"""One identity rule for guests (ledger.names): normalise every name and key it.

Names are read as NFKC with whitespace collapsed; characters a name may not hold (control,
zero-width, bidi overrides) are dropped. Two guests whose names now share a key are NOT merged:
the later one gets a key of its own (``key#id``) and is listed, for the host to rename or merge.
"""

import sys
import unicodedata

from django.db import migrations, models

REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def normalise(apps, schema_editor):
    Guest = apps.get_model("ledger", "Guest")
    taken, collisions, changed = {}, [], []
    for guest in Guest.objects.order_by("pk"):
        text = unicodedata.normalize("NFKC", guest.name)
        text = "".join(c for c in text if unicodedata.category(c) not in REFUSED)
        name = " ".join(text.split())[:80].strip() or f"Guest {guest.pk}"
        key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
        if key in taken:
            collisions.append((taken[key], guest.pk, name))
            key = f"{key}#{guest.pk}"
        else:
            taken[key] = guest.pk
        if name != guest.name:
            changed.append((guest.pk, guest.name, name))
        guest.name, guest.name_key = name, key
        guest.save(update_fields=["name", "name_key"])
    for pk, before, after in changed:
        print(f"\n  Guest {pk}: name {before!r} is now {after!r}.", file=sys.stderr, end="")
    for first, other, name in collisions:
        print(f"\n  Guests {first} and {other} are both {name!r}: not merged; rename or merge "
              f"them.", file=sys.stderr, end="")


class Migration(migrations.Migration):
    dependencies = [("ledger", "0004_audit_event_edited")]

    operations = [
        migrations.RemoveConstraint(model_name="guest", name="guest_name_unique_ignoring_case"),
        migrations.AddField(
            model_name="guest",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=320),
            preserve_default=False,
        ),
        migrations.RunPython(normalise, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="guest",
            name="name_key",
            field=models.CharField(editable=False, max_length=320, unique=True),
        ),
    ]
