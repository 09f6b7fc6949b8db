"""Speech, really: a sentence spoken by espeak-ng and recognised by PocketSphinx, the
transcript's part ``speech`` (English). What comes back is the recogniser's words,
lowercase and without punctuation, as speech recognition writes; the noise command
aligns them to the gold words by characters and carries the tree as it does OCR's
(:mod:`.ocr_kind`). Each sentence is spoken at a speed and pitch drawn from the seed
and the sentence, so replicates hear differently. Written here because no library
makes a treebank's text into speech and back with the alignment kept; each step is a
program's (espeak-ng, PocketSphinx, numpy to resample).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave

from parsebench.common.errors import InputError

RATE = 16000
"""PocketSphinx's English model hears 16 kHz audio."""


class Speaker:
    """espeak-ng and PocketSphinx's English model, loaded once."""

    def __init__(self) -> None:
        self.espeak = shutil.which("espeak-ng")
        if self.espeak is None:
            raise InputError("--parts speech needs espeak-ng: apt-get install espeak-ng")
        try:
            from pocketsphinx import Decoder
        except ImportError:
            raise InputError("--parts speech needs PocketSphinx: pip install "
                             "'parsebench[speech]'") from None
        self.decoder = Decoder(samprate=RATE, loglevel="FATAL")
        said = subprocess.run([self.espeak, "--version"], capture_output=True,
                              text=True).stdout.split()
        self.version = said[3] if len(said) > 3 else "?"  # "eSpeak NG text-to-speech: 1.51"

    def hear(self, text: str, seed: int, index: int) -> str:
        """TEXT spoken (its speed and pitch drawn by SEED and INDEX) and recognised."""
        import numpy as np

        rng = np.random.default_rng([seed, index])
        speed, pitch = int(rng.integers(140, 181)), int(rng.integers(35, 66))
        assert self.espeak is not None
        got = subprocess.run([self.espeak, "-v", "en-us", "-s", str(speed), "-p", str(pitch),
                              "--stdout", "--stdin"], input=text.encode("utf-8"),
                             capture_output=True, check=False)
        if got.returncode != 0 or not got.stdout:
            return ""
        with wave.open(io.BytesIO(got.stdout)) as w:
            rate = w.getframerate()
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        if not len(samples):
            return ""
        n = max(1, int(len(samples) * RATE / rate))
        audio = np.interp(np.linspace(0, len(samples) - 1, n), np.arange(len(samples)),
                          samples).astype(np.int16)
        self.decoder.start_utt()
        self.decoder.process_raw(audio.tobytes(), full_utt=True)
        self.decoder.end_utt()
        hyp = self.decoder.hyp()
        return " ".join(hyp.hypstr.split()) if hyp is not None else ""
