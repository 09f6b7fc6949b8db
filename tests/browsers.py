"""Chromium driven by Selenium for the report's browser tests."""

from __future__ import annotations

import shutil

import pytest
from conftest import needs


def driver():  # type: ignore[no-untyped-def]
    needs("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        import os
        if os.environ.get("CI") == "true":
            pytest.fail("chromium and chromium-driver are missing (scripts/system-deps.sh "
                        "installs them)")
        pytest.skip("needs Debian's chromium and chromium-driver")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1300,1500"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(driver), options=opts)


OVERFLOW = """const W = document.documentElement.clientWidth, out = [];
for (const e of document.querySelectorAll('body *')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.right <= W + 1) continue;
  let p = e.parentElement, boxed = false;
  for (; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX;
    const scrolls = o === 'auto' || o === 'scroll' || o === 'hidden';
    if (scrolls && p.getBoundingClientRect().right <= W + 1) { boxed = true; break; }
  }
  if (!boxed) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
}
return [document.documentElement.scrollWidth, W, out.slice(0, 10)];"""
