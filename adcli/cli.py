"""The adcli command line: argument handling only; the work lives in the library."""
from __future__ import annotations

import gc
import os
import re
import sys

import click

from . import __version__
from .commands import COMMANDS, load
from .options import Whole
from .errors import (EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_IO, AdcliError,
                     ExpressionError, ValuesError, error_text, escape, quiet, terminal_width)
from .streams import STREAM_FORMATS
from .render import FORMATS

_OPTION_LIKE = r"--[A-Za-z][\w-]*(=.*)?\Z"  # compiled by re's cache, for an unknown option
_HELP_WIDTH = 100   # click's max_content_width: help is no wider, however wide the terminal
_state = {"debug": False}


class _HelpFormatter(click.HelpFormatter):
    """click's help layout, but below its own minimum of 50 columns (on a terminal that
    narrow, see main) the names of options take at most a third of a line, which leaves
    their help more than a word or two."""

    def write_dl(self, rows, col_max=30, col_spacing=2):
        rows = list(rows)
        if self.width < 50:
            col_max = min(col_max, max(self.width // 3, 8))
        first_col = min(max(click.formatting.term_len(name) for name, _ in rows),
                        col_max) + col_spacing
        room = self.width - self.current_indent - first_col
        if any(click.formatting.term_len(word) > room for _, text in rows
               for word in text.split()):
            self._write_stacked(rows)   # click would break that word to fit its column
        else:
            super().write_dl(rows, col_max, col_spacing)

    def _write_stacked(self, rows):
        # Each name on a line of its own and its text under it, indented 4 and folded
        # between words: a column too narrow for a word leaves no other way not to cut it.
        from .tables import fold

        lead = " " * (self.current_indent + 4)
        for name, text in rows:
            self.write(f"{'':>{self.current_indent}}{name}\n")
            for line in fold(text.split(), self.width - len(lead),
                             click.formatting.term_len, ""):
                self.write(f"{lead}{line}\n")

    def write_text(self, text):
        # Examples (a \b paragraph of "adcli ..." lines, which click keeps as written)
        # wider than the terminal would be broken by it inside a word: they are folded
        # here between shell words, ending each line but the last with " \", so that a
        # folded example still reads, and pastes into a shell, as one command.
        room = self.width - self.current_indent
        paragraphs = text.split("\n\n")
        for k, paragraph in enumerate(paragraphs):
            lines = paragraph.split("\n")
            if lines[0] == "\b" and all(line.lstrip().startswith("adcli ")
                                         for line in lines[1:]):
                paragraphs[k] = "\n".join(["\b", *(folded for line in lines[1:]
                                                     for folded in _example(line, room))])
        super().write_text("\n\n".join(paragraphs))


def _example(line: str, width: int) -> list[str]:
    """A command line in lines of at most ``width``, each but the last ending in " \\"
    (the shell's line continuation), broken before options, else between the command's
    words. An option is parted from its value only where the two are wider than the
    terminal (the continuation indent shrinks for them first, as for a quoted argument,
    which is never broken), nor is a line that fits."""
    if len(line) <= width:
        return [line]
    from .tables import fold

    lead = line[:len(line) - len(line.lstrip())]
    units: list[list[str]] = []     # the command and its arguments, then each option
    for word in re.findall(r"""(?:"[^"]*"|'[^']*'|[^\s"'])+""", line):
        if units and not word.startswith("-"):
            units[-1].append(word)
        else:
            units.append([word])
    command = " ".join(units[0])    # (one piece if it fits after a continuation's indent)
    pieces = [command] if len(command) <= width - len(lead) - 4 else units[0]
    for unit in units[1:]:  # (at 20 columns, "--points points.csv \\" is 22 wide)
        pieces += [" ".join(unit)] if len(" ".join(unit)) <= width - 2 else unit
    lines = fold([lead + pieces[0], *pieces[1:]], width - 2, len, lead + "  ")
    return [f"{text} \\" for text in lines[:-1]] + lines[-1:]


class _Context(click.Context):
    formatter_class = _HelpFormatter


class _PlainHelpOption:
    """-h/--help as click's, its text given: click's own is built through gettext, whose
    lookup imports locale (~1 ms of every start-up, for a translation adcli never has)."""

    def get_help_option(self, ctx):
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        if getattr(self, "_plain_help", None) is None:
            self._plain_help = click.Option(names, is_flag=True, is_eager=True,
                                            expose_value=False, callback=_show_help,
                                            help="Show this message and exit.")
        return self._plain_help


def _show_help(ctx, param, value) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


class ExpressionCommand(_PlainHelpOption, click.Command):
    """A command whose expression may start with "-" (as in "-x^2" or "-cos(x)"): a
    single-dash word that is not one of its options is an argument, while a misspelt long
    option (``--att``) is still an error.

    Left to click, "-cos(x)" would be the flags -c, -o and -s... combined, and -o would
    take "s(x)" as its file. So click sees only the words that are options: a word with
    an option's short name glued to a value (``-oplot.png``) when it does not read as an
    expression (``-ox`` does), else none.

    ``-h`` alone is help. It is not a click option here, because click would then read
    the h of "-h^2" as one too; write the expression -h as "(-h)" or after "--"."""

    context_class = _Context
    refused: dict[str, str] = {}    # shared options the command does not take: why not

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("context_settings", {}).update(ignore_unknown_options=True,
                                                         help_option_names=["--help"])
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx, args):
        options = {o: p for p in self.get_params(ctx) if isinstance(p, click.Option)
                   for o in p.opts + p.secondary_opts}
        waiting, given, helped = None, {}, False    # given: each option's values, in order
        args, words = list(args), {}
        at, loose = [], set()   # --at's values by place; the places of the arguments
        for i, arg in enumerate(args):
            if arg == "--":
                loose.update(range(i + 1, len(args)))
                ctx.meta[_AFTER_DASHES] = _options_in(args[i + 1:], options)
                break  # everything after it is an argument, even "--x"
            if waiting is not None:     # its value, whatever it looks like
                given[waiting].append(arg)
                if "--at" in waiting.opts:
                    at.append((i, arg))
                waiting = None
                continue
            if arg in ("-h", "--help"):
                args[i], helped = "--help", True
                continue
            name = arg.split("=", 1)[0]
            if name not in options and arg[:2] == "--" and re.match(_OPTION_LIKE, arg):
                if name in self.refused:
                    raise click.UsageError(f"{name}: {self.refused[name]}", ctx=ctx)
                _other_commands_option(name, ctx)
                raise click.NoSuchOption(name, possibilities=list(options), ctx=ctx)
            if arg[:1] == "-" and arg[:2] != "--" and len(arg) > 1 and arg not in options \
                    and (arg[:2] not in options or _whole_expression(arg)):
                args[i] = f"\0{i}"     # an argument to click (no argument holds a NUL)
                words[args[i]] = arg
                loose.add(i)
                continue
            spelling = name if arg[:2] == "--" else arg[:2]
            option = options.get(spelling)
            if option is not None and not option.is_flag:
                given.setdefault(option, [])
                if len(arg) > len(spelling):    # its value glued on: --digits=3, -oplot.png
                    given[option].append(arg[len(spelling) + (arg[:2] == "--"):])
                    if "--at" in option.opts:
                        at.append((i, given[option][-1]))
                else:
                    waiting = option
            elif option is None and arg[:1] != "-":
                loose.add(i)
        if not (helped or ctx.resilient_parsing):   # (help first, as click has it)
            _given_once(given, ctx)
        ctx.meta[_SPLIT_AT] = [(value, _after(args, i, loose, words)) for i, value in at
                               if "=" not in value or value.rstrip().endswith("=")]
        rest = super().parse_args(ctx, args)
        for key, value in ctx.params.items() if words else ():  # the words, in their places
            if isinstance(value, tuple):
                ctx.params[key] = tuple(words.get(v, v) if isinstance(v, str) else v
                                        for v in value)
        return rest


_AFTER_DASHES = "adcli.after_dashes"    # ctx.meta: the words after "--" that are options,
# each with whether it was written with its value (--format csv, --at=x=1)


def _options_in(words: list[str], options: dict) -> list[tuple[str, bool]]:
    """The words that name an option, each with whether a value follows it (in it, after
    '=', or as the next word, for an option that takes one)."""
    found = []
    for k, word in enumerate(words):
        name, equals, _ = word.partition("=")
        if name in options:
            found.append((word, bool(equals) or (not options[name].is_flag
                                                 and k + 1 < len(words))))
    return found
_SPLIT_AT = "adcli.split_at"     # ctx.meta: --at's values that are no pair, each with
# the arguments that follow it on the command line (--at x= 1: the shell split the pair)


def _after(args: list[str], i: int, loose: set, words: dict) -> list[str]:
    """The arguments right after place i of the command line (two at most), as typed."""
    found = []
    for j in range(i + 1, min(i + 3, len(args))):
        if j not in loose:
            break
        found.append(words.get(args[j], args[j]))
    return found


def _other_commands_option(name: str, ctx) -> None:
    """An unknown option that another command takes (jacobian --order: grad's) is said to
    be that command's: click's near misses among this command's own would mislead."""
    group = ctx.parent.command if ctx.parent is not None else None
    if not isinstance(group, _Commands):
        return
    owners = [f"adcli {command}" for command in sorted(COMMANDS)
              if command != ctx.info_name and any(
                  name in p.opts + p.secondary_opts
                  for p in group.get_command(ctx.parent, command).params
                  if isinstance(p, click.Option))]
    if owners:
        listed = " and ".join([", ".join(owners[:-1]), owners[-1]] if owners[1:] else owners)
        raise click.UsageError(f"No such option '{name}' for adcli {ctx.info_name}: {name} "
                               f"is an option of {listed}", ctx=ctx)


def _given_once(given: dict, ctx) -> None:
    """Refuse a second value of an option that takes one: click would keep the last
    silently (--points a.csv --points b.csv read b only). The same value again loses
    nothing, as a flag given twice does not."""
    for option, values in given.items():
        if len(set(values)) > 1 and not option.multiple:
            times = "twice" if len(values) == 2 else f"{len(values)} times"
            how = "give it once"
            if "," in (option.metavar or ""):   # X,Y: it takes several in one value
                how += f", as {max(option.opts, key=len)} {','.join(values)}"
            raise click.UsageError(f"{'/'.join(option.opts)} is given {times} "
                                   f"({', '.join(values)}): {how}", ctx=ctx)


class _Commands(_PlainHelpOption, click.Group):
    """The commands of adcli.commands.COMMANDS, each built when it is first asked for."""

    context_class = _Context

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name in COMMANDS and name not in self.commands:
            self.add_command(_click_command(load(name)))
        return self.commands.get(name)

    def resolve_command(self, ctx, args):
        if args and args[0] not in COMMANDS:
            if args[0].lower() in _DIFFERENTIATE:   # a near miss of click's would be none
                raise click.UsageError(f"No such command '{args[0]}': to compare a hand "
                                       "derivative, use adcli check; to differentiate, "
                                       "adcli grad", ctx=ctx)
            for name in COMMANDS:  # click suggests a near miss from the commands it has
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)


