"""A JSON Lines integer longer than Python's int reads (4,300 digits) is a float beyond
the range, read as inf with the warning CSV gives, not "not JSON: ... use
sys.set_int_max_str_digits()"; a column the expression does not use passes through."""
from conftest import run_cli

BIG = "1" + "0" * 5000


def test_a_long_json_integer_is_inf_with_the_csv_warning(tmp_path):
    (tmp_path / "p.jsonl").write_text('{"x": %s}\n' % BIG)
    (tmp_path / "p.csv").write_text("x\n%s\n" % BIG)
    json_run = run_cli("grad", "2*x", "--points", str(tmp_path / "p.jsonl"), "--format", "csv")
    csv_run = run_cli("grad", "2*x", "--points", str(tmp_path / "p.csv"), "--format", "csv")
    assert json_run[0] == 0
    assert json_run[1] == "x,f,df/dx\ninf,inf,2.0\n"
    assert json_run[2] == csv_run[2].replace("line 2", "line 1")
    assert "beyond the largest float64 number" in json_run[2]


def test_a_long_json_integer_in_an_unused_column_passes_through(tmp_path):
    (tmp_path / "p.jsonl").write_text('{"n": %s, "y": 2}\n{"n": -0, "y": 3}\n' % BIG)
    code, out, err = run_cli("grad", "y^2", "--points", str(tmp_path / "p.jsonl"),
                             "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["n,y,f,df/dy", f"{BIG},2.0,4.0,4.0", "-0,3.0,9.0,6.0"]
