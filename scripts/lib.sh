# Shared helpers for the harness scripts. Sourced, not run.
# shellcheck shell=bash

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
LOGS=${LOGS:-$BUILD/logs}
RESULTS=${RESULTS:-$TOP/results}
SRC=$BUILD/src			# unpacked tree, git repo, tag "base"
SRC_PATCHED=$BUILD/src-patched	# worktree with patches/series applied
mkdir -p "$LOGS" "$RESULTS"

die() {
	echo "error: $*" >&2
	exit 1
}

# step NAME KERNEL LOGFILE CMD...: run CMD with all output in LOGFILE and
# print one progress line: what, for which kernel, how long, where the log is.
step() {
	local name=$1 kernel=$2 log=$3 t0 rc
	shift 3
	t0=$(date +%s)
	printf '%-10s %-16s ... ' "$name" "$kernel"
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		printf 'ok     %4ss  log: %s\n' "$(($(date +%s) - t0))" "$log"
	else
		printf 'FAILED %4ss  log: %s\n' "$(($(date +%s) - t0))" "$log"
		tail -n 15 "$log" | sed 's/^/    | /'
	fi
	return $rc
}
