#!/bin/sh
# SPDX-License-Identifier: MIT
# khash-bench's layers by their symbols: the computation layer (core/)
# neither prints, reads or writes files, nor calls into the layers above
# it; the I/O layer (io/) does not call into the command line (cli/).
# Usage: check_layers.sh LIBKBCORE.a LIBKBIO.a
set -u
core=$1 io=$2
status=0

undefined() { nm -u "$1" | awk '{print $NF}' | sort -u; }

# streams, files and descriptors (snprintf into a buffer is fine)
io_calls='^(__)?(v?f?printf|fputs|fputc|putc|putchar|puts|fwrite|fread|fopen|fdopen|fclose|fflush|fgets|getline|perror|open|open64|openat|read|write|close|creat|rename|unlink|mkdir|stdout|stderr|stdin)(_chk)?$'
upper_io='^kb_(buf_|atomic_|keyfile_|json_|csv_|render_|figure_|plot_|speed_run|format_|write_all|output_|progress_view_|read_cache_bytes)'
upper_cli='^kb_(fail|parse_args|usage|command_usage|manpage|commands|options)$'

bad=$(undefined "$core" | grep -E "$io_calls|$upper_io|$upper_cli")
if [ -n "$bad" ]; then
	echo "FAIL: core/ reaches I/O or an upper layer:"; echo "$bad"; status=1
fi
bad=$(undefined "$io" | grep -E "$upper_cli")
if [ -n "$bad" ]; then
	echo "FAIL: io/ reaches the command line:"; echo "$bad"; status=1
fi
# the check itself must see something: core does use the library
undefined "$core" | grep -q '^lkh_' || { echo "FAIL: no symbols read from $core"; status=1; }
[ "$status" = 0 ] && echo "ok: core/ does no I/O and io/ does not reach cli/"
exit "$status"
