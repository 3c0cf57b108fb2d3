"""An export folder on a network share mounted after the start, set up as the README says: inside
the share, and the mount point itself; spooled meanwhile with nothing on local disk, written to
the share once mounted, as it was signed even through a reload that renames the kiosk.

Its guest steps are share_mounted_late.sh, beside this file; its host checks are check(run), here."""


def check(run):
    away, mounted, unmounted = run.said('shareaway'), run.said('sharemounted'), run.said('shareunmounted')
    run.check('S12 an export folder inside a share mounted after the start: spooled meanwhile, nothing on local disk, written to the share once mounted',
              away['state'] == 'active/running' and away.get('local') == '0' and away.get('spool') == '1' and
              mounted.get('files') == '6' and mounted.get('spool') == '0' and unmounted.get('local') == '0',
              f"before the mount: {away['text']}; mounted: {mounted['text']}; the mount point after unmounting: {unmounted['text']}")
    kept = run.said('sharekept')
    run.check('S15 a signature waiting in the spool through a reload that renames the kiosk and recolours the ink is written as it was signed',
              kept.get('kiosk') == 'signpad-vm-kiosk' and kept.get('ink') == 'rgb(0,0,0)' and kept.get('renamed', '0') != '0',
              f"export.kiosk_name and ink.color changed and reloaded while it waited: {kept['text']}")
    away, mounted, unmounted = run.said('mountpointaway'), run.said('mountpointmounted'), run.said('mountpointunmounted')
    run.check('S14 the mount point itself as the export folder, left root\'s: nothing written under it while the share is away, written to the share once mounted',
              away['state'] == 'active/running' and away.get('local') == '0' and away.get('spool') == '1' and away.get('owner') == 'root:755' and
              mounted.get('files') == '6' and mounted.get('spool') == '0' and unmounted.get('local') == '0',
              f"before the mount: {away['text']}; mounted: {mounted['text']}; the mount point after unmounting: {unmounted['text']}")
