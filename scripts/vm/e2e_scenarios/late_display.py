"""No DRM card at start: signpad waits for one, staying up, and takes it when its driver loads.

Its guest steps are late_display.sh, beside this file; its host checks are check(run), here."""
from driver import W, region_diff


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
