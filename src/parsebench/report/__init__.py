"""The report, drawn from the store alone: the Markdown and HTML pages (pages.py), the
summary that opens each experiment (summary.py), plots, drawn parses and the sentence
browser (plots.py, draw.py, browser.py), and the terminal's tables (terminal.py)."""
