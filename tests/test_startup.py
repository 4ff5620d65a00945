"""Start-up: the parser runs LALR tables generated from grammar/expr.lark, without lark.

What must hold for that to be safe:
- the tables adcli loads are the ones lark makes from the grammar file today (the file stays
  the single source of truth; an install or a cache cannot go stale unnoticed);
- on every input, the tables do what lark does: the same builder calls in the same order, and
  they reject exactly the inputs lark rejects (lark then explains them, with its messages);
- a one-point run imports neither lark nor, for JSON, rich.
"""
import importlib.util
import marshal
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

import adcli
from adcli import lalr, lalr_tables, parser
from adcli.errors import ExpressionError

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "expr.lark"


@pytest.fixture(scope="module")
def grammar():
    return GRAMMAR.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fresh_tables(grammar):
    return lalr_tables.generate(grammar)


# ----- the tables are the grammar's ---------------------------------------------------------

def test_the_tables_adcli_loads_are_made_from_the_grammar_file(fresh_tables):
    # Installed: made by setup.py at build time. Checkout: made at first use, then cached.
    assert lalr.load_tables() == fresh_tables


def test_an_installed_adcli_has_tables_generated_at_build_time():
    package = Path(adcli.__file__).resolve().parent
    if package.parent == GRAMMAR.parent.parent:
        pytest.skip("adcli runs from this checkout (editable install): no build step ran")
    assert importlib.util.find_spec("adcli." + lalr_tables.GENERATED_MODULE) is not None


