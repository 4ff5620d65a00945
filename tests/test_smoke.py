"""The issue's headline numbers, checked against closed forms worked out by hand."""
import math

import adcli


def test_exp_x_squared_squared_at_half():
    # f = exp(x^2)^2 = exp(2x^2); f(0.5) = e^0.5, f'(x) = 4x exp(2x^2) -> 2 e^0.5
    f = adcli.parse("exp(x^2)^2")
    assert math.isclose(float(f.value(x=0.5)), math.exp(0.5), rel_tol=1e-15)
    assert math.isclose(float(f.grad(x=0.5)["x"]), 2 * math.exp(0.5), rel_tol=1e-15)


def test_sin_plus_product_gradient_is_cos_x1_plus_x2_and_x1():
    f = adcli.parse("sin(x1)+x1*x2")
    for x1, x2 in [(1.0, 2.0), (-0.3, 5.0), (10.0, -1.5)]:
        g = f.grad(x1=x1, x2=x2)
        assert math.isclose(float(g["x1"]), math.cos(x1) + x2, rel_tol=1e-14)
        assert float(g["x2"]) == x1
