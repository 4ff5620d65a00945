"""Whole-number options say what they take: click's IntRange said 'abc' "is not a valid
integer range" and 40 "is not in the range 1<=x<=17"."""
from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize("argv, said", [
    (("grad", "x", "--at", "x=1", "--digits", "abc"),
     "Invalid value for '--digits': 'abc' is not a whole number (1 to 17)"),
    (("grad", "x", "--at", "x=1", "--digits", "40"),
     "Invalid value for '--digits': 40 is out of range (1 to 17)"),
    (("grad", "x", "--at", "x=1", "--order", "1.5"),
     "Invalid value for '--order': '1.5' is not a whole number (1 to 64)"),
    (("trace", "x", "--at", "x=1", "--limit", "1"),
     "Invalid value for '--limit': 1 is out of range (2 or more)"),
    (("check", "x^2", "2*x", "--samples", "0"),
     "Invalid value for '--samples': 0 is out of range (1 to 10000)"),
])
def test_a_whole_number_option_says_what_it_takes(argv, said):
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, "")
    assert err == f"adcli: error: {said} (see 'adcli {argv[0]} --help')\n"


def test_help_shows_n_and_the_range_in_words():
    code, out, _ = run_cli("grad", "--help")
    assert code == 0
    assert "--digits N " in out and "[1 to 17]" in out and "INTEGER" not in out
