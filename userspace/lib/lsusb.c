// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsusb.c - descriptors as "lsusb -v" prints them (lsusb.h): the same
 * field names and layout, so a maintainer reads them as usual.
 */
#include <stdio.h>

#include "lsusb.h"

static const char *lsusb_class(uint8_t c)
{
	switch (c) {
	case 0x00:
		return "[unknown]";
	case 0x08:
		return "Mass Storage";
	case 0x09:
		return "Hub";
	case 0xff:
		return "Vendor Specific Class";
	}
	return "";
}

static const char *lsusb_protocol(uint8_t class, uint8_t p)
{
	if (class != USBDESC_CLASS_MASS_STORAGE)
		return "";
	if (p == USBDESC_PR_BULK)
		return "Bulk-Only";
	if (p == USBDESC_PR_UAS)
		return "(UAS)";
	return "";
}

static const char *const lsusb_types[] = { "Control", "Isochronous", "Bulk",
					   "Interrupt" };
static const char *const lsusb_pipes[] = { "", "Command pipe", "Status pipe",
					   "Data-in pipe", "Data-out pipe" };

static void lsusb_endpoint(FILE *f, const struct usbdesc_endpoint *ep)
{
	fprintf(f, "      Endpoint Descriptor:\n"
		"        bLength                 7\n"
		"        bDescriptorType         5\n"
		"        bEndpointAddress     0x%02x  EP %u %s\n"
		"        bmAttributes            %u\n"
		"          Transfer Type            %s\n"
		"        wMaxPacketSize     0x%04x  %ux %u bytes\n",
		ep->address, ep->address & 0x0f,
		ep->address & 0x80 ? "IN" : "OUT", ep->attributes,
		lsusb_types[ep->attributes & 3], ep->max_packet,
		((ep->max_packet >> 11) & 3) + 1, ep->max_packet & 0x7ff);
	if (ep->has_ss_comp) {
		fprintf(f, "        bMaxBurst              %2u\n",
			ep->ss_max_burst);
		if (ep->ss_max_streams)
			fprintf(f, "        MaxStreams             %2u\n",
				ep->ss_max_streams);
	}
	if (ep->pipe_id)
		fprintf(f, "        %s (0x%02x)\n", ep->pipe_id < 5 ?
			lsusb_pipes[ep->pipe_id] : "Unknown pipe",
			ep->pipe_id);
}

void lsusb_print(FILE *f, const struct usbdesc_device *d, bool superspeed)
{
	unsigned int c, a, e;

	fprintf(f, "Device Descriptor:\n"
		"  bLength                18\n"
		"  bDescriptorType         1\n"
		"  bcdUSB               %2x.%02x\n"
		"  bDeviceClass          %3u %s\n"
		"  bDeviceSubClass       %3u\n"
		"  bDeviceProtocol       %3u\n"
		"  bMaxPacketSize0       %3u\n"
		"  idVendor           0x%04x\n"
		"  idProduct          0x%04x\n"
		"  bcdDevice          %2x.%02x\n"
		"  bNumConfigurations    %3u\n",
		d->bcd_usb >> 8, d->bcd_usb & 0xff, d->class,
		lsusb_class(d->class), d->subclass, d->protocol,
		d->max_packet0, d->vid, d->pid, d->bcd_device >> 8,
		d->bcd_device & 0xff, d->num_configs);
	for (c = 0; c < d->nconfigs; c++) {
		const struct usbdesc_config *cf = &d->configs[c];

		fprintf(f, "  Configuration Descriptor:\n"
			"    bLength                 9\n"
			"    bDescriptorType         2\n"
			"    wTotalLength       0x%04x\n"
			"    bNumInterfaces        %3u\n"
			"    bConfigurationValue   %3u\n"
			"    bmAttributes         0x%02x\n",
			cf->total_length, cf->num_interfaces, cf->value,
			cf->attributes);
		if (cf->attributes & 0x40)
			fprintf(f, "      Self Powered\n");
		if (cf->attributes & 0x20)
			fprintf(f, "      Remote Wakeup\n");
		fprintf(f, "    MaxPower           %5umA\n",
			cf->max_power * (superspeed ? 8u : 2u));
		for (a = 0; a < cf->nalts; a++) {
			const struct usbdesc_altsetting *al = &cf->alts[a];

			fprintf(f, "    Interface Descriptor:\n"
				"      bLength                 9\n"
				"      bDescriptorType         4\n"
				"      bInterfaceNumber      %3u\n"
				"      bAlternateSetting     %3u\n"
				"      bNumEndpoints         %3u\n"
				"      bInterfaceClass       %3u %s\n"
				"      bInterfaceSubClass    %3u %s\n"
				"      bInterfaceProtocol    %3u %s\n",
				al->number, al->alt, al->num_endpoints,
				al->class, lsusb_class(al->class), al->subclass,
				al->class == USBDESC_CLASS_MASS_STORAGE &&
				al->subclass == USBDESC_SC_SCSI ? "SCSI" : "",
				al->protocol,
				lsusb_protocol(al->class, al->protocol));
			for (e = 0; e < al->nendpoints; e++)
				lsusb_endpoint(f, &al->ep[e]);
		}
		if (cf->truncated)
			fprintf(f, "    (%u more descriptors not shown)\n",
				cf->truncated);
	}
}
