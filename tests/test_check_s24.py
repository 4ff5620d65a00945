"""check from the twenty-fourth session's testers: a match of a reading not meant, f's
unspaced fraction, a suggestion the shell reads as typed, ASCII derivatives in CSV, a
variable held for its equal values, points given inf or nan, the API's domain warnings and
its shapes that make no points."""
import json
import subprocess
import unittest.mock
import warnings

import numpy as np
import pytest

import adcli
from adcli import AdcliError, AdcliWarning
from adcli import checking
from adcli.commands.check import _quoted
from conftest import run_cli


# ----- a match of the reading taken, where the one likely meant differs ---------------------

@pytest.mark.parametrize("f, expected, meant", [
    ("sqrt x", "1/2 x^(1/2)", "(1/2)*x^(1/2)"),
    ("x^(1/3)", "1/3 x^(2/3)", "(1/3)*x^(2/3)"),
    ("x^(1/4)", "1/4 x^(3/4)", "(1/4)*x^(3/4)"),
    ("sqrt x", "1/2 √x", "(1/2)*sqrt(x)"),
])
def test_a_match_says_the_reading_likely_meant_differs(f, expected, meant):
    code, out, err = run_cli("check", f, expected, "--format", "json")
    document = json.loads(out)
    assert code == 0    # the verdict is the reading's taken, as the README says
    assert document["verdict"] == "matches"
    said = [n for n in document["notes"] if f"read as {meant}, as it may have been meant, "
            "it differs" in n]
    assert len(said) == 1, document["notes"]
    assert said[0].startswith("the expectation matches as read, ")


def test_the_note_says_why_when_slips_can():
    # (1/2)·x^(1/2) is sqrt(x)/2's, not sqrt(x)'s derivative: the exponent not lowered
    r = adcli.check("sqrt x", "1/2 x^(1/2)")
    assert r.ok
    assert "the power rule lowers the exponent 1/2 by one" in r.notes[0]
    assert "as it may have been meant, it differs" in r.notes[0]


def test_no_note_without_a_caution_or_a_match():
    # written with '*', (1/2)·x^(-1/2) has one reading
    assert not any("may have been meant" in n
                   for n in adcli.check("sqrt x", "1/2*x^(-1/2)").notes)
    # a difference says the other reading in its diagnosis, not in a note
    r = adcli.check("x^2", "1/2 x")
    assert r.verdict == "differs"
    assert not any("may have been meant" in n for n in r.notes)


# ----- f's unspaced fraction ---------------------------------------------------------------

@pytest.mark.parametrize("f, expected, read, meant", [
    ("1/3x^3", "x^2", "1/(3*(x^3))", "(1/3)*x^3"),
    ("1/2x^2", "x", "1/(2*(x^2))", "(1/2)*x^2"),
])
def test_f_unspaced_fraction_read_as_meant_matches(f, expected, read, meant):
    code, out, err = run_cli("check", f, expected, "--format", "plain")
    assert code == 1
    assert out.splitlines()[1] == (
        f"diagnosis: f: {f} is read as {read}: a product written side by side binds "
        f"tighter than '/'; as {meant}, the expectation matches")


def test_f_with_several_unspaced_fractions_is_read_as_meant_all_at_once():
    # d/dx ((1/3)x^3 + (1/2)x^2) = x^2 + x; one story for both fractions, and one check for
    # them (one at a time, each check trying the others again, six took 27 s)
    code, out, err = run_cli("check", "1/3x^3 + 1/2x^2", "x^2 + x", "--format", "plain")
    assert code == 1
    assert out.splitlines()[1] == (
        "diagnosis: f: 1/3x^3 and 1/2x^2 are read as 1/(3*(x^3)) and 1/(2*(x^2)): a product "
        "written side by side binds tighter than '/'; as (1/3)*x^3 and (1/2)*x^2, the "
        "expectation matches")
    calls = []
    original = checking.check

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    with unittest.mock.patch.object(checking, "check", counted):
        counted("1/2x + 1/3x^2 + 1/4x^3 + 1/5x^4 + 1/6x^5 + 1/7x^6", "x")
    assert len(calls) < 10


def test_f_unspaced_fraction_that_differs_either_way_is_not_said():
    # (1/3)x^3's derivative is x^2, not x^3: no reading of f makes x^3 right
    r = adcli.check("1/3x^3", "x^3")
    assert r.verdict == "differs"
    assert not any(d.startswith("f: 1/3x^3") for d in r.diagnosis)


# ----- a suggestion quoted as a POSIX shell reads it back ----------------------------------

def shell_reads(word: str) -> str:
    return subprocess.run(["sh", "-c", f"printf '%s' {word}"], capture_output=True,
                          text=True, check=True).stdout


@pytest.mark.parametrize("text", ["f'(x) = 2x", "y'' = 6x", "x^2", r"f'(x) = \frac{1}{x}",
                                  "y' = $a `b` \"c\" \\d"])
