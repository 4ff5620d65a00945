"""How a parse is read into nodes: the builder the LALR parser calls on every reduction.

The grammar (grammar/expr.lark) knows no function names, so factors written side by side
(a *run*: ``2x sin x``, ``x(y+1)``, ``sin^2 x``) reach this module as a list, and are read
here, left to right, by these rules (the README's "Reading maths as written by hand"):

* side by side is multiplication: ``2x sin(x)`` is ``((2*x)*sin(x))``, left-associative;
* a number may only come first: ``2x`` is a product, ``x 2`` and ``2 3`` are errors that
  propose the ``*`` to insert; ``2e`` is an error too (``2e3`` is a number, ``2e-x`` is not);
* a function name without parentheses takes, as its argument, the parenthesised group right
  after it (``sin^2(x) y`` is ``sin(x)^2*y``) or else every factor up to the next function
  (``sin 2x cos x`` is ``sin(2*x)*cos(x)``) or LaTeX's thin space (``\\sin x \\, e^{x}``);
  ``sin cos x`` is ``sin(cos(x))``;
* ``sin^2 x`` is ``sin(x)^2``; ``sin^-1 x`` is the inverse function, ``asin(x)``; a power
  after the group is on the function's value: ``sin^-1(x)^2`` is ``asin(x)^2``, as
  ``sin(x)^2`` is a call's power;
* a name followed by ``(`` is a call if the name is a function, a product if it is a
  one-letter variable or a constant (``x(y+1)``, ``e(x+1)``), else an unknown function.
* a subscript is part of a name only if it is a name or a number (the grammar reads
  ``x_{1}``, ``x_{ij}`` into the name and ends it at the brace: ``a_{n}x`` is a_n*x); a
  name ending in ``_`` before a bracket (``x_{i+1}``, ``x_(n)``) is refused.

Nodes come out flat in evaluation order and nothing here recurses (inputs may be 100,000
levels deep). The methods are named after the grammar's rules and aliases.
"""
from __future__ import annotations

import functools
import math
import re

from .errors import ExpressionError, escape, quote, run_together, slip
from .expression import LATEX_LETTERS, MAX_ORDER, Node, normal_name, subscript_letters
from .functions import CALLABLE, CONSTANTS, OPERATORS, PRIMITIVES
from .printer import as_operand, format_number, render
from .records import Record

_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
# A name with its power, right before a "_" (x^2_i, \sigma^{2}_{x}, x²_i): _stray_subscript
_POWER_BEFORE = re.compile(r"(?P<name>\\[A-Za-z]+|[^\W\d]\w*?)(?P<power>\^\s*(?:\{[^{}]*\}|"
                           r"\\[A-Za-z]+|[-+]?[^\W_]+)|[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+)\Z")
_SQRT_TOKEN = re.compile(r"\\sqrt(?:\[[^\]]*\])?\s*\S\Z")   # \sqrt x_1: x is \sqrt's token
_BEFORE_A_NAME = "+-*/([{,=&^·×÷−"  # x*_i: a name '_i' after an operator, as before
CONSTANT_SPELLINGS = {"π": "pi"}
# π in every form Unicode has for it (each is π in NFKC form: ϖ, ℼ, and 𝛑 𝜋 𝝅 ... pasted
# from typeset maths): the grammar's _PI, the constant on its own, never part of a name
PI_FORMS = "πϖℼ\U0001d6d1\U0001d6e1\U0001d70b\U0001d71b\U0001d745\U0001d755\U0001d77f" \
    "\U0001d78f\U0001d7b9\U0001d7c9"
# Word's invisible function application and invisible times: spaces, as the grammar reads them
INVISIBLE_SPACES = "\u2061\u2062"
# The vulgar fractions the grammar reads as numbers (its NUMBER): ½ is (1, 2). Written out,
# not derived by NFKC at import (tests/test_start_up_path.py checks them against it).
_FRACTIONS = {"¼": (1, 4), "½": (1, 2), "¾": (3, 4), "⅐": (1, 7), "⅑": (1, 9), "⅒": (1, 10),
              "⅓": (1, 3), "⅔": (2, 3), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5), "⅘": (4, 5),
              "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8)}
ROOT_SIGNS = ("√", "∛")
# A number then a space, after √ or ∛ (√2 x): _root_of_number (and adcli.parser's 1/√2 x)
SPACED_NUMBER = r"(\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t]+"
ROOTS = {"√": "sqrt", "∛": "cbrt", "\\sqrt": "sqrt", "\\sqrt[2]": "sqrt", "\\sqrt[3]": "cbrt"}
# The textbook's f^-1: the inverse function (sin^-1 x is asin(x), not 1/sin(x)).
INVERSES = {"sin": "asin", "cos": "acos", "tan": "atan", "sec": "asec", "csc": "acsc",
            "cot": "acot", "sinh": "asinh", "cosh": "acosh", "tanh": "atanh"}
# (The patterns below are compiled on first use, by re's own cache: a plain expression that
# parses needs none of them, and each compiled at import cost every run 0.05-0.3 ms.)
# log_2 x, log_10(x), log_e x, log_b x: a number, e or a name as the base
_LOG_BASE = r"log_(\d+(?:\.\d+)?|[^\W\d]\w*)\Z"
_SPECIAL = {"log": (1, 2), "diff": (2, None)}      # argument counts beyond the registry's
_SHORT_NAME = r"[^\W\d_][\d_]*"           # x, x1, x_2, θ: variables, not functions
# (k_B, r_e, x_{ab} before "(" too: a letter's subscript, as x_{a}(y+1) already reads)
_SUBSCRIPTED = _SHORT_NAME + r"|[^\W\d_]_[^\W_]+"
_MARKS = ("Mn", "Mc")    # combining marks, as names take them after a letter (x́, θ̂)
_INF = float("inf")
# LaTeX's accents on a letter, as the combining marks a name takes (\dot{q} is q̇, the
# name q and U+0307 spell), as the grammar's _TEX_ACCENT takes them
_ACCENTS = {"dot": "\u0307", "ddot": "\u0308", "hat": "\u0302", "bar": "\u0304",
            "tilde": "\u0303", "vec": "\u20d7"}
_ACCENT = re.compile(r"\\(" + "|".join(_ACCENTS) + r")(?![A-Za-z])\s*\{?\s*"
                     r"(\\[A-Za-z]+|[^\W\d_])\s*(_(?:\{\w+\}|\w+))?\s*\}?(.*)\Z", re.S)
# \frac{\partial V}{\partial q}, \frac{d^2x}{dt^2}, \frac{d}{dx}: a derivative as TeX writes
# it (_derivative_fraction), its bottom's variables with their powers (_BY)
_TO_THE = r"\s*(?:\^\s*\{?\s*\d+\s*\}?)?"   # d^2, dt^{2}: the order
# (a variable there may be accented, \partial \dot{q}: the grammar's _TEX_ACCENT's forms)
_ACCENTED = r"\\(?:" + "|".join(_ACCENTS) + r")(?![A-Za-z])(?:\s*\{\s*(?:\\[A-Za-z]+|[^\W\d_])" \
    r"\s*\}|\s+[^\W\d_]|\s*\\[A-Za-z]+)"
_VARIABLE = r"(?:" + _ACCENTED + r"|\\[A-Za-z]+|[^\W\d_])"
_BY = r"(?:d|\\partial)\s*(" + _VARIABLE + r")\s*(?:\^\s*\{?\s*(\d+)\s*\}?)?"
_DERIVATIVE = re.compile(r"\\[dt]?frac\s*\{\s*(?:d|\\partial)(?![A-Za-z]{2})" + _TO_THE +
                         r"\s*((?:[^{}]|\{[^{}]*\})*?)\s*\}\s*\{((?:\s*(?:d|\\partial)\s*"
                         + _VARIABLE + _TO_THE + r")+)\s*\}")
_DIFFERENTIALS = ("d", "δ", "Δ", "∂")   # dt, δq, Δx: one quantity, not d times t
CAUTIONS = 3     # warnings of readings, at most (adcli.parser's too)
LOOKED_AT = 20   # places of each reading looked at, at most (each renders its nodes)
MAX_FACTORIAL = 170
# (compiled on first use, by re's own cache: for errors and rare numbers only)
_DECIMAL = r"\s*[-+\u2212]?(\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*\Z"
_LEIBNIZ = r"(?<!\w)d\s*/\s*\Z"        # d/dx(x^2): before "dx("
_SIGNED = r"\s*([-+\u2212]\s*[\w.]+)"    # sin -x: suggest sin(-x)
# k_{\mathrm{B}}, k_{\rm B}: a subscript in upright type, its letters (braced, or after a space)
_UPRIGHT_SUBSCRIPT = r"\\(?:mathrm|textrm|text|mbox)\s*\{\s*([^\W_]+)\s*\}|\\rm\s+([^\W_]+)"
# 6.022\times10^{23}, 1.6 × 10^-19: a decimal and a whole power of ten (nothing else)
_TIMES_SIGNS = ("\\times", "×", "·", "⋅", "\\cdot")
_SCIENTIFIC = r"(\d+\.\d*|\.\d+)\s*(?:\\times|\\cdot|[×·⋅])\s*10\s*\^\s*" \
    r"(\{\s*)?([-+\u2212]?\d+)(?(2)\s*\}|(?![\d.]))"
_GROUP_MARK = r"[ \t]*\\[,; ][ \t]*|[ \t]+"    # 299 792, 299\,792, 299\;792, 299\ 792
_GROUPED_DIGITS = r"\d{1,3}(" + _GROUP_MARK + r")\d{3}(?:(?:" + _GROUP_MARK + \
    r")\d{3})*(?:\.\d*)?(?![\d.])"
# A subscript the grammar reads into a name (x_{1}, x_{ij}): what its braces may hold.
_SUBSCRIPT = r"(?:[^\W⁰¹²³⁴-⁹¼-¾⅐-⅞" + PI_FORMS + "]+|[" + PI_FORMS + r"])\Z"   # (x_{π} too)
_BRACKETS = {"{": "}", "(": ")", "[": "]"}
# Superscripts that are not letters: with superscript letters, they spell an exponent
_RAISED = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾\u141f"
# Word's raised fraction slash (x⁻¹ᐟ² is x^(-1/2)), U+141F, a letter to Unicode: read only
# between superscript digits, as the grammar's SUPERSCRIPT does
_RAISED_SLASH = "\u141f"
_RAISED_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# amsmath's environments meant to sit inside maths (\\[ \\begin{aligned} ... \\end{aligned} \\])
INNER = ("aligned", "gathered", "split")
# TeX's math delimiters ($x^2$, \\(x^2\\)), and the display environments pasted from notes
# (\\begin{align} ... \\end{align}, multline, flalign), which delimit as \\[ \\] do: read
# around the whole of a text only, with at most one INNER environment right inside them
_ENVIRONMENT = r"\\(begin|end)\s*\{((?:equation|align|gather|multline|flalign)\*?|" + \
    "|".join(INNER) + r")\}"
_MATH = r"\$\$?|\\[()\[\]]|" + _ENVIRONMENT
_MATH_PAIRS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
# A line of such a display: its alignment mark (&= or & first) and the line break ending it,
# alone or with its spacing (\\\\[2pt], \\\\[-1ex], \\\\[2\\jot]: the grammar's _BREAK)
_NUMBER = r"(?:\d+\.?\d*|\.\d+)"
_LENGTH = r"[-+]?(?:" + _NUMBER + r"\s*(?:pt|ex|em|mm|cm|in|bp)|" + _NUMBER + \
    r"?\s*\\(?:jot|baselineskip|(?:small|med|big)skipamount))"
_LINE_MARK = r"&|\\\\\*?(?:\[\s*" + _LENGTH + r"\s*\])?"
_LAST_MARKS = r"(?s)(?:&\s*){1,2}(?:\\\\.*)?"   # x^2 && \\: flalign's line end
# A line break inside the expression, a long formula broken over a display's lines, where
# an operator ends the line before it or begins the one after it, past that line's '&' and
# spacing (x^2 + \\\\ 3x, x^2 \\\\ &\\quad + 3x: the grammar's _NEXT_LINE and NEXT_ADD_OP)
_OPERATOR = r"(?:[-+\u2212*/\u00d7\u00b7\u22c5\u00f7]|\\(?:cdot|times|div))"
_SPACE = r"\\q?quad|\\[,;:! ]"     # TeX's spacing commands, read as spaces
_SPACING = r"(?:\s|" + _SPACE + r")*"
_ENDS_IN_OPERATOR = _OPERATOR + _SPACING + r"\Z"
# (an empty group before the operator, {}+ x^2, makes it binary to TeX: spacing here)
_BEGINS_WITH_OPERATOR = r"\s*(?:&\s*)?(?:\s|" + _SPACE + r"|\{\s*\})*" + _OPERATOR
_TAIL = 200     # characters of a line looked at for the operator ending it
_OPERATOR_SIGNS = "+-\u2212*/\u00d7\u00b7\u22c5\u00f7"
_COMMAND_ENDS = "tsvd,;:!\\"    # of \\cdot, \\times, \\div, \\quad, \\, and the others
# The line's annotations (\\label{eq:1}, \\tag{3}, \\tag*{a}, \\nonumber, \\notag), no part of
# the maths (the grammar's LATEX_NOTE), its justification in text (&& \\text{by parts},
# \\quad \\mbox{...}: LATEX_TEXT), and the spaces \\quad, \\qquad; found as TeX reads
# commands: \\\\ is one, so \\\\quad holds no \\quad. One glued to letters is another
# command (\\quadx), which the grammar would read as the space and x.
_SAID_MARK = r"(?:&&(?:\s*\\q?quad)?|\\q?quad)\s*"
_SAID_COMMAND = r"\\(?:textrm|text|mbox)(?![A-Za-z])"
_PLAIN_BRACES = r"\s*\{[^{}\\$&=]*\}"
_SAID = _SAID_MARK + "(" + _SAID_COMMAND + ")"
_GOES_ON = r"[\w(\[{|+\-\u2212*/^\u00b7\u00d7\u00f7\u221a\u221b\\]"  # what may go on the maths
_PASSED = (r"\\\\|(?P<glued>\\(?:nonumber|notag|q?quad)[A-Za-z]+)"
           r"|(?P<note>\\(?:(?:label|tag\*?)" + _PLAIN_BRACES + "|nonumber|notag)|"
           + _SAID_MARK + _SAID_COMMAND + _PLAIN_BRACES + ")"
           r"|(?P<space>\\q?quad)")
# What the braces of \\label{...} and \\tag{...} may not hold
_NOT_IN_NOTE = r"[{}\\$&=]"
# Relations an equation may be written with on paper (f'(x) ≈ 2x, \\frac{dy}{dx} \\approx 2x,
# y' \\Rightarrow 2x): never read, named in the error, which says to write '=' instead
RELATION = r"[≈≃∼≅≡→⇒⟶⟹]|\\(?:approx|simeq|sim|cong|equiv|to|rightarrow|Rightarrow" \
    r"|longrightarrow|Longrightarrow|implies)(?![A-Za-z])"
_TEX_READ = ("write the expression itself (\\frac{a}{b}, \\sqrt{x}, \\cdot, \\sin and the "
             "Greek letters are read)")