# Commands other tools call differentiating by (diff, D, deriv): none of adcli's.
_DIFFERENTIATE = {"d", "diff", "deriv", "derive", "derivative", "derivatives",
                  "differentiate"}


def _show_version(ctx, value: bool) -> None:
    # (not click.version_option: its defaults go through gettext, whose lookup imports
    # locale, ~1 ms of every start-up)
    if value and not ctx.resilient_parsing:
        click.echo(f"adcli, version {__version__}")
        ctx.exit()


@click.group(cls=_Commands,
             context_settings={"max_content_width": _HELP_WIDTH,
                               "help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _, value: _show_version(ctx, value),
              help="Show the version and exit.")
@click.option("--debug", is_flag=True, help="Show the Python traceback of an internal error.")
@click.pass_context
def cli(ctx, debug):
    """Derivative values of a formula, by reverse-mode automatic differentiation.

    \b
      adcli grad "exp(x^2)^2" --at x=0.5
      adcli grad "sin(x1)+x1*x2" --at x1=1,x2=2 --format json
      adcli hessian "x^2*y + sin(y)" --at x=1,y=2
      adcli grad "x*y" --points points.csv --format csv

    Shell completion (bash; zsh_source, fish_source for zsh, fish):

    \b
      eval "$(_ADCLI_COMPLETE=bash_source adcli)"
    """
    _state["debug"] = debug
    if ctx.invoked_subcommand is None:  # a usage error: stdout stays empty
        _error(_no_command(ctx))
        ctx.exit(EXIT_BAD_INPUT)


def _no_command(ctx) -> str:
    """Bare ``adcli``: one message, its first line saying what is wrong, then the commands
    with their summaries. The whole help would bury that line under 27 others."""
    columns = terminal_width(sys.stderr)
    formatter = _HelpFormatter(width=max(min(columns, _HELP_WIDTH) - 2, 20) if columns
                               else _HELP_WIDTH)   # (piped: each command on one line)
    ctx.command.format_commands(ctx, formatter)
    listing = formatter.getvalue().split("\n", 1)[1].rstrip("\n")  # (no "Commands:")
    return ("adcli: error: no command given: name one of these ('adcli --help' tells "
            f"more):\n{listing}")


class _InputFile(click.File):
    """click.File, with a NUL in the name a usage error rather than a ValueError."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and "\x00" in value:
            self.fail(f"{value!r}: a file name cannot contain a NUL byte", param, ctx)
        if value == "-" and sys.stdin is None:  # started with stdin closed (<&-)
            raise click.UsageError(f"{max(param.opts, key=len)} -: {_STDIN_CLOSED}", ctx=ctx)
        return super().convert(value, param, ctx)


_STDIN_CLOSED = "stdin is closed (pipe the input in, or give a file)"


def points_options(command, formats=None, own=None):
    """The options every evaluating command shares: where points come from, how to print.
    ``own``: a command's ``shared_options``, by option name: a dict of click.option
    arguments that replace the shared ones (its own help), or a string, the reason it
    does not take the option (left out of its --help; ExpressionCommand says why)."""
    formats, own = list(formats or FORMATS), own or {}
    options = {
        "--at": (("--at", "at"), dict(multiple=True, metavar="NAME=VALUE[,...]",
                 help="Values of variables, e.g. --at x=1,y=pi/4 (repeatable).")),
        "--grid": (("--grid",), dict(multiple=True, metavar="NAME=START:STOP:N",
                   help="N evenly spaced values, ends included; several --grid make a "
                        "product.")),
        "--points": (("--points", "points_file"), dict(
            type=_InputFile("r", encoding="utf-8-sig"), metavar="FILE",
            help="Points, one per row: CSV, TSV, whitespace-separated or JSON Lines, with a "
                 "header of names ('-' for stdin).")),
        "--points-format": (("--points-format",), dict(type=click.Choice(STREAM_FORMATS),
                            help="The format of --points (default: detected from its "
                                 "first line).")),
        "--columns": (("--columns",), dict(metavar="X,Y", help="Names of the columns of "
                      "--points input that has no header row.")),
        "--skip-bad-rows": (("--skip-bad-rows",), dict(is_flag=True, help="Skip malformed "
                            "rows of --points (counted on stderr) instead of stopping.")),
        # (the choices in the help text, not in the option's column: "[table|json|jsonl|
        # csv|tsv|plain]" there is wider than a 40-column terminal)
        "--format": (("--format", "fmt"), dict(type=click.Choice(formats), metavar="FORMAT",
                     default=formats[0], show_default=True,
                     help=f"Output format: {', '.join(formats[:-1])} or {formats[-1]}.")),
        **({"--no-header": (("--no-header",), dict(is_flag=True, help="No header line in "
            f"{' or '.join(f for f in ('csv', 'tsv') if f in formats)} output."))}
           if {"csv", "tsv"} & set(formats) else {}),
        "--digits": (("--digits",), dict(type=Whole(1, 17), metavar="N",
                     help="Round results to N significant digits (never the points).")),
        "--strict": (("--strict",), dict(is_flag=True, help="Exit 3 on any nan/inf result; "
                     "make unused --at names errors.")),
        "--let": (("--let", "let"), dict(multiple=True, metavar="NAME=EXPRESSION",
                  help="Define a name for a sub-expression, e.g. --let F=\"x^2+y^2-1\" "
                       "(repeatable).")),
    }
    for name, (declarations, attributes) in reversed(options.items()):
        if not isinstance(own.get(name), str):
            command = click.option(*declarations, **{**attributes,
                                                     **own.get(name, {})})(command)
    return command


def _wrt_option(command):
    return click.option("--wrt", metavar="X,Y", help="Differentiate only with respect to these "
                        "(the others are parameters that still need values).")(command)


def _click_command(command_class) -> click.Command:
    """The click command of one entry of adcli.commands.COMMANDS."""
    argument = "expressions" if command_class.many else "expression"

    def callback(wrt=None, **options):
        given = tuple(e if e.startswith("@") else _as_typed(e, "the expression")
                      for e in options.pop(argument))
        wrt, options = _typed_options(wrt, options)
        meta = click.get_current_context().meta
        _options_after_dashes(given, meta.get(_AFTER_DASHES, ()), command_class.many)
        _stray_words(given, meta.get(_SPLIT_AT, ()))
        if given.count("@-") > 1:
            raise click.UsageError("@- is given twice, and stdin can be read once: put the "
                                   "expressions in files (@FILE)")
        points = options.get("points_file")     # (a file opened by name has that name)
        if points is not None and "@-" in given and \
                getattr(points, "name", "<stdin>") == "<stdin>":
            raise click.UsageError("@- and --points - both read stdin: put the expression or "
                                   "the points in a file")
        texts = ([_expression_text(e) for e in given] if command_class.many
                 else _one(given))
        try:
            return command_class.main(texts, wrt, **options)
        except BrokenPipeError:
            raise _ReaderGone() from None   # click would make an EPIPE exit status 1
        except KeyboardInterrupt:
            raise _Interrupted() from None  # click would end stderr's line, a file's too

    callback.__doc__ = command_class.help + "".join(
        ["\n\n\b\n", *(f"  {e}\n" for e in command_class.examples)] if command_class.examples
        else [])  # \b: click keeps these lines as they are
    own = command_class.shared_options
    callback = points_options(callback, command_class.formats, own)
    for option in reversed(command_class.options):
        callback = option(callback)
    if command_class.differentiates:
        callback = _wrt_option(callback)
    # nargs=-1 catches an expression the shell split (_one says so); the usage line shows
    # one EXPRESSION, not "EXPRESSION...", unless the command takes several.
    metavar = command_class.metavar or ("EXPRESSIONS..." if command_class.many else "EXPRESSION")
    callback = click.argument(argument, nargs=-1, required=True, metavar=metavar)(callback)
    command = click.command(command_class.name, cls=ExpressionCommand,
                            short_help=_summary(command_class))(callback)
    command.refused = {name: why for name, why in own.items() if isinstance(why, str)}
    return command


def _summary(command_class) -> str:
    """A command's line in adcli --help: given to click whole, so that the list folds it
    between words; click's own, made from the help, is cut at the width with "..."."""
    return command_class.summary or re.match(r"(.*?[.?!])(?:\s|\Z)", command_class.help + " ",
                                             re.S).group(1)


class _ReaderGone(Exception):
    """The reader of stdout went away (``| head``): it has all it wants, so exit 0."""


class _Interrupted(Exception):
    """Ctrl-C during a command's run, kept from click, which writes a newline to stderr
    whatever it is: only a terminal's line (its ^C, a progress bar) needs ending."""


def _as_typed(text: str, what: str) -> str:
    """An argument as typed: where the locale's encoding (C's is ASCII) could not decode
    its bytes, Python keeps them as lone surrogates, which no parser reads; those bytes
    are nearly always UTF-8 from the terminal. Where they are not, say so rather than
    blame a character ('\\udcce') the user never typed."""
    try:
        text.encode("utf-8")    # (no lone surrogate: the common case, one look in C)
        return text
    except UnicodeEncodeError:
        pass
    if "utf" in sys.getfilesystemencoding().lower():
        return text     # (bytes not UTF-8 under a UTF-8 locale: the reader names where)
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        raise ValuesError(f"{what} is not text in this terminal's encoding "
                          f"({sys.getfilesystemencoding()}): run with a UTF-8 locale, e.g. "
                          "LC_ALL=C.UTF-8") from None


# The options whose values are text read as names and expressions; file names (--points,
# -o) are not: opened as given, their bytes are the file's own name.
_TYPED_OPTIONS = {"at": "--at", "grid": "--grid", "let": "--let", "columns": "--columns"}


def _typed_options(wrt, options: dict):
    """--wrt and the options of _TYPED_OPTIONS as typed (_as_typed)."""
    options = dict(options)
    for key, option in _TYPED_OPTIONS.items():
        value = options.get(key)
        if isinstance(value, str):
            options[key] = _as_typed(value, f"the value of {option}")
        elif isinstance(value, tuple):
            options[key] = tuple(_as_typed(v, f"the value of {option}") for v in value)
    return (None if wrt is None else _as_typed(wrt, "the value of --wrt")), options


def _one(arguments) -> list[str]:
    # A second argument like -q or -o is a mistyped option, not a second expression (the
    # first may be -x: ExpressionCommand leaves single-dash words to be arguments).
    stray = next((a for a in arguments[1:] if re.fullmatch(r"-[A-Za-z]\w*", a)), None)
    if stray is not None:
        raise click.UsageError(f"no such option: {stray}")
    if len(arguments) != 1:
        hint = "quote the expression" + ("; several expressions go to adcli jacobian" if all(
            _whole_expression(a) for a in arguments) else "")
        raise click.UsageError(f"expected one expression, got {len(arguments)} arguments "
                               f"({hint})")
    return [_expression_text(arguments[0])]


def _whole_expression(argument: str) -> bool:
    """Whether an argument parses alone: "sin(x)" "cos(x)" may be two expressions; x + y
    split by the shell is not ("+" alone is none)."""
    from .parser import parse

    try:
        parse(argument)
    except AdcliError:
        return False
    return True


def _is_number(text: str) -> bool:
    """Whether text is a value --at takes: a number or a constant expression (pi/4), or
    one it refuses only for its grouped digits (1_0: the forgotten --at is the story)."""
    from .points import constant

    try:
        constant(text.replace("_", "") if _GROUPED.fullmatch(text) else text)
    except (AdcliError, ValueError):
        return False
    return True


_GROUPED = re.compile(r"\s*[+-]?\d[\d_]*(\.[\d_]*)?\s*")   # 1_000, as Python writes one


def _options_after_dashes(arguments, options: list[tuple[str, bool]], many: bool) -> None:
    """Options written after "--" (``adcli grad x -- --format csv``) are arguments there,
    which would be blamed as extra expressions or forgotten --at: say why instead. An
    option's name alone (``adcli grad -- --at``) is still an expression, -(-at), and so is
    one without a value after it where a command takes several (``jacobian x -- --at``)."""
    options = [word for word, valued in options if valued or not many]
    if options and len(arguments) > 1:
        named = list(dict.fromkeys(escape(o) for o in options))
        read = "is read as an argument, not an option" if len(named) == 1 else \
            "are read as arguments, not options"
        raise click.UsageError(f"{', '.join(named)} after '--' {read}: everything after -- "
                               "is an argument, so put options before it")


def _stray_words(arguments, split) -> None:
    """Words that were surely meant otherwise: a pair of --at the shell split at its
    spaces (``--at x= 1``, ``--at x = 1``: in ``split``, each value of --at that is no
    pair with the arguments after it on the command line: wherever they are, whatever
    the command's expressions), or ``x=1`` after the expression (``--at`` forgotten).
    Named before anything else complains about them."""
    for value, after in split:
        _split_pair(value, after)
    for word in arguments[1:]:
        match = re.match(r"\s*(\w+)\s*=(.*)\Z", word)   # compiled only if there are words
        # (y = x^2 is an equation, which the parser explains: a value is a number)
        if match and match.group(1) and not match.group(1)[0].isdigit() \
                and _is_number(match.group(2).split(",")[0]):
            raise click.UsageError(f"'{escape(word)}' after the expression looks like a value: "
                                   f"did you forget --at? (--at {escape(word.strip())})")


def _split_pair(value: str, after: list[str]) -> None:
    """--at x= 1, --at x = 1 or --at x =1: one pair, its value the number after it. With
    none (--at x= alone, or before an option or the expression), the value is missing."""
    if not value.rstrip().endswith("=") and not (after and after[0].startswith("=")):
        return  # (--at x: the points' reader says it is no name=value pair)
    taken = after[:2] if after[:1] == ["="] else after[:1]
    rest = "".join(taken).lstrip("=")
    if rest and (_is_number(rest.split(",")[0]) or taken[0][:1] == "=" != taken[0]):
        words = " ".join([value, *taken])
        raise click.UsageError(f"--at {escape(words)}: write a pair without spaces, "
                               f"--at {escape(''.join(words.split()))}")
    pair = "".join(value.split()).rstrip("=") + "="
    name = pair[:-1].rsplit(",", 1)[-1]
    if not name:    # (--at '=': no name either, which the points' reader says)
        return
    raise click.UsageError(f"--at '{escape(pair)}': the value of {escape(name)} is missing: "
                           f"write name=value without spaces, --at {escape(pair)}VALUE")


def _expression_text(argument: str) -> str:
    """``@FILE`` (``@-`` for stdin) reads the expression from a file: "@" is not part of the
    language, and the system caps one argument at 128 KiB, too little for big expressions.
    A leading byte order mark is no part of it (Windows Notepad writes one)."""
    if not argument.startswith("@"):
        return argument
    path = argument[1:]
    if not path:
        raise click.UsageError("@ is followed by the file to read the expression from: "
                               "@FILE, or @- for stdin")
    try:
        if path == "-":
            if sys.stdin is None:   # started with stdin closed (<&-)
                raise click.UsageError(f"@-: {_STDIN_CLOSED}")
            text = _bounded(sys.stdin, argument)
            text.encode("utf-8")  # undecodable bytes come through as lone surrogates
            return text.removeprefix("\ufeff")
        with open(path, encoding="utf-8") as file:     # (utf-8: a bad byte's place counts it)
            return _bounded(file, argument).removeprefix("\ufeff")
    except (UnicodeDecodeError, UnicodeEncodeError) as error:
        unit = "byte" if isinstance(error, UnicodeDecodeError) else "character"
        raise click.UsageError(f"cannot read the expression from {path!r}: it is not UTF-8 "
                               f"text ({unit} {error.start + 1})") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        raise click.UsageError(f"cannot read the expression from {path!r}: "
                               f"{getattr(error, 'strerror', None) or error}") from None


# The longest expression read from @FILE: a 1 MB expression takes ~2.3 s and ~270 MB, so
# this one ~20 s and ~2.3 GB; `yes x+ | adcli grad @-` read until memory ran out.
MAX_EXPRESSION = 8 << 20


def _bounded(file, argument: str) -> str:
    text = file.read(MAX_EXPRESSION + 1)
    if len(text) > MAX_EXPRESSION:
        raise click.UsageError(f"{argument}: the expression is longer than "
                               f"{MAX_EXPRESSION:,} characters, more than adcli reads")
    return text


def main(argv=None) -> int:
    """Entry point: every failure becomes one message and an exit status, never a traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    _tolerate_narrow_encodings()
    if sys.stdout is None:      # started with stdout closed (>&-)
        sys.stdout = _ClosedStdout()
    if sys.stderr is None:      # started with stderr closed (2>&-): its messages are
        sys.stderr = open(os.devnull, "w")  # not wanted; the exit status still tells
    stderr = sys.stderr = _LosableStderr(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr.stream
        if stderr.lost:
            quiet(stderr.stream)


def _command_of(argv: list[str]) -> str:
    """The command a usage error belongs to where click gives no context (an option's
    missing argument is found before the command's context exists)."""
    return f"adcli {argv[0]}" if argv and argv[0] in COMMANDS else "adcli"


def _main(argv: list[str]) -> int:
    try:
        status = cli.main(args=argv, prog_name="adcli", standalone_mode=False,
                          **_help_width()) or 0
        sys.stdout.flush()      # a failure to write what is left is the run's, not exit's
        return status
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else _command_of(argv)
        _error(f"adcli: error: {escape(error.format_message())} (see '{command} --help')")
        return error.exit_code
    except click.ClickException as error:
        _error(f"adcli: error: {escape(error.format_message())}")
        return error.exit_code
    except click.Abort:     # click's name for Ctrl-C (it has ended the line)
        click.echo("adcli: interrupted", err=True)
        return EXIT_INTERRUPTED
    except _Interrupted:
        click.echo(("\n" if _is_terminal(sys.stderr) else "") + "adcli: interrupted",
                   err=True)
        return EXIT_INTERRUPTED
    except AdcliError as error:
        _error(error)
        return error.exit_code
    except (BrokenPipeError, _ReaderGone):
        _quiet_stdout()
        return 0
    except OSError as error:    # a full disk, a closed stdout: no bug of adcli's
        return _io_error(error)
    except KeyboardInterrupt:
        click.echo("adcli: interrupted", err=True)
        return EXIT_INTERRUPTED
    except (MemoryError, RecursionError) as error:
        _error(f"adcli: error: the input is too large to handle ({type(error).__name__})")
        return EXIT_BAD_INPUT
    except Exception as error:  # an adcli bug: say so in one line, details with --debug
        package = (getattr(error, "name", None) or "").split(".")[0]
        if isinstance(error, ModuleNotFoundError) and package in _REQUIRED:
            return _missing_package(package)
        if _state["debug"] or "--debug" in argv:
            import traceback

            traceback.print_exc()
        _error(f"adcli: internal error: {type(error).__name__}: {error} "
               "(please report this; run with --debug for details)")
        return EXIT_INTERNAL


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):    # a closed stream
        return False


def _error(error: str | AdcliError) -> None:
    """An error on stderr: on a terminal, folded between words to its width, an
    expression's excerpt sized to it; in a pipe, one line (and the excerpt's two)."""
    columns = terminal_width(sys.stderr)
    if isinstance(error, AdcliError):
        shown = error.render(columns) if isinstance(error, ExpressionError) else error
        error = f"adcli: error: {shown}"
    click.echo(error_text(error, columns), err=True)


def _help_width() -> dict:
    # click lays out help at least 50 columns wide, so a narrower terminal would cut its
    # words in two: on a terminal, the width is its own (at most max_content_width, as
    # click takes it). In a pipe, click's as before.
    columns = terminal_width(sys.stdout)
    return {"terminal_width": max(min(columns, _HELP_WIDTH) - 2, 20)} if columns else {}


# adcli's own dependencies (pyproject.toml): missing, they are an installation problem.
_REQUIRED = {"numpy", "click", "lark", "rich", "plotext"}


def _missing_package(name: str) -> int:
    # Typically adcli run from a checkout by a Python it was not installed into.
    _error(f"adcli: error: the Python package '{name}' is not installed for "
           f"{sys.executable}: install adcli with 'pip install .' (which brings it), "
           f"or 'pip install {name}'")
    return EXIT_BAD_INPUT


def _tolerate_narrow_encodings() -> None:
    # On an ASCII-only terminal or pipe, print "∂" and "θ" as escapes rather than crash.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _io_error(error: OSError) -> int:
    """An I/O error in one line: of the file it names, else of writing the output when it
    can only come from a write (a full disk: adcli writes no other file unnamed) or when
    stdout still fails, else of whatever was read (a points stream's device)."""
    import errno

    why = error.strerror or str(error)
    if error.filename is not None:
        what = f"{escape(str(error.filename))}: "
    elif error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) or _stdout_fails():
        what = "cannot write the output: "
        _quiet_stdout()
    else:
        what = "input/output error: "
    _error(f"adcli: error: {what}{why}")
    return EXIT_IO


