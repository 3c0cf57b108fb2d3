"""The kiosk's signing key survives a restart and an upgrade of the package (the same build, its
version raised), and signs the signature taken after them.

Its guest steps are key_across_upgrade.sh, beside this file; its host checks are check(run), here."""


def check(run):
    kept = run.said('keykept')
    same = kept.get('first') not in (None, 'none') and kept.get('first') == kept.get('restarted') == kept.get('upgraded')
    run.check('S26 the key survives a restart and an upgrade of the package, and signs the signature taken after them',
              kept['state'] == 'active/running' and kept.get('upgrade') == '0' and kept.get('version', '').endswith('+vm1') and kept.get('made') == '1' and
              same and kept.get('verify') == '0' and kept.get('ok') == kept.get('manifests') and int(kept.get('manifests', 0)) > int(kept.get('manifests_before', 0)),
              kept['text'])
