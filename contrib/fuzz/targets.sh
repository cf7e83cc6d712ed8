# The fuzz targets (contrib/fuzz/fuzz-<name>.c), sourced by build.sh and
# run.sh, and each one's -max_len: inputs are kept small so that every
# target runs thousands of inputs a second (a bug that needs a large
# input is rare in these parsers, whose limits are tested in t/).
FUZZ_TARGETS="extract companion file-changes aptix ap diff binary text hunks edit path newformats alternatives index-ext input"
# fuzz-long runs all but "input", the whole parse + plan pipeline, which
# is two orders of magnitude slower (run it by name: run.sh input).
FUZZ_LONG_TARGETS="extract companion file-changes aptix ap diff binary text hunks edit path newformats alternatives index-ext"

fuzz_max_len() {
	case "$1" in
	path) echo 512 ;;
	text) echo 2048 ;;
	input) echo 4096 ;;
	*) echo 4096 ;;
	esac
}
