"""A share not mounted yet with export.create_directory = false: nothing on local disk meanwhile.

Its guest steps are unmounted_share.sh, beside this file; its host checks are check(run), here."""


def check(run):
    fields, check = run.fields, run.check
    unmounted = fields('UNMOUNTED')
    kept = len(unmounted) == 2 and unmounted[0].get('local') == '0' and unmounted[0].get('spool') == '1' and unmounted[0].get('missing', '0') != '0'
    check('4 with export.create_directory false, a share not yet mounted gets nothing on local disk; its signature is written once it is',
          kept and unmounted[1].get('share') == '6' and unmounted[1].get('local') == '0' and unmounted[1].get('spool') == '0' and unmounted[1].get('alive') == 'yes',
          f"before the mount: nothing under the mount point, the signature in the spool, the folder said missing; "
          f"after: its 5 files on the share, nothing left under the mount point or in the spool; {unmounted}")
