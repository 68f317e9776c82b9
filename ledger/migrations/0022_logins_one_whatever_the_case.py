"""Logins are one whatever their case: a unique index on the lower-cased username, so that two
invitations accepted at the same moment ("Mika" and "mika") cannot both make one (the forms and
``guest_invitation_accept`` refuse it before; the index holds it when they race).

A database already holding two logins that differ only in case is not changed without a word:
the migration stops, naming them, and the operator renames or removes one
(``docs/operations.md``) before migrating again."""

from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

INDEX = "auth_user_username_lower_uniq"


def refuse_duplicates(apps, schema_editor):
    users = apps.get_model("auth", "User").objects.using(schema_editor.connection.alias)
    twins = (
        users.annotate(key=Lower("username"))
        .values("key")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list("key", flat=True)
    )
    clashes = [
        " / ".join(
            users.filter(username__iexact=key).order_by("id").values_list("username", flat=True)
        )
        for key in twins
    ]
    if clashes:
        raise RuntimeError(
            "Logins that differ only in case: "
            + "; ".join(sorted(clashes))
            + ". Rename or remove one of each (the admin's Users page, or `manage.py shell`),"
            " then migrate again: from now on a login is one whatever its case."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0021_settlements_and_counts_dated"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(refuse_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]
