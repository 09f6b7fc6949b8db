"""Bracketed trees: EVALB's Parseval and Gaizauskas et al.'s flat keys."""
