#!/bin/bash
# Guest side of the systemd VM test: the helpers every scenario's guest steps use. The script the
# VM runs (signpad-vm-check.service, on the serial console of a Debian system booted with systemd
# as PID 1 and the signpad package installed and enabled, as a kiosk would have it) is this file
# and then each scenario's .sh in order (scripts/vm/systemd_scenarios/__init__.py). It drives
# the service as an admin would (systemctl, evemu for the touches) and reports to the host driver
# (scripts/vm/systemd_driver.py) with lines starting "E2E".
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
exports=/var/lib/signpad/signatures

say() { echo "E2E $*"; }
# Waits for the host driver to answer a request on the console.
ask() { say "$*"; read -r _; }
prop() { systemctl show -p "$1" --value signpad; }
# wait_for SECONDS COMMAND…: true once COMMAND succeeds, false after SECONDS.
wait_for() {
    local limit=$(( $1 * 10 )); shift
    for _ in $(seq "$limit"); do "$@" && return 0; sleep 0.1; done
    return 1
}
# above COUNT COMMAND…: true when COMMAND prints a number above COUNT. Given to wait_for, the
# command runs anew each time; a "$(…)" in wait_for's arguments would be counted only once.
above() { local count=$1; shift; test "$("$@")" -gt "$count"; }
# What systemd says of the unit: its state, then key value pairs. One systemctl call, as each
# takes a while under TCG.
state() {
    systemctl show -p ActiveState -p SubState -p MainPID -p NRestarts -p Result signpad |
        awk -F= '{ v[$1] = $2 } END { print v["ActiveState"] "/" v["SubState"], "pid", v["MainPID"], "restarts", v["NRestarts"], "result", v["Result"] }'
}
running() { state | grep -q '^active/running '; }
# signpad's journal as lines: each entry's time since boot and message, then its details (its
# SIGNPAD_ fields, which the journal keeps apart from the message) as key=value.
journal() {
    journalctl -u signpad -o export --no-pager | awk '
        function flush() { if (message != "") printf "[%10.3f] %s%s\n", at / 1e6, message, details; message = ""; details = "" }
        /^$/ { flush(); next }
        /^__MONOTONIC_TIMESTAMP=/ { at = substr($0, 23); next }
        /^MESSAGE=/ { message = substr($0, 9); next }
        /^SIGNPAD_[A-Z0-9_]*=/ { i = index($0, "="); details = details " " tolower(substr($0, 9, i - 9)) "=" substr($0, i + 1) }
        END { flush() }'
}
# The number of journal lines of signpad matching a pattern.
logged() { journal | grep -c -- "$1"; }
exported_records() { ls "$exports"/*.meta.json 2>/dev/null | wc -l; }
# Creates a uinput device from a recording's header, waits until signpad has taken it, plays the events.
play() {
    local seen node pid
    seen=$(logged "input device taken")
    evemu-device "$1" > /run/evemu-device.out 2>&1 &
    pid=$!
    wait_for 5 grep -q '/dev/input/event' /run/evemu-device.out
    node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-device.out)
    wait_for 10 above "$seen" logged "input device taken"
    evemu-play "$node" < "$1"
    sleep 1
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    sleep 0.5
}
# status_has SECONDS TEXT: true once the unit's status line contains TEXT.
status_has() { wait_for "$1" sh -c "systemctl show -p StatusText --value signpad | grep -q -- '$2'"; }
