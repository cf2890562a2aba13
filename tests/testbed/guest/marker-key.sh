#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 48-marker-key: a uinput keyboard presses F12 three times
# while (1) utmarker (the recorder's engine with only the evdev source) and
# (2) "usbtrail record --marker-key F12" watch, and a plain reader of the
# same device counts the presses too (it would see none if we grabbed).
# Everything lands in /out/marker/.
o=/out/marker
rm -rf "$o"
mkdir -p "$o"

# 1: the source on the engine.  It starts before the keyboard exists, so
# the keyboard is found by hotplug (inotify), not by the first scan.
/tests/utmarker F12 9 >"$o/utmarker.out" 2>&1 &
um=$!
sleep 1
/tests/utkey press --wait 2 --gap 400 --hold 3 --node /tmp/node F12 3 \
	>"$o/press1.out" 2>&1 &
kb=$!
while [ ! -s /tmp/node ]; do sleep 0.1; done
node=$(cat /tmp/node)
echo "$node" >"$o/node1"
/tests/utkey listen --seconds 7 "$node" F12 >"$o/listen1.out" 2>&1 &
wait $kb
wait $um
echo "utmarker exit $?" >>"$o/utmarker.out"

# overflow: the reader is stopped while 40 presses (160 events) overflow
# the kernel's 64-event buffer for it; it must count a SYN_DROPPED
rm -f /tmp/node
# (the keyboard must still be there when it reads again: evdev answers
# ENODEV, not what it queued, once its device is gone)
/tests/utkey press --wait 2 --gap 10 --hold 4 --node /tmp/node F12 40 \
	>"$o/press3.out" 2>&1 &
kb=$!
while [ ! -s /tmp/node ]; do sleep 0.1; done
node=$(cat /tmp/node)
echo "$node" >"$o/node3"
/tests/utmarker --device "$node" F12 10 >"$o/overflow.out" 2>&1 &
um=$!
sleep 1
kill -STOP $um
while ! grep -q '(40)' "$o/press3.out"; do sleep 0.2; done
kill -CONT $um
wait $kb
wait $um
echo "utmarker exit $?" >>"$o/overflow.out"

# errors: a device without the key, a device that is not there
/tests/utmarker --device /dev/input/event0 BTN_LEFT 1 >"$o/nokey.out" 2>&1
/tests/utmarker --device /dev/input/nonexistent F12 1 >"$o/noent.out" 2>&1

# 2: the command itself, on a keyboard that is there when it starts
rm -f /tmp/node
/tests/utkey press --wait 3 --gap 400 --hold 4 --node /tmp/node F12 3 \
	>"$o/press2.out" 2>&1 &
kb=$!
while [ ! -s /tmp/node ]; do sleep 0.1; done
node=$(cat /tmp/node)
echo "$node" >"$o/node2"
/tests/utkey listen --seconds 8 "$node" F12 >"$o/listen2.out" 2>&1 &
# --no-pcap: the marker is the point here, not the usbmon capture
usbtrail record --marker-key F12 -o "$o/rec" --duration 6 --no-pcap \
	>"$o/record.out" 2>&1
echo "record exit $?" >>"$o/record.out"
wait
