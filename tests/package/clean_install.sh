#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# clean_install.sh DEB [CHROOT_DIR]: `apt install ./DEB` on a clean Debian 12
# and its menu entry opening the window (issue 16's "done when").
#
# Run by hand as root, not by CI: it needs the network (a Debian mirror) and
# a few minutes. Needs debootstrap on the host (`apt-get install debootstrap`).
# CHROOT_DIR (default /var/tmp/wakebench-clean-install) holds:
#   bookworm-minbase.tar  `debootstrap --variant=minbase bookworm`, made once;
#   root/                 this run's root, unpacked fresh from the tarball;
#   out/                  apt's log, the programs' output, the screenshot
#                         (out/clean-install-bookworm.png).
# Why a tarball: debootstrap takes minutes and downloads the base system, so
# it is done once; every run then unpacks it into a new root/ (the previous
# run's root is deleted first), so each run installs the package into the
# same never-touched system, and no run sees what an earlier one installed.
# Delete the tarball to debootstrap again (e.g. after a Debian point release).
# DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR override the archive's addresses.
#
# The root runs in its own mount and PID namespaces (unshare): its /proc,
# /sys and /dev exist only there, so they are gone, and so is every program
# it started (Xvfb, the app), when the run ends, however it ends.
#
# In the root: `apt install ./DEB` with the archive's bookworm,
# bookworm-updates and bookworm-security, and then
#   - the package is installed, apt-get check is content, ldd finds every
#     library of both programs (checked before any test tool is installed,
#     so no tool's dependencies can stand in for a missing Depends);
#   - the menu entry in /usr/share/applications passes desktop-file-validate,
#     its Icon is installed in hicolor, its Exec's program is installed;
#   - as a plain user under Xvfb (a real X server, Qt's xcb platform): the
#     Exec command, field codes stripped, maps a window named Wakebench that
#     belongs to it, a screenshot of the screen is not blank, Ctrl+Q closes
#     it and the program exits 0;
#   - wakesim --version, wakebench --version and wakesim list topologies.
# It exits non-zero if any check fails.
set -eu
usage() { echo "usage: $0 DEB [CHROOT_DIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
[ -f "$1" ] || { echo "clean_install: no such package: $1" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "clean_install: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
for tool in debootstrap unshare chroot tar; do
  command -v "$tool" >/dev/null || { echo "clean_install: needs $tool (apt-get install debootstrap)" >&2; exit 2; }
done
deb=$(realpath "$1")
mkdir -p "${2:-/var/tmp/wakebench-clean-install}"
dir=$(realpath "${2:-/var/tmp/wakebench-clean-install}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
base=$dir/bookworm-minbase.tar
root=$dir/root
out=$dir/out
say() { printf 'clean_install: %s\n' "$*"; }

if [ ! -f "$base" ]; then
  say "debootstrap --variant=minbase bookworm from $mirror (once; cached in $base)"
  rm -rf --one-file-system "$dir/debootstrap"
  debootstrap --variant=minbase bookworm "$dir/debootstrap" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
    { tail -20 "$dir/debootstrap.log"; say "debootstrap failed (log: $dir/debootstrap.log)"; exit 1; }
  tar -C "$dir/debootstrap" --numeric-owner -cpf "$base.part" .
  mv "$base.part" "$base"
  rm -rf --one-file-system "$dir/debootstrap"
fi

# A new root from the tarball. Mounts are only ever made in the run's own
# namespace, so none can be under the old root; refuse if one is anyway.
if grep -q " $root/" /proc/self/mountinfo; then
  say "something is mounted under $root: unmount it first"; exit 1
fi
rm -rf --one-file-system "$root" "$out"
mkdir -p "$root" "$out"
tar -C "$root" --numeric-owner -xpf "$base"
cp "$deb" "$root/tmp/"
chmod 644 "$root/tmp/$(basename "$deb")"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
# No daemon that a package brings is started in the root.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

# What runs in the root, as its PID 1.
cat >"$root/tmp/clean_install_inner.sh" <<'INNER'
set -eu
deb=/tmp/$1
out=/out
failures=0
say() { printf 'clean_install: %s\n' "$*"; }
pass() { say "PASS $*"; }
fail() { say "FAIL $*"; failures=$((failures + 1)); }
die() { say "FAIL $*"; exit 1; }
mkdir -p "$out"

apt-get update -q >"$out/apt-update.log" 2>&1 || { cat "$out/apt-update.log"; die "apt-get update"; }

# The package as a user installs it.
start=$(date +%s)
apt install -y "$deb" >"$out/apt-install.log" 2>&1 || { cat "$out/apt-install.log"; die "apt install $deb"; }
seconds=$(($(date +%s) - start))
say "apt install: $(grep -E '^[0-9]+ upgraded, [0-9]+ newly installed' "$out/apt-install.log")"
say "apt install: $(grep -E '^(Need to get|After this operation)' "$out/apt-install.log" | tr '\n' ' ')"
say "apt install: $(grep -c '^Get:[0-9]* http' "$out/apt-install.log") packages downloaded, $seconds s"
dpkg-query -W -f '${Package}\n' | sort >"$out/packages-after-install.txt"
[ "$(dpkg-query -W -f '${Status}' wakebench)" = "install ok installed" ] &&
  pass "wakebench $(dpkg-query -W -f '${Version}' wakebench) is installed" || fail "wakebench is not installed"
apt-get check >"$out/apt-check.log" 2>&1 && pass "apt-get check: no broken dependencies" ||
  fail "apt-get check: $(cat "$out/apt-check.log")"
for program in /usr/bin/wakesim /usr/bin/wakebench; do
  if ldd "$program" | grep 'not found'; then fail "ldd $program: libraries missing"
  else pass "ldd $program: every library found"; fi
done

# The programs.
wakesim --version >"$out/wakesim-version.txt" 2>&1 && grep -q '^wakesim [0-9]' "$out/wakesim-version.txt" &&
  pass "wakesim --version: $(cat "$out/wakesim-version.txt")" || fail "wakesim --version: $(cat "$out/wakesim-version.txt")"
wakebench --version >"$out/wakebench-version.txt" 2>&1 && grep -q '^wakebench [0-9]' "$out/wakebench-version.txt" &&
  pass "wakebench --version: $(cat "$out/wakebench-version.txt")" || fail "wakebench --version: $(cat "$out/wakebench-version.txt")"
if wakesim list topologies >"$out/topologies.txt" 2>&1 && grep -q '^ampere-altra-80 ' "$out/topologies.txt"; then
  pass "wakesim list topologies: $(wc -l <"$out/topologies.txt") lines, ampere-altra-80 among them"
else fail "wakesim list topologies: $(cat "$out/topologies.txt")"; fi

# The test tools, only now.
apt-get install -y -q desktop-file-utils xvfb xdotool imagemagick >"$out/apt-tools.log" 2>&1 ||
  { cat "$out/apt-tools.log"; die "apt-get install of the test tools"; }

# The menu entry.
set -- $(dpkg -L wakebench | grep '^/usr/share/applications/.*\.desktop$')
[ $# -eq 1 ] || die "expected one menu entry in /usr/share/applications, the package has: $*"
entry=$1
pass "menu entry $entry"
if desktop-file-validate "$entry" >"$out/desktop-file-validate.txt" 2>&1; then
  pass "desktop-file-validate $entry: exit 0, $(wc -l <"$out/desktop-file-validate.txt") lines of output $(tr '\n' ' ' <"$out/desktop-file-validate.txt")"
else fail "desktop-file-validate: $(cat "$out/desktop-file-validate.txt")"; fi
key() { sed -n '/^\[Desktop Entry\]/,/^\[/p' "$entry" | sed -n "s/^$1=//p" | head -n 1; }
icon=$(key Icon)
case $icon in
  '') fail "the menu entry has no Icon" ;;
  /*) [ -f "$icon" ] && pass "Icon $icon exists" || fail "Icon $icon does not exist" ;;
  *)
    icons=$(find /usr/share/icons/hicolor /usr/share/pixmaps \( -name "$icon.png" -o -name "$icon.svg" -o -name "$icon.xpm" \) 2>/dev/null | sort)
    if [ -n "$icons" ]; then
      pass "Icon $icon: $(echo "$icons" | wc -l) files in hicolor ($(echo "$icons" | sed 's|^/usr/share/icons/hicolor/||; s|/apps/.*||' | tr '\n' ' '))"
    else fail "Icon $icon: no $icon.png/.svg in /usr/share/icons/hicolor or /usr/share/pixmaps"; fi
    echo "$icons" | grep -q "/48x48/apps/$icon.png" || fail "Icon $icon: no 48x48 PNG, which the icon theme spec asks for"
    [ -f /usr/share/icons/hicolor/index.theme ] && pass "hicolor's index.theme is installed" ||
      say "note: /usr/share/icons/hicolor/index.theme (hicolor-icon-theme) is not installed"
    ;;
esac
# Exec, as a launcher reads it: field codes (%f %F %u %U, deprecated %d %D %n
# %N %v %m, %i %c %k) dropped and %% made %. Arguments are split at spaces;
# a quoted argument is not handled, and fails the check rather than being
# misread.
exec_line=$(key Exec)
case $exec_line in *\"*|*\'*|*\\*) die "Exec has quoting this script does not parse: $exec_line" ;; esac
command=$(printf '%s' "$exec_line" | sed -e 's/%[fFuUdDnNvmick]//g' -e 's/%%/%/g')
set -f; set -- $command; set +f
[ $# -ge 1 ] || die "the menu entry has no Exec"
user_path=/usr/local/bin:/usr/bin:/bin
program=$(PATH=$user_path command -v "$1" || true)
[ -n "$program" ] && [ -x "$program" ] && pass "Exec=$exec_line: $program is installed ($(dpkg -S "$program" | cut -d: -f1))" ||
  die "Exec=$exec_line: $1 is not on the PATH $user_path"
try_exec=$(key TryExec)
[ -z "$try_exec" ] || { PATH=$user_path command -v "$try_exec" >/dev/null && pass "TryExec=$try_exec found" || fail "TryExec=$try_exec not found"; }
wm_class=$(key StartupWMClass)

# Open the entry as a plain user of an X session: Xvfb, then the Exec
# command; wait for its window, take a screenshot, close it with Ctrl+Q.
useradd -m -s /bin/sh user
uid=$(id -u user)
mkdir -p /tmp/.X11-unix "/run/user/$uid"
chmod 1777 /tmp/.X11-unix
chown user:user "/run/user/$uid" "$out"
chmod 700 "/run/user/$uid"
as_user() {
  setpriv --reuid=user --regid=user --init-groups env -i HOME=/home/user USER=user LOGNAME=user \
    PATH=$user_path LANG=C.UTF-8 DISPLAY=:7 XDG_RUNTIME_DIR=/run/user/$uid "$@"
}
as_user Xvfb :7 -screen 0 1280x800x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
i=0
until as_user xdotool getdisplaygeometry >/dev/null 2>&1; do
  i=$((i + 1)); [ $i -le 100 ] || { cat "$out/xvfb.log"; die "Xvfb did not start"; }
  sleep 0.2
done
pass "Xvfb :7 runs at $(as_user xdotool getdisplaygeometry)"

# A simple command, so that $! is the program's own process id.
setpriv --reuid=user --regid=user --init-groups env -i HOME=/home/user USER=user LOGNAME=user \
  PATH=$user_path LANG=C.UTF-8 DISPLAY=:7 XDG_RUNTIME_DIR=/run/user/$uid "$@" >"$out/app.log" 2>&1 &
app=$!
window=$(as_user timeout 60 xdotool search --sync --onlyvisible --name Wakebench | head -n 1) || true
if [ -z "$window" ]; then
  cat "$out/app.log"; kill "$app" 2>/dev/null || true
  die "no window named Wakebench within 60 s of \`$command\`"
fi
pass "window $window \"$(as_user xdotool getwindowname "$window")\" is mapped,$(as_user xdotool getwindowgeometry "$window" | sed -n 's/^ *Geometry: */ /p')"
[ "$(as_user xdotool getwindowpid "$window")" = "$app" ] && pass "the window belongs to the Exec command's process" ||
  fail "the window belongs to process $(as_user xdotool getwindowpid "$window"), not to $app"
if [ -n "$wm_class" ]; then
  as_user xdotool search --class "^$wm_class\$" >/dev/null 2>&1 || as_user xdotool search --classname "^$wm_class\$" >/dev/null 2>&1 &&
    pass "a window has StartupWMClass=$wm_class as its WM_CLASS" || fail "no window has WM_CLASS $wm_class (StartupWMClass)"
fi
# Let it paint, then the screenshot; a blank screen has a handful of colours.
sleep 3
as_user import -window root "$out/screen.png"
colours=$(as_user convert "$out/screen.png" -format '%k' info:)
[ "$colours" -ge 100 ] && pass "screenshot: $colours colours" || fail "screenshot looks blank: $colours colours"
as_user convert "$out/screen.png" -resize '1280x>' -strip "PNG24:$out/clean-install-bookworm.png"

# Which libraries the running program mapped came with the test tools,
# not with the package: dlopened at run time, so ldd cannot see them.
sed -n 's|^.* \(/.*\.so[.0-9]*\)$|\1|p' "/proc/$app/maps" | sort -u >"$out/mapped.txt"
extra=
while read -r lib; do
  # Bookworm's packages still name /lib for what merged /usr keeps in /usr/lib.
  owner=$({ dpkg -S "$lib" || dpkg -S "${lib#/usr}" || true; } 2>/dev/null | head -n 1)
  owner=${owner%%:*}
  [ -z "$owner" ] || grep -qx "$owner" "$out/packages-after-install.txt" || extra="$extra $owner(${lib##*/})"
done <"$out/mapped.txt"
[ -z "$extra" ] && pass "every library the window loaded ($(wc -l <"$out/mapped.txt")) came with the package's dependencies" ||
  say "note: libraries loaded from packages that only the test tools installed:$extra"

as_user xdotool windowfocus "$window" key ctrl+q
i=0
while kill -0 "$app" 2>/dev/null && [ "$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$app/status")" != Z ]; do
  i=$((i + 1)); [ $i -le 75 ] || break
  sleep 0.2
done
if kill -0 "$app" 2>/dev/null && [ "$(sed -n 's/^State:\t\(.\).*/\1/p' "/proc/$app/status")" != Z ]; then
  kill "$app"; fail "Ctrl+Q did not close the window within 15 s"
else
  status=0; wait "$app" || status=$?
  [ "$status" = 0 ] && pass "Ctrl+Q closed the window; the program exited 0" || fail "the program exited $status"
fi
[ -s "$out/app.log" ] && say "note: the program printed: $(cat "$out/app.log")" || pass "the program printed nothing on start-up or exit"

[ "$failures" = 0 ] || die "$failures checks failed"
say "all checks passed"
INNER

say "root: $root; output: $out"
status=0
unshare --mount --pid --fork --propagation private /bin/sh -eu -c '
  root=$1
  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mount -t tmpfs -o mode=755,nosuid dev "$root/dev"
  mknod -m 666 "$root/dev/null" c 1 3
  mknod -m 666 "$root/dev/zero" c 1 5
  mknod -m 666 "$root/dev/full" c 1 7
  mknod -m 666 "$root/dev/random" c 1 8
  mknod -m 666 "$root/dev/urandom" c 1 9
  mknod -m 666 "$root/dev/tty" c 5 0
  mkdir "$root/dev/pts" "$root/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
  ln -s pts/ptmx "$root/dev/ptmx"
  mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm"
  ln -s /proc/self/fd "$root/dev/fd"
  mkdir -p "$root/out"
  exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive /bin/sh -eu /tmp/clean_install_inner.sh "$2"
' sh "$root" "$(basename "$deb")" 2>&1 | tee "$out/run.log" || true
# The pipeline's status is tee's: the inner script's verdict is its last line.
cp -a "$root/out/." "$out/"
tail -n 1 "$out/run.log" | grep -q '^clean_install: all checks passed$' || status=1
[ "$status" = 0 ] && say "done: $out/clean-install-bookworm.png" || say "failed (see $out)"
exit "$status"
