/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lsusb.h - parsed USB descriptors (usbdesc.h) as text in the manner of
 * "lsusb -v" (usbutils), for the bug-report bundle's devices.txt.  Only
 * the fields usbdesc parses are shown: no strings, no class-specific
 * descriptors but UAS pipe usage.
 */
#ifndef USBTRAIL_LSUSB_H
#define USBTRAIL_LSUSB_H

#include <stdbool.h>
#include <stdio.h>

#include "usbdesc.h"

/* superspeed: bMaxPower counts 8 mA, else 2 mA (USB 3.2 9.6.3) */
void lsusb_print(FILE *f, const struct usbdesc_device *d, bool superspeed);

#endif /* USBTRAIL_LSUSB_H */
