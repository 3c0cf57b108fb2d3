"""An export folder that does not answer at start holds up nothing.

Its guest steps are hung_share.sh, beside this file; its host checks are check(run), here."""


def check(run):
    fields, check = run.fields, run.check
    hung = fields('HUNG')
    waited = len(hung) == 2 and hung[0].get('ready') == '1' and hung[0].get('spool') == '1' and hung[0].get('exports') == '0'
    answered = waited and hung[1].get('spool') == '0' and hung[1].get('exports') == '6' and hung[1].get('alive') == 'yes'
    check('4 an export folder that does not answer at start holds up nothing: signed, spooled, written when it answers', answered,
          f"mkdir of the folder held 30 s: signpad ready and the confirmed signature in the spool while it hung, "
          f"its 5 files in the folder after; {hung}")