# The annotations of a line that take text, and how they are written
_NOTE_EXAMPLES = {"\\label": "\\label{eq:1}", "\\tag": "\\tag{3}"}
_SAID_EXAMPLES = {"\\text": "\\text{by the chain rule}", "\\textrm": "\\textrm{by parts}",
                  "\\mbox": "\\mbox{(by parts)}"}
# Functions adcli lacks, often written as if it had them: what to write instead.
_LACKING = {"sinc": "write sin(u)/u for sinc(u); numpy's sinc(u) is sin(pi u)/(pi u)"}
# The inverses of coth, sech and csch, in each spelling the others have (not acot h, nor a
# times coth): each is another inverse's of 1/u
_LACKING.update({f"{head}{f}": f"write {inverse}(1/u) for {head}{f}(u)"
                 for f, inverse in (("coth", "atanh"), ("sech", "acosh"), ("csch", "asinh"))
                 for head in ("a", "ar", "arc")})


def _constant_or_greek(name: str) -> bool:
    """Whether a name read from a LaTeX command is a constant (\\pi, \\mathrm{e}) or a
    Greek letter (\\alpha, \\theta_1): what such a command may name besides a function."""
    return name in CONSTANTS or name in CONSTANT_SPELLINGS \
        or name.partition("_")[0] in LATEX_LETTERS.values()


def accented_names(text: str) -> str:
    """``text`` with each accented letter LaTeX writes (\\dot{q}, \\dot q, \\ddot{\\theta})
    as the name the reader makes of it, q̇, θ̈: so a derivative's variable written in the
    numerator or denominator of a \\frac is the variable of the expression."""
    def marked(found: re.Match) -> str:
        accent, letter = re.fullmatch(r"\\([A-Za-z]+)\s*\{?\s*(.*?)\s*\}?", found[0]).groups()
        letter = LATEX_LETTERS.get(letter[1:], letter) if letter[0] == "\\" else letter
        return normal_name(letter + _ACCENTS[accent])

    return re.sub(_ACCENTED, marked, text)


def _letters_apart(name: str, tex: bool) -> bool:
    """Whether ``name`` is two or three letters that TeX and typeset maths set as a product
    (kx is k·x, ωt is ω·t), where adcli reads one variable: in LaTeX or pasted from typeset
    maths, 𝑘𝑥 (``tex``), or with a Greek letter among them (ωt, ħω). Not a Greek letter
    spelled out (mu, rho, phi), nor a differential (dt, dx, δq, Δt: one quantity, in TeX
    too); digits and subscripts (x1, v_0) make a name of their own, as TeX shows them."""
    letters = _letters(name)
    if not 2 <= len(letters) <= 3 or not unmarked(name).isalpha() or name in LATEX_LETTERS:
        return False
    if len(letters) == 2 and letters[0] in _DIFFERENTIALS:
        return False
    return tex or any(_greek(c) for c in unmarked(name))


def _letters(name: str) -> list[str]:
    """``name``'s letters, each with the combining marks after it (q̇x: q̇ and x)."""
    letters: list[str] = []
    for c in name:
        if letters and _is_mark(c):
            letters[-1] += c
        else:
            letters.append(c)
    return letters


def _is_mark(c: str) -> bool:
    """Whether c is a combining mark a name takes after a letter (_MARKS)."""
    if c.isascii():
        return False
    import unicodedata

    return unicodedata.category(c) in _MARKS


def _greek(c: str) -> bool:
    return "\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff"


def _is_name_base(base: str) -> bool:
    """Whether log_b's base is a name (log_b, log_pi), not a number or e."""
    return base != "e" and not base[0].isdigit()


def lacking(name: str) -> str | None:
    """What to write for a function adcli lacks (sinc), or None."""
    return _LACKING.get(name)


def math_delimiters(text: str) -> tuple[int, int] | None:
    """Where the text between TeX's math delimiters around the whole of ``text`` starts
    and ends ($x^2$, $$x^2$$, \\(x^2\\), \\[x^2\\], spaces around them, and prose's full
    stop or comma after them, $x^2$., or inside them, $$x^2.$$), or None for a text
    without them. \\begin{equation} and \\end{equation} (align, aligned, gather, and the
    starred forms) delimit as \\[ and \\] do; one \\begin{aligned} ... \\end{aligned} may
    sit inside them (_nested). A delimiter anywhere else, or without its pair, is an
    ExpressionError with the caret on it."""
    # (TeX's line break is one token: \\\\[2pt] holds no \\[)
    marks = (mark for mark in re.finditer(_MATH + r"|\\\\", text) if mark.group() != "\\\\")
    opening = next(marks, None)
    if opening is None:
        return None
    begin, end = len(text) - len(text.lstrip()), len(text.rstrip())
    if opening.start() != begin or _closing(opening) is None:
        _stray_delimiter(text, opening)
    closing = next(marks, None)
    if _opens_inner(text, opening, closing):
        if opening[1] == "begin" and opening[2] in INNER:
            _no_outer_pair(text, opening, closing)
        return _nested(text, opening, closing, marks, end)
    _closes(text, opening, closing, text, end)
    return _inside(text, opening, closing, text[closing.end():end].strip())


def _opens_inner(text: str, opening: re.Match, mark: re.Match | None) -> bool:
    """Whether ``mark`` is an aligned right after the opening delimiter (\\[
    \\begin{aligned}): amsmath's environment meant to sit inside maths, pasted with it.
    Only a line's annotations may come between (\\begin{equation}\\label{eq:1})."""
    return mark is not None and mark[1] == "begin" and mark[2] in INNER and \
        not unnoted(text[opening.end():mark.start()]).strip()


def _nested(text: str, outer: re.Match, inner: re.Match, marks, end: int) -> tuple[int, int]:
    """math_delimiters' span inside \\[ \\begin{aligned} ... \\end{aligned} \\]: its two
    closings in the order of the openings, the first wrong one refused; between them, only
    a line's annotations and prose's full stop or comma."""
    inner_closing, outer_closing = next(marks, None), next(marks, None)
    between = outer_closing.start() if outer_closing else end
    if inner_closing is not None and inner_closing[1] == "begin":   # two levels deep
        _stray_delimiter(text, inner_closing)
    _closes(text, inner, inner_closing, unnoted(text), between, f" {_closing(outer)}")
    _closes(text, outer, outer_closing, text, end)
    stops = unnoted(text[inner_closing.end():between]).strip() + text[outer_closing.end():end]
    return _inside(text, inner, inner_closing, stops.strip())


def _closes(text: str, opening: re.Match, closing: re.Match | None, seen: str, end: int,
            then: str = "") -> None:
    """That ``closing`` closes ``opening``, with nothing after it to ``end`` in ``seen``
    (``text`` as looked at) but prose's full stop or comma; else an ExpressionError with
    the caret on it (``then``: the closings the expression ends with after this one)."""
    pair = _closing(opening)
    if closing is None:
        raise ExpressionError(f"'{opening.group()}' opens TeX's math and nothing closes it: "
                              f"end the expression with '{pair}{then}', or leave the "
                              f"'{opening.group()}' out", text, opening.start())
    if seen[closing.end():end].strip() not in ("", ".", ","):
        _stray_delimiter(text, closing)
    if _closing(closing, opening=False) != pair:
        raise ExpressionError(f"'{closing.group()}' does not close the '{opening.group()}' "
                              f"that opens the expression: end it with '{pair}'", text,
                              closing.start())


def _inside(text: str, opening: re.Match, closing: re.Match, stop: str) -> tuple[int, int]:
    """The span between a pair of delimiters, without prose's full stop or comma ending it
    where none (``stop``) follows the closing; an ExpressionError if it is empty."""
    inside = text[opening.end():closing.start()].rstrip()
    if inside[-1:] in (".", ",") and not stop:
        inside = inside[:-1]    # $$f'(x) = 2x.$$: display maths ending a sentence
    if not inside.strip():
        raise ExpressionError(f"the expression between '{opening.group()}' and "
                              f"'{closing.group()}' is empty", text, opening.start())
    return opening.end(), opening.end() + len(inside)


def _closing(mark: re.Match, opening: bool = True) -> str | None:
    """The delimiter that closes an opening one (\\) for \\(, \\end{align} for \\begin{align}),
    or None for one that opens nothing; with ``opening`` False, a closing one as written
    (\\end {align} as \\end{align})."""
    if mark[1] is None:     # $, \\(, ...
        return _MATH_PAIRS.get(mark.group()) if opening else mark.group()
    if (mark[1] == "begin") != opening:
        return None if opening else mark.group()
    return f"\\end{{{mark[2]}}}"


def _no_outer_pair(text: str, inner: re.Match, second: re.Match):
    """\\begin{aligned} \\begin{split}: amsmath's inner environments, one in another, and
    no display around them (read alone, an inner one is a display's line pasted without
    it; two are two levels, refused inside an outer pair too)."""
    raise ExpressionError(f"'{second.group()}' inside '{inner.group()}' with no outer pair "
                          "around them (\\[ \\], $$, equation, ...): aligned, gathered and "
                          "split are read alone, or one inside such a pair, as in \\[ "
                          "\\begin{aligned} ... \\end{aligned} \\]", text, second.start())


def _stray_delimiter(text: str, mark: re.Match):
    """A TeX math delimiter that is not around the whole text (x$^2$, x^2$); one inside a
    line's note (\\text{by $u=x^2$}) is said to be there."""
    note = re.compile(r"(" + _SAID_COMMAND + r"|\\label|\\tag)\*?\s*\{[^{}]*\Z").search(
        text, 0, mark.start())
    if note is not None:
        written = note.group(1)
        example = _SAID_EXAMPLES.get(written) or _NOTE_EXAMPLES[written]
        raise ExpressionError(f"'{mark.group()}' inside LaTeX's {written}{{...}}: a line's "
                              f"note holds plain text only, as in {example}; write its maths "
                              "in words, or leave the note out", text, mark.start())
    what = "character " if len(mark.group()) == 1 else ""
    raise ExpressionError(f"unexpected {what}'{mark.group()}': TeX's math delimiters go "
                          "around the whole expression only, as in $x^2$", text, mark.start())


def without_math(text: str) -> str:
    """``text`` with the TeX math delimiters around the whole of it (math_delimiters), the
    marks of a line of a display in an equation (line_marks: f'(x) &= 2x \\\\) and the
    line's annotations inside (unnoted: \\label{eq:1}) blanked out, so that each character
    keeps its column: $f'(x) = 2x$ as f'(x) = 2x. Other marks are left for the parser to
    refuse."""
    span = math_delimiters(text)
    start, end = span or (0, len(text))
    _refuse_stray_said(text, end)   # (blanked out below, where the parser cannot see it)
    text = unnoted(text)
    kept = [" " * start]
    for position, mark, read in line_marks(text, start, end, equation=True):
        if read:
            kept += [text[start:position], " " * len(mark)]
            start = position + len(mark)
    kept += [text[start:end], " " * (len(text) - end)]
    return re.compile(_EMPTY_GROUP).sub(_blanked_group, "".join(kept))


# An empty group first on a line, before its operator ({}+ x^2, amsmath's idiom for a
# binary one on a continued line), once the line's marks are blanked: spacing, as the
# grammar reads it after a break (_NEXT_GAP)
_EMPTY_GROUP = r"(?m)^([^\S\n]*(?:(?:" + _SPACE + r")[^\S\n]*)*)(\{\s*\})(?=\s*" + _OPERATOR + ")"


def _blanked_group(found: re.Match) -> str:
    return found.group(1) + " " * len(found.group(2))


def line_marks(text: str, start: int, end: int, equation: bool = False):
    """TeX's marks of a line pasted from a display (align's alignment mark '&', the line
    break '\\\\' or '\\\\[2pt]') in text[start:end], each as (position, mark, whether it
    is read there).
    Read (as nothing): an '&' first in the text, one or two last (flalign's), a '\\\\'
    last or where an operator ends its line or begins the next (x^2 \\\\ + 3x), and the
    '&' beginning that next line; in an equation (check's expectation, ``equation``), an
    '&' at an '=' (f'(x) &= 2x) or first after one. The line's annotations are no part of
    it: give ``text`` unnoted."""
    # (no slices of the text per mark: a long formula broken over lines has many marks)
    broken = None   # where the last break inside the expression ends
    last_end = len(text[start:end].rstrip()) + start
    for found in re.compile(_LINE_MARK).finditer(text, start, end):
        position, mark = found.start(), found.group()
        after = _next_character(text, found.end(), end)
        if mark != "&":
            goes_on = _goes_on(text, start, position, found.end(), end)
            broken = found.end() if goes_on else broken
            yield position, mark, not after or goes_on
        else:   # (or in the one or two last: flalign's lines end in them, x^2 &&)
            before = _last_character(text, start, position)
            last = re.compile(_LAST_MARKS).fullmatch(text, position, last_end) is not None
            yield position, mark, not before or last or \
                equation and "=" in (after, before) or \
                broken is not None and not _last_character(text, broken, position)


def _next_character(text: str, start: int, end: int) -> str:
    """The first character of text[start:end] that is not a space, or ""."""
    found = re.compile(r"\s*(\S)").match(text, start, end)
    return found.group(1) if found else ""


