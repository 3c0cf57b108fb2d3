"""An idle screen sleeps; a tap wakes it and draws nothing.

Its guest steps are sleep.sh, beside this file; its host checks are check(run), here."""
from driver import W, region_diff


def check(run):
    shots, fields, check, expected_initial = run.shots, run.fields, run.check, run.expected_initial
    box, whole = run.box, run.whole
    sleep = fields('SLEEP')
    if shots['asleep'] and shots['awake']:
        dark = region_diff(shots['asleep'][2], expected_initial[2], W, whole)
        awake = region_diff(shots['awake'][2], expected_initial[2], W, whole)
        # A dot is a few pixels of a large box: counted, not a fraction, against the first kiosk screen.
        reference = (shots['initial'] or expected_initial)[2]
        dots = round(region_diff(shots['awake'][2], reference, W, box, threshold=24) * (box[2] - box[0]) * (box[3] - box[1]))
        told = len(sleep) == 1 and sleep[0].get('off') == '1' and sleep[0].get('on') == '1' and sleep[0].get('alive') == 'yes'
        check('5 an idle screen sleeps and a tap wakes it without ink', told and dark > 0.5 and awake < 0.005 and dots == 0,
              f"sleep_after 2 s: output off ({100 * dark:.1f}% of pixels differ from the kiosk); a tap in the box: "
              f"the kiosk again ({100 * awake:.3f}% differ), {dots} pixels of the box changed; {sleep}")
    else:
        check('5 an idle screen sleeps and a tap wakes it without ink', False, f'no screendump; {sleep}')
