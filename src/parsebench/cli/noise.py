"""``noise``: misspellings or learner-like errors, seeded and recorded."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsebench.cli._app import JsonOpt, _Bars, _emit_json, app
from parsebench.errors import InputError, atomic_output
from parsebench.signature import signature

if TYPE_CHECKING:
    from parsebench.formats.conllu import Sentence



def _replicate_path(out: Path, seed: int, replicates: int) -> Path:
    if replicates == 1:
        return out
    return out.with_name(f"{out.stem}.seed{seed}{out.suffix}")


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
                                      "keyboard.")] = "en",
    lexicon: Annotated[str | None, typer.Option(
        "--lexicon", help="wordfreq:LANG (default), a word list file, or a hunspell .dic."
    )] = None,
    keyboard: Annotated[str | None, typer.Option(
        "--keyboard", help="us-qwerty, sv-qwerty, or a layout file (default: by --lang).")
    ] = None,
    weights: Annotated[str | None, typer.Option(
        "--weights", help="Operation weights, e.g. sub=2,ins=1,del=1,trans=1; with --kind "
        "grammar type weights over the defaults, e.g. R:WO=2,M:DET=1.")] = None,
    min_length: Annotated[int, typer.Option("--min-length", help="Shortest word that may be "
                                            "misspelled.")] = 2,
    drop_short: Annotated[bool, typer.Option(
        "--drop-short", help="With --per-sentence, leave out sentences with too few "
        "eligible words.")] = False,
    kind: Annotated[str, typer.Option(
        "--kind", help="spelling: one keyboard misspelling a word (Bigert et al.); grammar: "
        "learner-like errors of ERRANT's types, written with OUT.m2 and OUT.align.")
    ] = "spelling",
    types: Annotated[str | None, typer.Option(
        "--types", help="With --kind grammar: the error types to make, e.g. M:DET,R:WO "
        "(default: all).")] = None,
    tagger: Annotated[str | None, typer.Option(
        "--tagger", help="With --kind grammar and a text input: the parser (as for parse "
        "--parser) whose UPOS, features and heads say where errors can go.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Make noisy text, seeded and recorded: misspellings, or learner-like errors with their
    ERRANT types (OUT.m2) and alignment (OUT.align)."""
    import json

    if kind not in ("spelling", "grammar"):
        raise InputError(f"--kind {kind!r}: spelling or grammar")
    if kind == "grammar":
        _noise_grammar(source, output, rate, per_sentence, seed, replicates, lang, lexicon,
                       keyboard, weights, drop_short, types, tagger, as_json)
        return
    if types is not None or tagger is not None:
        raise InputError("--types and --tagger go with --kind grammar")
    import time
    from itertools import islice

    from parsebench.errors import check_output, iter_lines
    from parsebench.formats.conllu import iter_conllu, looks_like_conllu, write_conllu
    from parsebench.limits import check
    from parsebench.noise.keyboard import KEYBOARDS, Keyboard
    from parsebench.noise.lexicon import Lexicon
    from parsebench.noise.spelling import (
        Change,
        Settings,
        StreamedCorpus,
        apply_to_sentence,
        parse_weights,
        unannotated,
    )

    check("replicates", replicates)
    check("seed", seed)
    check_output(output)
    w = parse_weights(weights)
    Settings(rate, per_sentence, seed, w, min_length).check()
    kb = Keyboard.load(keyboard or KEYBOARDS.get(lang, "us-qwerty"))
    # The input is read a sentence at a time, several times over, and never held whole:
    # memory stays flat in its size (see noise.StreamedCorpus).
    conllu = looks_like_conllu(source, islice(iter_lines(source), 1000))

    def sentences() -> Any:
        if conllu:
            return ((x.forms, {i for a, b, _ in x.multiword for i in range(a, b + 1)})
                    for x in iter_conllu(source))
        return ((ln.split(), set()) for ln in iter_lines(source))

    corpus = StreamedCorpus(sentences, min_length)
    t0 = time.perf_counter()
    lex = Lexicon.load(lexicon, lang)
    t_lex = time.perf_counter() - t0
    files: list[dict[str, Any]] = []
    for s in range(seed, seed + replicates):
        target = _replicate_path(output, s, replicates)
        t1 = time.perf_counter()
        report = corpus.plan(Settings(rate, per_sentence, s, w, min_length), kb, lex)
        dt = time.perf_counter() - t1
        short = set(report.short_sentences) if drop_short else set()
        by_sentence: dict[int, list[Change]] = {}
        for c in report.changes:
            by_sentence.setdefault(c.sentence, []).append(c)
        with atomic_output(target) as fh:
            if conllu:
                for k, x in enumerate(iter_conllu(source)):
                    if k not in short:
                        write_conllu([unannotated(apply_to_sentence(
                            x, by_sentence.get(k, ())))], fh)
            else:
                for k, (toks, _) in enumerate(sentences()):
                    if k not in short:
                        for c in by_sentence.get(k, ()):
                            toks[c.token] = c.new
                        fh.write(" ".join(toks) + "\n")
        if not conllu:
            side = {"settings": {"rate": rate, "per_sentence": per_sentence, "seed": s,
                                 "lexicon": lex.name, "keyboard": kb.name, "weights": w,
                                 "min_length": min_length, "dropped_short": drop_short},
                    "changes": [{"line": c.sentence + 1, "token": c.token + 1, "op": c.op,
                                 "orig": c.orig, "new": c.new} for c in report.changes]}
            with atomic_output(target.with_name(target.name + ".noise.json")) as fh:
                fh.write(json.dumps(side, ensure_ascii=False, indent=1) + "\n")
        files.append({"file": str(target), "seed": s, "words": report.words,
                      "eligible": report.eligible, "misspelled": len(report.changes),
                      "skipped_no_nonword": report.no_nonword,
                      "short_sentences": len(report.short_sentences),
                      "shortfall": report.shortfall})
        typer.echo(f"{target} (seed {s}): " + report.summary().replace("\n", "\n  "), err=True)
        typer.echo(f"  generation {dt:.3f} s ({report.words / dt:,.0f} words/s); lexicon "
                   f"{lex.name} loaded once in {t_lex:.3f} s", err=True)
    if as_json:
        _emit_json({"files": files, "signature": signature(
            method="noise", rate=rate, per_sentence=per_sentence, seed=seed,
            replicates=replicates, lexicon=lex.name, keyboard=kb.name,
            weights=",".join(f"{k}={v:g}" for k, v in w.items()),
            min_length=min_length, drop_short=drop_short)})


