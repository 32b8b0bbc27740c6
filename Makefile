# Incident Library. `make help` lists the targets.
GO      ?= go
ADDR    ?= :8080
BIN     := bin/incidentlib
DB      := data/embedded/catalog.db

.PHONY: help data generate build run test test-go fuzz lint bench deps clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

data: ## validate data/ and build the SQLite catalog (data/embedded/catalog.db)
	$(GO) run ./cmd/catalog -data data -out $(DB)

generate: ## regenerate templ components (views/*_templ.go)
	$(GO) tool templ generate

build: data ## build the server binary into bin/ with the catalog embedded
	$(GO) build -trimpath -o $(BIN) ./cmd/incidentlib

run: build ## build and serve the site at http://localhost:8080/
	./$(BIN) -addr $(ADDR)

deps: ## install what the browser tests need (Debian chromium, a Korean font, axe-core)
	bash .ci/install-deps

test: deps data lint ## run every test (with the race detector): unit, server, catalog content, browser tests
	$(GO) test -race -count=1 ./...

test-go: data ## run the Go tests without installing browser dependencies (browser tests skip)
	$(GO) test ./...

fuzz: ## fuzz the MCP endpoint's bodies and its JSON-RPC id shim for a bounded time (CI runs it)
	$(GO) test -run '^$$' -fuzz '^FuzzMCPBody$$' -fuzztime $${FUZZTIME:-20s} ./web
	$(GO) test -run '^$$' -fuzz '^FuzzIDSwap$$' -fuzztime $${FUZZTIME:-20s} ./web

lint: ## vet and check formatting
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi

bench: build ## benchmarks and a load run against nginx on loopback (see bench/README.md)
	bash bench/run.sh
	bash bench/edge.sh

clean: ## remove built files
	rm -rf bin $(DB)
