"""Water making and breaking contact, and a contact that jitters: neither keeps a signature on screen.

Its guest steps are water_flicker.sh, beside this file; its host checks are check(run), here."""


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    against_fresh = run.against_fresh
    flicker = fields('FLICKER')
    name = '3 water making and breaking contact does not keep a signature on screen: wiped at the idle timeout, and a finger signs after'
    if shots['flicker-blank'] and shots['flicker-signed']:
        blank = against_fresh(shots['flicker-blank'])
        d, ink = against_replay(shots['flicker-signed'])
        told = len(flicker) == 1 and flicker[0].get('held') == '1' and flicker[0].get('alive') == 'yes'
        check(name, told and blank == 0 and d < 0.002 and ink > 500,
              f"the demo signature, then 20 contacts at one place over 8 s (idle timeout 3 s): {100 * blank:.2f}% of the box differs "
              f"from the fresh kiosk at the end; the signature after: {ink} ink pixels, {100 * d:.3f}% of the box differs from "
              f"signpad replay; {flicker}")
    else:
        check(name, False, f'no screendump; {flicker}')
    name = '3 a contact left down that jitters 2 px does not keep a signature on screen: wiped and let go of at the idle timeout'
    if shots['jitter-blank']:
        blank = against_fresh(shots['jitter-blank'])
        told = len(flicker) == 1 and flicker[0].get('letgo') == '1'
        check(name, told and blank == 0,
              f"the demo signature, then a contact down 6 s moving 2 px every 0.05 s (idle timeout 3 s): {100 * blank:.2f}% of the box "
              f"differs from the fresh kiosk at the end; {flicker}")
    else:
        check(name, False, f'no screendump; {flicker}')
