"""The display goes away (a PCI remove) and comes back: signpad waits for it and draws the kiosk again."""
from driver import W, region_diff

GUEST = r'''
# The display goes away (as a USB display unplugged, or a driver unbound) and comes back: signpad
# notices, waits for a display again and draws the kiosk on it; the touch device is taken again.
gpu=$(readlink -f /sys/class/drm/card0/device)
echo 1 > "$gpu/remove"
for i in $(seq 100); do grep -q "the display is lost" /tmp/signpad.log && break; sleep 0.1; done
say "REPLUG gone=$(grep -c "the display is lost" /tmp/signpad.log) alive=$(alive)"
echo 1 > /sys/bus/pci/rescan
for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
sleep 0.5
say "REPLUG ready=$(grep -c "ready:" /tmp/signpad.log) cards=[$(ls /dev/dri | tr '\n' ' ')]"
ask "screendump replugged"
'''


def check(run):
    shots, fields, check, expected_initial = run.shots, run.fields, run.check, run.expected_initial
    whole = run.whole
    replug = fields('REPLUG')
    if shots['replugged']:
        d = region_diff(shots['replugged'][2], expected_initial[2], W, whole)
        back = len(replug) == 2 and replug[0].get('gone') == '1' and replug[0].get('alive') == 'yes' and replug[1].get('ready') == '2'
        check('5 a display that goes away and comes back is drawn on again', back and d < 0.005,
              f"PCI remove: signpad noticed and stayed up; after rescan it drew the kiosk again ({100 * d:.3f}% of pixels differ; {replug})")
    else:
        check('5 a display that goes away and comes back is drawn on again', False, 'no screendump')
