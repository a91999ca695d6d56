#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# command-help.sh WAKESIM > FILE.h2m: a COMMANDS section for wakesim.1 made
# of each command's own `--help`, for help2man --include: usage lines kept
# as they are, each "  --option VALUE   text" line as a tagged paragraph.
set -eu
wakesim=$1

echo "[COMMANDS]"
for command in run compare validate topology trace "trace to-workload"; do
  printf '.SS "wakesim %s"\n' "$command"
  # shellcheck disable=SC2086
  text=$("$wakesim" $command --help)
  printf '%s\n' "$text" | awk '
    function roff(s) {
      gsub(/\\/, "\\e", s)
      gsub(/-/, "\\-", s)
      if (s ~ /^[.'"'"']/) s = "\\&" s
      return s
    }
    /^usage: / || (in_usage && /^       /) {
      if (!in_usage) print ".nf"
      in_usage = 1
      sub(/^usage: /, ""); sub(/^ +/, "  ")
      print roff($0)
      next
    }
    in_usage { print ".fi"; in_usage = 0 }
    match($0, /^  --[^ ]+( [^ ]+)?  +/) {
      spec = substr($0, 3, RLENGTH - 2); sub(/ +$/, "", spec)
      print ".TP"; print ".B " roff(spec); print roff(substr($0, RLENGTH + 1))
      next
    }
    { sub(/^ +/, ""); print roff($0) }
    END { if (in_usage) print ".fi" }'
done
