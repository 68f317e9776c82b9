"""A night's currency (``Event.currency``, an ISO 4217 code) and its chip rate renamed from
``yen_per_chip`` to ``money_per_chip``. Every night recorded before is in yen: the new column's
default, JPY, is what they get; their rates are kept as they were."""

from decimal import Decimal

from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_event_rounding_rounding"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="event", name="event_yen_rate_positive"),
        migrations.RenameField(model_name="event", old_name="yen_per_chip", new_name="money_per_chip"),
        migrations.AlterField(
            model_name="event",
            name="money_per_chip",
            field=models.DecimalField(
                decimal_places=4,
                default=Decimal("100"),
                help_text="What one chip unit is worth in the night's currency (the reference night: $1 = ¥100).",
                max_digits=12,
                verbose_name="money per chip",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="currency",
            field=models.CharField(
                default="JPY",
                max_length=3,
                validators=[games.models.validate_currency],
                verbose_name="currency",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("money_per_chip__gt", 0)),
                name="event_money_rate_positive",
                violation_error_message="The chip rate must be more than zero.",
            ),
        ),
    ]
