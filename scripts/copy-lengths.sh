#!/bin/bash
# copy-lengths.sh CLEARBENCH CSV [ROUNDS]: how the length of one call
# decides between REP MOVSB and MOVNTI copies on this CPU, the figures
# behind the copy policy's bound (COPY_PAGES_AMD_STREAM_MIN): 1 GiB pages
# copied with REP MOVSB in calls of each length (movsb-calls with -u)
# against copy_mc_pages_nt() (mc-nt, one call a page, whose speed does
# not depend on the call's length), in the same rounds. Writes CSV:
# length,movsb_gbps,mc_nt_gbps,ratio,ratio_min,ratio_max,rounds (medians;
# ratio = movsb / mc-nt per round) and prints it as a table.
set -eu
cb=${1:?usage: copy-lengths.sh CLEARBENCH CSV [ROUNDS]}
csv=${2:?usage: copy-lengths.sh CLEARBENCH CSV [ROUNDS]}
rounds=${3:-7}
raw=$(mktemp)
trap 'rm -f "$raw" "$raw".*' EXIT

echo "length,movsb_gbps,mc_nt_gbps,ratio,ratio_min,ratio_max,rounds" >"$csv.tmp"
for len in 256K 2M 8M 32M 64M 128M 256M 1G; do
	"$cb" -C -p 1G -s 1G -S movsb-calls,mc-nt -u "$len" -r "$rounds" -R "$raw.$len" >/dev/null
	# strategy,page,gbps,round: pair the two per round.
	awk -F, -v len="$len" '
		NR > 1 && $1 == "movsb-calls" { a[$4] = $3 }
		NR > 1 && $1 == "mc-nt" { b[$4] = $3 }
		function med(x, n,    i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
					t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
				}
			return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		}
		END {
			for (r in a)
				if (r in b && b[r] > 0) {
					n++; x[n] = a[r]; y[n] = b[r]; q[n] = a[r] / b[r]
				}
			if (!n)
				exit 1
			mq = med(q, n)
			printf "%s,%.2f,%.2f,%.2f,%.2f,%.2f,%d\n", len, med(x, n), med(y, n), mq, q[1], q[n], n
		}' "$raw.$len" >>"$csv.tmp" || { echo "copy-lengths: no paired rounds at $len" >&2; exit 1; }
done
mv "$csv.tmp" "$csv"
echo "1 GiB copied in calls of each length: REP MOVSB against copy_mc_pages_nt() (MOVNTI), GB/s medians; per-round ratio movsb / mc-nt, median [min-max]"
column -s, -t "$csv"
