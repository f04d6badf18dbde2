#!/bin/bash
# SPDX-License-Identifier: MIT
# Every shell script of the tree through shellcheck -x (the tests' source
# of checks.sh followed by their directives; .shellcheckrc at the top).
# usage: check_shell.sh SHELLCHECK SOURCE_ROOT
set -euo pipefail
shellcheck=$1
cd "$2"
scripts=()
while IFS= read -r -d '' f; do
	scripts+=("$f")
done < <(find bench kernel tests -name '*.sh' -type f -print0 | sort -z)
[ -f .ci/run ] && scripts+=(.ci/run)
[ ${#scripts[@]} -gt 20 ] || { echo "check_shell.sh: only ${#scripts[@]} scripts found under $2" >&2; exit 1; }
"$shellcheck" -x "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts clean"
