"""A run, in the order it happens: the experiment file (experiment.py), its corpus and
noisy versions (corpus.py), the parses and the loop that drives them (runner.py), and
the one loop over the scoring methods (score.py), what a parser's run shows besides its
scores (examples.py); what it writes goes to the store."""
