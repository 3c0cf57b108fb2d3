"""A request signed and killed the moment its signature is kept: after the restart, GetResult
says signed, never failed, as the signature is on disk.

Its guest steps are killed_after_done.sh, beside this file; its host checks are check(run), here."""


def check(run):
    killed = run.said('killedafterdone')
    run.check('S30 killed the moment a confirmed signature is kept, its request reads signed after the restart',
              killed.get('status') == 'signed' and killed.get('stored') in ('saved', 'kept') and killed.get('ondisk') == 'yes', killed['text'])
