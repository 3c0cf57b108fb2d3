"""A configuration that does not load fails the start with EX_CONFIG and is not restarted."""

GUEST = r'''
# A configuration that does not load: the start fails with EX_CONFIG and the file, line and key
# in the journal, and systemd does not restart it in a loop (RestartPreventExitStatus=78).
restarts=$(prop NRestarts)
sed -i 's/^rotation = .*/rotation = 45/' /etc/signpad/signpad.toml
systemctl start signpad
start_status=$?
sleep 6
say "CHECK badconfig $(state) status $(prop ExecMainStatus) start $start_status restarts_before $restarts told $(logged 'signpad.toml:13: display.rotation: expected 0, 90, 180 or 270')"
cp /run/signpad.toml.orig /etc/signpad/signpad.toml
systemctl reset-failed signpad
'''


def check(run):
    bad = run.said('badconfig')
    run.check('S13 a configuration that does not load fails the start with status 78 (EX_CONFIG) and its line in the journal, and is not restarted',
              bad['state'] == 'failed/failed' and bad.get('result') == 'exit-code' and bad.get('status') == '78' and bad.get('start') != '0' and
              bad.get('restarts') == bad.get('restarts_before') and bad.get('told', '0') != '0',
              f"display.rotation = 45 in the conffile, systemctl start, 6 s later: {bad['text']}")