def _last_character(text: str, start: int, end: int) -> str:
    """The last character of text[start:end] that is not a space, or ""."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return text[end - 1] if end > start else ""


def _goes_on(text: str, start: int, position: int, after: int, end: int) -> bool:
    """Whether the line break from ``position`` to ``after`` in text[start:end] is inside
    the expression: an operator ends the line before it or begins the one after it (a
    new line that begins otherwise, f(x) &= ... \\\\ f'(x) &= ..., is another line)."""
    if re.compile(r"\s*\Z").match(text, start, position):     # a break first: no line
        return False
    # (the line's end only, spacing and blanked notes included: a long text has many; the
    # regular expression only where it may end in a command, \\cdot or \\quad)
    tail = max(start, position - _TAIL)
    last = _last_character(text, tail, position)
    if last and (last in _OPERATOR_SIGNS or last in _COMMAND_ENDS and
                 re.compile(_ENDS_IN_OPERATOR).search(text, tail, position)):
        return True
    begins = re.compile(_BEGINS_WITH_OPERATOR).match(text, after, end)
    # (a '*' right after the break is TeX's star, \\*: the next line's '*' follows its '&')
    return begins is not None and begins.group().strip() != "*"


def refuse_stray_marks(text: str) -> None:
    """The math delimiters of an expression, and the marks of a line of a display in it
    (line_marks), where it may have them; an ExpressionError with the caret on one it
    may not (x^2$, x & y, x \\\\ y)."""
    span = math_delimiters(text) if "$" in text or "\\" in text else None
    start, end = span or (0, len(text))
    if "\\" in text:
        _refuse_stray_said(text, end)
    if "&" not in text and "\\\\" not in text:
        return
    for position, mark, read in line_marks(unnoted(text), start, end):
        if read:
            continue
        if mark == "&" and _in_word_root(text, position):
            continue
        if mark == "&":
            raise ExpressionError("unexpected character '&': TeX's alignment mark is read "
                                  "only first on a line (& 2x), one or two last (2x &&, as "
                                  "flalign's lines end), or at the '=' of check's expected "
                                  "derivative (f'(x) &= 2x)", text, position)
        _stray_break(text, position, mark, end)


# Word's root with its index, √(3&x), up to its '&' (the grammar's WORD_ROOT)
_WORD_ROOT = r"√\s*\(\s*([^\s()&]*)\s*\Z"


def _in_word_root(text: str, position: int) -> bool:
    """Whether the '&' at ``position`` is the one of Word's root √(n&x) with a whole number
    n, the grammar's to read; an ExpressionError, the caret on the √, for another n."""
    head = re.search(_WORD_ROOT, text[max(0, position - 40):position])
    if head is None:
        return False
    if head.group(1).isdigit():
        return True
    raise ExpressionError("Word's root √(n&x) takes a whole number n, as in √(3&x) for a cube "
                          "root; for any other index, write x^(1/n)", text,
                          max(0, position - 40) + head.start())


def _stray_break(text: str, position: int, mark: str, end: int):
    """A line break that neither ends the expression nor continues it at an operator."""
    # (TeX takes a '*' after \\\\ as its star, \\\\*, spaces aside: never a product)
    star = "; a '*' just after it is the break's star (\\\\*): put the next line's '&' " \
        "before a '*' that multiplies" if "[" not in mark and _next_character(
            text, position + len(mark), end) == "*" else ""
    raise ExpressionError(f"unexpected '{mark}': TeX's line break is read at the end of the "
                          "expression only, or where an operator ends its line or begins the "
                          f"next (x^2 + 3x \\\\ + \\sin x){star}", text, position)


def _refuse_stray_said(text: str, end: int) -> None:
    """A line's justification in text (&& \\text{by parts}) must hold plain text in braces,
    and end its line (before ``end``, where the maths ends), TeX's line break aside, as
    align's last column does; else an ExpressionError with the caret on it (x && \\text{a}
    + 1: a word inside the maths, which adcli cannot read)."""
    for found in re.finditer(_SAID, text):
        command = found.group(1)
        whole = re.compile(_PLAIN_BRACES).match(text, found.end())
        if whole is None:
            refuse_note(text, command, found.start(1), _SAID_EXAMPLES[command])
            continue
        rest = unnoted(text)[whole.end():end].lstrip()
        # (what cannot go on the maths, a stray ')' or '.', is the parser's to point at)
        if rest and not rest.startswith("\\\\") and re.match(_GOES_ON, rest):
            mark = text[found.start():found.start(1)].strip()
            raise ExpressionError(f"'{mark} {command}{{...}}' is read at the end of a line "
                                  "only: a line's justification in text, as in f'(x) &= 2x "
                                  "&& \\text{by the chain rule}", text, found.start())


def refuse_note(text: str, written: str, start: int, example: str) -> None:
    """A command taking a line's annotation (\\label, \\text) that was not read as one:
    an ExpressionError saying what keeps it from being one, the caret there."""
    opening = re.compile(r"\*?\s*\{").match(text, start + len(written))
    if opening is None:
        raise ExpressionError(f"LaTeX's {written} takes its text in braces, as in {example}",
                              text, start)
    wrong = re.compile(_NOT_IN_NOTE).search(text, opening.end())
    if wrong is not None and wrong.group() == "}":
        return
    # (a text running into the line's break or the math's closing was never closed)
    if wrong is None or re.match(r"\\(?:\\|[\])]|end\b)", text[wrong.start():]):
        raise ExpressionError(f"the '{{' of LaTeX's {written} is not closed: end it with "
                              f"'}}', as in {example}", text, opening.end() - 1)
    raise ExpressionError(f"LaTeX's {written}{{...}} holds plain text only, as in {example}: "
                          f"no '{wrong.group()}' in it", text, wrong.start())


def unnoted(text: str) -> str:
    """``text`` with the annotations of its line (\\label{eq:1}, \\tag{3}, \\nonumber, as
    the grammar reads them) blanked out, so that each character keeps its column."""
    if "\\" not in text:
        return text
    return re.sub(_PASSED, lambda found: " " * len(found.group())
                  if found.lastgroup == "note" else found.group(), text)


def passed_over(text: str) -> dict[int, tuple[int, bool]]:
    """Where the annotations of the line (\\label{eq:1}) and the spaces \\quad, \\qquad
    are, each as end: (start, whether it is a space); an ExpressionError with the caret on
    one of those commands glued to letters (\\quadx: another command to TeX)."""
    passed = {}
    for found in re.finditer(_PASSED, text):
        if found.lastgroup == "glued":
            raise ExpressionError(f"LaTeX's {found.group()} is not read here: " + _TEX_READ,
                                  text, found.start())
        if found.lastgroup:
            passed[found.end()] = found.start(), found.lastgroup == "space"
    return passed


def refuse_scripts(text: str) -> None:
    """A superscript letter (2ˣ, eˣ, x²ʸ, aˣb), which NFKC would make a plain letter glued on
    as a product or into a name, is refused, saying the power to write with '^'; so is a
    subscript with no name before it (2ₓ, 2₁: 2*x, 2 times a variable '1'). A subscript
    after a name is part of it, as NFKC reads it (x₁ is x1, xᵢ is xi)."""
    import unicodedata

    _refuse_degrees(text)
    scripts = {c: _script_of(c, unicodedata) for c in set(text) if not c.isascii()}
    scripts = {c: kind for c, kind in scripts.items() if kind}
    if not scripts:
        return
    for found in re.finditer("[" + re.escape("".join(scripts)) + "]", text):
        position, c = found.start(), found.group()
        plain = unicodedata.normalize("NFKC", c)
        if scripts[c] == "super":
            meant = power_meant(text, position)
            raise ExpressionError(f"'{c}' is a superscript letter, not read as a power: write "
                                  + (f"the power with '^': {meant}" if meant else
                                     f"a power with '^' after its base, as in x^{escape(plain)}"),
                                  text, position)
        if position and text[position - 1] in PI_FORMS:    # π₁: never pi times 1
            pi_subscript(text, text[position - 1], plain, position)
        before = re.search(r"\w*\Z", text[:position]).group()
        if not any(letter.isalpha() for letter in before):   # (2ₓ, ½ₓ, (x)ₓ)
            product = f"; for a product, write {before}*{plain}" if before and \
                plain.isalpha() else ""
            raise ExpressionError(f"'{c}' is a subscript with no name before it: a subscript "
                                  f"goes after a name, as in a_{plain}{product}", text, position)


def _refuse_raised_slash(text: str) -> None:
    """Word's raised fraction slash ᐟ (U+141F) anywhere but between superscript digits
    (x⁻¹ᐟ²): never a name, as a letter would make it; refused, the caret on it."""
    for found in re.finditer(_RAISED_SLASH, text):
        at = found.start()
        if not (0 < at < len(text) - 1 and text[at - 1] in _RAISED_DIGITS
                and text[at + 1] in _RAISED_DIGITS):
            raise ExpressionError("'\u141f' (Word's raised fraction slash) is read between "
                                  "superscript digits only, as in x⁻¹ᐟ² for x^(-1/2): write "
                                  "the power with '^'", text, at)


def _subscript_character(c: str) -> bool:
    import unicodedata

    return _script_of(c, unicodedata) == "sub"


def pi_subscript(text: str, pi: str, subscript: str, position: int):
    """π₁, π_1, \\pi_1: π is the constant, so a subscript on it names nothing (π as a
    subscript is part of a name: x_π). Refused, the caret on the subscript."""
    raise ExpressionError(f"'{pi}' is the constant pi, which takes no subscript: name the "
                          f"variable with another letter, as p_{escape(subscript)}", text,
                          position)


# Degrees as typed: the degree sign, the ring above and the ordinal indicator º (what many
# keyboards give for it; NFKC would make it the letter o, a power: 90º as 90^o)
_DEGREES = {"°": "a degree sign", "˚": "a ring, as a degree sign",
            "º": "the ordinal indicator, not a degree sign"}


def _refuse_degrees(text: str) -> None:
    """90°, sin(45º): angles are radians here, so a degree sign is refused, naming it and
    saying how to write the angle in degrees (never 90 times a variable 'o')."""
    found = re.search("[" + "".join(_DEGREES) + "]", text)
    if found is None:
        return
    position, c = found.start(), found.group()
    angle = _base_before(text, position, call=False)  # (cos(x+1)°: the angle is x+1)
    meant = f"{angle}*pi/180" if angle != "…" else "90*pi/180 for 90"
    raise ExpressionError(f"'{c}' ({_DEGREES[c]}) is not read: angles are in radians here; "
                          f"for degrees, write {escape(meant)}", text, position)


# TeX's degrees: a raised \circ (90^\circ, 90^{\circ}) and gensymb's \degree
_TEX_DEGREES = r"\^\s*(?:\{\s*\\circ\s*\}|\\circ(?![A-Za-z]))|\\degree(?![A-Za-z])"


def _refuse_tex_degrees(text: str) -> None:
    """90^\\circ, \\sin(30^{\\circ}): refused as the degree sign is (_refuse_degrees),
    never read as a power of a name 'circ' (TeX sets them as a degree sign)."""
    found = re.search(_TEX_DEGREES, text)
    if found is None:
        return
    position = found.start()
    angle = _base_before(text, position, call=False)
    meant = f"{angle}*pi/180" if angle != "…" else "90*pi/180 for 90"
    raise ExpressionError(f"'{escape(found.group())}' (TeX's degree sign) is not read: angles "
                          f"are in radians here; for degrees, write {escape(meant)}", text,
                          position)


# The bar of "evaluated at" at a text's end: x^2 |_{x=1}, \\left. x^2 \\right|_{x=1}, \\Big|
_EVALUATED = re.compile(r"(?P<bar>(?:\\(?:right|[bB]igg?r?)\s*)?(?:\||\\r?vert(?![A-Za-z])))"
                        r"\s*(?P<script>_\s*\{(?P<point>[^{}]*=[^{}]*)\})"
                        r"\s*(?:\$\$?|\\[)\]])?\s*\Z")   # (then $ or \], if any)
_EVALUATED_TAIL = 400    # characters at the end looked at for it
_BAR = re.compile(r"\||\\[lr]?vert(?![A-Za-z])")   # |, \vert, \lvert, \rvert


def _refuse_evaluation_bar(text: str) -> None:
    """A bar with a point under it (f |_{x=1}), the textbook's "evaluated at", is not read:
    read as a subscript with no name, it was refused saying to write x_{x=1}. Refused
    saying to give the point with --at (never read: adcli would have to say which point a
    text of many bars is evaluated at)."""
    found = _EVALUATED.search(text, max(0, len(text) - _EVALUATED_TAIL))
    if found is None:
        return
    pairs = [re.sub(r"\s*=\s*", "=", pair.strip()) for pair in found.group("point").split(",")]
    # (after a bar closing |x| or \lvert x \rvert, the subscript alone is what is not read)
    bars = len(_BAR.findall(text, 0, found.start()))
    position = found.start("script" if bars % 2 else "bar")
    written = text[position:found.end("script")]
    before = " (and its \\left.)" if re.search(r"\\left\s*\.", text) else ""
    raise ExpressionError(f"'{escape(written)}' (evaluated at {', '.join(pairs)}) is not "
                          f"read: leave it out{before} and give the point with --at "
                          f"{','.join(pairs)}", text, position)


def _script_of(c: str, unicodedata) -> str | None:
    """"super" for a superscript letter (ˣ, ⁿ, ᶿ; superscript digits are powers), "sub"
    for a subscript letter or digit (ₓ, ᵢ, ₁), as Unicode decomposes them; else None."""
    form, category = unicodedata.decomposition(c), unicodedata.category(c)[0]
    if form.startswith("<super>") and category == "L":
        return "super"
    if form.startswith("<sub>") and category in "LN":
        return "sub"
    return None


def power_meant(text: str, position: int) -> str:
    """The power a superscript written at ``position`` means, written with '^': the run
    of superscripts around it is the exponent (x²ʸ is x^(2y), 2ˣ⁺¹ is 2^(x+1)), the word or
    bracket before it the base, and a name's rest after it stays after it (aˣb: a^x b)."""
    import unicodedata

    def raised(c: str) -> bool:
        return c in _RAISED or _script_of(c, unicodedata) == "super"

    start, end = position, position + 1
    while start > 0 and raised(text[start - 1]):
        start -= 1
    while end < len(text) and raised(text[end]):
        end += 1
    exponent = unicodedata.normalize("NFKC", text[start:end]).replace(_RAISED_SLASH, "/")
    if len(exponent) > 1 and not (exponent[0] == "(" and exponent[-1] == ")"):
        exponent = f"({exponent})"
    base = _base_before(text, start)
    if base == "…":
        return ""
    if is_function_name(base.lstrip("\\")):  # sinˣ(x), sinⁿ x: the power of its value
        return escape(f"{base}({_argument_after(text, end)})^{exponent}")
    rest = re.match(r"\w*", text[end:]).group()
    return escape(f"{base}^{exponent}" + (f" {rest}" if rest else ""))


def _argument_after(text: str, start: int) -> str:
    """What a function written before text[start] takes: a bracketed group's inside, or
    the factor written after spaces (sinⁿ 2x: 2x); x where there is neither."""
    i = start
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] in _BRACKETS:
        closing, depth = _BRACKETS[text[i]], 0
        for j in range(i, len(text)):
            depth += (text[j] == text[i]) - (text[j] == closing)
            if depth == 0:
                return text[i + 1:j].strip() or "x"
    factor = re.match(r"[\w.]*", text[i:]).group()
    return factor or "x"


def _base_before(text: str, end: int, call: bool = True) -> str:
    """The base written before ``end``: a bracketed group, with the name of a call before
    it if ``call`` (sin(x)), bars (|x|), or a word (2, e, x1, \\sin); "…" if none or
    longer than 40 characters (a hint cut short would be one adcli cannot read)."""
    if end and text[end - 1] in _BRACKETS.values():
        closing, depth, k = text[end - 1], 0, end - 1
        opening = next(o for o, c in _BRACKETS.items() if c == closing)
        while k >= 0:
            depth += (text[k] == closing) - (text[k] == opening)
            if depth == 0:
                break
            k -= 1
        k = max(k, 0)
        name = re.search(r"(?<![\w\\])[^\W\d]\w*\Z", text[:k]) if call else None
        base = text[name.start() if name and is_function_name(name.group()) else k:end]
    elif end and text[end - 1] == "|" and "|" in text[:end - 1]:
        base = text[text.rindex("|", 0, end - 1):end]
        base = base if base.strip("| ") else ""   # (|x - |y||: bars in bars, not found)
    else:
        base = re.search(r"\\?[\w.]*\Z", text[:end]).group()
    return base if 0 < len(base) <= 40 else "…"


def is_function_name(name: str) -> bool:
    """Whether ``name`` (as written) names a function: sin, arcsin, diff, log_2, ..."""
    return name in CALLABLE or name in _SPECIAL or log_base(name) is not None


def relation_error(text: str, start: int, relation: str) -> ExpressionError:
    """The error for a relation no expression holds (≈, \\approx, →) at text[start]: it
    names it, and shows the text with '=' in its place where that is short enough."""
    said = f"LaTeX's {relation}" if relation[0] == "\\" else f"'{relation}'"
    equation = f"{text[:start].strip()} = {text[start + len(relation):].strip()}"
    example = f", as in {escape(equation)}" if len(equation) <= 60 else ""
    return ExpressionError(f"{said} is not read: for an equation, write '=' in its place"
                           f"{example}", text, start)


