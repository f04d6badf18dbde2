#!/bin/bash
# SPDX-License-Identifier: MIT
# Every file's SPDX-License-Identifier names a licence whose text the tree
# carries: MIT (LICENSE) anywhere, GPL-2.0 (kernel/COPYING) only under
# kernel/, the Linux side; and project() in meson.build says MIT.
# Usage: check_licenses.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
# A checkout's files are git's (a build folder inside it is not); an
# unpacked release tarball holds nothing but its files.
spdx_lines() {
	if [ -d .git ] || [ -f .git ]; then
		git grep -I -o 'SPDX-License-Identifier: [A-Za-z0-9.+-]*'
	else
		grep -rIo 'SPDX-License-Identifier: [A-Za-z0-9.+-]*' . | sed 's|^\./||'
	fi
}
bad=0
grep -q '^MIT License$' LICENSE || { echo "FAIL: LICENSE is not the MIT licence"; bad=1; }
if ! grep -q 'GNU GENERAL PUBLIC LICENSE' kernel/COPYING ||
   ! grep -q '^SPDX-License-Identifier: GPL-2.0$' kernel/COPYING; then
	echo "FAIL: kernel/COPYING is not the GPL-2.0 text with its SPDX line"
	bad=1
fi
grep -q "^  license: 'MIT'," meson.build || { echo "FAIL: project() in meson.build has no license: 'MIT'"; bad=1; }
# the first SPDX line of each text file
while IFS=: read -r f id; do
	case ${id#*: }:$f in
	MIT:*) ;;
	GPL-2.0:kernel/*) ;;
	*) echo "FAIL: $f: SPDX ${id#*: } (MIT anywhere, GPL-2.0 only under kernel/)"; bad=1 ;;
	esac
done < <(spdx_lines | awk -F: '!seen[$1]++')
[ "$bad" = 0 ] && echo "ok: every SPDX line is MIT, or GPL-2.0 under kernel/"
exit "$bad"
