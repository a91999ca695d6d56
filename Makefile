# SPDX-License-Identifier: Apache-2.0
# The two set-up commands of the README, `make run` and `make test`, and
# `make package`.
PRESET ?= release
WERROR ?= OFF
BUILD_DIR := build/$(PRESET)
SCENARIO ?= resources/scenarios/altra-pipe-side-by-side.json

.PHONY: all deps configure build run test asan-test package package-check clean fuzz-build fuzz fuzz-smoke fuzz-replay

all: build

deps:
	@./scripts/install-deps

$(BUILD_DIR)/build.ninja:
	cmake --preset $(PRESET) -DWB_WERROR=$(WERROR)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build --preset $(PRESET)

run: configure
	cmake --build --preset $(PRESET) --target wakebench
	$(BUILD_DIR)/app/wakebench $(if $(wildcard $(SCENARIO)),--scenario $(SCENARIO))

test: build
	ctest --preset $(PRESET)

asan-test:
	$(MAKE) test PRESET=asan

# The Debian package, from the build the tests use (docs/packaging.md).
# Configured again once help2man is there, so that the manual pages are in.
package: configure
	@./scripts/install-deps --package
	cmake $(BUILD_DIR)
	cmake --build --preset $(PRESET) --target package

package-check: package
	@./scripts/install-deps --package-checks
	tests/package/check_package.sh "$$(ls -t $(BUILD_DIR)/wakebench_*.deb | head -1)" .

# Fuzzing (docs/reliability.md): the readers' libFuzzer targets, built by
# the fuzz preset (clang, ASan + UBSan) and run one after another.
# fuzz: FUZZ_SECONDS each (FUZZ_TARGETS="a b" for some only); fuzz-replay:
# the committed seeds and reproducers once; fuzz-smoke: both, 15 s a target
# (what CI runs).
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 15

fuzz-build:
	@./scripts/install-deps --fuzz
	@test -f build/fuzz/build.ninja || cmake --preset fuzz -DWB_WERROR=$(WERROR)
	cmake --build --preset fuzz

fuzz: fuzz-build
	fuzz/run $(FUZZ_SECONDS)

fuzz-replay: fuzz-build
	fuzz/run --replay

fuzz-smoke: fuzz-replay
	fuzz/run $(FUZZ_SMOKE_SECONDS)

clean:
	rm -rf build
