"""A drop of water that stays down: let go of at the idle timeout, and a finger signs meanwhile."""
from driver import W, dark_pixels

GUEST = r'''
# A drop of water lands in the box and stays: past the idle timeout its dot is wiped and it is let
# go of, and a finger signing meanwhile is drawn as on a dry panel.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/water-down.evemu /tmp/evemu-water.out)
start_signpad --set 'input.device="signpad demo touchscreen"' --set kiosk.idle_timeout=3
evemu-play "$panel" < /share/water-down.evemu
sleep 0.5
ask "screendump water-dot"
for i in $(seq 60); do grep -q "down and still at the idle timeout" /tmp/signpad.log && break; sleep 0.1; done
evemu-play "$panel" < /share/signature-second-finger.evemu
sleep 0.5
ask "screendump water-signed"
evemu-play "$panel" < /share/water-up.evemu
sleep 0.3
say "WATER letgo=$(grep -c 'down and still at the idle timeout' /tmp/signpad.log) alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, fields, check, drop = run.shots, run.fields, run.check, run.drop
    against_replay, around_drop = run.against_replay, run.around_drop
    water = fields('WATER')
    name = '3 a touch left down past the idle timeout is let go of: its dot is wiped and the next finger signs'
    if shots['water-dot'] and shots['water-signed']:
        dot = dark_pixels(shots['water-dot'][2], W, drop)
        d, ink = against_replay(shots['water-signed'])
        wiped = around_drop(shots['water-signed'])
        told = len(water) == 1 and water[0].get('letgo') == '1' and water[0].get('alive') == 'yes'
        check(name, told and dot >= 3 and wiped == 0 and d < 0.002 and ink > 500,
              f"the drop's dot: {dot} ink pixels, then {100 * wiped:.1f}% of the pixels around it differ from the dry panel's; "
              f"a finger signs while the drop stays: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay "
              f"of the dry panel; {water}")
    else:
        check(name, False, f'no screendump; {water}')
