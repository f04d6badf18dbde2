# SPDX-License-Identifier: MIT
# Sourced by the shell tests: check NAME RESULT counts a result (0 passes)
# and names every failure; the caller prints the tally and exits by it.
passed=0 failed=0
check() { # name, condition result
	if [ "$2" = 0 ]; then passed=$((passed + 1)); else
		failed=$((failed + 1)); echo "FAIL: $1"; fi
}
