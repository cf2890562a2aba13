// SPDX-License-Identifier: GPL-2.0-only
/*
 * usbdesc.c - parse raw USB descriptors into struct usbdesc_device.
 *
 * Input is either one configuration (what GET_DESCRIPTOR returns) or the
 * sysfs "descriptors" attribute: the 18-byte device descriptor followed by
 * every configuration's raw descriptors in order (read_descriptors() in
 * drivers/usb/core/sysfs.c, all configurations since 2.6.26).
 *
 * The walk follows usb_parse_configuration() in drivers/usb/core/config.c
 * where it matters for UAS: a descriptor shorter than 2 bytes or longer
 * than what is left ends the configuration; whatever follows an endpoint
 * up to the next endpoint or interface descriptor is that endpoint's
 * "extra", which is where the SuperSpeed companion and the UAS pipe-usage
 * descriptor live.
 */
#include <errno.h>
#include <string.h>

#include "usbdesc.h"

static uint16_t usbdesc_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/**
 * usbdesc_parse_device() - parse an 18-byte device descriptor
 * @buf: the bytes; at least 18 of them
 * @len: length of @buf
 * @out: filled on success; configurations are left empty
 *
 * Return: 0, -EINVAL if @buf is too short or not a device descriptor.
 */
int usbdesc_parse_device(const uint8_t *buf, size_t len,
			 struct usbdesc_device *out)
{
	if (!buf || !out || len < 18 || buf[0] < 18 ||
	    buf[1] != USBDESC_DT_DEVICE)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bcd_usb = usbdesc_le16(buf + 2);
	out->class = buf[4];
	out->subclass = buf[5];
	out->protocol = buf[6];
	out->max_packet0 = buf[7];
	out->vid = usbdesc_le16(buf + 8);
	out->pid = usbdesc_le16(buf + 10);
	out->bcd_device = usbdesc_le16(buf + 12);
	out->num_configs = buf[17];
	return 0;
}

/**
 * usbdesc_parse_endpoint_extra() - read what follows an endpoint descriptor
 * @buf: the descriptors after the endpoint, up to the next endpoint or
 *       interface (libusb's "extra", the kernel's endpoint->extra)
 * @len: their length
 * @ep:  the endpoint; its companion and pipe_id fields are set
 *
 * Exported so that descriptors obtained through libusb, which splits them
 * itself, go through the same rules.
 */
void usbdesc_parse_endpoint_extra(const uint8_t *buf, size_t len,
				  struct usbdesc_endpoint *ep)
{
	size_t off = 0;
	bool first = true;

	while (off + 2 <= len) {
		const uint8_t *d = buf + off;
		uint8_t dlen = d[0];

		if (dlen < 2 || dlen > len - off)
			break;
		/* The companion must come right after the endpoint. */
		if (first && d[1] == USBDESC_DT_SS_EP_COMP && dlen >= 6) {
			unsigned int ms = d[3] & 0x1f;

			ep->has_ss_comp = true;
			ep->ss_max_burst = d[2];
			ep->ss_attributes = d[3];
			/* config.c clamps bulk MaxStreams above 16 to 16 */
			if (ms > 16)
				ms = 16;
			if ((ep->attributes & 0x3) == 0x2 && ms)
				ep->ss_max_streams = 1u << ms;
		}
		if (d[1] == USBDESC_DT_PIPE_USAGE && dlen >= 3 &&
		    !ep->pipe_id) {
			/*
			 * uas_find_endpoints() looks at the first pipe-usage
			 * descriptor only and ignores IDs outside 1..4.
			 */
			if (d[2] >= 1 && d[2] <= 4)
				ep->pipe_id = d[2];
			break;
		}
		first = false;
		off += dlen;
	}
}

/**
 * usbdesc_parse_config() - parse one configuration and what it contains
 * @buf:  the configuration descriptor and its subordinate descriptors
 * @len:  bytes available in @buf
 * @out:  filled on success
 * @used: if not NULL, set to the bytes this configuration took
 *        (wTotalLength, or less if @buf ends first)
 *
 * Return: 0, or -EINVAL if @buf does not start with a configuration
 * descriptor.  Damaged descriptors after the header end the walk early and
 * are not an error, as in the kernel.
 */
int usbdesc_parse_config(const uint8_t *buf, size_t len,
			 struct usbdesc_config *out, size_t *used)
{
	struct usbdesc_altsetting *alt = NULL;
	struct usbdesc_endpoint *ep = NULL;
	size_t total, off, extra_start = 0;

	if (!buf || !out || len < 9 || buf[0] < 9 ||
	    buf[1] != USBDESC_DT_CONFIG)
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->total_length = usbdesc_le16(buf + 2);
	out->num_interfaces = buf[4];
	out->value = buf[5];
	out->attributes = buf[7];
	out->max_power = buf[8];
	out->string_index = buf[6];

	total = out->total_length;
	if (total > len)
		total = len;
	if (total < buf[0])
		total = buf[0];
	off = buf[0];

