/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usbdesc.h - parse raw USB descriptors (as in sysfs "descriptors" or a
 * GET_DESCRIPTOR reply) into the few facts the UAS check needs.
 *
 * Everything here is a pure parser: bytes in, a struct out, no I/O, no
 * allocation, no logging.  Limits are fixed so a hostile or broken device
 * cannot make the caller allocate without bound; what does not fit is
 * counted in "truncated" rather than silently dropped.
 */
#ifndef USBTRAIL_USBDESC_H
#define USBTRAIL_USBDESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USBDESC_DT_DEVICE		0x01
#define USBDESC_DT_CONFIG		0x02
#define USBDESC_DT_INTERFACE		0x04
#define USBDESC_DT_ENDPOINT		0x05
#define USBDESC_DT_BOS			0x0f	/* USB 3.2 9.6.2 */
#define USBDESC_DT_DEVICE_CAPABILITY	0x10
#define USBDESC_DT_PIPE_USAGE		0x24	/* UAS r1.0, 5.3.3.1 */
#define USBDESC_DT_SS_EP_COMP		0x30

#define USBDESC_CLASS_MASS_STORAGE	0x08
#define USBDESC_SC_SCSI			0x06
#define USBDESC_PR_BULK			0x50	/* Bulk-Only Transport */
#define USBDESC_PR_UAS			0x62

/* bDevCapabilityType (USB 3.2 table 9-14) */
#define USBDESC_CAP_USB2_EXT		0x02
#define USBDESC_CAP_SUPERSPEED		0x03
#define USBDESC_CAP_CONTAINER_ID	0x04
#define USBDESC_CAP_SUPERSPEED_PLUS	0x0a

/* USB 2.0 Extension bmAttributes (USB 2.0 LPM ECN, table 9-13) */
#define USBDESC_USB2_EXT_LPM		(1u << 1)
#define USBDESC_USB2_EXT_BESL		(1u << 2)
/* SuperSpeed capability bmAttributes */
#define USBDESC_SS_LTM			(1u << 1)

/* UAS pipe IDs (pipe-usage descriptor bPipeID), 1-based as on the wire. */
#define USBDESC_PIPE_CMD		1
#define USBDESC_PIPE_STATUS		2
#define USBDESC_PIPE_DATA_IN		3
#define USBDESC_PIPE_DATA_OUT		4

#define USBDESC_MAX_CONFIGS		8
#define USBDESC_MAX_ALTS		32	/* per configuration, all ifaces */
#define USBDESC_MAX_ENDPOINTS		16	/* per alternate setting */

struct usbdesc_endpoint {
	uint8_t address;		/* bEndpointAddress */
	uint8_t attributes;		/* bmAttributes */
	uint16_t max_packet;		/* wMaxPacketSize */
	bool has_ss_comp;		/* SuperSpeed companion follows */
	uint8_t ss_max_burst;
	uint8_t ss_attributes;		/* companion bmAttributes */
	/*
	 * Streams as usb_ss_max_streams() computes them: 2^MaxStreams for a
	 * bulk endpoint with MaxStreams > 0, else 0.
	 */
	unsigned int ss_max_streams;
	/*
	 * bPipeID of the first pipe-usage descriptor after the endpoint,
	 * 0 if none.  Only the first counts: uas_find_endpoints() in
	 * drivers/usb/storage/uas-detect.h stops at it.
	 */
	uint8_t pipe_id;
};

struct usbdesc_altsetting {
	uint8_t number;			/* bInterfaceNumber */
	uint8_t alt;			/* bAlternateSetting */
	uint8_t num_endpoints;		/* bNumEndpoints as declared */
	uint8_t class, subclass, protocol;
	uint8_t string_index;		/* iInterface */
	unsigned int nendpoints;	/* endpoints parsed */
	struct usbdesc_endpoint ep[USBDESC_MAX_ENDPOINTS];
};

struct usbdesc_config {
	uint16_t total_length;		/* wTotalLength */
	uint8_t num_interfaces;
	uint8_t value;			/* bConfigurationValue */
	uint8_t attributes;
	uint8_t max_power;		/* bMaxPower, raw (2 or 8 mA units) */
	uint8_t string_index;		/* iConfiguration */
	unsigned int nalts;
	struct usbdesc_altsetting alts[USBDESC_MAX_ALTS];
	unsigned int truncated;		/* descriptors that did not fit */
};

struct usbdesc_device {
	uint16_t bcd_usb;
	uint8_t class, subclass, protocol;
	uint8_t max_packet0;
	uint16_t vid, pid, bcd_device;
	uint8_t num_configs;
	unsigned int nconfigs;		/* configurations parsed */
	struct usbdesc_config configs[USBDESC_MAX_CONFIGS];
};

/*
 * The Binary Object Store (GET_DESCRIPTOR(BOS), or sysfs bos_descriptors
 * since Linux 6.9): the capabilities LPM depends on.  Exit latencies are
 * the device's own, in microseconds, as usb_enable_lpm() reads them.
 */
struct usbdesc_bos {
	uint16_t total_length;		/* wTotalLength */
	uint8_t num_caps;		/* bNumDeviceCaps as declared */
	unsigned int ncaps;		/* capabilities parsed */
	bool has_usb2_ext;
	uint32_t usb2_ext_attributes;	/* USBDESC_USB2_EXT_* */
	bool has_ss;
	uint8_t ss_attributes;		/* USBDESC_SS_LTM */
	uint16_t ss_speeds;		/* wSpeedsSupported: bit 0 low .. 3 5G */
	uint8_t ss_functionality;	/* bFunctionalitySupport */
	uint8_t u1_exit_lat;		/* bU1DevExitLat, us (0..10) */
	uint16_t u2_exit_lat;		/* wU2DevExitLat, us (0..2047) */
	bool has_ssp;			/* SuperSpeedPlus (10/20 Gbit/s) */
	bool has_container_id;
};

int usbdesc_parse_bos(const uint8_t *buf, size_t len, struct usbdesc_bos *out);

int usbdesc_parse_device(const uint8_t *buf, size_t len,
			 struct usbdesc_device *out);
int usbdesc_parse_config(const uint8_t *buf, size_t len,
			 struct usbdesc_config *out, size_t *used);
void usbdesc_parse_endpoint_extra(const uint8_t *buf, size_t len,
				  struct usbdesc_endpoint *ep);
int usbdesc_parse_sysfs(const uint8_t *buf, size_t len,
			struct usbdesc_device *out);

const struct usbdesc_config *
usbdesc_device_config(const struct usbdesc_device *dev, uint8_t value);
bool usbdesc_altsetting_is_uas(const struct usbdesc_altsetting *alt);
bool usbdesc_altsetting_is_mass_storage(const struct usbdesc_altsetting *alt);

#endif /* USBTRAIL_USBDESC_H */
