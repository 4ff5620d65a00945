"""The cautions of 7a7d78d quote what was typed and advise rewrites that read as they say:
1/√2 (x+1) was quoted as "1/√2 (x+1" (its divisor cut at the last node, the 1) and its
rewrite, 1/√2*(x+1, did not parse; \\sin{x+1}(y) was quoted as \\sin{x+1}y."""
import math

import pytest

import adcli
from adcli.parser import other_readings
from conftest import close, run_cli, warnings_in


from test_reading_s22 import BRACES, _root_divisor, _wide  # noqa: E402  (the cautions' words)
R2, C2 = math.sqrt(2), 2 ** (1 / 3)


def _advice(caution: str) -> tuple[str, str]:
    """The reading a caution says was likely meant, and the text it says to write."""
    meant, write = caution.removesuffix(BRACES).split("; for ")[1].split(", write ")
    return meant, write


def _reads_as_meant(caution: str, at: dict, value: float, let=None) -> None:
    """The advised rewrite parses, reads as the reading meant (uncautioned) and has the
    value meant, derived by hand."""
    meant, write = _advice(caution)
    rewritten, said = adcli.parse(write, let), adcli.parse(meant, let)
    assert rewritten.parsed == said.parsed
    assert rewritten.cautions == []
    assert close(float(rewritten.value(**at)), value)
    assert close(float(said.value(**at)), value)


# ----- 1. a root's sign after '/': the divisor quoted up to its end ----------------------