def test_the_tables_shipped_in_the_source_tree_are_the_grammar_s(fresh_tables):
    """A checkout parses with adcli/_expr_tables.py, no lark needed; an edited grammar
    needs `python adcli/lalr_tables.py`. Precompiled scanners are for one interpreter
    (others compile them afresh), so they are left out of the comparison."""
    path = GRAMMAR.parent.parent / "adcli" / (lalr_tables.GENERATED_MODULE + ".py")
    spec = importlib.util.spec_from_file_location("shipped_tables", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = {k: v for k, v in module.TABLES.items() if k != "sre"}
    assert shipped == {k: v for k, v in fresh_tables.items() if k != "sre"}, \
        "the grammar changed: run `python adcli/lalr_tables.py` and commit the tables"


def test_tables_of_another_grammar_are_not_used(grammar, monkeypatch):
    edited = grammar.replace('POW_OP: "^" | "**"', 'POW_OP: "^"')
    monkeypatch.setattr(lalr, "grammar_text", lambda: edited)
    made = []
    monkeypatch.setattr(lalr, "_checkout_tables", lambda: made.append(1) or {"made": True})
    assert lalr.load_tables() == {"made": True} and made == [1]


def test_generated_module_holds_the_tables(grammar, fresh_tables, tmp_path):
    target = tmp_path / "tables.py"
    lalr_tables.write_module(grammar, str(target))
    spec = importlib.util.spec_from_file_location("generated_tables", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.TABLES == fresh_tables


def test_tables_are_the_same_whatever_the_string_hashing():
    # lark numbers its states in an order that follows hash(str); regenerating and comparing
    # (the tests above, a cache) needs numbering that does not.
    code = ("import sys; from adcli import lalr, lalr_tables; "
            "sys.stdout.write(lalr_tables.module_source(lalr_tables.generate(lalr.grammar_text())))")
    sources = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}     # (two orders of hash(str) tell it: 5 s each)
    assert len(sources) == 1


def test_precompiled_scanners_are_what_re_compiles(fresh_tables):
    import _sre
    import re

    precompiled = fresh_tables["sre"]
    assert precompiled["tag"] == lalr_tables.sre_tag()
    patterns = {pattern for main, _ in fresh_tables["scanners"] for pattern in main}
    patterns |= {fresh_tables["bulk"][key] for key in ("cut", "named", "ascii")}
    # On CPython every scanner is precompiled, and the one-pass cut of long texts (_Bulk)
    assert set(precompiled["code"]) == patterns
    for pattern, arguments in precompiled["code"].items():
        # Patterns compare equal when their flags and compiled code are the same.
        flags = fresh_tables["bulk"]["ascii_flags"] if pattern.startswith("(?a)") else \
            fresh_tables["flags"]
        assert _sre.compile(pattern, *marshal.loads(arguments)) == re.compile(pattern, flags)


def test_scanners_precompiled_by_another_python_are_compiled_afresh(fresh_tables):
    unusable = {pattern: ("not", "arguments") for pattern in fresh_tables["sre"]["code"]}
    alien = dict(fresh_tables, sre={"tag": ("cpython-39", (3, 9, 0), 0, 4, 1114111),
                                    "code": unusable})
    names = {name for _, _, name, *_ in fresh_tables["rules"] if not name.startswith("_")}
    logs = []
    for tables in (fresh_tables, alien):
        recorder = Recorder(names)
        lalr.Parser(tables, recorder).parse("2x*sin(y)^2 - atan2(1, 2)(3)")
        logs.append(recorder.log)
    assert logs[0] == logs[1] != []


def test_a_checkout_caches_its_tables_until_the_grammar_changes(grammar, fresh_tables,
                                                                 monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert lalr._checkout_tables() == fresh_tables
    assert len(list((tmp_path / "adcli").iterdir())) == 1

    def no_lark(text):
        raise AssertionError("the cached tables should have been used")

    monkeypatch.setattr(lalr_tables, "generate", no_lark)
    assert lalr._checkout_tables() == fresh_tables

    # A grammar that differs: the cache must not answer for it.
    edited = grammar.replace('POW_OP: "^" | "**"', 'POW_OP: "^"')
    assert edited != grammar
    monkeypatch.setattr(lalr, "grammar_text", lambda: edited)
    with pytest.raises(AssertionError, match="cached tables"):
        lalr._checkout_tables()


# ----- the tables parse as lark does --------------------------------------------------------

class Recorder:
    """A builder with a method for every rule callback (and for the terminals named in
    ``terminals``, which get each shifted token), logging each call in order."""

    def __init__(self, names, terminals=()):
        self.log = []
        for name in names:
            setattr(self, name, self._method(name))
        for name in terminals:
            setattr(self, name, self._on_token(name))

    def _method(self, name):
        def call(children):
            self.log.append((name, tuple(describe(c) for c in children)))
            return len(self.log)
        return call

    def _on_token(self, name):
        def call(token):
            self.log.append((name, describe(token)))
            return -len(self.log)
        return call


class RecorderWithDefault(Recorder):
    """lark calls ``__default__`` (as a lark Transformer has) for rules with no method,
    ``_rule``s too: like lark's, this one returns a tree, whose children get spliced."""

    def __default__(self, data, children, meta):
        self.log.append(("default", data, tuple(describe(c) for c in children), meta))
        return lalr.Tree(f"made by default: {data}", children)


def describe(value):
    """A value as lark or the tables hand it over: a token, a Tree (a rule with no builder
    method), or what a builder method returned (here an int)."""
    if isinstance(value, int):
        return value
    if hasattr(value, "children"):
        return ("tree", value.data, tuple(describe(c) for c in value.children))
    return (value.type, str(value), value.start_pos, value.end_pos)


def _fragments():
    return ["x", "y1", "θ", "2", "3.5", ".5", "1e3", "2E-1", "pi", "e", "sin(", "atan2(",
            "foo (", "(", ")", ",", "+", "-", "\u2212", "*", "/", "\u00d7", "\u00f7", "\u00b7",
            "^", "**", "²", "⁻¹", " ", "\t", "#", "√", "\n", "_", "x²y"]


def _valid_expressions(rng, count):
    """Random well-formed expressions, built bottom-up from a pool (no recursion)."""
    pool = ["x", "y", "2", "0.5", "pi", "1e-3", "(x)", "t2"]
    forms = ["{a} + {b}", "{a}-{b}", "{a}*{b}", "{a}/{b}", "{a}^{b}", "{a}**-{b}", "-{a}",
             "({a})", "sin({a})", "atan2({a}, {b})", "2({a})", "({a})({b})", "3{v}", "({a})²",
             "{v}⁻¹", "2 {v}^{b}", "+{a}", "max({a},{b}) ", "({a})^-{b}"]
    out = []
    for _ in range(count):
        form = rng.choice(forms)
        text = form.format(a=rng.choice(pool), b=rng.choice(pool), v=rng.choice("xyz"))
        pool.append(text if len(text) < 60 else rng.choice(pool[:8]))
        out.append(text)
    return out


def _corpus():
    """Valid expressions, the same with one character dropped or a fragment slipped in (so
    most fail late, after many reductions), and random strings of fragments."""
    rng = random.Random(12)
    fragments = _fragments()
    valid = _valid_expressions(rng, 1500)
    damaged = []
    for text in valid:
        cut = rng.randrange(len(text))
        damaged.append(text[:cut] + text[cut + 1:] if rng.random() < 0.5
                       else text[:cut] + rng.choice(fragments) + text[cut:])
    noise = ["".join(rng.choice(fragments) for _ in range(rng.randint(1, 10)))
             for _ in range(1500)]
    return valid + damaged + noise


@pytest.mark.parametrize("bulk", [lalr.BULK, 0], ids=["as-is", "cut-in-one-pass"])
def test_tables_make_the_same_builder_calls_and_rejections_as_lark(grammar, fresh_tables,
                                                                   bulk, monkeypatch):
    # bulk 0: every text is cut into tokens in one pass first, as texts of 4 KB and more
    monkeypatch.setattr(lalr, "BULK", bulk)
    names = {name for _, _, name, *_ in fresh_tables["rules"] if not name.startswith("_")}
    lark_recorder = Recorder(names)
    lark = lalr_tables.make_lark(grammar, transformer=lark_recorder)
    table_recorder = Recorder(names)
    tables = lalr.Parser(fresh_tables, table_recorder)
    accepted = 0
    for text in _corpus():
        lark_recorder.log, table_recorder.log = [], []
        try:
            lark.parse(text)
            lark_accepts = True
        except UnexpectedInput:
            lark_accepts = False
        try:
            tables.parse(text)
            tables_accept = True
        except lalr.Rejected:
            tables_accept = False
        assert (tables_accept, table_recorder.log) == (lark_accepts, lark_recorder.log), text
        accepted += lark_accepts
    assert 1500 <= accepted < 3000   # the corpus has both kinds in number
    assert (tables._bulk is None) == (bulk > 0)  # the one-pass cut ran when asked for


def test_a_long_text_is_cut_in_one_pass_with_the_same_nodes(monkeypatch):
    # 1,000 terms with unary signs (read as ADD_OP by the one pass, SIGN by their state),
    # calls, powers, spaces and superscripts: the same nodes either way
    text = " + ".join(f"-sin(x*{k})^2*exp(-y/{k}) - (x - {k})²" for k in range(1, 1001))
    monkeypatch.setattr(lalr, "BULK", 10 ** 9)
    nodes = adcli.parse(text).nodes
    asked = []
    rescan = lalr.Parser._rescan
    monkeypatch.setattr(lalr.Parser, "_rescan", lambda *a: asked.append(1) or rescan(*a))
    monkeypatch.setattr(lalr, "BULK", 0)
    assert adcli.parse(text).nodes == nodes
    assert parser._parser()._bulk and len(asked) == 2000  # each "-sin", each "-y"


def test_a_long_latex_text_is_cut_in_one_pass_with_the_same_nodes(monkeypatch):
    # LaTeX's commands are terminals of their own, tried before NAME (which reads \sin):
    # the one pass must cut \sqrt[3] before \sqrt[ before \sqrt, as each state does
    text = " + ".join(f"\\frac{{\\sin x}}{{{k}}} \\cdot \\sqrt[3]{{x}} - \\sqrt[4]{{x_{{1}}}}"
                      f" \\times \\left( \\sqrt{{x}} \\, \\alpha \\right) + \\lvert"
                      f" \\operatorname{{sech}} x \\rvert" for k in range(1, 501))
    monkeypatch.setattr(lalr, "BULK", 10 ** 9)
    nodes = adcli.parse(text).nodes
    monkeypatch.setattr(lalr, "BULK", 0)
    assert adcli.parse(text).nodes == nodes
    assert parser._parser()._bulk
    second, bars = text.split(" + ")[2], text.split(" + ")[1]   # k = 2's first part; bars
    assert adcli.parse(second).parsed == "((sin(x)/2)*cbrt(x)) - ((x_1^(1/4))*(sqrt(x)*α))"
    assert adcli.parse(bars).parsed == "abs(sech(x))"


def test_the_one_pass_order_keeps_each_scanner_s_and_prefers_the_commoner_terminal():
    tables = lalr.load_tables()
    scanners = [[lalr_tables._named(a) for p in patterns
                 for a in lalr_tables._alternatives(p)]
                for patterns, _ in tables["scanners"]]
    order = [name for name, _ in lalr_tables._one_order(scanners, tables["scanner"])]
    for scanner in scanners:
        names = [name for name, _ in scanner]
        assert sorted(names, key=order.index) == names
    assert order.index("ADD_OP") < order.index("SIGN")  # "-" is binary more often


def test_the_characters_a_terminal_may_begin_with():
    first = lalr_tables._first_atoms
    assert first(r"\\sqrt\[", 0) == [r"\\"]
    assert first(r"(?:\*|/|×)", 0) == ["[\\*/×]"]
    assert first(r"\\?[^\W\d]\w*", 0) == [r"\\", r"[^\W\d]"]   # an optional start
    assert first(r"(?:\$\$?|\\[)\]])\s*[.,]", 0) == [r"\$", r"\\"]
    assert first(r"[+-]?\d+", 0) == [r"[\+\-]", r"[\d]"]
    assert first(r"a?b?", 0) is None and first(r"(a|)b", 0) is None   # may match nothing
    assert first(r".x", 0) is None


def test_runs_of_terminals_no_name_number_or_space_begins_with_are_behind_one_look():
    cut = lalr_tables._guarded([r"\\frac", r"\\sqrt", r"[a-z]+", r"\s+", r"\*", r"\("], 0)
    assert cut == r"(?:(?=\\)(?:\\frac|\\sqrt))|(?:[a-z]+)|(?:\s+)|(?:(?=\*|\()(?:\*|\())"
    text = r"\frac\sqrt ab*(c"
    assert re.findall(cut, text) == ["\\frac", "\\sqrt", " ", "ab", "*", "(", "c"]


@pytest.mark.parametrize("space", ["\x1c", "\x1f", "\u2003", "\t"])
def test_the_one_pass_reads_unicode_s_spaces_as_the_scanners_do(space, monkeypatch):
    # \x1c-\x1f are spaces to Unicode's \s, not to ASCII's: an ASCII text holding one is
    # cut with the Unicode expression; the others with the faster ASCII one
    text = " + ".join(f"sin(x*{k}){space}*exp(y/{k})" for k in range(1, 301))
    monkeypatch.setattr(lalr, "BULK", 10 ** 9)
    nodes = adcli.parse(text).nodes
    monkeypatch.setattr(lalr, "BULK", 0)
    assert adcli.parse(text).nodes == nodes
    assert parser._parser()._bulk.tokens(text) is not None   # cut in one pass, end to end


def test_regular_expression_pieces():
    pieces = lalr_tables
    assert pieces._alternatives(r"a|(b|c)|[|]|\|d|[]|]") == ["a", "(b|c)", "[|]", r"\|d", "[]|]"]
    assert pieces._non_capturing(r"(\d+)(?:x)(?P<n>[(])\(") == r"(?:\d+)(?:x)(?:[(])\("
    assert [pieces._plain(p, 0) for p in (r"\d+", r"x\b", r"(?=a)a", r"^a", r"a*", r"(a)\1")] \
        == [True, False, False, False, False, False]


# A terminal one state does not scan for (AB after "x") that is longer than the one it does
# (A): the one pass reads "ab" as AB there, the state's scanner reads "a".
SHORTER = r'''
start: "x" A B | AB "!"
A: "a"
B: "b"
AB: "ab"
'''


@pytest.mark.parametrize("text", ["xab", "ab!", "xab!", "ab", "x ab"])
def test_where_the_one_pass_reads_another_extent_the_state_s_scanner_takes_over(
        text, monkeypatch):
    monkeypatch.setattr(lalr, "BULK", 0)
    tables = lalr_tables.generate(SHORTER)
    results = []
    for make in (lambda b: lalr_tables.make_lark(SHORTER, transformer=b),
                 lambda b: lalr.Parser(tables, b)):
        recorder = RecorderWithDefault(["start"])
        try:
            results.append((describe(make(recorder).parse(text)), recorder.log))
        except (UnexpectedInput, lalr.Rejected):
            results.append(("rejected", recorder.log))
    assert results[0] == results[1]
    assert (results[0][0] == "rejected") == (text in ("xab!", "ab", "x ab"))


# A grammar using lark features expr.lark does not use yet, so a new grammar can use them:
# a keyword that NAME also matches, '+' repetition, an inlined _rule, a rule with no builder
# method (lark makes a Tree), a terminal with a builder method, a priority, an ignored space.
TOY_GRAMMAR = r"""
start: stmt+
stmt: "let" NAME "=" expr ";"      -> let
    | expr ";"
?expr: expr "+" term
    | term
?term: NAME | NUMBER | "(" expr ")" | call | pair
call: NAME "(" _args? ")"
pair: "<" expr "," expr ">"
_args: expr ("," expr)*
NAME: /[a-z]+/
NUMBER.2: /\d+/
%ignore " "
"""
TOY_INPUTS = ["let x = 1;", "let = 1;", "lets;", "f(a, b+2, g());", "1+2+3; let y = x; y;",
              "(a + <1, b>);", "<1 2>;", "f(,);", "let x = ;", "x", "", ";", "a + + b;",
              "let let = 1;", "f(a)(b);", "12ab;", "ab12;", "f(<a,b>,(c)) + d;"]


@pytest.mark.parametrize("bulk", [lalr.BULK, 0], ids=["as-is", "cut-in-one-pass"])
@pytest.mark.parametrize("builder", [Recorder, RecorderWithDefault])
@pytest.mark.parametrize("text", TOY_INPUTS)
def test_tables_follow_lark_on_grammar_features_adcli_may_use(text, builder, bulk,
                                                              monkeypatch):
    monkeypatch.setattr(lalr, "BULK", bulk)  # 0: asked for, but keywords rule it out
    tables = lalr_tables.generate(TOY_GRAMMAR)
    names = ["let", "stmt", "call"]          # none for start, pair: lark builds Trees
    results = []
    for make in (lambda b: lalr_tables.make_lark(TOY_GRAMMAR, transformer=b),
                 lambda b: lalr.Parser(tables, b)):
        recorder = builder(names, terminals=["NUMBER"])
        try:
            results.append((describe(make(recorder).parse(text)), recorder.log))
        except (UnexpectedInput, lalr.Rejected):
            results.append(("rejected", recorder.log))
    assert results[0] == results[1]


def test_parse_gives_the_same_nodes_and_errors_with_or_without_lark(monkeypatch):
    def outcomes():
        result = []
        for text in _corpus()[::3]:
            try:
                result.append(adcli.parse(text).nodes)
            except ExpressionError as error:
                result.append(str(error))
        return result

    with_tables = outcomes()

    def reject(self, text):
        raise lalr.Rejected

    monkeypatch.setattr(lalr.Parser, "parse", reject)   # every input goes to lark
    assert with_tables == outcomes()


def test_a_rejected_input_is_explained_by_lark_with_a_caret():
    with pytest.raises(ExpressionError) as caught:
        adcli.parse("sin(x,")
    assert str(caught.value) == ("unexpected end of expression; expected a number, a name, "
                                 "'(' or '|' (column 7)\n  sin(x,\n        ^")


def test_deep_nesting_does_not_recurse():
    depth = 100_000
    expression = adcli.parse("(" * depth + "x" + ")" * depth)
    assert [node.kind for node in expression.nodes] == ["variable"]


# ----- what a run imports --------------------------------------------------------------------

RUN_AND_LIST_MODULES = """
import io, sys
from adcli.cli import main
sys.stdout = io.StringIO()
code = main(sys.argv[1:])
sys.stdout = sys.__stdout__
print(code, " ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def _imports(*args):
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, *args],
                          capture_output=True, text=True, check=True)
    code, modules = done.stdout.split(" ", 1)
    return int(code), set(modules.split())


# What only some runs need (lark: explaining a syntax error; rich: tables; the rest: graph -o;
# locale: gettext's lookup of a translation, which click's default help texts go through).
RARELY_NEEDED = {"lark", "interegular", "hashlib", "subprocess", "shutil", "secrets", "tempfile",
                 "locale"}


@pytest.mark.parametrize("fmt, unwanted", [
    ("json", RARELY_NEEDED | {"rich"}),
    ("table", RARELY_NEEDED | {"rich"}),   # for a pipe, drawn without rich
])
def test_a_one_point_run_leaves_heavy_modules_unimported(fmt, unwanted):
    code, modules = _imports("grad", "exp(x^2)^2", "--at", "x=0.5", "--format", fmt)
    assert code == 0
    assert modules & unwanted == set(), sorted(modules)
    assert "numpy" in modules   # the listing works


def test_a_syntax_error_loads_lark_to_explain_it():
    code, modules = _imports("grad", "exp(x^2", "--at", "x=0.5", "--format", "json")
    assert code == 2
    assert "lark" in modules


def _without_lark(*argv: str):
    """adcli in a child Python where importing lark fails, as for a Python that adcli was
    not installed into, running it from this checkout."""
    code = ("import sys; sys.modules['lark'] = None\n"
            "from adcli.cli import main\nsys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                          text=True, timeout=120)


def test_a_valid_expression_needs_no_lark():
    done = _without_lark("grad", "exp(x^2)^2", "--at", "x=0.5", "--format", "plain")
    # e^0.5 and its derivative 4x e^(2x^2) = 2 e^0.5 at 0.5
    assert (done.returncode, done.stderr) == (0, "")
    value, slope = map(float, done.stdout.split())
    assert math.isclose(value, math.exp(0.5), rel_tol=4 * 2**-52)
    assert math.isclose(slope, 2 * math.exp(0.5), rel_tol=4 * 2**-52)


def test_a_missing_dependency_is_one_clear_line_not_an_internal_error():
    done = _without_lark("grad", "exp(x^2", "--at", "x=0.5")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "the Python package 'lark' is not installed" in done.stderr
    assert "pip install" in done.stderr


COLLECTIONS_IN_A_RUN = """
import gc, io, sys
import adcli.start                      # the program's first module, as the adcli script has it
before = "numpy" in sys.modules, gc.isenabled()
counts = [0]
gc.callbacks.append(lambda phase, info: phase == "start" and counts.__setitem__(0, counts[0] + 1))
sys.argv = ["adcli", *sys.argv[1:]]
sys.stdout = io.StringIO()
try:
    adcli.start.entry()
except SystemExit as stop:
    code = stop.code
sys.stdout = sys.__stdout__
print(code, before, counts[0], gc.isenabled())
"""


def test_the_program_runs_without_the_cycle_collector():
    """adcli.start turns the collector off before numpy is imported, and nothing turns it on:
    no collection runs in a one-point run (a run that imported numpy first, as before, had
    dozens, each rescanning what the imports made)."""
    done = subprocess.run([sys.executable, "-c", COLLECTIONS_IN_A_RUN, "grad", "exp(x^2)^2",
                           "--at", "x=0.5", "--format", "json"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "(False,", "False)", "0", "False"]


def test_the_adcli_script_starts_at_adcli_start():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "adcli"]
    assert script.value == "adcli.start:entry"


def test_importing_adcli_leaves_numpy_for_the_first_use():
    code = ("import sys, adcli; before = 'numpy' in sys.modules\n"
            "f = adcli.parse('x^2')\n"
            "print(before, 'numpy' in sys.modules, float(f.grad(x=3.0)['x']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True", "6.0"]


def test_every_public_name_of_adcli_is_there():
    import adcli

    homes = {"parse": "expression", "jacobian": "expression", "check": "checking",
             "Expression": "expression", "Result": "expression", "CheckResult": "checking",
             "Variable": "core", "Function": "core", "no_grad": "core",
             "AdcliError": "errors", "AdcliWarning": "errors", "ExpressionError": "errors",
             "ValuesError": "errors", "PointsError": "errors"}
    assert sorted(adcli.__all__) == sorted(homes)
    for name, home in homes.items():
        assert getattr(adcli, name) is getattr(importlib.import_module(f"adcli.{home}"), name)
        assert name in dir(adcli)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        adcli.nothing
