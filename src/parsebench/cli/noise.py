"""``noise``: misspellings or learner-like errors, seeded and recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import (
    JsonOpt,
    QuietOpt,
    TimeoutOpt,
    WorkersOpt,
    _emit_json,
    _progress,
    _show,
    _warn,
    app,
)


@app.command("noise")
def noise_cmd(
    source: Annotated[Path, typer.Argument(help="CoNLL-U, or text with one sentence a line "
                                                "and tokens separated by spaces.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Output file; with several "
                                         "replicates, .seedS is put before the extension.")],
    rate: Annotated[float | None, typer.Option(
        "--rate", help="Misspell round(R x words) words, chosen uniformly among eligible "
        "ones.")] = None,
    per_sentence: Annotated[int | None, typer.Option(
        "--per-sentence", help="Misspell exactly K words in every sentence that has K "
        "eligible words.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 1,
    replicates: Annotated[int, typer.Option("--replicates", help="Files from seeds "
                                            "S..S+N-1.")] = 1,
    lang: Annotated[str, typer.Option("--lang", help="Language of the default lexicon and "
                                      "keyboard: de, en, fa, fi, fr, ga, id, ko, ru, sv, tr "
                                      "(ja, zh refused: typed through an input method; "
                                      "--kind grammar: en only).")] = "en",
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", help="wordfreq:LANG (default; Irish, which wordfreq lacks: the "
        "corpus's own words only), a word list file, a hunspell .dic, or a CoNLL-U file "
        "(its words, e.g. the treebank's train split).")] = None,
    keyboard: Annotated[str | None, typer.Option(
        "--keyboard", help="de-qwertz, fa-isiri, fi-qwerty, fr-azerty, ga-qwerty, "
        "ko-dubeolsik, ru-jcuken, sv-qwerty, tr-q, us-qwerty (default: by --lang), or a "
        "layout file.")] = None,
    weights: Annotated[str | None, typer.Option(
        "--weights", help="Operation weights, e.g. sub=2,ins=1,del=1,trans=1; with --kind "
        "grammar type weights over the defaults, e.g. R:WO=2,M:DET=1.")] = None,
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word that may be "
                                            "misspelled.")] = 2,
    keep_mix: Annotated[bool, typer.Option(
        "--keep-mix", help="Keep the asked-for operation mix: draw each misspelling's "
        "operation by weight and pass over words without a non-word edit of it. Default: "
        "another operation of the word stands in (words chosen uniformly; insertions "
        "realised more often than asked). The realised mix is reported either way.")
    ] = False,
    drop_short: Annotated[bool, typer.Option(
        "--drop-short", help="With --per-sentence, leave out sentences with too few "
        "eligible words.")] = False,
    kind: Annotated[str, typer.Option(
        "--kind", help="spelling: one keyboard misspelling a word (Bigert et al.); grammar: "
        "learner-like errors of ERRANT's types, written with OUT.m2 and OUT.align; "
        "transcript: as speech is transcribed, the gold tree carried; ocr: drawn, degraded "
        "and read back by Tesseract, written with OUT.align.")
    ] = "spelling",
    cer: Annotated[float | None, typer.Option(
        "--cer", help="With --kind ocr: a character error rate, drawn from a learnt channel "
        "instead of reading images.")] = None,
    channel: Annotated[Path | None, typer.Option(
        "--channel", help="With --cer: the OCR channel (noise-profile learn --ocr; default: "
        "the one shipped for --lang).")] = None,
    quality: Annotated[str | None, typer.Option(
        "--quality", help="With --kind ocr: clean, good, fair or poor (default: fair).")
    ] = None,
    degrade: Annotated[str | None, typer.Option(
        "--degrade", help="With --kind ocr: settings over the preset, e.g. blur=1,skew=2 "
        "(size, scale, blur, speckle, threshold, skew).")] = None,
    font: Annotated[Path | None, typer.Option(
        "--font", help="With --kind ocr: the font file to draw with (default: one with the "
        "language's script).")] = None,
    parts: Annotated[str | None, typer.Option(
        "--parts", help="With --kind transcript: lower,punct,numbers,fillers,repeats,segments "
        "(default: all but segments; fillers and repeats at --rate or --per-sentence).")
    ] = None,
    window: Annotated[int | None, typer.Option(
        "--window", help="With --parts ...,segments: words a segment (default: 20).")
    ] = None,
    fillers: Annotated[str | None, typer.Option(
        "--fillers", help="With --kind transcript: the filler words, e.g. uh,um (default: "
        "the language's).")] = None,
    types: Annotated[str | None, typer.Option(
        "--types", help="With --kind grammar: the error types to make, e.g. M:DET,R:WO "
        "(default: all).")] = None,
    tagger: Annotated[str | None, typer.Option(
        "--tagger", help="With --kind grammar and a text input: the parser (as for parse "
        "--parser) whose UPOS, features and heads say where errors can go.")] = None,
    profile: Annotated[Path | None, typer.Option(
        "--profile", help="A noise profile (noise-profile learn): misspellings drawn as "
        "people's own, at --rate or the profile's own rate.")] = None,
    tokenization: Annotated[bool, typer.Option(
        "--tokenization", help="With --profile: split and join words too, at the "
        "profile's shares; written with OUT.m2 and OUT.align, as --kind grammar.")] = False,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="An option of a kind of noise from another package, NAME=VALUE "
        "(repeatable).")] = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Make noisy text, seeded and recorded: misspellings, learner-like errors with their
    ERRANT types (OUT.m2) and alignment (OUT.align), speech-transcript conventions, or
    OCR's errors."""
    from parsebench.common.errors import InputError, check_output
    from parsebench.noise.make import noise

    options = {}
    for o in option or ():
        name, eq, value = o.partition("=")
        if not eq or not name.strip():
            raise InputError(f"--option {o!r}: expected NAME=VALUE")
        options[name.strip()] = value

    check_output(output)  # before the work, so a typo in -o does not cost it
    with _progress(quiet, transient=True) as bars:
        made = noise(source, rate=rate, per_sentence=per_sentence, kind=kind, seed=seed,
                     replicates=replicates, lang=lang, lexicon=lexicon, keyboard=keyboard,
                     weights=weights, min_length=min_length, drop_short=drop_short,
                     types=types, tagger=tagger, keep_mix=keep_mix,
                     profile=None if profile is None else str(profile),
                     tokenization=tokenization, parts=parts, fillers=fillers, window=window,
                     cer=cer, channel=None if channel is None else str(channel),
                     quality=quality, degrade=degrade,
                     font=None if font is None else str(font),
                     options=options or None, progress=bars)
        made.write(output)
    typer.echo(made.text(timings=True), err=True)
    _warn(list(made.warnings))
    if as_json:
        _emit_json(made.to_dict())


