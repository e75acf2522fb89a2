# Formwright: the two commands of the README, and the pieces they are made of.
# `make serve` and `make test` install what is missing on Debian/Ubuntu (apt-get, pip), then run.
SHELL := /bin/bash
SWIFT ?= swift
PORT ?= 8080
STORE ?= data/formwright.db
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: serve test deps test-deps build release swift-test allocation-test container-test predicate-corpus js-conformance check-forms browser-test format-check bench bench-submit bench-reference bench-reference-page bench-page bench-compare bench-code-footprint bench-instructions bench-cpu bench-soak bench-costly bench-predicate bench-engine bench-store bench-export bench-admin bench-deliveries fuzz clean
BIN = $$($(SWIFT) build --show-bin-path)

## serve: install what is missing, build release, serve Forms/ (with the examples' Swift: Examples/) on http://127.0.0.1:$(PORT), keeping valid submissions in $(STORE)
serve: deps
	SWIFT=$(SWIFT) scripts/build-release --product formwright-examples
	$$($(SWIFT) build -c release --show-bin-path)/formwright-examples serve --port $(PORT) --store sqlite:$(STORE)

## test: install what is missing, then run every test
test: test-deps format-check swift-test allocation-test container-test predicate-corpus js-conformance check-forms browser-test

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

build:
	$(SWIFT) build

release:
	SWIFT=$(SWIFT) scripts/build-release --product formwright

# A crash prints only the crashed thread's frames, without registers or images: CI keeps the end of
# what a failed run printed, and that end should say where the crash was.
swift-test:
	$(SWIFT) build --build-tests
	SWIFT_BACKTRACE=enable=yes,threads=crashed,registers=none,images=none $(SWIFT) test --skip-build

## allocation-test: heap allocations a static file, the event page and a valid and an invalid submission cost the server, each held to a ceiling
allocation-test:
	SWIFT=$(SWIFT) scripts/build-release --product allocation-test
	$$($(SWIFT) build -c release --show-bin-path)/allocation-test

## predicate-corpus: the NSPredicate conformance corpus (Tests/Predicates) through `formwright predicate`
predicate-corpus:
	python3 Tests/Predicates/check.py --impl "$(BIN)/formwright predicate" Tests/Predicates/cases.jsonl

## js-conformance: Public/forms-rules.js (the rules forms.js applies) against the predicate corpus, the Swift evaluator and served verdicts (Node)
js-conformance:
	node Tests/JavaScript/conformance.mjs "$(BIN)/formwright" Tests/Predicates/cases.jsonl

## check-forms: every example in Forms/ loads and compiles with the product, which registers no Swift
check-forms:
	$(BIN)/formwright check Forms

## container-test: build the Dockerfile with podman and run the image (root; ~2.5 min warm, ~3.5 cold)
container-test:
	Tests/Container/run.sh

## browser-test: headless Chromium (Selenium), axe and the W3C Nu checker against a served formwright-examples
browser-test:
	Tests/Browser/run.sh

## format-check: fails when `swift format` would change a file (.swift-format holds the style)
format-check:
	@$(SWIFT) format lint --strict -r Sources Tests Examples Package.swift

bench:
	bench/run.sh

## bench-submit: POST /forms/event (valid, urlencoded, Accept: application/json) against the C ceiling
bench-submit:
	bench/submit-event.sh

## bench-reference: bench-submit with a C handler doing part of the submission's work in Formwright's place: how close to the ceiling any implementation can get
bench-reference:
	bench/reference-submit.sh

## bench-reference-page: the event page benchmark with a C handler doing a new reader's page work (nonce, CSRF token, pooled response, access log) in Formwright's place
bench-reference-page:
	SWIFT=$(SWIFT) bench/reference-page.sh

## bench-page: GET /forms/event (the rendered calendar event page) against the C ceiling serving its bytes
bench-page:
	SCENARIOS=page PAGE_PATH=/forms/event bench/run.sh

## bench-compare: the event page of BINS (Formwright binaries, e.g. BINS="/tmp/before /tmp/after") and of the C ceiling, side by side in shuffled 1 s rounds, with 95% intervals on the ratios
bench-compare:
	bench/compare.sh $(BINS)

## bench-code-footprint: what 20 KiB of code run once per request costs the C ceiling, against the same instructions run from a loop
bench-code-footprint:
	bench/code-footprint.sh

## bench-instructions: user-space instructions, refcount calls and code lines per request (valgrind's callgrind), static file, event page (wrk's and a browser's request) and event submission, against the C ceiling
bench-instructions:
	SWIFT=$(SWIFT) bench/instructions.sh

## bench-cpu: µs of CPU per request by layer (kernel, libc, libmicrohttpd, Swift runtime, own code) and the costliest functions, sampled with perf under wrk, against the C ceiling
bench-cpu:
	SWIFT=$(SWIFT) bench/cpu.sh

## bench-soak: resident memory, descriptors and 5xx answers of one server under six rounds of mixed load (pages, submissions valid and invalid, uploads, abuse), round by round
bench-soak:
	SWIFT=$(SWIFT) bench/soak.sh

## bench-costly: answer times of posts whose values are too long for a costly pattern, /healthz while eight clients send them, and the load time of a 3.9 MB descriptor
bench-costly:
	SWIFT=$(SWIFT) bench/costly.sh

## bench-predicate: evaluations/s, parse time and allocations of compiled predicates (release build)
bench-predicate:
	SWIFT=$(SWIFT) scripts/build-release --product predicate-bench
	$$($(SWIFT) build -c release --show-bin-path)/predicate-bench

## bench-store: durable JSON submissions a second on SQLite and on PostgreSQL against --store none, side by side, and every answered one counted in the database
bench-store:
	bench/store.sh

## bench-export: 1,000,000 stored submissions exported as CSV and JSON lines over the API, from SQLite and PostgreSQL: rows a second and the server's memory growth
bench-export:
	bench/export.sh

## bench-admin: the operator's view over 1,000,000 stored submissions, on SQLite and PostgreSQL: the overview, the first and a deep page, the charts, a search
bench-admin:
	bench/admin.sh

## bench-deliveries: webhooks to a receiver on loopback: latency, deliveries a second after a burst, and what deliveries cost posts
bench-deliveries:
	bench/deliveries.sh

## bench-engine: time and allocations of judging one valid event submission and writing its JSON (release build)
bench-engine:
	SWIFT=$(SWIFT) scripts/build-release --product submit-bench
	$$($(SWIFT) build -c release --show-bin-path)/submit-bench

## fuzz: libFuzzer over the predicate parser and evaluator, 1,000,000 executions
fuzz:
	fuzz/run.sh

clean:
	rm -rf .build
