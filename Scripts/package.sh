#!/usr/bin/env bash
# Builds the Debian package tpns_<version>_amd64.deb with Debian's tools:
# static-stdlib release binaries (/usr/bin/tpns, /usr/bin/tpns-server), their
# manual pages and bash/zsh/fish completions (generated from the commands'
# declarations), a user unit for `tpns watch` and a system unit for
# tpns-server, Depends computed by dpkg-shlibdeps; then runs lintian on it.
# Usage: Scripts/package.sh [--output DIR]   (default: .build/package)
set -euo pipefail
cd "$(dirname "$0")/.."

output=.build/package
while (($#)); do
  case $1 in
    --output)
      if (($# < 2)); then echo "Error: Missing value for '--output <directory>'" >&2; exit 64; fi
      output=$2
      shift 2
      ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "Error: Unknown option '$1'" >&2; exit 64 ;;
  esac
done

Scripts/setup.sh dpkg-dev lintian binutils patchelf >&2
echo "package: building static release binaries" >&2
for product in tpns tpns-server; do
  swift build -c release --static-swift-stdlib -j 2 --scratch-path .build/portable \
    --product "$product" >&2
done
bin=.build/portable/release
version=$("$bin/tpns-server" --version)
architecture=$(dpkg --print-architecture)
name=tpns_${version}_$architecture

mkdir -p "$output"
output=$(cd "$output" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/tpns-package.XXXXXX")
trap 'rm -rf "$root"' EXIT
# The tree dpkg-shlibdeps expects: debian/<package>/ holding DEBIAN/.
stage=$root/source/debian/tpns
umask 022
install -d "$stage/DEBIAN"

install -d "$stage/usr/bin"
install -m 0755 -s "$bin/tpns" "$bin/tpns-server" "$stage/usr/bin/"
# swiftc links with RPATH $ORIGIN (for its own shared libraries, which a
# static-stdlib binary does not use): a packaged binary searches no such path.
patchelf --remove-rpath "$stage/usr/bin/tpns" "$stage/usr/bin/tpns-server"

# Manual pages and completions, from the binaries being packaged.
install -d "$stage/usr/share/man/man1"
"$stage/usr/bin/tpns" generate-manual --output-directory "$stage/usr/share/man/man1" \
  --date "$(date -u +%Y-%m-%d)"
"$stage/usr/bin/tpns-server" generate-manual --output-directory "$stage/usr/share/man/man1" \
  --date "$(date -u +%Y-%m-%d)"
gzip -9n "$stage"/usr/share/man/man1/*.1
install -d "$stage/usr/share/bash-completion/completions" \
  "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/fish/vendor_completions.d"
for program in tpns tpns-server; do
  "$stage/usr/bin/$program" completion bash >"$stage/usr/share/bash-completion/completions/$program"
  "$stage/usr/bin/$program" completion zsh >"$stage/usr/share/zsh/vendor-completions/_$program"
  "$stage/usr/bin/$program" completion fish \
    >"$stage/usr/share/fish/vendor_completions.d/$program.fish"
done

install -d "$stage/usr/lib/systemd/user" "$stage/usr/lib/systemd/system"
install -m 0644 Packaging/tpns-watch.service "$stage/usr/lib/systemd/user/"
install -m 0644 Packaging/tpns-server.service "$stage/usr/lib/systemd/system/"

install -d "$stage/usr/share/doc/tpns"
install -m 0644 Packaging/copyright "$stage/usr/share/doc/tpns/copyright"
# A native package (no Debian revision): changelog.gz.
gzip -9n <Packaging/changelog >"$stage/usr/share/doc/tpns/changelog.gz"
chmod 0644 "$stage/usr/share/doc/tpns/changelog.gz"

# Depends: the libraries the binaries link, as dpkg-shlibdeps finds them
# (it wants a debian/control to read; a minimal one in a scratch source tree).
printf 'Source: tpns\n\nPackage: tpns\nArchitecture: any\n' >"$root/source/debian/control"
depends=$(cd "$root/source" && dpkg-shlibdeps -O debian/tpns/usr/bin/tpns \
  debian/tpns/usr/bin/tpns-server | sed -n 's/^shlibs:Depends=//p')
# libcurl is loaded at run time (dlopen of libcurl.so.4, OpenSSL's; see
# Sources/CCurl), which dpkg-shlibdeps cannot see: named here, at the version
# built against.
curl_version=$(dpkg-query -W -f='${Version}' libcurl4 | sed 's/-.*//')
depends="$depends, libcurl4 (>= $curl_version)"

installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: tpns
Version: $version
Architecture: $architecture
Maintainer: tpns developers <tpns-dev@lists.tpns.dev>
Installed-Size: $installed_size
Depends: $depends
Section: net
Priority: optional
Homepage: https://github.com/tpns/tpns
Description: TUTK Push Notification Service client and local emulator
 tpns registers push tokens and maps IoT device UIDs on the TUTK Push
 Notification Service (TPNS): a property-list store that is the single
 source of truth, kept in line with the server over libcurl; nothing typed
 is lost to a network failure.
 .
 tpns-server is a local emulator of the service, with a registry in SQLite
 and inspection endpoints, for testing apps, devices and CI scripts on one
 machine. Includes manual pages, bash/zsh/fish completions and systemd
 units (a user unit for tpns watch, a system unit for tpns-server).
CONTROL
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
# Maintainer scripts: systemd reloads, a running emulator is stopped on
# removal and restarted on upgrade, a purge removes its registry.
install -m 0755 Packaging/postinst Packaging/prerm Packaging/postrm "$stage/DEBIAN/"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

dpkg-deb --root-owner-group -Zxz --build "$stage" "$output/$name.deb" >&2
echo "package: lintian" >&2
# No errors allowed; warnings and notes are printed.
if ! lintian --fail-on error --tag-display-limit 0 "$output/$name.deb" >&2; then
  echo "Error: lintian reported errors (above)" >&2
  exit 1
fi
echo "$output/$name.deb"
