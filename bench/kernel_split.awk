# kernel_split.awk: print FOLIO_ZERO_LOCALITY_RADIUS (FOLIO_ZERO_NEIGHBOURHOOD
# in trees before the rename) and the function folio_zero_user_ranges()
# from a tree's mm/memory.c, each behind a #line
# to where it is in the tree, so that the compiler's messages point there.
# The return type may be on the line before the name, as the kernel writes
# it; "static" is dropped so that clearbench can call the function. Exits
# 1 if either is missing.

/^#define[ \t]+FOLIO_ZERO_(LOCALITY_RADIUS|NEIGHBOURHOOD)[ \t]/ && !nb {
	printf "#line %d \"%s\"\n%s\n", FNR, FILENAME, $0
	nb = 1
}

!fn && /^([A-Za-z_][^;=(]*[ \t*])?folio_zero_user_ranges\(/ {
	fn = 1
	on = 1
	if ($0 ~ /^folio_zero_user_ranges\(/) {
		sub(/^static[ \t]+(inline[ \t]+)?/, "", prev)
		printf "#line %d \"%s\"\n%s\n", FNR - 1, FILENAME, prev
	} else {
		printf "#line %d \"%s\"\n", FNR, FILENAME
		sub(/^static[ \t]+(inline[ \t]+)?/, "")
	}
}

on {
	print
	if ($0 ~ /^}/)
		on = 0
}

{ prev = $0 }

END {
	what = !nb ? "FOLIO_ZERO_LOCALITY_RADIUS (or FOLIO_ZERO_NEIGHBOURHOOD)" : !fn ? "folio_zero_user_ranges()" : ""
	if (on)
		what = "end of folio_zero_user_ranges()"
	if (what != "") {
		printf "kernel_split.awk: %s: no %s\n", FILENAME, what > "/dev/stderr"
		exit 1
	}
}
