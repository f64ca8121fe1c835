#!/bin/sh
# torture.sh: run torture (options from $TORTURE_OPTS) under memory
# pressure from stress-ng, which is stopped afterwards.
stress-ng --vm 1 --vm-bytes 20% --vm-keep --timeout 3600s --quiet >/dev/null 2>&1 &
spid=$!
sleep 1
torture
rc=$?
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
exit $rc
