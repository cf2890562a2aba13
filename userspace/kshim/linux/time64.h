/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim: NSEC_PER_SEC (see kernel.h). */
#ifndef USBTRAIL_KSHIM_TIME64_H
#define USBTRAIL_KSHIM_TIME64_H

#define NSEC_PER_SEC	1000000000L

#endif /* USBTRAIL_KSHIM_TIME64_H */
