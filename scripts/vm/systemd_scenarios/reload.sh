# A reload with a changed configuration, once "Saved" has gone (nobody is at the pad).
sleep 2.5
sed -i -e 's/^background_color = .*/background_color = "#D0E8FF"/' -e 's/^prompt = .*/prompt = "Reloaded: please sign below"/' /etc/signpad/signpad.toml
reloads=$(logged "ready:")
systemctl reload signpad
reload_status=$?
wait_for 30 above "$reloads" logged "ready:"
wait_for 10 running
say "CHECK reload $(state) status $reload_status ready_before $reloads ready_after $(logged "ready:") first $first_pid"
ask "screendump sd-reloaded"
