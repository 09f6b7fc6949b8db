"""Head-rule conversion of trees to dependencies (Lin's procedure): tables, rules,
``parsebench convert`` and ``eval deps --head-rules``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import error_text, shared_path

from parsebench.cli import main
from parsebench.common.errors import InputError
from parsebench.formats.brackets import Tree, parse_tree, read_trees
from parsebench.formats.conllu import Sentence, read_conllu
from parsebench.formats.headrules import (
    PUNCT_TAGS,
    Conversion,
    collins_np,
    convert_tree,
    load_table,
    parse_table,
    split_label,
    upos_of,
)

COLLINS = load_table("collins")
P2M = load_table("penn2malt")


def conv(text: str, table_name: str = "collins", conversion: Conversion | None = None
         ) -> Sentence:
    s = convert_tree(parse_tree(text), load_table(table_name), conversion)
    assert s is not None
    return s


def arcs(s: Sentence) -> list[tuple[str, str, str]]:
    """(word, its head word or ROOT, deprel) of every word."""
    return [(w, "ROOT" if h == 0 else s.forms[h - 1], d)
            for w, h, d in zip(s.forms, s.heads, s.deprels, strict=True)]


def head_word(text: str, table: str = "collins") -> str:
    s = conv(text, table)
    return s.forms[s.heads.index(0)]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


# ------------------------------------------------------------- labels and tags


def test_split_label_strips_function_tags_and_indices() -> None:
    assert split_label("NP-SBJ-1") == ("NP", frozenset({"SBJ"}))
    assert split_label("PP-LOC-CLR") == ("PP", frozenset({"LOC", "CLR"}))
    assert split_label("NP=2") == ("NP", frozenset())
    assert split_label("-NONE-") == ("-NONE-", frozenset())
    assert split_label("-LRB-") == ("-LRB-", frozenset())
    assert split_label("PRP$") == ("PRP$", frozenset())


def test_upos_mapping() -> None:
    got = {t: upos_of(t) for t in ("NN", "NNPS", "MD", "VBZ", "IN", "RP", "TO", "PRP$",
                                   "CD", "CC", ",", "-LRB-", "$", "WEIRD")}
    assert got == {"NN": "NOUN", "NNPS": "PROPN", "MD": "AUX", "VBZ": "VERB", "IN": "ADP",
                   "RP": "ADP", "TO": "PART", "PRP$": "PRON", "CD": "NUM", "CC": "CCONJ",
                   ",": "PUNCT", "-LRB-": "PUNCT", "$": "SYM", "WEIRD": "X"}


# ------------------------------------------------------------- every Collins rule

# One tree a rule, built so that the priority order and the direction both matter:
# the expected head is not what the first or last child, nor the other direction,
# would give.
COLLINS_CASES = [
    ("(ADJP (RB very) (JJ big) (NN deal) (JJ x))", "deal"),        # NN before JJ, from left
    ("(ADVP (RB a) (RB b) (IN c))", "b"),                          # right: last RB
    ("(CONJP (RB rather) (IN than))", "rather"),                   # right: RB before IN
    ("(FRAG (NN a) (NN b) (. .))", "b"),                           # right, punct skipped
    ("(INTJ (UH oh) (UH no))", "oh"),                              # left: first child
    ("(LST (LS a) (: :) (LS b))", "b"),                            # right: last LS
    ("(NAC (NNP a) (NN b) (NN c))", "b"),                          # left: NN first
    ("(PP (IN because) (IN of) (NP (NN it)))", "of"),              # right: last IN
    ("(PRN (, ,) (VP (VBD said)) (NP (PRP he)))", "said"),         # left, punct skipped
    ("(PRT (RP up) (RP out))", "out"),                             # right: last RP
    ("(QP (RB about) (CD 5) (IN to) (CD 6))", "to"),               # left: IN before CD
    ("(RRC (ADVP (RB now)) (NP (NN x)) (VP (VBN y)))", "y"),       # right: VP first
    ("(S (NP (NN a)) (VP (VBD b)) (VP (VBD c)))", "b"),            # left: first VP
    ("(SBAR (IN that) (WHNP (WP who)) (S (VP (VBD b))))", "who"),  # WHNP before IN
    ("(SBARQ (WHNP (WP who)) (SQ (VBD came)) (. ?))", "came"),     # SQ
    ("(SINV (ADVP (RB so)) (VP (VB b)) (VBZ does))", "does"),      # VBZ before VP
    ("(SQ (VP (VB b)) (MD can) (NP (PRP it)))", "can"),            # MD before VP
    ("(UCP (NN a) (JJ b) (NN c))", "c"),                           # right: last child
    ("(VP (NP (NN x)) (VBN a) (VBD b))", "b"),                     # VBD before VBN
    ("(WHADJP (JJ a) (WRB how) (JJ b))", "how"),                   # WRB before JJ
    ("(WHADVP (WRB a) (WRB b))", "b"),                             # right
    ("(WHNP (WHNP (WP a)) (WDT which))", "which"),                 # WDT first
    ("(WHPP (IN of) (TO to) (NP (NN x)))", "of"),                  # right: IN before TO
]


@pytest.mark.parametrize(("tree", "head"), COLLINS_CASES,
                         ids=[c[0].split()[0][1:] for c in COLLINS_CASES])
def test_every_collins_rule(tree: str, head: str) -> None:
    assert head_word(tree) == head


def test_collins_cases_cover_every_label_of_the_table() -> None:
    covered = {c[0].split()[0][1:] for c in COLLINS_CASES}
    assert covered == set(COLLINS.rules)


@pytest.mark.parametrize(("labels", "head"), [
    (["NP", "POS"], 1),                        # last child POS
    (["DT", "NN", "NNS", "CD"], 2),            # rightmost noun
    (["NP", "PP", "NP"], 0),                   # leftmost NP
    (["DT", "ADJP", "$", "CD"], 2),            # from the right: $ ADJP PRN
    (["DT", "CD", "JJ", "CD"], 3),             # then CD from the right
    (["DT", "JJ", "RB", "DT"], 2),             # then JJ JJS RB QP from the right
    (["DT", "DT"], 1),                         # else the last child
])
def test_collins_np_rule(labels: list[str], head: int) -> None:
    assert collins_np(labels)[0] == head


def test_np_rule_in_a_tree_and_the_possessive() -> None:
    s = conv("(NP (NP (NNP John) (POS 's)) (NN dog))")
    assert arcs(s) == [("John", "'s", "mod"), ("'s", "dog", "spec"), ("dog", "ROOT", "root")]


def test_coordination_rule() -> None:
    # UCP searches from the right: its last child, after a CC, gives way to the first
    s = conv("(UCP (NN a) (CC and) (JJ b))")
    assert arcs(s) == [("a", "ROOT", "root"), ("and", "a", "cc"), ("b", "a", "mod")]
    # the same table without the coordination rule keeps the last child
    no = parse_table([ln for ln in Path(_collins_path()).read_text().splitlines()
                      if not ln.startswith("%coordination")], "t", "t")
    s2 = convert_tree(parse_tree("(UCP (NN a) (CC and) (JJ b))"), no)
    assert s2 is not None and s2.forms[s2.heads.index(0)] == "b"


def test_coordinated_nps_and_conj_label() -> None:
    s = conv("(NP (NP (NNS cats)) (CC and) (NP (NNS dogs)))")
    assert arcs(s) == [("cats", "ROOT", "root"), ("and", "cats", "cc"),
                       ("dogs", "cats", "conj")]
    # penn2malt takes the rightmost NP
    s = conv("(NP (NP (NNS cats)) (CC and) (NP (NNS dogs)))", "penn2malt")
    assert s.forms[s.heads.index(0)] == "dogs"


def _collins_path() -> str:
    from importlib import resources
    return str(resources.files("parsebench") / "data" / "headrules" / "collins.txt")


# ------------------------------------------------------------- tree clean-up


def test_traces_and_the_constituents_they_empty_are_removed() -> None:
    t = ("( (S (NP-SBJ-1 (NNS Prices)) (VP (VBD were) (VP (VBN cut) (NP (-NONE- *-1)) "
         "(SBAR (-NONE- 0) (S (NP-SBJ (-NONE- *T*-2)) (VP (-NONE- *?*)))))) (. .)) )")
    s = conv(t)
    assert s.forms == ["Prices", "were", "cut", "."]
    assert arcs(s) == [("Prices", "were", "subj"), ("were", "ROOT", "root"),
                       ("cut", "were", "comp"), (".", "were", "punct")]
    assert s.xpos == ["NNS", "VBD", "VBN", "."]
    assert s.upos == ["NOUN", "VERB", "VERB", "PUNCT"]
    assert s.comments == ["# text = Prices were cut ."]


def test_function_tags_give_the_deprel() -> None:
    t = ("(S (NP-SBJ (PRP He)) (VP (VBD put) (NP (DT the) (NN book)) "
         "(PP-PUT (IN on) (NP (NN shelf))) (NP-TMP (NN today))) (. .))")
    assert arcs(conv(t)) == [
        ("He", "put", "subj"), ("put", "ROOT", "root"), ("the", "book", "spec"),
        ("book", "put", "obj"), ("on", "put", "comp"), ("shelf", "on", "comp"),
        ("today", "put", "mod"), (".", "put", "punct")]
    # without the tags, the position says subject and the temporal NP is an object
    bare = t.replace("-SBJ", "").replace("-PUT", "").replace("-TMP", "")
    assert [d for _, _, d in arcs(conv(bare))] == [
        "subj", "root", "spec", "obj", "mod", "comp", "obj", "punct"]


def test_unary_chain_and_root_brackets() -> None:
    for t in ("(S (VP (VB Go)))", "( (S (VP (VB Go))) )", "(ROOT (S (VP (VB Go))))",
              "(TOP (S (VP (VB Go))))"):
        s = conv(t)
        assert arcs(s) == [("Go", "ROOT", "root")], t


def test_deep_tree_and_several_words_under_one_tag() -> None:
    deep = "(S " * 20000 + "(NP (NNP New York)) (VP (VBD won))" + ")" * 20000
    s = conv(deep)
    assert arcs(s) == [("New", "York", "mod"), ("York", "won", "subj"),
                       ("won", "ROOT", "root")]


def test_tree_of_empty_elements_only_gives_no_sentence() -> None:
    assert convert_tree(parse_tree("( (S (NP-SBJ (-NONE- *)) (VP (-NONE- *?*))) )"),
                        COLLINS) is None


def test_punctuation_only_sentences() -> None:
    assert arcs(conv("( (. .) )")) == [(".", "ROOT", "root")]
    # all children punctuation: the rule runs on them all (FRAG: the last child)
    s = conv("(FRAG (, ,) (: --) (. .))")
    assert arcs(s) == [(",", ".", "punct"), ("--", ".", "punct"), (".", "ROOT", "root")]


def test_unknown_labels_take_the_default_and_are_counted() -> None:
    c = Conversion()
    s = conv("(IP (NP (NN rain)) (VP (VBD fell)) (XYZ (NN x)))", conversion=c)
    # IP has no rule: its first child heads; XYZ is unary, needing no rule
    assert s.forms[s.heads.index(0)] == "rain"
    conv("(IP (NN a) (NN b))", conversion=c)
    assert c.unknown == {"IP": 2}
    assert c.warnings() == ["2 constituents had a label the head table has no rule for "
                            "and took the default head: IP 2"]


def test_word_without_a_tag_is_an_error() -> None:
    with pytest.raises(InputError, match="no part-of-speech tag"):
        convert_tree(parse_tree("(S John (VP (VBD ran)))"), COLLINS, path="f", line=3)


def test_trace_names_the_rule_of_every_constituent() -> None:
    lines: list[str] = []
    convert_tree(parse_tree("(S (NP (DT the) (NN dog)) (VP (VBD ran)) (. .))"), COLLINS,
                 None, lines, sent_id="s1")
    assert lines == [
        "s1\t1-2\tNP\tDT NN\t2\tdog\tNP rule: from the right, first of "
        "NN NNP NNPS NNS NX POS JJR: NN",
        "s1\t3-3\tVP\tVBD\t1\tran\tonly child",
        "s1\t1-4\tS\tNP VP .\t2\tran\tleft TO IN VP S SBAR ADJP UCP NP: found VP "
        "(punctuation skipped)",
    ]


# ------------------------------------------------------------- table files


def test_table_file_format(tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("# a table\n%default right\nS left VP  # the verb\nS rightdis NN NNS\n"
                 "NP leftdis NN NNS\n")
    t = load_table(f)
    assert t.default == "right" and not t.np_rule and not t.coordination
    assert t.head_child("S", ["NN", "NNS", "DT"])[0] == 1       # second line, from the right
    assert t.head_child("S", ["DT", "DT"])[0] == 0              # none: first line's end
    assert t.head_child("NP", ["DT", "NNS", "NN"])[0] == 1      # first of the set from left
    assert t.head_child("X", ["DT", "NN"]) == (1, "default right (no rule for X)", False)


@pytest.mark.parametrize(("text", "message"), [
    ("S sideways VP\n", "bad rule 'S sideways VP'"),
    ("S\n", "bad rule 'S'"),
    ("%default middle\n", "bad option '%default middle'"),
])
def test_bad_table_line(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "t.txt"
    f.write_text("# ok\n" + text)
    with pytest.raises(InputError) as e:
        load_table(f)
    assert e.value.line == 2 and message in e.value.message


# ------------------------------------------------------------- the command line


def test_convert_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trees = tmp_path / "t.mrg"
    trees.write_text("( (S (NP-SBJ (PRP I)) (VP (VBD saw) (NP (PRP her))) (. .)) )\n"
                     "( (S (NP-SBJ (-NONE- *)) (VP (-NONE- *?*))) )\n"
                     "(IP (NN a) (NN b))\n")
    out, trace = tmp_path / "o.conllu", tmp_path / "t.tsv"
    code, _, err = run(["convert", str(trees), "-o", str(out), "--head-rules",
                        "collins", "--trace", str(trace)], capsys)
    assert code == 0, err
    assert err == ("warning: 1 constituent had a label the head table has no rule for "
                   "and took the default head: IP 1\n")
    sents = read_conllu(out)
    assert [s.comment_value("sent_id") for s in sents] == ["t-1", "t-3"]
    assert [arcs(s) for s in sents] == [
        [("I", "saw", "subj"), ("saw", "ROOT", "root"), ("her", "saw", "obj"),
         (".", "saw", "punct")],
        [("a", "ROOT", "root"), ("b", "a", "mod")]]
    assert trace.read_text().splitlines()[0].startswith("sentence\twords\tlabel")
    assert len(trace.read_text().splitlines()) == 1 + 4 + 1  # header, t-1, t-3


@pytest.mark.parametrize(("content", "where", "what"), [
    ("1\tx\t_\t_\t_\t_\t0\troot\t_\t_\n", 1, "not bracketed trees"),
    ("(S (NP (NN a))\n(S (NP (NN b)))\n", 1, "unbalanced brackets"),
    ("(S (NN a)))\n", 1, "unbalanced brackets: too many ')'"),
])
def test_convert_errors_are_one_line_and_write_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, where: int,
        what: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    out = tmp_path / "o.conllu"
    code, stdout, err = run(["convert", str(bad), "-o", str(out), "--head-rules",
                             "penn2malt"], capsys)
    assert code == 2 and stdout == ""
    assert error_text(err).startswith(f"parsebench: {bad}:{where}: {what}") and err.count("\n") == 1
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]


def test_convert_bad_table_is_file_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    trees = tmp_path / "t.mrg"
    trees.write_text("(S (NN a))\n")
    table = tmp_path / "rules.txt"
    table.write_text("S left NN\nNP up NN\n")
    out = tmp_path / "o.conllu"
    code, _, err = run(["convert", str(trees), "-o", str(out), "--head-rules", str(table)],
                       capsys)
    assert code == 2 and error_text(err).startswith(f"parsebench: {table}:2: bad rule 'NP up NN'")
    assert not out.exists()
    code, _, err = run(["convert", str(trees), "-o", str(out), "--head-rules", "magerman"],
                       capsys)
    assert code == 2 and "no built-in head table" in err


def _sample_pair(tmp_path: Path) -> tuple[Path, Path]:
    """A gold file of trees and a 'system' that attaches PPs differently."""
    gold = tmp_path / "gold.mrg"
    gold.write_text(
        "( (S (NP-SBJ (PRP I)) (VP (VBD saw) (NP (NP (DT a) (NN man)) (PP (IN with) "
        "(NP (DT a) (NN telescope))))) (. .)) )\n"
        "( (S (NP-SBJ (NNS Cats) (CC and) (NNS dogs)) (VP (VBP sleep)) (. .)) )\n")
    system = tmp_path / "system.mrg"
    system.write_text(
        "(S (NP (PRP I)) (VP (VBD saw) (NP (DT a) (NN man)) (PP (IN with) "
        "(NP (DT a) (NN telescope)))) (. .))\n"
        "(S (NP (NP (NNS Cats)) (CC and) (NP (NNS dogs))) (VP (VBP sleep)) (. .))\n")
    return gold, system


@pytest.mark.parametrize("options", [[], ["--no-punct"], ["--by", "deprel"],
                                     ["--select", "deprel=obj,comp"]])
def test_eval_deps_on_trees_equals_convert_then_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]) -> None:
    gold, system = _sample_pair(tmp_path)
    g, s = tmp_path / "g.conllu", tmp_path / "s.conllu"
    for src, dst in ((gold, g), (system, s)):
        assert run(["convert", str(src), "-o", str(dst), "--head-rules", "collins"],
                   capsys)[0] == 0
    code, direct, err = run(["eval", "deps", str(gold), str(system), "--head-rules",
                             "collins", "--json", *options], capsys)
    assert code == 0, err
    code, converted, _ = run(["eval", "deps", str(g), str(s), "--json", *options], capsys)
    # the warnings name the files given: the trees here, the converted files there
    direct = direct.replace(str(gold), str(g)).replace(str(system), str(s))
    a, b = json.loads(direct), json.loads(converted)
    sa, sb = a.pop("signature"), b.pop("signature")
    assert sa == sb.replace("|version:", "|head-rules:collins|version:")
    assert a == b
    # and mixed: trees on one side, CoNLL-U on the other
    code, mixed, _ = run(["eval", "deps", str(g), str(system), "--head-rules", "collins",
                          "--json", *options], capsys)
    m = json.loads(mixed.replace(str(system), str(s)))
    m.pop("signature")
    assert m == b


def test_eval_deps_numbers_on_trees(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = _sample_pair(tmp_path)
    _, out, _ = run(["eval", "deps", str(gold), str(system), "--head-rules", "collins",
                     "--json"], capsys)
    d = json.loads(out)
    # 13 words, 11 dependencies (two roots). The attachment of the PP is the one
    # error (Lin: one error, one dependency); the flat and the nested coordination
    # give the same dependencies under Collins' coordination rule.
    assert (d["unlabeled"]["key"], d["unlabeled"]["matched"]) == (11, 10)
    assert (d["labeled"]["key"], d["labeled"]["matched"]) == (11, 10)


def test_eval_deps_refuses_trees_without_head_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = _sample_pair(tmp_path)
    code, out, err = run(["eval", "deps", str(gold), str(system)], capsys)
    assert code == 2 and out == ""
    assert err == (f"parsebench: {gold}: bracketed trees: give --head-rules (collins, "
                   "penn2malt or a table file) to convert them to dependencies\n")


def _with_a_failed_parse(tmp_path: Path) -> tuple[Path, Path]:
    """A gold of two trees; a system whose parser failed on the second (the flat tree
    ``parse`` writes for a failure, as Link Grammar's adapter fails)."""
    gold = tmp_path / "gold.mrg"
    gold.write_text("(S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .))\n"
                    "(S (NP (NNP John)) (VP (VBZ runs)) (. .))\n")
    system = tmp_path / "system.mrg"
    system.write_text("(S (NP (DT The) (NN dog)) (VP (VBZ barks)) (. .))\n"
                      "(PARSE-FAILED (X John) (X runs) (X .))\n")
    return gold, system


def test_a_failed_parse_converts_to_a_failure_not_a_tree(tmp_path: Path) -> None:
    """It took the default head of an unknown label (PARSE) and was scored as a tree."""
    from parsebench.api.evaluation import convert

    _, system = _with_a_failed_parse(tmp_path)
    r = convert(system, "collins")
    ok, failed = list(r)
    assert ok.heads == [2, 3, 0, 3]
    assert failed.forms == ["John", "runs", "."]
    assert failed.heads == [-1, -1, -1] and failed.deprels == ["_"] * 3
    assert failed.comment_value("parse_status") == "failed"
    assert r.warnings == [f"{system}: 1 failed parse (PARSE-FAILED trees): written without "
                          "heads, marked '# parse_status = failed'"]
    assert r.trace.splitlines()[-1].endswith("PARSE-FAILED\t-\t-\t-\tthe parser failed: "
                                             "no heads")


def test_eval_deps_counts_a_converted_failed_parse_as_a_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = _with_a_failed_parse(tmp_path)
    code, out, err = run(["eval", "deps", str(gold), str(system), "--head-rules", "collins",
                          "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["failed"] == 1
    # gold: 5 dependencies (7 words, 2 roots); the parsed sentence gets its 3 right, the
    # failed one gives none (before: 2 guessed by the default head, all wrong)
    assert (d["unlabeled"]["key"], d["unlabeled"]["answer"], d["unlabeled"]["matched"]) \
        == (5, 3, 3)
    assert d["uas"]["f1"] == pytest.approx(4 / 7)
    # one warning for the cause: no default head, no fragments, no second note
    failures = [w for w in d["warnings"] if "failed" in w]
    assert failures == [f"{system}: 1 sentence(s) the parser failed on (first at line 2): "
                        "counted as failures, with no attachment"]
    assert not any("default head" in w or "fragments" in w for w in d["warnings"])


# ------------------------------------------------------------- Collins, independently

# Collins (1999), Appendix A, written again here from the thesis and shared with the
# module in nothing but the tree reader: (direction, priority list) by label, the NP
# rule, the coordination rule, punctuation never a head.
THESIS = {
    "ADJP": ("L", "NNS QP NN $ ADVP JJ VBN VBG ADJP JJR NP JJS DT FW RBR RBS SBAR RB"),
    "ADVP": ("R", "RB RBR RBS FW ADVP TO CD JJR JJ IN NP JJS NN"),
    "CONJP": ("R", "CC RB IN"), "FRAG": ("R", ""), "INTJ": ("L", ""),
    "LST": ("R", "LS :"),
    "NAC": ("L", "NN NNS NNP NNPS NP NAC EX $ CD QP PRP VBG JJ JJS JJR ADJP FW"),
    "PP": ("R", "IN TO VBG VBN RP FW"), "PRN": ("L", ""), "PRT": ("R", "RP"),
    "QP": ("L", "$ IN NNS NN JJ RB DT CD NCD QP JJR JJS"),
    "RRC": ("R", "VP NP ADVP ADJP PP"), "S": ("L", "TO IN VP S SBAR ADJP UCP NP"),
    "SBAR": ("L", "WHNP WHPP WHADVP WHADJP IN DT S SQ SINV SBAR FRAG"),
    "SBARQ": ("L", "SQ S SINV SBARQ FRAG"),
    "SINV": ("L", "VBZ VBD VBP VB MD VP S SINV ADJP NP"),
    "SQ": ("L", "VBZ VBD VBP VB MD VP SQ"), "UCP": ("R", ""),
    "VP": ("L", "TO VBD VBN MD VBZ VB VBG VBP VP ADJP NN NNS NP"),
    "WHADJP": ("L", "CC WRB JJ ADJP"), "WHADVP": ("R", "CC WRB"),
    "WHNP": ("L", "WDT WP WP$ WHADJP WHPP WHNP"), "WHPP": ("R", "IN TO FW"),
}


def _base(label: str) -> str:
    if label.startswith("-") and label.endswith("-") and len(label) > 1:
        return label
    for sep in "-=":
        if sep in label[1:]:
            label = label[0] + label[1:].split(sep, 1)[0]
    return label


def _thesis_head(parent: str, kids: list[str]) -> int:
    cands = [i for i, k in enumerate(kids) if k not in PUNCT_TAGS] or list(range(len(kids)))
    ks = [kids[i] for i in cands]
    n = len(ks)
    h: int | None = None
    if parent in ("NP", "NX"):
        if ks[-1] == "POS":
            h = n - 1
        for group, rightward in (("NN NNP NNPS NNS NX POS JJR", False), ("NP", True),
                                 ("$ ADJP PRN", False), ("CD", False),
                                 ("JJ JJS RB QP", False)):
            if h is not None:
                break
            seq = range(n) if rightward else reversed(range(n))
            h = next((i for i in seq if ks[i] in group.split()), None)
        if h is None:
            h = n - 1
    elif parent in THESIS:
        direction, pri = THESIS[parent]
        seq = list(range(n)) if direction == "L" else list(reversed(range(n)))
        for cat in pri.split():
            h = next((i for i in seq if ks[i] == cat), None)
            if h is not None:
                break
        if h is None:
            h = seq[0]
    else:
        h = 0
    if h >= 2 and ks[h - 1] == "CC":
        h -= 2
    return cands[h]


def _thesis_heads(tree: Tree) -> list[int]:
    """HEAD of every word (1-based, 0 for the root), by recursion over the tree."""
    heads: dict[int, int] = {}
    counter = [0]

    def clean(t: Tree) -> Tree | None:
        if t.label == "-NONE-":
            return None
        if t.is_preterminal():
            return t
        kids = [c for c in (clean(k) for k in t.children if isinstance(k, Tree)) if c]
        return Tree(t.label, list(kids)) if kids else None

    def walk(t: Tree) -> int:
        if t.is_preterminal():
            counter[0] += 1
            return counter[0]
        subs = [c for c in t.children if isinstance(c, Tree)]
        words = [walk(c) for c in subs]
        h = _thesis_head(_base(t.label), [_base(c.label) for c in subs]) if len(subs) > 1 \
            else 0
        for i, w in enumerate(words):
            if i != h:
                heads[w] = words[h]
        return words[h]

    root = clean(tree)
    assert root is not None
    while root.label in ("", "ROOT") and len(root.children) == 1:
        root = root.children[0]  # type: ignore[assignment]
    heads[walk(root)] = 0
    return [heads[i] for i in range(1, counter[0] + 1)]


def test_collins_agrees_with_an_independent_implementation_on_the_sample() -> None:
    folder = shared_path("data/ptb-sample-nltk")
    words = 0
    for f in sorted(folder.glob("*.mrg")):
        for tree in read_trees(f):
            s = convert_tree(tree, COLLINS)
            if s is None:
                continue
            assert s.heads == _thesis_heads(tree), f"{f}: {' '.join(s.forms)}"
            words += len(s)
    assert words == 94084


def test_whole_sample_converts_with_both_tables() -> None:
    folder = shared_path("data/ptb-sample-nltk")
    for table, unknown in ((COLLINS, {"X": 2}), (P2M, {})):
        c = Conversion()
        n = 0
        for f in sorted(folder.glob("*.mrg")):
            for tree in read_trees(f):
                s = convert_tree(tree, table, c)
                assert s is not None
                assert s.heads.count(0) == 1
                n += len(s)
        assert (c.sentences, n, dict(c.unknown)) == (3914, 94084, unknown)
