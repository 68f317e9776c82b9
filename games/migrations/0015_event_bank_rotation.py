"""Each night keeps how the bank went round when it was played (``Event.bank_rotation``).

Nights played before the rotation changed (games.0012_event_suite_returns shipped with the
change) read it the original way: a night whose first hand was logged before this database
applied that migration was played by the earlier code. Every other night (and every new one)
reads it as the code does since. docs/operations.md says what to do if a check still fails.
"""

from django.db import migrations, models
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Min

CHANGED_WITH = ("games", "0012_event_suite_returns")


def nights_keep_their_reading(apps, schema_editor):
    recorder = MigrationRecorder(schema_editor.connection)
    applied = (
        recorder.migration_qs.filter(app=CHANGED_WITH[0], name=CHANGED_WITH[1])
        .values_list("applied", flat=True)
        .first()
    )
    if applied is None:  # not recorded: nothing was played before it here
        return
    Event = apps.get_model("games", "Event")
    Hand = apps.get_model("games", "Hand")
    played_before = (
        Hand.objects.values("shoe__event")
        .annotate(first=Min("logged_at"))
        .filter(first__lt=applied)
        .values("shoe__event")
    )
    Event.objects.filter(pk__in=played_before).update(bank_rotation="original")


class Migration(migrations.Migration):
    dependencies = [("games", "0014_taxe_rate_message_percent_sign")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="bank_rotation",
            field=models.CharField(
                choices=[
                    (
                        "original",
                        "As first recorded: a lost bank may go back to the banker who lost it",
                    ),
                    ("skips_loser", "A lost bank never goes back to the banker who lost it"),
                ],
                default="skips_loser",
                editable=False,
                max_length=12,
                verbose_name="how the bank went round",
            ),
        ),
        migrations.RunPython(nights_keep_their_reading, migrations.RunPython.noop),
    ]
