#!/bin/sh
# The table of a fuzz-long run, from build-fuzz/logs/<t>.log: inputs
# run, seconds, executions per second, and libFuzzer's final coverage
# (cov: edges) and features (ft:), corpus size.
cd "$(dirname "$0")/../.." || exit 1
. contrib/fuzz/targets.sh
printf '%-13s %10s %7s %8s %6s %7s %6s\n' target runs seconds exec/s cov ft corpus
for t in ${*:-$FUZZ_LONG_TARGETS}; do
	log=build-fuzz/logs/$t.log
	test -f "$log" || continue
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
	secs=$(cut -d' ' -f2 "build-fuzz/logs/$t.secs" 2>/dev/null)
	printf '%-13s %10s %7s %8s %6s %7s %6s\n' "$t" "${runs:-?}" \
		"${secs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
	grep -q -E 'ERROR: |ORACLE: |runtime error' "$log" &&
		echo "  $t: FOUND SOMETHING, see $log"
done
exit 0
