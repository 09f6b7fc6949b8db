"""``python -m parsebench.cli``."""

from parsebench.cli import main

main(own_process=True)
