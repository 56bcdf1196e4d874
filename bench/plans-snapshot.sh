#!/usr/bin/env bash
# Writes the plans corvus finds on a spread of tasks to OUTDIR, one file per
# task and configuration, so that two builds can be compared byte for byte:
#   bench/plans-snapshot.sh /tmp/before            # with target/release/corvus
#   ... change, cargo build --release ...
#   bench/plans-snapshot.sh /tmp/after
#   diff -r /tmp/before /tmp/after
# The spread: the first two problems of every IPC domain (../shared/ipc, or
# $CORVUS_SHARED/ipc, else the vendored problems/ipc) with lama-first, the
# first plan of lama, seq-opt-lmcut and gbfs(hadd); and every ASP instance
# (problems/asp and the shared ones) with `asp solve`. Each run has
# TIME_LIMIT seconds (default 10); a file holds the exit code and the plan.
# Runs that hit the time limit can differ between two snapshots for timing
# alone; their files say `exit 23`.
set -uo pipefail
out="${1:?usage: bench/plans-snapshot.sh OUTDIR [CORVUS]}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corvus="${2:-$root/target/release/corvus}"
limit="${TIME_LIMIT:-10}"
shared="${CORVUS_SHARED:-$root/../shared}"
ipc="$shared/ipc"; [ -d "$ipc" ] || ipc="$root/problems/ipc"
mkdir -p "$out"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

configs=(
  "lama-first|--alias lama-first"
  "lama|--alias lama"
  "seq-opt-lmcut|--alias seq-opt-lmcut"
  "gbfs-hadd|--search gbfs --heuristic hadd"
)
for domain_dir in "$ipc"/*/; do
  d="$(basename "$domain_dir")"
  problems=$(ls "$domain_dir" | grep -v -i domain | grep '\.pddl$' | sort -V | head -2)
  for p in $problems; do
    domain="$domain_dir/domain.pddl"
    [ -f "$domain" ] || domain="$(ls "$domain_dir"/*domain*.pddl 2>/dev/null | head -1)"
    for c in "${configs[@]}"; do
      name="${c%%|*}"; args="${c#*|}"
      rm -f "$work"/plan*
      # shellcheck disable=SC2086
      "$corvus" "$domain" "$domain_dir/$p" --plan-file "$work/plan" --time-limit "$limit" -q $args
      code=$?
      file="$out/$d--${p%.pddl}--$name"
      { echo "exit $code"
        # lama: its first plan only (the later ones depend on the clock).
        if [ -f "$work/plan.1" ]; then cat "$work/plan.1"; elif [ -f "$work/plan" ]; then cat "$work/plan"; fi
      } > "$file"
    done
  done
done
for instance in "$root"/problems/asp/*/*.asp "$shared"/asp/*/*.asp; do
  [ -f "$instance" ] || continue
  case "$(basename "$instance")" in encoding.asp) continue;; esac
  name="asp--$(basename "$(dirname "$instance")")--$(basename "$instance" .asp)"
  "$corvus" asp solve "$instance" --time-limit "$limit" -q > "$work/witness" 2>/dev/null
  code=$?
  { echo "exit $code"; cat "$work/witness"; } > "$out/$name"
done
echo "$(ls "$out" | wc -l) snapshots in $out"