# (text, the quoted division, the divisor as read, the reading meant, the rewrite advised,
# a point, the division's value meant there and the whole text's as read, by hand)
ROOTS = [
    ("1/√2 (x+1)", "1/√2 (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*(x+1)",
     {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 (x)", "1/√2 (x)", "sqrt(2*x)", "(1/sqrt(2))*x", "1/√2*(x)",
     {"x": 8.0}, 8 / R2, 1 / 4),
    ("x/√2 (y)", "x/√2 (y)", "sqrt(2*y)", "(x/sqrt(2))*y", "x/√2*(y)",
     {"x": 3.0, "y": 8.0}, 24 / R2, 3 / 4),
    ("1/∛2 (x+1)", "1/∛2 (x+1)", "cbrt(2*(x + 1))", "(1/cbrt(2))*(x + 1)", "1/∛2*(x+1)",
     {"x": 3.0}, 4 / C2, 1 / 2),
    ("1/√2 [x+1]", "1/√2 [x+1]", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*[x+1]",
     {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 {x+1}", "1/√2 {x+1}", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*{x+1}",
     {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 x (y+1)", "1/√2 x (y+1)", "sqrt((2*x)*(y + 1))", "(1/sqrt(2))*(x*(y + 1))",
     "1/√2*x (y+1)", {"x": 2.0, "y": 3.0}, 8 / R2, 1 / 4),
    ("1/√2 (x)(y)", "1/√2 (x)(y)", "sqrt((2*x)*y)", "(1/sqrt(2))*(x*y)", "1/√2*(x)(y)",
     {"x": 2.0, "y": 4.0}, 8 / R2, 1 / 4),
    # nested brackets, of two kinds
    ("1/√2 ((x+1))", "1/√2 ((x+1))", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)",
     "1/√2*((x+1))", {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 [x (y+1)]", "1/√2 [x (y+1)]", "sqrt(2*(x*(y + 1)))", "(1/sqrt(2))*(x*(y + 1))",
     "1/√2*[x (y+1)]", {"x": 2.0, "y": 3.0}, 8 / R2, 1 / 4),
    ("1/√2 x (y (x+1))", "1/√2 x (y (x+1))", "sqrt((2*x)*(y*(x + 1)))",
     "(1/sqrt(2))*(x*(y*(x + 1)))", "1/√2*x (y (x+1))", {"x": 1.0, "y": 4.0}, 8 / R2, 1 / 4),
    # a power of the group, bars, TeX's sizing of the brackets
    ("1/√2 (x+1)^2", "1/√2 (x+1)^2", "sqrt(2*((x + 1)^2))", "(1/sqrt(2))*(x + 1)^2",
     "1/√2*(x+1)^2", {"x": 1.0}, 4 / R2, 1 / (2 * R2)),
    ("1/√2 (x+1)^{(2)}", "1/√2 (x+1)^{(2)}", "sqrt(2*((x + 1)^2))", "(1/sqrt(2))*(x + 1)^2",
     "1/√2*(x+1)^{(2)}", {"x": 1.0}, 4 / R2, 1 / (2 * R2)),
    ("1/√2 |x-3|", "1/√2 |x-3|", "sqrt(2*abs(x - 3))", "(1/sqrt(2))*abs(x - 3)",
     "1/√2*|x-3|", {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 |x|(y)", "1/√2 |x|(y)", "sqrt((2*abs(x))*y)", "(1/sqrt(2))*(abs(x)*y)",
     "1/√2*|x|(y)", {"x": -2.0, "y": 4.0}, 8 / R2, 1 / 4),
    ("1/√2 \\left(x+1\\right)", "1/√2 \\left(x+1\\right)", "sqrt(2*(x + 1))",
     "(1/sqrt(2))*(x + 1)", "1/√2*\\left(x+1\\right)", {"x": 1.0}, 2 / R2, 1 / 2),
    ("1/√2 x \\frac{1}{y}", "1/√2 x \\frac{1}{y}", "sqrt((2*x)*(1/y))",
     "(1/sqrt(2))*(x*(1/y))", "1/√2*x \\frac{1}{y}", {"x": 4.0, "y": 2.0}, 2 / R2, 1 / 2),
    # spaces as typed; more after the division; brackets around it are not the dividend's
    ("1 / √2  (x+1) + 3", "1 / √2  (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)",
     "1/√2*(x+1)", {"x": 1.0}, 2 / R2, 1 / 2 + 3),
    ("(1/√2 (x+1))", "1/√2 (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*(x+1)",
     {"x": 1.0}, 2 / R2, 1 / 2),
    ("[(x+1)/√2 (y)] y", "(x+1)/√2 (y)", "sqrt(2*y)", "((x + 1)/sqrt(2))*y",
     "(x+1)/√2*(y)", {"x": 1.0, "y": 8.0}, 16 / R2, 4.0),
    # a function after the root's run ends it: the divisor goes on (1/(√(2x)·sin y)); one
    # caution, the root's, not a second of the spaced divisor advising 1/sqrt(2*x)*sin(y)
    ("1/√2 x sin y", "1/√2 x sin y", "sqrt(2*x)*sin(y)", "(1/sqrt(2))*(x*sin(y))",
     "1/√2*x sin y", {"x": 8.0, "y": math.pi / 6}, 4 / R2, 1 / 2),
    ("1/√2 (x) sin(y+1) (x)", "1/√2 (x) sin(y+1) (x)", "(sqrt(2*x)*sin(y + 1))*x",
     "(1/sqrt(2))*(x*sin(y + 1)*x)", "1/√2*(x) sin(y+1) (x)",
     {"x": 2.0, "y": math.pi / 2 - 1}, 4 / R2, 1 / 4),
]


# The whole text so meant, where more than the division: 2/√2 + 3; ((1+1)/√2)·8·8
WHOLE = {"1 / √2  (x+1) + 3": 2 / R2 + 3, "[(x+1)/√2 (y)] y": 128 / R2}


@pytest.mark.parametrize("text, written, divisor, meant, write, at, value, as_read", ROOTS,
                         ids=[r[0] for r in ROOTS])
def test_a_root_divisor_is_quoted_to_its_end(text, written, divisor, meant, write, at,
                                            value, as_read):
    e = adcli.parse(text)
    assert e.cautions == [_root_divisor(written, divisor, meant, write)]
    assert written in text
    assert close(float(e.value(**at)), as_read)  # by the rules: the root takes the group


@pytest.mark.parametrize("text, written, divisor, meant, write, at, value, as_read", ROOTS,
                         ids=[r[0] for r in ROOTS])
def test_a_root_divisors_rewrite_reads_as_it_says(text, written, divisor, meant, write, at,
                                                 value, as_read):
    (caution,) = adcli.parse(text).cautions
    _reads_as_meant(caution, at, value)


@pytest.mark.parametrize("text, written, divisor, meant, write, at, value, as_read", ROOTS,
                         ids=[r[0] for r in ROOTS])
def test_the_whole_text_rewritten_has_the_value_meant(text, written, divisor, meant, write,
                                                     at, value, as_read):
    (other,) = other_readings(adcli.parse(text))
    assert other.written == written and other.meant == meant
    rewritten = adcli.parse(other.text)
    assert rewritten.cautions == []
    assert close(float(rewritten.value(**at)), WHOLE.get(text, value))


def test_two_root_divisors_are_each_quoted_to_their_end():
    e = adcli.parse("2/√3 (x+1) + 1/√2 (y)")
    assert e.cautions == [
        _root_divisor("2/√3 (x+1)", "sqrt(3*(x + 1))", "(2/sqrt(3))*(x + 1)", "2/√3*(x+1)"),
        _root_divisor("1/√2 (y)", "sqrt(2*y)", "(1/sqrt(2))*y", "1/√2*(y)")]
    for caution in e.cautions:   # (2/√3)(x+1) at x = 2: 3·2/√3 = 2√3; (1/√2)·y at y = 2: √2
        meant, write = _advice(caution)
        assert adcli.parse(write).parsed == adcli.parse(meant).parsed
    assert close(float(adcli.parse("2/√3*(x+1)").value(x=2.0)), 2 * math.sqrt(3))


# ----- 2. --let names in the root's argument ---------------------------------------------

LET = {"F": "y+1"}

# (text, the caution, a point, the value meant there: by hand, F = y + 1)
LETS = [
    ("1/√2 x F", _root_divisor("1/√2 x F", "sqrt((2*x)*(y + 1))", "(1/sqrt(2))*(x*F)",
                               "1/√2*x F"), {"x": 2.0, "y": 3.0}, 8 / R2),
    ("1/√2 (F)", _root_divisor("1/√2 (F)", "sqrt(2*(y + 1))", "(1/sqrt(2))*F", "1/√2*(F)"),
     {"y": 1.0}, 2 / R2),
    ("1/√2 F (x)", _root_divisor("1/√2 F (x)", "sqrt((2*(y + 1))*x)", "(1/sqrt(2))*(F*x)",
                                 "1/√2*F (x)"), {"x": 2.0, "y": 3.0}, 8 / R2),
    ("1/√2 (F+1)", _root_divisor("1/√2 (F+1)", "sqrt(2*((y + 1) + 1))",
                                 "(1/sqrt(2))*((y + 1) + 1)", "1/√2*(F+1)"),
     {"y": 1.0}, 3 / R2),
    ("F/√2 (x)", _root_divisor("F/√2 (x)", "sqrt(2*x)", "(F/sqrt(2))*x", "F/√2*(x)"),
     {"x": 2.0, "y": 1.0}, 4 / R2),
    ("1/√2 x F sin y", _root_divisor("1/√2 x F sin y", "sqrt((2*x)*(y + 1))*sin(y)",
                                     "(1/sqrt(2))*(x*F*sin(y))", "1/√2*x F sin y"),
     {"x": 2.0, "y": math.pi / 6}, (1 + math.pi / 6) / R2),   # (1/√2)·2·F·½
]


@pytest.mark.parametrize("text, caution, at, value", LETS, ids=[t[0] for t in LETS])
def test_a_let_name_in_a_root_divisor_is_quoted_as_typed(text, caution, at, value):
    e = adcli.parse(text, LET)
    assert e.cautions == [caution]
    meant, write = _advice(caution)
    rewritten = adcli.parse(write, LET)
    assert rewritten.cautions == []
    assert close(float(rewritten.value(**at)), value)
    assert close(float(adcli.parse(meant, LET if "F" in meant else None).value(**at)), value)
    (other,) = other_readings(e)
    assert close(float(adcli.parse(other.text, LET).value(**at)), value)


# ----- 3. on the command line ---------------------------------------------------------------

def test_eval_warns_of_the_whole_divisor():
    code, out, err = run_cli("eval", "1/√2 (x+1)", "--at", "x=1", "--format", "plain")
    assert code == 0
    assert warnings_in(err) == ["adcli: warning: " + _root_divisor(
        "1/√2 (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*(x+1)")]
    assert out.strip().splitlines()[-1].split()[-1] == "0.5"   # 1/√(2·2), as read


def test_check_quotes_the_whole_divisor():
    # d/dx (x^2/2 + x)/√2 = (x + 1)/√2: (1/√2)(x+1) as meant, not 1/√(2(x+1)) as read
    code, out, err = run_cli("check", "(x^2/2+x)/sqrt(2)", "1/√2 (x+1)", "--format", "plain")
    assert code == 1
    assert ("diagnosis: 1/√2 (x+1) is read otherwise than it was likely meant (see the "
            "warning); as (1/sqrt(2))*(x + 1), the expectation matches") in out.splitlines()
    assert warnings_in(err) == ["adcli: warning: " + _root_divisor(
        "1/√2 (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*(x+1)")]


# ----- 4. a function's last factor in brackets, quoted with them ------------------------

# (text, the caution, a point, the value meant there, by hand)
WIDE = [
    ("\\sin{x+1}(y)", _wide("\\sin{x+1}(y)", "sin((x + 1)*y)", "sin(x + 1)*y",
                            "\\sin(x+1) (y)") + BRACES, {"x": 1.0, "y": 2.0}, 2 * math.sin(2)),
    ("\\sin{x+1}[y]", _wide("\\sin{x+1}[y]", "sin((x + 1)*y)", "sin(x + 1)*y",
                            "\\sin(x+1) [y]") + BRACES, {"x": 1.0, "y": 2.0}, 2 * math.sin(2)),
    ("\\sin{x+1}(y)^2", _wide("\\sin{x+1}(y)^2", "sin((x + 1)*(y^2))", "sin(x + 1)*y^2",
                              "\\sin(x+1) (y)^2") + BRACES,
     {"x": 1.0, "y": 2.0}, 4 * math.sin(2)),
    ("\\sin{x+1}\\left(y\\right)",
     _wide("\\sin{x+1}\\left(y\\right)", "sin((x + 1)*y)", "sin(x + 1)*y",
           "\\sin(x+1) \\left(y\\right)") + BRACES, {"x": 1.0, "y": 2.0}, 2 * math.sin(2)),
    ("sin x \\left(y+1\\right)",   # (as typed, \\right included: a regression tester)
     _wide("sin x \\left(y+1\\right)", "sin(x*(y + 1))", "sin(x)*(y + 1)",
           "sin(x) \\left(y+1\\right)"), {"x": 1.0, "y": 2.0}, 3 * math.sin(1)),
    ("cos x e^x (y)", _wide("cos x e^x (y)", "cos((x*(e^x))*y)", "cos(x)*e^x*y",
                            "cos(x) e^x (y)"), {"x": 1.0, "y": 3.0}, 3 * math.e * math.cos(1)),
]


@pytest.mark.parametrize("text, caution, at, value", WIDE, ids=[w[0] for w in WIDE])
def test_a_last_factor_in_brackets_is_quoted_with_them(text, caution, at, value):
    assert adcli.parse(text).cautions == [caution]
    meant, write = _advice(caution)
    rewritten = adcli.parse(write)
    assert rewritten.cautions == []
    assert close(float(rewritten.value(**at)), value)
    assert close(float(adcli.parse(meant).value(**at)), value)


def test_check_tries_a_last_factor_in_brackets_as_meant():
    # d/dx sin(x+1)·y = y cos(x+1): meant; as read, sin((x+1)y) has y cos((x+1)y)
    code, out, err = run_cli("check", "\\sin{x+1}(y)", "y*cos(x+1)", "--wrt", "x",
                             "--at", "y=2", "--format", "plain")
    assert code == 1
    assert ("diagnosis: f: \\sin{x+1}(y) is read otherwise than it was likely meant (see the "
            "warning); as sin(x + 1)*y, the expectation matches") in out.splitlines()
    assert warnings_in(err) == ["adcli: warning: " + WIDE[0][1]]


def test_check_tries_the_root_over_a_divisor_that_goes_on():
    # d/dx (1/√2)·x·sin y = sin(y)/√2; as read, 1/(√(2x) sin y) has -1/(2√2 x^(3/2) sin y)
    code, out, err = run_cli("check", "1/√2 x sin y", "sin(y)/sqrt(2)", "--wrt", "x",
                             "--at", "y=2", "--format", "plain")
    assert code == 1
    assert ("diagnosis: f: 1/√2 x sin y is read otherwise than it was likely meant (see the "
            "warning); as (1/sqrt(2))*(x*sin(y)), the expectation matches") in out.splitlines()
    assert warnings_in(err) == ["adcli: warning: " + _root_divisor(
        "1/√2 x sin y", "sqrt(2*x)*sin(y)", "(1/sqrt(2))*(x*sin(y))", "1/√2*x sin y")]


def test_many_root_divisors_are_looked_at_a_few_times():
    """Each caution reads its divisor again: a long text is looked at in its first few
    places only (it was cut at every one), and still said once."""
    e = adcli.parse(" + ".join(["1/√2 (x+1)"] * 2000))
    assert e.cautions == [_root_divisor(
        "1/√2 (x+1)", "sqrt(2*(x + 1))", "(1/sqrt(2))*(x + 1)", "1/√2*(x+1)")]


# ----- \left ... \right quoted as typed (the second regression tester) ---------------------

@pytest.mark.parametrize("written, meant_text", [
    (r"\sin x \left(y+1\right)", r"\sin(x) \left(y+1\right)"),
    (r"\sin x \left|y\right|", r"\sin(x) \left|y\right|"),
    (r"\sin x \left[y+1\right]", r"\sin(x) \left[y+1\right]"),
])
def test_a_sized_bracket_is_quoted_as_typed(written, meant_text):
    # sin(x) (y + 1) at x = 0.3, y = 0.7 (|y| = y there): sin(0.3) * 1.7 or sin(0.3) * 0.7
    code, _, err = run_cli("eval", written, "--at", "x=0.3,y=0.7", "--format", "plain")
    assert code == 0
    assert f"{written}: a function written without parentheses" in err
    assert f"write {meant_text}" in err
    factor = 0.7 if "|" in written else 1.7
    assert adcli.parse(meant_text).value(x=0.3, y=0.7) == pytest.approx(math.sin(0.3) * factor,
                                                                        rel=1e-15)
    assert adcli.parse(meant_text).cautions == []
