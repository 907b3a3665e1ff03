/* check_bitset.c: unit tests of base/bitset.h: bitset_next(), a word at
 * a time, agrees with bitset_next_plain(), a bit at a time, for every
 * start (and past the end) of sets from empty to full, with members at
 * the edges of the words; and the model's walk over its links
 * (fc_model_next_link) visits exactly the links made, in order. */
#include <check.h>
#include <string.h>

#include "base/bitset.h"
#include "model/fc_internal.h"
#include "suites.h"
#include "xorshift.h"

#define WORDS 4u

static void check_every_start(const uint64_t *set)
{
	for (unsigned from = 0; from <= 64u * WORDS + 1u; from++) {
		unsigned got = bitset_next(set, WORDS, from);
		unsigned want = bitset_next_plain(set, WORDS, from);
		ck_assert_msg(got == want, "from %u: %u, not %u", from, got, want);
	}
}

START_TEST(test_edges)
{
	uint64_t set[WORDS];
	memset(set, 0, sizeof(set));
	check_every_start(set); /* empty: always the end */
	/* one member at each position, alone */
	for (unsigned i = 0; i < 64u * WORDS; i++) {
		memset(set, 0, sizeof(set));
		bitset_add(set, i);
		ck_assert(bitset_has(set, i));
		check_every_start(set);
	}
	memset(set, 0xff, sizeof(set));
	check_every_start(set);
}
END_TEST

START_TEST(test_random_sets)
{
	uint32_t seed = 0x2545f491u;
	for (unsigned round = 0; round < 2000; round++) {
		uint64_t set[WORDS];
		memset(set, 0, sizeof(set));
		/* from a few members to many */
		unsigned members = next_random(&seed) % (round % 7 == 6 ? 200u : 6u);
		for (unsigned k = 0; k < members; k++)
			bitset_add(set, next_random(&seed) % (64u * WORDS));
		check_every_start(set);
	}
}
END_TEST

/* The links of m in the walk its users make (fc_model_next_link) are
 * the slots of m->links[] that hold one, each once, in index order. */
static void check_walk(const struct fc_model *m)
{
	unsigned slot = 0;
	for (unsigned i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
	     i = fc_model_next_link(m, i + 1)) {
		while (slot < i) /* the slots passed over are empty */
			ck_assert_msg(m->links[slot++] == NULL, "link %u passed over", slot - 1);
		ck_assert_msg(m->links[i] != NULL, "link %u walked, not made", i);
		slot = i + 1;
	}
	while (slot < FC_LINK_COUNT)
		ck_assert_msg(m->links[slot++] == NULL, "link %u passed over", slot - 1);
}

START_TEST(test_model_walk)
{
	static struct fc_options opts;
	static struct finding_sink sink;
	static struct fc_model m;
	uint32_t seed = 0x9e3779b9u;
	fc_options_init(&opts);
	finding_sink_init(&sink, NULL, NULL);
	fc_model_init(&m, &opts, &sink);
	check_walk(&m);
	for (unsigned round = 0; round < 50; round++) {
		unsigned links = next_random(&seed) % 6u;
		for (unsigned k = 0; k < links; k++) {
			unsigned i = next_random(&seed) % FC_LINK_COUNT;
			ck_assert_ptr_nonnull(fc_link_get(&m, i)); /* made, or already */
			check_walk(&m);
		}
		fc_model_free(&m); /* and the model is used again, as for the next input */
		check_walk(&m);
	}
}
END_TEST

Suite *suite_bitset(void)
{
	Suite *s = suite_create("bitset");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_random_sets);
	tcase_add_test(tc, test_model_walk);
	suite_add_tcase(s, tc);
	return s;
}