def log_base(name: str) -> str | None:
    """The base of log_b (2 in log_2, b in log_b, θ̂ in log_θ̂), or None if ``name`` is not
    a logarithm's name with one."""
    return name[4:] if name.startswith("log_") and re.match(_LOG_BASE, unmarked(name)) else None


def unmarked(name: str) -> str:
    """``name`` without its combining marks: θ̂ is one letter θ with its hat, as x1 is one
    letter and a digit (so θ̂ and x́ are variables, never functions, as θ and x are)."""
    return name if name.isascii() else "".join(c for c in name if not _is_mark(c))


@functools.lru_cache(maxsize=2)  # (asked once per '/' of a text: a 1 MB text is looked at once)
def marks_in(text: str) -> str:
    """The combining marks ``text`` holds (those a name takes: the grammar's _MARK), for
    a regular expression's class: a name's letters are \\w and these."""
    return "" if text.isascii() else "".join(sorted(c for c in set(text) if _is_mark(c)))


# ----- what the rules hand up before a run is read -----------------------------------

# A bracket's sizing command just before it (as the grammar's LATEX_SPACE: \left, \bigl)
_SIZING = r"\\(?:left|[bB]igg?l?)\s*\Z"


class Factor(Record):
    """A value in a run: its node, where its text starts, and what kind of factor it is:
    "number" (starts with a number), "paren" (in parentheses or bars), "applied" (a
    function with its argument in parentheses), "raised" (a group in parentheses or
    brackets raised to a power: after a function, the power is on the function's value),
    "tex" (TeX's \\frac, \\sqrt or a brace group: one token, drawn without brackets, so
    after a function a factor side by side, as ½ is: \\sin\\frac12 x is sin ½x), or
    "plain"."""

    __slots__ = _fields = ("index", "start", "kind")

    def __init__(self, index: int, start: int, kind: str = "plain"):
        self.index, self.start, self.kind = index, start, kind


class Func(Record):
    """A function name still waiting for its argument: ``sin``, ``sin^2``, ``tan^-1``, ``√``."""

    __slots__ = _fields = ("written", "name", "start", "mark", "power")

    def __init__(self, written: str, name: str, start: int, mark: int,
                 power: float | None = None):
        self.written = written  # as in the text, for messages
        self.name = name        # the function to apply (asin for sin^-1)
        self.start = start
        self.mark = mark        # nodes before it: an exponent is read back, then dropped
        self.power = power


class Pieces(Record):
    """``x(y+1)``: a name that is not a function, then a parenthesised factor."""

    __slots__ = _fields = ("head", "paren")

    def __init__(self, head: Factor, paren: Factor):
        self.head, self.paren = head, paren


class Run(list):
    """Factors side by side, read when the run is used."""


def not_grouped(written: str) -> str:
    """Why 299 792 458 (1 000 in a cell, 299\\,792 in TeX) is no number: its digits are
    grouped by thousands, which the tokenizer splits into numbers side by side."""
    mark = re.search(r"\\[,; ]", written)
    apart = f"'{mark.group()}'" if mark else "spaces"
    digits = re.sub(r"\\[,; ]|\s", "", written)
    return f"{quote(written)} is not a number: digits are not grouped with {apart} (write " \
        f"{digits} if that is meant)"


def out_of_range(text: str, value: float, typed: str | None = None) -> str | None:
    """Why a number written as ``text`` (read as ``value``) is beyond float64's range, if
    it is: 1e400 is inf and 1e-400 0, every digit of it lost. (Only a number as written:
    1e200*1e200 overflows as arithmetic does.) ``typed``: the number as shown, where it
    was written otherwise (1.5\\times10^{400} for 1.5e400)."""
    written = re.match(_DECIMAL, text)
    if written is None:
        return None
    typed = (text if typed is None else typed).strip()
    shown = typed if len(typed) <= 40 else \
        f"{typed[:12]}…{typed[-8:]} ({len(typed)} characters)"
    if abs(value) == _INF:
        return f"{shown} is beyond the largest float64 number (about 1.8e308)"
    if value == 0.0 and written.group(1).strip("0.") != "":
        return f"{shown} is below the smallest float64 number (about 4.9e-324)"
    return None


