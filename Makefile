# SPDX-License-Identifier: Apache-2.0
# The two set-up commands of the README, `make run` and `make test`, and
# `make package`.
PRESET ?= release
WERROR ?= OFF
BUILD_DIR := build/$(PRESET)
SCENARIO ?= resources/scenarios/altra-pipe-side-by-side.json

.PHONY: all deps configure build run test asan-test package package-check clean

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

clean:
	rm -rf build
