"""The commands of adcli, one module each. A new command is one module and one line below
(its name and the class that serves it); a command's module is imported only when it runs,
so start-up pays for the one command in use."""
from __future__ import annotations

import importlib

COMMANDS = {
    "grad": "gradient:Grad",
    "eval": "evaluate:Eval",
    "hessian": "hessian:Hessian",
    "jacobian": "jacobian:Jacobian",
    "trace": "trace:Trace",
    "graph": "graph:Graph",
    "check": "check:Check",
    "plot": "plot:Plot",
}


def load(name: str):
    """The command class registered under ``name``."""
    module, cls = COMMANDS[name].split(":")
    return getattr(importlib.import_module(f".{module}", __name__), cls)


def every_command() -> list:
    return [load(name) for name in COMMANDS]
