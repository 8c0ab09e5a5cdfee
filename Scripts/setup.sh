#!/usr/bin/env bash
# Installs the Debian packages tpns needs, only those that are missing.
# Usage: Scripts/setup.sh [PACKAGE...]   (extra packages a script needs; safe to repeat)
set -euo pipefail

# C libraries (as -dev packages) and the tools the scripts drive.
packages=(
  pkg-config
  libsqlite3-dev
  libmicrohttpd-dev
  libgnutls28-dev
  libcurl4-openssl-dev
  libplist-dev
  curl
  jq
  "$@"
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=()
  if [[ $(id -u) != 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo=(sudo)
    else
      echo "setup: run as root, or install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
  echo "setup: the Swift toolchain (6.0 or later) is not on PATH" >&2
  exit 1
fi
