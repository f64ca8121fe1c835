#!/bin/sh
# strategies.sh: hugezero once per way of clearing that the evaluation
# knobs offer (every strategy, and the default unguarded), so that each
# path's selection and driving code runs end to end (see hugezero.c, -a).
exec hugezero -a
