"""No DRM card at start: signpad waits for one, staying up, and takes it when its driver loads."""
from driver import W, region_diff

GUEST = r'''
# No DRM card yet: signpad waits for one (and tells systemd it is up), then takes it when it comes.
signpad run --config /etc/signpad/signpad.toml --set 'input.device="signpad demo touchscreen"' >>/tmp/signpad.log 2>&1 &
echo $! > /run/signpad.pid
for i in $(seq 100); do grep -q "waiting for a display" /tmp/signpad.log && break; sleep 0.1; done
sleep 2.5
say "LATE DISPLAY cards=[$(ls /dev/dri 2>/dev/null | tr '\n' ' ')] alive=$(alive) waiting=$(grep -c "waiting for a display" /tmp/signpad.log)"
load_display_driver
for i in $(seq 100); do grep -q "ready:" /tmp/signpad.log && break; sleep 0.1; done
grep -q "ready:" /tmp/signpad.log || { say "FAIL signpad did not take the display that came late"; cat /tmp/signpad.log; poweroff -f; }
say "LATE DISPLAY ready=$(grep -c "ready:" /tmp/signpad.log)"
ask "screendump initial"
'''


def check(run):
    shots, fields, check, all_logs = run.shots, run.fields, run.check, run.all_logs
    expected_initial, whole = run.expected_initial, run.whole
    if shots['initial']:
        d = region_diff(shots['initial'][2], expected_initial[2], W, whole)
        check('1 daemon draws the kiosk layout', d < 0.005, f'{100 * d:.3f}% of pixels differ from the offscreen screen')
    else:
        check('1 daemon draws the kiosk layout', False, 'no screendump')
    late = fields('LATE DISPLAY')
    waited = len(late) == 2 and late[0].get('cards') == '[]' and late[0].get('alive') == 'yes' and late[0].get('waiting') == '1'
    took = waited and late[1].get('ready') == '1' and 'the display is there after waiting' in all_logs
    check('5 a display driver that loads after signpad starts is waited for, then used', took and bool(shots['initial']),
          f"no card at start: signpad logged 'waiting for a display' once and stayed up; after modprobe it took the card ({late})")
