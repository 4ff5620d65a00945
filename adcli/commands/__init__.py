"""The commands of adcli, one module each. A new command is one module and one line below;
the CLI, the pipeline and the renderers find it here."""
from __future__ import annotations

from .check import Check
from .evaluate import Eval
from .gradient import Grad
from .graph import Graph
from .hessian import Hessian
from .jacobian import Jacobian
from .plot import Plot
from .trace import Trace

COMMANDS = [Grad, Eval, Hessian, Jacobian, Trace, Graph, Check, Plot]
