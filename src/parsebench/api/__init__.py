"""The functions of the public API (``import parsebench as pb``), a module a family of
commands; each returns a :class:`parsebench.model.results.Result` whose ``to_dict()`` is the
command's ``--json`` object."""
