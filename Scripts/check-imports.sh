#!/usr/bin/env bash
# Checks that every target of the package declares, in Package.swift, each
# target of the package that its Swift files import. SwiftPM's
# --explicit-target-dependency-import-check (which Scripts/test.sh also
# passes) accepts a module that arrives through a declared dependency's own
# dependencies; this check does not. Exits 1 naming what is missing.
# Usage: Scripts/check-imports.sh
set -euo pipefail
cd "$(dirname "$0")/.."

manifest=$(swift package dump-package)
targets=$(jq -r '.targets[].name' <<<"$manifest")
missing=0
while IFS=$'\t' read -r name type path; do
  if [[ -z "$path" ]]; then
    if [[ "$type" == test ]]; then path="Tests/$name"; else path="Sources/$name"; fi
  fi
  declared=$(jq -r --arg name "$name" \
    '.targets[] | select(.name == $name) | .dependencies[] | (.byName // .target // .product)[0]' \
    <<<"$manifest")
  imported=$(find "$path" -name '*.swift' -print0 |
    xargs -0 -r sed -n -E 's/^(@[A-Za-z_]+ +)*((public|package|internal|fileprivate|private) +)?import +([A-Za-z_][A-Za-z0-9_]*).*/\4/p' |
    sort -u)
  for module in $imported; do
    if grep -qx "$module" <<<"$targets" && ! grep -qx "$module" <<<"$declared"; then
      echo "error: target $name imports $module without declaring it a dependency in Package.swift" >&2
      missing=1
    fi
  done
done < <(jq -r '.targets[] | [.name, .type, (.path // "")] | @tsv' <<<"$manifest")
exit "$missing"
