"""Session 25, points files, with the points.py / errors.py / pipeline.py change: column
names pass through as read (only matching a variable reads them as the expression does),
a header written as a comment is named in the file's order, a space-separated row read
as CSV is said so."""
from __future__ import annotations

import json

from conftest import run_cli

ODD = ["area_m\u00b2", "time_\u00b5s", "\ufb01le", "\uff38", "temp_\u00b0C", "i\u0301d"]


def error_of(*argv, stdin=""):
    code, out, err = run_cli(*argv, stdin=stdin)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1, err
    return err


def test_other_columns_keep_their_names_byte_for_byte_in_csv():
    stdin = ",".join(ODD) + ",x\n5,6,7,8,9,10,2\n"
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, err) == (0, "")
    header, row = out.splitlines()
    assert header.encode() == ",".join([*ODD, "x", "f", "df/dx"]).encode()
    assert row == "5,6,7,8,9,10,2.0,4.0,4.0"      # x^2 = 4, 2x = 4 at x = 2


def test_other_columns_keep_their_names_byte_for_byte_in_json():
    stdin = ",".join(ODD) + ",x\n5,6,7,8,9,10,3\n"
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "json", stdin=stdin)
    assert (code, err) == (0, "")
    (point,) = json.loads(out)["points"]
    assert [k.encode() for k in point["extra"]] == [n.encode() for n in ODD]
    assert point["gradient"] == {"x": 6.0}


def test_a_subscript_still_matches_its_variable_and_the_names_are_distinct():
    code, out, err = run_cli("grad", "x1*x", "--points", "-", "--format", "csv",
                             stdin="x\u2081,x\u00b2,x2,x\n2,a,b,3\n")
    assert (code, err) == (0, "")
    # x1 = 2, x = 3: f = 6, df/dx1 = 3, df/dx = 2
    assert out.splitlines() == ["x\u00b2,x2,x1,x,f,df/dx1,df/dx", "a,b,2.0,3.0,6.0,3.0,2.0"]


def test_two_columns_of_one_variable_are_an_error_naming_both():
    err = error_of("grad", "x2", "--points", "-", stdin="x\u00b2,x2,x\n1,2,3\n")
    assert err == ("adcli: error: points file line 1: columns 1 ('x\u00b2') and 2 ('x2') are "
                   "both the variable x2 as the expression writes it: rename one of them\n")


def test_a_header_written_as_a_comment_is_named_in_its_order(tmp_path):
    path = tmp_path / "sv.txt"
    path.write_text("# y x\n2.000000000000000000e+00 1.000000000000000000e+00\n")
    err = error_of("grad", "x/y", "--points", str(path))
    assert err.endswith(": line 1 '# y x' looks like a header written as a comment: "
                        "--columns y,x\n"), err


def test_without_such_a_comment_the_hint_names_no_order():
    err = error_of("grad", "x/y", "--points", "-", stdin="2 1\n3 5\n")
    assert err.endswith(": name its 2 columns, in the file's order (not the expression's), "
                        "with --columns NAME1,NAME2, calling x and y the columns that hold "
                        "them\n"), err


def test_a_space_separated_row_read_as_csv_is_said_so():
    err = error_of("grad", "x*y", "--points", "-", "--columns", "x,y", "--points-format",
                   "csv", stdin="1 2\n3 4\n")
    assert err == ("adcli: error: points file line 1: 1 field, but --columns names 2 "
                   "columns; the row looks space-separated: read it with --points-format "
                   "plain\n")
