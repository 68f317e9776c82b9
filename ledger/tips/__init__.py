"""Dealers' tips: the night's pool, the dealers' shifts and each dealer's share."""
