/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datatab.h - the tables of data/<name>.tsv (host controller chips, bridge
 * chips, the kernel's built-in UAS quirks, xHCI completion codes, the
 * kernel's messages, SCSI sense codes),
 * compiled in by gen-datatab.awk.
 *
 * Cells are strings, row-major; every row has ncols cells.  The data stays
 * in the repository as TSV, each row citing its public source.
 */
#ifndef USBTRAIL_DATATAB_H
#define USBTRAIL_DATATAB_H

#include <stdbool.h>

struct datatab {
	const char *name;		/* file name, e.g. "hcd-pci.tsv" */
	unsigned int ncols, nrows;
	const char *const *cells;
	const char *const *cols;	/* the header line's names, ncols */
};

extern const struct datatab datatab_bridges;
extern const struct datatab datatab_hcd_drivers;
extern const struct datatab datatab_hcd_pci;
extern const struct datatab datatab_unusual_uas;
extern const struct datatab datatab_xhci_cc;
extern const struct datatab datatab_kmsg_formats;
extern const struct datatab datatab_scsi_asc;
extern const struct datatab datatab_scsi_sense_keys;

const char *datatab_cell(const struct datatab *t, unsigned int row,
			 unsigned int col);
int datatab_find_hex2(const struct datatab *t, unsigned int a,
		      unsigned int b);
int datatab_find_str(const struct datatab *t, unsigned int col,
		     const char *s);
/* The column named @name of the header line, or -1 */
int datatab_col(const struct datatab *t, const char *name);

/* The columns of data/bridges.tsv. */
enum datatab_bridge_col {
	DATATAB_BRIDGE_VID,
	DATATAB_BRIDGE_PID,
	DATATAB_BRIDGE_CHIP,
	DATATAB_BRIDGE_USB_IDS,		/* the name usb.ids gives, "-" none */
	DATATAB_BRIDGE_SOURCE,
};

/* The columns of data/xhci-cc.tsv. */
enum datatab_cc_col {
	DATATAB_CC_CODE,
	DATATAB_CC_NAME,		/* as xhci_trb_comp_code_string() */
	DATATAB_CC_MEANING,
	DATATAB_CC_ERROR,		/* "yes" or "no" */
	DATATAB_CC_SOURCE,
};

int datatab_cc_row(unsigned int cc);
bool datatab_cc_error(unsigned int cc);

#endif /* USBTRAIL_DATATAB_H */
