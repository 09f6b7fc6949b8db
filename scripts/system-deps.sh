#!/usr/bin/env bash
# Debian packages parsebench needs: a C compiler and Python's headers for the
# accelerator of `eval brackets`, Link Grammar for its parser, whose Python
# bindings are made visible inside the virtualenv given as $1, a Java runtime for
# MaltParser and Yara (`malt:`, `yara:`), Tesseract's models of the thirteen
# languages of ../shared/data and a font with CJK and Hangul for `noise --kind ocr`
# (the engine itself comes with the tesserocr wheel), espeak-ng for the transcript's
# part speech; with "test" as $2,
# also Chromium and its driver, which the tests of the HTML report and its
# sentence browser drive. Uses
# apt-get as root (CI) or through sudo; without either it says what to install
# and goes on, and the tests that need them skip (they fail under CI=true).
set -euo pipefail
venv="$1"
pkgs="gcc python3-dev link-grammar link-grammar-dictionaries-en python3-link-grammar
      default-jre-headless fonts-dejavu-core fonts-wqy-microhei espeak-ng"
for lang in eng deu fra fin fas ind gle kor rus tur swe jpn chi-sim; do
    pkgs="$pkgs tesseract-ocr-$lang"
done
if [ "${2:-}" = test ]; then
    pkgs="$pkgs chromium chromium-driver"
fi
if ! dpkg -s $pkgs >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs
    else
        echo "note: cannot install $pkgs (not root, no sudo); Link Grammar and Java may be missing" >&2
        exit 0
    fi
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
ln -sfn /usr/lib/python3/dist-packages/linkgrammar "$site/linkgrammar"
