"""`signpad calibrate` on a panel that reads off by a known matrix prints a udev rule; installed,
udev gives that device the matrix, and signpad reads it from there.

Its guest steps are udev_calibration.sh, beside this file; its host checks are check(run), here."""
from driver import CALIBRATION_TRUTH


def check(run):
    rule = run.said('udevrule')
    try:
        values = [float(v) for v in rule.get('calibration', '').split(',')]
    except ValueError:
        values = []
    off = max((abs(v - t) for v, t in zip(values, CALIBRATION_TRUTH)), default=1) if len(values) == 6 else 1
    run.check('S9 the udev rule signpad calibrate prints gives that device its matrix, which signpad reads',
              rule.get('exit') == '0' and rule.get('rules') == '1' and rule.get('source') == '(udev)' and off < 0.001,
              f"{rule['text']}; largest difference from the truth {off:.4f}")
