// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sink_journal.c - unit tests of userspace/sink_journal.c: the entry
 * it sends for an incident, field by field, through a --wrap seam on
 * sd_journal_sendv() (and on access(), which tells whether journald runs).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cmocka.h>

#include "record.h"

#define MAX_SENT	32
#define MAX_FIELDS	64

/* What the fake sd_journal_sendv() got: each entry's fields, copied. */
struct sent {
	int n;
	char *field[MAX_FIELDS];
};

static struct sent sent[MAX_SENT];
static int nsent;
static int sendv_ret;		/* what the fake returns */
static int access_errno;	/* 0: the journal socket is there */

int __wrap_sd_journal_sendv(const struct iovec *iov, int n);
int __real_access(const char *path, int mode);
int __wrap_access(const char *path, int mode);

int __wrap_sd_journal_sendv(const struct iovec *iov, int n)
{
	struct sent *e;
	int i;

	if (sendv_ret < 0)
		return sendv_ret;
	assert_true(nsent < MAX_SENT);
	assert_true(n > 0 && n <= MAX_FIELDS);
	e = &sent[nsent++];
	e->n = n;
	for (i = 0; i < n; i++) {
		e->field[i] = strndup(iov[i].iov_base, iov[i].iov_len);
		assert_non_null(e->field[i]);
		/* one field per iovec, never a stray NUL or an empty name */
		assert_int_equal(strlen(e->field[i]), iov[i].iov_len);
		assert_non_null(strchr(e->field[i], '='));
		assert_true(e->field[i][0] != '=');
	}
	return 0;
}

int __wrap_access(const char *path, int mode)
{
	if (strcmp(path, "/run/systemd/journal/socket"))
		return __real_access(path, mode);
	if (access_errno) {
		errno = access_errno;
		return -1;
	}
	return 0;
}

/* The value of NAME in entry e, or NULL; NAME must appear at most once. */
static const char *field(const struct sent *e, const char *name)
{
	size_t len = strlen(name);
	const char *found = NULL;
	int i;

	for (i = 0; i < e->n; i++) {
		if (!strncmp(e->field[i], name, len) &&
		    e->field[i][len] == '=') {
			assert_null(found);
			found = e->field[i] + len + 1;
		}
	}
	return found;
}

static int setup(void **state)
{
	(void)state;
	nsent = 0;
	sendv_ret = 0;
	access_errno = 0;
	return 0;
}

static int teardown(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < nsent; i++)
		for (j = 0; j < sent[i].n; j++)
			free(sent[i].field[j]);
	return 0;
}

/* A sense incident as the recorder makes it: 02/3a/00 on sda at 2-1. */
static struct ev *sense_incident(void)
{
	struct ev *ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 12345678901ull);
	struct classify_incident *inc;

	assert_non_null(ev);
	ev->id = 42;
	strcpy(ev->ident.disk, "sda");
	strcpy(ev->ident.usb, "2-1");
	strcpy(ev->ident.scsi, "0:0:0:0");
	inc = &ev->u.incident.inc;
	inc->kind = CLASSIFY_SENSE;
	strcpy(inc->dev, "sda");
	inc->key = 2;
	inc->asc = 0x3a;
	inc->ascq = 0;
	inc->key_text = "Not Ready";
	strcpy(inc->asc_text, "Medium not present");
	inc->sector = -1;
	inc->chain = 3;
	strcpy(inc->line,
	       "sd 0:0:0:0: [sda] tag#1 Add. Sense: Medium not present");
	ev->u.incident.sense_len = 3;
	ev->u.incident.sense[0] = 0x70;
	ev->u.incident.sense[1] = 0x00;
	ev->u.incident.sense[2] = 0x02;
	ev->u.incident.lba = 10240;
	ev->u.incident.opcode = 0x2a;
	return ev;
}

