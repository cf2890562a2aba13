// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_uas.c - "usbtrail uas": say for each USB mass-storage interface
 * whether it runs on UAS (UASP) or usb-storage, and if not UAS, which step
 * of the kernel's decision said no, with the evidence and a next step.
 *
 * The facts and the verdict come from uas_probe.c; this file only parses
 * the command line and prints, as a tree like "lsusb -t" or as JSON.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli.h"
#include "devspec.h"
#include "quirks.h"
#include "sysfs_usb.h"
#include "uas_probe.h"

#define CMD_UAS_NAME		"uas"
#define CMD_UAS_MAX_DEVICES	64

struct cmd_uas_opts {
	bool json;
	const char *root;			/* NULL: "/" */
	unsigned int ndevices;			/* 0: every USB disk */
	struct devspec devices[CMD_UAS_MAX_DEVICES];
};

const char cmd_uas_help[] =
"Usage: usbtrail uas [--json] [--root DIR] [DEVICE...]\n"
"\n"
"Explain whether each USB storage DEVICE uses UAS (UASP) and, if it does\n"
"not, why not: for example the device offers no UAS interface, a quirk\n"
"turns UAS off, the host controller has no streams, or the uas driver is\n"
"missing.  Without DEVICE, look at every USB mass-storage interface.\n"
"\n"
"For each one it shows the chain host controller -> hubs -> device, the\n"
"negotiated speed, the bound driver, whether the device offers UAS, the\n"
"quirks in effect and where they come from, and a verdict:\n"
"  active, no-uas-altsetting, no-pipe-usage, quirk-ignore-uas,\n"
"  asmedia-heuristic, hcd-no-sg, hcd-no-streams, uas-driver-missing,\n"
"  unknown\n"
"with a next step.  Then the device's BOS (USB 2.0 LPM, U1/U2 exit\n"
"latencies) and every configuration and alternate setting, with strings;\n"
"what sysfs lacks is asked of the device through usbfs (no driver is\n"
"detached).  docs/uas.md explains each.  Root is not needed; what could\n"
"not be read is said.\n"
"\n"
"DEVICE is one of:\n"
"  sdX, /dev/sdX    a SCSI disk; sdXN, /dev/sdXN: the disk of a partition\n"
"  /dev/disk/by-id/..., by-path/..., by-uuid/...: the disk the link names\n"
"  BUS-PORT[.PORT]  a USB port path as in /sys/bus/usb/devices, e.g. 2-1.4\n"
"  VID:PID          vendor and product ID in hex, e.g. 174c:55aa\n"
"\n"
"Options:\n"
"      --json      print a JSON array, one object per interface\n"
"      --root DIR  read sys/ and proc/ below DIR instead of / (a saved\n"
"                  tree, or a test fixture)\n"
"  -h, --help      show this help and exit\n"
"\n"
"Exit status: 0 if every DEVICE was found and judged (whatever the\n"
"verdict), 1 if a DEVICE does not exist, is not USB mass storage, or\n"
"vanished while being read, or sysfs could not be read; 2 on bad usage.\n";

enum {
	CMD_UAS_OPT_JSON = 256,
	CMD_UAS_OPT_ROOT,
};

/*
 * A symbolic link such as /dev/disk/by-id/usb-...-part1: the name of the
 * block device it leads to ("sdc1"), in buf; anything else as it is.
 * Resolved on this machine, also with --root (udev's links are absolute
 * or relative to /dev, not to a saved tree).
 */
static const char *cmd_uas_link_target(const char *arg, char *buf,
				       size_t len)
{
	struct stat st;
	char *real;
	const char *base;

	if (!strchr(arg, '/') || lstat(arg, &st) || !S_ISLNK(st.st_mode))
		return arg;
	real = realpath(arg, NULL);
	if (!real)
		return arg;
	base = strrchr(real, '/');
	snprintf(buf, len, "%s", base ? base + 1 : real);
	free(real);
	return buf;
}

