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
