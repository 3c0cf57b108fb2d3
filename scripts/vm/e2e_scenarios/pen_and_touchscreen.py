"""A panel's pen and touchscreen read together: a hand taken back when the pen comes near, touches
ignored while it hovers, the eraser, a pen put down, a customer pausing with the pen raised.

Its guest steps are pen_and_touchscreen.sh, beside this file; its host checks are check(run), here."""
import os

from driver import W, dark_pixels, read_png, region_diff


def check(run):
    shots, fields, check, args = run.shots, run.fields, run.check, run.args
    expected_initial, box, against_replay = run.expected_initial, run.box, run.against_replay
    pen = fields('PEN')
    name = '3 a panel\'s pen and touchscreen are read together; touches are ignored while the pen hovers'
    if shots['palm-inked'] and shots['palm-withdrawn']:
        palm = dark_pixels(shots['palm-inked'][2], W, box)
        gone = region_diff(shots['palm-withdrawn'][2], expected_initial[2], W, box)
        told = len(pen) >= 1 and pen[0].get('withdrawn') == '1'
        check('3 a hand on the glass when the pen comes near is taken back', told and palm > 100 and gone < 0.001,
              f"a touch stroke half drawn: {palm} ink pixels; the pen comes near: {100 * gone:.3f}% of the box differs from the blank box; {pen[:1]}")
    else:
        check('3 a hand on the glass when the pen comes near is taken back', False, f'no screendump; {pen[:1]}')
    if shots['pen-hover'] and shots['pen-signed'] and shots['pen-cleared']:
        hover = region_diff(shots['pen-hover'][2], expected_initial[2], W, box)
        d, ink = against_replay(shots['pen-signed'])
        cleared = region_diff(shots['pen-cleared'][2], expected_initial[2], W, box)
        # The second marker is what `signpad devices` says signpad reads.
        told = len(pen) == 2 and pen[0].get('alive') == 'yes' and \
            all(m.get('pen') == '1' and m.get('touchscreen') == '1' and m.get('tablet') == '0' for m in pen)
        check(name, told and hover < 0.001 and d < 0.002 and ink > 500 and cleared < 0.001,
              f"the demo signature on the touchscreen while the pen hovers: {100 * hover:.3f}% of the box differs from the blank box; "
              f"the pen's signature: {ink} ink pixels, {100 * d:.3f}% differs from signpad replay; a tap on Clear on the touchscreen: "
              f"{100 * cleared:.3f}% differs from the blank box; {pen}")
    else:
        check(name, False, f'no screendump; {pen}')
    expected_erased = os.path.join(args.expected, 'erased.png')
    if shots['pen-erased'] and shots['pen-signed'] and os.path.exists(expected_erased):
        d = region_diff(shots['pen-erased'][2], read_png(expected_erased)[2], W, box)
        before, after = dark_pixels(shots['pen-signed'][2], W, box), dark_pixels(shots['pen-erased'][2], W, box)
        check("3 the pen's eraser end takes away the stroke it passes over", d < 0.002 and after < before - 100,
              f"{before} ink pixels before, {after} after; {100 * d:.3f}% of the box differs from signpad replay of the same events")
    else:
        check("3 the pen's eraser end takes away the stroke it passes over", False, 'no screendump or no expected erased.png')
    putdown = fields('PUTDOWN')
    name = '3 a pen lying still near the glass is taken as put down: touches draw again'
    if shots['pen-put-down']:
        d, ink = against_replay(shots['pen-put-down'])
        told = len(putdown) == 1 and putdown[0].get('told') == '1' and putdown[0].get('withdrawn') == '1' and putdown[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500,
              f"the pen near and still for 5.5 s, the demo signature on the touchscreen: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; {putdown}")
    else:
        check(name, False, f'no screendump; {putdown}')
    pause = fields('PAUSE')
    name = '5 a customer pausing with the pen raised keeps the signature; a pen lying still near the glass does not'
    if shots['pen-paused'] and shots['pen-laid']:
        d, ink = against_replay(shots['pen-paused'])
        wiped = region_diff(shots['pen-laid'][2], expected_initial[2], W, box)
        told = len(pause) == 1 and pause[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500 and wiped < 0.001,
              f"idle_timeout 3 s: the pen's signature, then 6 s of the pen moving above the box: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; the pen then still near the glass for 4 s: "
              f"{100 * wiped:.3f}% differs from the blank box; {pause}")
    else:
        check(name, False, f'no screendump; {pause}')
