"""adcli: derivative values from the command line, by reverse-mode automatic differentiation.

    >>> import adcli
    >>> f = adcli.parse("x^2*y + sin(y)")
    >>> f.grad(x=1.0, y=2.0)["x"]
    array(4.)
"""
from .core import Function, Variable, no_grad
from .errors import AdcliError, AdcliWarning
from .expression import Expression, Result, jacobian, parse

__all__ = ["parse", "jacobian", "check", "Expression", "Result", "CheckResult", "Variable",
           "Function", "no_grad", "AdcliError", "AdcliWarning"]
__version__ = "0.1.0"


def __getattr__(name):
    # check() pulls in finite differences and the diagnosis: only for those who use it.
    if name in ("check", "CheckResult"):
        from . import checking

        return getattr(checking, name)
    raise AttributeError(f"module 'adcli' has no attribute {name!r}")
