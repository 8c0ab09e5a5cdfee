#!/usr/bin/env bash
# tpns-server's HTTP API from outside, with real parsers.
# Tests/HTTPAPI/test_openapi.py holds the server to its OpenAPI description (GET
# /_emulator/openapi.json, the file Sources/TPNSEmulator/Inspection/openapi.json)
# and the description to the server: it validates the document as OpenAPI 3.1
# (openapi-spec-validator), makes a request of every documented operation and
# checks each answer's status, content type and body against it (jsonschema), and
# that every endpoint the server names is documented.
# Tests/HTTPAPI/test_metrics.py reads GET /metrics with prometheus_client's parser
# after a run and checks its counters against the request log.
# Installs python3-venv (Scripts/setup.sh) and the three from PyPI into
# .build/api-venv.
#
# Usage: Scripts/api-test.sh [--bin DIR]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
only_bin_option "$@"

python_venv .build/api-venv openapi_spec_validator=openapi-spec-validator jsonschema \
  prometheus_client=prometheus-client
status=0
"$python" Tests/HTTPAPI/test_openapi.py "$bin" || status=1
"$python" Tests/HTTPAPI/test_metrics.py "$bin" || status=1
exit "$status"
