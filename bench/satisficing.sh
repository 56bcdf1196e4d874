#!/bin/bash
# Short measurements of the satisficing options, Fast Downward side by side.
#
#   bench/satisficing.sh cost-types   # gbfs(hff) with --cost-type normal|one|plusone vs FD lama-first
#   bench/satisficing.sh anytime      # --cost-type one --anytime vs FD --alias lama: first and final cost
#
# 20 s and 3 GB per run (LIMIT=30 for other limits), one run at a time; about 15 and 5 minutes.
# CORVUS (default target/release/corvus), CORVUS_SHARED (default ../shared) and FD_PYTHON
# (default /work/venv/bin/python, with up-fast-downward installed) say where things are.
set -u
mode=${1:-cost-types}
CORVUS=$(realpath "${CORVUS:-target/release/corvus}")
SHARED=$(realpath "${CORVUS_SHARED:-../shared}")/ipc
PY=${FD_PYTHON:-/work/venv/bin/python}
FD="$PY $($PY -c 'import up_fast_downward, os; print(os.path.dirname(up_fast_downward.__file__))')/downward/fast-downward.py"
LIMIT=${LIMIT:-20}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cost() { grep -o "cost = [0-9]*" "$1" 2>/dev/null | grep -o "[0-9]*"; }

# FD in its own directory; prints "status seconds cost expanded" of its last plan.
fd() {
    rm -rf "$WORK/fd" && mkdir "$WORK/fd" && cd "$WORK/fd" || exit 1
    local start end last
    start=$(date +%s.%N)
    timeout $((LIMIT + 10)) $FD --overall-time-limit ${LIMIT}s --overall-memory-limit 3G --alias "$1" "$2" "$3" >log 2>&1
    end=$(date +%s.%N)
    last=$(ls sas_plan* 2>/dev/null | sort -t. -k2 -n | tail -1)
    local c=$([ -n "$last" ] && cost "$last")
    local n=$(ls sas_plan* 2>/dev/null | wc -l)
    printf "%s %.2f %s %s %s" "$([ -n "$c" ] && echo solved || echo failed)" "$(echo "$end - $start" | bc)" \
        "${c:--}" "$(grep -o "Expanded [0-9]* state" log | tail -1 | grep -o "[0-9]*")" "$n"
    cd - >/dev/null
}

PROBLEMS="elevators-sat08-strips:p05 elevators-sat08-strips:p10 elevators-sat08-strips:p15
barman-sat11-strips:pfile06-021 barman-sat11-strips:pfile07-025 barman-sat11-strips:pfile08-030
woodworking-sat11-strips:p01 woodworking-sat11-strips:p03 woodworking-sat11-strips:p05
sokoban-sat08-strips:p05 sokoban-sat08-strips:p10 sokoban-sat08-strips:p15"

case $mode in
cost-types)
    printf "%-34s %-12s %-10s %-8s %-8s %s\n" problem config status time_s cost expanded
    for dp in $PROBLEMS; do
        d=${dp%%:*}; p=${dp##*:}
        for c in normal one plusone; do
            "$CORVUS" solve "$SHARED/$d/domain.pddl" "$SHARED/$d/$p.pddl" --cost-type $c --time-limit ${LIMIT}s \
                --memory-limit 3G --plan-file "$WORK/plan" --stats-json "$WORK/stats.json" --quiet >/dev/null 2>&1
            python3 -c "
import json; s = json.load(open('$WORK/stats.json'))
print('%-34s %-12s %-10s %-8.2f %-8s %s' % ('$d/$p', 'hff-$c', s['status'], s['total_time_s'], s.get('plan_cost') or '-', s.get('expanded')))"
        done
        read -r st t c e _ <<<"$(fd lama-first "$SHARED/$d/domain.pddl" "$SHARED/$d/$p.pddl")"
        printf "%-34s %-12s %-10s %-8s %-8s %s\n" "$d/$p" lama-first "$st" "$t" "$c" "$e"
    done ;;
anytime)
    printf "%-34s %-8s %-8s %-6s %-8s %-8s %s\n" problem first best plans fd_first fd_best fd_plans
    for dp in elevators-sat08-strips:p05 elevators-sat08-strips:p10 barman-sat11-strips:pfile06-021 \
              sokoban-sat08-strips:p05 sokoban-sat08-strips:p10; do
        d=${dp%%:*}; p=${dp##*:}
        rm -f "$WORK"/sas_plan*
        "$CORVUS" solve "$SHARED/$d/domain.pddl" "$SHARED/$d/$p.pddl" --cost-type one --anytime --time-limit ${LIMIT}s \
            --memory-limit 3G --plan-file "$WORK/sas_plan" --quiet >/dev/null 2>&1
        n=$(ls "$WORK"/sas_plan.* 2>/dev/null | wc -l)
        read -r _ _ fb _ fn <<<"$(fd lama "$SHARED/$d/domain.pddl" "$SHARED/$d/$p.pddl")"
        printf "%-34s %-8s %-8s %-6s %-8s %-8s %s\n" "$d/$p" "$(cost "$WORK/sas_plan.1")" "$(cost "$WORK/sas_plan.$n")" "$n" \
            "$(cost "$WORK/fd/sas_plan.1")" "$fb" "$fn"
    done ;;
*) echo "usage: $0 cost-types|anytime" >&2; exit 2 ;;
esac
