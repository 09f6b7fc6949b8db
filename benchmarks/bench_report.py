"""Size and time to first render of a run's HTML report, its sentence browser included.

Run: ``.venv/bin/python benchmarks/bench_report.py STORE`` with a store holding one
experiment (the figures in the README come from the Bigert protocol on EWT test with
UDPipe: studies/bigert-en.toml with its other parsers left out). It writes the report
to a temporary folder, then opens it three times in Debian's Chromium through selenium
and chromium-driver and prints the page's size, the browser data's parts, first
contentful paint, DOMContentLoaded, and how long a filter and a click on a row take.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from parsebench.report.pages import write_report
from parsebench.store import open_existing


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, open_existing(sys.argv[1]) as st:
        t = time.perf_counter()
        page = write_report(st, tmp)["html"]
        print(f"report written in {time.perf_counter() - t:.1f} s")
        text = page.read_text(encoding="utf-8")
        print(f"page {len(text.encode()):,} bytes, {len(gzip.compress(text.encode())):,} "
              "gzipped")
        m = re.search(r"<script type='application/json' class='pb-data'>(.*?)</script>",
                      text, re.S)
        if m:
            data = json.loads(m.group(1))
            print("browser data: " + ", ".join(
                f"{k} {len(json.dumps(v, separators=(',', ':'))):,}" for k, v in data.items()))
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,1400"):
            opts.add_argument(a)
        d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        try:
            for _ in range(3):
                d.get(page.as_uri())
                dcl = d.execute_script("const t = performance.timing; "
                                       "return t.domContentLoadedEventEnd - t.navigationStart")
                fcp = d.execute_script("return performance.getEntriesByType('paint')"
                                       ".map(e => Math.round(e.startTime)).pop()")
                print(f"first contentful paint {fcp} ms, DOMContentLoaded {dcl} ms")
            b = d.find_element(By.CSS_SELECTOR, ".browser")
            for name, value in (("status", "changed"), ("level", "20%")):
                t = time.perf_counter()
                Select(b.find_element(By.NAME, name)).select_by_value(value)
                print(f"filter {name}={value}: {time.perf_counter() - t:.3f} s, "
                      + b.find_element(By.CSS_SELECTOR, ".count").text)
            t = time.perf_counter()
            b.find_elements(By.CSS_SELECTOR, "tbody tr")[0].click()
            print(f"a row drawn in {time.perf_counter() - t:.3f} s")
        finally:
            d.quit()


if __name__ == "__main__":
    main()
