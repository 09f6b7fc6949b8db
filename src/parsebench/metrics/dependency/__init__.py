"""Dependency parses against a gold key: CoNLL 2018, Lin, enhanced graphs,
tokenization alignment, validity."""
