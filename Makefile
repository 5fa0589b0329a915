# Two commands do all the set-up:  `make run` (the app on the demo index) and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO := indexes/demo/manifest.json
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install run demo test test-fast lint bench clean stance-model turn-reader

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip wheel setuptools
	# torch==2.13.0 is pinned in pyproject.toml (a CPU build); llama-cpp-python
	# compiles from source the first time (about 6 minutes on 2 cores).
	# Ray is optional for users (the `ray` extra); CI installs it so the Ray build tests run
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

install: $(STAMP)

# the demo index is derived: rebuilt whole when the corpus or config.yaml (chunking) changes
$(DEMO): $(STAMP) assistant/demo/corpus.jsonl config.yaml
	$(BIN)/sphere index demo --rebuild

demo: $(DEMO)

run: $(DEMO)
	$(BIN)/sphere

lint: $(STAMP)
	$(BIN)/ruff check assistant tests
	$(BIN)/mypy assistant

test: $(STAMP) lint
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

bench: $(DEMO)
	$(BIN)/sphere bench --json

# retrain the shipped stance model (docs/STANCE_MODEL.md); resumes a killed run
SHARED ?= ../shared/data
STANCE_CAPS := ibm_argq30k=800,ukp_sentential=600,sick=150,vast=1200,iam=600,perspectrum=800,ibm_claim_stance=400,arct=500
stance-model: $(STAMP)
	# six steps: E2, 2 epochs on the one-sentence sources; E3, 1 more epoch at a third
	# of the learning rate; round 10, 2 epochs on paragraphs (ArguAna, debatewise, ProCon,
	# the written corpus) with the sentence sources capped, 384 tokens, from E3; each
	# run keeps the epoch its dev split scores best; round 11, one more epoch at half
	# the learning rate (docs/STANCE_MODEL.md, "Round 11"); rounds 10 and 11 read the
	# written corpus of writers w1-w6 only; round 12, one more epoch on the paragraph
	# sources with all twelve writers ("Round 12"); round 13, one more epoch with round 11's
	# mix of sources and all twelve writers ("Round 13")
	mkdir -p $(VENV)/stance-work/written-r10
	cp tests/data/stance_corpus/dev.jsonl $(VENV)/stance-work/written-r10/
	$(BIN)/python -c "import json,sys; [sys.stdout.write(l) for l in open('tests/data/stance_corpus/train.jsonl') if json.loads(l)['writer'] in {'w1','w2','w3','w4','w5','w6'}]" > $(VENV)/stance-work/written-r10/train.jsonl
	# rounds 12 and 13 read the twelve writers of the first brief (w1-w12): the file they
	# read then, byte for byte (round 15's writers were appended after)
	mkdir -p $(VENV)/stance-work/written-r12
	cp tests/data/stance_corpus/dev.jsonl $(VENV)/stance-work/written-r12/
	$(BIN)/python -c "import json,sys; [sys.stdout.write(l) for l in open('tests/data/stance_corpus/train.jsonl') if json.loads(l)['writer'] in {f'w{i}' for i in range(1, 13)}]" > $(VENV)/stance-work/written-r12/train.jsonl
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--perspectrum $(SHARED)/perspectrum/perspectrum_with_answers_v1.0.json \
		--sources ibm_argq30k,ibm_claim_stance,ibm_kpa2021,ukp_sentential,iam,vast,arct,sick \
		--out $(VENV)/stance-work/stance-2epochs.safetensors
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--perspectrum $(SHARED)/perspectrum/perspectrum_with_answers_v1.0.json \
		--sources ibm_argq30k,ibm_claim_stance,ibm_kpa2021,ukp_sentential,iam,vast,arct,sick \
		--init $(VENV)/stance-work/stance-2epochs.safetensors --epochs 1 --lr 2e-5 \
		--out $(VENV)/stance-work/stance-e3.safetensors
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--perspectrum $(SHARED)/perspectrum/perspectrum_with_answers_v1.0.json \
		--written $(VENV)/stance-work/written-r10 --caps $(STANCE_CAPS) --max-len 384 \
		--init $(VENV)/stance-work/stance-e3.safetensors --epochs 2 --lr 3e-5 \
		--out $(VENV)/stance-work/stance-r10.safetensors
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--perspectrum $(SHARED)/perspectrum/perspectrum_with_answers_v1.0.json \
		--written $(VENV)/stance-work/written-r10 --caps $(STANCE_CAPS) --max-len 384 \
		--init $(VENV)/stance-work/stance-r10.safetensors --epochs 1 --lr 1.5e-5 \
		--out $(VENV)/stance-work/stance-r11.safetensors
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--written $(VENV)/stance-work/written-r12 --sources arguana,debatewise,procon \
		--caps arguana=2500 --max-len 384 \
		--init $(VENV)/stance-work/stance-r11.safetensors --epochs 1 --lr 1.5e-5 \
		--out $(VENV)/stance-work/stance-r12.safetensors
	$(BIN)/sphere train stance --data-dir $(SHARED)/stance \
		--perspectrum $(SHARED)/perspectrum/perspectrum_with_answers_v1.0.json \
		--written $(VENV)/stance-work/written-r12 --caps $(STANCE_CAPS) --max-len 384 \
		--init $(VENV)/stance-work/stance-r12.safetensors --epochs 1 --lr 1.5e-5 \
		--out assistant/stance/weights/stance-minilm.safetensors

# retrain the shipped follow-up turn reader on the development dialogues (docs/TURN_READER.md;
# about 7 minutes on 2 cores); resumes a killed run
turn-reader: $(STAMP)
	$(BIN)/sphere train turn-reader --out assistant/understand/weights/turn_reader.safetensors

clean:
	rm -rf $(VENV) indexes/demo .pytest_cache .mypy_cache .ruff_cache