def _stdout_fails() -> bool:
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


class _ClosedStdout:
    """sys.stdout when adcli was started without one: writing fails as a closed file's
    descriptor would, which main reports as an I/O error."""

    encoding, failed = "utf-8", False

    def write(self, text: str) -> int:
        import errno

        self.failed = True
        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self) -> None:
        if self.failed:
            self.write("")

    def isatty(self) -> bool:
        return False


def _quiet_stdout() -> None:
    # The reader went away (e.g. `| head`): silence the final flush at interpreter exit.
    if isinstance(sys.stdout, _ClosedStdout):
        sys.stdout.failed = False   # said: exit's flush must not say it again
        return
    quiet(sys.stdout)


class _LosableStderr:
    """sys.stderr during a run: a message it cannot write (a full disk, a closed pipe) is
    lost, and nothing more. Left to raise, a warning's failed write would stop the run, or
    turn its exit status into 74 or 1 (Python's, when even the error cannot be said), which
    must say what became of the results, not of the messages about them."""

    def __init__(self, stream):
        self.stream, self.lost = stream, False

    def write(self, text: str) -> int:
        if not isinstance(text, str):   # (click asks whether it is a binary stream)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not self.lost:
            try:
                return self.stream.write(text)
            except (OSError, ValueError):   # (ValueError: a closed file)
                self.lost = True
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.lost = True

    def __getattr__(self, name):    # isatty, fileno, encoding: the stream's own
        return getattr(self.stream, name)


def entry() -> None:
    # One evaluation per process: a few points of a small expression go to the tape
    # without importing the kernel (the same numbers: it replays the tape's calls).
    from . import expression

    expression.ONE_SHOT = (64, 500)
    status = main()
    # The collector is off (adcli.start): what was made lives until now. Frozen, it is not
    # scanned again by the collections of the interpreter's exit (~2% of a one-point run).
    gc.freeze()
    sys.exit(status)