	while (off + 2 <= total) {
		const uint8_t *d = buf + off;
		uint8_t dlen = d[0];

		if (dlen < 2 || dlen > total - off)
			break;

		if (d[1] == USBDESC_DT_INTERFACE ||
		    d[1] == USBDESC_DT_ENDPOINT) {
			if (ep)
				usbdesc_parse_endpoint_extra(buf + extra_start,
						off - extra_start, ep);
			ep = NULL;
		}

		if (d[1] == USBDESC_DT_INTERFACE && dlen >= 9) {
			if (out->nalts == USBDESC_MAX_ALTS) {
				alt = NULL;
				out->truncated++;
			} else {
				alt = &out->alts[out->nalts++];
				alt->number = d[2];
				alt->alt = d[3];
				alt->num_endpoints = d[4];
				alt->class = d[5];
				alt->subclass = d[6];
				alt->protocol = d[7];
				alt->string_index = d[8];
			}
		} else if (d[1] == USBDESC_DT_ENDPOINT && dlen >= 7 && alt) {
			if (alt->nendpoints == USBDESC_MAX_ENDPOINTS) {
				out->truncated++;
			} else {
				ep = &alt->ep[alt->nendpoints++];
				ep->address = d[2];
				ep->attributes = d[3];
				ep->max_packet = usbdesc_le16(d + 4);
				extra_start = off + dlen;
			}
		} else if (d[1] == USBDESC_DT_CONFIG ||
			   d[1] == USBDESC_DT_DEVICE) {
			break;
		}
		off += dlen;
	}
	if (ep)
		usbdesc_parse_endpoint_extra(buf + extra_start,
					     off - extra_start, ep);
	if (used)
		*used = total;
	return 0;
}

/**
 * usbdesc_parse_sysfs() - parse the sysfs "descriptors" attribute
 * @buf: the whole attribute
 * @len: its length
 * @out: the device and every configuration that could be parsed
 *
 * Also the fuzz entry point: any @buf of any @len must return without
 * reading outside it.
 *
 * Return: 0, or -EINVAL if not even the device descriptor is valid.
 */
int usbdesc_parse_sysfs(const uint8_t *buf, size_t len,
			struct usbdesc_device *out)
{
	struct usbdesc_device dev;
	size_t off;
	int ret;

	ret = usbdesc_parse_device(buf, len, &dev);
	if (ret)
		return ret;
	off = buf[0];
	while (off < len && dev.nconfigs < USBDESC_MAX_CONFIGS) {
		size_t used = 0;

		if (usbdesc_parse_config(buf + off, len - off,
					 &dev.configs[dev.nconfigs], &used))
			break;
		dev.nconfigs++;
		off += used;
	}
	*out = dev;
	return 0;
}

/**
 * usbdesc_parse_bos() - parse a Binary Object Store and its capabilities
 * @buf: the BOS descriptor and the device capability descriptors after it
 * @len: bytes in @buf
 * @out: filled on success
 *
 * As usb_get_bos_descriptor() (drivers/usb/core/config.c): the walk ends
 * after bNumDeviceCaps, at wTotalLength or the end of @buf, at a
 * descriptor that does not fit, and at a known capability shorter than
 * its type needs; one that is not a device capability is skipped.
 *
 * Return: 0, or -EINVAL if @buf does not start with a BOS descriptor.
 */
int usbdesc_parse_bos(const uint8_t *buf, size_t len, struct usbdesc_bos *out)
{
	size_t total, off;

	if (!buf || !out || len < 5 || buf[0] < 5 || buf[1] != USBDESC_DT_BOS)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->total_length = usbdesc_le16(buf + 2);
	out->num_caps = buf[4];
	total = out->total_length < len ? out->total_length : len;
	for (off = buf[0]; off + 3 <= total && out->ncaps < out->num_caps;
	     off += buf[off]) {
		const uint8_t *d = buf + off;
		uint8_t dlen = d[0];

		if (dlen < 3 || dlen > total - off)
			break;
		if (d[1] != USBDESC_DT_DEVICE_CAPABILITY)
			continue;
		if ((d[2] == USBDESC_CAP_USB2_EXT && dlen < 7) ||
		    (d[2] == USBDESC_CAP_SUPERSPEED && dlen < 10) ||
		    (d[2] == USBDESC_CAP_SUPERSPEED_PLUS && dlen < 12) ||
		    (d[2] == USBDESC_CAP_CONTAINER_ID && dlen < 20))
			break;
		out->ncaps++;
		switch (d[2]) {
		case USBDESC_CAP_USB2_EXT:
			out->has_usb2_ext = true;
			out->usb2_ext_attributes = (uint32_t)d[3] |
				(uint32_t)d[4] << 8 | (uint32_t)d[5] << 16 |
				(uint32_t)d[6] << 24;
			break;
		case USBDESC_CAP_SUPERSPEED:
			out->has_ss = true;
			out->ss_attributes = d[3];
			out->ss_speeds = usbdesc_le16(d + 4);
			out->ss_functionality = d[6];
			out->u1_exit_lat = d[7];
			out->u2_exit_lat = usbdesc_le16(d + 8);
			break;
		case USBDESC_CAP_SUPERSPEED_PLUS:
			out->has_ssp = true;
			break;
		case USBDESC_CAP_CONTAINER_ID:
			out->has_container_id = true;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* The configuration whose bConfigurationValue is @value, or NULL. */
const struct usbdesc_config *
usbdesc_device_config(const struct usbdesc_device *dev, uint8_t value)
{
	unsigned int i;

	for (i = 0; dev && i < dev->nconfigs; i++)
		if (dev->configs[i].value == value)
			return &dev->configs[i];
	return NULL;
}

/* uas_is_interface() in drivers/usb/storage/uas-detect.h */
bool usbdesc_altsetting_is_uas(const struct usbdesc_altsetting *alt)
{
	return alt->class == USBDESC_CLASS_MASS_STORAGE &&
	       alt->subclass == USBDESC_SC_SCSI &&
	       alt->protocol == USBDESC_PR_UAS;
}

bool usbdesc_altsetting_is_mass_storage(const struct usbdesc_altsetting *alt)
{
	return alt->class == USBDESC_CLASS_MASS_STORAGE;
}
