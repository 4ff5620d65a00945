"""adcli: derivative values from the command line, by reverse-mode automatic differentiation.

    >>> import adcli
    >>> f = adcli.parse("x^2*y + sin(y)")
    >>> f.grad(x=1.0, y=2.0)["x"]
    array(4.)
"""
from .errors import AdcliError, AdcliWarning, ExpressionError, PointsError, ValuesError

__all__ = ["parse", "jacobian", "check", "Expression", "Result", "CheckResult", "Variable",
           "Function", "no_grad", "AdcliError", "ExpressionError", "ValuesError",
           "PointsError", "AdcliWarning"]
__version__ = "0.1.0"

# Where each public name lives, imported at its first use: `import adcli` does not import
# numpy, so the program (adcli.start) can turn the cycle collector off before it does, and
# check() pulls in finite differences and the diagnosis only for those who use it.
_HOMES = {"Function": "core", "Variable": "core", "no_grad": "core",
          "Expression": "expression", "Result": "expression", "jacobian": "expression",
          "parse": "expression", "check": "checking", "CheckResult": "checking"}


def __getattr__(name):
    if name in _HOMES:
        import importlib

        value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
        if name in ("Variable", "Function"):
            # x * y on Variables: the operators are the primitives', which adcli.functions
            # installs on Variable when it is imported (core cannot import it: a cycle)
            importlib.import_module(".functions", __name__)
        globals()[name] = value  # later uses find it without this call
        return value
    raise AttributeError(f"module 'adcli' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
