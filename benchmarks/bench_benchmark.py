"""A benchmark's own cost as its corpora grow: 10, 40 and 160 corpora of 50 sentences.

Run: ``.venv/bin/python benchmarks/bench_benchmark.py [TREEBANK] [SIZES...]`` (default:
../shared/data/ud-english-ewt/en_ewt-ud-train.conllu, 10 40 160). The treebank is cut
into corpora of 50 sentences; two uninformed baselines (they take no time to parse)
and one noise level make what is left parsebench's own cost: the noise, the worker
round trips, scoring, the store, the macro averages and their tests, the report. For
each size it prints the wall time of ``parsebench run`` (report included), the time of
``parsebench report`` of the same store alone, the peak memory of each, and the bytes
of index.html and of the report's folder, the seconds headless Chromium takes to open
index.html and how many corpus pages it links (with selenium and Debian's chromium),
then the cost per corpus and per sentence. A UD release's 300 corpora need 15,000
sentences: EWT's three files one after the other (``cat en_ewt-ud-*.conllu``).
The numbers of docs/speed.md come from here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PER_CORPUS = 50


def _cut(treebank: Path, folder: Path, corpora: int) -> Path:
    """CORPORA files of PER_CORPUS sentences from TREEBANK, and the benchmark's TOML."""
    sentences = treebank.read_text(encoding="utf-8").split("\n\n")
    need = corpora * PER_CORPUS
    if len(sentences) < need:
        sys.exit(f"{treebank}: {len(sentences)} sentences, {need} needed")
    toml = ['name = "bench"']
    for k in range(corpora):
        part = sentences[k * PER_CORPUS:(k + 1) * PER_CORPUS]
        (folder / f"c{k}.conllu").write_text("\n\n".join(part).strip() + "\n\n",
                                             encoding="utf-8")
        toml += ["[[corpora]]", f'name = "c{k}"', 'lang = "en"', f'path = "c{k}.conllu"']
    toml += ["[noise]", "rates = [0.05]", "[[parsers]]", 'name = "right"',
             'spec = "baseline:right"', "[[parsers]]", 'name = "left"',
             'spec = "baseline:left"', "[metrics]", "deps = true"]
    path = folder / "bench.toml"
    path.write_text("\n".join(toml) + "\n", encoding="utf-8")
    return path


def _timed(argv: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak memory (kB) of ARGV, through /usr/bin/time."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *argv], cwd=cwd, capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    took = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(p.stderr[-2000:])
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    return took, int(rss.group(1)) if rss else 0


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def _opens(page: Path) -> tuple[float, int] | None:
    """Seconds headless Chromium (Debian's, through Selenium) takes to load PAGE to its
    load event, and how many corpus pages it links; None without them."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError:
        return None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return None
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        d.get("about:blank")
        t = time.perf_counter()
        d.get(page.as_uri())  # returns at the load event
        took = time.perf_counter() - t
        links = {a.get_attribute("href") for a in d.find_elements(By.CSS_SELECTOR, "a")}
        return took, sum("/corpora/" in (h or "") for h in links)
    finally:
        d.quit()


def main() -> None:
    args = sys.argv[1:]
    treebank = Path(args.pop(0)) if args and not args[0].isdigit() else \
        ROOT.parent / "shared/data/ud-english-ewt/en_ewt-ud-train.conllu"
    sizes = [int(a) for a in args] or [10, 40, 160]
    exe = str(Path(sys.executable).with_name("parsebench"))
    print("corpora  run (s)  run MB  report (s)  report MB  index.html  folder  "
          "opens (s)  corpus pages linked")
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            toml = _cut(treebank, folder, n)
            run, run_kb = _timed([exe, "run", str(toml), "--store", "s.sqlite",
                                  "--report", "rep", "-q"], folder)
            rep, rep_kb = _timed([exe, "report", "s.sqlite", "-o", "rep2"], folder)
            index = (folder / "rep2" / "index.html").stat().st_size
            total = _size(folder / "rep2")
            rows.append((n, run, rep))
            opened = _opens(folder / "rep2" / "index.html")
            browser = "no browser" if opened is None else \
                f"{opened[0]:9.2f}  {opened[1]:19d}"
            print(f"{n:7d}  {run:7.1f}  {run_kb / 1024:6.0f}  {rep:10.1f}  "
                  f"{rep_kb / 1024:9.0f}  {index / 1e6:8.2f} MB  {total / 1e6:5.1f} MB  "
                  f"{browser}")
    if len(rows) > 1:
        (n0, r0, p0), (n1, r1, p1) = rows[0], rows[-1]
        per = (r1 - r0) / (n1 - n0)
        print(f"\nper corpus: run {per:.3f} s ({per / PER_CORPUS * 1000:.1f} ms a sentence), "
              f"report {(p1 - p0) / (n1 - n0):.3f} s; fixed: run "
              f"{r0 - per * n0:.1f} s")


if __name__ == "__main__":
    main()
