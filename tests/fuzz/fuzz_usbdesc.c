// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_usbdesc.c - libFuzzer target for userspace/lib/usbdesc.c, the parser of
 * raw USB descriptors that a device (any device) supplies: configurations
 * and the Binary Object Store.
 *
 *   make -C userspace fuzz
 *   userspace/build-fuzz/fuzz_usbdesc -max_total_time=60 \
 *           userspace/build-fuzz/corpus
 *
 * The corpus starts from the fixtures' sysfs "descriptors" files.
 */
#include <stddef.h>
#include <stdint.h>

#include "usbdesc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct usbdesc_device dev;
	static struct usbdesc_config cfg;
	static struct usbdesc_endpoint ep;
	static struct usbdesc_bos bos;
	size_t used;

	usbdesc_parse_sysfs(data, size, &dev);
	usbdesc_parse_config(data, size, &cfg, &used);
	ep.attributes = 2;
	usbdesc_parse_endpoint_extra(data, size, &ep);
	usbdesc_parse_bos(data, size, &bos);
	return 0;
}
