"""A portrait-mounted panel (rotation 90): the kiosk turned, the ink under the finger.

Its guest steps are rotated.sh, beside this file; its host checks are check(run), here."""
import os

from driver import W, H, dark_pixels, layout, read_png, region_diff


def check(run):
    shots, fields, check, args = run.shots, run.fields, run.check, run.args
    whole = run.whole
    rotated = fields('ROTATED')
    if shots['rotated']:
        expected_rotated = read_png(os.path.join(args.expected, 'rotated.png'))
        # The box as the portrait kiosk lays it out, turned into the panel's rows and columns.
        (bx0, by0, bx1, by1), _, _ = layout(H, W)
        turned_box = (by0, H - bx1, by1, H - bx0)
        layout_d = region_diff(shots['rotated'][2], expected_rotated[2], W, whole) if shots['rotated'][:2] == (W, H) else 1
        d = region_diff(shots['rotated'][2], expected_rotated[2], W, turned_box) if shots['rotated'][:2] == (W, H) else 1
        ink = dark_pixels(shots['rotated'][2], W, turned_box)
        told = len(rotated) == 1 and rotated[0].get('turned') == '1' and rotated[0].get('alive') == 'yes'
        check('4 a portrait-mounted panel (rotation 90) shows the kiosk turned, with the ink under the finger', told and layout_d < 0.005 and d < 0.002 and ink > 500,
              f"{100 * layout_d:.3f}% of pixels differ from signpad replay's turned screen; in the box {ink} ink pixels, {100 * d:.3f}% differ; {rotated}")
    else:
        check('4 a portrait-mounted panel (rotation 90) shows the kiosk turned, with the ink under the finger', False, f'no screendump; {rotated}')
