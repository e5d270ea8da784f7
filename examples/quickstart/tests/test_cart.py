"""Three tests that pass. One checks the cart; two only look as if they do."""

from unittest import mock

from shop import cart
from shop.cart import total


def test_total_applies_the_discount():
    assert total([10.0, 20.0], discount=0.1) == 27.0


def test_total_of_an_empty_cart():
    result = total([])
    assert result == result


def test_total_with_a_mocked_cart():
    with mock.patch.object(cart, "total", return_value=27.0):
        assert cart.total([10.0, 20.0], discount=0.1) == 27.0
