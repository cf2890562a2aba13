# SPDX-License-Identifier: GPL-2.0-only
#
# gen-lua.awk - tools/wireshark/usbtrail.lua from usbtrail.lua.in: the
# value names of the dissector from the tables usbtrail itself uses, so
# the two never disagree (one table per fact):
#
#   @REC_TYPES@   enum usbtrail_rec_type of module/uapi/linux/usbtrail.h
#                 (USBTRAIL_REC_XHCI_TRANSFER: "xhci-transfer", as
#                 module/ut_format.c names them)
#   @XHCI_CC@     data/xhci-cc.tsv: code, name
#   @SENSE_KEYS@  data/scsi-sense-keys.tsv: key, text
#   @ASC@         data/scsi-asc.tsv: asc * 256 + ascq, text
#   @ASC_RANGES@  data/scsi-asc.tsv's ranges: asc_lo, asc_hi, ascq_lo,
#                 ascq_hi, text
#
#   awk -f gen-lua.awk UAPI_HEADER XHCI_CC SENSE_KEYS ASC TEMPLATE >OUT

function lua_str(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

function hex(s) {
	return index("0123456789abcdef", substr(tolower(s), 1, 1)) * 16 - 16 + \
	       index("0123456789abcdef", substr(tolower(s), 2, 1)) - 1
}

BEGIN { FS = "\t"; file = 0 }
FNR == 1 { file++ }

# the header: the enum's members in order, from 1
file == 1 && /^enum usbtrail_rec_type/ { inenum = 1; next }
file == 1 && inenum && /^};/ { inenum = 0; next }
file == 1 && inenum && /USBTRAIL_REC_[A-Z_0-9]+/ {
	match($0, /USBTRAIL_REC_[A-Z_0-9]+/)
	name = substr($0, RSTART + 13, RLENGTH - 13)
	if (name == "TYPE_MAX")
		next
	if (match($0, /= *[0-9]+/))
		n = substr($0, RSTART + 1) + 0
	else
		n++
	name = tolower(name)
	gsub(/_/, "-", name)
	types = types sprintf("\t[%d] = %s,\n", n, lua_str(name))
	next
}
file == 1 { next }

/^#/ || /^[a-z_]+\t/ { next }	# comments and each table's heading

file == 2 { cc = cc sprintf("\t[%d] = %s,\n", $1, lua_str($2)); next }
file == 3 { keys = keys sprintf("\t[%d] = %s,\n", hex("0" $1), lua_str($2)); next }
file == 4 && $1 == $2 && $3 == $4 {
	asc = asc sprintf("\t[%d] = %s,\n", hex($1) * 256 + hex($3),
			  lua_str($5))
	next
}
file == 4 {
	ranges = ranges sprintf("\t{ %d, %d, %d, %d, %s },\n", hex($1),
				hex($2), hex($3), hex($4), lua_str($5))
	next
}
file == 5 {
	line = $0
	if (line == "@REC_TYPES@") { printf "%s", types; next }
	if (line == "@XHCI_CC@") { printf "%s", cc; next }
	if (line == "@SENSE_KEYS@") { printf "%s", keys; next }
	if (line == "@ASC@") { printf "%s", asc; next }
	if (line == "@ASC_RANGES@") { printf "%s", ranges; next }
	print line
}
