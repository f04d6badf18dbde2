#!/bin/sh
# SPDX-License-Identifier: MIT
# Consumers' view: after `meson install` to a scratch prefix, a program
# outside the tree finds libkhash through pkg-config and links against it
# (shared and static); and a meson project uses libkhash as a subproject.
# Usage: check_install.sh BUILD SOURCE [SANITIZER]  (SANITIZER: b_sanitize's value)
set -eu
build=$1 source=$2 sanitize=${3:-none}
# A sanitized libkhash needs its runtime linked first into every program,
# which a plain consumer does not do: skip (77, meson's code) rather than
# fail.  The builds without a sanitizer run this check in full.
if [ "$sanitize" != none ]; then
	echo "SKIP: the build uses -fsanitize=$sanitize; a consumer program without its runtime cannot link or load libkhash"
	exit 77
fi
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/root" >/dev/null
pc=$(find "$tmp/root" -name libkhash.pc)
[ -n "$pc" ] || { echo "FAIL: no libkhash.pc installed"; exit 1; }
for h in lkh.h linux_hash.h lkh_config.h; do
	find "$tmp/root" -path "*/include/khash/$h" | grep -q . ||
		{ echo "FAIL: include/khash/$h not installed"; exit 1; }
done

cat >"$tmp/app.c" <<'APP'
#include <stdio.h>
#include <khash/lkh.h>
int main(void)
{
	uint64_t out;
	if (lkh_hash(LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 0x12345678, 32, &out))
		return 1;
	printf("%s %#llx %#x\n", lkh_version_string(),
	       (unsigned long long)out, (unsigned)lkh_new_hash64_w32(0x12345678, 32));
	return 0;
}
APP
# A scratch prefix under a destdir: pkg-config's sysroot maps paths there.
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR="$tmp/root"
flags=$(pkg-config --cflags --libs libkhash)
# The README's recipe: an rpath to pkg-config's libdir, so that the program
# starts with nothing in LD_LIBRARY_PATH (meson test sets it: unset here).
# shellcheck disable=SC2086 # pkg-config prints a list of words
$cc "$tmp/app.c" -o "$tmp/app" $flags -Wl,-rpath,"$(pkg-config --variable=libdir libkhash)"
libdir=$(dirname "$(dirname "$pc")")
got=$(env -u LD_LIBRARY_PATH "$tmp/app")
want="$(pkg-config --modversion libkhash) 0x6e79886e 0x7786cb48"
[ "$got" = "$want" ] || { echo "FAIL: shared: got '$got', want '$want'"; exit 1; }
lib=$(env -u LD_LIBRARY_PATH ldd "$tmp/app" | awk '/libkhash/ {print $1, $3}')
abi=$(sed -n 's/^#define LKH_ABI_VERSION //p' "$source/include/khash/lkh.h")
case $lib in
"libkhash.so.$abi $tmp"/root/*) ;;
*) echo "FAIL: the program loads '$lib', not libkhash.so.$abi from the install"; exit 1 ;;
esac
cflags=$(pkg-config --cflags libkhash)
# shellcheck disable=SC2086 # as above
$cc "$tmp/app.c" -o "$tmp/app-static" $cflags "$libdir/libkhash.a"
got=$("$tmp/app-static")
[ "$got" = "$want" ] || { echo "FAIL: static: got '$got'"; exit 1; }
echo "ok: installed library works through pkg-config, shared and static: $got"

# The installed khash-bench starts as installed, with nothing in
# LD_LIBRARY_PATH (meson test sets it to the build tree), and loads the
# libkhash installed beside it: its rpath is relative to the program, so
# this tree, a prefix without DESTDIR, is as good as any.
kbin=$(find "$tmp/root" -path '*/bin/khash-bench')
if [ -n "$kbin" ]; then
	got=$(env -u LD_LIBRARY_PATH "$kbin" --version) ||
		{ echo "FAIL: the installed khash-bench does not start"; exit 1; }
	[ "$got" = "khash-bench (libkhash) $(pkg-config --modversion libkhash)" ] ||
		{ echo "FAIL: installed khash-bench --version: '$got'"; exit 1; }
	lib=$(env -u LD_LIBRARY_PATH ldd "$kbin" | awk '/libkhash/ {print $3}')
	case $lib in
	"$tmp"/root/*) ;;
	*) echo "FAIL: the installed khash-bench loads '$lib', not the installed libkhash"; exit 1 ;;
	esac
	got=$(echo 0x12345678 | env -u LD_LIBRARY_PATH "$kbin" hash --func hash_64 --gen new --word 64 --bits 32)
	[ "$got" = 0x6e79886e ] || { echo "FAIL: installed khash-bench hash: '$got'"; exit 1; }
	echo "ok: the installed khash-bench runs on the installed libkhash ($lib)"
fi

mkdir -p "$tmp/proj/subprojects"
ln -s "$(cd "$source" && pwd)" "$tmp/proj/subprojects/libkhash"
cp "$tmp/app.c" "$tmp/proj/app.c"
cat >"$tmp/proj/meson.build" <<'PROJ'
project('consumer', 'c')
subproject('libkhash')
executable('app', 'app.c', dependencies: dependency('libkhash'))
PROJ
meson setup "$tmp/proj/b" "$tmp/proj" >"$tmp/setup.log" 2>&1 ||
	{ cat "$tmp/setup.log"; echo "FAIL: subproject setup"; exit 1; }
ninja -C "$tmp/proj/b" >"$tmp/ninja.log" 2>&1 ||
	{ cat "$tmp/ninja.log"; echo "FAIL: subproject build"; exit 1; }
got=$("$tmp/proj/b/app")
[ "$got" = "$want" ] || { echo "FAIL: subproject: got '$got'"; exit 1; }
echo "ok: usable as a meson subproject through dependency('libkhash')"

# A plain `meson setup`, as a user types it, configures a release build:
# what is installed has no asserts (NDEBUG) and full optimisation.
meson setup "$tmp/plain" "$source" >"$tmp/setup.log" 2>&1 ||
	{ cat "$tmp/setup.log"; echo "FAIL: plain meson setup"; exit 1; }
got=$(meson introspect --buildoptions "$tmp/plain" | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["buildtype"], o["b_ndebug"])')
[ "$got" = "release if-release" ] ||
	{ echo "FAIL: plain meson setup: buildtype, b_ndebug: '$got', want 'release if-release'"; exit 1; }
echo "ok: a plain meson setup is a release build with NDEBUG"
