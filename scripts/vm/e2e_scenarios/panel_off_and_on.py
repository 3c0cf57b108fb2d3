"""A panel switched off and on (the connector forced off): the output goes off and comes back with the ink."""
from driver import W, region_diff

GUEST = r'''
# The panel is switched off and on again, as a DisplayPort panel drops its hot-plug line when
# powered off (here the kernel's connector status is forced): signpad turns the output off, keeps
# the kiosk and its ink, and sets the mode again when the panel is back.
status=$(ls /sys/class/drm/card*-Virtual-1/status | head -1)
echo off > "$status"
for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
sleep 0.5
ask "screendump panel-off"
echo detect > "$status"
for i in $(seq 50); do grep -q "has a panel again" /tmp/signpad.log && break; sleep 0.1; done
sleep 0.5
say "PANEL off=$(grep -c "reports no panel" /tmp/signpad.log) back=$(grep -c "set again" /tmp/signpad.log) status=$(cat "$status") alive=$(alive)"
ask "screendump panel-on"
'''


def check(run):
    shots, fields, check, whole = run.shots, run.fields, run.check, run.whole
    panel = fields('PANEL')
    if shots['panel-off'] and shots['panel-on'] and shots['signed']:
        dark = region_diff(shots['panel-off'][2], shots['signed'][2], W, whole)
        back = region_diff(shots['panel-on'][2], shots['signed'][2], W, whole)
        told = len(panel) == 1 and panel[0].get('off') == '1' and panel[0].get('back') == '1' and panel[0].get('alive') == 'yes'
        check('5 a panel switched off and on is shown again with its ink', told and dark > 0.5 and back < 0.002,
              f"connector forced off: output off ({100 * dark:.1f}% of pixels differ from the signed screen); "
              f"back: mode set again, {100 * back:.3f}% differ; {panel}")
    else:
        check('5 a panel switched off and on is shown again with its ink', False, f'no screendump; {panel}')
