#!/usr/bin/env bash
# Install Debian's chromium for the headless-browser test of `acescore view` (tests/view/test_view.py),
# unless a Chromium is already on PATH.  Called from .ci/run before `make test`.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium
