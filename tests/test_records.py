"""adcli.records: the plain classes that replaced dataclasses on the start-up path keep
what the code used of them (equality by value, hashing of the immutable ones, a repr)."""
from __future__ import annotations

import pytest

from adcli.diagnostics import Diagnostics
from adcli.expression import Node
from adcli.points import Axis, Chunk
from adcli.reader import Factor


def test_equal_by_value_and_by_class():
    assert Node("variable", 3, name="x") == Node("variable", 3, "x", None, None, ())
    assert Node("variable", 3, name="x") != Node("variable", 4, name="x")
    assert Factor(1, 2) == Factor(1, 2, "plain") and Factor(1, 2) != Factor(1, 2, "paren")
    assert Axis(0.0, 1.0, 3) != (0.0, 1.0, 3, None)  # a record is not its tuple


def test_nodes_and_axes_hash_by_value_mutable_records_do_not_hash():
    assert len({Node("number", 0, value=2.0), Node("number", 0, value=2.0)}) == 1
    assert hash(Axis(0.0, 1.0, 3)) == hash(Axis(0.0, 1.0, 3))
    with pytest.raises(TypeError):
        hash(Diagnostics((2,)))


def test_defaults_are_fresh_per_instance():
    a, b = Chunk({}, 0), Chunk({}, 0)
    a.extra["id"] = ["p1"]
    assert b.extra == {} and Diagnostics().masks is not Diagnostics().masks


def test_repr_names_the_fields_in_order():
    assert repr(Node("infix", 1, "mul", None, None, (0, 2))) == \
        "Node(kind='infix', position=1, name='mul', value=None, function=None, args=(0, 2))"
    assert repr(Node("variable", 0, "x").with_args((5,))) == \
        "Node(kind='variable', position=0, name='x', value=None, function=None, args=(5,))"
