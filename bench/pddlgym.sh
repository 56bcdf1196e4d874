#!/usr/bin/env bash
# corvus against Fast Downward, both `--alias lama-first`, on domains corvus has
# never seen: the PDDL files of the pddlgym wheel from PyPI (every DOMAIN.pddl
# with a DOMAIN/ folder of problems; its first and last problem), 10 s each.
#
#   bench/pddlgym.sh CORVUS_BINARY OUT.txt
#
# Downloads pddlgym 0.0.7 and up-fast-downward 1.0.0 into bench/.gym (once).
# One line per problem: exit codes, wall-clock times, plan costs, corvus's error.
set -euo pipefail
corvus=$(realpath "$1"); out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd); work="$here/.gym"
mkdir -p "$work"
if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q up-fast-downward==1.0.0
fi
if [ ! -d "$work/pddlgym" ]; then
  "$work/venv/bin/pip" download -q --no-deps pddlgym==0.0.7 -d "$work/wheel"
  "$work/venv/bin/python" -m zipfile -e "$work"/wheel/pddlgym-0.0.7-*.whl "$work/pddlgym"
fi
fd=("$work/venv/bin/python" "$(ls -d "$work"/venv/lib/python3*/site-packages/up_fast_downward/downward/fast-downward.py)")
pddl="$work/pddlgym/pddlgym/pddl"; run="$work/run"; mkdir -p "$run"
: > "$out"
for domain in "$pddl"/*.pddl; do
  name=$(basename "$domain" .pddl)
  [ -d "$pddl/$name" ] || continue
  problems=$(ls "$pddl/$name" | grep '\.pddl$' | sort -V || true)
  [ -n "$problems" ] || continue
  for p in $( (echo "$problems" | head -1; echo "$problems" | tail -1) | uniq); do
    rm -f "$run"/sas_plan* "$run"/c.plan
    s=$(date +%s.%N); log=$(cd "$run" && timeout 15 "$corvus" --alias lama-first --time-limit 10 "$domain" "$pddl/$name/$p" "$run/c.plan" 2>&1) && rc=0 || rc=$?
    ct=$(echo "$(date +%s.%N) - $s" | bc); cc=$(grep -o "cost [0-9]*" <<<"$log" | tail -1 | cut -d' ' -f2 || true)
    err=$(grep -m1 "^error" <<<"$log" | cut -c1-150 || true)
    s=$(date +%s.%N); flog=$(cd "$run" && timeout 15 "${fd[@]}" --alias lama-first --overall-time-limit 10s "$domain" "$pddl/$name/$p" 2>&1) && frc=0 || frc=$?
    ft=$(echo "$(date +%s.%N) - $s" | bc); fc=$(grep -o "Plan cost: [0-9]*" <<<"$flog" | tail -1 | cut -d' ' -f3 || true)
    printf "%s/%s corvus rc=%s t=%.2f c=%s | fd rc=%s t=%.2f c=%s | %s\n" "$name" "$p" "$rc" "$ct" "$cc" "$frc" "$ft" "$fc" "$err" >> "$out"
  done
done
