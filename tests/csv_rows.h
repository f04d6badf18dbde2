/* SPDX-License-Identifier: MIT */
/*
 * Reading a committed CSV of test vectors: skip the header, turn commas
 * into spaces (so sscanf reads the fields), hand each line to the test's
 * parser, keep the rows in one growing array.  Shared by the golden-vector
 * tests.
 */
#ifndef LKH_TESTS_CSV_ROWS_H
#define LKH_TESTS_CSV_ROWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* @parse fills @row from @line and returns 0, or -1 for a bad line.
 * Returns 0 with *rows (malloc'ed, the caller frees) and *n set, or -1. */
static int read_csv_rows(const char *path, int (*parse)(char *line, void *row),
			 size_t row_size, void **rows, size_t *n)
{
	char line[512], *c;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	*rows = NULL;
	*n = 0;
	if (!f || !fgets(line, sizeof(line), f)) {
		fprintf(stderr, "cannot read %s\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (*n == cap) {
			void *grown = realloc(*rows, (cap = cap ? 2 * cap : 4096) * row_size);

			if (!grown)
				break;
			*rows = grown;
		}
		for (c = line; *c; c++)
			if (*c == ',')
				*c = ' ';
		if (parse(line, (char *)*rows + *n * row_size) != 0) {
			fprintf(stderr, "bad vector line in %s: %s\n", path, line);
			break;
		}
		++*n;
	}
	if (!feof(f) || *n == 0) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/*
 * cmocka's group setup and teardown for a test that keeps its rows in
 * `vectors` (`n_vectors` of them), read from `vectors_path` by its own
 * `parse_vector`.
 */
#define CSV_VECTOR_FIXTURES                                                       \
	static int load_vectors(void **state)                                     \
	{                                                                         \
		void *rows;                                                       \
		int err;                                                          \
                                                                                  \
		(void)state;                                                      \
		err = read_csv_rows(vectors_path, parse_vector, sizeof(*vectors), \
				    &rows, &n_vectors);                           \
		vectors = rows;                                                   \
		return err;                                                       \
	}                                                                         \
	static int free_vectors(void **state)                                     \
	{                                                                         \
		(void)state;                                                      \
		free(vectors);                                                    \
		return 0;                                                         \
	}

#endif /* LKH_TESTS_CSV_ROWS_H */
