"""A SYN_DROPPED flood is survived; after kill -9 no ink stays on the panel."""
from driver import W, contrast, ink_and_paper

GUEST = r'''
# Faults. A SYN_DROPPED flood: freeze the daemon, pour a whole signature into the kernel's queue at once, thaw it.
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"'
evemu-device /share/signature.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
for i in $(seq 50); do grep -q "input /dev/input" /tmp/signpad.log && break; sleep 0.1; done
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
'''


def check(run):
    shots, check, markers, all_logs = run.shots, run.check, run.markers, run.all_logs
    box = run.box
    if shots['inked'] and shots['crashed']:
        # Where the ink and the paper were before the kill: if the signature still showed, the
        # paper would be far brighter than the ink; the console or a dark panel shows neither.
        ink_at, paper_at = ink_and_paper(shots['inked'][2], W, box)
        before, after = contrast(shots['inked'][2], ink_at, paper_at), contrast(shots['crashed'][2], ink_at, paper_at)
        check('5 no ink stays on the panel after kill -9', len(ink_at) > 200 and before > 150 and after < 30,
              f'{len(ink_at)} ink pixels; paper-to-ink contrast {before:.0f} before the kill, {after:.0f} after')
    else:
        check('5 no ink stays on the panel after kill -9', False, 'no screendump')
    check('4 SYN_DROPPED flood is survived', any(m.startswith('ALIVE') for m in markers) and 'SYN_DROPPED' in all_logs,
          'the kernel dropped events while the daemon was frozen; it synced and kept running')
