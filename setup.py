"""Build the C extensions (the double-dummy solver, the vector environment's deal core);
everything else is in pyproject.toml.

Set PREFERANS_SOLVER_CFLAGS to add compiler flags (for example ``-march=native``).
"""

import os
import platform

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

SOLVER_DIR = "src/preferans/solver"
VECTOR_DIR = "src/preferans/env/vector_c"
VECTOR_SOURCES = ["_vector.c", "_deal.c", "_floats.c", "pc_rng.c", "pc_auction.c", "pc_defence.c",
                  "pc_play.c", "pc_observe.c", "pc_info.c", "pc_score.c", "pc_step.c"]
LOCALE_DIR = "src/preferans/locale"

BASE_FLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-strict-aliasing"]


class BuildExt(build_ext):
    """Adds optional CPU flags only when the compiler accepts them."""

    def build_extensions(self):
        extra = []
        if platform.machine().lower() in ("x86_64", "amd64") and self._accepts("-mpopcnt"):
            extra.append("-mpopcnt")  # every x86-64 CPU since 2008; speeds up the bitboards
        extra += os.environ.get("PREFERANS_SOLVER_CFLAGS", "").split()
        for ext in self.extensions:
            ext.extra_compile_args = list(ext.extra_compile_args) + extra
        super().build_extensions()

    def _accepts(self, flag):
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as fh:
                fh.write("int main(void) { return __builtin_popcount(3u) - 2; }\n")
            try:
                self.compiler.compile([src], output_dir=tmp, extra_postargs=[flag])
            except Exception:
                return False
        return True


def compile_catalogues(root):
    """Compile every gettext catalogue under ``root`` (``<lang>/LC_MESSAGES/*.po``) to its
    ``.mo`` beside it, with Babel; returns the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".po"):
                continue
            po = os.path.join(folder, name)
            with open(po, "rb") as fh:
                catalog = read_po(fh)
            mo = po[:-3] + ".mo"
            with open(mo, "wb") as fh:
                write_mo(fh, catalog)
            written.append(mo)
    return written


class BuildPy(build_py):
    """Compiles the catalogues before the package files are copied (wheels, sdists)."""

    def run(self):
        compile_catalogues(LOCALE_DIR)
        super().run()


setup(
    ext_modules=[
        Extension(
            "preferans.solver._solver",
            sources=[
                f"{SOLVER_DIR}/_solver.c",
                f"{SOLVER_DIR}/ddcore.c",
                f"{SOLVER_DIR}/ddcore_bmi2.c",  # the search again, for CPUs with BMI2
            ],
            depends=[f"{SOLVER_DIR}/ddcore.h", f"{SOLVER_DIR}/ddcore.c"],
            extra_compile_args=BASE_FLAGS,
            extra_link_args=["-pthread"],
        ),
        Extension(
            "preferans.env._vector",
            sources=[f"{VECTOR_DIR}/{name}" for name in VECTOR_SOURCES],
            depends=[f"{VECTOR_DIR}/pc.h", f"{VECTOR_DIR}/pc_py.h"],
            extra_compile_args=BASE_FLAGS,
        ),
    ],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
)
