"""Plain classes of named fields, for the classes every run makes.

``dataclasses`` would write them, but importing it and generating each class's methods
costs about 7 ms of every start-up (ten classes on the path of a one-point ``grad``), a
twentieth of the whole run. A Record gives what those classes used of it: equality and a
repr over its fields (``_fields``, in order). Each class writes its own ``__init__``:
Node's runs a million times in a 1 MB expression, so it is plain assignments.
"""
from __future__ import annotations


class Record:
    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # equal by value, so not hashable unless a class says it is immutable

    def _value_hash(self) -> int:  # for such a class: __hash__ = Record._value_hash
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"
