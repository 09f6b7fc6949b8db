"""The optional C accelerators of `eval brackets`, `eval deps`, the CoNLL-U reader and
the bootstrap; everything else is in pyproject.toml.

Optional: without a C compiler the build goes on and parsebench uses the
pure-Python scorers, which give the same numbers (EVALB's at a fifth of the speed,
eval deps' at about a third).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [Extension("parsebench.metrics.constituency._evalb_fast",
               ["src/parsebench/metrics/constituency/_evalb_fast.pyx"]),
     Extension("parsebench.metrics.dependency._deps_fast",
               ["src/parsebench/metrics/dependency/_deps_fast.pyx"]),
     Extension("parsebench.metrics.dependency._stretch_fast",
               ["src/parsebench/metrics/dependency/_stretch_fast.pyx"]),
     Extension("parsebench.formats._conllu_fast",
               ["src/parsebench/formats/_conllu_fast.pyx"]),
     Extension("parsebench.metrics.core._resample_fast",
               ["src/parsebench/metrics/core/_resample_fast.pyx"])],
    compiler_directives={"language_level": "3"})
for ext in extensions:
    ext.optional = True  # cythonize does not carry the flag over from the template

setup(ext_modules=extensions)
