# Faults. A SYN_DROPPED flood: freeze the daemon, pour a whole signature into the kernel's queue at once, thaw it.
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"'
evemu-device /share/signature.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
for i in $(seq 50); do grep -q "input device taken" /tmp/signpad.log && break; sleep 0.1; done
kill -STOP "$(cat /run/signpad.pid)"
evemu-play "$node" < /share/burst.evemu
kill -CONT "$(cat /run/signpad.pid)"
sleep 1
kill $dev_pid; wait $dev_pid 2>/dev/null
kill -0 "$(cat /run/signpad.pid)" && say "ALIVE after the flood"
# A crash with a signature on the panel: the kernel takes the framebuffer away with the process,
# so the signature does not stay on screen for the next customer. (The flood left no ink: the
# kernel emptied the queue it overflowed.)
play /share/signature.evemu
ask "screendump inked"
kill -KILL "$(cat /run/signpad.pid)"
for i in $(seq 50); do kill -0 "$(cat /run/signpad.pid)" 2>/dev/null || break; sleep 0.1; done
sleep 0.5
ask "screendump crashed"
start_signpad --set 'input.device="signpad demo touchscreen"'
