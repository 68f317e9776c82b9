"""The race matrix: every write service of a night against every other, at once, with real
threads on a real database (PostgreSQL or a SQLite file).

``moves`` is the registry (each write as one request through the real views, the kinds of night
it needs, how to find what it wrote), ``nights`` builds the nights, ``runner`` races a pair and
judges it, ``__main__`` is the command printing the table (``python -m tests.races``).
``tests/races/test_registry.py`` fails on a write service that is in neither the registry nor
its short list of services that write no night; ``tests/races/test_smoke.py`` runs a sample of
pairs in the suite.
"""
