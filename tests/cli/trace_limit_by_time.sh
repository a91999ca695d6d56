#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# trace_limit_by_time.sh WAKESIM: a --trace-limit of 1ms keeps no event
# stamped after 1ms, says so on the file's last line and notes it on stderr.
set -e
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$1" run --topology teaching-8 --workload pipe:loops=2000 --trace "$d/t.txt" --trace-limit 1ms >/dev/null 2>"$d/err"
grep -v '^#' "$d/t.txt" | awk '
  { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { s = substr($i, 1, length($i) - 1); n++; if (s + 0 > 0.001) bad = s } }
  END { if (n == 0) { print "no events"; exit 1 } if (bad != "") { print "stamp after 1ms: " bad; exit 1 } }'
tail -1 "$d/t.txt" | grep -q 'trace limit reached (1ms of simulated time)' || { echo "no limit line"; tail -1 "$d/t.txt"; exit 1; }
grep -q 'stopped at the trace limit' "$d/err" || { echo "no note on stderr"; cat "$d/err"; exit 1; }
