"""A SYN_DROPPED flood is survived; after kill -9 no ink stays on the panel.

Its guest steps are flood_and_crash.sh, beside this file; its host checks are check(run), here."""
from driver import W, contrast, ink_and_paper


def check(run):
    shots, check, markers, all_logs = run.shots, run.check, run.markers, run.all_logs
    box = run.box
    if shots['inked'] and shots['crashed']:
        # Where the ink and the paper were before the kill: if the signature still showed, the
        # paper would be far brighter than the ink; the console or a dark panel shows neither.
        ink_at, paper_at = ink_and_paper(shots['inked'][2], W, box)
        before, after = contrast(shots['inked'][2], ink_at, paper_at), contrast(shots['crashed'][2], ink_at, paper_at)
        check('5 no ink stays on the panel after kill -9', len(ink_at) > 200 and before > 150 and after < 30,
              f'{len(ink_at)} ink pixels; paper-to-ink contrast {before:.0f} before the kill, {after:.0f} after')
    else:
        check('5 no ink stays on the panel after kill -9', False, 'no screendump')
    check('4 SYN_DROPPED flood is survived', any(m.startswith('ALIVE') for m in markers) and 'SYN_DROPPED' in all_logs,
          'the kernel dropped events while the daemon was frozen; it synced and kept running')
