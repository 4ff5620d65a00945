"""pow's reason for a nan names how to write a real odd root (\\sqrt[5]{-32} is x^(1/5),
nan for x < 0, as in numpy)."""
from conftest import run_cli


# ----- pow's reason names the real odd roots (\sqrt[5]{-32} is nan: x^(1/5)) -------------

def test_an_odd_root_of_a_negative_number_is_told_how_to_write_it():
    code, out, err = run_cli("eval", r"\sqrt[5]{x}", "--at", "x=-32", "--format", "plain")
    assert code == 0 and out.strip() == "nan"
    assert "sign(x)*abs(x)^(1/n) for another odd root" in err
    # the form it names is the real fifth root: (-2)^5 = -32
    code, out, _ = run_cli("eval", "sign(x)*abs(x)^(1/5)", "--at", "x=-32", "--format", "plain")
    assert code == 0 and float(out) == -2.0