class Builder:
    """Appends one Node per reduction. ``definitions``: names that refer to --let
    definitions (read as "ref" nodes, linked by adcli.definitions)."""

    token_pairs = True  # adcli.lalr hands each token over as (text, start); see ForLark

    def __init__(self):
        self.reset("")

    def reset(self, text: str, definitions=frozenset()) -> None:
        self.text, self.nodes, self.definitions = text, [], frozenset(definitions)
        # Readings right by the rules and rarely meant, seen while reading (sinx, cos x
        # e^x): Expression.cautions says them. A dict: each is said once.
        self.said: dict[str, None] = {}
        self._looked = 0
        self._starts = None  # the first two letters of functions' names: _glued_function
        self._tex = "\\" in text  # LaTeX's \\, may end a function's argument (_gap)
        self._applies = "\u2061" in text   # Word's function application mark: _applied_name
        if self._tex or "$" in text or "&" in text:  # (a stray $, \\( or & is refused
            refuse_stray_marks(text)                   # before parsing)
        if self._tex and ("\\circ" in text or "\\degree" in text):
            _refuse_tex_degrees(text)
        if "_" in text and ("|" in text or "vert" in text):
            _refuse_evaluation_bar(text)
        if not text.isascii():
            refuse_scripts(text)
            if _RAISED_SLASH in text:
                _refuse_raised_slash(text)
        # (end: start of) the notes and \\quads the grammar reads as nothing: _gap looks past
        self._passed = passed_over(text) if self._tex else {}
        # What each name read so far is, as _leaf_of says: a variable is met again and
        # again in a big expression (functions may be registered between two parses).
        self._leaves: dict = {}
        self._heads: dict = {}  # "sin(" -> _head_of("sin"): the calls read so far
        self._late = False      # a function applied after later nodes were made
        self._apart: dict[str, None] = {}  # kx, ωt: names _say_apart may caution of
        self._derivative_here = None   # whether a \frac may be a derivative: fraction

    def finish(self, item) -> list[Node]:
        """The node list, once the whole text is parsed into ``item``; the root last."""
        root = self._value(item)
        nodes, self.nodes = self.nodes, []
        assert root == len(nodes) - 1, "the root of an expression is its last node"
        if self._apart:
            self._say_apart(nodes)
        if self._late:
            self._late = False
            return in_written_order(nodes)
        return nodes

    def _add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _error(self, message: str, position: int):
        raise ExpressionError(message, self.text, position)

    # ----- leaves ----------------------------------------------------------------------

    def number(self, children):
        ((text, start),) = children
        nodes = self.nodes
        if text in _FRACTIONS:  # ½ as (1/2): read as written, and exact where 1/2 is
            top, bottom = (self._add(Node("number", start, "", float(part)))
                           for part in _FRACTIONS[text])
            return Factor(self._infix("div", top, bottom, start), start, "number")
        value = float(text)
        # 1e400 is inf and 1e-400 0, every digit lost: said (only a 0 or inf is looked at)
        if (value == 0.0 or value == _INF) and (beyond := out_of_range(text, value)):
            self._say(f"{beyond}: read as {format_number(value)}")
        nodes.append(Node("number", start, "", value))
        return Factor(len(nodes) - 1, start, "number")

    def factorial(self, children):  # 3! as in x^3/3!: a number, worked out here
        (text, start), _ = children
        value = float(text) if text not in _FRACTIONS else 0.5
        if not value.is_integer() or value > MAX_FACTORIAL:
            self._error(f"a factorial is read for a whole number from 0 to {MAX_FACTORIAL} "
                        f"(170! is the largest below float64's top): {text}! is not one",
                        start)
        nodes = self.nodes
        nodes.append(Node("number", start, "", float(math.factorial(int(value)))))
        return Factor(len(nodes) - 1, start, "number")

    def name(self, children):
        # A variable, constant or definition comes back as its node's index: a plain
        # factor (see _plain) made into a Factor only if a run or a power needs one (a
        # name in a 1 MB expression is mostly an operand).
        ((name, start),) = children
        if name[0] == "_" and start and self.text[start - 1] == "\u3017":
            self._word_subscript(name, start)
        if name[0] > "\x7f" and _subscript_character(name[0]):
            self._bare_subscript(name[0], start)  # x_\pi₁, \pi^x₁: ₁ alone, never a name '1'
        if name[0] == "_" and start and self.text[start - 1] in PI_FORMS:   # π_1
            script = re.compile(r"_+\{?\s*(\w*)").match(self.text, start).group(1)
            pi_subscript(self.text, self.text[start - 1], script or "1", start)
        if name[0] == "_":  # (before the cache: _1 alone may be met first)
            self._stray_subscript(name, start)
        if self.definitions and (ref := normal_name(name)) in self.definitions:
            return self._add(Node("ref", start, name=ref))
        if self._applies and self.text.startswith("\u2061", start + len(name)) \
                and not is_function_name(normal_name(name)):
            return self._applied_name(name, start)
        leaf = self._leaves.get(name)
        if leaf is None:
            written = name  # (the cache is by the text written)
            if written[-1] == "_":  # x_{i+1}: not cached, as x_ alone is not refused
                self._subscript(written, start, start + len(written))
            if "_\\" in written or "_{\\" in written:  # x_\alpha, \log_{\pi}
                name = self._greek_subscripts(written, start)
            if name[0] == "\\" and (accented := _ACCENT.match(name)):    # \dot{q}: q̇
                name = normal_name(self._accented(accented, start))
            elif name[0] in "\\{":
                name = normal_name(_tex_font(name))
                self._latex_name(written, name, start)
            else:
                name = normal_name(name)
            if "π" in name and name != "π":
                self._pi_in_name(written, name, start)
            if name != written and name in self.definitions:  # x_\alpha, --let x_α=...
                return self._add(Node("ref", start, name=name))
            if is_function_name(name):
                if written.startswith("\\log_"):
                    self._glued_base(written, start)
                return Func(written, name, start, len(self.nodes))
            leaf = _leaf_of(name)
            # (not cached: x_{i+1}, refused by what follows; \mathrm{Re}, refused before "(")
            if written[-1] != "_" and not written.startswith(("\\math", "{")):
                self._leaves[written] = leaf
            if leaf[0] == "variable":
                self._variable_named(name, written)
        nodes = self.nodes
        nodes.append(Node(leaf[0], start, leaf[1], leaf[2]))
        return len(nodes) - 1

    def _variable_named(self, name: str, written: str) -> None:
        """Cautions of a variable's name, once per name written: a function's name glued
        to its argument (sinx), or letters TeX sets apart (kx, ωt: _letters_apart),
        said at the end (finish) unless the other names show them another way."""
        said = len(self.said)
        if len(name) > 2:
            self._glued_function(name)
        if len(name) > 1 and len(self.said) == said and written[0] not in "\\{" \
                and _letters_apart(name, self._tex or written != name):
            self._apart[name] = None

    def _say_apart(self, nodes: list[Node]) -> None:
        """kx, ωt (names _letters_apart): each said to be one name, with the product to
        write, unless it is made of the text's other variables (k x beside kx), which
        adcli.checking and the CLI's missing value say in their own words."""
        variables = {node.name for node in nodes if node.kind == "variable"}
        for name in self._apart:
            others = [v for v in variables if v != name]
            parts = run_together(name, [*others, *CONSTANTS])
            if parts and any(p in others for p in parts):
                continue
            letters = _letters(name)
            if "e" in letters:  # (R e is R times Euler's number: no product to propose)
                self._say(self._constant_apart(name, letters))
                continue
            self._say(f"{one_name(name)}; for {' times '.join(letters)}, write "
                      f"{' '.join(letters)}")

    def _constant_apart(self, name: str, letters: list[str]) -> str:
        """Re (the Reynolds number), which TeX sets as R times a letter e: the caution
        of _say_apart, without the product to write, which adcli reads with Euler's
        number; in LaTeX, with the upright type that writes it as one name."""
        upright = f", as \\mathrm{{{name}}} writes it" if self._tex else ""
        product = " times ".join("Euler's number e" if c == "e" else c for c in letters)
        return f"{one_name(name)}{upright} ({' '.join(letters)} would be {product})"

    def _applied_name(self, written: str, start: int) -> Run:
        """𝑥cos⁡(𝑥): Word's function application mark (U+2061) right after letters marks
        the end of a function's name, so the letters are a name and that function, read
        side by side (x cos(x)); refused if they end in no function's name."""
        for k in range(1, len(written)):
            if is_function_name(normal_name(written[k:])):
                head = self._plain(self.name([(written[:k], start)]))
                function = normal_name(written[k:])
                return Run([head, Func(written[k:], function, start + k, len(self.nodes))])
        self._error(f"'{escape(normal_name(written))}' is followed by Word's function "
                    "application mark (U+2061), but neither it nor the end of it names a "
                    "function adcli has: write a function's name before its argument, as in "
                    "x cos(x)", start)

    def _word_subscript(self, written: str, start: int) -> None:
        """〖log〗_2⁡x: a subscript after Word's grouping brackets, of what they hold; read
        as a name '_2' it was refused with a word on U+2061 that did not say why."""
        held = self.text[self.text.rfind("\u3016", 0, start) + 1:start - 1].strip()
        advice = (f"write {escape(held + written)}, without the brackets"
                  if re.fullmatch(r"[^\W\d]\w*", held) else "a subscript goes after a name")
        self._error(f"'{escape(written)}' after Word's grouping brackets 〖…〗 is a subscript "
                    f"of what they hold, which is not read: {advice}", start)

    def _bare_subscript(self, c: str, start: int) -> None:
        """A subscript character read as a name of its own: after what refuse_scripts
        took for a name's letters, a command's (x_\\pi₁) or a power's (\\pi^x₁)."""
        import unicodedata

        plain = unicodedata.normalize("NFKC", c)
        self._error(f"'{c}' is a subscript with no name before it: a subscript goes after a "
                    f"name, as in a_{plain}", start)

    def _pi_in_name(self, written: str, name: str, start: int) -> None:
        """π is part of a name only as a whole subscript, as the grammar reads x_π; any
        other name with π in it (\\pi_1, \\mathrm{πr}) could be given no value: refused."""
        if name.startswith("π_"):
            under = written.index("_")
            script = normal_name(written[under + 1:].strip("{}"))
            pi_subscript(self.text, written[:under], script, start + under)
        if "π" in re.sub(r"_π(?=_|\Z)", "", name):
            self._error(f"π is the constant pi, never part of a longer name: "
                        f"'{escape(written)}' cannot name a variable; set π apart, as in 2πx "
                        "(2*pi*x)", start)

    def _stray_subscript(self, written: str, start: int) -> None:
        """x^2_i (TeX's x_i squared), \\sigma^{2}_{x}, \\sqrt x_1, (x+1)_1: a "_" glued to
        what is no name, a power, a bracket or a token TeX takes alone (\\sqrt's x). TeX sets
        the subscript on that, so it is never a name '_i' times it: refused, saying where
        the subscript goes."""
        text = self.text
        if start == 0 or text[start - 1].isspace() or text[start - 1] in _BEFORE_A_NAME:
            return
        # (TeX takes one token as a subscript: \\sin^2_2x is \\sin^2_2 then x)
        script = re.compile(r"_(\{[^{}]*\}|\\[A-Za-z]+|\w)?").match(text, start).group() \
            if self._tex or text.startswith("_{", start) else written
        power = _POWER_BEFORE.search(text, 0, start)
        if self._tex and (_SQRT_TOKEN.search(text, 0, start) or power is not None and
                          is_function_name(normal_name(power.group("name").lstrip("\\")))):
            advice = "(TeX takes one token after \\sqrt and '^'): write it with its name in " \
                "braces, as in \\sqrt{x_1}, or before the power, as in \\log_2^2 x"
            self._error(f"'{escape(script)}' is a subscript of what comes before it, not a "
                        f"name {advice}", start)
        if power is not None:   # x_i^2: the name, its subscript, then the power
            name, raised = power.group("name", "power")
            advice = f"write {name}{script}{raised}, the subscript before the power"
        else:
            advice = f"a subscript goes right after a name, as in x{script}"
        self._error(f"'{escape(script)}' is a subscript of what comes before it, not a name: "
                    f"{escape(advice)}", start)

    def _glued_base(self, written: str, start: int) -> None:
        """\\log_10x: TeX takes one token as a subscript, so \\log_1 then 0x, a logarithm
        to base 1 (or 0), never meant: refused, with the braces to write."""
        digits = re.compile(r"(\s*)(\d+)").match(self.text, start + len(written))
        if digits is None or written[5:] not in ("0", "1"):
            return
        base = written[5:] + digits.group(2)
        self._error(f"TeX takes one token as a subscript, so {written}{digits.group()} is "
                    f"{written} then {digits.group(2)}, a logarithm to base {written[5:]}: for "
                    f"base {base}, write \\log_{{{base}}}", start)

    def _latex_name(self, written: str, name: str, start: int) -> None:
        """A LaTeX command read as a name must be a function (\\sin), a constant (\\pi)
        or a Greek letter (\\alpha): \\mathrm{e} must not become a variable 'mathrm'. A
        name of more letters in upright or italic type (\\mathrm{Re}, {\\rm pH}) is a
        variable, as TeX sets a quantity's name of several letters; a letter alone is not
        (\\mathrm{d}x is the differential)."""
        if not (is_function_name(name) or _constant_or_greek(name)):
            if len(name) > 1 and _tex_font(written).startswith(("\\mathrm{", "\\mathit{")):
                self._upright_applied(written, name, start)
                return
            if written == "\\lg":
                self._no_lg(written, start)
            if written.startswith("\\operatorname"):
                self._unknown_operator(name, start)
            if written in _NOTE_EXAMPLES:
                self._note(written, start)
            if re.fullmatch(RELATION, written):
                raise relation_error(self.text, start, written)
            if written == "\\partial":
                self._derivative_fraction(self._frac_before(start))
            if written[1:] in _ACCENTS:
                self._not_accented(written[1:], start + len(written))
            self._error(f"LaTeX's {written} is not read here: " + _TEX_READ, start)

    def _accented(self, written: re.Match, start: int) -> str:
        """\\dot{q}, \\dot q, \\ddot{\\theta}_1 (the grammar's _TEX_ACCENT) as the name
        with its combining mark, q̇, θ̈_1, the name Unicode spells the same; a command under
        the accent must be a Greek letter."""
        accent, letter, inner, outer = written.groups()
        if letter[0] == "\\":
            if letter[1:] not in LATEX_LETTERS:
                self._error(f"LaTeX's \\{accent} is read on a letter or a Greek letter, as in "
                            f"\\{accent}{{q}} or \\{accent}{{\\theta}}: not on {letter}",
                            start + written.start(2))
            letter = LATEX_LETTERS[letter[1:]]
        return letter + _ACCENTS[accent] + (inner or "") + outer

    def _upright_applied(self, written: str, name: str, start: int) -> None:
        """\\mathrm{Re}(z), \\mathrm{sinc}(x): a name in TeX's upright type applied to
        parentheses is a function there (the real part, sinc), which adcli lacks: refused,
        never read as the variable times what the parentheses hold."""
        if not re.compile(r"\s*(?:\\left\s*)?\(").match(self.text, start + len(written)):
            return
        said = _LACKING.get(name) or f"for {name} times (...), write {written} \\cdot (...)"
        self._error(f"{escape(written)}(...) applies a function, and adcli has no function "
                    f"'{escape(name)}': {said}", start)

    def _not_accented(self, accent: str, after: int) -> None:
        """\\dot{qx}, \\dot{2}: an accent the grammar's _TEX_ACCENT did not take with what
        follows, which is no one letter: refused as \\dot{\\cdot} is (never "\\dot is not
        read", as it is), the caret on what it is on."""
        found = re.compile(r"\s*(?:\{\s*([^{}]*?)\s*\}|(\S))").match(self.text, after)
        group = 0 if found is None else 1 if found[1] else 2 if found[2] else 0
        on = f"not on {found[group]}" if group else "one goes after it"
        self._error(f"LaTeX's \\{accent} is read on a letter or a Greek letter, as in "
                    f"\\{accent}{{q}} or \\{accent}{{\\theta}}: {escape(on)}",
                    found.start(group) if group else after - len(accent) - 1)

    def _frac_before(self, position: int) -> int:
        """Where the last \\frac (\\dfrac, \\tfrac) before ``position`` starts, or -1."""
        starts = [m.start() for m in re.finditer(r"\\[dt]?frac", self.text[:position])]
        return starts[-1] if starts else -1

    def _derivative_fraction(self, start: int) -> None:
        """\\frac{\\partial V}{\\partial q} or \\frac{dV}{dq} at ``start``, inside an
        expression: a derivative, which adcli writes diff(V, q) (never d times V over d
        times q, nor the refusal of \\partial alone). Refused, saying that."""
        found = _DERIVATIVE.match(self.text, start) if start >= 0 else None
        if found is None:
            return
        by = [normal_name(accented_names(name)) for name, power in re.findall(_BY, found[2])
              for _ in range(int(power or 1))][::-1]   # (∂²V/∂x∂y: y first, then x)
        of = accented_names(found.group(1)) or "f"
        if re.fullmatch(r"\\?[^\W\d]\w*", of):   # (\theta: θ, as a name is written)
            of = normal_name(of)
        said = "" if found.group(1) else " for the derivative of f"
        self._error(f"{escape(found.group())} is a derivative, which is not read inside an "
                    f"expression: write diff({escape(of)}, {', '.join(by)}){said}", start)

    def _glued_call(self, name: str, start: int) -> None:
        """xsin(x), xexp(x): a short name run into a function's (x sin(x) meant, as
        written by hand): said so, not "if 'xsin' is a variable"."""
        function = max((f for f in CALLABLE if len(f) > 1 and name.endswith(f) and
                        re.fullmatch(_SHORT_NAME, unmarked(name[:-len(f)]) or "-")),
                       key=len, default=None)
        if function is not None:
            before = name[:-len(function)]
            self._error(f"unknown function '{name}': '{name}' is one name; for {before} "
                        f"times {function}, write {before} {function}(...) or "
                        f"{before}*{function}(...)", start)

    def _no_lg(self, written: str, start: int):
        """\\lg: the logarithm to base 10 in some texts, to base 2 in others (and lg(x)):
        which one is not guessed."""
        said = f"LaTeX's {written}" if written.startswith("\\") else f"'{escape(written)}'"
        self._error(f"{said} is the logarithm to base 10 in some texts and to base 2 in others: "
                    "write log_10 x or log_2 x", start)

    def _unknown_operator(self, name: str, start: int):
        """\\operatorname{foo}, applied with "(...)" or without: TeX's way to name a
        function, so an unknown one is the same error both ways (never a variable foo,
        nor foo*(...))."""
        match = slip(name, CALLABLE)
        said = _LACKING.get(name) or (f"did you mean '{match}'?" if match else
                                      "\\operatorname names a function")
        self._error(f"LaTeX's \\operatorname{{{escape(name)}}} is not read here: adcli has no "
                    f"function '{escape(name)}'; {said}", start)

    def _note(self, written: str, start: int) -> None:
        """\\label or \\tag that the grammar did not read as the line's annotation: say
        what keeps it from being one, the caret there."""
        refuse_note(self.text, written, start, _NOTE_EXAMPLES[written])

    def _greek_subscripts(self, written: str, start: int) -> str:
        """``written`` with each LaTeX command in a subscript (the grammar reads one into
        the name, as TeX takes it whole: x_\\alpha, x_{\\alpha}) as its Greek letter,
        x_α; a command that is none is refused, the caret on it (never x_ times it)."""
        def refused(command: re.Match):
            at = start + command.start(2) - 1
            upright = re.compile(_UPRIGHT_SUBSCRIPT).match(self.text, at)
            if upright is not None and command.group(1) == "_":   # k_\mathrm{B}
                self._upright_subscript(self.text[start:upright.end()],
                                        written[:command.start(2) - 1], upright, start)
            self._error(f"LaTeX's \\{command.group(2)} is not read in a subscript: a "
                        "subscript is a name, a number or a Greek letter, as in x_1, "
                        "x_{ij} or x_\\alpha", start + command.start(2) - 1)

        return subscript_letters(written, refused)

    def _subscript(self, written: str, start: int, end: int) -> None:
        """A name ending in "_" (``written``, from ``start`` to ``end``) followed by a
        bracket is a subscript the grammar did not read into the name: more than a name or
        a number (x_{i+1}, x_(n)), or not right after the "_" (x_ {1}). Refused, the caret
        on its bracket: x_ times (i+1) is never what was meant."""
        text, opening = self.text, end
        while opening < len(text) and text[opening].isspace():
            opening += 1
        if opening == len(text) or text[opening] not in _BRACKETS:
            self._spaced_command(written, start, opening)
            return  # x_ alone, x_ y: a name ending in "_", as before
        close, depth = opening, 0
        while close < len(text):
            depth += (text[close] == text[opening]) - (text[close] == _BRACKETS[text[opening]])
            if depth == 0:
                break
            close += 1
        shown = text[start:close + 1]  # (to the end if never closed)
        inner = text[opening + 1:close].strip()
        short = shown if len(shown) <= 40 else shown[:30] + "…" + shown[-6:]
        self._not_a_subscript(written, start, inner, close)
        if re.match(_SUBSCRIPT, unmarked(inner)) or inner[:1] == "\\" and \
                inner[1:] in LATEX_LETTERS:  # x_{ \alpha }
            self._error(f"a subscript is written in braces right after '_': for "
                        f"'{escape(short)}', write {written.rstrip()}{{{inner}}}", opening)
        self._error(f"a subscript must be a name or a number, as in x_{{1}} or x_{{ij}}: "
                    f"'{escape(short)}' cannot name a variable", opening)

    def _not_a_subscript(self, written: str, start: int, inner: str, close: int) -> None:
        """What "_{...}" after ``written`` means that is no variable's subscript, refused
        as such: a big operator's limits (\\sum_{i=1}), an upright subscript (k_{\\rm B})
        and a log's base that is not a whole number or a name (\\log_{0.5})."""
        command = written[:-1]
        if command[:1] == "\\" and not (is_function_name(command[1:])
                                         or command[1:] in LATEX_LETTERS):
            self._latex_name(command, command[1:], start)
        upright = re.fullmatch(_UPRIGHT_SUBSCRIPT, inner)
        if upright is not None:
            self._upright_subscript(self.text[start:close + 1], written, upright, start)
        if command.lstrip("\\") == "log":
            argument = _argument_after(self.text, close + 1)
            self._no_log_base(f"{self.text[start:close + 1]} {argument}", argument, inner, start)

    def _upright_subscript(self, shown: str, written: str, upright: re.Match,
                           start: int) -> None:
        """k_{\\mathrm{B}}, k_\\text{B}, k_{\\rm B}: the name k_B in upright type, which
        adcli does not set (the grammar ends the name at "_"): said, with the name to
        write."""
        name = written + (upright.group(1) or upright.group(2))
        self._error(f"LaTeX's upright type is not read in a subscript: for "
                    f"{quote(shown)}, write {escape(name)}", start)

    def _spaced_command(self, written: str, start: int, after: int) -> None:
        """x_ \\alpha: to TeX, the subscript α (it skips the space), so never x_ times α;
        refused, the caret on the command, as x_ {1} is."""
        command = re.compile(r"\\([A-Za-z]+)").match(self.text, after)
        if after > start + len(written) and command and command.group(1) in LATEX_LETTERS:
            self._error(f"a subscript is written right after '_': for "
                        f"'{escape(self.text[start:command.end()])}', write "
                        f"{written}{command.group()}", after)

    def _glued_function(self, name: str) -> None:
        """sinx, cos2t, lnx, cos2 (in cos2πt): a function's name run together with a
        variable of one letter (a number between them, digits after it), or with a number,
        is one name, a variable, by the rules
        (as xy is): said, as a slip more likely than a name (coshx is cosh x, the longest
        function name). sinc is a function adcli lacks, not sin c: said so."""
        if name in _LACKING:
            self._say(f"{one_name(name)}; adcli has no {name} function: {_LACKING[name]}")
            return
        if self._starts is None:  # (once a text has a long name; functions may be added)
            self._starts = {f[:2] for f in CALLABLE}
        if name[:2] not in self._starts:  # x12, theta: at once
            return
        for k in range(len(name) - 1, 1, -1):
            function = CALLABLE.get(name[:k])
            variable = name[k:].lstrip("0123456789")
            # (digits alone too: cos2 in cos2πt, a constant after it; log3 may be log_3)
            if function is not None and function.arity == 1 and variable not in CONSTANTS \
                    and (re.fullmatch(_SHORT_NAME, unmarked(variable)) or not variable
                         and name[:k] != "log"):
                head, rest = name[:k], name[k:]
                self._say(f"{one_name(name)}; for {head}({rest}), "
                          f"write {head} {rest}")
                return

    def _say(self, caution: str) -> None:
        if len(self.said) < CAUTIONS:
            self.said[caution] = None

    def _plain(self, item):
        """A name's node index as the Factor it is; anything else as it is."""
        if item.__class__ is int:
            return Factor(item, self.nodes[item].position, "plain")
        return item

    def root(self, children):
        ((text, start),) = children
        return Func(text, ROOTS[text], start, len(self.nodes))

    def _leaf(self, name: str, start: int) -> int:
        kind, name, value = _leaf_of(name)
        return self._add(Node(kind, start, name, value))

    # ----- calls, and names followed by "(" ---------------------------------------------

    def call_head(self, children):
        """A function's call as (name, start, its class if a call of it is only its node,
        else None), or the Factor of a name that is not a function (x(y+1))."""
        ((text, start),) = children
        head = self._heads.get(text)
        if head is not None:  # "sin(" met before in this text
            return head[0], start, head[1]
        name = normal_name(_call_name(text))
        if is_function_name(name):
            function = CALLABLE.get(name)
            if name in _SPECIAL or name.startswith("log_"):
                function = None  # _apply's other cases: log(x, b), log_2, diff
            self._heads[text] = name, function
            return name, start, function
        if text.startswith("\\operatorname") and not _constant_or_greek(name):
            self._unknown_operator(name, start)
        if name in self.definitions:
            if text[len(_call_name(text))].isspace():  # y (ln x + 1): a product, as written
                return Factor(self._add(Node("ref", start, name=name)), start)
            self._error(f"'{name}' is a definition and takes no arguments: write {name} "
                        f"alone (it uses the expression's variables), or {name}*(...) to "
                        "multiply", start)
        if name[:1] == "d" and len(name) > 1 and \
                re.compile(_LEIBNIZ).search(self.text, max(0, start - 20), start):
            self._error(f"'d/{name}(...)' is not read as a derivative: write "
                        f"diff(EXPRESSION, {name[1:]}) for one (grad and check "
                        "differentiate an expression given alone)", start)
        if name in _LACKING:
            self._error(f"unknown function '{name}': adcli has none; {_LACKING[name]}", start)
        if name == "lg":
            self._no_lg(_call_name(text), start)
        if name not in CONSTANTS and not re.fullmatch(_SUBSCRIPTED, unmarked(name)):
            # tand(x), cosd(x), log3(x): most likely functions adcli lacks or misspelt.
            match = slip(name, CALLABLE)
            if match:
                self._error(f"unknown function '{name}'; did you mean '{match}'?", start)
            self._glued_call(name, start)   # (after: atg is arctg misspelt, not a*tg)
            self._error(f"unknown function '{name}'; if '{name}' is a variable, write "
                        f"{name}*(...)", start)
        if name[-1] == "_":  # x_(i+1): a subscript, not x_*(i+1)
            self._subscript(_call_name(text), start, start + len(text) - 1)
        # A variable of one letter (x, x1, θ, k_B) or a constant is never a function: x(y+1)
        # is x*(y+1). Its node goes in now, so the variables keep their order.
        return Factor(self._leaf(name, start), start)

    def arguments(self, children):
        if len(children) == 1:  # most calls: one argument, already a node
            child = children[0]
            if child.__class__ is Factor:
                return (child.index,)
            if child.__class__ is int:
                return (child,)
        return tuple([self._value(child) for child in children])

    def call(self, children):
        head, arguments = children
        if head.__class__ is Factor:
            if len(arguments) != 1:
                written = self.nodes[head.index].name
                self._error(f"'{written}' is not a function, so it takes no arguments; to "
                            f"multiply, write {written}*(...)", head.start)
            paren = self.text.index("(", head.start)
            return Pieces(head, Factor(arguments[0], paren, "paren"))
        name, start, function = head
        if function is not None and len(arguments) == function.arity:
            # What _apply does for most calls (sin(x)), without its other cases.
            nodes = self.nodes
            nodes.append(Node("call", start, name, None, function, arguments))
            return Factor(len(nodes) - 1, start, "applied")
        return Factor(self._apply(name, arguments, start, name), start, "applied")

    def _apply(self, name: str, args, start: int, written: str) -> int:
        """The node of function ``name`` applied to the nodes ``args``."""
        if name == "diff":
            return self._diff(args, start)
        if name.startswith("log_") and (base := log_base(name)) is not None:
            self._decimal_base(written, base, start)
            self._arity(written, args, (1, 1), start)
            return self._log_in_base(args[0], base, start)
        if name == "log" and len(args) == 2:
            return self._log(args[0], args[1], start)
        function = CALLABLE[name]
        if len(args) != function.arity or name in _SPECIAL:
            self._arity(written, args, _SPECIAL.get(name, (function.arity, function.arity)),
                        start)
        nodes = self.nodes
        nodes.append(Node("call", start, name, None, function, tuple(args)))
        return len(nodes) - 1

    def _decimal_base(self, written: str, base: str, start: int) -> None:
        """log_2.5 x: the base ends at its digits, so this was read log_2 of .5x: a decimal
        base, refused as one in braces is (log_{2.5} x). Not after braces, which end the base
        (log_{10}.01 is log10(0.01))."""
        underscore = self.text.find("_", start)
        if self.text[underscore + 1:underscore + 2] == "{":
            return
        decimal = re.compile(r"\.\d+").match(self.text, start + len(written))
        if base.isdigit() and decimal is not None:
            # (the argument shown only where one is typed: log_2.5 + 1 has none)
            typed = re.compile(r"\s*[\w(\[{\\|]").match(self.text, decimal.end())
            argument = _argument_after(self.text, decimal.end()) if typed else ""
            shown = " ".join(filter(None, (self.text[start:decimal.end()], argument)))
            self._no_log_base(shown, argument or "...", base + decimal.group(), start)

    def _no_log_base(self, shown: str, argument: str, base: str, start: int) -> None:
        """The refusal of a log's base written as a subscript that is neither a whole
        number nor a name (\\log_{0.5} x, log_2.5 x), with the quotient to write."""
        self._error(f"a log's base in a subscript must be a whole number or a name: for "
                    f"{escape(shown)}, write log({escape(argument)})/log({escape(base)})", start)

    def _arity(self, name: str, args, counts, start: int) -> None:
        low, high = counts
        if len(args) < low or (high is not None and len(args) > high):
            wanted = (f"{low}" if low == high else f"{low} or {high}" if high is not None
                      else f"{low} or more")
            plural = "" if wanted == "1" else "s"
            self._error(f"{name}() takes {wanted} argument{plural}, got {len(args)}", start)

    def _log(self, x: int, base: int, start: int) -> int:
        """log(x, b) is log(x)/log(b): ``base`` is b's node."""
        node = self.nodes[base]
        if node.kind == "number" and node.value in (0.0, 1.0):  # a typo, never meant
            self._error(f"there is no logarithm to base {format_number(node.value)} (it "
                        f"would divide by log {format_number(node.value)} = "
                        f"{'0' if node.value else '-inf'}): a base is positive and not 1",
                        node.position)
        log = CALLABLE["log"]
        top = self._add(Node("call", start, name="log", function=log, args=(x,)))
        bottom = self._add(Node("call", start, name="log", function=log, args=(base,)))
        return self._infix("div", top, bottom, start)

    def _log_in_base(self, x: int, base: str, start: int) -> int:
        """log_2 x is log2(x), log_10 x is log10(x), log_e x is log(x), ln; any other base
        is log(x)/log(base), a name's too (log_b x), so it is differentiable in b."""
        if _is_name_base(base):
            return self._log(x, self._base(base, start), start)
        name = "log" if base == "e" else {2.0: "log2", 10.0: "log10"}.get(float(base))
        if name is not None:
            return self._add(Node("call", start, name=name, function=CALLABLE[name], args=(x,)))
        return self._log(x, self._add(Node("number", start, value=float(base))), start)

    def _base(self, base: str, start: int) -> int:
        """The node of log_b's base b: a variable, a constant (log_pi) or a definition."""
        # Right after "_" (or its "{"): the base may be written in another form NFKC
        # reads the same (é as e and U+0301) or as LaTeX's \theta, and a later θ is not it.
        position = self.text.find("_", start) + 1
        position += self.text[position:position + 1] == "{"
        if base in self.definitions:
            return self._add(Node("ref", position, name=base))
        if is_function_name(base):
            self._error(f"the base of log_{base} is the function {base}: a logarithm's base "
                        f"is a number, e or a variable; for the logarithm of {base}(...), "
                        f"write log {base}(...)", position)
        return self._leaf(base, position)

    def _diff(self, args: list[int], start: int) -> int:
        """diff(f, x, y, ...): the derivative of f in x, then y, ...; a value computed by
        reverse passes over f's graph when the expression is evaluated (adcli.diffs)."""
        if len(args) < 2:
            self._error("diff() takes an expression and the variables to differentiate by, "
                        "as in diff(f, x) or diff(f, x, y)", start)
        f, names = args[0], []
        for index in args[1:]:
            node = self.nodes[index]
            if node.kind == "number" and names:  # diff(f, x, 2), as SymPy reads it: x twice
                names += [names[-1]] * (self._count(node) - 1)
                continue
            if node.kind != "variable":
                what = {"constant": f", and '{node.name}' is a constant",
                        "ref": f", and '{node.name}' is a definition"}.get(node.kind, "")
                count = "; a count goes after its variable: diff(f, x, 2)" \
                    if node.kind == "number" else ""
                self._error(f"diff() differentiates with respect to variables{what}: write a "
                            f"variable name here, as in diff(f, x){count}", self._start(index))
            names.append(index)
        root = self.nodes[f]
        wrt = {self.nodes[i].name for i in names}
        if root.kind == "variable" and root.name not in wrt:
            self._error(f"'{root.name}' is not defined: define it with --let "
                        f"{root.name}=... (as a variable, its derivative would be 0)", root.position)
        return self._add(Node("diff", start, name="diff", args=(f, *names)))

    def _count(self, node) -> int:
        """How many times diff(f, x, N) differentiates in x: N, a whole number 1 to 64
        (--order's bound)."""
        if not (node.value.is_integer() and 1 <= node.value <= MAX_ORDER):
            self._error(f"diff(f, x, N) differentiates N times: N is a whole number from 1 to "
                        f"{MAX_ORDER}, not {format_number(node.value)}", node.position)
        return int(node.value)

    def _start(self, index: int) -> int:
        """Where the text of a node's subtree starts (for a caret); a walk, not recursion."""
        start, stack = self.nodes[index].position, [index]
        while stack:
            node = self.nodes[stack.pop()]
            start = min(start, node.position)
            stack.extend(node.args)
        return start

    # ----- groups, bars, powers ---------------------------------------------------------

    def group(self, children):
        (opening, start), inner = children
        if opening == "\u3016" and isinstance(inner, Func):  # Word's 〖sin〗^2⁡x: the name
            return inner                                     # it holds, to take its power
        # TeX draws no braces: \sin{2}x is \sin 2x (by hand, {x+1} groups as (x+1) does)
        kind = "tex" if opening == "{" and self._tex else "paren"
        return Factor(self._value(inner), start, kind)

    def word_root(self, children):
        """Word's √(n&x): the nth root of x, n a whole number (√ for 2, ∛ for 3, else
        x^(1/n))."""
        (head, start), radicand = children
        n, x = float(head.strip("√(&").strip()), self._value(radicand)
        if n in (2.0, 3.0):
            name = "sqrt" if n == 2.0 else "cbrt"
            index = self._add(Node("call", start, name=name, function=CALLABLE[name], args=(x,)))
            return Factor(index, start, "paren")
        if n == 0.0:
            self._error("Word's root √(n&x) takes a whole number n from 1 on, not 0", start)
        one, degree = (self._add(Node("number", start, "", v)) for v in (1.0, n))
        exponent = self._infix("div", one, degree, start)
        return Factor(self._infix("pow", x, exponent, start), start, "paren")

    def nth_root(self, children):  # LaTeX's \sqrt[n]{x}, \sqrt[n]2: x^(1/n), one token
        (_, start), degree, radicand = children
        degree, radicand = self._value(degree), self._radicand(radicand, start)
        one = self._add(Node("number", start, "", 1.0))
        exponent = self._infix("div", one, degree, start)
        return Factor(self._infix("pow", radicand, exponent, start), start, "tex")

    def tex_sqrt(self, children):  # LaTeX's \sqrt{x}, \sqrt2: one token, as TeX reads it
        (_, start), radicand = children
        return self._root("sqrt", radicand, start)

    def tex_root(self, children):  # \sqrt[3]{x}, \sqrt[3]8: one token, as \sqrt takes
        (text, start), radicand = children
        return self._root(ROOTS[text], radicand, start)

    def _root(self, name: str, radicand, start: int) -> Factor:
        index = self._add(Node("call", start, name=name, function=CALLABLE[name],
                               args=(self._radicand(radicand, start),)))
        return Factor(index, start, "tex")

    def _radicand(self, radicand, start: int) -> int:
        """The root's one token: \\sqrt[3]\\sin x is \\sqrt[3]{\\sin} then x to TeX, a function
        without its argument, refused with the braces to write."""
        if isinstance(radicand, Func):
            head = self.text[start:radicand.start].rstrip()
            rest = self.text[radicand.start:].split()
            # (its argument as written after it: \\ln2x, \\sin x; else an x for one)
            meant = rest[0] if rest[0] != radicand.written else \
                " ".join(rest[:2]) if len(rest) > 1 else f"{rest[0]} x"
            self._error(f"TeX takes one token after {head}, so {radicand.written} alone, a "
                        f"function without its argument: write {head}{{{escape(meant)}}}",
                        radicand.start)
        return self._value(radicand)

    def fraction(self, children):  # LaTeX's \frac{a}{b}, \frac12
        (_, start), top, bottom = children
        if self._derivative_here is None:  # (\frac{dy}{dx} = ..., ≈ ...: check's left side)
            self._derivative_here = "=" not in self.text and not re.search(RELATION, self.text)
        if self._derivative_here:
            self._derivative_fraction(start)
        index = self._infix("div", self._value(top), self._value(bottom), start)
        return Factor(index, start, "tex")

    def bars(self, children):
        (_, start), inner, _ = children
        index = self._add(Node("call", start, name="abs", function=CALLABLE["abs"],
                               args=(self._value(inner),)))
        return Factor(index, start, "paren")

    def power(self, children):
        if len(children) == 2:  # a superscript: x², sin⁻¹
            base, (text, position) = children
            exponent = self._superscript(text, position)
        else:
            base, (_, position), exponent = children
        base = self._plain(base)
        if len(children) == 2 and self.text.startswith("√", position + len(text)):
            self._root_index_or_power(base, text, position)
        if base.__class__ is Factor and self.text[base.start] == "{" \
                and self.text[max(self._gap(base.start)[0], 0)] == "^":
            self._double_superscript(base.start, position)
        if isinstance(base, Run):   # 𝑥cos⁡^2: the function's argument must come next
            self._error(f"'{escape(base[-1].written)}' is followed by Word's function "
                        "application mark (U+2061), so its argument must come right after it, "
                        "not a power", position)
        if isinstance(base, Func):
            return self._function_power(base, exponent, position)
        if isinstance(exponent, Pieces):  # x^y(z+1): the exponent is y alone
            return Pieces(self._power(base, exponent.head, position), exponent.paren)
        if isinstance(base, Pieces):      # x(y)^2: the power is on the group
            return Pieces(base.head, self._power(base.paren, exponent, position))
        return self._power(base, exponent, position)

    def _root_index_or_power(self, base, text: str, position: int):
        """2³√x: handwriting's 2·∛x (³√x alone is refused as a root's index) or, as the
        grammar has it, 2^3·√x, which nobody writes for 8√x: refused, naming both. After
        a name or a group the power is meant (x²√x, x^2·√x, is common)."""
        if base.__class__ is not Factor or base.kind != "number":
            return
        number = self.text[base.start:position].strip()
        plain = text.translate(_SUPERSCRIPT_DIGITS)
        root = {"2": f"{number}√…", "3": f"{number}∛…"}.get(plain, f"{number}·(…)^(1/{plain})")
        self._error(f"'{escape(text)}√' after the number {escape(number)} is read neither as "
                    f"a root's index ({escape(root)}) nor as a power of {escape(number)} "
                    f"({escape(number)}^{plain}·√…): write the one meant", position)

    def _double_superscript(self, opening: int, position: int):
        """e^{-x}^2: a second power on a braced exponent, which TeX refuses ("Double
        superscript"). Read right to left it is e^((-x)^2), though (e^{-x})^2 is as often
        meant: refused, naming both."""
        text, caret = self.text, self._gap(opening)[0]
        close, depth = opening, 0
        while depth or close == opening:
            depth += {"{": 1, "}": -1}.get(text[close], 0)
            close += 1
        base, inner = _operand_before(text, caret), text[opening:close]
        second = re.compile(r"\^\s*(\{[^{}]*\}|\\[A-Za-z]+|[-+]?[\w.]+)|[⁰-⁹¹²³⁺⁻]+") \
            .match(text, position)
        power = second.group() if second else "^…"
        self._error(f"a second power on a braced exponent, which TeX refuses (\"Double "
                    f"superscript\"): write ({escape(base)}^{escape(inner)}){escape(power)} or "
                    f"{escape(base)}^{{({escape(inner[1:-1])}){escape(power)}}}", position)

    def _superscript(self, text: str, position: int) -> Factor:
        """A superscript exponent's value: x² is 2; Word's raised fraction x⁻¹ᐟ² is
        (-1)/2, read as written, exact where -1/2 is."""
        top, _, bottom = text.translate(_SUPERSCRIPT_DIGITS).partition("\u141f")
        exponent = self.number([(top, position)])
        if not bottom:
            return exponent
        below = self.number([(bottom, position + len(text) - len(bottom))])
        return Factor(self._infix("div", exponent.index, below.index, position), position,
                      "number")

    def _power(self, base: Factor, exponent, position: int) -> Factor:
        index = self._infix("pow", base.index, self._value(exponent, power=True), position)
        kind = base.kind if base.kind in ("number", "applied") else \
            "raised" if base.kind == "paren" and self.text[base.start] in "([" else "plain"
        return Factor(index, base.start, kind)

    def _function_power(self, func: Func, exponent, position: int) -> Func:
        """sin^2 x is sin(x)^2; sin^-1 x is asin(x). The exponent must be a plain number."""
        exponent_nodes = self.nodes[func.mark:]
        value = _plain_number(exponent_nodes)
        if value is None or func.power is not None:
            self._error(f"a power of a function must be a number, as in {func.written}^2 x; "
                        f"for anything else write {func.written}(x)^...", position)
        del self.nodes[func.mark:]  # the exponent lives on in the Func, not as nodes
        if value == -1.0:
            inverse = INVERSES.get(func.name)
            if inverse is None:
                self._error(f"{func.written}^-1 would be an inverse function, and adcli has "
                            f"none for {func.written}; for 1/{func.written}(x), write "
                            f"{func.written}(x)^-1", position)
            return Func(f"{func.written}^-1", inverse, func.start, func.mark)
        if value < 0:
            self._error(f"{func.written}^{format_number(value)} is ambiguous: write "
                        f"{func.written}(x)^{format_number(value)} for a power of "
                        f"{func.written}", position)
        return Func(func.written, func.name, func.start, func.mark, value)

    def tex_head(self, children):
        """\\sin^ (TEX_SUP): the command read as a name, and its "^", before the exponent's
        nodes are made (a function's exponent is read back from the nodes after it)."""
        ((text, start),) = children
        caret = text.rindex("^")
        return self.name([(text[:caret].rstrip(), start)]), ("^", start + caret)

    def tex_power(self, children):  # \sin^22x: \sin^2, then 2x, as TeX reads it
        (base, caret), exponent = children
        return self.power([base, caret, exponent])

    def exponent_sign(self, children):
        (sign, position), operand = children
        if sign == "+":
            return operand
        if isinstance(operand, Pieces):  # x^-y(z): the sign is on y
            return Pieces(self._negate(operand.head, position), operand.paren)
        if not isinstance(operand, Factor):
            operand = Factor(self._value(operand, power=True), position)
        return self._negate(operand, position)

    def _negate(self, factor: Factor, position: int) -> Factor:
        index = self._add(Node("prefix", position, name="neg", function=PRIMITIVES["neg"],
                               args=(factor.index,)))
        return Factor(index, position, factor.kind)

    # ----- operators --------------------------------------------------------------------

    def binary(self, children):
        left, (symbol, start), right = children
        function = OPERATORS[symbol]
        # The common case inline (a million times in a 1 MB expression): both sides nodes.
        left = left if left.__class__ is int else \
            left.index if left.__class__ is Factor else self._value(left)
        right = right if right.__class__ is int else \
            right.index if right.__class__ is Factor else self._value(right)
        nodes = self.nodes
        if symbol in _TIMES_SIGNS and self._scientific(left, right):
            return left
        nodes.append(Node("infix", start, function.name, None, function, (left, right)))
        return len(nodes) - 1

    def _scientific(self, left: int, right: int) -> bool:
        """6.022\\times10^{23}, 1.6×10^-19: a decimal number in scientific notation, read
        as the literal 6.022e23 (6.022*1e23 is rounded twice: 6.0219999999999996e+23),
        its node put in place of the product's: whether it was."""
        nodes, text = self.nodes, self.text
        written = re.compile(_SCIENTIFIC).match(text, nodes[left].position)
        if written is None or nodes[left].kind != "number":
            return False
        mantissa, exponent = written.group(1), written.group(3).replace("\u2212", "-")
        under = self._subtree(right)
        if not self._is_power_of_ten(right, int(exponent)) or right != len(nodes) - 1 \
                or min(under) != left + 1 or len(under) != right - left:
            return False   # (not exactly that shape, or not its nodes alone, last)
        del nodes[left + 1:]
        literal = f"{mantissa}e{exponent}"
        value = float(literal)
        # (said as 1.5e400 is: the power of ten no longer overflows on its own to say so)
        if (value == 0.0 or value == _INF) and \
                (beyond := out_of_range(literal, value, written.group())):
            self._say(f"{beyond}: read as {format_number(value)}")
        nodes[left] = Node("number", nodes[left].position, "", value)
        return True

    def _subtree(self, index: int) -> list[int]:
        """The indices of the nodes under node ``index``, itself included."""
        stack, seen = [index], []
        while stack:
            seen.append(stack.pop())
            stack.extend(self.nodes[seen[-1]].args)
        return seen

    def _is_power_of_ten(self, index: int, exponent: int) -> bool:
        """Whether node ``index`` is 10^n for the whole number n = ``exponent``."""
        nodes = self.nodes
        node = nodes[index]
        if node.kind != "infix" or node.name != "pow":
            return False
        base, power = (nodes[i] for i in node.args)
        sign = -1 if power.kind == "prefix" else 1
        power = nodes[power.args[0]] if power.kind == "prefix" else power
        return base.kind == "number" and base.value == 10 and power.kind == "number" \
            and sign * power.value == exponent

    def broken(self, children):
        """An operator starting the next line of a display (x^2 \\\\ &\\quad + 3x): one
        token with the break before it, read as the operator where it is written."""
        left, (text, start), right = children
        symbol = text[text.rindex("\\"):] if text[-1].isalpha() else text[-1]  # \\cdot, +
        return self.binary([left, (symbol, start + len(text) - len(symbol)), right])

    def unary(self, children):
        (sign, start), operand = children
        index = self._value(operand)
        if sign == "+":
            return index
        return self._add(Node("prefix", start, name="neg",
                              function=PRIMITIVES["neg"], args=(index,)))

    def _infix(self, name: str, left: int, right: int, position: int) -> int:
        function = PRIMITIVES[name]
        return self._add(Node("infix", position, name=name, function=function,
                              args=(left, right)))

    # ----- runs: factors side by side ---------------------------------------------------

    def juxtapose(self, children):
        left, right = children
        right = self._plain(right)
        # (a Run on the right: a name and Word's function name glued to it, 𝑥cos⁡, see name)
        rights = right if right.__class__ is Run else [right]
        if isinstance(left, Run):
            left.extend(rights)
            return left
        return Run([self._plain(left), *rights])

    def _value(self, item, power: bool = False) -> int:
        """The node index of anything a rule handed up, reading a run if it is one."""
        if isinstance(item, int):
            return item
        if isinstance(item, Factor):
            return item.index
        if isinstance(item, Func):
            return self._unapplied(item, power)
        if isinstance(item, Pieces):
            return self._mul(item.head.index, item.paren.index)
        return self._read_run(item)

    def _unapplied(self, func: Func, power: bool = False) -> int:
        """A function's name without an argument is an error (sin + 1), except log_b with
        a name as its base: alone, it is the subscripted name it is written as (a
        variable, as x_b is), while log_b x is the logarithm to base b."""
        base = log_base(func.name)
        if func.written[0] == "\\" or base is None or not _is_name_base(base):
            self._no_argument(func, power)
        self._late = True   # (made after what was written after it: log_b + x)
        index = self._leaf(func.name, func.start)
        if func.power is not None:  # log_b^2: the name's power, as x_b^2
            exponent = self._add(Node("number", func.start, value=func.power))
            index = self._infix("pow", index, exponent, func.start)
        return index

    def _no_argument(self, func: Func, power: bool = False):
        name = func.written
        if power:
            self._error(f"'{name}' in an exponent needs parentheses: {name}(...)", func.start)
        signed = re.compile(_SIGNED).match(self.text, func.start + len(name))
        # "sin - x" suggests sin(-x): no space (nor a tab, unprintable) inside it
        hint = f"{name}({''.join(signed.group(1).split())})" if signed else \
            f"{name}(...) or {name} x"
        self._error(f"'{name}' is a function and needs an argument: {hint}", func.start)

    def _read_run(self, run: Run) -> int:
        items = []
        for item in run:
            items.extend([item.head, item.paren] if isinstance(item, Pieces) else [item])
        self._check_numbers(items)
        product, i = None, 0
        while i < len(items):
            if isinstance(items[i], Func):
                value, i = self._application(items, i)
            else:
                value, i = items[i].index, i + 1
            product = value if product is None else self._mul(product, value)
        return product

    def _application(self, items: list, i: int) -> tuple[int, int]:
        """Read the functions starting at items[i] and their argument; return the node and
        where the run goes on. ``sin cos x`` nests; the argument is a group right after the
        name, or the factors up to the next function."""
        chain = []
        while i < len(items) and isinstance(items[i], Func):
            chain.append(items[i])
            i += 1
        if i == len(items):  # 2 log_b, sin log_b: the name log_b (_unapplied)
            last = chain.pop()
            i -= 1
            items[i] = Factor(self._unapplied(last), last.start)
            if not chain:
                return items[i].index, i + 1
        # sin^-1(x)^2: the group is the argument, and its power is on asin(x), as on
        # sin(x)^2 (the group's own power node is left unused, and dropped: _late)
        raised = self.nodes[items[i].index] if items[i].kind == "raised" else None
        products = [raised.args[0] if raised else items[i].index]  # after each factor
        paren, first, i = items[i].kind in ("paren", "raised"), i, i + 1
        while not paren and i < len(items) and not isinstance(items[i], Func) \
                and items[i].kind != "applied" and not self._spaced_apart(items[i].start):
            products.append(self._mul(products[-1], items[i].index))
            i += 1
        argument = self._apply_func(chain[-1], products[-1])
        if raised:
            argument = self._infix("pow", argument, raised.args[1], raised.position)
            self._late = True
        for func in reversed(chain[:-1]):
            argument = self._apply_func(func, argument)
        if len(products) > 1:
            self._wide_argument(chain, items[first:i], products, argument)
        return argument, i

    def _root_of_number(self, func: Func, items: list, i: int) -> bool:
        """Whether √ or ∛ is followed by a number, then a space and more of its argument:
        √2 x, read sqrt(2*x) as sin 2 x is sin(2*x), yet on paper √2·x, as \\sqrt2 x is
        to TeX (√2x, sqrt(2*x), shows no space)."""
        if func.written not in ROOT_SIGNS or i + 1 == len(items) \
                or isinstance(items[i + 1], Func) or self.nodes[items[i].index].kind != "number":
            return False
        return re.fullmatch(SPACED_NUMBER, self.text[items[i].start:items[i + 1].start]) \
            is not None

    def _wide_argument(self, chain: list, factors: list, products: list, applied: int):
        """sin x y is sin(x*y) by the rules, and meant so (sin ωt, sin 2πft, cos kx);
        but cos x e^x is rarely meant as cos(x*(e^x)). Said where, after its numbers and
        constants (sin 2 pi x), a function's argument holds two factors or more and one
        after the first is more than a name (a power, a call, a group: e^x, (y+1)).
        ``products``: the argument's nodes after each factor; ``applied``: the
        function's node."""
        if self._looked == LOOKED_AT or len(self.said) == CAUTIONS:
            return
        nodes, text = self.nodes, self.text
        # √2 x: sqrt(2*x), as sin 2 x is sin(2*x), but on paper √2·x: said, the number alone
        # (right after '/', 1/√2 x, adcli.parser says it, with the division: (1/√2)·x);
        # \sin{x+1}y: TeX draws no braces, yet they were likely typed as parentheses
        if self._root_of_number(chain[-1], factors, 0):
            if len(chain) == 1 and text[:chain[0].start].rstrip().endswith("/"):
                return
            k = 0
        else:
            k = 0 if self._braced_sum(factors[0]) else self._wide_from(factors)
        if k is None:
            return
        self._looked += 1
        second, last = self._sized(factors[k + 1].start), factors[-1]
        tail = text[second:last.start] + self._last_shown(last)
        opened = chain[1].start if len(chain) > 1 else factors[0].start  # sin cos x y
        head = text[chain[0].start:opened].rstrip()
        inner = text[opened:self._gap(second)[0] + 1].strip()    # (sin x \! y: not \!)
        braced = k == 0 and factors[0].kind == "tex" and inner[:1] == "{"
        if braced:  # \sin{x+1}y: write \sin(x+1) y, not \sin({x+1}) y
            inner = inner[1:-1]
        reading, argument = render(nodes, root=applied), render(nodes, root=products[-1])
        meant = reading.replace(f"({argument})", f"({render(nodes, root=products[k])})", 1)
        if nodes[applied].kind == "infix" and nodes[applied].name != "pow":  # log_3 x
            meant = f"({meant})"
        meant += "".join("*" + as_operand(nodes, f.index) for f in factors[k + 1:])
        shown = text[chain[0].start:second] + tail
        note = " (TeX draws braces as nothing, not as parentheses)" \
            if braced and self._braced_sum(factors[0]) else ""
        self._say(f"{shown}: a function written without parentheses takes every factor after "
                  f"it, so this is {reading}; for {meant}, write {head}({inner}) {tail}{note}")

    def _sized(self, start: int) -> int:
        """Where a factor starting at text[start] starts with the sizing of its bracket
        (\\left(y\\right): at its \\left, which the grammar reads as a space)."""
        sized = re.compile(_SIZING).search(self.text, max(0, start - 16), start)
        return sized.start() if sized is not None else start

    def _last_shown(self, last: Factor) -> str:
        """The last factor of a function's argument, shown as read (e^{x} as e^x: where it
        ends is not known here), except where that drops the brackets it was typed in,
        (y) as y: then as typed, up to the bracket closing them (and its powers)."""
        shown, opening = as_operand(self.nodes, last.index), self.text[last.start]
        sized = self._sized(last.start) < last.start   # (\left( ... \right): as typed
        if not sized and (opening not in "([{" or shown.startswith("(")):
            return shown
        from .parser import _factor_end  # (read only for a caution: parser imports reader)

        end = _factor_end(self.text, last.start)
        return self.text[last.start:end] if end is not None else shown

    def _braced_sum(self, factor: Factor) -> bool:
        """Whether a function's first factor is a brace group holding a sum (\\sin{x+1}y),
        which TeX shows as sin x+1y: typed as parentheses are, so said though by the
        rules it is a factor of the argument, as in \\sin{2}x."""
        node = self.nodes[factor.index]
        return factor.kind == "tex" and self.text[factor.start] == "{" and \
            node.kind == "infix" and node.name in ("add", "sub")

    def _wide_from(self, factors: list) -> int | None:
        """Where a function's argument goes on after its numbers and constants (sin 2 pi x
        e^x: at x), if two factors or more follow there and one after the first is more
        than a name; else None."""
        nodes, k = self.nodes, 0
        while factors[k].kind == "number" or nodes[factors[k].index].kind == "constant" \
                or factors[k].kind == "tex" and self._constant(factors[k].index):
            k += 1
            if k == len(factors):
                return None
        if len(factors) - k < 2 or all(nodes[f.index].kind in ("variable", "constant")
                                       for f in factors[k + 1:]):
            return None
        return k

    def _constant(self, index: int) -> bool:
        """Whether a node's subtree holds no variable: \\frac{1}{2} in \\exp\\frac{1}{2}x^2
        is a coefficient, as ½ is. A walk, not recursion."""
        stack = [index]
        while stack:
            node = self.nodes[stack.pop()]
            if node.kind in ("variable", "ref"):
                return False
            stack.extend(node.args)
        return True

    def _apply_func(self, func: Func, argument: int) -> int:
        # sin x + x^2: x^2's nodes were made before sin could be applied to x
        self._late = self._late or argument != len(self.nodes) - 1
        function = CALLABLE.get(func.name)
        if func.name == "diff" or (function is not None and function.arity != 1):
            count = "an expression and variables" if func.name == "diff" else \
                f"{function.arity} arguments"
            self._error(f"{func.written}() takes {count}: write {func.written}(...)", func.start)
        index = self._apply(func.name, [argument], func.start, func.written)
        if func.power is not None:
            exponent = self._add(Node("number", func.start, value=func.power))
            index = self._infix("pow", index, exponent, func.start)
        return index

    def _check_numbers(self, items: list) -> None:
        """A number only starts a product (2x, sin 2x) or follows a group (sin(x) 2x); and
        2e is not a number."""
        for k in range(1, len(items)):
            item, before = items[k], items[k - 1]
            if isinstance(item, Func) or isinstance(before, Func):
                continue
            if item.kind == "number" and self.text[item.start] in _FRACTIONS \
                    and before.kind == "number" and self.text[item.start - 1].isdigit():
                whole = self.text[before.start:item.start]
                fraction = self.text[item.start]
                self._error(f"'{whole}{fraction}' is ambiguous: write {whole} + {fraction} "
                            f"for a mixed number, or {whole}*{fraction}", before.start)
            if item.kind == "number" and not self._after_group(item.start):
                self._two_points(before, item.start)
                self._grouped_digits(before, item.start)
                shown = self.text[before.start:item.start].rstrip()
                glued = self._glued_to_command(before, item.start)
                shown = shown if len(shown) <= 20 else "…" + shown[-20:]
                number = self.text[item.start:].split()[0][:20]
                self._error(f"a number can only come first in a product written without "
                            f"'*': write {escape(shown)}*{escape(number)}{glued}", item.start)
            node = self.nodes[item.index]
            if node.kind == "constant" and node.name == "e" and item.kind == "plain" \
                    and before.kind == "number" and self.text[item.start - 1] in "0123456789.":
                number = self.text[before.start:item.start]
                thousand = format_number(float(number) * 1000)
                self._error(f"'{number}e' is not a number: write {number}*e, or {number}e3 "
                            f"for {thousand}", before.start)

    def _grouped_digits(self, before: Factor, start: int) -> None:
        """299 792 458, 299\\,792\\,458: digits grouped by thousands, as physics prints
        constants, which the tokenizer split into numbers side by side: not a product to
        write with '*' (299*792 is wildly wrong), as --at says of them."""
        if before.kind != "number":
            return
        grouped = re.compile(_GROUPED_DIGITS).match(self.text, before.start)
        if grouped is None or grouped.end(1) != start:
            return
        self._error(not_grouped(grouped.group()), before.start)

    def _two_points(self, before: Factor, start: int) -> None:
        """1..2, 1.2.3: a number typed with a decimal point too many, which the tokenizer
        split in two (1. and .2): not a product to write with '*'."""
        typed = re.compile(r"[\d.]+").match(self.text, before.start)
        if before.kind == "number" and typed and typed.end() > start \
                and typed.group().count(".") > 1:
            self._error(f"'{typed.group()}' is not a number: it has more than one decimal "
                        f"point", before.start)

    def _glued_to_command(self, before: Factor, start: int) -> str:
        """\\alpha2, \\pi2: a number glued to a LaTeX command word (``before``), which TeX
        ends at its last letter. What it made of them, and for a letter the subscript that
        may have been meant (\\alpha_2), to say with the refusal; "" for anything else."""
        written = self.text[before.start:start]
        number = re.compile(r"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?").match(self.text, start)
        script = re.fullmatch(r"(?P<command>\\[^\W\d_]+|" + tex_font() +
                              r")(?P<mark>[_^])(?P<first>\w)", written)
        if number is not None and script is not None:   # \alpha_12, \alpha^22
            return self._glued_to_script(script, number.group())
        root = re.fullmatch(r"(\\sqrt(?:\[[^\]]*\])?)\s*(\d)", written)
        if number is not None and root is not None:   # \sqrt[3]27, \sqrt2.5
            head, digit = root.groups()
            said = f"TeX takes one token after {head}, so {written}{number.group()} is " \
                f"{written} then {number.group()}; write {head}{{{digit}{number.group()}}}"
            return f" ({escape(said)})"
        if number is None or not re.fullmatch(r"\\[^\W\d_]+", written):
            return ""
        number = number.group()
        said = f"TeX ends a command at its last letter, so {written}{number} is {written} " \
            f"then {number}"
        if number.isdigit() and self.nodes[before.index].kind == "variable":
            subscript = number if len(number) == 1 else f"{{{number}}}"  # (TeX: _12 is _1 2)
            said += f"; for a subscript, write {written}_{subscript}"
        return f" ({escape(said)})"

    @staticmethod
    def _glued_to_script(script: re.Match, number: str) -> str:
        """\\alpha_12, \\alpha^22: TeX takes one token as a command's subscript or
        superscript, so the number after it stands alone; the braces to write."""
        command, mark, first = script.group("command", "mark", "first")
        kind, what = ("subscript", "a subscript") if mark == "_" else \
            ("superscript", f"the power {first}{number}")
        said = f"TeX takes one token as a {kind}, so {script.group()}{number} is " \
            f"{script.group()} then {number}"
        if number.isdigit():
            said += f"; for {what}, write {command}{mark}{{{first}{number}}}"
        return f" ({escape(said)})"

    def _after_group(self, start: int) -> bool:
        """Whether a closing bracket or bar and a space come before ``start``: cos(x^2) 2x
        is cos(x^2)*2*x as surely as 2x cos(x^2) (while x 2 may be x*2, x^2 or x2, and
        (x+1)2 may have lost its ^). LaTeX's \\, is a space too."""
        k = self._gap(start)[0]
        return 0 <= k < start - 1 and self.text[k] in ")]}|"

    def _spaced_apart(self, start: int) -> bool:
        """Whether LaTeX's \\, (or \\; \\: "\\ ") comes before ``start``: \\sin x \\, e^{x}
        is sin(x)*e^x, as typeset maths spaces the two factors apart."""
        return self._tex and self._gap(start)[1]

    def _gap(self, start: int) -> tuple[int, bool]:
        """Where the text before ``start`` ends, spaces, LaTeX's spacing commands and the
        line's annotations aside (the index of its last character), and whether \\, \\;
        \\: "\\ " \\quad or \\qquad was among them (not \\!, a negative space, which draws
        factors together)."""
        text, k, spaced = self.text, start - 1, False
        while k >= 0:
            if k > 0 and text[k - 1] == "\\" and (text[k] in ",;:!" or text[k].isspace()):
                spaced, k = spaced or text[k] != "!", k - 2
            elif text[k].isspace() or text[k] in INVISIBLE_SPACES:
                k -= 1
            elif k + 1 in self._passed:     # \\quad is a space; \\label{a} is nothing
                k, space = self._passed[k + 1]
                spaced, k = spaced or space, k - 1
            else:
                break
        return k, spaced

    def _mul(self, left: int, right: int) -> int:
        return self._infix("mul", left, right, self.nodes[right].position)


