"""check: a spaced divisor's caution in the words typed, a relative difference beside an
expectation of 0 over the size of the terms, and ‘ and ʼ read as primes."""
import json

import pytest

import adcli
from conftest import run_cli


def run(*args):
    return run_cli(*args)   # (in this process: a child each cost ~0.3 s of CI)


# ----- the caution quotes the typed text and offers (1/2)·u^(-1/2)·2x ----------------------

def test_spaced_chain_factor_caution_quotes_typed_text_and_means_a_half():
    code, out, err = run("check", "sqrt(x^2+1)", "1/2(x^2+1)^(-1/2) 2x", "--format", "plain")
    assert "warning: 1/2(x^2+1)^(-1/2) 2x: a product written side by side" in err
    assert "for (1/2)*(x^2+1)^(-1/2)*2x, write 1/2*(x^2+1)^(-1/2)*2x" in err
    assert "1/(2*(((x^2) + 1)" not in err          # the half-parsed piece
    assert ("diagnosis: 1/2(x^2+1)^(-1/2) 2x is read otherwise than it was likely meant "
            "(see the warning); as (1/2)*(x^2+1)^(-1/2)*2x, the expectation matches") in out
    assert "power rule" not in out


def test_spaced_divisor_with_product_dividend_quoted_as_typed():
    typed = "x^2 (x+1)^3/(x-1) (2/x + 3/(x+1) - 1/(x-1))"
    code, out, err = run("check", "x^2 (x+1)^3/(x-1)", typed, "--format", "plain")
    assert f"warning: {typed}: a product written side by side" in err
    assert "for (x^2 (x+1)^3/(x-1))*(2/x + 3/(x+1) - 1/(x-1)), write " \
           "x^2 (x+1)^3/(x-1)*(2/x + 3/(x+1) - 1/(x-1))" in err
    assert "((x^2)*((x + 1)^3))" not in err + out
    assert "the expectation matches" in out


def test_offered_reading_is_a_half_times_the_chain():
    from adcli.parser import other_readings, parse

    (reading,) = other_readings(parse("1/2(x^2+1)^(-1/2) 2x"))
    assert reading.text.replace(" ", "") == "1/2*(x^2+1)^(-1/2)*2x"
    # (1/2)(x^2+1)^(-1/2)·2x = x/sqrt(x^2+1), by hand, against x/sqrt(x^2+1)
    code, out, err = run("check", "x/sqrt(x^2+1)", reading.text, "--order", "0",
                         "--format", "plain")
    assert code == 0 and out.startswith("matches"), out + err


def test_plain_spaced_divisor_keeps_its_words():
    code, out, err = run("check", "sqrt x", "1/2 x^(-1/2)", "--format", "plain")
    assert "1/2 x^((-1)/2) is read otherwise than it was likely meant" in out


# ----- expectation 0: relative difference over the size of the terms ----------------------

@pytest.mark.parametrize("f", ["arctan(x) + arctan(1/x)", "ln(x)+ln(1/x)"])
def test_expectation_zero_is_not_one_hundred_percent_off(f):
    code, out, err = run("check", f, "0", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["verdict"] == "matches"
    # a right answer: AD is rounding, a few eps of terms of size ~1/(1+x^2) or 1/x
    assert 0 <= document["largest_relative_difference"] < 1e-15
    for row in document["worst"]:
        assert row["relative_difference"] < 1e-15


def test_expectation_zero_table_and_api():
    code, out, err = run("check", "arctan(x) + arctan(1/x)", "0")
    assert "largest relative difference 1 " not in out
    assert "│      1 of its terms" not in out and " 1 of its terms" not in out
    result = adcli.check("arctan(x) + arctan(1/x)", "0")
    row = result.worst[0]
    assert row.difference < 1e-15
    x = row.at["x"]
    # |AD| over the size of its terms, each term 1/(1+x^2) in size (by hand): within x2..x20
    terms = 1 / (1 + x * x)
    assert row.flat
    assert abs(row.ad) / (20 * terms) <= row.difference <= abs(row.ad) / terms


def test_expectation_zero_for_a_nonzero_derivative_still_differs_by_one():
    # 2x against 0: |2x - 0| over the size of 2x's terms, |2x|: 1, as relatively
    result = adcli.check("x^2", "0")
    assert result.verdict == "differs"
    assert result.worst[0].difference == pytest.approx(1.0)


# ----- ‘ and ʼ as primes ----------------------------------------------------------------------

@pytest.mark.parametrize("prime", ["\u2018", "\u02bc", "\u2019"])
def test_curly_primes_on_the_left_side(prime):
    code, out, err = run("check", "x^2", f"f{prime}(x) = 2x", "--format", "plain")
    assert code == 0, err
    assert out.startswith("matches d/dx at 30/30 points")


def test_left_quote_prime_counts_two():
    code, out, err = run("check", "x^3", "y\u2018\u2018 = 6x", "--format", "plain")
    assert code == 0, err
    assert "matches d²/dx²" in out


def test_left_quote_prime_in_f_is_the_prime_error():
    code, out, err = run("check", "f\u2018(x)")
    assert code == 2
    assert "a prime (') is not a derivative here" in err
    assert "Traceback" not in err


# ----- the regression tester's finds ------------------------------------------------------

def test_two_modifier_apostrophes_are_a_second_derivative():
    # ʼ (U+02BC) is a letter to \w: fʼʼ was read as a name fʼ and one prime
    for left in ("fʼʼ(x)", "yʼʼ"):
        code, out, err = run("check", "x^3", f"{left} = 6x", "--format", "plain")
        assert code == 0 and out.startswith("matches d²/dx²"), (left, out, err)


def test_a_number_over_a_bracket_to_a_whole_power_keeps_its_denominator_reading():
    # d/dx of -y/(2(x+1)) is y/(2(x+1)^2): 1/2(x+1)^2 y meant as 1/(2(x+1)^2) times y
    code, out, err = run("check", "-y/(2(x+1))", "--expect", "x=1/2(x+1)^2 y", "--at", "y=3",
                         "--format", "plain")
    assert "the expectation matches" in out and "(1/2)*(x+1)^2" not in out + err, out


def test_a_negated_number_over_an_unspaced_run_is_read_from_its_number_on():
    # (u^(-1/2))' = -1/2 u^(-3/2) 2x for u = x^2 + 1, typed -1/2(x^2+1)^(-3/2)·2x
    code, out, err = run("check", "(x^2+1)^(-1/2)", "-1/2(x^2+1)^(-3/2)·2x", "--format",
                         "plain")
    assert "the expectation matches" in out and "sign of the difference" not in out, out


def test_an_antiderivative_is_said_before_one_over_the_derivative():
    # 2 sqrt(x) is the antiderivative of 1/sqrt(x) (and 1/(dv/dx) for v = sqrt(x) by chance)
    code, out, err = run("check", "1/sqrt(x)", "2 sqrt(x)", "--format", "plain")
    assert "it is an antiderivative of f" in out and "1/(dv/dx)" not in out, out


@pytest.mark.parametrize("text, at", [("dx dy", None), ("dx^2 + dy^2", None),
                                      ("x dx + y dy", "x=1,y=2")])
def test_two_d_names_not_divided_get_no_derivative_story(text, at):
    code, out, err = run("eval", text, *(["--at", at] if at else []))
    assert code == 2 and "add --at dx=...,dy=..." in err and "not as a derivative" not in err
