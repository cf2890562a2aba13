/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim: dev_t encoding as include/linux/kdev_t.h has it (see kernel.h). */
#ifndef USBTRAIL_KSHIM_KDEV_T_H
#define USBTRAIL_KSHIM_KDEV_T_H

#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & MINORMASK))

/* the 32-bit form userspace sees (sysfs, stat): 12-bit major, 20-bit minor */
static inline unsigned int new_decode_dev(unsigned int dev)
{
	unsigned int major = (dev & 0xfff00) >> 8;
	unsigned int minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);

	return (major << MINORBITS) | minor;
}

#endif /* USBTRAIL_KSHIM_KDEV_T_H */
