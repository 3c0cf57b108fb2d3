"""A pen with only multitouch axes is skipped, and the touchscreen beside it signs.

Its guest steps are faulty_pen.sh, beside this file; its host checks are check(run), here."""


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    faulty = fields('FAULTY')
    name = '3 a pen with only multitouch axes is skipped with the reason, and the touchscreen beside it signs'
    if shots['faulty-signed']:
        d, ink = against_replay(shots['faulty-signed'])
        told = (len(faulty) == 1 and faulty[0].get('skipped') == '1' and faulty[0].get('taken') == '0'
                and faulty[0].get('touchscreen') == '1' and faulty[0].get('alive') == 'yes')
        check(name, told and d < 0.002 and ink > 500,
              f"the demo signature on the touchscreen: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {faulty}")
    else:
        check(name, False, f'no screendump; {faulty}')
