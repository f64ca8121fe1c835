# Entry point of the harness. Everything it builds goes to $(BUILD) (git
# ignores it), everything it reports to results/.
#
# Kernels: baseline (Debian's 6.12), product (patches/series: what a
# distribution applies), patched (the product plus patches/eval/series,
# debugfs knobs only measurement needs: the kernel of bench, latency,
# torture, mutants), seed (patches/seed/series, the reference).
#
#   make bench       the benchmark report (the project's main job)
#   make check       the test suite: baseline, product and patched kernels,
#                    three preemption models; checkpatch on every series
#                    (CHECK_ONLY=kunit, a kernel or a model: a subset)
#   make seed        the seed kernel's boots with the correctness tests
#   make latency     cyclictest against 1 GiB page faults, per variant
#   make matrix      the product kernel built without PREEMPT_DYNAMIC, tested
#   make torture     100,000 checked faults under pressure, and a debug kernel
#   make bisect      every prefix of patches/series builds and stays within
#                    the latency bound
#   make mutants     deliberate faults (mutants/*.patch), each built and run
#                    through make check's fast part and make latency's
#                    assertions: every one must be caught
#   make distro      the product as a Debian kernel package, booted with
#                    Debian's own into a Debian 12 image under systemd:
#                    PostgreSQL, QEMU and a JVM on huge pages (not in check)
#   make checkpatch  scripts/checkpatch.pl --strict on the product and the
#                    evaluation series
#   make kernels     just build the baseline, product and patched kernels
#   make fresh       .ci/run (or CMD="...") as root in a new minimal Debian 12
#                    root: proves that make deps installs all that is needed
#   make clean       remove $(BUILD) and bench/build
#   make help        this list

BUILD ?= $(CURDIR)/build
export BUILD

.PHONY: all help bench check seed latency matrix torture bisect checkpatch kernels mutants distro fresh deps tree clean

all: check

# The target list above, from this file's own header.
help:
	@sed -n '/^#   make /,/^$$/p' $(firstword $(MAKEFILE_LIST)) | sed -n 's/^#   //p'

bench:
	@scripts/bench.sh

check:
	@scripts/check.sh

seed:
	@scripts/seed.sh

latency:
	@scripts/latency.sh

matrix:
	@scripts/matrix.sh

torture:
	@scripts/torture.sh

kernels:
	@scripts/kernels.sh baseline product patched

bisect:
	@scripts/bisect.sh

mutants:
	@scripts/mutants.sh

distro:
	@scripts/distro.sh

# The evaluation series on its own (make check also proves that every file
# a series adds has a maintainer, in the tree it applies to).
checkpatch: tree
	@rc=0; for s in patches/series patches/eval/series; do \
		scripts/checkpatch.sh $$s || rc=1; \
	done; exit $$rc

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
