"""QEMU's usb-tablet, driven over QMP, draws ink."""
from driver import W, dark_pixels

GUEST = r'''
: > /tmp/signpad.log
start_signpad --set 'input.device="QEMU QEMU USB Tablet"'
ask "tablet draw"
sleep 1
ask "screendump tablet"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, check, box = run.shots, run.check, run.box
    if shots['tablet']:
        ink = dark_pixels(shots['tablet'][2], W, box)
        check('3 QMP usb-tablet draws ink', ink > 200, f'{ink} ink pixels in the box')
    else:
        check('3 QMP usb-tablet draws ink', False, 'no screendump')
