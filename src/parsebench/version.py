"""parsebench's version, in a module of its own: the signatures and the command print it,
and they sit below the package's public face (``__init__``), which must not be imported
back."""

__version__ = "0.1.0"