def _noise_grammar(source: Path, output: Path, rate: float | None, per_sentence: int | None,
                   seed: int, replicates: int, lang: str, lexicon: str | None,
                   keyboard: str | None, weights: str | None, drop_short: bool,
                   types: str | None, tagger: str | None, as_json: bool) -> None:
    """``noise --kind grammar``: the errors, then OUT, OUT.m2 and OUT.align per replicate."""
    import time
    from itertools import islice

    from parsebench.errors import check_output, iter_lines
    from parsebench.formats.conllu import iter_conllu, looks_like_conllu, write_conllu
    from parsebench.limits import check
    from parsebench.noise.grammar import Planner, speller, zipf
    from parsebench.noise.grammar_output import noisy_sentence, pharaoh, write_m2
    from parsebench.noise.grammar_types import Settings as GrammarSettings
    from parsebench.noise.grammar_types import parse_types
    from parsebench.noise.grammar_types import parse_weights as parse_type_weights
    from parsebench.noise.keyboard import KEYBOARDS

    check("replicates", replicates)
    check("seed", seed)
    if lang != "en":
        raise InputError(f"--kind grammar makes English errors only, not --lang {lang}")
    check_output(output)
    settings = GrammarSettings(rate, per_sentence, seed, parse_types(types),
                               parse_type_weights(weights))
    settings.check()
    conllu = looks_like_conllu(source, islice(iter_lines(source), 1000))
    tagged: list[Sentence] | None = None
    if not conllu:
        if tagger is None:
            raise InputError("a text input needs --tagger (a parser giving UPOS, features "
                             "and heads), or give CoNLL-U", source)
        from parsebench.parsers.run import parse_sentences, read_input, to_conllu

        plain = read_input(source)
        with _Bars(transient=True) as bars:
            bars.stage("tagging", len(plain))
            run = parse_sentences(plain, tagger, progress=lambda _t: bars.advance())
        tagged = [to_conllu(s, t, run.kind) for s, t in zip(plain, run.timed, strict=True)]
    elif tagger is not None:
        raise InputError("--tagger is for text input; a CoNLL-U input's own annotation is used")

    def read() -> Any:
        return iter(tagged) if tagged is not None else iter_conllu(source)

    spell = None
    if "R:SPELL" in settings.types:
        spell = speller(keyboard or KEYBOARDS.get(lang, "us-qwerty"), lexicon, lang,
                        {w.lower() for s in read() for w in s.forms})
    with _Bars(transient=True) as bars:

        def listed() -> Any:
            for x in read():
                bars.advance()
                yield x

        t0 = time.perf_counter()
        bars.stage("listing error sites", None)
        planner = Planner(listed, settings.types, spell, zipf(lang))
        t_sites = time.perf_counter() - t0
        if not planner.annotated:
            raise InputError("no word has a UPOS: --kind grammar places errors by the "
                             "annotation (give --tagger with the words as text)", source)
        files: list[dict[str, Any]] = []
        for s in range(seed, seed + replicates):
            target = _replicate_path(output, s, replicates)
            st = GrammarSettings(rate, per_sentence, s, settings.types, settings.weights)
            report, chosen = planner.plan(st, last=s == seed + replicates - 1)
            short = set(report.short_sentences) if drop_short else set()
            recorded: Counter[str] = Counter()
            unrealised = planner.unrealised
            bars.stage(f"writing seed {s}", len(planner.starts) - 1)
            with atomic_output(target) as out, \
                    atomic_output(target.with_name(target.name + ".m2")) as m2, \
                    atomic_output(target.with_name(target.name + ".align")) as al:
                for k, x in enumerate(read()):
                    bars.advance()
                    if k in short:
                        continue
                    edits = planner.realise(x, k, chosen.get(k, ()), s)
                    noisy, pairs, m2_edits = noisy_sentence(x, edits)
                    recorded.update(e.type for e in edits)
                    if conllu:
                        write_conllu([noisy], out)
                    else:
                        out.write(" ".join(noisy.forms) + "\n")
                    write_m2(m2, noisy.forms, m2_edits)
                    al.write(pharaoh(pairs) + "\n")
            if planner.unrealised > unrealised:  # reported as short, never a crash
                report.shortfall += planner.unrealised - unrealised
                report.errors = recorded
            files.append({"file": str(target), "m2": f"{target}.m2", "align": f"{target}.align",
                          "seed": s, "words": report.words, "errors": report.made,
                          "by_type": dict(sorted(recorded.items())),
                          "sites": dict(report.sites), "short_sentences":
                          len(report.short_sentences), "shortfall": report.shortfall})
            typer.echo(f"{target} (seed {s}): " + report.summary().replace("\n", "\n  "),
                       err=True)
    typer.echo(f"  sites listed in {t_sites:.2f} s ({planner.words / t_sites:,.0f} words/s)",
               err=True)
    if as_json:
        _emit_json({"files": files, "signature": signature(
            method="noise-grammar", rate=rate, per_sentence=per_sentence, seed=seed,
            replicates=replicates, types=",".join(settings.types),
            weights=",".join(f"{k}={v:g}" for k, v in settings.weights.items()
                             if k in settings.types), drop_short=drop_short)})


