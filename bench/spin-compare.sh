#!/usr/bin/env bash
# Runs SPIN's compiled verifier (pan) in three storage modes and coordcheck
# on one worker and on every core, on the same models, on this machine, one
# after the other, and prints their figures side by side: distinct states,
# wall time of the whole process and peak resident memory (both measured
# from outside by /usr/bin/time, the same way for every column), and the
# ratios.
#
#   pan full   -DNOREDUCE                 whole state vectors in the hash table
#   pan HC4    -DNOREDUCE -DHC4           hash compaction: a 4-word fingerprint
#                                         per state, what coordcheck stores too
#                                         (the fair comparison)
#   pan COLL   -DNOREDUCE -DCOLLAPSE      state vectors collapsed into indices
#   pan par1   -DNOREDUCE -DHC4 -DBFS_PAR SPIN's own parallel breadth-first
#   pan parN                              search with hash compaction, on one
#                                         core (-u1) and on every core (-uN):
#                                         what the peer's second core gives on
#                                         this machine (its RSS is the largest
#                                         process's, the shared table included)
#   cc 1       coordcheck, GOMAXPROCS=1, -workers 1
#   cc all     coordcheck, every core (parallel BFS)
#
#   bench/spin-compare.sh              the standard rows (a few minutes)
#   LONG=1 bench/spin-compare.sh       + RA N=4 R=2 (54 M states)
#   ONLY=regex bench/spin-compare.sh   only the rows whose id matches
#   MODES="full hc4" ...               only these pan modes (default: full hc4 coll par1 parN)
#   IR=1 bench/spin-compare.sh         + instructions: pan HC4 and cc 1 once more
#                                      each, under valgrind's cachegrind, and a
#                                      second table of the instructions executed
#                                      per state (whole process). coordcheck
#                                      runs there with GOGC=off: valgrind runs
#                                      it some fifty times slower, and the
#                                      collector's timed work moved its count
#                                      by up to half between runs (RA N=4 R=1
#                                      read 5,573 M and 8,341 M the same hour;
#                                      5,543 M with GOGC=off, where the count
#                                      moves by a few millions; natively these
#                                      rows take two to five collections).
#                                      pan's count does not move, where wall
#                                      times on a shared host move by a
#                                      quarter (slow: a minute or two a row).
#                                      Valgrind refuses
#                                      the visited set's 64 GB span, so there its
#                                      shards grow one by one, not in place
#                                      (fpShard.grow: 2% of centralized's count)
#   REPEAT=3 bench/spin-compare.sh     each command run 3 times, the runs of a row
#                                      taken in turn (pan modes, cc 1, cc all, again),
#                                      so that a slow phase of the machine falls on
#                                      every column; prints the median wall time and
#                                      the largest RSS of each (default: 1)
#
# SPIN's models are ../shared/bench/spin/models (SPIN=dir overrides); the
# pan flags are those of its run.sh (NOREDUCE: no partial-order reduction,
# which it shows is ineffective on these models). Before the table,
# bench/cores prints what a second thread gains on this machine for four
# kinds of work: read the two-worker columns against it. coordcheck runs safety
# and deadlock only (-liveness=false), as pan -DSAFETY does. Needs spin, gcc
# and /usr/bin/time; installs them with apt-get when missing. Run it on a
# quiet machine: nothing else should be running beside it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SPIN=${SPIN:-$ROOT/../shared/bench/spin}
TLIM=${TLIM:-120}
LONG=${LONG:-0}
ONLY=${ONLY:-.}
MODES=${MODES:-full hc4 coll par1 parN}
REPEAT=${REPEAT:-1}
IR=${IR:-0}
OUT=${OUT:-$ROOT/bench/results}
CORES=$(nproc)

if ! command -v spin >/dev/null || ! command -v gcc >/dev/null || [ ! -x /usr/bin/time ]; then
  echo "installing spin, gcc and time" >&2
  (apt-get update -qq && apt-get install -y -qq spin gcc time) >/dev/null
