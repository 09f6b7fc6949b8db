"""Noise: misspellings (:mod:`.spelling`, with :mod:`.keyboard` and :mod:`.lexicon`) and
learner-like errors (:mod:`.grammar`), seeded and recorded.

Nothing is implemented or re-exported here: ``parsebench.noise`` is to be the API's
function, so a name is always imported from the module that defines it.
"""
