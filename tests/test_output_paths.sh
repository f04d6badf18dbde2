#!/bin/bash
# SPDX-License-Identifier: MIT
# What -o and --plot do to the path they are given, as GNU sort -o and cp
# do: a character device, FIFO or socket is written through and stays
# what it is; a symlink is followed, its target replaced and the link
# kept; a file keeps its mode and owner; a hard-linked file is rewritten
# in place, so every name sees the new text; - is standard output; and a
# write that fails (a full device: ENOSPC) is exit 1 and one line.  Every
# node is made here, in a temporary folder; /dev/full is used only by a
# process that cannot replace it.
#
# Usage: test_output_paths.sh KHASH_BENCH
set -u
kb=$1
tmp=$(mktemp -d)
reader=''
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	[ -n "$reader" ] && kill "$reader" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# Two writers: keys streams through kb_keywriter, skew builds its text
# in memory (kb_write_all).  Their standard output is what a file gets.
keys=(keys --keyset page4k --count 3000)
skew=(skew --keyset page4k --func hash_64 --gen new --word 64 --bits 11)
"$kb" "${keys[@]}" >"$tmp/keys.want" || exit 1
"$kb" "${skew[@]}" >"$tmp/skew.want" || exit 1
[ -s "$tmp/keys.want" ] && [ -s "$tmp/skew.want" ] || exit 1
# writer keys|skew ARGS...: that writer, with ARGS after its own
writer() {
	local w=$1
	shift
	if [ "$w" = keys ]; then "$kb" "${keys[@]}" "$@"; else "$kb" "${skew[@]}" "$@"; fi
}

# no_temporaries NAME DIR...: no *.tmp.* left in any DIR
no_temporaries() {
	local name=$1
	shift
	check "$name: no temporary left" "$(find "$@" -name '*.tmp.*' | grep -c .)"
}
# same NAME FILE WANT: FILE holds exactly WANT's bytes
same() { cmp -s "$2" "$3"; check "$1: the full output" $?; }

# --- a character device: mknod c 1 3 is a null device (root only) ---------
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/mynull" c 1 3 2>/dev/null; then
	for w in keys skew; do
		writer "$w" -o "$tmp/mynull" >/dev/null 2>"$tmp/err"
		check "$w -o a char device: exit 0" $?
		[ -c "$tmp/mynull" ]
		check "$w -o a char device: still a char device" $?
		[ "$(stat -c %t:%T "$tmp/mynull")" = 1:3 ]
		check "$w -o a char device: the same device" $?
	done
	no_temporaries "-o a char device" "$tmp"
else
	echo "note: not root or no mknod, the character device case not run"
fi

# --- a FIFO, with a reader --------------------------------------------------
for w in keys skew; do
	rm -f "$tmp/fifo" "$tmp/got"
	mkfifo "$tmp/fifo"
	cat "$tmp/fifo" >"$tmp/got" &
	reader=$!
	writer "$w" -o "$tmp/fifo" >/dev/null 2>"$tmp/err"
	check "$w -o a FIFO: exit 0" $?
	# the reader ends at the writer's close; a renamed-over FIFO never
	# gets a writer, so do not wait for ever
	for _ in $(seq 100); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
	kill "$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	reader=''
	[ -p "$tmp/fifo" ]
	check "$w -o a FIFO: still a FIFO" $?
	same "$w -o a FIFO: the reader got" "$tmp/got" "$tmp/$w.want"
done
no_temporaries "-o a FIFO" "$tmp"

# --- a unix socket, with a listener (where python3 is) ----------------------
if command -v python3 >/dev/null; then
	rm -f "$tmp/got"
	python3 - "$tmp/sock" "$tmp/got" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(1)
s.settimeout(20)
c, _ = s.accept()
with open(sys.argv[2], "wb") as out:
    while True:
        b = c.recv(65536)
        if not b:
            break
        out.write(b)
EOF
	reader=$!
	# python3 can take seconds to start on a busy machine: wait up to 60 s
	for _ in $(seq 600); do [ -S "$tmp/sock" ] && break; sleep 0.1; done
	"$kb" "${keys[@]}" -o "$tmp/sock" >/dev/null 2>"$tmp/err"
	check "keys -o a socket: exit 0" $?
	wait "$reader"
	reader=''
	[ -S "$tmp/sock" ]
	check "keys -o a socket: still a socket" $?
	same "keys -o a socket: the listener got" "$tmp/got" "$tmp/keys.want"
else
	echo "note: no python3, the socket case not run"
fi

# --- a symlink to a file in another folder: the link stays a link ----------
mkdir "$tmp/d" "$tmp/l"
for w in keys skew; do
	printf 'old\n' >"$tmp/d/$w.txt"
	ln -s "../d/$w.txt" "$tmp/l/$w.link"
	writer "$w" -o "$tmp/l/$w.link" >/dev/null 2>"$tmp/err"
	check "$w -o a symlink: exit 0" $?
	[ -L "$tmp/l/$w.link" ] && [ "$(readlink "$tmp/l/$w.link")" = "../d/$w.txt" ]
	check "$w -o a symlink: still the same link" $?
	same "$w -o a symlink: its target" "$tmp/d/$w.txt" "$tmp/$w.want"
