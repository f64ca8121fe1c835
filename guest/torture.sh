#!/bin/sh
# torture.sh: run torture, with the words of $TORTURE_OPTS (spaces or
# commas between them, e.g. TORTURE_OPTS=-t,300,-P on the kernel command
# line, which hands unknown name=value words to /init) as its options,
# under memory pressure from stress-ng, which is stopped afterwards.
stress-ng --vm 1 --vm-bytes 20% --vm-keep --timeout 3600s --quiet >/dev/null 2>&1 &
spid=$!
sleep 1
# shellcheck disable=SC2046 # split into words on purpose
torture $(echo "${TORTURE_OPTS:-}" | tr ',' ' ')
rc=$?
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
exit $rc
