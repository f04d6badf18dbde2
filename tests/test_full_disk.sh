#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench on a full disk: a write that fails for lack of space must end
# in exit status 1 and one line on stderr naming what could not be written,
# and must leave neither a partial output nor a temporary file behind.
#
# Part 1, anywhere: standard output is /dev/full (-o onto a full device is
# tests/test_output_paths.sh's, with a node of its own).
# Part 2, as root: a 64 KiB tmpfs mounted on a fresh folder takes -o files
# and plots too large for it.  When it cannot be mounted that part is
# skipped, and the whole test exits 77 if part 1 passed.
#
# Usage: test_full_disk.sh KHASH_BENCH
set -u
kb=$1
tmp=$(mktemp -d)
mnt='' mounted=0
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ "$mounted" = 1 ]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt"
	fi
	# rmdir, not rm -rf: never delete through a mount that did not go away
	[ -n "$mnt" ] && rmdir "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# one_line_error NAME STATUS WANT: exit status 1 and exactly one stderr
# line, from khash-bench, naming WANT (the file, folder or standard output).
one_line_error() {
	local name=$1 status=$2 want=$3 err n ok=1
	err=$(cat "$tmp/err")
	n=$(wc -l <"$tmp/err")
	[ "$status" = 1 ] && [ "$n" = 1 ] && [ "${err#khash-bench: }" != "$err" ] || ok=0
	case $err in *"$want"*) ;; *) ok=0 ;; esac
	if [ "$ok" = 1 ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: $name"
		echo "  status $status (want 1), $n stderr lines (want 1 naming $want):"
		sed 's/^/    /' "$tmp/err"
		count_failure
	fi
}

# check NAME CONDITION-RESULT

# --- part 1: standard output on /dev/full ---------------------------------
printf '0\n1\n4096\n0xffffffffffffffff\n' >"$tmp/keys.txt"
full_stdout() { # NAME ARGS...
	local name=$1
	shift
	"$kb" "$@" >/dev/full 2>"$tmp/err" </dev/null
	one_line_error "$name > /dev/full" $? "standard output"
}
if [ -c /dev/full ]; then
	full_stdout "report" report --count 4096
	full_stdout "hash" hash --func hash_64 --gen new --bits 8 "$tmp/keys.txt"
	full_stdout "keys" keys --keyset page4k --count 100000
	# a short output too: its one write fails only at the final flush
	full_stdout "list" list
else
	echo "note: no /dev/full, standard output checks not run"
fi

# --- part 2: files on a 64 KiB tmpfs --------------------------------------
why=''
if [ "$(id -u)" != 0 ]; then
	why="not root, cannot mount a tmpfs"
else
	mnt=$(mktemp -d)
	if mount -t tmpfs -o size=64k,mode=0755 libkhash-full "$mnt" 2>"$tmp/err"; then
		mounted=1
	else
		why="mount -t tmpfs failed: $(head -1 "$tmp/err")"
	fi
fi

if [ "$mounted" = 1 ]; then
	# left_behind NAME KEEP...: no file in the tmpfs but the KEEP ones (an
	# empty folder is no partial output)
	left_behind() {
		local name=$1 f extra=''
		shift
		while IFS= read -r f; do
			case " $* " in *" ${f#"$mnt"/} "*) continue ;; esac
			extra="$extra $f"
		done < <(find "$mnt" -mindepth 1 ! -type d)
		if [ -z "$extra" ]; then passed=$((passed + 1)); else
			echo "FAIL: $name left files behind:$extra"
			find "$mnt" -mindepth 1 -printf '    %M %8s %p\n'
			count_failure
		fi
	}
	empty_mount() { find "$mnt" -mindepth 1 -delete; }

	# A report CSV of about 310 KiB.
	empty_mount
	"$kb" report --count 4096 --format csv --bits-max 20 -o "$mnt/r.csv" \
		>/dev/null 2>"$tmp/err"
	one_line_error "report -o on a full tmpfs" $? "$mnt/r.csv"
	left_behind "report -o"

	# A key file of about 1.9 MB.
	empty_mount
	"$kb" keys --keyset page4k --count 100000 -o "$mnt/k.txt" >/dev/null 2>"$tmp/err"
	one_line_error "keys -o on a full tmpfs" $? "$mnt/k.txt"
	left_behind "keys -o"

	# Replacing a file that exists: the failed write leaves it as it was.
	empty_mount
	printf 'previous\n' >"$mnt/r.csv"
	"$kb" report --count 4096 --format csv --bits-max 20 -o "$mnt/r.csv" \
		>/dev/null 2>"$tmp/err"
	one_line_error "report -o over an existing file" $? "$mnt/r.csv"
	[ "$(cat "$mnt/r.csv")" = previous ]; check "the existing file is unchanged" $?
	left_behind "report -o over an existing file" r.csv

	# A hard-linked file is rewritten in place once its temporary (about
	# 40 KiB) is complete; there is then no room for a second copy, and
	# its space is reserved before a byte of it changes.
	empty_mount
	printf 'previous\n' >"$mnt/k.txt"
	ln "$mnt/k.txt" "$mnt/k2.txt"
	"$kb" keys --keyset page4k --word 64 --count 2000 -o "$mnt/k.txt" >/dev/null 2>"$tmp/err"
	one_line_error "keys -o over a hard-linked file" $? "$mnt/k.txt"
	[ "$(cat "$mnt/k2.txt")" = previous ]; check "the hard-linked file is unchanged" $?
	left_behind "keys -o over a hard-linked file" k.txt k2.txt

	if command -v gnuplot >/dev/null; then
		# A plot (about 1.1 MB in 32 files) with 8 KiB left: room for the
		# first plot's data and script, none for the images gnuplot then
		# renders (gnuplot exits 0 even when its writes fail).
		empty_mount
		head -c $((56 * 1024)) /dev/zero >"$mnt/filler"
		"$kb" report --count 4096 --keysets page4k --bits-max 14 --plot "$mnt/plots" \
			>/dev/null 2>"$tmp/err"
		one_line_error "report --plot on a nearly full tmpfs" $? "$mnt/plots"
		left_behind "report --plot" filler

		# One plot only, so nothing after gnuplot's images is left to fail:
		# images it could not write must fail the run all the same.
		"$kb" audit --preset old64 --plot "$mnt/audit" >/dev/null 2>"$tmp/err"
		one_line_error "audit --plot on a nearly full tmpfs" $? "$mnt/audit"
		left_behind "audit --plot" filler
	else
		echo "note: no gnuplot, plot checks not run"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
if [ "$mounted" != 1 ]; then
	echo "SKIP: full tmpfs part not run: $why (standard output checks passed)"
	exit 77
fi
exit 0
