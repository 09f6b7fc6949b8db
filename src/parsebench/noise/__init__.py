"""Noise, seeded and recorded: misspellings (:mod:`.spelling`) and learner-like errors
(:mod:`.grammar`), each a kind of noise (:mod:`.kind`, listed in :mod:`.kinds`), and
:func:`.make.noise`, what the ``noise`` command makes, as a function.

Nothing is implemented or re-exported here: ``parsebench.noise`` is to be the API's
function, so a name is always imported from the module that defines it.
"""