def _operand_before(text: str, end: int) -> str:
    """The base written before the "^" at ``end``: a name, a number, a command or a group
    in brackets (e in e^{-x}^2), for a refusal's advice; "…" where none is seen."""
    k = end
    while k > 0 and text[k - 1].isspace():
        k -= 1
    if k and text[k - 1] in ")]}":
        depth, start = 0, k - 1
        while start >= 0:
            depth += (text[start] in ")]}") - (text[start] in "([{")
            if depth == 0:
                return text[start:k]
            start -= 1
        return "…"
    found = re.search(r"(\\[A-Za-z]+|[^\W\d]\w*|\d*\.?\d+)\Z", text[:k])
    return found.group() if found else "…"


_CLOSER = {"(": ")", "[": "]", "{": "}"}


def never_closed(text: str) -> ExpressionError | None:
    """For a text that ended too soon: the bracket or bar still open at its end, refused
    where it is (not at the end, where the caret would show nothing), or None. Only
    where the text ends as an operand does, or with that bracket (x|, "(x + 1"): "(x +"
    lacks an operand first, as the end's own error says. A bar closes the last bar
    opened where an operand ends before it (|x|), else opens one (||x||); after an
    operand with none open (x + 1|) it may be either: None."""
    found = _open_at_end(text)
    if found is None:
        return None
    opened, ended = found
    c = text[opened]
    if not ended and text[opened + 1:].strip():
        return None
    closer = f"its '{_CLOSER[c]}'" if c in _CLOSER else "the '|' that closes it"
    return ExpressionError(f"'{c}' is never closed: the expression ends before {closer}",
                           text, opened)


