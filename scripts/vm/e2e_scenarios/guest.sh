#!/bin/busybox sh
# PID 1 of the kiosk VM: bring up devices, run signpad on the real DRM and evdev paths, and
# (in e2e mode) play the test scenarios, talking to the host driver over the serial console.
# This file is the start and the helpers; the VM's /init is it followed by each scenario's .sh
# in order (scripts/vm/e2e_scenarios/__init__.py; `e2e_driver.py --guest-script` prints it).
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/local/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp /run /var/cache/fontconfig /export /var/lib/signpad
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t tmpfs cache /var/cache/fontconfig
for m in virtio-pci evdev uinput xhci-pci usbhid hid-generic; do modprobe $m 2>/dev/null; done
mode=$(sed -n 's/.*signpad.mode=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
# The display driver is loaded in e2e mode only after signpad has started, as a GPU driver may be at boot.
load_display_driver() {
    for m in bochs virtio-gpu; do modprobe $m 2>/dev/null; done
    for i in $(seq 100); do [ -e /dev/dri/card0 ] && break; sleep 0.1; done
}

say() { echo "E2E $*"; }
# yes while the signpad started last runs.
alive() { kill -0 "$(cat /run/signpad.pid)" 2>/dev/null && echo yes || echo no; }
# Waits for the host driver to answer a request on the console.
ask() { say "$*"; read -r answer; echo "$answer"; }
# $wrap, when set, is a command signpad runs under (strace, to slow its writes down).
start_signpad() {
    ready=$(grep -c "ready:" /tmp/signpad.log 2>/dev/null)
    $wrap signpad run --config /etc/signpad/signpad.toml "$@" >>/tmp/signpad.log 2>&1 &
    echo $! > /run/signpad.pid
    for i in $(seq 100); do [ "$(grep -c "ready:" /tmp/signpad.log 2>/dev/null)" -gt "${ready:-0}" ] && return 0; sleep 0.1; done
    say "FAIL signpad did not become ready"; cat /tmp/signpad.log; return 1
}
stop_signpad() {
    kill -TERM "$(cat /run/signpad.pid)"
    for i in $(seq 100); do kill -0 "$(cat /run/signpad.pid)" 2>/dev/null || break; sleep 0.1; done
}
# taken KIND NAME: how many times signpad's log says it took the device NAME as KIND (a pattern).
# (The log here is swift-log's stream format: the fields, then the source, then the message.)
taken() { grep 'input device taken' /tmp/signpad.log | grep "as=$1 " | grep -c "name=$2 "; }
# Creates a uinput device from a recording's header, waits until signpad has taken it, plays the events.
play() {
    seen=$(grep -c "input device taken" /tmp/signpad.log)
    evemu-device "$1" > /tmp/evemu-device.out 2>&1 &
    dev_pid=$!
    for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
    for i in $(seq 50); do [ "$(grep -c "input device taken" /tmp/signpad.log)" -gt "$seen" ] && break; sleep 0.1; done
    evemu-play "$node" < "$1"
    sleep 1
    kill $dev_pid 2>/dev/null; wait $dev_pid 2>/dev/null
    sleep 0.5
}
send_exports() {
    for f in /export/*; do
        [ -f "$f" ] || continue
        say "FILE $(basename "$f")"
        base64 "$f"
        say "END"
    done
}
uinput_node() {  # uinput_node FILE OUT: creates a uinput device from a recording's header; prints its node
    evemu-device "$1" > "$2" 2>&1 &
    echo $! >> /run/uinput.pids
    for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' "$2"); [ -n "$node" ] && break; sleep 0.1; done
    echo "$node"
}

if [ "$mode" = "interactive" ]; then
    load_display_driver
    echo "signpad kiosk VM: sign with the mouse in the window; exports go to /export (ls /export)."
    start_signpad --set 'input.device="QEMU QEMU USB Tablet"'
    exec sh
fi
