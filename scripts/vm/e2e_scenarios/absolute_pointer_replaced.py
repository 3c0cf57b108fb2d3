"""Without input.device: the absolute pointer first, then a touchscreen that appears in its place.

Its guest steps are absolute_pointer_replaced.sh, beside this file; its host checks are check(run), here."""


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    auto = fields('AUTO')
    if shots['auto-signed']:
        d, ink = against_replay(shots['auto-signed'])
        told = len(auto) == 1 and auto[0].get('first') == 'absolute-pointer' and auto[0].get('replaced') == '1' and \
            auto[0].get('touchscreen') == '1' and auto[0].get('alive') == 'yes'
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', told and d < 0.002 and ink > 500,
              f"the usb-tablet taken first; the uinput touchscreen in its place: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {auto}")
    else:
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', False, f'no screendump; {auto}')
