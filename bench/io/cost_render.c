/* SPDX-License-Identifier: MIT */
#include "cost_render.h"

void kb_cost_fields(const struct kb_skew *s, unsigned none, struct kb_field f[6])
{
	static const char *const names[6] = { "hit_compares", "hit_vs_random",
					      "miss_compares", "miss_vs_random",
					      "others_met", "met_vs_random" };
	struct kb_cost c;
	double v[6];
	unsigned i;

	kb_cost_of(s, &c);
	v[0] = c.hit, v[1] = c.hit_ratio, v[2] = c.miss, v[3] = c.miss_ratio;
	v[4] = c.met, v[5] = c.met_ratio;
	for (i = 0; i < 6; i++)
		f[i] = (struct kb_field){ .name = names[i], .form = KB_FIELD_NUM_G, .prec = 6,
					  .d = v[i], .none = none };
}

void kb_cost_text(const struct kb_skew *s, const char *indent, struct kb_buf *b)
{
	struct kb_cost c;

	kb_cost_of(s, &c);
	kb_buf_printf(b, "%scost, as a chained table: a lookup compares %.3g entries (%.2fx a random function's %.3g), a miss %.3g (%.2fx %.3g)\n",
		      indent, c.hit, c.hit_ratio, c.hit_random, c.miss, c.miss_ratio,
		      c.miss_random);
	kb_buf_printf(b, "%scost, as locks or wait queues: %.3g other keys met (%.2fx a random function's %.3g)\n",
		      indent, c.met, c.met_ratio, c.met_random);
}

const char *kb_cost_unit(enum kb_table_kind kind)
{
	switch (kind) {
	case KB_KIND_LOCKS:
		return "other holders met per lock";
	case KB_KIND_TREE:
		return "keys in the tree a lookup searches";
	default:
		return "entries compared per successful lookup";
	}
}
