"""The guest-banked games, Chemin de fer and Baccara banque: a guest holds the bank, the house
only takes a cut. Plain Python, no Django, like the rest of the rules core.

Each game has a module per concern, named game first:

- ``chemin_drawing`` / ``banque_drawing``: the cards — who draws a third card, where a player
  may choose, and the step machine that says what a coup still waits for.
- ``chemin_money`` / ``banque_money``: the money — the bank, the stakes against it, a coup paid,
  the house's taxe, who holds the bank (or a tableau's cards) next. Seats are numbered here.
- ``chemin_coup`` / ``banque_coup``: a coup as entered, read and settled with the two above.
- ``chemin_odds`` / ``banque_odds``: best play and the bank's edge, counted exactly;
  ``python -m games.guest_banked.banque_odds`` writes the figures the Rules & odds page reads
  (``games/guest_banked_odds.json``).

What both games share:

- ``terms``: what a coup says — the event's rules for the bank, a coup's terms as entered, the
  coup before, the coup settled. Plain data that ``games.entry`` names too, so it imports
  nothing of the pipeline and nothing imports in a circle.
- ``reading``: reading an entry's fields (seats, amounts, choices, cards, moves), every problem
  gathered rather than raised.
- ``bank``: the bank of a coup — who holds it with how much, whether that follows from the coup
  before, and its side of the settled stakes.
- ``pipeline``: :func:`pipeline.settle_coup_entry`, the way in for a coup, which chooses the
  game's module. Callers go through :func:`games.settle.settle`, the one door for either game.
"""