def test_quoted_text_is_read_back_by_the_shell_as_typed(text):
    assert shell_reads(_quoted(text)) == text


@pytest.mark.parametrize("equation", ["f'(x) = 2x", "y'' = 6x"])
def test_prime_left_side_without_f_suggests_a_pasteable_command(equation):
    code, out, err = run_cli("check", equation)
    assert code == 2
    assert f'check F "{equation}", or write d/dx' in err, err


# ----- machine formats name derivatives in ASCII --------------------------------------------

def csv_column(out: str, name: str, separator: str = ",") -> list[str]:
    lines = out.splitlines()
    index = lines[0].split(separator).index(name)
    return [line.split(separator)[index] for line in lines[1:]]


def test_csv_names_a_partial_as_d_dx():
    code, out, err = run_cli("check", "x^2*y", "2x*y", "--wrt", "x", "--at", "x=1,y=2",
                             "--format", "csv")
    assert code == 0
    assert csv_column(out, "derivative") == ["d/dx"]


def test_tsv_names_higher_and_mixed_partials_as_grad_and_hessian_do():
    code, out, err = run_cli("check", "x^2*y", "--expect", "x,y=2x", "--expect", "y,y=0",
                             "--at", "x=1,y=2", "--format", "tsv")
    assert code == 0
    assert csv_column(out, "derivative", "\t") == ["d2/dx dy", "d2/dy^2"]
    code, out, err = run_cli("check", "x1^3", "6x1", "--order", "2", "--at", "x1=1",
                             "--format", "csv")
    assert csv_column(out, "derivative") == ["d2/dx1^2"]
    # grad --order 2's header is the same, with its f (d2f/dx^2), not a d2/dx2 of its own
    code, out, err = run_cli("check", "x^3", "6x", "--order", "2", "--at", "x=1",
                             "--format", "csv")
    assert csv_column(out, "derivative") == ["d2/dx^2"]
    code, out, err = run_cli("grad", "x^3", "--order", "2", "--at", "x=1", "--format", "csv")
    assert out.splitlines()[0] == "x,f,d2f/dx^2"


def test_table_and_json_keep_their_labels():
    code, out, err = run_cli("check", "x^2*y", "2x*y", "--wrt", "x", "--at", "x=1,y=2")
    assert "∂/∂x" in out
    code, out, err = run_cli("check", "x^2*y", "2x*y", "--wrt", "x", "--at", "x=1,y=2",
                             "--format", "json")
    check = json.loads(out)["checks"][0]
    assert (check["derivative"], check["label"]) == ("x", "∂/∂x")


# ----- a variable given several equal values --------------------------------------------

def test_api_says_a_variable_held_for_its_equal_values():
    r = adcli.check("x^2*y", "2*x*y", x=np.ones(3), y=np.array([1., 2., 3.]))
    assert r.targets[0].name == "y"
    assert ("x was held as a parameter, its values all being equal (1): this checks ∂/∂y; "
            "for the derivative in x, name it with wrt='x'") in r.notes
    # so named, x's derivative 2xy is checked, and matches
    assert adcli.check("x^2*y", "2*x*y", wrt="x", x=np.ones(3),
                       y=np.array([1., 2., 3.])).ok


