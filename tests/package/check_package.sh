#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_package.sh DEB SOURCE_DIR: what CI checks of the built package
# (docs/packaging.md), each on the package's own files as installed:
#   - the menu entry passes desktop-file-validate, the AppStream metadata
#     appstreamcli validate --no-net;
#   - one id names the metadata, the menu entry and the icon, whose PNGs
#     are each the size their folder says; the entry's program is installed;
#   - the metadata's and the changelog's latest release is the package's version;
#   - the manual pages are there and document every option of --help;
#   - lintian finds no error and no warning;
#   - install_test.sh: the installed programs run without the source tree.
# Needs `scripts/install-deps --package-checks`.
set -eu
deb=$(realpath "$1")
source=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'check_package: %s\n' "$*"; exit 1; }

root=$tmp/root
dpkg -x "$deb" "$root"
version=$(dpkg-deb --field "$deb" Version)
share=$root/usr/share

# The menu entry and the AppStream metadata.
set -- "$share"/metainfo/*.metainfo.xml
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one AppStream metadata file, found: $*"
metainfo=$1
id=$(basename "$metainfo" .metainfo.xml)
desktop=$share/applications/$id.desktop
[ -f "$desktop" ] || fail "no menu entry $id.desktop for the metadata's id $id"
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $id.desktop"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli rejects $(basename "$metainfo")"
grep -q "<id>$id</id>" "$metainfo" || fail "the metadata's <id> is not $id, its file name"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
  fail "the metadata does not launch $id.desktop"
grep -qx "Icon=$id" "$desktop" || fail "the menu entry's Icon= is not $id"
exec_program=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ -x "$root/usr/bin/$exec_program" ] || fail "the menu entry runs $exec_program, which the package does not install"

# The icon: the SVG and a PNG of each size, as large as its folder says.
[ -f "$share/icons/hicolor/scalable/apps/$id.svg" ] || fail "no scalable icon $id.svg"
for size in 16 22 24 32 48 64 128 256; do
  png=$share/icons/hicolor/${size}x$size/apps/$id.png
  [ -f "$png" ] || fail "no ${size}x$size icon"
  got=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", $3 * 256 + $4, $7 * 256 + $8 }')
  [ "$got" = "${size}x$size" ] || fail "the ${size}x$size icon is $got pixels"
done

# The latest release, where software centres and apt show it.
released=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -1)
[ "$released" = "$version" ] || fail "the metadata's latest release is $released, the package's version $version"
changelog=$(zcat "$share/doc/wakebench/changelog.gz" | sed -n '1s/^wakebench (\([^)]*\)).*/\1/p')
[ "$changelog" = "$version" ] || fail "the changelog's latest entry is $changelog, the package's version $version"

# The manual pages, with every option each program's --help names.
for program in wakesim wakebench; do
  page=$share/man/man1/$program.1.gz
  [ -f "$page" ] || fail "no manual page $program.1.gz"
  zcat "$page" | sed 's/\\-/-/g' >"$tmp/$program.1"  # roff writes - as \-
  for option in $("$root/usr/bin/$program" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -qF -- "$option" "$tmp/$program.1" || fail "$program.1 does not document $option"
  done
done

# lintian: errors and warnings fail; what it says at lower levels is shown.
lintian --fail-on error,warning --info "$deb" || fail "lintian reports errors or warnings (above)"

"$here/install_test.sh" "$deb" "$source"
echo "check_package: $(basename "$deb") passed"
