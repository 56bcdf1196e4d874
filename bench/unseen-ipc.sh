#!/bin/bash
# Builds a suite of IPC domains that are not in ../shared, for experiment.py --suite:
#
#   bench/unseen-ipc.sh DIR
#   python3 bench/experiment.py --suite DIR --spread 5 --configs corvus-lama-first,fd-lama-first \
#       --time-limit 60 --memory-limit 3000 --processes 2 --out /tmp/unseen
#
# The source is the test fixtures of the `pddl` package's source distribution on PyPI (pddl 0.5.1),
# which carries IPC domains and problems (barman and sokoban of IPC 2011, childsnack, cave diving and
# maintenance of IPC 2014, storage of IPC 2006, and others). A domain folder is taken when its
# domain.pddl is classical: no `:non-deterministic` effects (FOND) and no numeric effect on a
# function other than total-cost. DIR gets one folder per domain, with symbolic links to
# domain.pddl and the problems; the download stays in DIR/.source.
set -euo pipefail
out=${1:?usage: bench/unseen-ipc.sh DIR}
py=${PYTHON:-python3}
mkdir -p "$out/.source"
out=$(realpath "$out")
if [ ! -d "$out/.source/pddl-0.5.1" ]; then
    "$py" -m pip download --quiet --no-binary :all: --no-deps pddl==0.5.1 -d "$out/.source"
    tar xzf "$out/.source/pddl-0.5.1.tar.gz" -C "$out/.source"
fi
fixtures=$out/.source/pddl-0.5.1/tests/fixtures/pddl_files
for folder in "$fixtures"/*/; do
    domain=$folder/domain.pddl
    [ -f "$domain" ] || continue
    grep -qi ":non-deterministic\|(oneof" "$domain" && continue
    # (increase|decrease|assign|scale-up|scale-down (f ...)) with f other than total-cost
    if grep -oiE "\((increase|decrease|assign|scale-up|scale-down)[[:space:]]*\([a-z0-9_-]+" "$domain" \
        | grep -viq "total-cost$"; then
        continue
    fi
    name=$(basename "$folder")
    mkdir -p "$out/$name"
    for f in "$folder"*.pddl; do
        ln -sf "$f" "$out/$name/"
    done
    echo "$name: $(find "$out/$name" -name '*.pddl' ! -name 'domain*' | wc -l) problems"
done
