#!/usr/bin/env bash
# Generates every manual page (tpns generate-manual, tpns-server
# generate-manual) and lints each with mandoc -T lint and groff -ww: any
# warning fails. Usage: Scripts/manual-lint.sh [--bin DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib.sh
source Scripts/lib.sh
only_bin_option "$@"
Scripts/setup.sh mandoc groff-base >/dev/null
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
"$bin/tpns" generate-manual --output-directory "$pages"
"$bin/tpns-server" generate-manual --output-directory "$pages"
problems=0
for page in "$pages"/*.1; do
  report=$( (mandoc -T lint -W warning "$page"; groff -ww -man -z "$page") 2>&1 || true)
  if [[ -n $report ]]; then
    echo "not ok - $(basename "$page")"
    printf '#   %s\n' "$report"
    problems=$((problems + 1))
  else
    echo "ok - $(basename "$page")"
  fi
done
echo "$(ls "$pages" | wc -l) pages, $problems with warnings"
((problems == 0))
