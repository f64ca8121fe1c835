# Entry point of the harness. Everything it builds goes to $(BUILD) (git
# ignores it), everything it reports to results/.
#
#   make bench       the benchmark report (the project's main job)
#   make check       the test suite: both kernels, three preemption models
#   make latency     cyclictest against 1 GiB page faults, per variant
#   make matrix      the patched kernel built without PREEMPT_DYNAMIC, tested
#   make torture     100,000 checked faults under pressure, and a debug kernel
#   make bisect      every prefix of patches/series builds and stays within
#                    the latency bound
#   make mutants     deliberate faults (mutants/*.patch), each built and run
#                    through make check's fast part and make latency's
#                    assertions: every one must be caught
#   make checkpatch  scripts/checkpatch.pl --strict on the series
#   make kernels     just build the baseline and patched guest kernels
#   make fresh       .ci/run (or CMD="...") as root in a new minimal Debian 12
#                    root: proves that make deps installs all that is needed
#   make clean       remove $(BUILD) and bench/build

BUILD ?= $(CURDIR)/build
export BUILD

.PHONY: all bench check latency matrix torture bisect checkpatch kernels mutants fresh deps tree clean

all: check

bench:
	@scripts/bench.sh

check:
	@scripts/check.sh

latency:
	@scripts/latency.sh

matrix:
	@scripts/matrix.sh

torture:
	@scripts/torture.sh

kernels:
	@scripts/kernels.sh baseline patched

bisect:
	@scripts/bisect.sh

mutants:
	@scripts/mutants.sh

checkpatch: tree
	@scripts/checkpatch.sh

fresh:
	@scripts/fresh.sh $(CMD)

deps:
	@scripts/deps.sh

tree: deps
	@scripts/unpack.sh

# Never into a root that make fresh has mounted /dev, /sys and a cache in.
clean:
	@! findmnt -rn -o TARGET | grep -q '^$(BUILD)/' || \
		{ echo "error: something is mounted under $(BUILD) (make fresh?)" >&2; exit 1; }
	rm -rf --one-file-system $(BUILD)
	$(MAKE) -C bench clean
