"""A configuration that does not load fails the start with EX_CONFIG and is not restarted.

Its guest steps are bad_configuration.sh, beside this file; its host checks are check(run), here."""


def check(run):
    bad = run.said('badconfig')
    run.check('S13 a configuration that does not load fails the start with status 78 (EX_CONFIG) and its line in the journal, and is not restarted',
              bad['state'] == 'failed/failed' and bad.get('result') == 'exit-code' and bad.get('status') == '78' and bad.get('start') != '0' and
              bad.get('restarts') == bad.get('restarts_before') and bad.get('told', '0') != '0',
              f"display.rotation = 45 in the conffile, systemctl start, 6 s later: {bad['text']}")
