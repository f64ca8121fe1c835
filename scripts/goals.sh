# goals.sh: the project's goals, in one place. Sourced by bench-goals.sh
# (make bench), latency.sh (make latency) and mutants.sh (make mutants).
# shellcheck shell=bash

# Throughput, make bench (scripts/bench-goals.sh): ratios of medians, or
# medians of per-round ratios, within one run.
GOAL_CLEAR_VS_BEST=0.95		# default vs the best loop the kernel can use
GOAL_COPY_VS_BEST=0.95		# default copy vs the fastest (MC-safe) kernel loop
GOAL_1G_E2E_VS_MAINLINE=1.30	# 1 GiB clear then write, vs 6.12
GOAL_2M_E2E_VS_MAINLINE=1.10	# 2 MiB clear then write, vs 6.12
GOAL_2M_COPY_VS_MAINLINE=1.20	# 2 MiB copy, vs 6.12
GOAL_1G_COPY_VS_MAINLINE=1.40	# 1 GiB copy, vs 6.12
GOAL_1G_PREZERO=1000		# 1 GiB fault from a zeroed pool vs one that clears (guest)
GOAL_2M_PREZERO=30		# the same for 2 MiB
GOAL_WRITERS=1.5		# two writers of zero_free_hugepages vs one (guest)

# Latency, make latency: one goal a line, "MODEL REFERENCE VARIANT K":
# under MODEL, VARIANT's maximum latency is at most K times REFERENCE's
# (rows of results/latency.csv from one run). make mutants asserts those
# under none whose variants it runs.
LATENCY_GOALS="
none mainline guarded 2
voluntary mainline guarded 2
none unguarded units 0.5
voluntary unguarded units 0.5
full mainline tif 2
full mainline guarded 2
full mainline unguarded 2
full mainline units 2
none-switch mainline+switch guarded+switch 2
none mainline+cow guarded+cow 2
none mainline+cow units+cow 2
none mainline+busy guarded+prezeroed 2
none mainline guarded+request 2
none-debug unguarded guarded 0.5
none-debug unguarded+cow guarded+cow 0.5
"

# latency_goals CSV MODELS VARIANTS LOGS: assert every goal under one of
# the comma separated MODELS whose variants are both in VARIANTS (either
# "all" for any),
# quoting the consoles LOGS for a missing row: a glob in which %s stands
# for the goal's model (latency_goal in lib.sh). Returns 1 if one is
# missed or not measured.
latency_goals() {
	local csv=$1 models=",$2," want=",$3," pat=$4 p rv gv k rc=0
	while read -r p rv gv k; do
		[ -n "$p" ] || continue
		[ "$models" = ",all," ] || [[ "$models" == *",$p,"* ]] || continue
		if [ "$want" != ",all," ] && { [[ "$want" != *",$rv,"* ]] || [[ "$want" != *",$gv,"* ]]; }; then
			continue
		fi
		# shellcheck disable=SC2046,SC2059 # the pattern is ours; a glob
		latency_goal "$csv" "$p" "$rv" "$gv" "$k" $(printf "$pat" "$p") || rc=1
	done <<<"$LATENCY_GOALS"
	return $rc
}
