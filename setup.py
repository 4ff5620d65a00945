"""Build steps: generate the parser's LALR tables from grammar/expr.lark into the package,
and compile adcli/_sincos.c where a C compiler and glibc are there (optional: without it
adcli computes sin and cos with numpy, the same numbers a little slower).

Everything else about the package is in pyproject.toml. The tables are made by lark (a build
requirement) with adcli/lalr_tables.py, from the grammar being installed, and written as
adcli/_expr_tables.py: the installed adcli then parses without importing lark. An editable
install skips this; a checkout makes its tables at first use (adcli/lalr.py).
"""
import importlib.util
import os

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithTables(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:
            self._write_tables()

    def _write_tables(self):
        package = os.path.join(self.build_lib, "adcli")
        spec = importlib.util.spec_from_file_location(
            "_adcli_lalr_tables", os.path.join(package, "lalr_tables.py"))
        tables = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tables)  # by path: adcli itself needs numpy, absent here
        with open(os.path.join(package, "grammar", "expr.lark"), encoding="utf-8") as file:
            grammar = file.read()
        target = os.path.join(package, tables.GENERATED_MODULE + ".py")
        tables.write_module(grammar, target)
        self.announce(f"generated {target} from the grammar", level=2)


setup(cmdclass={"build_py": BuildPyWithTables},
      ext_modules=[Extension("adcli._sincos", ["adcli/_sincos.c"], optional=True)])
