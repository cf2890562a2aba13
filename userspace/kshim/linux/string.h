/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim: memcpy, strlen, strnlen (see kernel.h). */
#ifndef USBTRAIL_KSHIM_STRING_H
#define USBTRAIL_KSHIM_STRING_H

#include <string.h>

#endif /* USBTRAIL_KSHIM_STRING_H */
