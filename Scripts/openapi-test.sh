#!/usr/bin/env bash
# Holds tpns-server to its OpenAPI description (GET /_emulator/openapi.json, the
# file Sources/TPNSEmulator/Inspection/openapi.json) and the description to the
# server: Tests/OpenAPI/test_openapi.py validates the document as OpenAPI 3.1
# (openapi-spec-validator), makes a request of every documented operation and
# checks each answer's status, content type and body against it (jsonschema), and
# that every endpoint the server names is documented. Installs python3-venv
# (Scripts/setup.sh) and the two validators from PyPI into .build/openapi-venv.
#
# Usage: Scripts/openapi-test.sh [--bin DIR]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib.sh
source Scripts/lib.sh
bin=""
while (($#)); do
  case $1 in
    --bin) need_value "$@" && bin=$2 && shift 2 ;;
    -h | --help) show_help ;;
    *) usage_error "Unknown option '$1'" ;;
  esac
done
[[ -n $bin ]] || bin=$(swift build --show-bin-path)

Scripts/setup.sh python3-venv >&2
venv=.build/openapi-venv
if ! "$venv/bin/python" -c "import openapi_spec_validator, jsonschema" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator jsonschema
fi
"$venv/bin/python" Tests/OpenAPI/test_openapi.py "$bin"
