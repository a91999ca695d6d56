# SPDX-License-Identifier: Apache-2.0
# The two set-up commands of the README: `make run` and `make test`.
PRESET ?= release
WERROR ?= OFF
BUILD_DIR := build/$(PRESET)
SCENARIO ?= resources/scenarios/altra-pipe-side-by-side.json

.PHONY: all deps configure build run test asan-test clean

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

clean:
	rm -rf build
