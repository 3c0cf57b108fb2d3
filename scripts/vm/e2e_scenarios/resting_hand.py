"""A hand resting on the glass while a finger signs, then while a finger taps Done.

Its guest steps are resting_hand.sh, beside this file; its host checks are check(run), here."""


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    around_drop = run.around_drop
    resting = fields('RESTING')
    name = ('3 a hand resting on the glass while a finger signs: its dot is taken back at once, and the signature is as on a dry panel; '
            'a tap on Done beside it, rested again, saves the signature')
    if shots['resting-signed']:
        d, ink = against_replay(shots['resting-signed'])
        wiped = around_drop(shots['resting-signed'])
        told = (len(resting) == 1 and resting[0].get('withdrawn') == '2' and resting[0].get('letgo') == '0'
                and resting[0].get('saved') == '1' and resting[0].get('strokes') == '5' and resting[0].get('alive') == 'yes')
        check(name, told and wiped == 0 and d < 0.002 and ink > 500,
              f"the hand down at (950, 572), the demo signature signed beside it at once: {ink} ink pixels, {100 * d:.3f}% of the "
              f"box differs from signpad replay of the dry panel, {100 * wiped:.1f}% of the pixels around the hand; then the hand "
              f"down again and a tap on Done beside it: {resting}")
    else:
        check(name, False, f'no screendump; {resting}')
