"""Each night keeps how its payouts and commission were rounded (``Event.rounding``).

Every night recorded before the rule existed was settled to the cent, half up, bet by bet,
whatever its chips: it reads "exact" (the default the column is added with), so its figures stay
what they were. A night rounds to its smallest chip only if the host chooses it before its first
hand.
"""

import games.chips
from decimal import Decimal
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_event_bank_rotation'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='rounding',
            field=models.CharField(choices=[('exact', 'Exact, to the cent'), ('half_up', 'To the smallest chip, half up'), ('house', "To the smallest chip, in the house's favour")], default='exact', help_text='Each payout and commission is handed over in chips, bet by bet.', max_length=8, verbose_name='rounding'),
        ),
        migrations.AddField(
            model_name='event',
            name='smallest_chip',
            field=games.chips.MoneyField(default=Decimal('0.01'), help_text="What the table's smallest chip is worth, in chips (a $0.50 chip: 0.50).", verbose_name='smallest chip'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('smallest_chip__gt', 0)), name='event_smallest_chip_positive', violation_error_message='The smallest chip must be more than zero.'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('rounding__in', ['exact', 'half_up', 'house'])), name='event_rounding_known', violation_error_message='Not a way of rounding.'),
        ),
    ]
