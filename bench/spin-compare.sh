#!/usr/bin/env bash
# Runs SPIN's compiled verifier and coordcheck on the same models, on this
# machine, one after the other, and prints their figures side by side:
# distinct states, transitions, time, states per second, memory, and the
# throughput ratio. Both run single-threaded (GOMAXPROCS=1 for coordcheck).
#
#   bench/spin-compare.sh              the standard rows (a few minutes)
#   LONG=1 bench/spin-compare.sh       + RA N=4 R=2 (54 M states; ~2 min coordcheck, ~5 min SPIN)
#   ONLY=regex bench/spin-compare.sh   only the rows whose id matches
#   CORES=2 bench/spin-compare.sh      coordcheck on 2 cores (parallel BFS);
#                                      SPIN's pan stays on one
#
# SPIN's models are ../shared/bench/spin/models (SPIN=dir overrides); the
# build and run flags are those of its run.sh (NOREDUCE: no partial order
# reduction, which it shows is ineffective on these models). Needs spin
# and gcc; installs them with apt-get when missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SPIN=${SPIN:-$ROOT/../shared/bench/spin}
TLIM=${TLIM:-120}
LONG=${LONG:-0}
ONLY=${ONLY:-.}
CORES=${CORES:-1}
OUT=${OUT:-$ROOT/bench/results}

if ! command -v spin >/dev/null || ! command -v gcc >/dev/null; then
  echo "installing spin and gcc" >&2
  (apt-get update -qq && apt-get install -y -qq spin gcc) >/dev/null
fi
mkdir -p "$OUT"
go build -o "$OUT/coordcheck" "$ROOT/cmd/coordcheck"

# row ID MODEL "SPIN_DEFS" "PAN_ARGS" "COORDCHECK ARGS"
rows=()
row() { rows+=("$1|$2|$3|$4|$5"); }
row ra_n3_r2      ra      "-DN=3 -DR=2" "-m100000 -w20"     "ricartagrawala -n 3 -rounds 2 -clock spin"
row ra_n4_r1      ra      "-DN=4 -DR=1" "-m100000 -w24"     "ricartagrawala -n 4 -rounds 1 -clock spin"
[ "$LONG" = 1 ] && row ra_n4_r2 ra "-DN=4 -DR=2" "-m100000 -w26" "ricartagrawala -n 4 -rounds 2 -clock spin"
row mk_n3         maekawa "-DN=3"       "-m100000 -c0 -w20" "maekawa -n 3 -exhaust"
row mk_n4_grid    maekawa "-DN=4"       "-m100000 -c0 -w24" "maekawa -n 4 -sets grid -exhaust"
row ce_n4_r2      central "-DN=4 -DR=2" "-m100000 -w20"     "centralized -n 4 -rounds 2"
row ce_n5_r2      central "-DN=5 -DR=2" "-m100000 -w24"     "centralized -n 5 -rounds 2"
row ce_n6_r2      central "-DN=6 -DR=2" "-m100000 -w24"     "centralized -n 6 -rounds 2"
row bu_n4         bully   "-DN=4 -DCAP=6" "-m100000 -c0 -w24" "bully -n 4 -faults crash=1@p3,restart=1 -exhaust"
row cr_n8         changroberts "-DN=8" "-m100000 -w20"      "ringelection -n 8"
row cr_n10        changroberts "-DN=10" "-m100000 -w22"     "ringelection -n 10"
# Too large for either to finish: both capped at TLIM seconds.
row mk_n7_plane   maekawa "-DN=7"       "-m100000 -c0 -w28" "maekawa -n 7 -sets plane -exhaust -timeout ${TLIM}s"

printf '%-12s | %12s %12s %8s %10s %9s | %12s %12s %8s %10s %9s | %6s\n' \
  id "spin states" transitions "time s" "states/s" "mem MB" "cc states" transitions "time s" "states/s" "mem MB" "ratio"
for r in "${rows[@]}"; do
  IFS='|' read -r id model defs panargs ccargs <<<"$r"
  [[ $id =~ $ONLY ]] || continue
  name=${ccargs%% *}
  if ! "$OUT/coordcheck" list | grep -x "$name" >/dev/null; then
    printf '%-12s | (coordcheck has no protocol %s yet)\n' "$id" "$name"; continue
  fi
  d=$OUT/build/$id; rm -rf "$d"; mkdir -p "$d"; cp "$SPIN/models/$model.pml" "$d/"
  ( cd "$d" && spin $defs -a "$model.pml" >/dev/null && gcc -O2 -w -DSAFETY -DNOREDUCE -DMEMLIM=20000 -o pan pan.c )
  ( cd "$d" && timeout -s INT "$TLIM" ./pan $panargs > pan.log 2>&1 || true )
  sst=$(awk '/states, stored/{print $1; exit}' "$d/pan.log")
  str=$(awk '/transitions \(= stored\+matched\)/{print $1; exit}' "$d/pan.log")
  stime=$(awk '/pan: elapsed time/{print $4; exit}' "$d/pan.log")
  smem=$(awk '/total actual memory usage/{print $1; exit}' "$d/pan.log")
  # coordcheck on CORES cores (default one), one JSON object
  # safety only, as SPIN checks: no liveness graph
  GOMAXPROCS=$CORES "$OUT/coordcheck" check $ccargs -liveness=false -json > "$d/cc.json" || true
  read -r cst ctr ctime cmem < <(python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
print(r["states"], r["transitions"], r["elapsed_ns"]/1e9, (r["table_bytes"]+r["frontier_bytes"])/2**20)' "$d/cc.json")
  python3 - "$id" "$sst" "$str" "$stime" "$smem" "$cst" "$ctr" "$ctime" "$cmem" <<'PY'
import sys
id_, sst, str_, stime, smem, cst, ctr, ctime, cmem = sys.argv[1:]
f = lambda x: float(x) if x else 0.0
sst, str_, stime, smem, cst, ctr, ctime, cmem = map(f, (sst, str_, stime, smem, cst, ctr, ctime, cmem))
srate = sst / stime if stime > 0 else 0
crate = cst / ctime if ctime > 0 else 0
ratio = crate / srate if srate > 0 else 0
print(f"{id_:<12} | {sst:12,.0f} {str_-1:12,.0f} {stime:8.2f} {srate:10,.0f} {smem:9.0f} | {cst:12,.0f} {ctr:12,.0f} {ctime:8.2f} {crate:10,.0f} {cmem:9.0f} | {ratio:5.2f}x")
PY
done
echo "(SPIN transitions shown as edges = stored+matched-1, which for bully also counts its monitor's self-loop"
echo " on each terminal state; ratio = coordcheck states/s over SPIN states/s, meaningless under 0.1 s;"
echo " rows capped at ${TLIM}s are partial)"