def _open_at_end(text: str) -> tuple[int, bool] | None:
    """Where the innermost bracket or bar open at the end of ``text`` is, and whether the
    text ends as an operand does; None if none is open, or a closer is stray."""
    opened: list[int] = []
    ended = False   # (whether what came last can end an operand: x, 2, ), a closing |)
    for i, c in enumerate(text):
        if c.isspace():
            continue
        if c in _CLOSER:
            opened.append(i)
        elif c in ")]}":
            if not opened or _CLOSER.get(text[opened[-1]]) != c:
                return None
            opened.pop()
        elif c == "|" and ended and opened and text[opened[-1]] == "|":
            opened.pop()
        elif c == "|" and ended:    # (x + 1|: a stray closer, or an opener? not said)
            return None
        elif c == "|":
            opened.append(i)
            ended = False
            continue
        ended = c in ")]}|!.'" or c.isalnum()
    return (opened[-1], ended) if opened else None


def _plain_number(nodes: list[Node]) -> float | None:
    """The value of an exponent written as a number, signed or in parentheses, else None."""
    if len(nodes) == 1 and nodes[0].kind == "number":
        return nodes[0].value
    if len(nodes) == 2 and nodes[0].kind == "number" and nodes[1].name == "neg":
        return -nodes[0].value
    return None