static int cmd_uas_parse(int argc, char **argv, struct cmd_uas_opts *opts,
			 bool *help)
{
	static const char optstring[] = ":h";
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "json",	no_argument,	NULL, CMD_UAS_OPT_JSON },
		{ "root",	required_argument, NULL, CMD_UAS_OPT_ROOT },
		{ NULL,		0,		NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			*help = true;
			return 0;
		case CMD_UAS_OPT_JSON:
			opts->json = true;
			break;
		case CMD_UAS_OPT_ROOT:
			if (!*optarg)
				return cli_usage_error(CMD_UAS_NAME,
					"option '--root' needs a directory");
			opts->root = optarg;
			break;
		default:
			return cli_getopt_error(CMD_UAS_NAME, c, argv,
						optstring, longopts);
		}
	}

	if (argc - optind > CMD_UAS_MAX_DEVICES)
		return cli_usage_error(CMD_UAS_NAME,
				       "too many devices (at most %d)",
				       CMD_UAS_MAX_DEVICES);
	for (; optind < argc; optind++) {
		char target[64];
		const char *name = cmd_uas_link_target(argv[optind], target,
						       sizeof(target));

		if (devspec_parse(name, &opts->devices[opts->ndevices]))
			return cli_usage_error(CMD_UAS_NAME,
				"invalid device '%s': expected sdX, a partition sdXN, a /dev/disk/by-* link to one, a USB port path such as 2-1.4, or VID:PID",
				argv[optind]);
		opts->ndevices++;
	}
	return 0;
}

static const char *cmd_uas_tristate(enum uas_tristate t)
{
	return t == UAS_YES ? "yes" : t == UAS_NO ? "no" : "unknown";
}

static void cmd_uas_print_dev(const struct sysfs_usb_dev *d, int depth,
			      const char *extra)
{
	char speed[32] = "speed unknown";

	/* sysfs_usb_parse_speed(): 1 for "1.5", 0 for nothing we can read */
	if (d->speed_mbps)
		snprintf(speed, sizeof(speed), "%sM", d->speed);
	printf("%*s|__ %s [%04x:%04x]%s%s, %s%s%s\n", 4 * depth, "",
	       d->name, d->vid, d->pid, d->product[0] ? " " : "", d->product,
	       speed, extra ? "; " : "", extra ? extra : "");
}

/* "alt 1 (uas) \"str\": command 0x04, status 0x83 (32 streams), ..." */
static void cmd_uas_print_alt(const struct usbdesc_altsetting *a,
			      const char *str, int ind)
{
	static const char *const pipes[] = { "", "command", "status",
					     "data-in", "data-out" };
	static const char *const types[] = { "control", "iso", "bulk",
					     "interrupt" };
	unsigned int i;

	printf("%*salt %u: class %02x/%02x/%02x", ind, "", a->alt, a->class,
	       a->subclass, a->protocol);
	if (usbdesc_altsetting_is_uas(a))
		printf(" (UAS)");
	else if (usbdesc_altsetting_is_mass_storage(a) &&
		 a->protocol == USBDESC_PR_BULK)
		printf(" (Bulk-Only)");
	if (str[0])
		printf(" \"%s\"", str);
	printf(", %u endpoint%s", a->nendpoints, a->nendpoints == 1 ? "" : "s");
	for (i = 0; i < a->nendpoints; i++) {
		const struct usbdesc_endpoint *ep = &a->ep[i];

		printf("%s %s 0x%02x", i ? "," : ":",
		       ep->pipe_id ? pipes[ep->pipe_id] :
		       types[ep->attributes & 3], ep->address);
		if (ep->ss_max_streams)
			printf(" (%u streams)", ep->ss_max_streams);
	}
	printf("\n");
}

