"""A settlement's and a chip row's own date (the day the money or the chips moved), apart from
when it was typed (``recorded_at``): the rows already kept are dated the day they were typed."""

from django.db import migrations, models
from django.db.models.functions import TruncDate
from django.utils import timezone


def dated_when_typed(apps, schema_editor):
    for model in ("Settlement", "ChipMove"):
        rows = apps.get_model("ledger", model).objects
        rows.update(dated=TruncDate("recorded_at", tzinfo=timezone.get_current_timezone()))


class Migration(migrations.Migration):
    dependencies = [("ledger", "0020_a_count_of_nothing")]

    operations = [
        migrations.AddField(
            model_name="settlement",
            name="dated",
            field=models.DateField(default=timezone.localdate),
        ),
        migrations.AddField(
            model_name="chipmove",
            name="dated",
            field=models.DateField(default=timezone.localdate),
        ),
        migrations.RunPython(dated_when_typed, migrations.RunPython.noop),
    ]