def test_cli_says_a_constant_column_was_held(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x,y\n1,1\n1,2\n1,3\n")
    code, out, err = run_cli("check", "x^2*y", "2x*y", "--points", str(points),
                             "--format", "plain")
    assert code == 1
    assert "note: x was held as a parameter, its values all being equal (1): this checks " \
           "∂/∂y; for the derivative in x, name it with --wrt x" in out


def test_no_held_note_for_one_value_or_a_named_variable():
    assert not any("held as a parameter" in n
                   for n in adcli.check("a*x^2", "2*a*x", a=3.0, x=[1., 2.]).notes)
    assert not any("held as a parameter" in n for n in
                   adcli.check("x^2*y", "x^2", wrt="y", x=np.ones(3), y=[1., 2., 3.]).notes)
    # a parameter's column beside a right derivative: what the column was given for
    right = adcli.check("a*x^2", "2*a*x", a=np.full(3, 3.0), x=[1., 2., 3.])
    assert right.ok and not any("held as a parameter" in n for n in right.notes)


def test_api_names_wrt_and_keywords_not_options():
    with pytest.raises(AdcliError) as error:
        adcli.check("x*y", "x")
    assert "name it with wrt=, give the others one value each as keywords (y=3)" \
        in str(error.value)
    assert "--wrt" not in str(error.value)
    code, out, err = run_cli("check", "x*y", "x")
    assert "name it with --wrt, fix the others with --at" in err


# ----- points given inf or nan ------------------------------------------------------------

@pytest.mark.parametrize("value", ["inf", "nan", "-inf"])
def test_a_point_given_inf_or_nan_is_said_so(value):
    code, out, err = run_cli("check", "x^2", "2*x", "--at", f"x={value}")
    assert code == 2
    assert f"the point was given x = {value}, not a finite value" in err
    assert "underflow there" not in err


def test_api_points_given_inf_and_nan():
    with pytest.raises(AdcliError, match="the point was given x = inf, not a finite value"):
        adcli.check("x^2", "2*x", x=float("inf"))
    with pytest.raises(AdcliError, match=r"every point was given a value nan or inf \(in x\)"):
        adcli.check("x^2", "2*x", x=[float("inf"), float("nan")])


# ----- the API's domain warnings -------------------------------------------------------

def test_api_warns_of_a_domain_not_used():
    with pytest.warns(AdcliWarning) as said:
        r = adcli.check("x*y", "x", wrt="y", x=2.0, y=3.0, domain={"y": (1, 2)})
    assert r.ok
    assert [str(w.message) for w in said] == [
        "domain={'y': (1, 2)} is not used: y has values given (at= or as a keyword), and "
        "only a variable without any is drawn at random"]


def test_api_warns_of_a_domain_bound_below_float64():
    with pytest.warns(AdcliWarning, match=r"domain x: 1e-400 is below the smallest float64 "
                                          r"number .*read as 0"):
        adcli.check("x", "1", domain={"x": "1e-400:1"})


def test_api_without_such_domains_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adcli.check("x*y", "x", wrt="y", x=2.0, y=3.0)
        adcli.check("x", "1", domain={"x": "1e-3:1"})


def test_cli_still_names_the_option():
    code, out, err = run_cli("check", "x*y", "x", "--wrt", "y", "--at", "x=2,y=3",
                             "--domain", "y=1:2")
    assert code == 0
    assert "warning: --domain y=1:2 is not used: y has values given (--at, --grid or " \
           "--points)" in err


# ----- values that make no points ---------------------------------------------------------

def test_api_values_of_shapes_that_do_not_broadcast():
    with pytest.raises(AdcliError, match=r"^the values' shapes do not broadcast together "
                                         r"\(x: \(3,\), y: \(2,\)\)$"):
        adcli.check("x*y", expect={"x": "y"}, x=np.arange(3.), y=np.arange(2.))
    # one value beside several is a point each
    assert adcli.check("x*y", expect={"x": "y"}, x=np.arange(3.), y=2.0).ok


def test_api_notes_give_a_parameter_as_a_keyword():
    # a = 1 hides a factor a; in Python another value is a keyword, not --at
    r = adcli.check("sin(a*x)", "cos(a*x)", wrt="x", a=1.0)
    assert r.notes == ["a is held at 1, where a factor a (or a power of it) is 1: one missing "
                       "or too many cannot show; another value (a=2.5) would show it"]
    code, out, _ = run_cli("check", "sin(a x)", "cos(a x)", "--at", "a=1", "--format",
                           "plain")
    assert "another value (--at a=2.5) would show it" in out


def test_f_unspaced_one_of_two_fractions_meant_otherwise_is_named_alone():
    # meant x^2/2 + 1/(3x^3): its derivative x - 1/x^4; only 1/2x^2 is the slip
    code, out, err = run_cli("check", "1/2x^2 + 1/3x^3", "x - 1/x^4", "--format", "plain")
    assert out.splitlines()[1] == (
        "diagnosis: f: 1/2x^2 is read as 1/(2*(x^2)): a product written side by side binds "
        "tighter than '/'; as (1/2)*x^2, the expectation matches")
    # 1/3y is constant in x however it is read: not named beside the slip
    code, out, err = run_cli("check", "1/2x^2 + 1/3y", "x", "--wrt", "x", "--format",
                             "plain")
    assert out.splitlines()[1].startswith("diagnosis: f: 1/2x^2 is read as 1/(2*(x^2)): ")


@pytest.mark.parametrize("kwargs, words", [
    (dict(expected="x", samples=2), "samples=2 drew 2; samples=3 or more may give one"),
])
def test_api_notes_name_keywords(kwargs, words):
    r = adcli.check("x^2", **kwargs)
    assert any(words in n for n in r.notes), r.notes


@pytest.mark.parametrize("kwargs, words", [
    (dict(expected="2x", domain={"x": (1, 1)}),
     "domain={'x': (1, 1)} holds one number, 1: every random point would be x = 1 (give LO "
     "< HI, or that one point with x=1, which"),
    (dict(expected="f'(2) = 12"), "and give the point with x=2"),
])
def test_api_errors_name_keywords(kwargs, words):
    f = "x^3" if "f'" in kwargs["expected"] else "x^2"
    with pytest.raises(AdcliError) as error:
        adcli.check(f, **kwargs)
    assert words in str(error.value) and "--" not in str(error.value)