/* The BOS, U1/U2 as the kernel set them, every configuration and alt */
static void cmd_uas_print_descriptors(const struct uas_probe *p, int ind)
{
	const struct usbdesc_bos *b = &p->bos;
	unsigned int c, a;

	if (p->have_bos) {
		printf("%*sBOS (%s):", ind, "", p->bos_from);
		if (b->has_usb2_ext)
			printf(" USB 2.0 LPM %s, BESL %s;",
			       b->usb2_ext_attributes & USBDESC_USB2_EXT_LPM ?
			       "yes" : "no",
			       b->usb2_ext_attributes & USBDESC_USB2_EXT_BESL ?
			       "yes" : "no");
		if (b->has_ss)
			printf(" SuperSpeed U1 exit %u us, U2 exit %u us, LTM %s",
			       b->u1_exit_lat, b->u2_exit_lat,
			       b->ss_attributes & USBDESC_SS_LTM ? "yes" : "no");
		else
			printf(" no SuperSpeed capability");
		printf("%s\n", b->has_ssp ? "; SuperSpeedPlus" : "");
	}
	if (p->lpm_u1[0] || p->lpm_u2[0])
		printf("%*sU1/U2 (sysfs): U1 %s, U2 %s\n", ind, "",
		       p->lpm_u1[0] ? p->lpm_u1 : "unknown",
		       p->lpm_u2[0] ? p->lpm_u2 : "unknown");
	for (c = 0; p->desc && c < p->desc->nconfigs; c++) {
		const struct usbdesc_config *cf = &p->desc->configs[c];

		printf("%*sconfig %u%s, %u mA", ind, "", cf->value,
		       cf->value == p->sys.config ? " (active)" : "",
		       cf->max_power * (p->facts.speed_mbps >= 5000 ? 8u : 2u));
		if (p->config_str[c][0])
			printf(" \"%s\"", p->config_str[c]);
		printf(":\n");
		for (a = 0; a < cf->nalts; a++)
			if (cf->alts[a].number == p->sys.ifnum)
				cmd_uas_print_alt(&cf->alts[a],
						  p->alt_str[c][a], ind + 4);
	}
}

/* One interface as a branch of a tree like "lsusb -t". */
static void cmd_uas_print_text(const struct uas_probe *p)
{
	const struct sysfs_usb_iface *s = &p->sys;
	const struct uas_verdict *v = &p->verdict;
	const struct uas_facts *f = &p->facts;
	char bridge[160];
	unsigned int i;
	int depth = 1, ind;

	printf("/:  Bus %u: %s %s", s->hcd.busnum,
	       s->hcd.driver[0] ? s->hcd.driver : "(driver unknown)",
	       s->hcd.name);
	if (s->hcd.is_pci)
		printf(" [%04x:%04x]", s->hcd.pci_vendor, s->hcd.pci_device);
	if (p->hcd_chip)
		printf(" %s", p->hcd_chip);
	printf("; sg %s, streams %s\n", cmd_uas_tristate(f->hcd_sg),
	       cmd_uas_tristate(f->hcd_streams));
	for (i = 0; i < s->nhubs; i++, depth++)
		cmd_uas_print_dev(&s->hubs[i], depth, i ? "hub" : "root hub");
	snprintf(bridge, sizeof(bridge), "bridge %s",
		 p->bridge ? p->bridge : "unknown");
	cmd_uas_print_dev(&s->dev, depth, bridge);
	depth++;
	ind = 4 * depth;
	printf("%*s|__ If %u (%s): %s, driver %s\n", ind, "", s->ifnum,
	       s->iface, s->block[0] ? s->block : "no disk",
	       s->driver[0] ? s->driver : "none");
	ind += 4;
	printf("%*sUAS: %s; offered: %s", ind, "",
	       v->uas_active ? "active" : "not used",
	       !f->have_descriptors ? "unknown" :
	       f->has_uas_alt ? "yes" : "no");
	if (f->has_uas_alt && f->speed_mbps >= 5000)
		printf(" (alt %u, %u streams)", f->uas_alt, f->max_streams);
	else if (f->has_uas_alt && !f->speed_mbps)
		printf(" (alt %u, %u streams; link speed unknown)", f->uas_alt,
		       f->max_streams);
	else if (f->has_uas_alt)
		printf(" (alt %u; no streams below SuperSpeed)", f->uas_alt);
	printf("\n%*sverdict: %s\n", ind, "", uas_reason_name(v->reason));
	printf("%*swhy: %s\n", ind, "", v->detail);
	printf("%*snext: %s\n", ind, "", v->next_step);
	for (i = 0; i < v->nquirks; i++) {
		const struct quirks_flag_info *qi =
			quirks_flag_info(v->quirks[i].flag);

		printf("%*squirk: %s", ind, "", qi ? qi->name : "?");
		if (qi && qi->letter)
			printf(" ('%c')", qi->letter);
		printf(" from %s: %s\n",
		       uas_quirk_source_name(v->quirks[i].source),
		       qi ? qi->effect : "");
	}
	if (f->hcd_streams_evidence[0] && f->speed_mbps >= 5000)
		printf("%*sstreams evidence: %s\n", ind, "",
		       f->hcd_streams_evidence);
	cmd_uas_print_descriptors(p, ind);
	for (i = 0; i < p->nunreadable; i++)
		printf("%*scould not read %s\n", ind, "", p->unreadable[i]);
}

