"""The errors every layer raises; the CLI turns each into one message and an exit status."""
from __future__ import annotations

import os
import re

# Exit statuses (README "Errors and exit codes").
EXIT_CHECK_FAILED, EXIT_BAD_INPUT, EXIT_NONFINITE, EXIT_INTERNAL, EXIT_INTERRUPTED = \
    1, 2, 3, 70, 130
EXIT_IO = 74    # the output could not be written (sysexits.h's EX_IOERR)


class AdcliError(Exception):
    """A problem with what the user asked for: reported as one message, never a traceback."""

    exit_code = EXIT_BAD_INPUT

    def __reduce__(self):
        # Remade without calling __init__, whose parameters (ExpressionError's message,
        # text and position) are not the args Exception keeps: pickle (a process pool's
        # way back) and copy would call it with the wrong ones.
        return _remade, (self.__class__, self.args), self.__dict__ or None


def _remade(cls, args):
    error = cls.__new__(cls, *args)
    error.args = args
    return error


class ExpressionError(AdcliError):
    """Something wrong at a place in an expression: the message shows it with a caret."""

    def __init__(self, message: str, text: str, position: int):
        self.message, self.text, self.position = message, text, position
        super().__init__(self.render())

    def render(self, columns: int | None = None) -> str:
        """The message, where (a line too in a text of several: an @FILE), and the
        place's line of the text with a caret under it: 60 characters of it, or, for a
        terminal ``columns`` wide, as many as fit on one of its lines (one it folded would
        put the caret under the wrong line)."""
        text, position, where = self.text, self.position, f"column {self.position + 1}"
        if "\n" in text.rstrip("\n"):
            start = text.rfind("\n", 0, position) + 1
            end = text.find("\n", position)
            text, position = text[start:end if end >= 0 else len(text)], position - start
            where = f"line {self.text.count(chr(10), 0, start) + 1}, column {position + 1}"
        elif text.endswith("\n"):   # an @FILE's last newline
            text = text.rstrip("\n")
            position = min(position, len(text))
        shown, caret = excerpt(text, position, columns=columns - 2 if columns else None)
        return f"{marks_shown(self.message)} ({where})\n  {shown}\n  {' ' * caret}^"


class ValuesError(AdcliError):
    """Missing, extra, duplicate or malformed values for variables."""


class PointsError(AdcliError):
    """A bad row in a points file or stream."""


class NonFiniteError(AdcliError):
    """A nan or inf in the results under --strict."""

    exit_code = EXIT_NONFINITE


class AdcliWarning(UserWarning):
    """What the CLI would warn of on stderr, from the Python API: a value read otherwise
    than written (``x=10**400`` is inf, as ``--at x=1e400`` is)."""


def warn(err, message: str) -> None:
    """One warning on stderr: a line in a pipe or a file; on a terminal narrower than it,
    folded between words (the terminal itself would cut one in two)."""
    say(err, f"warning: {message}")


def say(err, message: str) -> None:
    """One line for people on stderr, "adcli: " first, folded as warn folds it."""
    text = f"adcli: {message}"
    width = terminal_width(err)
    err.write((fold_words(text, width) if width and _width(text) > width else text) + "\n")


def error_text(text: str, columns: int | None = None) -> str:
    """An error for stderr ("adcli: error: ..."), with combining marks that have nothing
    to sit on shown escaped. For a terminal ``columns`` wide, its first line is folded as
    warn folds; the lines after it, an expression and the caret under it, are left whole
    (ExpressionError.render made them fit). In a pipe (None): as it is, one line."""
    first, newline, rest = text.partition("\n")
    first = marks_shown(first)
    if columns and _width(first) > columns:
        first = fold_words(first, columns)
    return first + newline + rest


