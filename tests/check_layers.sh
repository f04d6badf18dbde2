#!/bin/sh
# SPDX-License-Identifier: MIT
# khash-bench's layers by their symbols: the computation layer (core/)
# neither prints, reads or writes files, nor calls into the layers above
# it; the I/O layer (io/) does not call into the command line (cli/).  What
# each upper layer defines is read from its own library, so a new function
# there is checked without a list to keep.
# Usage: check_layers.sh LIBKBCORE.a LIBKBIO.a LIBKBCLI.a
set -u
core=$1 io=$2 cli=$3
status=0

undefined() { nm -u "$1" | awk '{print $NF}' | sort -u; }
# the global functions and data a library defines
defined() { nm -g --defined-only "$1" | awk 'NF == 3 {print $3}' | sort -u; }

# streams, files and descriptors (snprintf into a buffer is fine)
io_calls='^(__)?(v?f?printf|fputs|fputc|putc|putchar|puts|fwrite|fread|fopen|fdopen|fclose|fflush|fgets|getline|perror|open|open64|openat|read|write|close|creat|rename|unlink|mkdir|stdout|stderr|stdin)(_chk)?$'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
defined "$io" >"$tmp/io"
defined "$cli" >"$tmp/cli"
undefined "$core" >"$tmp/core.u"
undefined "$io" >"$tmp/io.u"
if [ ! -s "$tmp/io" ] || [ ! -s "$tmp/cli" ]; then
	echo "FAIL: no symbols read from $io or $cli"; exit 1
fi

bad=$( { grep -E "$io_calls" "$tmp/core.u"; grep -Fxf "$tmp/io" "$tmp/core.u";
	 grep -Fxf "$tmp/cli" "$tmp/core.u"; } | sort -u)
if [ -n "$bad" ]; then
	echo "FAIL: core/ reaches I/O or an upper layer:"; echo "$bad"; status=1
fi
bad=$(grep -Fxf "$tmp/cli" "$tmp/io.u")
if [ -n "$bad" ]; then
	echo "FAIL: io/ reaches the command line:"; echo "$bad"; status=1
fi
# the check itself must see something: core does use the library
grep -q '^lkh_' "$tmp/core.u" || { echo "FAIL: no symbols read from $core"; status=1; }
[ "$status" = 0 ] && echo "ok: core/ does no I/O and io/ does not reach cli/"
exit "$status"
