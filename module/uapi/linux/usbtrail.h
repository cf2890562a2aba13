/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * usbtrail: the ABI between usbtrail.ko and the usbtrail command.
 *
 * This is the only header both sides include.  Every structure has
 * fixed-width fields and explicit padding so 32- and 64-bit readers agree.
 * USBTRAIL_ABI_VERSION changes whenever a structure or its meaning does.
 */
#ifndef _UAPI_LINUX_USBTRAIL_H
#define _UAPI_LINUX_USBTRAIL_H

#include <linux/types.h>

#define USBTRAIL_ABI_VERSION	1

#endif /* _UAPI_LINUX_USBTRAIL_H */
