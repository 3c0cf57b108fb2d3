"""A reload whose configuration a start would refuse is refused: the kiosk goes on as it was.

Its guest steps are refused_reload.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, region_diff


def check(run):
    refused = run.said('refusedreload')
    shot = run.shot('sd-refused-reload')
    d = region_diff(shot, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if shot else 1
    same = refused['state'] == 'active/running' and refused.get('pid') == refused.get('before') and refused.get('refused') == '1' and \
        refused.get('socket') == 'yes' and refused.get('status') == '0'
    run.check('S29 a reload that a start would refuse is refused; the kiosk goes on as it was', same and d < 0.01,
              f"{refused['text']}; {100 * d:.3f}% of pixels differ from the screen before it")