static void test_sense_entry(void **state)
{
	struct rec_sink s;
	struct ev *ev = sense_incident();
	const struct sent *e;

	char cwd[4096];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	/* a relative directory is named absolutely */
	assert_int_equal(sink_journal_open(&s, "."), 0);
	assert_string_equal(s.name, "journal");
	assert_int_equal(s.event(&s, ev), 0);
	assert_int_equal(nsent, 1);
	e = &sent[0];
	assert_string_equal(field(e, "MESSAGE"),
		"sense 02/3a/00 (Not Ready: Medium not present) "
		"on sda (usb 2-1)");
	assert_string_equal(field(e, "PRIORITY"), "3");
	assert_string_equal(field(e, "SYSLOG_IDENTIFIER"), "usbtrail");
	assert_string_equal(field(e, "USBTRAIL_KIND"), "sense");
	assert_string_equal(field(e, "USBTRAIL_DEVICE"), "sda");
	assert_string_equal(field(e, "USBTRAIL_DISK"), "sda");
	assert_string_equal(field(e, "USBTRAIL_USB_PATH"), "2-1");
	assert_string_equal(field(e, "USBTRAIL_SCSI"), "0:0:0:0");
	assert_string_equal(field(e, "USBTRAIL_TIME"), "12.345679");
	assert_string_equal(field(e, "USBTRAIL_CHAIN"), "3");
	assert_string_equal(field(e, "USBTRAIL_SENSE"), "02/3a/00");
	assert_string_equal(field(e, "USBTRAIL_SENSE_KEY"), "2");
	assert_string_equal(field(e, "USBTRAIL_ASC"), "58");
	assert_string_equal(field(e, "USBTRAIL_ASCQ"), "0");
	assert_string_equal(field(e, "USBTRAIL_SENSE_DATA"), "700002");
	assert_string_equal(field(e, "USBTRAIL_LBA"), "10240");
	assert_string_equal(field(e, "USBTRAIL_OPCODE"), "0x2a");
	assert_string_equal(field(e, "USBTRAIL_EVENT_ID"), "42");
	assert_string_equal(field(e, "USBTRAIL_RECORDING"), cwd);
	assert_string_equal(field(e, "USBTRAIL_KERNEL_LINE"),
		"sd 0:0:0:0: [sda] tag#1 Add. Sense: Medium not present");
	/* not a field of another kind */
	assert_null(field(e, "USBTRAIL_SECTOR"));
	assert_int_equal(e->n, 20);
	assert_int_equal(s.failed, 0);
	assert_int_equal(s.close(&s), 0);
	ev_free(ev);
}

/* Other events are the recording's, not the journal's. */
static void test_other_events_ignored(void **state)
{
	static const enum ev_type types[] = {
		EV_TRACE, EV_KLOG, EV_USBMON, EV_DEVICE, EV_SAMPLE,
		EV_MARKER, EV_LOST,
	};
	struct rec_sink s;
	size_t i;

	(void)state;
	assert_int_equal(sink_journal_open(&s, NULL), 0);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct ev *ev = ev_new(types[i], EV_SRC_KMSG, 1);

		assert_non_null(ev);
		assert_int_equal(s.event(&s, ev), 0);
		ev_free(ev);
	}
	assert_int_equal(nsent, 0);
	assert_int_equal(s.failed, 0);
	assert_int_equal(s.close(&s), 0);
}

/* A refusing journal never stops the recording; the sink counts it. */
static void test_send_error_counted(void **state)
{
	struct rec_sink s;
	struct ev *ev = sense_incident();

	(void)state;
	assert_int_equal(sink_journal_open(&s, NULL), 0);
	sendv_ret = -ECONNREFUSED;
	assert_int_equal(s.event(&s, ev), 0);
	sendv_ret = -EAGAIN;
	assert_int_equal(s.event(&s, ev), 0);
	sendv_ret = 0;
	assert_int_equal(s.event(&s, ev), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(s.failed, 2);
	assert_int_equal(s.close(&s), 0);
	ev_free(ev);
}

static void test_no_journald(void **state)
{
	struct rec_sink s;

	(void)state;
	memset(&s, 0, sizeof(s));
	access_errno = ENOENT;
	assert_int_equal(sink_journal_open(&s, NULL), -ENOENT);
	assert_null(s.priv);
	access_errno = EACCES;
	assert_int_equal(sink_journal_open(&s, NULL), -EACCES);
	assert_null(s.priv);
}

/* Every kind sends at least MESSAGE, PRIORITY and USBTRAIL_KIND. */
static void test_every_kind(void **state)
{
	struct rec_sink s;
	int k;

	(void)state;
	assert_int_equal(sink_journal_open(&s, NULL), 0);
	for (k = 0; k < CLASSIFY_KIND_COUNT && k < MAX_SENT; k++) {
		struct ev *ev = ev_new(EV_INCIDENT, EV_SRC_RECORDER, 1);

		assert_non_null(ev);
		ev->u.incident.inc.kind = (enum classify_kind)k;
		ev->u.incident.inc.key = -1;
		ev->u.incident.inc.asc = -1;
		ev->u.incident.inc.ascq = -1;
		ev->u.incident.inc.sector = -1;
		ev->u.incident.inc.code = -1;
		assert_int_equal(s.event(&s, ev), 0);
		assert_non_null(field(&sent[nsent - 1], "MESSAGE"));
		assert_non_null(field(&sent[nsent - 1], "PRIORITY"));
		assert_null(field(&sent[nsent - 1], "USBTRAIL_RECORDING"));
		assert_string_equal(field(&sent[nsent - 1], "USBTRAIL_KIND"),
				    classify_kind_name((enum classify_kind)k));
		ev_free(ev);
	}
	assert_int_equal(s.close(&s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sense_entry, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_events_ignored,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_send_error_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_journald, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_every_kind, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
