"""Hangul as it is typed on the two-set (dubeolsik) keyboard: a syllable is the keys
pressed for it (compound vowels and compound final consonants are two keys each, a
tense consonant one shifted key), and keys are put back into syllables as an input
method does, so that a misspelling is an edit of keys, not of whole syllables.

:func:`keys` and :func:`compose` are inverses on Hangul text (``compose(keys(w)) ==
w``); :func:`compose` answers None for keys that leave a letter outside any syllable
(a vowel without its consonant, a consonant that can neither end the syllable
before it nor start one), which a misspelling must not be: its output is composed
syllables only (NFC).
"""

from __future__ import annotations

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ",
          "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
FIRST, LAST = 0xAC00, 0xD7A3

VOWEL_PAIRS = {"ㅘ": "ㅗㅏ", "ㅙ": "ㅗㅐ", "ㅚ": "ㅗㅣ", "ㅝ": "ㅜㅓ", "ㅞ": "ㅜㅔ",
               "ㅟ": "ㅜㅣ", "ㅢ": "ㅡㅣ"}
"""Vowels typed as two keys."""
FINAL_PAIRS = {"ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ", "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ",
               "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ", "ㄾ": "ㄹㅌ", "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ",
               "ㅄ": "ㅂㅅ"}
"""Final consonant clusters typed as two keys."""

_JOIN_VOWEL = {v: k for k, v in VOWEL_PAIRS.items()}
_JOIN_FINAL = {v: k for k, v in FINAL_PAIRS.items()}
_INITIAL = {c: i for i, c in enumerate(INITIALS)}
_VOWEL = {c: i for i, c in enumerate(VOWELS)}
_FINAL = {c: i for i, c in enumerate(FINALS)}


def keys(word: str) -> str:
    """WORD's Hangul syllables as the keys typed for them (one character a key); any
    other character as it is."""
    out = []
    for ch in word:
        n = ord(ch) - FIRST
        if 0 <= n <= LAST - FIRST:
            i, rest = divmod(n, 21 * 28)
            v, f = divmod(rest, 28)
            out += [INITIALS[i], VOWEL_PAIRS.get(VOWELS[v], VOWELS[v]),
                    FINAL_PAIRS.get(FINALS[f], FINALS[f])]
        else:
            out.append(ch)
    return "".join(out)


def _syllable(initial: str, vowel: str, final: str) -> str:
    return chr(FIRST + (_INITIAL[initial] * 21 + _VOWEL[vowel]) * 28 + _FINAL[final])


def compose(typed: str) -> str | None:
    """The syllables an input method makes of the keys TYPED, or None when a letter is
    left outside a syllable. A consonant after a vowel ends its syllable (with the next
    one, as a cluster) until a vowel follows, which takes the last consonant to start a
    syllable of its own; a second vowel joins the first where the two make one."""
    out: list[str] = []
    initial = vowel = final = ""
    for k in typed:
        if k in _INITIAL:
            if vowel and not final and k in _FINAL:
                final = k
            elif final and (final + k) in _JOIN_FINAL:
                final = _JOIN_FINAL[final + k]
            else:
                if initial and not vowel:
                    return None  # a consonant with no vowel
                if vowel:
                    out.append(_syllable(initial, vowel, final))
                initial, vowel, final = k, "", ""
        elif k in _VOWEL:
            if not initial:
                return None  # a vowel with no consonant before it
            if final:
                pair = FINAL_PAIRS.get(final)
                first, last = (pair[0], pair[1]) if pair else ("", final)
                out.append(_syllable(initial, vowel, first))
                initial, vowel, final = last, k, ""
            elif not vowel:
                vowel = k
            elif (vowel + k) in _JOIN_VOWEL:
                vowel = _JOIN_VOWEL[vowel + k]
            else:
                return None  # a second vowel that does not join the first
        else:
            if initial and not vowel:
                return None
            if vowel:
                out.append(_syllable(initial, vowel, final))
            initial = vowel = final = ""
            out.append(k)
    if initial and not vowel:
        return None
    if vowel:
        out.append(_syllable(initial, vowel, final))
    return "".join(out)
