"""Tuning a strategy's parameters against a field (`shutbox tune`): the ranges (`space`), the
search, exact or simulated on common dice, and its confirmation (`search`)."""
