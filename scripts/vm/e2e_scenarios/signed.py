"""A signature through uinput, its ink (predicted while drawn) against signpad replay's; the device
unplugged between recordings is survived.

Its guest steps are signed.sh, beside this file; its host checks are check(run), here."""
import re


def check(run):
    shots, check, all_logs, against_replay = run.shots, run.check, run.all_logs, run.against_replay
    if shots['signed']:
        d, ink = against_replay(shots['signed'])
        check('2 uinput ink (predicted ahead while drawn) matches signpad replay predicting nothing: no trace after the lifts', d < 0.002 and ink > 500, f'{ink} ink pixels; {100 * d:.3f}% of the box differs (tolerance 0.2%)')
    else:
        check('2 uinput ink (predicted ahead while drawn) matches signpad replay predicting nothing: no trace after the lifts', False, 'no screendump')
    unplug = bool(re.search(r'device=/dev/input/event\d+ .*an input device went away', all_logs))
    check('4 device unplug is survived', unplug and 'signal 15' in all_logs, 'the uinput device went away between recordings and was taken back')