@functools.lru_cache(maxsize=1)
def tex_font() -> str:
    """The grammar's _TEX_FONT, a font command with the name it takes (\\operatorname{sech},
    \\mathrm e, {\\rm e}), read from grammar/expr.lark: one list of TeX's fonts for the
    grammar, this module and adcli.parser. (Asked by refusals only: read once then.)"""
    from .lalr import grammar_text

    return re.search(r"^_TEX_FONT: /(.*)/$", grammar_text(), re.M).group(1)


# The fonts' spellings as normal_name reads them (a test checks they are the grammar's)
_FONTS = {"\\rm": "\\mathrm", "\\mathrm": "\\mathrm", "\\mathit": "\\mathit",
          "\\operatorname": "\\operatorname"}


def one_name(name: str) -> str:
    """How the caution for a function's name glued to its argument (sinx) begins: the
    CLI leaves it out for a name given a value (--at cost=3)."""
    return f"'{name}' is one name, read as a variable"


def in_written_order(nodes: list[Node]) -> list[Node]:
    """The nodes in the order sin(x) + x^2 makes them: the order sin x + x^2, read the
    same, must number its steps in (trace, graph) and add a variable's gradients in.
    Parsing makes a node after its operands, which come in the order they are written:
    so each node's operands go first, by where their text starts. A stack, not recursion
    (depth)."""
    starts = []
    for node in nodes:
        starts.append(min([node.position, *[starts[a] for a in node.args]]))
    order, placed = [], [None] * len(nodes)
    stack = [(len(nodes) - 1, _by_start(nodes, starts, len(nodes) - 1))]
    while stack:
        index, operands = stack[-1]
        if operands:
            operand = operands.pop()
            if placed[operand] is None:
                stack.append((operand, _by_start(nodes, starts, operand)))
            continue
        stack.pop()
        if placed[index] is None:
            placed[index] = len(order)
            order.append(index)
    return [nodes[i].with_args(tuple(placed[a] for a in nodes[i].args)) if nodes[i].args
            else nodes[i] for i in order]


def _by_start(nodes, starts, index) -> list[int]:
    """A node's operands, the one written last first (they are popped)."""
    args = nodes[index].args
    return sorted(args, key=lambda a: (starts[a], args.index(a)), reverse=True)


def _call_name(text: str) -> str:
    """The name a call's token opens (sin, \\sin, \\operatorname{atan2}, \\min\\{), without
    its "(" (or "\\{"), LaTeX's sizing of it (\\left, \\bigl) and its \\operatorname{...}."""
    text = re.sub(r"(?:\\(?:[bB]igg?l?|left)\s*)?(?:\(|\\\{)$", "", text).rstrip()
    if text.startswith("\\operatorname"):
        text = text[text.index("{") + 1:text.rindex("}")].strip()
    return text


def _tex_font(written: str) -> str:
    """{\\rm e}, \\mathrm e and \\mathrm {e} (the grammar's TEX_NAME) as \\mathrm{e}, the
    spelling normal_name reads; any other name as it is."""
    if written[0] not in "\\{":
        return written
    parts = written.replace("{", " ").replace("}", " ").split()
    if len(parts) != 2 or parts[0] not in _FONTS:
        return written  # \alpha_{1}
    return _FONTS[parts[0]] + "{" + parts[1] + "}"


def _leaf_of(name: str) -> tuple:
    """(kind, name, value) of a name that is not a function: a constant or a variable."""
    name = CONSTANT_SPELLINGS.get(name, name)
    kind = "constant" if name in CONSTANTS else "variable"
    return kind, name, CONSTANTS.get(name)


class ForLark:
    """The builder as lark calls it (to accept or explain text the tables rejected): each
    of lark's tokens is handed over as the (text, start) pair the tables give."""

    def __init__(self, builder: Builder):
        self._builder = builder

    def __getattr__(self, name: str):
        method = getattr(self._builder, name)  # AttributeError: lark builds a tree itself
        if name.startswith("_") or not callable(method):
            raise AttributeError(name)
        from lark import Token

        def call(children):
            return method([(str(c), c.start_pos) if isinstance(c, Token) else c
                           for c in children])

        return call
