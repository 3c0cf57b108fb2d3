"""QEMU's usb-tablet, driven over QMP, draws ink.

Its guest steps are usb_tablet.sh, beside this file; its host checks are check(run), here."""
from driver import W, dark_pixels


def check(run):
    shots, check, box = run.shots, run.check, run.box
    if shots['tablet']:
        ink = dark_pixels(shots['tablet'][2], W, box)
        check('3 QMP usb-tablet draws ink', ink > 200, f'{ink} ink pixels in the box')
    else:
        check('3 QMP usb-tablet draws ink', False, 'no screendump')
