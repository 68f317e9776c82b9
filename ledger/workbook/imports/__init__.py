"""Scoresheet imports: the Punto Banco sheet, the coup sheet, and the writer of a checked sheet."""
