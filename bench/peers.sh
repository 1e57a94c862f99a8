#!/usr/bin/env bash
# Create the two peer virtualenvs the benchmark compares against, outside the repo:
#   DIR/import-linter/   import-linter==2.16   (lint-imports)
#   DIR/inwards-0.7.0/   inwards==0.7.0        (the reference product; same command name
#                                               as ours, so it must never enter our own env)
# usage: bench/peers.sh [DIR]     DIR defaults to $INWARDS_BENCH_VENVS or ~/.cache/inwards-bench
# Environment: PYTHON (default python3, 3.11+) creates the venvs. Idempotent: a venv whose
# marker file names the same requirement is kept as it is.
set -euo pipefail

DEST=${1:-${INWARDS_BENCH_VENVS:-$HOME/.cache/inwards-bench}}
PY=${PYTHON:-python3}
export PIP_DISABLE_PIP_VERSION_CHECK=1

make_venv() {
  local name=$1 requirement=$2 exe=$3
  local venv=$DEST/$name
  if [ -f "$venv/.inwards-bench" ] && [ "$(cat "$venv/.inwards-bench")" = "$requirement" ] \
     && [ -x "$venv/bin/$exe" ]; then
    echo "$name: already there ($venv/bin/$exe)"
    return 0
  fi
  rm -rf "$venv"
  "$PY" -m venv "$venv"
  if ! "$venv/bin/python" -m pip install --quiet "$requirement"; then
    echo "$name: pip could not install $requirement (no network?); the bench shows it as n/a" >&2
    rm -rf "$venv"
    return 1
  fi
  echo "$requirement" >"$venv/.inwards-bench"
  echo "$name: $("$venv/bin/$exe" --version 2>&1 | tail -n 1) at $venv/bin/$exe"
}

mkdir -p "$DEST"
status=0
make_venv import-linter "import-linter==2.16" lint-imports || status=1
make_venv inwards-0.7.0 "inwards==0.7.0" inwards || status=1
exit $status
