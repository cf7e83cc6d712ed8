# Sharness set-up for git ai-apply's command-line tests.
# Sourced by t/tNNNN-*.sh after they set test_description.

SHARNESS_TEST_EXTENSION=sh
: "${AA_BUILD_DIR:=$(cd "$(dirname "$0")/.." && pwd)/build}"
SHARNESS_BUILD_DIRECTORY=$AA_BUILD_DIR
root="$AA_BUILD_DIR/trash"
mkdir -p "$root"
AA_TEST_DIR=$(cd "$(dirname "$0")" && pwd)
export AA_BUILD_DIR AA_TEST_DIR
# libgit2's own leaks under make SANITIZE=1 (t/lsan.supp says which)
LSAN_OPTIONS="suppressions=$AA_TEST_DIR/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

. /usr/share/sharness/sharness.sh

# A repeatable identity and no user configuration.
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL='author@example.com'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL='committer@example.com'
GIT_AUTHOR_DATE='1112354055 +0200'
GIT_COMMITTER_DATE='1112354055 +0200'
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE \
	GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

. "$AA_TEST_DIR/lib/snapshot.sh"
. "$AA_TEST_DIR/lib/helpers.sh"
