"""A configuration that does not fit this kiosk, or does not load, ends the start with status 78.

Its guest steps are misfit.sh, beside this file; its host checks are check(run), here."""


def check(run):
    fields, check = run.fields, run.check
    misfit = fields('MISFIT')
    check('5 at start, a configuration that does not fit this kiosk, or does not load, ends signpad with status 78 (EX_CONFIG)',
          len(misfit) == 1 and all(misfit[0].get(k) == '78' for k in ('mode', 'image', 'unloadable')),
          f"exit status with a mode the panel lacks, a background image that does not load, display.rotation = 45: {misfit}")
