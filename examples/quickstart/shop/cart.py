"""A shopping cart: the code the tests below are meant to check."""


def total(prices, discount=0.0):
    """The sum of `prices`, less `discount` (a fraction, 0.1 for 10%)."""
    return round(sum(prices) * (1 - discount), 2)
