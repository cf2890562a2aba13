// SPDX-License-Identifier: GPL-2.0-only
/*
 * module/ut_tables.h, the tables the module and the command share,
 * against the data the command reads: the completion codes against
 * data/xhci-cc.tsv (which tests/host/13-tables-vs-kernel.sh checks
 * against the kernel), the error handlers against tracerec's lookup.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "datatab.h"
#include "tracerec.h"
#include "ut_tables.h"

struct test_cc {
	unsigned int code;
	const char *define;	/* "COMP_SUCCESS" */
};

#define TEST_CC(code, name)	{ code, "COMP_" #name },
static const struct test_cc test_ccs[] = {
	UT_XHCI_CC(TEST_CC)
};
#define TEST_NCCS	(sizeof(test_ccs) / sizeof(test_ccs[0]))

/* "xhci.h COMP_X" in a source cell, COMP_X whole (not COMP_X_ERROR) */
static int test_cites(const char *source, const char *define)
{
	size_t n = strlen(define);
	const char *p;

	for (p = strstr(source, define); p; p = strstr(p + 1, define)) {
		char next = p[n];

		if ((next >= 'A' && next <= 'Z') || next == '_' ||
		    (next >= '0' && next <= '9'))
			continue;
		if (strstr(source, "xhci.h") && strstr(source, "xhci.h") < p)
			return 1;
	}
	return 0;
}

/*
 * UT_XHCI_CC() and data/xhci-cc.tsv: the same codes, each under the
 * COMP_* define the TSV row cites, no more, no less.
 */
/* the generated tables carry their header line: columns found by name */
static void test_columns_by_name(void **state)
{
	(void)state;
	assert_int_equal(datatab_col(&datatab_kmsg_formats, "id"), 0);
	assert_int_equal(datatab_col(&datatab_kmsg_formats, "format"), 3);
	assert_int_equal(datatab_col(&datatab_kmsg_formats, "test"), 8);
	assert_int_equal(datatab_col(&datatab_kmsg_formats, "nope"), -1);
	assert_int_equal(datatab_col(&datatab_xhci_cc, "code"),
			 DATATAB_CC_CODE);
}

static void test_xhci_cc_vs_tsv(void **state)
{
	unsigned int i, j;
	int row;

	(void)state;
	assert_int_equal(TEST_NCCS, datatab_xhci_cc.nrows);
	for (i = 0; i < TEST_NCCS; i++) {
		for (j = 0; j < i; j++)
			assert_int_not_equal(test_ccs[i].code, test_ccs[j].code);
		row = datatab_cc_row(test_ccs[i].code);
		if (row < 0)
			fail_msg("code %u (%s) is not in xhci-cc.tsv",
				 test_ccs[i].code, test_ccs[i].define);
		if (!test_cites(datatab_cell(&datatab_xhci_cc,
					     (unsigned int)row,
					     DATATAB_CC_SOURCE),
				test_ccs[i].define))
			fail_msg("code %u: xhci-cc.tsv does not cite %s",
				 test_ccs[i].code, test_ccs[i].define);
	}
	/* the two the probes decide on */
	assert_int_equal(UT_COMP_SUCCESS, 1);
	assert_int_equal(UT_COMP_SHORT_PACKET, 13);
	assert_false(datatab_cc_error(UT_COMP_SUCCESS));
	assert_false(datatab_cc_error(UT_COMP_SHORT_PACKET));
}

/* The accessors take the fields where xHCI 1.2, 6.4.2.1 puts them. */
static void test_xhci_trb_fields(void **state)
{
	/* a transfer event: slot 3, DCI 5, Stall Error, 512 bytes left */
	uint32_t f2 = (uint32_t)UT_COMP_STALL_ERROR << 24 | 512;
	uint32_t f3 = 3u << 24 | 5u << 16 | (uint32_t)UT_TRB_TRANSFER << 10 | 1;

	(void)state;
	assert_int_equal(UT_XHCI_COMP_CODE(f2), 6);
	assert_int_equal(UT_XHCI_EVENT_LEN(f2), 512);
	assert_int_equal(UT_XHCI_TRB_TYPE(f3), 32);
	assert_int_equal(UT_XHCI_SLOT_ID(f3), 3);
	assert_int_equal(UT_XHCI_EP_ID(f3), 5);
	assert_int_equal(UT_TRB_COMPLETION, 33);
	assert_int_equal(UT_TRB_RESET_DEV, 17);
}

/*
 * Each row of UT_EH_HANDLERS() is a probe of its own, found again from
 * its kprobe event's name; the names of one handler agree on what it is.
 */
static void test_eh_handlers(void **state)
{
	char name[64];
	unsigned int i, j;
	bool ret;

	(void)state;
	for (i = 0; i < tracerec_eh_nprobes; i++) {
		const struct tracerec_eh_probe *p = &tracerec_eh_probes[i];

		for (j = 0; j < i; j++) {
			const struct tracerec_eh_probe *q =
				&tracerec_eh_probes[j];

			assert_string_not_equal(p->suffix, q->suffix);
			assert_false(!strcmp(p->module, q->module) &&
				     !strcmp(p->function, q->function));
		}
		snprintf(name, sizeof(name), "usbtrail_42_%s", p->suffix);
		assert_int_equal(tracerec_eh_probe_of(name, &ret), (int)i);
		assert_false(ret);
		snprintf(name, sizeof(name), "usbtrail_42_%s_ret", p->suffix);
		assert_int_equal(tracerec_eh_probe_of(name, &ret), (int)i);
		assert_true(ret);
		/* usbtrail_<pid>_<suffix>_ret within MAX_EVENT_NAME_LEN (64) */
		assert_true(strlen("usbtrail_4194304__ret") +
			    strlen(p->suffix) < 64);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_by_name),
		cmocka_unit_test(test_xhci_cc_vs_tsv),
		cmocka_unit_test(test_xhci_trb_fields),
		cmocka_unit_test(test_eh_handlers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