done
# a link to nothing yet: writing creates the file it names
ln -s "../d/new.txt" "$tmp/l/dangling"
"$kb" "${skew[@]}" -o "$tmp/l/dangling" >/dev/null 2>"$tmp/err"
check "-o a dangling symlink: exit 0" $?
[ -L "$tmp/l/dangling" ] && [ -f "$tmp/d/new.txt" ]
check "-o a dangling symlink: still a link, its target made" $?
same "-o a dangling symlink: its target" "$tmp/d/new.txt" "$tmp/skew.want"
no_temporaries "-o a symlink" "$tmp/d" "$tmp/l"
# a link into a folder that does not exist: refused before any work, by
# the check that runs first, naming the link as given
ln -s "../nowhere/x.txt" "$tmp/l/broken"
"$kb" "${skew[@]}" -o "$tmp/l/broken" >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" = 1 ] && [ "$(cat "$tmp/err")" = "khash-bench: cannot write $tmp/l/broken: No such file or directory" ] &&
	[ ! -s "$tmp/out" ] && [ -L "$tmp/l/broken" ]
check "-o a link into a missing folder: one line, exit 1 (got $st)" $?

# --- an existing file keeps its mode (and, as root, its owner) -------------
for mode in 600 640 755; do
	printf 'old\n' >"$tmp/m$mode"
	chmod "$mode" "$tmp/m$mode"
	"$kb" "${keys[@]}" -o "$tmp/m$mode" >/dev/null 2>"$tmp/err"
	check "-o a $mode file: exit 0" $?
	got=$(stat -c %a "$tmp/m$mode")
	[ "$got" = "$mode" ]
	check "-o a $mode file: mode kept (got $got)" $?
	same "-o a $mode file" "$tmp/m$mode" "$tmp/keys.want"
done
if [ "$(id -u)" = 0 ] && chown 65534:65534 "$tmp/m600" 2>/dev/null; then
	"$kb" "${skew[@]}" -o "$tmp/m600" >/dev/null 2>"$tmp/err"
	[ "$(stat -c %u:%g:%a "$tmp/m600")" = 65534:65534:600 ]
	check "-o a file of another owner: owner, group and mode kept" $?
fi
# a new file: 0666 less the umask
(umask 027 && "$kb" "${skew[@]}" -o "$tmp/fresh" >/dev/null 2>"$tmp/err")
got=$(stat -c %a "$tmp/fresh")
[ "$got" = 640 ]
check "-o a new file under umask 027: 640 (got $got)" $?

# --- a hard-linked file: rewritten in place, every name sees it ------------
for w in keys skew; do
	printf 'old, longer than nothing, and then some more old text\n' >"$tmp/h1"
	ln -f "$tmp/h1" "$tmp/h2"
	chmod 604 "$tmp/h1"
	ino=$(stat -c %i "$tmp/h1")
	writer "$w" -o "$tmp/h1" >/dev/null 2>"$tmp/err"
	check "$w -o a hard-linked file: exit 0" $?
	[ "$(stat -c %i:%h:%a "$tmp/h1")" = "$ino:2:604" ]
	check "$w -o a hard-linked file: the same inode, both links, mode" $?
	same "$w -o a hard-linked file: the other name" "$tmp/h2" "$tmp/$w.want"
done
no_temporaries "-o a hard-linked file" "$tmp"

# --- - is standard output ---------------------------------------------------
"$kb" "${skew[@]}" -o - >"$tmp/got" 2>"$tmp/err"
check "-o -: exit 0" $?
same "-o -: standard output" "$tmp/got" "$tmp/skew.want"
[ ! -e ./- ]
check "-o -: no file named -" $?

# --- a full device: the write fails, exit 1, one line, the node kept ------
# As root, a full device made here (c 1 7): a writer that renamed over its
# path would replace the system's /dev/full.  Otherwise /dev/full itself,
# which a process that cannot write /dev cannot replace.
full=''
if [ "$(id -u)" = 0 ]; then
	mknod -m 666 "$tmp/full" c 1 7 2>/dev/null && full=$tmp/full
elif [ -c /dev/full ] && [ ! -w /dev ]; then
	full=/dev/full
fi
if [ -n "$full" ]; then
	for w in keys skew; do
		writer "$w" -o "$full" >/dev/null 2>"$tmp/err"
		st=$?
		[ "$st" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
			[ "$(cat "$tmp/err")" = "khash-bench: cannot write $full: No space left on device" ]
		check "$w -o a full device: exit 1, one line (got $st)" $?
		[ -c "$full" ]
		check "$w -o a full device: still a char device" $?
	done
else
	echo "note: no full device to write, that case not run"
fi

# --- --plot into a folder whose names are links, hard links, modes --------
if command -v gnuplot >/dev/null; then
	p=$tmp/plots base=skew_page4k_hash_64_w64_b11
	mkdir "$p" "$tmp/elsewhere"
	printf 'old\n' >"$tmp/elsewhere/fig.png"
	ln -s "$tmp/elsewhere/fig.png" "$p/$base.png"
	printf 'old\n' >"$p/$base.svg"
	chmod 600 "$p/$base.svg"
	ln "$p/$base.svg" "$tmp/elsewhere/fig.svg"
	printf 'old\n' >"$tmp/elsewhere/data"
	ln -s "$tmp/elsewhere/data" "$p/$base.dat"
	"$kb" "${skew[@]}" --plot "$p" >/dev/null 2>"$tmp/err"
	check "--plot over links: exit 0" $?
	[ -L "$p/$base.png" ] && [ -L "$p/$base.dat" ]
	check "--plot over links: the links kept" $?
	[ "$(head -c 4 "$tmp/elsewhere/fig.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	check "--plot over links: the image is written to the link's target" $?
	has -c '<svg' "$tmp/elsewhere/fig.svg"
	check "--plot over a hard-linked SVG: the other name sees it" $?
	[ "$(stat -c %a:%h "$p/$base.svg")" = 600:2 ]
	check "--plot over a hard-linked SVG: mode and links kept" $?
	has -v '^old$' "$tmp/elsewhere/data"
	check "--plot over links: the data is written to the link's target" $?
	no_temporaries "--plot over links" "$p" "$tmp/elsewhere"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
