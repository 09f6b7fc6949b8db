"""parsebench: how accurate parsers are, and how well they hold up on noisy input."""

__version__ = "0.1.0"