def fold_words(text: str, width: int) -> str:
    """text in lines of at most ``width`` columns, broken between words only (a word wider
    than that stays whole), the lines after the first indented by two spaces. Columns, not
    characters (textwrap's count): a CJK character takes two, a combining mark none."""
    import re

    pieces = re.split(r"(\s+)", text.strip())  # words, and the spaces between them as typed
    lines, line, used = [], pieces[0], _width(pieces[0])
    for space, word in zip(pieces[1::2], pieces[2::2]):
        space, columns = " " * len(space), _width(word)
        if used + len(space) + columns > width:
            lines.append(line)
            line, used = "  " + word, 2 + columns
        else:
            line, used = line + space + word, used + len(space) + columns
    lines.append(line)
    return "\n".join(lines)


def terminal_width(stream) -> int | None:
    """The width of the terminal ``stream`` writes to (COLUMNS, if set), or None for a
    pipe, a file or an object with no ``isatty``: there, nothing is folded. A width of 0
    (COLUMNS=0, or a terminal that reports 0 by 0, as some containers' do) is none known:
    80, as Python's shutil.get_terminal_size takes it (at 0, every table drew nothing)."""
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns):
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):
        return None


def colour_allowed() -> bool:
    """Whether colour may be used: not if NO_COLOR is set to anything but the empty string
    (https://no-color.org/: an empty NO_COLOR counts as unset), nor on a dumb terminal."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def escape(text: str, hidden: bool = False) -> str:
    """Text as it may be shown on a terminal: control and invisible characters escaped,
    and so is a combining mark with no letter or digit before it (at the start, it would
    sit on the quote before the text). ``hidden``: those that show as nothing though
    printable too (INVISIBLE), as a message quoting input shows them; a table's cell keeps
    them (1️⃣'s emoji selector)."""
    if text.isascii() and text.isprintable():  # every cell of a table, nearly always
        return text
    return "".join(_pieces(text, hidden))


def marks_shown(text: str) -> str:
    """text with its bare combining marks escaped (as escape does), nothing else: a
    message that holds one, as in "unexpected character '\\u0301'"."""
    if text.isascii():
        return text
    return "".join(piece if _is_mark(c) else c for c, piece in zip(text, _pieces(text)))


def quote(text: str, limit: int = 60) -> str:
    """A piece of user input for a message: in quotes, as typed (LaTeX's backslashes not
    doubled, as repr would), control and invisible characters escaped, cut short if long
    (``limit`` None: never)."""
    shown = text if limit is None or len(text) <= limit else text[:limit] + "…"
    return f"'{escape(shown, hidden=True)}'"


# Characters that show as nothing of their own though Python calls them printable, and
# that the grammar takes into a name: variation selectors, the combining grapheme joiner,
# Khmer's inherent vowels, the Hangul fillers that stand alone (not Mongolian's selectors,
# which change a letter's shape, nor the fillers that make a jamo a syllable). Escaped in
# messages (escape's ``hidden``); the parser refuses them in a name.
INVISIBLE = re.compile("[\u034f\u17b4\u17b5\u3164\ufe00-\ufe0f\uffa0"
                       "\U000e0100-\U000e01ef]")


def _escape_char(c: str, hidden: bool = False) -> str:
    # (isprintable is False for every separator, Z, but the space: no category lookup)
    if c.isprintable() and not (hidden and INVISIBLE.match(c)):
        return c
    if "\udc80" <= c <= "\udcff":     # an undecodable byte, kept by surrogateescape
        return f"\\x{ord(c) - 0xdc00:02x}"
    return c.encode("unicode_escape").decode("ascii")


def _pieces(text: str, hidden: bool = False) -> list[str]:
    """Each character of text as escape shows it (``hidden`` as there). A combining mark
    (U+0301 after x: x́) is shown as itself after a letter or a digit it can sit on, else
    escaped."""
    pieces, base = [], False
    for c in text:
        piece = _escape_char(c, hidden)
        if _is_mark(c):
            if not base:
                piece = c.encode("unicode_escape").decode("ascii")
        else:
            base = piece == c and (c.isalnum() if c.isascii() else _category(c)[0] in "LN")
        pieces.append(piece)
    return pieces


def _is_mark(c: str) -> bool:
    return not c.isascii() and _category(c)[0] == "M"


def _category(c: str) -> str:
    # unicodedata is imported here, for non-ASCII text only: at module level it cost
    # every start-up ~0.9 ms (tests/test_start_up_path.py).
    import unicodedata

    return unicodedata.category(c)


def _columns(c: str) -> int:
    # Wide (CJK) characters take two terminal columns, a combining mark none (it sits on
    # the character before it); the caret must count them so.
    if c.isascii():
        return 1
    if _category(c) in ("Mn", "Me"):
        return 0
    import unicodedata

    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def _width(text: str) -> int:
    return sum(_columns(c) for c in text)


def excerpt(text: str, position: int, width: int = 60,
            columns: int | None = None) -> tuple[str, int]:
    """A window of the text around ``position`` as shown (escaped), and the caret's
    offset in it: long expressions are cut with an ellipsis. The window holds ``width``
    characters (escapes widen it) or, given ``columns``, fits in that many terminal
    columns, the caret's included. The caret sits under a combining mark's letter."""
    if columns is None:
        start = max(0, position - width // 2)
        end = min(len(text), start + width)
    else:   # the pieces of a text all its length away (none shows in less than a column)
        columns = max(columns, 8)
        start, end = max(0, position - columns), min(len(text), position + columns)
    pieces = _pieces(text[start:end], hidden=True)
    widths = [sum(map(_columns, p)) for p in pieces]
    at = position - start
    while 0 < at < len(pieces) and widths[at] == 0 and _is_mark(text[start + at]):
        at -= 1     # under the letter the mark sits on
    if columns is not None:
        first, last = _fit(widths, at, columns)
        while 0 < first < at and _is_mark(text[start + first]):
            first += 1  # not a mark without its letter
        while last < len(pieces) and widths[last] == 0:
            last += 1
        pieces, widths, at = pieces[first:last], widths[first:last], at - first
        end, start = start + last, start + first
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + "".join(pieces) + suffix, len(prefix) + sum(widths[:at])


def _fit(widths: list[int], at: int, columns: int) -> tuple[int, int]:
    """The pieces [first, last) shown around the caret's piece ``at`` in ``columns``
    columns, a column kept for an ellipsis on each side: half before the caret, the
    rest after it, and what the end of the text leaves unused before it again."""
    room = columns - 2 - (widths[at] if at < len(widths) else 1)
    first, last = at, min(at + 1, len(widths))
    half = room // 2
    while first > 0 and widths[first - 1] <= half:
        first -= 1
        half -= widths[first]
        room -= widths[first]
    while last < len(widths) and widths[last] <= room:
        room -= widths[last]
        last += 1
    while first > 0 and widths[first - 1] <= room:
        first -= 1
        room -= widths[first]
    return first, last


def listing(names) -> str:
    """'x', 'x and y', 'x, y and z'."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def leibniz(names, texts=()) -> str | None:
    """Why ``d`` and ``dx`` are among an expression's names, if they are: the textbook's
    d/dx written into it ("d/dx x^2") is d divided by a variable dx, not a derivative; or
    dy/dx, where one of ``texts`` (the expressions as typed) divides one by the other."""
    names = list(names)
    wrt = sorted(n[1:] for n in names if len(n) > 1 and n[0] == "d" and n[1] != "_")
    if "d" not in names:
        return _leibniz_fraction(names, texts)
    if not wrt:
        return None
    return (f"'d/d{wrt[0]}' is read as d divided by a variable d{wrt[0]}, not as a "
            f"derivative: write diff(EXPRESSION, {wrt[0]}) for one (grad and check "
            "differentiate an expression given alone)")


def _leibniz_fraction(names: list[str], texts) -> str | None:
    """dy/dx written into an expression: a variable dy divided by a variable dx, which
    have no values where y and x do. Two such names (one letter after the d), one over
    the other in the text (not dx dy, dx^2 + dy^2: those are no derivative). (Not
    diff(y, x): y is a variable of its own there, so that is 0.)"""
    pairs = [n for n in names if re.fullmatch(r"d[^\W\d_]", n)]
    if len(pairs) != 2 or pairs[0] == pairs[1] or pairs[0][1] == pairs[1][1]:
        return None
    over = [(a, b) for a, b in (pairs, pairs[::-1])
            if any(re.search(rf"(?<!\w){a}\s*/\s*{b}(?!\w)", t) for t in texts)]
    if not over:
        return None
    top, by = over[0]
    return (f"{top}/{by} is read as a variable {top} divided by a variable {by}, not as a "
            f"derivative: for one, write {top[1]}'s expression in {by[1]} as diff(..., "
            f"{by[1]}), or give it alone to adcli grad or check")


def no_value_for(missing, hints: list[str] | None = None, notation: bool = True,
                 texts=(), given=(), notes=()) -> ValuesError:
    """Variables without a value, named; when they are d and dx, why (see leibniz, which
    reads ``texts``, the expressions as typed): no value would make d/dx a derivative.
    Names read as products, where a value given would keep that reading in silence, are
    said to be (Γ(a+b), and \\Delta t where Δt was among the names ``given``).
    With ``hints`` (the CLI's), how to give them: --at, then each hint in parentheses (the
    hints alone where not ``notation``). Without them, ``notes`` (the API's: why a name
    may lack a value, sinx, without the CLI's --at) follow in parentheses."""
    notation = leibniz(missing, texts) if notation else None
    applied = [] if notation else _applied(missing, texts)
    apart, joined = ({}, ()) if notation else _apart(missing, given, texts)
    products = "; ".join(([_products(applied)] if applied else []) + list(apart))
    if notation or hints is None:
        return ValuesError(f"no value given for {listing(missing)}"
                           + (f": {notation or products}" if notation or products else "")
                           + ("".join(f" ({note})" for note in notes) if not notation else ""))
    those = "that product" if len(applied) + len(apart) == 1 else "those products"
    typed = [_times_digits(n) for n in _subscripted(missing, texts)]
    # (Δt given for \Delta t is explained above, no slip of Δ: its did-you-mean dropped)
    slips = tuple(f"'{escape(n)}' was given: did you mean" for n in joined)
    hints = [hint for hint in hints if hint not in typed and not hint.startswith(slips)]
    return ValuesError(f"no value given for {listing(missing)}: "
                       + (f"{products}; for {those}, " if products else "") + "add --at "
                       + ",".join(f"{n}=..." for n in missing)
                       + "".join(f" ({hint})" for hint in hints))


# A name right before "(" as typed (Γ(, \Gamma(, J_0(, J_{0}(, \zeta\left(): a product
_APPLIED = (r"(\\[A-Za-z]+|(?<![^\W\d])[^\W\d]\w*)((?:_\{[^{}]*\}|_\\[A-Za-z]+)*)"
            r"\s*(?:\\(?:left|[bB]igg?l?)\s*)?\(")
# Functions a physicist may write that adcli does not have, by the name they are written with
_NOT_FUNCTIONS = [(r"Γ", "the gamma function"), (r"ζ", "the zeta function"),
                  (r"[JYIK]_?\w+", "a Bessel function")]


def _applied(missing, texts) -> list[str]:
    """The names of ``missing`` that ``texts`` write right before "(": Γ(a+b), J_0(x)."""
    from .expression import normal_name   # (expression imports this module)

    if not any("(" in t for t in texts):
        return []
    typed = {normal_name(m[1] + m[2]) for t in texts for m in re.finditer(_APPLIED, t)}
    return [n for n in missing if n in typed]


def _apart(missing, given, texts) -> tuple[dict, set]:
    """A given name that the texts write as a command, a space and a name (Δt as \\Delta t):
    read as two names, as TeX ends a command at the space. (What is said, as keys; the given
    names it explains.)"""
    from .expression import normal_name   # (expression imports this module)

    if not given or not any("\\" in t for t in texts):
        return {}, set()
    joined = set()
    said = {}
    for found in (m for t in texts for m in re.finditer(r"(\\[A-Za-z]+)\s+([^\W\d]\w*)", t)):
        a, b = normal_name(found[1]), normal_name(found[2])
        if a in missing and b in missing and a + b in given:
            said[found.group()] = (f"'{found.group()}' is read as {a} times {b}, as TeX ends "
                                   f"the command at the space: for the one name {a + b}, "
                                   f"write {a + b}")
            joined.add(a + b)
    return dict.fromkeys(said.values()), joined


_PRODUCTS_SHOWN = 3


def _products(applied: list[str]) -> str:
    """Γ(a+b) where Γ has no value: read as Γ times (a + b), as adcli has no function Γ,
    which a value given would keep in silence."""
    known = list(dict.fromkeys(what for n in applied for pattern, what in _NOT_FUNCTIONS
                               if re.fullmatch(pattern, n)))
    where = "the README lists them under 'The expression language'"
    # (a clause for the first few only: thousands of such names would make a hint of MBs)
    shown, more = applied[:_PRODUCTS_SHOWN], len(applied) - _PRODUCTS_SHOWN
    named = shown + [f"{more} more"] * (more > 0)
    return (" and ".join(f"{n}(...) is read as {n} times (...)" for n in shown)
            + (f", and so on for {more} more" if more > 0 else "")
            + f", as adcli has no function{'s' * (len(applied) > 1)} {listing(named)} ("
            + (f"{listing(known)} {'is' if len(known) == 1 else 'are'} not among its functions: "
               if known else "") + where + ")")


def no_header(missing, columns: list[str], comment=None) -> ValuesError | None:
    """No value for ``missing`` where a points file's header is numbers only: a file
    without one (1,2 / 3,4), whose first row was taken for names; --columns names its
    columns (--at would leave the file's unused). None for a header of names. ``comment``:
    (line, text, names) of a comment just before that row holding one name a field, a
    header written as one (numpy.savetxt's '# y x'): its names, in its order."""
    from .streams import is_number

    if not columns or not all(map(is_number, columns)):
        return None
    missing, n = list(missing), len(columns)
    if comment is not None and not set(missing) <= set(comment[2]):
        comment = None  # (# made by sim: a comment, not the names the expression wants)
    if comment is not None:
        line, text, names = comment
        advice = (f"line {line} {quote(text)} looks like a header written as a comment: "
                  f"--columns {','.join(names)}")
    elif n > 1:
        # Which column is which only the file's writer knows: placeholders, not x,y in the
        # expression's order, which a file written y,x would take in silence.
        holders = ",".join(f"NAME{k}" for k in range(1, min(n, 6) + 1)) + ",..." * (n > 6)
        named = missing[:n]
        advice = (f"name its {n} columns, in the file's order (not the expression's), with "
                  f"--columns {holders}, calling {listing(named)} the "
                  f"column{'s' * (len(named) > 1)} that hold{'s' * (len(named) == 1)} "
                  f"{'them' if len(named) > 1 else 'it'}")
    else:
        advice = f"name its column with --columns {missing[0]}"
    if comment is None and missing[n:]:
        advice += ", and add --at " + ",".join(f"{name}=..." for name in missing[n:])
    first = ", ".join(f"'{c}'" for c in columns)
    return ValuesError(f"no value given for {listing(missing)}: the points file seems to have "
                       f"no header row (its first line is "
                       f"{'all numbers' if n > 1 else 'a number'}: {first}): {advice}")


def closest(name: str, candidates, cutoff: float = 0.6) -> str | None:
    """The candidate ``name`` most likely stands for: one differing only in case first
    (``X`` for ``x``), else the closest spelling."""
    import difflib

    candidates = list(candidates)
    folded = [c for c in candidates if c.casefold() == name.casefold()]
    if folded:
        return folded[0]
    matches = difflib.get_close_matches(name, candidates, n=1, cutoff=cutoff)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates) -> str:
    match = closest(name, candidates)
    return f"; did you mean '{escape(match)}'?" if match else ""


def slip(name: str, candidates) -> str | None:
    """The candidate that ``name`` is a slip of the keyboard for, or None.

    For function names: a name one letter longer or shorter at either end is often
    another function (``sech`` is not ``sec``, ``asin`` not ``sin``, ``log3`` not
    ``log``), so only the closest candidate is considered, and only edits a finger makes
    count: a different case, two letters swapped, a letter doubled, a letter dropped
    inside the word, a neighbouring key pressed instead or as well, or ``arc`` for ``a``
    (``arcsin``), or ``a`` for ``arc`` (``actg``: ``arcctg``, the inverse of ``ctg``, not
    ``arctg``, a letter away). ``sign`` is not ``sin`` with a stray ``g``: g is not beside
    i or n."""
    candidates = list(candidates)
    if name.startswith("arc") and "a" + name[3:] in candidates:
        return "a" + name[3:]
    if name.startswith("a") and "arc" + name[1:] in candidates:
        return "arc" + name[1:]
    swapped = [c for c in candidates if len(c) == len(name) and _one_slip(name, c)
               and sorted(c) == sorted(name)]
    if swapped:                                 # "tahn" is tanh, though tan is closer
        return swapped[0]
    match = closest(name, candidates)
    if match is None:
        return None
    return match if match.casefold() == name.casefold() or _one_slip(name, match) else None


def added_letter(name: str, functions) -> str | None:
    """The function ``name`` is with one letter doubled (sinn, coss, sqrrt: a slip, not
    the function and a variable n), or None. (Not a letter added from a key beside: lon,
    skin, cols and plow are names people give values to.)"""
    for i in range(1, len(name)):
        shorter = name[:i] + name[i + 1:]
        if name[i] == name[i - 1] and len(shorter) > 1 and shorter in functions:
            return shorter
    return None


def _one_slip(typed: str, meant: str) -> bool:
    if len(typed) == len(meant):
        diff = [i for i, (a, b) in enumerate(zip(typed, meant)) if a != b]
        if len(diff) == 1:
            return _neighbours(typed[diff[0]], meant[diff[0]])
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and typed[diff[0]] == meant[diff[1]] and typed[diff[1]] == meant[diff[0]])
    if abs(len(typed) - len(meant)) != 1:
        return False
    longer, shorter = (typed, meant) if len(typed) > len(meant) else (meant, typed)
    for i in range(len(longer)):
        if longer[:i] + longer[i + 1:] == shorter:
            beside = longer[max(0, i - 1):i] + longer[i + 1:i + 2]
            inside = 0 < i < len(longer) - 1
            if longer[i] in beside:
                return True                     # a doubled letter: "sinn", "sqqrt"
            if typed is shorter:
                return inside                   # a dropped letter: "sqt"
            return inside and any(_neighbours(longer[i], c) for c in beside)
    return False


_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEYS = {c: (row, column + (0, 0.25, 0.75)[row])
         for row, keys in enumerate(_KEY_ROWS) for column, c in enumerate(keys)}


def _neighbours(a: str, b: str) -> bool:
    """Whether two letters are next to each other on a QWERTY keyboard."""
    if a.lower() not in _KEYS or b.lower() not in _KEYS:
        return False
    (row_a, x_a), (row_b, x_b) = _KEYS[a.lower()], _KEYS[b.lower()]
    return abs(row_a - row_b) <= 1 and abs(x_a - x_b) <= 1


def run_together(name: str, known) -> list[str] | None:
    """``name`` as two or more known names written without an operator (``ex`` is e and
    x, ``xy`` is x and y), or None: ``2ex`` reads as 2 times a variable ``ex``. The
    longer of two names that fit is taken (cosh, not cos and a variable h)."""
    known = sorted({k for k in known if k}, key=lambda k: (-len(k), k))
    # parts[i]: one way to write name[:i] as known names (shortest-first search).
    parts: list[list[str] | None] = [[]] + [None] * len(name)
    for end in range(1, len(name) + 1):
        for k in known:
            start = end - len(k)
            if start >= 0 and parts[start] is not None and name[start:end] == k:
                parts[end] = parts[start] + [k]
                break
    found = parts[len(name)]
    return found if found is not None and len(found) > 1 else None


def one_name(name: str, parts: list[str]) -> str:
    """What to write for a name that run_together took apart."""
    return f"'{name}' is one name; for {' times '.join(parts)} write {'*'.join(parts)}"


def _product(parts: list[str], functions) -> str:
    """Names written apart as read: x sin x is x*sin(x), sin cos x is sin(cos(x)), and a
    function takes the names up to the next function (x sin y cos x: x*sin(y)*cos(x))."""
    factors, i = [], 0
    while i < len(parts):
        j = i
        while parts[j] in functions:
            j += 1
        k = j + 1 if j > i else i + 1
        while j > i and k < len(parts) and parts[k] not in functions:
            k += 1
        factor = "*".join(parts[j:k])
        for function in reversed(parts[i:j]):
            factor = f"{function}({factor})"
        factors.append(factor)
        i = k
    return "*".join(factors)


# A name's digits after its letters (x2): maybe the letters times a number
_DIGITS_LAST = r"(.*[^\d_])(\d+)"


def _times_digits(name: str) -> str:
    """What to write for x2 meant as x times 2."""
    times = re.fullmatch(_DIGITS_LAST, name)
    return one_name(name, [times[1], times[2]]) + f" or {times[2]}{times[1]}"


def _subscripted(missing, texts) -> list[str]:
    """The names of ``missing`` that ``texts`` write with subscript digits (ω₀): NFKC makes
    them ω0, which no one means as ω times 0."""
    from .expression import normal_name   # (expression imports this module)

    if all(t.isascii() for t in texts):
        return []
    typed = {normal_name(m) for t in texts for m in re.findall(r"[^\W\d][^\W⁰¹²³⁴-⁹]*", t)
             if re.search("[₀-₉]", m)}
    return [n for n in missing if n in typed and re.fullmatch(_DIGITS_LAST, n)]


def glued(name: str, variables, functions) -> str | None:
    """Why ``name`` may be names written together, and what to write instead: variables
    and constants (``xy``: x*y; ``x2``: x*2), or functions among them (``xsinx``: x sin x, read as
    written by hand), or None."""
    parts = run_together(name, variables)
    if parts:
        return one_name(name, parts)
    times = re.fullmatch(_DIGITS_LAST, name)
    if times and times[1] in variables:    # x2 beside a given x: x times 2, as 2x is
        return _times_digits(name)
    functions = [f for f in functions if len(f) > 1]
    parts = run_together(name, [*variables, *functions])
    if parts and any(p in functions for p in parts):
        count = sum(p in functions for p in parts)
        said = f"'{name}' is one name; for the function{'s' * (count > 1)}, write "
        if parts[-1] not in functions:
            return said + " ".join(parts)
        # xsin (in e^xsin x): the function's argument comes after the name, so x sin alone
        # would say too little; an example says where it goes and how it is read
        argument = next((p for p in parts if p not in functions), "x")
        example = [*parts, argument]
        return said + f"{' '.join(parts)} and its argument, as in {' '.join(example)}, read as " \
            f"{_product(example, functions)}"
    based = re.match(r"(log_(?:\d+|e))(.+)", name)
    if based:   # log_2x, log_ex: the base is a subscript's, what follows the argument
        return f"'{name}' is one name; for the function, write {based[1]} {based[2]}"
    heads = [f for f in functions if name.startswith(f) and len(name) > len(f)
             and name[len(f)] != "_"]   # (log_x: no function log then "_x")
    if (meant := added_letter(name, functions)) is not None:   # sinn: not sin n
        return f"'{name}' is not a function: did you mean {meant}?"
    if heads:  # sinx with no x given yet: the function and whatever follows it
        head = max(heads, key=len)
        return f"'{name}' is one name; for the function, write {head} {name[len(head):]}"
    return None


def quiet(stream) -> None:
    """Point a stream's descriptor at /dev/null: what it still holds is flushed there at
    the interpreter's exit, which would otherwise fail again and change the exit status.
    (The CLI's, after a broken pipe; check's too: its exit status is its verdict, which a
    reader gone must not change, so it carries on writing, to nowhere.)"""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):   # (no descriptor: nothing to flush)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
