#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_measured.sh WAKESIM: runs `topology import --sysfs --measure` with a
# short budget and fails unless the machine file it writes carries measured
# sources and a context_switch between 100 ns and 100 us (a physical range:
# below it no switch_to() fits, above it the measurement measured something else).
wakesim=$1
f=$(mktemp) || exit 1
trap 'rm -f "$f"' EXIT
if ! "$wakesim" topology import --sysfs --measure --measure-time 2s --output "$f" 2>"$f.err"; then
  cat "$f.err"; rm -f "$f.err"; echo "topology import --measure failed"; exit 1
fi
grep -q '^measure: pinned pipe round trip' "$f.err" || { cat "$f.err"; echo "no progress on stderr"; exit 1; }
rm -f "$f.err"
grep -q '"source": "measured on .* by null syscall: ' "$f" || { cat "$f"; echo "syscall has no measured source"; exit 1; }
# The value of context_switch in ns: the writer puts "value" and "unit" on
# the lines after the key.
ns=$(awk '/"context_switch": \{/ {on=1; next}
          on && /"value":/ {gsub(/[",]/, "", $2); v=$2}
          on && /"unit":/ {gsub(/[",]/, "", $2); u=$2;
                           m = (u=="ns") ? 1 : (u=="us") ? 1000 : (u=="ms") ? 1000000 : 1000000000;
                           printf "%d\n", v*m; exit}' "$f")
if [ -z "$ns" ]; then cat "$f"; echo "no context_switch in the file"; exit 1; fi
grep -A3 '"context_switch": {' "$f" | grep -q '"source": "measured on' || { cat "$f"; echo "context_switch not measured"; exit 1; }
if [ "$ns" -lt 100 ] || [ "$ns" -gt 100000 ]; then
  echo "context_switch $ns ns is outside 100 ns .. 100 us"; exit 1
fi
# The file is a valid machine.
"$wakesim" topology check "$f" >/dev/null || { echo "the written file does not load"; exit 1; }
echo "context_switch $ns ns"