profile_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                          help="Learn how people misspell, for noise drawn like it.")
app.add_typer(profile_app, name="noise-profile")


@profile_app.command("learn")
def profile_learn(
    pairs: Annotated[list[Path], typer.Argument(
        help="CoNLL-U files with CorrectForm= in MISC or M2 files (R:SPELL and R:ORTH "
        "edits), read as one, or two aligned text files: as written, corrected.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The profile (JSON).")],
    ocr: Annotated[bool, typer.Option(
        "--ocr", help="An OCR channel instead (for noise --kind ocr --cer), from what noise "
        "--kind ocr wrote, or two aligned text files: as read, clean.")] = False,
    lang: Annotated[str, typer.Option("--lang", help="Language of the lexicon that says "
                                      "which errors are real words.")] = "en",
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", help="As noise --lexicon (default: wordfreq's list).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Learn a noise profile from pairs of (as written, corrected) words, or an OCR
    channel from OCR's text."""
    from parsebench.noise.make import learn_profile

    got = learn_profile(pairs, output, lang=lang, lexicon=lexicon, ocr=ocr)
    typer.echo(f"{output}: " + (str(got).strip() if ocr else
                                f"{got.errors} errors in {got.words} words"), err=True)
    if as_json:
        _emit_json(got.to_dict())


@profile_app.command("show")
def profile_show(
    profile: Annotated[Path, typer.Argument(help="A noise profile (noise-profile learn).")],
) -> None:
    """Print every count of a noise profile."""
    import sys

    from parsebench.noise.profile import load, show

    sys.stdout.write(show(load(profile).data))


@app.command("ablation")
def ablation_cmd(
    corpus: Annotated[Path, typer.Argument(help="CoNLL-U with gold trees.")],
    parser: Annotated[str, typer.Option(
        "--parser", help="A dependency parser, as for parse --parser.")],
    parts: Annotated[str | None, typer.Option(
        "--parts", help="The transcript parts to ablate, comma-separated (default: lower, "
        "punct, numbers, fillers, repeats).")] = None,
    rate: Annotated[float | None, typer.Option(
        "--rate", help="Fillers and repeats: round(R x words) of each, as noise --kind "
        "transcript draws them.")] = None,
    per_sentence: Annotated[int | None, typer.Option(
        "--per-sentence", help="Fillers and repeats: K a sentence instead.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 1,
    replicates: Annotated[int, typer.Option(
        "--replicates", help="Seeds of the drawn parts, a sentence's resampled together.")
    ] = 1,
    lang: Annotated[str, typer.Option("--lang", help="Language of the numbers and "
                                      "fillers.")] = "en",
    window: Annotated[int | None, typer.Option(
        "--window", help="With --parts ...,segments: words a segment (default: 20).")
    ] = None,
    workers: WorkersOpt = 1,
    timeout: TimeoutOpt = 60.0,
    samples: Annotated[int, typer.Option("--samples", help="Bootstrap resamples.")] = 1000,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Each transcript part's share of a parser's LAS drop: the corpus transcribed with
    each part alone and with all, each parsed and scored against its carried tree."""
    from parsebench.api.ablation import ablation

    with _progress(quiet, transient=True) as bars:
        r = ablation(corpus, parser, parts=parts, rate=rate, per_sentence=per_sentence,
                     seed=seed, replicates=replicates, lang=lang, window=window,
                     workers=workers, timeout=timeout, samples=samples, progress=bars)
    _show(r, as_json)
