#!/bin/sh

test_description='contrib/predictions/shard.sh: a predictions file in parts, each in its own clone, pushed to one repository'

. "$(dirname "$0")/test-lib.sh"

shard="$AA_TEST_DIR/../contrib/predictions/shard.sh"

test_expect_success 'setup: three bases, nine predictions as a manifest' '
	make_repo src &&
	(
		cd src &&
		git tag b1 &&
		echo four >>a.txt &&
		git commit -q -am four &&
		git tag b2 &&
		echo five >>a.txt &&
		git commit -q -am five &&
		git tag b3
	) &&
	mkdir answers &&
	for i in 1 2 3 4 5 6 7 8 9
	do
		b=b$(( (i - 1) % 3 + 1 )) &&
		printf -- "--- START-FILE: new-%s.txt ---\nprediction %s\n--- END-FILE: new-%s.txt ---\n" \
			$i $i $i >answers/p$i.md &&
		echo "{\"name\": \"p$i\", \"base\": \"$b\", \"answer_file\": \"answers/p$i.md\"}" || return 1
	done >manifest.jsonl &&
	git init -q --bare dest.git
'

test_expect_success 'three parts at once: every branch arrives once, on its base, with its note' '
	sh "$shard" -j 3 --branch=run manifest.jsonl src dest.git >results 2>err &&
	test $(wc -l <results) = 9 &&
	jq -r .status results | sort -u >statuses &&
	echo landed >expect &&
	test_cmp expect statuses &&
	test $(grep -c "^3 predictions: 3 landed" err) = 3 &&
	git -C dest.git for-each-ref --format="%(refname:short)" refs/heads/ >branches &&
	for i in 1 2 3 4 5 6 7 8 9
	do
		echo run/p$i || return 1
	done | sort >expect &&
	sort branches >actual &&
	test_cmp expect actual &&
	jq -r .branch results | sort >pushed &&
	test_cmp expect pushed &&
	for i in 1 2 3 4 5 6 7 8 9
	do
		b=b$(( (i - 1) % 3 + 1 )) &&
		test "$(git -C dest.git rev-parse run/p$i^)" = "$(git -C src rev-parse $b)" &&
		git -C dest.git notes --ref=ai-apply show run/p$i >note &&
		test_cmp answers/p$i.md note || return 1
	done &&
	ls -a >list &&
	! grep shard- list
'

test_expect_success 'again, more parts than needed: nothing new, every one already landed' '
	git -C src push -q ../dest.git --tags &&
	git -C dest.git for-each-ref >before &&
	git clone -q --bare dest.git again.git &&
	sh "$shard" -j 12 --branch=run manifest.jsonl again.git dest.git >results 2>err &&
	jq -r .status results | sort -u >statuses &&
	echo already-landed >expect &&
	test_cmp expect statuses &&
	git -C dest.git for-each-ref >after &&
	test_cmp before after
'

test_expect_success 'a refused prediction: exit 1, the others arrive' '
	echo "{\"name\": \"bad\", \"base\": \"no-such\", \"answer\": \"x\"}" >bad.jsonl &&
	head -n 2 manifest.jsonl >>bad.jsonl &&
	git init -q --bare dest2.git &&
	test_expect_code 1 sh "$shard" -j 3 --branch=r2 bad.jsonl src dest2.git >results 2>err &&
	git -C dest2.git for-each-ref --format="%(refname:short)" refs/heads/ >branches &&
	printf "r2/p1\nr2/p2\n" >expect &&
	test_cmp expect branches
'

test_expect_success 'usage and setup errors: exit 2, nothing pushed' '
	git init -q --bare dest3.git &&
	test_expect_code 2 sh "$shard" manifest.jsonl src 2>err &&
	test_grep "usage:" err &&
	test_expect_code 2 sh "$shard" -j 0 manifest.jsonl src dest3.git 2>err &&
	echo "[]" >list.json &&
	test_expect_code 2 sh "$shard" list.json src dest3.git 2>err &&
	test_grep "JSON list" err &&
	test_expect_code 2 sh "$shard" missing.jsonl src dest3.git 2>err &&
	git -C dest3.git for-each-ref >refs &&
	test_must_be_empty refs
'

test_done
