#!/bin/sh
# make fuzz-long: runs the fuzz targets one after the other (one
# process each, at nice 10: the machine is shared), each for FUZZ_RUNS
# inputs (default 10^7) or FUZZ_TIME seconds (default: no limit),
# whichever comes first, from the seeds (contrib/fuzz/seeds.sh) and the
# corpus grown by earlier runs (build-fuzz/corpus/<t>/).
#
#   FUZZ_RUNS=1000000 sh contrib/fuzz/run.sh [target...]
#
# Logs in build-fuzz/logs/<t>.log, crashes in build-fuzz/crashes/; a
# table of executions, exec/s, coverage (cov) and features (ft) at the
# end. Exits 1 when a target found something. Skips (exit 0) when the
# targets are not built (make fuzz needs clang).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. contrib/fuzz/targets.sh
out=build-fuzz
runs=${FUZZ_RUNS:-10000000}
time=${FUZZ_TIME:-0}
targets=${*:-$FUZZ_LONG_TARGETS}
for t in $targets; do
	if ! test -x "$out/fuzz-$t"; then
		echo "fuzz-long: $out/fuzz-$t is not built (make fuzz; it needs" \
		     "clang); skipping"
		exit 0
	fi
done
sh contrib/fuzz/seeds.sh || exit 1
mkdir -p "$out/logs" "$out/crashes"
failed=
for t in $targets; do
	mkdir -p "$out/corpus/$t"
	echo "fuzz-long: $t ($runs runs, max_len $(fuzz_max_len "$t"))"
	start=$(date +%s)
	nice -n "${FUZZ_NICE:-10}" "$out/fuzz-$t" -runs="$runs" \
		-max_total_time="$time" -max_len="$(fuzz_max_len "$t")" \
		-timeout=10 -print_final_stats=1 \
		-dict="$out/dict/$t.dict" -artifact_prefix="$out/crashes/$t-" \
		"$out/corpus/$t" "$out/seeds/$t" >"$out/logs/$t.log" 2>&1 ||
		failed="$failed $t"
	echo "$t $(($(date +%s) - start))" >"$out/logs/$t.secs"
done
sh contrib/fuzz/summary.sh $targets
if test -n "$failed"; then
	echo "fuzz-long: FAILED:$failed (see $out/logs/ and $out/crashes/)"
	exit 1
fi
