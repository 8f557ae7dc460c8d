#!/usr/bin/env bash
# Makes cmd/coordcheck/default.pgo, the CPU profile that `go build` of the
# command uses for profile-guided optimization (the go command picks a
# default.pgo beside a main package up by itself: -pgo=auto). With it, the
# compiler inlines the search's hot calls that its size limits leave out
# otherwise (Cursor.Load and ActionsAwake into the expander, the queue's
# push and pop, the visited set's insert into the search's loop).
#
#   bench/pgo.sh          profile the workload below, merge, write the file
#   ROUNDS=8 bench/pgo.sh  run the workload 8 times (default 4)
#
# The workload is the searches the project is measured on (the five rows
# of bench/spin-compare.sh, on one worker and on two) and a few others
# (multicast, liveness, random walks), so that no path is tuned for one
# row alone. Run it on a quiet machine after a change to the search's hot
# path, and commit the new profile with the change; a stale profile is
# still correct, only less useful (the compiler matches it to the code by
# function and line offset). The build it profiles ignores any profile
# already there (-pgo=off), so that one profile does not feed the next.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cd "$ROOT"
go build -pgo=off -o "$TMP/coordcheck" ./cmd/coordcheck

runs=(
  "ricartagrawala -n 4 -rounds 1 -clock spin -liveness=false -workers 1"
  "maekawa -n 4 -sets grid -exhaust -liveness=false -workers 1"
  "centralized -n 6 -rounds 2 -liveness=false -workers 1"
  "bully -n 4 -faults crash=1@p3,restart=1 -exhaust -liveness=false -workers 1"
  "ringelection -n 10 -liveness=false -workers 1"
  "ricartagrawala -n 4 -rounds 1 -clock spin -liveness=false -workers 2"
  "maekawa -n 4 -sets grid -exhaust -liveness=false -workers 2"
  "centralized -n 6 -rounds 2 -liveness=false -workers 2"
  "bully -n 4 -faults crash=1@p3,restart=1 -exhaust -liveness=false -workers 2"
  "ringelection -n 10 -liveness=false -workers 2"
  "causal-mcast -n 3 -msgs 2 -senders all"
  "isis -n 3"
  "ricartagrawala -n 3 -rounds 2"
  "centralized -n 5 -rounds 2 -mode random -walks 20000"
)
# Each search ROUNDS times (default 4): the profiler samples 100 times a
# second, and one round gave about 2,100 samples, few enough that the
# compiler's choice of hot calls (the top 99% of the call edges' weight)
# moved from one profile to the next. Two profiles of one round each,
# made from the same code, gave builds 5% apart on centralized N=6 R=2
# on two workers (10 paired runs); one worker matched.
ROUNDS=${ROUNDS:-4}
i=0
for round in $(seq "$ROUNDS"); do
  for r in "${runs[@]}"; do
    i=$((i + 1))
    # A violation (bully) exits 1, a random search 3: the profile is
    # written either way.
    # shellcheck disable=SC2086
    "$TMP/coordcheck" check $r -cpuprofile "$TMP/$i.pprof" >/dev/null 2>&1 || true
    [ -s "$TMP/$i.pprof" ] || { echo "pgo: no profile from: check $r" >&2; exit 1; }
    echo "profiled ($round/$ROUNDS): check $r" >&2
  done
done
go tool pprof -proto "$TMP"/*.pprof >"$TMP/merged.pprof"
mv "$TMP/merged.pprof" "$ROOT/cmd/coordcheck/default.pgo"
echo "wrote cmd/coordcheck/default.pgo ($(wc -c <"$ROOT/cmd/coordcheck/default.pgo") bytes)" >&2