static void cmd_uas_spec_name(const struct devspec *d, char *buf, size_t len)
{
	size_t off;
	unsigned int i;

	switch (d->kind) {
	case DEVSPEC_DISK:
		snprintf(buf, len, "%s", d->disk);
		break;
	case DEVSPEC_USB_PATH:
		snprintf(buf, len, "%u-%u", d->bus, d->ports[0]);
		for (i = 1; i < d->nports; i++) {
			off = strlen(buf);
			snprintf(buf + off, len - off, ".%u", d->ports[i]);
		}
		break;
	case DEVSPEC_VID_PID:
		snprintf(buf, len, "%04x:%04x", d->vid, d->pid);
		break;
	}
}

int cmd_uas_main(int argc, char **argv)
{
	struct cmd_uas_opts opts = { .json = false };
	struct uas_probe_sel *sel = NULL;
	struct uas_probe *p = NULL;
	json_object *arr = NULL;
	bool help = false;
	int ret, status = CLI_EXIT_OK;
	unsigned int i;

	ret = cmd_uas_parse(argc, argv, &opts, &help);
	if (ret)
		return ret;
	if (help) {
		fputs(cmd_uas_help, stdout);
		return CLI_EXIT_OK;
	}
	if (opts.root) {
		struct stat st;

		if (stat(opts.root, &st) || !S_ISDIR(st.st_mode))
			return cli_usage_error(CMD_UAS_NAME,
					       "--root '%s' is not a directory",
					       opts.root);
	}
	if (sysfs_usb_set_root(opts.root))
		return cli_usage_error(CMD_UAS_NAME, "--root: path too long");

	sel = calloc(1, sizeof(*sel));
	p = calloc(1, sizeof(*p));
	if (!sel || !p) {
		fprintf(stderr, CLI_PROG " uas: out of memory\n");
		status = CLI_EXIT_FAILURE;
		goto out_free;
	}
	ret = uas_probe_select(opts.devices, opts.ndevices, sel);
	if (ret) {
		fprintf(stderr, CLI_PROG " uas: cannot list USB devices in %s/sys/bus/usb/devices: %s\n",
			strcmp(sysfs_usb_get_root(), "/") ?
			sysfs_usb_get_root() : "", strerror(-ret));
		status = CLI_EXIT_FAILURE;
		goto out_free;
	}
	for (i = 0; i < opts.ndevices; i++) {
		char name[64];

		if (!sel->spec_err[i])
			continue;
		cmd_uas_spec_name(&opts.devices[i], name, sizeof(name));
		fprintf(stderr, CLI_PROG " uas: %s: %s\n", name,
			sel->spec_err[i] == -ENODEV ?
			"not a USB mass-storage device" :
			"no such device");
		status = CLI_EXIT_FAILURE;
	}

	if (opts.json)
		arr = json_object_new_array();
	else if (!sel->n && !opts.ndevices)
		printf("No USB mass-storage interfaces found.\n");
	for (i = 0; i < sel->n; i++) {
		ret = uas_probe_iface(sel->names[i], UAS_PROBE_ASK_DEVICE, p);
		if (ret) {
			fprintf(stderr, CLI_PROG " uas: %s: %s\n",
				sel->names[i], ret == -ENOENT ?
				"device vanished while being read" :
				strerror(-ret));
			status = CLI_EXIT_FAILURE;
			continue;
		}
		if (opts.json)
			json_object_array_add(arr, uas_probe_to_json(p));
		else
			cmd_uas_print_text(p);
		uas_probe_free(p);
	}
	if (opts.json) {
		puts(json_object_to_json_string_ext(arr,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	}
out_free:
	free(p);
	free(sel);
	return status;
}
