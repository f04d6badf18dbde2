/* SPDX-License-Identifier: MIT */
/*
 * khash-bench census FILE...: the hash call sites a kernel reached, and
 * how each generation would have spread the keys they really hashed.
 */
#ifndef KB_CENSUS_CMD_H
#define KB_CENSUS_CMD_H

#include "cli_args.h"

int kb_cmd_census(const struct kb_args *a);

#endif
