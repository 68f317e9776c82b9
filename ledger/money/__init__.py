"""Money: amounts in chips and in the night's currency (``amounts``), every guest's results and
balance (``results``), settlements and credit limits, a guest-banked night settled up between
guests (``transfers``, with the fewest transfers from ``clearing``), standings and the house's
view."""
