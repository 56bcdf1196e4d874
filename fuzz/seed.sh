#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs at run time (the corpora are
# not committed): PDDL and ASP files of the shared benchmark corpus
# (../../shared, or $CORVUS_SHARED) and of this repository, and the small
# plan seeds in fuzz/seeds/plan/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
shared="${CORVUS_SHARED:-$repo/../shared}"
[ -d "$shared" ] || shared="/work/shared"
corpus="$here/corpus"
mkdir -p "$corpus"/{pddl_domain,pddl_problem,asp_facts,asp_facts_large,plan,xsb,lurd,ground_search}

copy() { # copy FILE DIR: under a name that keeps files of equal basename apart
  local name
  name="$(echo "$1" | sed 's|[/ ]|_|g' | tail -c 120)"
  cp "$1" "$2/$name"
}

# Domains: every domain file; problems: Blocksworld ones (the problem target
# checks against the Blocksworld domain) plus a few of each other domain.
while IFS= read -r f; do copy "$f" "$corpus/pddl_domain"; done < <(
  find "$shared/ipc" "$repo/problems" "$repo/domains" "$repo/tests/data" -name '*domain*.pddl' 2>/dev/null; ls "$repo"/domains/*.pddl)
while IFS= read -r f; do copy "$f" "$corpus/pddl_problem"; done < <(
  { find "$shared/ipc/blocks" "$repo/problems" -name '*.pddl' ! -name 'domain.pddl' 2>/dev/null
    for d in "$shared"/ipc/*/; do find "$d" -name '*.pddl' ! -name 'domain.pddl' | sort | head -3; done
    find "$repo/tests/data" -name '*.pddl' ! -name '*domain*'; } | sort -u)
# ASP: the smaller instances of both families (the fuzzer's default max_len
# is derived from the seeds; huge seeds only slow it down) and the encodings.
while IFS= read -r f; do copy "$f" "$corpus/asp_facts"; done < <(
  find "$shared/asp" "$repo/problems" \( -name '*.asp' -o -name '*.witness' \) -size -16k 2>/dev/null)
cp "$here"/seeds/plan/* "$corpus/plan/"
# asp_facts_large: a copy count and a fact template each (see the target).
cp "$here"/seeds/asp_facts_large/* "$corpus/asp_facts_large/"
# XSB: the shipped level collection; LURD: a few move strings for the fixed
# level of the `lurd` target. `ground_search` starts from nothing: its
# inputs are choices, not text.
find "$repo/tests/data" -name '*.xsb' -exec cp {} "$corpus/xsb/" \;
cp "$here"/seeds/lurd/* "$corpus/lurd/"
cp "$repo/tests/data/switch-bad-plan.txt" "$corpus/plan/"
for t in "$corpus"/*/; do echo "$(ls "$t" | wc -l) seeds in $t"; done
