#!/usr/bin/env bash
# Install everything the tests need and run them: the one test command of the README and CI.
#   bash scripts/test.sh [--quick] [pytest args...]
#   --quick: skip the slow tests (-m "not slow"), which build about 7.7 GB of real TensorFlow/
#   PyTorch test venvs on their first run; .ci/run runs everything
# - system packages for offscreen Qt and Chinese fonts (Debian; only when missing, only as root)
# - a project venv in .venv with the test and build extras
# - pytest over tests/ (the slow tests build real TensorFlow/PyTorch venvs once, cached in
#   ~/.cache/gpu-wizard/test-venvs)
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=()
if [ "${1:-}" = "--quick" ]; then
  shift
  QUICK=(-m "not slow")
fi

if [ -f scripts/ci_system_deps.sh ]; then
  bash scripts/ci_system_deps.sh
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
# build: PyInstaller, for the slow test that builds and self-tests the bundle users download
.venv/bin/python -m pip install -q -e ".[test,build]"

export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
set +e
.venv/bin/python -m pytest ${QUICK[@]+"${QUICK[@]}"} "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "scripts/test.sh: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