fi
if [ "$IR" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "installing valgrind" >&2
  (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi
mkdir -p "$OUT"
# (go build uses cmd/coordcheck/default.pgo by itself: the profile-guided build users get)
go build -o "$OUT/coordcheck" "$ROOT/cmd/coordcheck"

# row ID MODEL "SPIN_DEFS" "PAN_ARGS" "COORDCHECK ARGS"
rows=()
row() { rows+=("$1|$2|$3|$4|$5"); }
row ra_n3_r2      ra      "-DN=3 -DR=2" "-m100000 -w20"     "ricartagrawala -n 3 -rounds 2 -clock spin"
row ra_n4_r1      ra      "-DN=4 -DR=1" "-m100000 -w24"     "ricartagrawala -n 4 -rounds 1 -clock spin"
[ "$LONG" = 1 ] && row ra_n4_r2 ra "-DN=4 -DR=2" "-m100000 -w26" "ricartagrawala -n 4 -rounds 2 -clock spin"
row mk_n3         maekawa "-DN=3"       "-m100000 -c0 -w20" "maekawa -n 3 -exhaust"
row mk_n4_grid    maekawa "-DN=4"       "-m100000 -c0 -w24" "maekawa -n 4 -sets grid -exhaust"
row ce_n5_r2      central "-DN=5 -DR=2" "-m100000 -w24"     "centralized -n 5 -rounds 2"
row ce_n6_r2      central "-DN=6 -DR=2" "-m100000 -w24"     "centralized -n 6 -rounds 2"
row bu_n4         bully   "-DN=4 -DCAP=6" "-m100000 -c0 -w24" "bully -n 4 -faults crash=1@p3,restart=1 -exhaust"
row cr_n10        changroberts "-DN=10" "-m100000 -w22"     "ringelection -n 10"

declare -A modeflags=([full]="" [hc4]="-DHC4" [coll]="-DCOLLAPSE" [par1]="-DHC4 -DBFS_PAR" [parN]="-DHC4 -DBFS_PAR")
declare -A modeargs=([par1]="-u1" [parN]="-u$CORES")
# label M: the mode's name in the header.
label() { if [ "$1" = parN ]; then echo "par$CORES"; else echo "$1"; fi; }

# timed DIR LOG CMD...: runs CMD in DIR with its output in LOG, and prints
# "wall_seconds peak_rss_MB" measured by /usr/bin/time.
timed() {
  local dir=$1 log=$1/$2; shift 2
  ( cd "$dir" && /usr/bin/time -f '%e %M' -o "$log.time" "$@" > "$log" 2>&1 || true )
  tail -n 1 "$log.time" | awk '{printf "%s %.0f\n", $1, $2/1024}' # after any "exited with non-zero status" line
}

# median X...: the median of the numbers, to two decimals; largest X...:
# the largest.
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "$@"; }
largest() { python3 -c 'import sys; print(max(map(int, sys.argv[1:])))' "$@"; }

# instructions DIR CMD...: runs CMD in DIR under cachegrind and prints the
# instructions it executed (valgrind's "I refs"), all threads.
instructions() {
  local dir=$1; shift
  ( cd "$dir" && valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true ) |
    awk '/I *refs:/{gsub(",", "", $NF); print $NF}'
}
irs=()

go build -o "$OUT/cores" "$HERE/cores"
"$OUT/cores" -threads "$CORES"
echo
[ "$REPEAT" -gt 1 ] && echo "(each figure: the median wall time and the largest RSS of $REPEAT runs taken in turn)"
printf '%-11s %12s' id states
for m in $MODES; do printf ' | pan %-4s s    MB' "$(label "$m")"; done
printf ' | cc 1 s    MB  B/st | cc %d s    MB | cc1/HC4  cc%d/HC4  cc%d/cc1' "$CORES" "$CORES" "$CORES"
has_par=0; [[ " $MODES " == *" par1 "* && " $MODES " == *" parN "* ]] && has_par=1
[ "$has_par" = 1 ] && printf '  par%d/par1' "$CORES"
echo
for r in "${rows[@]}"; do
  IFS='|' read -r id model defs panargs ccargs <<<"$r"
  [[ $id =~ $ONLY ]] || continue
  d=$OUT/build/$id; rm -rf "$d"; mkdir -p "$d"; cp "$SPIN/models/$model.pml" "$d/"
  ( cd "$d" && spin $defs -a "$model.pml" >/dev/null )
  line=$(printf '%-11s' "$id")
  sst=""; hc4=""; par1=""; parn=""
  for m in $MODES; do
    if [ "$m" = parN ] && [ -x "$d/pan-par1" ]; then # par1's build, run with -uN
      cp "$d/pan-par1" "$d/pan-parN"
      continue
    fi
    ( cd "$d" && gcc -O2 -w -DSAFETY -DNOREDUCE ${modeflags[$m]} -DMEMLIM=20000 -o "pan-$m" pan.c )
  done
  # Each command's wall times and RSSes, REPEAT of each, taken in turn.
  declare -A walls=() rsses=()
  for ((k = 0; k < REPEAT; k++)); do
    for m in $MODES; do
      read -r wall rss < <(timed "$d" "pan-$m.log" timeout -s INT "$TLIM" "./pan-$m" $panargs ${modeargs[$m]:-})
      walls[$m]+=" $wall"; rsses[$m]+=" $rss"
    done
    read -r wall rss < <(timed "$d" cc1.json env GOMAXPROCS=1 "$OUT/coordcheck" check $ccargs -liveness=false -workers 1 -json)
    walls[cc1]+=" $wall"; rsses[cc1]+=" $rss"
    read -r wall rss < <(timed "$d" ccn.json "$OUT/coordcheck" check $ccargs -liveness=false -workers "$CORES" -json)
    walls[ccn]+=" $wall"; rsses[ccn]+=" $rss"
  done
  for m in $MODES; do
    st=$(awk '/states, stored/{print $1; exit}' "$d/pan-$m.log")
    [ -n "$sst" ] || sst=$st
    if [ "$st" != "$sst" ]; then echo "$id: pan $m stored $st states, not $sst (hash compaction loses states to collisions)" >&2; fi
    wall=$(median ${walls[$m]}); rss=$(largest ${rsses[$m]})
    [ "$m" = hc4 ] && hc4=$wall
    [ "$m" = par1 ] && par1=$wall
    [ "$m" = parN ] && parn=$wall
    line+=$(printf ' | %9s %6s' "$wall" "$rss")
  done
  w1=$(median ${walls[cc1]}); rss1=$(largest ${rsses[cc1]})
  wn=$(median ${walls[ccn]}); rssn=$(largest ${rsses[ccn]})
  read -r cst bps < <(python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
print(r["states"], round(r["table_bytes"]/max(r["states"],1),1))' "$d/cc1.json" 2>/dev/null || echo "? ?")
  [ "$cst" = "$sst" ] || echo "$id: coordcheck found $cst states, pan $sst" >&2
  ratio() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'{b/a:.2f}x' if a>0 else '-')" "$1" "$2"; }
  line+=$(printf ' | %6s %5s %5s | %6s %5s' "$w1" "$rss1" "$bps" "$wn" "$rssn")
  if [ -n "$hc4" ]; then
    line+=$(printf ' | %7s  %7s  %7s' "$(ratio "$w1" "$hc4")" "$(ratio "$wn" "$hc4")" "$(ratio "$wn" "$w1")")
  else
    line+=$(printf ' | %7s  %7s  %7s' - - "$(ratio "$wn" "$w1")")
  fi
  [ "$has_par" = 1 ] && line+=$(printf '  %9s' "$(ratio "$parn" "$par1")")
  if [ "$IR" = 1 ]; then
    ipan=$(instructions "$d" ./pan-hc4 $panargs)
    icc=$(GOGC=off GOMAXPROCS=1 instructions "$d" "$OUT/coordcheck" check $ccargs -liveness=false -workers 1)
    irs+=("$(python3 -c 'import sys; i,p,c,s=sys.argv[1:]; p,c,s=int(p),int(c),int(s); print(f"{i:<11} {s:>12,} | {p/1e6:>12,.0f} {p/s:>9,.0f} | {c/1e6:>12,.0f} {c/s:>9,.0f} | {p/c:>7.2f}x")' "$id" "$ipan" "$icc" "$cst")")
  fi
  printf '%-11s %12s%s\n' "$id" "$(python3 -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$sst" 2>/dev/null || echo "$sst")" "${line:11}"
done
echo "(wall seconds and peak RSS of the whole process, from /usr/bin/time; B/st = coordcheck's"
echo " visited-table bytes per state; a ratio is how many times faster the left side is: HC4's"
echo " time over coordcheck's, or one worker's over $CORES workers' (par$CORES/par1: pan's own, -u1 over"
echo " -u$CORES); rows under 0.1 s are noise;"
echo " every state count is checked equal across the columns, a mismatch is printed above)"
if [ "$IR" = 1 ]; then
  echo
  printf '%-11s %12s | %12s %9s | %12s %9s | %8s\n' id states "pan hc4 M" "per st" "cc 1 M" "per st" "HC4/cc1"
  for l in "${irs[@]}"; do echo "$l"; done
  echo "(instructions executed by the whole process, in millions, and per state"
  echo " coordcheck found, from valgrind --tool=cachegrind, coordcheck with GOGC=off;"
  echo " HC4/cc1: how many times as many instructions pan -DHC4 executes as coordcheck"
  echo " on one worker)"
fi
