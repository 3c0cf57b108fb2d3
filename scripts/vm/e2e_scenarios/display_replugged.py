"""The display goes away (a PCI remove) and comes back: signpad waits for it and draws the kiosk again.

Its guest steps are display_replugged.sh, beside this file; its host checks are check(run), here."""
from driver import W, region_diff


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
