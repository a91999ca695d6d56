// SPDX-License-Identifier: Apache-2.0
//
// The JSON form of a comparison (`wakesim compare --json`):
// {"cases": [...], "policies": [...], "cells": [{"policy", "case", "metric",
// "unit", "mean", "median", "stddev", "ci95", "values": [...], ...}]}.
// A statistic that one run leaves undefined (stddev, ci95, change_ci95) is
// null.
#pragma once

#include <string>

namespace wb {

struct Comparison;

std::string comparison_to_json(const Comparison& comparison, const std::string& machine);

}  // namespace wb
